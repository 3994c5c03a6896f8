"""A tool call as the protocol shows it: its kind, title and locations when it starts, its result when it ends (a
file change as a diff the editor can show, anything else as text, the todo list as the protocol's plan)."""

from dataclasses import dataclass
from pathlib import Path

from acp import plan_entry, start_tool_call, text_block, tool_content, tool_diff_content, update_plan, update_tool_call
from acp.schema import (
    AgentPlanUpdate,
    ContentToolCallContent,
    FileEditToolCallContent,
    ToolCallLocation,
    ToolCallProgress,
    ToolCallStart,
)

from narnat_agent.provider.reply import ToolCall
from narnat_agent.tools.base import Result, Todos
from narnat_agent.tools.workspace import Workspace
from narnat_agent.ui.plain import plain_title

KINDS = {"Read": "read", "Write": "edit", "Edit": "edit", "Bash": "execute", "Glob": "search", "Grep": "search",
         "WebSearch": "fetch", "WebFetch": "fetch", "TodoWrite": "think"}  # fmt: skip
CHANGES = {"Write", "Edit"}  # their result is a diff
MAX_DIFF = 2 * 1024 * 1024  # bytes of a file shown whole on both sides of a diff; past that, the compact diff
FILE_ARGUMENT = {"Read": "file_path", "Write": "file_path", "Edit": "file_path", "Glob": "path", "Grep": "path"}


@dataclass
class Running:
    """The call between its start and its end: what its diff needs from before it ran."""

    call: ToolCall
    title: str  # a question about the call retitles it: its end gives the title back
    path: Path | None  # the file or folder it works on, absolute
    before: str | None  # a Write's or Edit's file before it ran: None when it did not exist (or cannot be shown)
    existed: bool = False


def _text(path: Path) -> str | None:
    """A text file's content, for a diff; None for a missing, binary or very large one."""
    try:
        if not path.is_file() or path.stat().st_size > MAX_DIFF:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    if b"\0" in data[:4096]:
        return None
    return data.decode("utf-8", "replace")


def started(call: ToolCall, header: str, workspace: Workspace) -> tuple[Running, ToolCallStart]:
    args = call.args or {}
    key = FILE_ARGUMENT.get(call.name)  # Bash, the web tools and TodoWrite work on no file
    target = args.get(key) if key else None
    path = workspace.resolve(target) if isinstance(target, str) and target.strip() else None
    if path is None and call.name in ("Glob", "Grep"):
        path = workspace.root
    changes = call.name in CHANGES and path is not None
    title = plain_title(header)
    before = _text(path) if changes and path else None
    running = Running(call, title, path, before, bool(changes and path and path.exists()))
    line = args.get("offset") if call.name == "Read" and isinstance(args.get("offset"), int) else None
    locations = [ToolCallLocation(path=str(path), line=line)] if path is not None else None
    update = start_tool_call(call.id, title, kind=KINDS.get(call.name, "other"),  # type: ignore[arg-type]
                             status="in_progress", locations=locations, raw_input=args)  # fmt: skip
    return running, update


def ended(running: Running, result: Result) -> list[ToolCallProgress | AgentPlanUpdate]:
    """The call's last update (and the plan, for TodoWrite)."""
    updates: list[ToolCallProgress | AgentPlanUpdate] = []
    after = _text(running.path) if running.call.name in CHANGES and running.path and not result.is_error else None
    content: list[ContentToolCallContent | FileEditToolCallContent]
    if after is not None and running.path is not None and (running.before is not None or not running.existed):
        content = [tool_diff_content(str(running.path), after, running.before)]
    else:
        content = [tool_content(text_block(result.text))]
    if isinstance(result.detail, Todos):
        updates.append(update_plan(plan_entry(todo["content"], status=todo["status"]) for todo in result.detail.items))
    status = "failed" if result.is_error else "completed"
    updates.append(update_tool_call(running.call.id, title=running.title, status=status,  # type: ignore[arg-type]
                                    content=content))  # fmt: skip
    return updates
