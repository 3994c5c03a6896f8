"""Output in UTF-8 whatever the console's code page: what a pipe receives decodes as UTF-8."""

import subprocess
import sys

import pytest

PRINT = "from narnat_agent.platform.console import utf8_output; utf8_output(); print('● · ⎿ 你好')"


@pytest.mark.windows
def test_a_pipe_receives_utf8():
    done = subprocess.run([sys.executable, "-c", PRINT], capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode("utf-8").strip() == "● · ⎿ 你好"
