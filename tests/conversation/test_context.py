"""Turn counting, warnings and @file reminders."""

from narnat_agent.conversation.context import with_mentions
from tests.fake_llm import text_reply, tool_reply


def test_turns_count_questions_only_and_warn_once_at_each_threshold(harness, fake_llm):
    h = harness(warn_turns=[2, 3], compress_turns=10)
    fake_llm.add(*[text_reply(f"a{n}") for n in range(4)])
    for n in range(4):
        h.agent.ask(f"q{n}")
    warnings = [line for line in h.err.getvalue().splitlines() if line.startswith("⚠")]
    assert warnings == [
        "⚠ This conversation has reached 2 turns. At 10 it will be compressed.",
        "⚠ This conversation has reached 3 turns. At 10 it will be compressed. Consider /clear to start a new "
        "conversation.",
    ]
    assert h.agent.conversation.turns == 4


def test_mentions_remind_the_model_to_read_existing_files(project):
    (project / "src").mkdir()
    for name in ("a.py", "b.py", "c.py", "d.py", "e.py", "f.py"):
        (project / "src" / name).write_text("")
    text = "compare @src/a.py with @src/b.py, @src/a.py again, @missing.py and mail me@example.com"
    reminded = with_mentions(text, project, lambda path: False)
    assert reminded.startswith(text)
    assert "The user mentioned @src/a.py, @src/b.py.\nYou MUST read these files with the Read tool" in reminded
    assert "missing.py" not in reminded.split("<system-reminder>")[1] and "example.com" not in reminded[len(text) :]
    many = " ".join(f"@src/{n}.py" for n in "abcdef")
    assert "@src/e.py (and 1 more)." in with_mentions(many, project, lambda path: False)
    assert with_mentions("no mentions here", project, lambda path: False) == "no mentions here"


def test_a_mention_reaches_the_model_with_the_question(harness, fake_llm, project):
    (project / "app.py").write_text("x = 1\n")
    h = harness()
    fake_llm.add(text_reply("ok"))
    h.agent.ask("what does @app.py do?")
    sent = fake_llm.requests[0]["messages"][-1]["content"]
    assert sent.startswith("what does @app.py do?") and "The user mentioned @app.py." in sent


def test_a_mention_of_a_file_the_model_has_read_as_it_is_adds_no_reminder(harness, fake_llm, project):
    (project / "app.py").write_text("x = 1\n")
    h = harness()
    fake_llm.add(
        tool_reply(("Read", {"file_path": "app.py"})), text_reply("read"), text_reply("same"), text_reply("changed")
    )
    h.agent.ask("what does @app.py do?")
    h.agent.ask("and what does @app.py return?")
    assert fake_llm.requests[-1]["messages"][-1]["content"] == "and what does @app.py return?"  # already in context
    (project / "app.py").write_text("x = 2\n")
    h.agent.ask("look at @app.py now")
    assert "The user mentioned @app.py." in fake_llm.requests[-1]["messages"][-1]["content"]  # changed since
