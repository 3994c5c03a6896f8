"""/rewind, /undo and /redo through the real agent: the fake provider asks for real tools on real files."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from narnat_agent.checkpoints import NO_COMMANDS
from narnat_agent.commands.dispatch import dispatch
from narnat_agent.conversation.context import with_reminder
from tests.commands.test_session_runs import run_repl
from tests.fake_llm import text_reply, tool_reply


@pytest.fixture
def tree(project) -> Path:
    (project / "src").mkdir()
    (project / "src" / "main.py").write_text("print('hello')\n")
    (project / "src" / "data.bin").write_bytes(bytes(range(256)))
    (project / "gen.py").write_text("open('out.txt', 'w').write('generated 2\\n')\n")
    (project / "out.txt").write_text("generated 1\n")
    (project / "notes.txt").write_bytes(b"one\r\ntwo\r\n")
    return project


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and not p.relative_to(root).as_posix().startswith((".narnat/", ".git/"))}  # fmt: skip


def read_then_edit(fake_llm, path: str, old: str, new: str, answer: str = "edited") -> None:
    fake_llm.add(tool_reply(("Read", {"file_path": path})),
                 tool_reply(("Edit", {"file_path": path, "old_string": old, "new_string": new})),
                 text_reply(answer))  # fmt: skip


def the_big_turn(fake_llm) -> None:
    """Edit a file, Write a new one, delete a folder (confirmed) and run a program that rewrites a file."""
    fake_llm.add(
        tool_reply(("Read", {"file_path": "src/main.py"})),
        tool_reply(("Edit", {"file_path": "src/main.py", "old_string": "hello", "new_string": "bye"}),
                   ("Write", {"file_path": "lib/new.py", "content": "x = 1\n"})),
        tool_reply(("Bash", {"command": "rm -rf src"})),
        tool_reply(("Bash", {"command": "python3 gen.py"})),
        text_reply("all done"),
    )  # fmt: skip


def test_undo_gives_back_every_byte_and_the_question(harness, fake_llm, tree):
    original = files(tree)
    h = harness("y\n")
    the_big_turn(fake_llm)
    h.agent.ask("change everything")
    assert not (tree / "src").exists() and (tree / "out.txt").read_text() == "generated 2\n"
    assert "rm deletes files: src; /undo can restore it" in h.err.getvalue()
    dispatch(h.agent, "/undo")
    assert files(tree) == original and not (tree / "lib").exists()
    assert h.conversation.messages == h.conversation.messages[:1] and h.conversation.turns == 0
    assert h.agent.workspace.reads == {}  # the model must Read again what it read in the taken-back turn
    err = h.err.getvalue()
    assert ("Rewound to before turn 1: code and conversation. Restored 3 files: out.txt, src/data.bin, src/main.py. "
            "Removed 1 file that did not exist then: lib/new.py.") in err  # fmt: skip
    assert "/redo takes it back until your next question." in err
    assert err.rstrip().endswith("change everything")  # given back to send again


def test_a_question_about_what_undo_cannot_restore_does_not_promise_undo(harness, fake_llm, tree):
    fake_llm.add(tool_reply(("Bash", {"command": "psql app -c 'DROP TABLE users'"})), text_reply("asked"))
    h = harness("n\n")
    h.agent.ask("drop the users table")
    assert "psql drops table users — /undo cannot restore it" in h.err.getvalue()
    assert "can be undone with /undo" not in h.err.getvalue()


def test_redo_brings_back_the_code_and_the_conversation(harness, fake_llm, tree):
    h = harness("y\n")
    the_big_turn(fake_llm)
    h.agent.ask("change everything")
    done, messages = files(tree), list(h.conversation.messages)
    dispatch(h.agent, "/undo")
    dispatch(h.agent, "/redo")
    assert files(tree) == done and h.conversation.messages == messages and h.conversation.turns == 1
    assert ("Redone: the rewind to before turn 1 is taken back. Restored 2 files: lib/new.py, out.txt. Removed 2 files "
            "that did not exist then: src/data.bin, src/main.py.") in h.err.getvalue()  # fmt: skip
    dispatch(h.agent, "/redo")
    assert "There is nothing to redo" in h.err.getvalue()


def test_after_undo_then_redo_the_model_may_edit_what_it_read_and_wrote_and_hears_nothing(harness, fake_llm, tree):
    h = harness()
    read_then_edit(fake_llm, "src/main.py", "hello", "bye")
    h.agent.ask("say bye")
    dispatch(h.agent, "/undo")
    dispatch(h.agent, "/redo")
    fake_llm.add(tool_reply(("Edit", {"file_path": "src/main.py", "old_string": "bye", "new_string": "ciao"})),
                 text_reply("edited again"))  # fmt: skip
    h.agent.ask("say ciao instead")
    assert (tree / "src/main.py").read_text() == "print('ciao')\n"  # the conversation shows the Read and the Edit
    assert "Read a file again" not in json.dumps(fake_llm.requests[-2]["messages"][-1])  # files are as it shows


def test_after_undo_the_model_knows_a_file_as_it_knew_it_when_the_undone_turn_began(harness, fake_llm, tree):
    h = harness()
    read_then_edit(fake_llm, "src/main.py", "hello", "bye")
    h.agent.ask("say bye")
    fake_llm.add(tool_reply(("Edit", {"file_path": "src/main.py", "old_string": "bye", "new_string": "ciao"})),
                 text_reply("edited"))  # fmt: skip
    h.agent.ask("say ciao")
    dispatch(h.agent, "/undo")  # the file is as turn 1 left it, and the conversation shows turn 1's Read and Edit
    fake_llm.add(tool_reply(("Edit", {"file_path": "src/main.py", "old_string": "bye", "new_string": "hola"})),
                 text_reply("edited again"))  # fmt: skip
    h.agent.ask("say hola")
    assert (tree / "src/main.py").read_text() == "print('hola')\n"


def test_undo_does_not_name_narnats_own_folder_as_a_loss(harness, fake_llm, tree):
    h = harness("y\n")
    code = "import os; os.makedirs('.narnat/jobs', exist_ok=True); open('.narnat/jobs/j.log', 'w'); open('a.txt', 'w')"
    fake_llm.add(tool_reply(("Bash", {"command": f'python3 -c "{code}"'})), text_reply("done"))
    h.agent.ask("make a.txt")
    dispatch(h.agent, "/undo")
    assert "Removed 1 file that did not exist then: a.txt." in h.err.getvalue()
    assert ".narnat/" not in h.err.getvalue().split("Rewound to before turn 1", 1)[1]


def test_a_code_rewind_taken_back_leaves_nothing_to_tell_the_model(harness, fake_llm, tree):
    h = harness("1\n3\n")
    read_then_edit(fake_llm, "src/main.py", "hello", "bye")
    h.agent.ask("say bye")
    dispatch(h.agent, "/rewind")  # turn 1, code only: the model must hear its edit is gone
    assert h.agent.session.notes
    dispatch(h.agent, "/redo")  # and back: what it was told no longer holds, and nothing else changed
    assert h.agent.session.notes == [] and (tree / "src/main.py").read_text() == "print('bye')\n"


def test_the_listing_and_a_rewind_to_the_middle_of_a_turn(harness, fake_llm, tree):
    h = harness("y\n1.3\ny\n")
    the_big_turn(fake_llm)
    h.agent.ask("change everything")
    dispatch(h.agent, "/rewind")
    out = h.out.getvalue()
    assert "   1  " in out and "4  +2 -2" in out and "change everything" in out  # main.py: edited, then deleted
    assert "1.3  Bash(rm -rf src)" in out and "1.4  Bash(python3 gen.py)" in out
    assert (tree / "src/main.py").read_text() == "print('bye')\n"  # the edit before step 3 stays
    assert (tree / "lib/new.py").exists() and (tree / "out.txt").read_text() == "generated 1\n"
    assert h.conversation.turns == 1 and "Rewound to before turn 1, step 3: code. Restored 3 files" in h.err.getvalue()


def test_conversation_only_and_code_only(harness, fake_llm, tree):
    h = harness("1\n2\n1\n3\n")
    read_then_edit(fake_llm, "src/main.py", "hello", "first")
    h.agent.ask("first change")
    dispatch(h.agent, "/rewind")  # turn 1, conversation only
    assert h.conversation.turns == 0 and (tree / "src/main.py").read_text() == "print('first')\n"
    read_then_edit(fake_llm, "src/main.py", "first", "second")
    h.agent.ask("second change")
    dispatch(h.agent, "/rewind")  # turn 1 (the second change), code only
    assert h.conversation.turns == 1 and (tree / "src/main.py").read_text() == "print('first')\n"
    assert h.conversation.messages[1]["content"] == "second change"


def test_a_file_the_user_changed_is_asked_about_and_kept_when_declined(harness, fake_llm, tree):
    h = harness("n\n")
    fake_llm.add(tool_reply(("Read", {"file_path": "notes.txt"})),
                 tool_reply(("Write", {"file_path": "a.txt", "content": "agent\n"}),
                            ("Write", {"file_path": "notes.txt", "content": "agent\n"})),
                 text_reply("written"))  # fmt: skip
    h.agent.ask("write two files")
    (tree / "notes.txt").write_text("the user's own words\n")
    dispatch(h.agent, "/undo")
    err = h.err.getvalue()
    assert "Changed since the agent's last change (by you or another program): notes.txt" in err
    assert "Removed 1 file that did not exist then: a.txt. Kept as changed since: notes.txt." in err
    assert (tree / "notes.txt").read_text() == "the user's own words\n" and not (tree / "a.txt").exists()


@pytest.mark.slow
def test_a_rewind_after_save_restart_and_resume(project, fake_llm, tree):
    original = files(tree)
    read_then_edit(fake_llm, "src/main.py", "hello", "bye")
    done = run_repl(project, fake_llm, "change it\n/save work\n")
    assert done.returncode == 0 and (tree / "src/main.py").read_text() == "print('bye')\n"
    saved = json.loads((project / ".narnat/sessions/work.json").read_text())
    assert saved["checkpoints"][0]["steps"][0]["call"] == "Edit(src/main.py)"
    done = run_repl(project, fake_llm, "/undo\n", "--resume", "work")
    assert "Rewound to before turn 1: code and conversation. Restored 1 file: src/main.py." in done.stderr
    assert files(tree) == original


def test_the_users_own_git_repository_is_untouched(harness, fake_llm, tree):
    git = lambda *args: subprocess.run(["git", *args], cwd=tree, capture_output=True, check=True,  # noqa: E731
                                       env=dict(os.environ, GIT_OPTIONAL_LOCKS="0")).stdout  # fmt: skip
    git("init", "-q")
    git("add", "src")
    git("-c", "user.name=u", "-c", "user.email=u@x", "commit", "-qm", "init")
    git("add", "gen.py")
    git("-c", "user.name=u", "-c", "user.email=u@x", "stash", "-q")
    (tree / "gen.py").write_text("open('out.txt', 'w').write('generated 2\\n')\n")
    state = lambda: (git("status", "--porcelain"), git("stash", "list"), (tree / ".git/index").read_bytes(),  # noqa: E731
                     git("for-each-ref"), git("log", "--all", "--format=%H"))  # fmt: skip
    before = state()
    h = harness("y\n")
    the_big_turn(fake_llm)
    h.agent.ask("change everything")
    dispatch(h.agent, "/undo")
    assert state() == before


def test_without_git_write_and_edit_are_undone_and_commands_are_said_not_covered(harness, fake_llm, tree, tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in ("bash", "rm"):
        (bin_dir / tool).symlink_to(shutil.which(tool))
    os.environ["PATH"], path = str(bin_dir), os.environ["PATH"]
    try:
        h = harness("y\ny\n")
        fake_llm.add(
            tool_reply(("Write", {"file_path": "lib/new.py", "content": "x = 1\n"})),
            tool_reply(("Bash", {"command": "rm -rf src"})),
            tool_reply(("Bash", {"command": "rm out.txt"})),
            text_reply("done"),
        )
        h.agent.ask("change things")
        dispatch(h.agent, "/undo")
    finally:
        os.environ["PATH"] = path
    err = h.err.getvalue()
    assert err.count(NO_COMMANDS) == 1 and "/undo can restore" not in err
    assert not (tree / "lib/new.py").exists()  # Write: undone
    assert not (tree / "src").exists() and not (tree / "out.txt").exists()  # Bash: not covered, as said


def test_checkpoints_survive_compression_for_the_code(harness, fake_llm, tree):
    h = harness()
    read_then_edit(fake_llm, "src/main.py", "hello", "bye")
    h.agent.ask("change it")
    fake_llm.add(text_reply("A summary of what happened."))
    assert h.agent.compress()
    dispatch(h.agent, "/rewind 1")
    assert (tree / "src/main.py").read_text() == "print('hello')\n"
    assert "Rewound to before turn 1: code. Restored 1 file: src/main.py. /redo takes it back" in h.err.getvalue()


def test_a_broken_store_is_one_sentence_and_the_turn_goes_on(harness, fake_llm, tree):
    (tree / ".narnat").mkdir()
    (tree / ".narnat/checkpoints").write_text("not a folder")
    h = harness()
    read_then_edit(fake_llm, "src/main.py", "hello", "bye", answer="edited anyway")
    h.agent.ask("change it")
    assert "edited anyway" in h.out.getvalue() and (tree / "src/main.py").read_text() == "print('bye')\n"
    assert h.err.getvalue().count("Checkpoints are off for this run") == 1
    dispatch(h.agent, "/undo")
    assert "cannot be restored (checkpoints are off for this run)" in h.err.getvalue()
    assert h.conversation.turns == 0
    dispatch(h.agent, "/redo")  # a rewind of the conversation alone needs no store to be undone
    assert h.conversation.turns == 1 and "Redone: the rewind to before turn 1 is taken back." in h.err.getvalue()


def test_checkpoints_go_with_their_conversation_through_clear_and_enter(harness, fake_llm, tree):
    h = harness()
    read_then_edit(fake_llm, "src/main.py", "hello", "bye")
    h.agent.ask("change it")
    dispatch(h.agent, "/save first")
    dispatch(h.agent, "/clear")
    dispatch(h.agent, "/undo")
    assert "Nothing to undo" in h.out.getvalue() and (tree / "src/main.py").read_text() == "print('bye')\n"
    dispatch(h.agent, "/enter first")
    dispatch(h.agent, "/undo")
    assert (tree / "src/main.py").read_text() == "print('hello')\n" and h.conversation.turns == 0


def test_a_turn_with_neither_files_nor_conversation_left_cannot_be_undone(harness, fake_llm, tree):
    (tree / ".narnat").mkdir()
    (tree / ".narnat/checkpoints").write_text("not a folder")
    h = harness()
    read_then_edit(fake_llm, "src/main.py", "hello", "bye")
    h.agent.ask("change it")
    fake_llm.add(text_reply("A summary of what happened."))
    assert h.agent.compress()
    dispatch(h.agent, "/undo")
    assert "Turn 1 cannot be taken back: its conversation was compressed and checkpoints are off" in h.err.getvalue()
    assert [type(e).__name__ for e in h.agent.checkpoints.entries] == ["Turn"]


def test_a_code_only_rewind_is_told_to_the_model_with_the_next_question(harness, fake_llm, tree):
    h = harness("1\n3\n")
    read_then_edit(fake_llm, "src/main.py", "hello", "changed")
    h.agent.ask("change it")
    dispatch(h.agent, "/rewind")  # turn 1, code only: the history still shows the edit
    assert (tree / "src/main.py").read_text() == "print('hello')\n"
    fake_llm.add(text_reply("noted"))
    h.agent.ask("what does main.py print?")
    question = fake_llm.requests[-1]["messages"][-1]["content"]
    assert question.startswith("what does main.py print?") and "rewound files" in question and "src/main.py" in question
    fake_llm.add(text_reply("again"))
    h.agent.ask("and now?")
    assert "rewound" not in fake_llm.requests[-1]["messages"][-1]["content"]  # said once


def test_damaged_checkpoints_in_a_session_file_are_dropped_in_one_sentence(harness, fake_llm, tree):
    h = harness()
    read_then_edit(fake_llm, "src/main.py", "hello", "bye")
    h.agent.ask("change it")
    dispatch(h.agent, "/save work")
    path = tree / ".narnat/sessions/work.json"
    data = json.loads(path.read_text())
    del data["checkpoints"][0]["steps"][0]["before"]
    path.write_text(json.dumps(data))
    dispatch(h.agent, "/enter work")
    assert "The checkpoints saved with this conversation are damaged" in h.err.getvalue()
    dispatch(h.agent, "/undo")
    assert "Nothing to undo" in h.out.getvalue() and h.conversation.turns == 1


def test_undo_gives_back_what_the_person_typed_not_the_reminders_narnat_added(harness, fake_llm, tree):
    h = harness("y\n")
    fake_llm.add(text_reply("noted"))
    h.agent.ask(with_reminder("remember the plan", ["After your last turn Narnat ran `pytest`: failed."]))  # a goal's
    dispatch(h.agent, "/undo")
    assert h.err.getvalue().rstrip().endswith("remember the plan") and "system-reminder" not in h.err.getvalue()


def test_undo_forgets_only_the_reads_of_the_files_it_took_back(harness, fake_llm, tree):
    h = harness()
    fake_llm.add(tool_reply(("Read", {"file_path": "notes.txt"})), text_reply("read"))
    h.agent.ask("read the notes")
    read_then_edit(fake_llm, "src/main.py", "hello", "bye")
    h.agent.ask("change main")
    dispatch(h.agent, "/undo")
    assert set(h.agent.workspace.reads) == {tree / "notes.txt"}  # main.py is back as it was: read it again
    fake_llm.add(tool_reply(("Edit", {"file_path": "notes.txt", "old_string": "one", "new_string": "uno"})),
                 text_reply("edited"))  # fmt: skip
    h.agent.ask("edit the notes")
    assert (tree / "notes.txt").read_bytes() == b"uno\r\ntwo\r\n"  # read before the turn taken back: still known


def test_a_conversation_only_rewind_forgets_the_reads_of_the_files_its_turns_changed(harness, fake_llm, tree):
    h = harness("2\n2\n")
    fake_llm.add(tool_reply(("Read", {"file_path": "notes.txt"})), text_reply("read"))
    h.agent.ask("read the notes")
    read_then_edit(fake_llm, "src/main.py", "hello", "bye")
    h.agent.ask("change main")
    dispatch(h.agent, "/rewind")  # to before turn 2, conversation only: the edit stays, unseen by the model
    assert (tree / "src/main.py").read_text() == "print('bye')\n"
    assert set(h.agent.workspace.reads) == {tree / "notes.txt"}


def test_a_question_to_delete_says_what_undo_can_restore_of_the_files_it_names(harness, fake_llm, tree):
    (tree / ".gitignore").write_text("node_modules/\n")
    (tree / "node_modules" / "left-pad").mkdir(parents=True)
    (tree / "node_modules" / "left-pad" / "index.js").write_text("module.exports = 1\n")
    h = harness("n\nn\nn\nn\n")
    fake_llm.add(tool_reply(("Bash", {"command": "rm notes.txt"})),
                 tool_reply(("Bash", {"command": "rm -r src out.txt"})),
                 tool_reply(("Bash", {"command": "rm -rf node_modules"})),
                 tool_reply(("Bash", {"command": "rm -rf src node_modules/left-pad"})),
                 tool_reply(("Bash", {"command": "rm -f missing.txt"})), text_reply("asked"))  # fmt: skip
    h.agent.ask("clean up")
    err = h.err.getvalue()
    assert "rm deletes files: notes.txt; /undo can restore it" in err
    assert "rm deletes files: src out.txt; /undo can restore them" in err
    assert "rm deletes files: node_modules; /undo cannot restore node_modules/ (a folder .gitignore names)" in err
    assert "/undo can restore them, but not node_modules/left-pad (in a folder .gitignore names)" in err
    assert "rm deletes files: missing.txt; /undo can restore files, but not those in folders .gitignore names" in err


def test_what_a_command_does_in_an_ignored_folder_is_said_not_restorable(harness, fake_llm, tree):
    (tree / ".gitignore").write_text("node_modules/\n")
    (tree / "package.json").write_text('{"dependencies": {}}\n')
    (tree / "node_modules" / "left-pad").mkdir(parents=True)
    (tree / "node_modules" / "left-pad" / "index.js").write_text("module.exports = 1\n")
    emptied = "python3 -c \"import shutil; shutil.rmtree('node_modules'); __import__('os').mkdir('node_modules')\""
    h = harness("y\ny\n")
    fake_llm.add(tool_reply(("Bash", {"command": emptied})), text_reply("install step failed"))  # npm ci, failing
    h.agent.ask("npm ci")
    err = h.err.getvalue()
    assert "Bash(python3 -c \"import shutil; shutil.rmtree('node_modules');" in err
    assert (": /undo cannot restore node_modules/ (a folder .gitignore names, whose files checkpoints do not keep)."
            in err)  # fmt: skip
    installed = "python3 -c \"import os; os.mkdir('node_modules/yargs'); open('package.json', 'a').write(' ')\""
    fake_llm.add(tool_reply(("Bash", {"command": installed})), text_reply("installed"))  # npm install
    h.agent.ask("npm install yargs")
    assert h.err.getvalue().count("/undo cannot restore node_modules/") == 1  # a folder that only grew: said by /undo
    dispatch(h.agent, "/undo")
    err = h.err.getvalue()
    assert "Restored 1 file: package.json. Could not restore (never kept in a checkpoint): node_modules/." in err
    assert (tree / "node_modules" / "yargs").is_dir()


def test_a_command_that_only_fills_an_ignored_cache_is_no_step(harness, fake_llm, tree):
    (tree / ".gitignore").write_text("__pycache__/\n")
    (tree / "__pycache__").mkdir()
    fake_llm.add(tool_reply(("Bash", {"command": "touch __pycache__/a.pyc"})), text_reply("tested"))  # pytest
    h = harness()
    h.agent.ask("run the tests")
    assert h.agent.checkpoints.turns()[0].calls == [] and "/undo cannot restore" not in h.err.getvalue()


def test_a_code_rewind_made_just_before_leaving_is_told_to_the_model_after_resuming(harness, fake_llm, tree):
    from narnat_agent.conversation import session as sessions

    h = harness("1\n3\n")
    read_then_edit(fake_llm, "src/main.py", "hello", "bye")
    h.agent.ask("say bye")
    dispatch(h.agent, "/rewind")  # turn 1, code only; then the person leaves before asking anything
    name = h.agent.save()
    assert name is not None
    h.agent.switch(sessions.load(h.agent.config.state_dir, name))  # what --resume and -c do
    fake_llm.add(text_reply("ok"))
    h.agent.ask("go on")
    told = fake_llm.requests[-1]["messages"][-1]["content"]
    assert told.startswith("go on") and "The user rewound files to how they were before turn 1" in told
    assert "src/main.py" in told


def test_a_read_after_a_code_rewind_says_the_file_was_restored_by_rewind_as_edit_does(harness, fake_llm, tree):
    h = harness("1\n3\n")
    read_then_edit(fake_llm, "src/main.py", "hello", "bye")
    h.agent.ask("say bye")
    dispatch(h.agent, "/rewind")  # turn 1, code only
    fake_llm.add(tool_reply(("Read", {"file_path": "src/main.py"})), text_reply("read"))
    h.agent.ask("look again")
    result = fake_llm.requests[-1]["messages"][-1]["content"]
    assert result.startswith("Note: src/main.py was restored by /rewind after you last read it.\n"), result
