"""Write: create a file, or replace one the model has read whole."""

from narnat_agent.atomic import write_atomic
from narnat_agent.i18n import ngettext
from narnat_agent.tools.base import Diff, Result, ToolError, changes_file_path
from narnat_agent.tools.files.diffs import compact_diff
from narnat_agent.tools.files.syntax_check import introduced
from narnat_agent.tools.files.textfile import UTF8, decode, line_count, line_ending, with_ending
from narnat_agent.tools.tool import Tool, file_target
from narnat_agent.tools.workspace import Workspace


def run(args: dict, ws: Workspace) -> Result:
    path = ws.resolve(args["file_path"])
    if path.is_dir():
        raise ToolError(f"{ws.show(path)} is a directory; give a file path.")
    if path.exists() and not path.is_file():
        raise ToolError(f"{ws.show(path)} is not a regular file (a device, pipe or socket); Write writes files only.")
    existed = path.exists()
    before, encoding = "", UTF8
    ending: str | None = "\n"  # a new file gets LF
    if existed:
        ws.require_read(path)
        data = ws.content(path)
        ws.require_fresh(path, data, whole=True)
        before, encoding = decode(data, ws.seen_as(path, data))
        ending = line_ending(before)
    content = with_ending(args["content"], ending)  # a replaced file keeps its line endings (a mix: as sent)
    note = f" It keeps its encoding, {encoding.label}." if encoding.codec != "utf-8" else ""
    try:
        encoded = encoding.encode(content)
    except UnicodeEncodeError:
        encoded, note = content.encode("utf-8"), f" It was {encoding.label}, which cannot hold the new text; now UTF-8."
        encoding = UTF8
    if content != args["content"]:  # say it: the model sent other line endings than were written
        kind = "CRLF" if ending == "\r\n" else "LF"
        note += f" Line endings written as {kind}, " + ("the file's own." if existed else "as for every new file.")
    ws.ask_outside("Write", path)
    write_atomic(path, encoded, follow_umask=True)
    ws.written(path, encoded)
    ws.remember(path, encoded, whole=True, codec=encoding.codec)
    count = line_count(content)
    diff = compact_diff(before, content, ws.show(path))[0]
    syntax = introduced(path, before, content)
    verb, lines = "Updated" if existed else "Created", f"{count} line{'s' if count != 1 else ''}"
    report = f"{verb} {ws.show(path)} ({lines}).{note}" + (f"\n{syntax}" if syntax else "")
    if existed:
        summary = ngettext("Updated ({n} line)", "Updated ({n} lines)", count).format(n=count)
    else:
        summary = ngettext("Created ({n} line)", "Created ({n} lines)", count).format(n=count)
    return Result(report, summary, detail=Diff(diff, syntax))


TOOL = Tool(
    name="Write",
    description=(
        "Write a whole file (parent folders are created); an existing file keeps its line endings and encoding, "
        "a new one gets LF."
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
    target=file_target,
    changes=changes_file_path,
)
