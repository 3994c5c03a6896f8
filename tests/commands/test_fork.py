"""/fork and --fork: the conversation goes on in a copy under a new name; the original stays; /undo works in both."""

import json

import pytest

from narnat_agent.commands.dispatch import dispatch
from tests.fake_llm import text_reply, tool_reply
from tests.run.test_cli import narnat


def saved(project, name: str) -> dict:
    return json.loads((project / ".narnat" / "sessions" / f"{name}.json").read_text())


@pytest.mark.slow
def test_fork_goes_on_in_a_copy_and_undo_works_in_both(harness, fake_llm, project):
    fake_llm.add(tool_reply(("Write", {"file_path": "a.txt", "content": "a\n"})), text_reply("Wrote a."),
                 tool_reply(("Write", {"file_path": "b.txt", "content": "b\n"})), text_reply("Wrote b."))  # fmt: skip
    h = harness(answers="1\n")
    h.agent.ask("write a")
    origin = h.agent.session.name
    dispatch(h.agent, "/fork")
    assert h.agent.session.name == f"{origin}-fork" and f"'{origin}' stays as it was" in h.err.getvalue()
    h.agent.ask("write b")
    assert (saved(project, origin)["turns"], h.conversation.turns) == (1, 2)
    assert fake_llm.requests[2]["messages"][: len(fake_llm.requests[1]["messages"])] == fake_llm.requests[1]["messages"]

    dispatch(h.agent, "/undo")  # in the fork: its own last turn
    assert not (project / "b.txt").exists() and (project / "a.txt").exists()
    dispatch(h.agent, f"/enter {origin}")
    dispatch(h.agent, f"/fork {origin}-fork")
    assert f"A session named '{origin}-fork' exists already" in h.err.getvalue() and h.agent.session.name == origin
    dispatch(h.agent, "/undo")  # in the original: the turn both share
    assert not (project / "a.txt").exists()


def test_a_conversation_without_turns_is_not_forked(harness):
    h = harness()
    dispatch(h.agent, "/fork")
    assert "Nothing to fork yet" in h.err.getvalue()


@pytest.mark.slow
def test_headless_fork_of_the_latest_conversation_leaves_it_as_it_was(project, fake_llm):
    fake_llm.add(text_reply("one"), text_reply("two"))
    first = json.loads(narnat(project, "-p", "hi", "--output-format", "json", base_url=fake_llm.base_url).stdout)
    done = narnat(project, "-c", "--fork", "-p", "again", "--output-format", "json", base_url=fake_llm.base_url)
    second = json.loads(done.stdout)
    assert second["session"] == f"{first['session']}-fork" and saved(project, first["session"])["turns"] == 1
    assert saved(project, second["session"])["turns"] == 2
    assert [m["content"] for m in fake_llm.requests[1]["messages"] if m["role"] == "user"] == ["hi", "again"]
    done = narnat(project, "--fork", "-p", "x")
    assert done.returncode == 2 and "--fork needs -c or --resume" in done.stderr
