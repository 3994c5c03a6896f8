"""A start on a platform Narnat cannot run on says so in one sentence."""

import subprocess
import sys

# the start as the `narnat` command makes it, told it is on Windows once what reads os.name at import is loaded
WINDOWS = "import os, shutil, sys; from narnat_agent.cli import main; os.name = 'nt'; sys.exit(main(sys.argv[1:]))"


def test_a_start_on_windows_says_in_one_sentence_to_use_wsl2(project):
    done = subprocess.run([sys.executable, "-c", WINDOWS], cwd=project, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "WSL2" in done.stderr and "Traceback" not in done.stderr
    assert not (project / ".narnat").exists()  # nothing was started


def test_the_version_still_answers_there(project):
    done = subprocess.run(
        [sys.executable, "-c", WINDOWS, "--version"], cwd=project, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0 and done.stdout.startswith("narnat ")
