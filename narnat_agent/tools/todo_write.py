"""TodoWrite: the session's task list, replaced whole on every call."""

from narnat_agent.tools.workspace import Result, Todos, Tool, ToolError, Workspace


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
    unfinished = any(t["status"] != "completed" for t in todos)
    if unfinished and len(active) != 1:
        found = f"{len(active)} are ({', '.join(active)})" if active else "none is"
        raise ToolError(
            f"exactly one task must be in_progress while any is unfinished, but {found}. "
            "Send the whole list again with one task in_progress."
        )


def run(args: dict, ws: Workspace) -> Result:
    todos = [{"content": t["content"], "activeForm": t["activeForm"], "status": t["status"]} for t in args["todos"]]
    _check(todos)
    ws.todos = todos
    counts = {s: sum(t["status"] == s for t in todos) for s in ("completed", "in_progress", "pending")}
    current = next((t["activeForm"] for t in todos if t["status"] == "in_progress"), None)
    recap = f"{counts['completed']}/{len(todos)} done" + (f"; now: {current}" if current else "")
    return Result(f"Todo list updated: {recap}.", recap, detail=Todos(tuple(todos)))


TOOL = Tool(
    name="TodoWrite",
    description=(
        "Replace the whole task list for this session (send every task each time)."
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
    target=lambda args: f"{len(args.get('todos') or [])} tasks",
)
