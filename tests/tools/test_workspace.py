"""What the tools share, in process: what the model has read of each file (pages merged, lines renumbered after an
edit, rewinds), the iron law's refusals, paths resolved and shown, the questions asked, a missing file's guesses and
an editor's unsaved text."""

import os
import sys
from pathlib import Path

import pytest

from narnat_agent.tools.base import ToolError
from narnat_agent.tools.files.textfile import digest
from narnat_agent.tools.registry import execute
from narnat_agent.tools.workspace import FileRecord, Workspace, printable, renumbered
from tests.platforms import NO_SYMLINKS


def test_lines_seen_keep_their_place_after_an_edit_above_them_and_the_lines_written_count_where_all_were_seen():
    # lines 1-10 seen; lines 3-4 (2 lines) replaced by 5: 5-10 move down by 3, the new 3-7 were written over seen ones
    assert renumbered(((1, 10),), [(3, 2, 5)]) == ((1, 13),)
    # lines 5-8 seen; lines 2-3 replaced by one line (above): 5-8 become 4-7
    assert renumbered(((5, 8),), [(2, 2, 1)]) == ((4, 7),)
    # lines 1-4 seen, 6-9 not; line 5 (unseen) replaced by three: the new lines are not seen, 6-9 unseen still
    assert renumbered(((1, 4),), [(5, 1, 3)]) == ((1, 4),)
    # two changes, listed out of order: each shifts what follows it
    assert renumbered(((1, 20),), [(15, 1, 0), (2, 0, 2)]) == ((1, 21),)
    # a seen range cut by a change that replaced lines it only partly covered
    assert renumbered(((1, 3),), [(3, 2, 1)]) == ((1, 2),)
    # the lines removed leave nothing behind; the lines after them close up
    assert renumbered(((1, 2), (4, 6)), [(3, 1, 0)]) == ((1, 5),)
    assert renumbered((), [(1, 1, 1)]) == ()
    # a change at a seen range's first or last line was seen whole
    assert renumbered(((3, 5),), [(3, 1, 1)]) == ((3, 5),)
    assert renumbered(((1, 3),), [(3, 1, 1)]) == ((1, 3),)
    # a change after another: the lines written are numbered past the lines the first one added
    assert renumbered(((1, 5), (10, 10)), [(2, 0, 2), (10, 1, 1)]) == ((1, 7), (12, 12))
    assert renumbered(((1, 5), (10, 10)), [(2, 0, 2), (10, 1, 2)]) == ((1, 7), (12, 13))
    # seen lines deleted whole leave no range behind
    assert renumbered(((5, 6),), [(5, 2, 0)]) == ()


def test_pages_read_merge_into_whole_when_they_meet(workspace, project):
    path = project / "a.py"
    sha = digest(b"x")
    workspace.saw(path, sha, False, (((1, 10),), 30))
    workspace.saw(path, sha, False, (((21, 30),), 30))
    assert workspace.reads[path] == FileRecord(sha, False, ((1, 10), (21, 30)))
    workspace.saw(path, sha, False, (((11, 20),), 30))  # meets both neighbours: the whole file
    assert workspace.reads[path] == FileRecord(sha, True, ())
    workspace.saw(path, sha, False, (((5, 6),), 30))  # a page of a file read whole leaves it whole
    assert workspace.reads[path].whole


def test_overlapping_and_unsorted_pages_merge_and_a_gap_of_one_line_stays(workspace, project):
    path = project / "a.py"
    sha = digest(b"x")
    workspace.saw(path, sha, False, ([[8, 12], [1, 5]], 40))  # a restored record holds lists
    workspace.saw(path, sha, False, (((3, 9),), 40))
    assert workspace.reads[path].seen == ((1, 12),)
    workspace.saw(path, sha, False, (((14, 20),), 40))
    assert workspace.reads[path].seen == ((1, 12), (14, 20))
    workspace.saw(path, sha, False, (((13, 13), (21, 40)), 40))
    assert workspace.reads[path] == FileRecord(sha, True, ())


def test_pages_of_other_content_do_not_count_and_a_whole_read_needs_no_pages(workspace, project):
    path = project / "a.py"
    workspace.saw(path, digest(b"old"), False, (((1, 10),), 20))
    workspace.saw(path, digest(b"new"), False, (((11, 20),), 20))
    assert workspace.reads[path] == FileRecord(digest(b"new"), False, ((11, 20),))
    workspace.saw(path, digest(b"newer"), True, (((1, 5),), 20), codec="cp1252")
    assert workspace.reads[path] == FileRecord(digest(b"newer"), True, (), "cp1252")
    workspace.remember(path, b"whole", True)
    assert workspace.reads[path] == FileRecord(digest(b"whole"), True, ())
    workspace.remember(path, b"part", False)  # part of it, no pages named (an image described, a notebook's cells)
    assert workspace.reads[path] == FileRecord(digest(b"part"), False, ())


def test_the_encoding_seen_is_that_of_the_content_read(workspace, project):
    path = project / "a.txt"
    assert workspace.seen_as(path, b"caf\xe9") is None
    workspace.remember(path, b"caf\xe9", True, codec="cp1252")
    assert workspace.seen_as(path, b"caf\xe9") == "cp1252"
    assert workspace.seen_as(path, b"cafe") is None


def test_the_model_knows_a_file_as_it_is_now_and_not_once_changed_gone_or_a_folder(workspace, project):
    path = project / "a.py"
    path.write_bytes(b"x = 1\n")
    assert not workspace.knows(path)
    workspace.remember(path, b"x = 1\n", False, (((1, 1),), 2))
    assert workspace.knows(path)
    path.write_bytes(b"x = 2\n")
    assert not workspace.knows(path)
    path.unlink()
    assert not workspace.knows(path)
    path.mkdir()
    workspace.remember(path, b"", True)
    assert not workspace.knows(path)
    too_long = project / ("x" * 300)  # the system refuses the name itself
    workspace.remember(too_long, b"", True)
    assert not workspace.knows(too_long)


def test_the_iron_law_refuses_a_file_not_read_read_in_part_for_write_changed_or_rewound(workspace, project):
    path = project / "a.py"
    with pytest.raises(ToolError) as refused:
        workspace.require_fresh(path, b"x", whole=False)
    assert str(refused.value) == "a.py has not been read in this session; Read it first, then retry."
    assert refused.value.shown == "a.py has not been read in this session"
    workspace.remember(path, b"x", False, (((1, 1),), 5))
    workspace.require_fresh(path, b"x", whole=False)  # Edit needs only the part it changes
    with pytest.raises(ToolError) as refused:
        workspace.require_fresh(path, b"x", whole=True)
    assert str(refused.value) == "only part of a.py has been read; Read all of it before overwriting it with Write."
    assert refused.value.shown == "only part of a.py has been read"
    with pytest.raises(ToolError) as refused:
        workspace.require_fresh(path, b"y", whole=False)
    assert str(refused.value) == "a.py was modified since you read it; Read it again, then retry."
    assert refused.value.shown == "a.py was modified since it was last read"
    workspace.remember(path, b"x", True)
    workspace.require_fresh(path, b"x", whole=True)
    path.write_bytes(b"y")
    workspace.restored([path])
    with pytest.raises(ToolError) as refused:
        workspace.require_fresh(path, b"y", whole=True)
    assert str(refused.value) == "a.py was restored by /rewind after you last read it; Read it again, then retry."
    assert refused.value.shown == "a.py was restored by /rewind after it was last read"


def test_a_rewind_marks_only_the_records_of_other_content(workspace, project):
    same, other, unread = project / "same.py", project / "other.py", project / "unread.py"
    for path in (same, other, unread):
        path.write_bytes(b"now")
    workspace.remember(same, b"now", True)
    workspace.remember(other, b"before", True)
    workspace.restored([same, other, unread])
    assert not workspace.reads[same].rewound and workspace.reads[other].rewound and unread not in workspace.reads


def test_a_turn_taken_back_gives_back_what_the_model_knew_then_and_redo_what_it_knew_after(workspace, project):
    a, b, c = project / "a.py", project / "b.py", project / "c.py"
    workspace.remember(a, b"a1", True)
    workspace.turn_begins(3)
    workspace.remember(a, b"a2", True)
    workspace.remember(b, b"b2", True)
    workspace.remember(c, b"c2", True)
    workspace.forget([a, b], 3)
    assert workspace.reads == {a: FileRecord(digest(b"a1"), True), c: FileRecord(digest(b"c2"), True)}
    workspace.bring_back()
    assert workspace.reads[a].sha == digest(b"a2") and workspace.reads[b].sha == digest(b"b2")
    workspace.bring_back()  # nothing set aside twice
    workspace.forget([a], 99)  # a turn never begun: nothing known then
    assert a not in workspace.reads
    workspace.forget([project / "never.py"], 3)  # a file the model never read
    assert workspace.tool_state.set_aside == {}


def test_paths_resolve_from_the_root_wherever_bash_is_and_home_and_spaces_are_read(workspace, project, tmp_path):
    workspace.cwd = project / "sub"
    assert workspace.resolve("  src/a.py \n") == project / "src" / "a.py"
    assert workspace.resolve(str(tmp_path / "x")) == tmp_path / "x"
    assert workspace.resolve("~/notes.md") == Path(os.path.expanduser("~")) / "notes.md"


@pytest.mark.skipif(sys.platform in ("win32", "darwin"), reason="a file name that is not UTF-8: Linux's own")
def test_a_name_that_is_not_utf8_is_shown_escaped_and_found_again_as_shown(workspace, project):
    raw = project / os.fsdecode(b"caf\xe9.py")
    raw.write_text("")
    assert workspace.show(raw) == printable(os.fsdecode(b"caf\xe9.py")) == "caf\\xe9.py"
    assert workspace.resolve("caf\\xe9.py") == raw
    assert workspace.resolve("new\\xe9.py") == project / "new\\xe9.py"  # none there: taken as written
    (project / "lit\\xe9.py").write_text("")
    assert workspace.resolve("lit\\xe9.py") == project / "lit\\xe9.py"  # a name that holds the backslash itself


def test_a_path_is_shown_relative_to_the_root_inside_it_and_whole_outside(workspace, project, tmp_path):
    assert workspace.show(project / "src" / "a.py") == str(Path("src/a.py"))
    assert workspace.show(tmp_path / "elsewhere.py") == str(tmp_path / "elsewhere.py")


def test_where_bash_has_gone_is_said_only_away_from_the_root(workspace, project):
    assert workspace.bash_elsewhere() == "" and workspace.nothing_found_note() == ""
    workspace.cwd = project / "sub"
    assert workspace.bash_elsewhere() == f"Bash is in {project / 'sub'}, which does not move them"
    assert workspace.nothing_found_note() == (
        f" (Paths and patterns start at the project root; Bash is in {project / 'sub'}, which does not move them.)"
    )


def test_a_question_is_refused_where_nobody_can_answer_and_declined_says_what_to_do(project):
    headless = Workspace(project, project / ".narnat", confirm=None)
    with pytest.raises(ToolError) as refused:
        headless.ask("rm -rf build", "it deletes files", "Ask the user.")
    assert str(refused.value) == (
        "not run — it needs the user's confirmation (it deletes files), and this headless run cannot ask (the user "
        "can allow it with --yes). Do not do it another way; say in your answer what was not done."
    )
    asked: list[tuple[str, str]] = []
    workspace = Workspace(
        project, project / ".narnat", confirm=lambda action, why: asked.append((action, why)) or False
    )
    with pytest.raises(ToolError) as refused:
        workspace.ask("rm -rf build", "it deletes files", "Ask the user.", [project / "build"])
    assert str(refused.value) == "the user declined to run it (it deletes files). Ask the user."
    assert asked == [("rm -rf build", "it deletes files")]  # no /undo to speak of: the reason alone


def test_the_question_says_what_undo_could_give_back_of_the_paths_deleted(project):
    asked: list[tuple[str, str]] = []
    workspace = Workspace(project, project / ".narnat", confirm=lambda action, why: asked.append((action, why)) or True)
    workspace.undo_says = lambda paths: f"/undo gives back {len(paths)} file"
    workspace.ask("rm a", "it deletes files", "Ask.", [project / "a"])
    workspace.ask("rm b", "it deletes files", "Ask.", [])  # nothing deleted: nothing to say
    workspace.undo_says = lambda paths: ""
    workspace.ask("rm c", "it deletes files", "Ask.", [project / "c"])
    assert asked == [
        ("rm a", "it deletes files; /undo gives back 1 file"),
        ("rm b", "it deletes files"),
        ("rm c", "it deletes files"),
    ]


def test_a_file_outside_the_project_is_asked_for_and_one_inside_is_not(project, tmp_path):
    asked: list[tuple[str, str]] = []
    workspace = Workspace(project, project / ".narnat", confirm=lambda action, why: asked.append((action, why)) or True)
    workspace.ask_outside("Write", project / "src" / "a.py")
    assert asked == []
    (project / "link").symlink_to(tmp_path)
    workspace.ask_outside("Edit", project / "link" / "b.py")  # inside by its name, outside where it leads
    real = os.path.realpath(tmp_path / "b.py")
    assert asked == [(f"Edit {real}", f"it changes {real}, outside the project")]
    asked.clear()
    beside = project.parent / f"{project.name}-copy" / "c.py"  # a folder whose name begins as the project's
    workspace.ask_outside("Write", beside)
    assert asked == [(f"Write {beside}", f"it changes {beside}, outside the project")]
    workspace.confirm = lambda action, why: False
    with pytest.raises(ToolError, match=r"declined to run it \(it changes .*b\.py, outside the project\)\. Ask the"):
        workspace.ask_outside("Write", tmp_path / "b.py")


def test_a_missing_file_names_the_closest_names_where_the_nearest_folder_is(workspace, project):
    (project / "src").mkdir()
    for name in ("config.py", "configs.py", "conftest.py", "main.py"):
        (project / "src" / name).write_text("")
    error = workspace.missing(project / "src" / "confg.py")
    guesses = ", ".join(str(Path("src", n)) for n in ("config.py", "configs.py", "conftest.py"))
    assert str(error) == (
        f"{Path('src/confg.py')} does not exist (relative paths start at the project root, {project}). "
        f"Did you mean: {guesses}?"
    )
    assert error.shown == f"{Path('src/confg.py')} does not exist; did you mean {guesses}?"
    error = workspace.missing(project / "src" / "deep" / "er" / "main.p")  # the folders missing too
    assert str(error).endswith(f"Did you mean: {Path('src/main.py')}?")
    (project / "mains.txt").write_text("")
    assert str(workspace.missing(project / "amin.py")).endswith("Did you mean: mains.txt?")  # half alike is close
    error = workspace.missing(project / "zzz.py")
    assert str(error) == f"zzz.py does not exist (relative paths start at the project root, {project})."
    assert error.shown == "zzz.py does not exist"


@NO_SYMLINKS
@pytest.mark.parametrize("tool", ["Read", "Edit", "Grep"])
def test_a_link_that_leads_nowhere_is_named_not_guessed_at(workspace, project, tool):
    """A loop's own name is the closest to itself: 'did you mean loop1?' would send the model round."""
    (project / "loop2").symlink_to("loop1")
    (project / "loop1").symlink_to("loop2")
    (project / "dangling").symlink_to("gone.txt")
    args = {"Read": {}, "Edit": {"old_string": "a", "new_string": "b"}, "Grep": {"pattern": "x"}}[tool]
    for path, said in (
        ("loop1", "loop1 cannot be used: Too many levels of symbolic links."),
        ("loop1/x.txt", "loop1/x.txt cannot be used: Too many levels of symbolic links."),  # a link on the way
        ("dangling", "dangling is a symbolic link to gone.txt, which does not exist."),
        ("dangling/x.txt", "dangling is a symbolic link to gone.txt, which does not exist."),
    ):
        key = "path" if tool == "Grep" else "file_path"
        result = execute(tool, {key: path, **args}, workspace)
        assert result.is_error and result.text == f"Error: {said}", result.text


def test_a_missing_file_beside_bash_is_the_first_guess(workspace, project):
    (project / "sub").mkdir()
    (project / "sub" / "notes.md").write_text("")
    workspace.cwd = project / "sub"
    error = workspace.missing(project / "notes.md")
    assert str(error) == (
        f"notes.md does not exist (relative paths start at the project root, {project}; Bash is in "
        f"{project / 'sub'}, which does not move them). Did you mean: {Path('sub/notes.md')}?"
    )
    assert "Did you mean" not in str(workspace.missing(project / "other.md"))
    (project / "note.md").write_text("")
    assert str(workspace.missing(project / "notes.md")).endswith(f"Did you mean: {Path('sub/notes.md')}, note.md?")


class Editor:
    """An editor's buffers: unsaved text of some files, and what it was told was written."""

    def __init__(self, texts: dict[Path, str]):
        self.texts, self.told = texts, []

    def text(self, path: Path) -> str | None:
        return self.texts.get(path)

    def wrote(self, path: Path, text: str) -> None:
        self.told.append((path, text))


def test_an_editors_unsaved_text_is_the_files_content_in_its_encoding_and_line_ends(project):
    crlf, latin, same, binary = project / "crlf.txt", project / "latin.txt", project / "same.txt", project / "b.png"
    crlf.write_bytes(b"one\r\ntwo\r\n")
    latin.write_bytes("caf\xe9\n".encode("cp1252"))
    same.write_bytes(b"a\r\nb\r\n")
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\0\0")
    data = project / "data.bin"
    data.write_bytes(b"\0\1\2\3 records")
    editor = Editor(
        {crlf: "one\ntwo\nthree\n", latin: "caf\xe9 cr\xe8me\n", same: "a\nb\n", binary: "text", data: "text"}
    )
    workspace = Workspace(project, project / ".narnat", confirm=None, editor=editor)
    assert workspace.content(crlf) == b"one\r\ntwo\r\nthree\r\n"
    assert workspace.content(latin) == "caf\xe9 cr\xe8me\n".encode("cp1252")
    assert workspace.content(same) == b"a\r\nb\r\n"  # the editor holds CRLF lines as LF: nothing unsaved
    assert workspace.content(binary) == b"\x89PNG\r\n\x1a\n\0\0"
    assert workspace.content(data) == b"\0\1\2\3 records"
    assert workspace.unsaved == {crlf, latin}
    workspace.written(same, b"new\n")  # the editor had nothing else of it: not told
    workspace.written(crlf, b"new\r\n")
    assert editor.told == [(crlf, "new\r\n")] and workspace.unsaved == {latin}
    workspace.written(crlf, b"again\n")  # told once: its buffer is the file now
    assert editor.told == [(crlf, "new\r\n")]


def test_unsaved_text_the_files_encoding_cannot_hold_is_utf8_and_saved_text_ends_unsaved(project):
    latin = project / "latin.txt"
    latin.write_bytes("caf\xe9\n".encode("cp1252"))
    editor = Editor({latin: "caf\xe9 \u2603\n"})
    workspace = Workspace(project, project / ".narnat", confirm=None, editor=editor)
    assert workspace.content(latin) == "caf\xe9 \u2603\n".encode()
    editor.texts[latin] = "caf\xe9\n"  # saved since
    assert workspace.content(latin) == "caf\xe9\n".encode("cp1252") and workspace.unsaved == set()
    del editor.texts[latin]
    assert workspace.content(latin) == "caf\xe9\n".encode("cp1252")
    no_editor = Workspace(project, project / ".narnat", confirm=None)
    no_editor.unsaved.add(latin)
    no_editor.written(latin, b"x")  # no editor to tell


def test_the_todo_list_belongs_to_the_conversations_tool_state(workspace):
    workspace.todos = [{"content": "a", "status": "pending"}]
    assert workspace.tool_state.todos == [{"content": "a", "status": "pending"}]
    assert workspace.cwd == workspace.root
