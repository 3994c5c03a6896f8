"""TodoWrite: the session's task list, replaced whole on every call."""

from narnat_agent.i18n import N_, Said, _
from narnat_agent.tools.base import Result, Todos, ToolError
from narnat_agent.tools.tool import Tool
from narnat_agent.tools.workspace import Workspace


def _check(todos: list[dict]) -> None:
    for i, todo in enumerate(todos):
        for key in ("content", "activeForm"):
            if not todo[key].strip():
                raise ToolError(f"todos[{i}].{key} is empty; give every task a short text.")
    seen = set()
    for todo in todos:
        if todo["content"] in seen:
            raise ToolError(f"the task '{todo['content']}' appears twice; list each task once.")
        seen.add(todo["content"])
    active = [t["content"] for t in todos if t["status"] == "in_progress"]
    if len(active) > 1:
        raise ToolError(
            f"only one task may be in_progress, but {len(active)} are ({', '.join(active)}). "
            "Send the whole list again with one task in_progress."
        )


def _start_first(todos: list[dict]) -> bool:
    """With work left and nothing in progress, the first pending task starts (saves the model a round trip)."""
    if any(t["status"] == "in_progress" for t in todos):
        return False
    first = next((t for t in todos if t["status"] == "pending"), None)
    if first is not None:
        first["status"] = "in_progress"
    return first is not None


def run(args: dict, ws: Workspace) -> Result:
    todos = [{"content": t["content"], "activeForm": t["activeForm"], "status": t["status"]} for t in args["todos"]]
    _check(todos)
    started = not ws.planning and _start_first(todos)  # a plan's list is a proposal: nothing has begun
    ws.todos = todos
    done = sum(t["status"] == "completed" for t in todos)
    current = next((t["activeForm"] for t in todos if t["status"] == "in_progress"), None)
    recap = f"{done}/{len(todos)} done" + (f"; now: {current}" if current else "")
    note = " (marked in_progress: the first unfinished task)" if started else ""
    if current:
        shown = _("{done}/{total} done; now: {task}").format(done=done, total=len(todos), task=current)
    else:
        shown = _("{done}/{total} done").format(done=done, total=len(todos))
    return Result(f"Todo list updated: {recap}{note}.", shown, detail=Todos(tuple(todos)))


TOOL = Tool(
    name="TodoWrite",
    description=(
        "Replace the whole task list for this session (send every task each time). "
        "With no task in_progress, the first pending one is started."
    ),
    parameters={
        "type": "object",
        "properties": {
            "todos": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "content": {"type": "string", "description": "Imperative form: 'Run tests'"},
                        "activeForm": {"type": "string", "description": "Present continuous: 'Running tests'"},
                        "status": {"type": "string", "enum": ["pending", "in_progress", "completed"]},
                    },
                    "required": ["content", "activeForm", "status"],
                },
            }
        },
        "required": ["todos"],
    },
    run=run,
    target=lambda args: Said(N_("{n} task") if len(args["todos"]) == 1 else N_("{n} tasks"), n=str(len(args["todos"]))),
)
