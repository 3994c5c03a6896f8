"""/diff shows what a turn changed, from the checkpoints (commands' changes included); /rewind N path restores one
file of a turn."""

import pytest

from narnat_agent.commands.dispatch import dispatch
from tests.fake_llm import text_reply, tool_reply

GENERATE = "python3 -c \"open('gen.txt', 'w').write('generated\\n')\""


def two_turns(h, fake_llm) -> None:
    fake_llm.add(
        tool_reply(("Write", {"file_path": "a.txt", "content": "one\nsame\n"}), ("Bash", {"command": GENERATE})),
        text_reply("Wrote them."),
        tool_reply(("Read", {"file_path": "a.txt"})),
        tool_reply(("Edit", {"file_path": "a.txt", "old_string": "one", "new_string": "two"})),
        text_reply("Edited."),
    )
    h.agent.ask("write a.txt and generate gen.txt")
    h.agent.ask("change one to two")


@pytest.mark.slow
def test_diff_shows_each_file_a_turn_changed_and_rewind_restores_one(harness, fake_llm, project):
    h = harness(answers="y\n")
    two_turns(h, fake_llm)
    out = h.out
    out.truncate(0), out.seek(0)
    dispatch(h.agent, "/diff")
    title = "Turn 2 changed 1 file: change one to two\n"
    assert out.getvalue() == title + "a.txt (+1 -1)\n@@ -1,2 +1,2 @@\n-one\n+two\n same\n"
    out.truncate(0), out.seek(0)
    dispatch(h.agent, "/diff 1")
    assert out.getvalue() == (
        "Turn 1 changed 2 files: write a.txt and generate gen.txt\n"
        "a.txt (created, +2)\n@@ -0,0 +1,2 @@\n+one\n+same\ngen.txt (created, +1)\n@@ -0,0 +1 @@\n+generated\n"
    )
    out.truncate(0), out.seek(0)
    dispatch(h.agent, "/diff 1 gen.txt")
    assert out.getvalue() == (
        "Turn 1 changed 1 file: write a.txt and generate gen.txt\ngen.txt (created, +1)\n@@ -0,0 +1 @@\n+generated\n"
    )
    dispatch(h.agent, "/diff 2 gen.txt")
    dispatch(h.agent, "/diff 3")
    err = h.err.getvalue()
    assert "Turn 2 did not change gen.txt." in out.getvalue() and "There is no turn 3: the turns go from 1 to 2" in err

    messages = list(h.conversation.messages)
    dispatch(h.agent, "/rewind 2 a.txt")
    assert (project / "a.txt").read_text() == "one\nsame\n" and (project / "gen.txt").exists()
    assert "Restored 1 file: a.txt." in h.err.getvalue()
    dispatch(h.agent, "/rewind 1 nothing.txt")
    assert "There is nothing to restore in nothing.txt" in h.err.getvalue()
    assert h.conversation.messages == messages  # the conversation stays as it was


@pytest.mark.slow
def test_a_file_a_turn_created_then_deleted_is_not_in_its_diff(harness, fake_llm, project):
    h = harness(answers="y\n")
    fake_llm.add(
        tool_reply(("Bash", {"command": GENERATE})),
        tool_reply(("Write", {"file_path": "a.txt", "content": "one\n"})),
        tool_reply(("Bash", {"command": "rm gen.txt"})),
        text_reply("Done."),
    )
    h.agent.ask("make a.txt, and a scratch file on the way")
    assert not (project / "gen.txt").exists()
    h.out.truncate(0), h.out.seek(0)
    dispatch(h.agent, "/diff")
    title = "Turn 1 changed 1 file: make a.txt, and a scratch file on the way\n"
    assert h.out.getvalue() == title + "a.txt (created, +1)\n@@ -0,0 +1 @@\n+one\n"


def test_diff_without_turns_says_so(harness):
    h = harness()
    dispatch(h.agent, "/diff")
    assert "Nothing to show: this conversation has no turns yet." in h.out.getvalue() + h.err.getvalue()


def test_both_stores_give_back_the_bytes_a_snapshot_holds(project, tmp_path):
    from narnat_agent.checkpoints.git_store import GitStore
    from narnat_agent.checkpoints.store import CopyStore

    (project / "f.bin").write_bytes(b"\0\x01two\n")
    for store in (CopyStore(project, tmp_path / "copies"), GitStore(project, tmp_path / "git", print)):
        snapshot = store.snapshot([project / "f.bin"], everything=False)
        [content] = store.contents(snapshot.id, ["f.bin"]).values()
        assert content and store.data(content) == b"\0\x01two\n"


@pytest.mark.slow
def test_a_whole_turns_diff_names_a_lockfile_and_a_huge_change_without_their_lines(harness, fake_llm, project):
    h = harness()
    lock = "\n".join(f'"pkg-{n}": "1.0.{n}",' for n in range(50))
    fake_llm.add(
        tool_reply(("Write", {"file_path": "package-lock.json", "content": lock}),
                   ("Write", {"file_path": "big.txt", "content": "line\n" * 500}),
                   ("Write", {"file_path": "a.txt", "content": "one\n"})),
        text_reply("Done."),
    )  # fmt: skip
    h.agent.ask("install and write")
    h.out.truncate(0), h.out.seek(0)
    dispatch(h.agent, "/diff")
    assert h.out.getvalue() == (
        "Turn 1 changed 3 files: install and write\n"
        "a.txt (created, +1)\n@@ -0,0 +1 @@\n+one\n"
        "big.txt (created, +500) · not shown: /diff 1 big.txt\n"
        "package-lock.json (created, +50) · not shown: /diff 1 package-lock.json\n"
    )
    h.out.truncate(0), h.out.seek(0)
    dispatch(h.agent, "/diff 1 package-lock.json")
    assert h.out.getvalue().count('\n+"pkg-') == 50  # asked for by name: every line


def test_a_lockfile_in_a_subfolder_is_named_without_its_lines_too(harness, fake_llm, project):
    h = harness()
    fake_llm.add(tool_reply(("Write", {"file_path": "web/yarn.lock", "content": "a@1:\n  version 1\n"})),
                 text_reply("Done."))  # fmt: skip
    h.agent.ask("install")
    h.out.truncate(0), h.out.seek(0)
    dispatch(h.agent, "/diff")
    assert h.out.getvalue() == (
        "Turn 1 changed 1 file: install\nweb/yarn.lock (created, +2) · not shown: /diff 1 web/yarn.lock\n"
    )


@pytest.mark.slow
def test_an_empty_file_a_turn_filled_or_a_file_it_emptied_is_changed_not_created_or_deleted(harness, fake_llm, project):
    (project / "empty.txt").write_text("")
    (project / "full.txt").write_text("x\n")
    h = harness(answers="y\n")  # the command replaces files that exist: asked
    refill = "python3 -c \"open('empty.txt', 'w').write('one\\n'); open('full.txt', 'w').close()\""
    fake_llm.add(tool_reply(("Bash", {"command": refill})), text_reply("Done."))
    h.agent.ask("swap them")
    h.out.truncate(0), h.out.seek(0)
    dispatch(h.agent, "/diff")
    assert h.out.getvalue() == (
        "Turn 1 changed 2 files: swap them\n"
        "empty.txt (+1 -0)\n@@ -0,0 +1 @@\n+one\nfull.txt (+0 -1)\n@@ -1 +0,0 @@\n-x\n"
    )


@pytest.mark.slow
def test_a_file_name_holding_a_newline_stays_on_its_line(harness, fake_llm, project):
    # "x\n● secrets.txt (deleted, -120)" as a name forged a line of the review
    h = harness(answers="y\n")
    made = "python3 -c \"open('x\\\\n● secrets.txt (deleted, -120)', 'w').write('a\\\\n')\""
    fake_llm.add(tool_reply(("Bash", {"command": made})), text_reply("Made it."))
    h.agent.ask("make it")
    h.out.truncate(0), h.out.seek(0)
    dispatch(h.agent, "/diff")
    lines = h.out.getvalue().splitlines()
    assert lines[:2] == ["Turn 1 changed 1 file: make it", "x\\n● secrets.txt (deleted, -120) (created, +1)"], lines
