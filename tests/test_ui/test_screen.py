"""What the screen shows in a real pseudo-terminal, at several widths: keys in, the terminal's rows out."""

import io
import os
import sys

import pexpect
import pytest

from tests.fake_llm import text_reply
from tests.test_ui.test_pty import prompt, screen, text

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")


def spawn(project, fake_llm, width: int = 100) -> pexpect.spawn:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NARNAT_", "OPENAI_", "NO_COLOR"))}
    env.update(HOME=str(project.parent / "home"), NARNAT_API_KEY="k", NARNAT_BASE_URL=fake_llm.base_url,
               TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1")  # fmt: skip
    child = pexpect.spawn(sys.executable, ["-m", "narnat_agent"], cwd=str(project), env=env, dimensions=(30, width),
                          encoding="utf-8", timeout=20)  # fmt: skip
    child.logfile_read = io.StringIO()
    return child


@pytest.mark.parametrize("width", [80, 120])
def test_show_keeps_names_turns_and_dates_whole_and_cuts_the_question(project, fake_llm, width):
    question = "get_real_name() can't get the name of db.schema.tbl.col " * 6
    fake_llm.add(text_reply("Looked."))
    child = spawn(project, fake_llm, width)
    try:
        prompt(child)
        child.send(question.strip() + "\r")
        child.expect("Looked")
        prompt(child)
        child.send("/save a-rather-long-session-name-2026\r")
        child.expect("Saved as")
        prompt(child)
        child.send("/show\r")
        child.expect("a-rather-long")
        prompt(child)
        lines = [text(row) for row in screen(child.logfile_read.getvalue(), width)]
    finally:
        child.close(force=True)
    header = next(line for line in lines if line.startswith("name"))
    assert header.split() == ["name", "turns", "last", "activity", "first", "question"]
    row = next(line for line in lines if line.startswith("a-rather-long-session-name-2026 "))
    assert row.split()[1] == "1" and len(row.split()[2]) == 10 and len(row.split()[3]) == 8  # the date and time whole
    assert row.endswith("…") and "get_real_name()" in row
