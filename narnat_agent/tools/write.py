"""Write: create a file, or replace one the model has read whole."""

from narnat_agent.atomic import write_atomic
from narnat_agent.tools.support.diffs import compact_diff
from narnat_agent.tools.support.text import decode
from narnat_agent.tools.workspace import Diff, Result, Tool, ToolError, Workspace


def run(args: dict, ws: Workspace) -> Result:
    path = ws.resolve(args["file_path"])
    content = args["content"]
    if path.is_dir():
        raise ToolError(f"{ws.show(path)} is a directory; give a file path.")
    if path.exists() and not path.is_file():
        raise ToolError(f"{ws.show(path)} is not a regular file (a device, pipe or socket); Write writes files only.")
    existed = path.exists()
    before, encoding = "", "utf-8"
    if existed:
        data = path.read_bytes()
        ws.require_fresh(path, data, whole=True)
        before, encoding = decode(data)
    try:
        encoded = content.encode(encoding)
    except UnicodeEncodeError:
        encoded = content.encode("utf-8")
    write_atomic(path, encoded)
    ws.remember(path, encoded, whole=True)
    count = content.count("\n") + (0 if content.endswith("\n") or not content else 1)
    lines = f"{count} line{'s' if count != 1 else ''}"
    diff = compact_diff(before, content, ws.show(path))[0]
    verb = "Updated" if existed else "Created"
    return Result(f"{verb} {ws.show(path)} ({lines}).", f"{verb} ({lines})", detail=Diff(diff))


TOOL = Tool(
    name="Write",
    description=(
        "Write a whole file (parent folders are created)."
    ),
    parameters={
        "type": "object",
        "properties": {
            "file_path": {"type": "string"},
            "content": {"type": "string", "description": "The complete file content"},
        },
        "required": ["file_path", "content"],
    },
    run=run,
    target=lambda args: args.get("file_path", ""),
)
