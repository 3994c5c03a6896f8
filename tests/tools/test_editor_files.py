"""Read, Edit and Write through an editor's buffers (the Workspace's EditorFiles, which `narnat acp` gives): unsaved
text wins, the same text held another way (LF for a CRLF file) leaves the disk's bytes as they are, and a buffer that
was read takes what was written."""

from pathlib import Path

from narnat_agent.tools.registry import execute


class Buffers:
    """An editor at the boundary: the text it holds per file, and what it was given back."""

    def __init__(self, held: dict[Path, str]):
        self.held, self.given = held, {}

    def text(self, path: Path) -> str | None:
        return self.held.get(path)

    def wrote(self, path: Path, text: str) -> None:
        self.given[path] = self.held[path] = text


def test_unsaved_text_is_read_edited_and_given_back(workspace):
    path = workspace.root / "a.py"
    path.write_text("x = 1\n")
    workspace.editor = Buffers({path: "x = 2\n"})
    assert "1\tx = 2" in execute("Read", {"file_path": "a.py"}, workspace).text
    edited = execute("Edit", {"file_path": "a.py", "old_string": "x = 2", "new_string": "x = 3"}, workspace)
    assert not edited.is_error and path.read_text() == "x = 3\n" and workspace.editor.given == {path: "x = 3\n"}
    assert "1\tx = 3" in execute("Read", {"file_path": "a.py"}, workspace).text


def test_the_same_text_held_with_lf_keeps_a_crlf_file_as_it_is(workspace):
    path = workspace.root / "w.txt"
    path.write_bytes(b"one\r\ntwo\r\n")
    workspace.editor = Buffers({path: "one\ntwo\n"})
    execute("Read", {"file_path": "w.txt"}, workspace)
    edited = execute("Edit", {"file_path": "w.txt", "old_string": "two", "new_string": "2"}, workspace)
    assert not edited.is_error and path.read_bytes() == b"one\r\n2\r\n"
    assert workspace.editor.given == {}  # the buffer held what the disk did: the editor reloads it as any change


def test_unsaved_text_of_a_crlf_file_keeps_its_line_endings(workspace):
    path = workspace.root / "w.txt"
    path.write_bytes(b"one\r\ntwo\r\n")
    workspace.editor = Buffers({path: "one\ntwo\nthree\n"})
    execute("Read", {"file_path": "w.txt"}, workspace)
    written = execute("Write", {"file_path": "w.txt", "content": "one\ntwo\nthree\nfour\n"}, workspace)
    assert not written.is_error and path.read_bytes() == b"one\r\ntwo\r\nthree\r\nfour\r\n"
    assert workspace.editor.given == {path: "one\r\ntwo\r\nthree\r\nfour\r\n"}


def test_an_editor_with_nothing_to_give_leaves_the_disk(workspace):
    path = workspace.root / "a.py"
    path.write_text("x = 1\n")
    workspace.editor = Buffers({})
    assert "1\tx = 1" in execute("Read", {"file_path": "a.py"}, workspace).text
