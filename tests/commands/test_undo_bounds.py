"""/undo through the real agent touches only what the agent's own calls made: a folder the person made of the
agent's file stays, and in a project another narnat run works in at the same time, every file that may be that
run's is named before the question, and kept unless the answer is yes."""

import sys
from pathlib import Path

import pytest

from narnat_agent.commands.dispatch import dispatch
from tests.fake_llm import text_reply, tool_reply

OTHER_RUN = """
from pathlib import Path
from narnat_agent.checkpoints import open_checkpoints

root = Path.cwd()
run = open_checkpoints(root, root / ".narnat", [], print)
run.start_turn(1, "theirs", 1)
for n in range(1, 8):
    pending = run.before(f"Write(theirs{n}.txt)", [root / f"theirs{n}.txt"], anything=False)
    (root / f"theirs{n}.txt").write_text("their work\\n")
    run.after(pending)
pending = run.before("Edit(shared.py)", [root / "shared.py"], anything=False)
(root / "shared.py").write_text((root / "shared.py").read_text().replace("z = 1", "z = 2"))
run.after(pending)
"""
COMMAND = """
import subprocess, sys
from pathlib import Path

root = Path.cwd()
(root / "shared.py").write_text((root / "shared.py").read_text().replace("a = 1", "a = 2"))
subprocess.run([sys.executable, "other_run.py"], check=True)  # another narnat in this project, meanwhile
(root / "mine.txt").write_text("mine\\n")
"""
THEIRS = [f"theirs{n}.txt" for n in range(1, 8)]


@pytest.mark.slow
def test_undo_names_every_file_another_run_changed_during_a_command_and_keeps_them(harness, fake_llm, project):
    (project / "shared.py").write_text("a = 1\n" + "\n" * 8 + "z = 1\n")
    (project / "other_run.py").write_text(OTHER_RUN)
    (project / "work.py").write_text(COMMAND)
    h = harness("n\n")
    fake_llm.add(tool_reply(("Bash", {"command": f"{sys.executable} work.py"})), text_reply("done"))
    h.agent.ask("run the work")
    assert (project / "mine.txt").exists() and (project / "theirs7.txt").exists()
    dispatch(h.agent, "/undo")
    err = h.err.getvalue()
    names = ", ".join(["shared.py", *THEIRS])
    assert (f"Changed by another narnat run in this project while the agent's commands ran, so maybe that run's "
            f"work: {names}") in err  # fmt: skip
    assert (
        "Removed 1 file that did not exist then: mine.txt. Kept, as another narnat run changed them too: shared.py,"
        in err
    )
    assert not (project / "mine.txt").exists()
    assert all((project / name).read_text() == "their work\n" for name in THEIRS)
    assert (project / "shared.py").read_text() == "a = 2\n" + "\n" * 8 + "z = 2\n"


def test_undo_leaves_a_folder_the_person_made_of_the_agents_file_and_redo_keeps_it(harness, fake_llm, project):
    (project / "notes").write_text("my notes\n")
    h = harness()
    fake_llm.add(tool_reply(("Read", {"file_path": "notes"})),
                 tool_reply(("Write", {"file_path": "notes", "content": "the agent's notes\n"}),
                            ("Write", {"file_path": "todo.txt", "content": "agent\n"})),
                 text_reply("written"))  # fmt: skip
    h.agent.ask("write the notes")
    (project / "notes").unlink()
    (project / "notes").mkdir()
    (project / "notes/mine.txt").write_text("my work\n")
    dispatch(h.agent, "/undo")
    err = h.err.getvalue()
    assert ("Removed 1 file that did not exist then: todo.txt. Left as they are, being no longer files a checkpoint "
            "keeps (a folder now, or too large): notes.") in err  # fmt: skip
    assert (project / "notes/mine.txt").read_text() == "my work\n" and not (project / "todo.txt").exists()
    dispatch(h.agent, "/redo")
    assert (project / "notes/mine.txt").read_text() == "my work\n" and (project / "todo.txt").read_text() == "agent\n"


def test_every_file_changed_since_is_named_before_the_question(harness, fake_llm, project):
    names = [f"f{n}.txt" for n in range(1, 10)]
    h = harness("n\n")
    fake_llm.add(tool_reply(*(("Write", {"file_path": name, "content": "agent\n"}) for name in names)),
                 text_reply("written"))  # fmt: skip
    h.agent.ask("write nine files")
    for name in names:
        Path(project / name).write_text("mine\n")
    dispatch(h.agent, "/undo")
    assert f"Changed since the agent's last change (by you or another program): {', '.join(names)}" in h.err.getvalue()
    assert all((project / name).read_text() == "mine\n" for name in names)
