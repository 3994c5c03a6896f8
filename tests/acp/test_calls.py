"""A tool call as the editor is shown it, in process: its kind, title and locations when it starts, its diff or text
when it ends, and the todo list as a plan."""

import pytest

from narnat_agent.acp import calls
from narnat_agent.acp.calls import ended, started
from narnat_agent.provider.reply import ToolCall
from narnat_agent.tools.base import Result, Todos
from narnat_agent.tools.workspace import Workspace


@pytest.fixture
def workspace(tmp_path):
    return Workspace(tmp_path, tmp_path / ".narnat", confirm=None)


def _dump(update) -> dict:
    return update.model_dump(by_alias=True, exclude_none=True)


def _start(workspace, name: str, args: dict | None, header: str = "Tool(x)"):
    running, update = started(ToolCall("call-1", name, "{}", args), header, workspace)
    return running, _dump(update)


def test_an_edit_starts_with_its_file_and_ends_with_the_diff(workspace):
    (workspace.root / "a.py").write_text("x = 1\n")
    running, start = _start(workspace, "Edit", {"file_path": "a.py", "old_string": "1"}, "Edit(a.py)")
    assert start == {"toolCallId": "call-1", "title": "Edit(a.py)", "kind": "edit", "status": "in_progress",
                     "locations": [{"path": str(workspace.root / "a.py")}],
                     "rawInput": {"file_path": "a.py", "old_string": "1"}, "sessionUpdate": "tool_call"}  # fmt: skip
    (workspace.root / "a.py").write_text("x = 2\n")
    [end] = [_dump(u) for u in ended(running, Result("Edited a.py", "1 line changed"))]
    assert end == {"toolCallId": "call-1", "status": "completed", "title": "Edit(a.py)",
                   "content": [{"path": str(workspace.root / "a.py"), "oldText": "x = 1\n", "newText": "x = 2\n",
                                "type": "diff"}], "sessionUpdate": "tool_call_update"}  # fmt: skip


def test_a_new_file_written_ends_with_a_diff_from_nothing(workspace):
    running, start = _start(workspace, "Write", {"file_path": "new.txt", "content": "hi"}, "Write(new.txt)")
    assert start["kind"] == "edit" and not running.existed and running.before is None
    (workspace.root / "new.txt").write_text("hi\n")
    [end] = [_dump(u) for u in ended(running, Result("Wrote new.txt", "1 line"))]
    assert end["content"] == [{"path": str(workspace.root / "new.txt"), "newText": "hi\n", "type": "diff"}]


def test_a_file_that_cannot_be_shown_before_ends_with_text_not_a_diff_from_nothing(workspace):
    (workspace.root / "data.bin").write_bytes(b"\0\1\2")
    running, _ = _start(workspace, "Write", {"file_path": "data.bin", "content": "text"})
    assert running.existed and running.before is None
    (workspace.root / "data.bin").write_text("text\n")
    [end] = [_dump(u) for u in ended(running, Result("Wrote data.bin", "1 line"))]
    assert end["content"] == [{"content": {"text": "Wrote data.bin", "type": "text"}, "type": "content"}]


def test_a_failed_edit_ends_failed_with_its_text(workspace):
    (workspace.root / "a.py").write_text("x = 1\n")
    running, _ = _start(workspace, "Edit", {"file_path": "a.py"}, "Edit(a.py)")
    [end] = [_dump(u) for u in ended(running, Result("old_string not found", "not found", is_error=True))]
    assert end["status"] == "failed"
    assert end["content"] == [{"content": {"text": "old_string not found", "type": "text"}, "type": "content"}]


def test_a_file_past_the_diff_limit_or_binary_is_not_read_for_a_diff(workspace):
    big = workspace.root / "big.txt"
    big.write_bytes(b"a" * calls.MAX_DIFF)
    assert _start(workspace, "Edit", {"file_path": "big.txt"})[0].before == "a" * calls.MAX_DIFF
    big.write_bytes(b"a" * (calls.MAX_DIFF + 1))
    assert _start(workspace, "Edit", {"file_path": "big.txt"})[0].before is None
    late = workspace.root / "late.txt"
    late.write_bytes(b"a" * 4096 + b"\0")  # a NUL past the first 4 KB: text
    assert _start(workspace, "Edit", {"file_path": "late.txt"})[0].before == "a" * 4096 + "\0"
    late.write_bytes(b"a" * 4095 + b"\0")
    assert _start(workspace, "Edit", {"file_path": "late.txt"})[0].before is None
    (workspace.root / "latin.txt").write_bytes(b"caf\xe9")
    assert _start(workspace, "Edit", {"file_path": "latin.txt"})[0].before == "caf\ufffd"
    (workspace.root / "folder").mkdir()
    assert _start(workspace, "Edit", {"file_path": "folder"})[0].before is None


def test_a_read_is_located_at_its_offset(workspace):
    _, start = _start(workspace, "Read", {"file_path": "a.py", "offset": 40})
    assert start["kind"] == "read" and start["locations"] == [{"path": str(workspace.root / "a.py"), "line": 40}]
    _, start = _start(workspace, "Read", {"file_path": "a.py", "offset": "40"})
    assert start["locations"] == [{"path": str(workspace.root / "a.py")}]
    _, start = _start(workspace, "Grep", {"pattern": "x", "offset": 40})
    assert start["locations"] == [{"path": str(workspace.root)}]
    _, start = _start(workspace, "Read", {"file_path": "a.py", "offset": -20})  # the schema drops a line below 0
    assert start["locations"] == [{"path": str(workspace.root / "a.py")}]


def test_a_search_without_a_path_is_located_at_the_project(workspace):
    for name in ("Glob", "Grep"):
        running, start = _start(workspace, name, {"pattern": "*.py", "path": "  "})
        assert start["kind"] == "search" and start["locations"] == [{"path": str(workspace.root)}]
        assert running.path == workspace.root
    _, start = _start(workspace, "Grep", {"pattern": "x", "path": "src"})
    assert start["locations"] == [{"path": str(workspace.root / "src")}]


def test_each_tool_has_its_kind_and_a_call_without_arguments_has_no_location(workspace):
    kinds = {"Bash": "execute", "WebSearch": "fetch", "WebFetch": "fetch", "TodoWrite": "think", "Glob": "search",
             "Write": "edit", "Read": "read", "Other": "other"}  # fmt: skip
    for name, kind in kinds.items():
        running, start = _start(workspace, name, {"command": "ls"})
        assert start["kind"] == kind, name
        if name not in ("Glob",):
            assert "locations" not in start and running.path is None, name
    running, start = _start(workspace, "Read", None)
    assert start["rawInput"] == {} and "locations" not in start
    running, _ = _start(workspace, "Edit", {"file_path": 7})
    assert running.path is None and running.before is None and not running.existed


def test_a_bash_call_ends_with_its_text_even_when_it_changed_a_file(workspace):
    running, _ = _start(workspace, "Bash", {"command": "touch a"}, "Bash(touch a)")
    [end] = [_dump(u) for u in ended(running, Result("done", "ran"))]
    assert end["content"] == [{"content": {"text": "done", "type": "text"}, "type": "content"}]


def test_a_long_command_is_titled_with_its_first_line(workspace):
    _, start = _start(workspace, "Bash", {"command": "a\nb\nc"}, "Bash(a\nb\nc)")
    assert start["title"] == "Bash(a … +2 lines)"


def test_the_todo_list_ends_as_the_plan_before_the_call(workspace):
    running, _ = _start(workspace, "TodoWrite", {"todos": []}, "TodoWrite")
    todos = Todos(({"content": "write it", "status": "completed"}, {"content": "test it", "status": "in_progress"}))
    plan, end = [_dump(u) for u in ended(running, Result("Todos updated", "2 todos", detail=todos))]
    assert plan == {"entries": [{"content": "write it", "priority": "medium", "status": "completed"},
                                {"content": "test it", "priority": "medium", "status": "in_progress"}],
                    "sessionUpdate": "plan"}  # fmt: skip
    assert end["toolCallId"] == "call-1" and end["status"] == "completed"


def test_a_read_or_a_call_of_a_tool_without_a_file_keeps_no_copy_of_a_file(workspace):
    (workspace.root / "a.py").write_text("x = 1\n")
    running, _ = _start(workspace, "Read", {"file_path": "a.py"})
    assert running.path == workspace.root / "a.py" and running.before is None and not running.existed
    running, start = _start(workspace, "Bash", {"command": "ls", "": "a.py", "XXXX": "a.py"})
    assert "locations" not in start and running.path is None and running.before is None
