"""Autosave, --resume and a crash's summary through the real program, on real session files."""

import json
import subprocess

import pytest

from tests.commands.test_session import sessions
from tests.fake_llm import text_reply
from tests.launch import NARNAT, scrubbed_environment

# A start of Narnat costs seconds under Wine: of these, the Windows tests (`windows`) keep the conversation saved at
# the end of input and resumed by name, and a missing name refused.


def run_repl(project, fake_llm, stdin, *args):
    env = scrubbed_environment()
    env.update(HOME=str(project.parent / "home"), NARNAT_API_KEY="k", NARNAT_BASE_URL=fake_llm.base_url)
    return subprocess.run(
        [*NARNAT, *args], cwd=project, env=env, input=stdin, capture_output=True, text=True, timeout=60
    )


@pytest.mark.slow
@pytest.mark.windows
def test_end_of_input_and_exit_autosave_and_resume_continues(project, fake_llm):
    fake_llm.add(text_reply("remembered"))
    done = run_repl(project, fake_llm, "remember 42\n")
    assert done.returncode == 0
    [name] = sessions(project)
    assert f"Saved this conversation as '{name}'" in done.stderr
    fake_llm.add(text_reply("it was 42"))
    done = run_repl(project, fake_llm, "what was it?\n/exit\n", "--resume", name)
    assert "it was 42" in done.stdout
    history = fake_llm.requests[-1]["messages"]
    assert [m["content"] for m in history if m["role"] == "user"] == ["remember 42", "what was it?"]
    assert json.loads((project / f".narnat/sessions/{name}.json").read_text())["turns"] == 2


@pytest.mark.windows
def test_resume_of_a_missing_session_is_a_clear_error(project, fake_llm):
    done = run_repl(project, fake_llm, "", "--resume", "nope")
    assert done.returncode == 2 and "Cannot resume: there is no session named 'nope'" in done.stderr


@pytest.mark.slow
def test_a_summary_left_by_a_crash_is_inherited_at_start(project, fake_llm):
    (project / ".narnat").mkdir()
    (project / ".narnat" / "last_session_summary.md").write_text("We were fixing bug 7.")
    fake_llm.add(text_reply("ok"))
    done = run_repl(project, fake_llm, "", "-p", "go on")
    assert done.returncode == 0 and "inherited" in done.stderr
    assert fake_llm.requests[0]["messages"][0]["content"].endswith("We were fixing bug 7.\n")
    assert (project / ".narnat" / "last_session_summary.md").read_text() == ""


@pytest.mark.slow
def test_resuming_by_name_follows_the_conversation_through_compression(project, fake_llm):
    (project / ".narnat").mkdir()
    (project / ".narnat" / "narnat.json").write_text('{"compress_turns": 1}')
    fake_llm.add(text_reply("first"))
    run_repl(project, fake_llm, "one\n/save work\n")
    fake_llm.add(text_reply("We talked about one."), text_reply("second"))
    done = run_repl(project, fake_llm, "", "--resume", "work", "-p", "two")
    assert done.returncode == 0, done.stderr
    saved = json.loads((project / ".narnat/sessions/work.json").read_text())
    assert [m["content"] for m in saved["messages"] if m["role"] == "user"] == ["two"]
    assert "We talked about one." in saved["messages"][0]["content"]
