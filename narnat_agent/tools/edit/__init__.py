"""Edit: replace old_string with new_string in a file the model has read."""

import re
from difflib import SequenceMatcher, get_close_matches
from pathlib import Path

from narnat_agent.atomic import write_atomic
from narnat_agent.i18n import N_, Said, _, ngettext
from narnat_agent.tools.base import Diff, Result, ToolError, changes_file_path
from narnat_agent.tools.edit.matcher import Lines, NotFound, apply_edit, indentless, whole_lines
from narnat_agent.tools.edit.notebook import edit_cell
from narnat_agent.tools.edit.typography import TYPOGRAPHY
from narnat_agent.tools.files.diffs import compact_diff
from narnat_agent.tools.files.documents import DocumentError
from narnat_agent.tools.files.syntax_check import changed_lines, introduced
from narnat_agent.tools.files.textfile import decode, line_count, line_ending, with_ending
from narnat_agent.tools.tool import Tool, file_target
from narnat_agent.tools.workspace import Workspace, renumbered

READ_PREFIX = re.compile(r"^ *(\d+)\t")  # "7\t" in front of a line: how Read numbers lines


def change_summary(removed: int, added: int) -> str:
    """`3 lines changed`, `2 lines added`, `1 line removed`, or `1 added, 2 removed`."""
    if added == removed:
        return ngettext("{n} line changed", "{n} lines changed", added).format(n=added)
    if not removed:
        return ngettext("{n} line added", "{n} lines added", added).format(n=added)
    if not added:
        return ngettext("{n} line removed", "{n} lines removed", removed).format(n=removed)
    return _("{added} added, {removed} removed").format(added=added, removed=removed)


def run(args: dict, ws: Workspace) -> Result:
    old, new = args["old_string"], args["new_string"]
    if old == "":
        raise ToolError("old_string is empty; to create a file use Write, to add text include a line it goes next to.")
    if old == new:
        raise ToolError("old_string and new_string are identical; there is nothing to change.")
    path = ws.resolve(args["file_path"])
    if path.exists() and not path.is_file() and not path.is_dir():  # /dev/stdin, a FIFO: there, but no file
        raise ToolError(f"{ws.show(path)} is not a regular file (a device, pipe or socket); Edit edits files only.")
    if not path.is_file():
        raise ws.missing(path)
    ws.require_read(path)
    data = ws.content(path)
    ws.require_fresh(path, data, whole=False)
    if path.suffix.lower() == ".ipynb":
        return _notebook(path, data, args, ws)
    text, encoding = decode(data, ws.seen_as(path, data))
    del data  # a large file is held once as text, not also as bytes, while the edit is made
    ending = line_ending(text)  # the model's line endings become the file's (a mixed file is matched as it is)
    if ending:
        text, old, new = text.replace("\r\n", "\n"), with_ending(old, "\n"), with_ending(new, "\n")
    try:
        done = apply_edit(text, old, new, args["replace_all"])
    except NotFound as miss:
        said = Said(N_("old_string was not found in {file}"), file=ws.show(path))
        raise ToolError(explain_miss(miss.lines, old, new), said) from None
    diff, removed, added = compact_diff(text, done.text, ws.show(path))
    syntax = introduced(path, text, done.text, changed_lines(done.changes))
    del text  # the same: the old text goes before the new one is encoded
    try:
        encoded = encoding.encode(with_ending(done.text, ending))
    except UnicodeEncodeError:
        raise ToolError(
            f"new_string has characters that {ws.show(path)}'s encoding ({encoding.label}) cannot hold."
        ) from None
    ws.ask_outside("Edit", path)
    write_atomic(path, encoded, follow_umask=True)
    ws.written(path, encoded)
    record = ws.reads[path]  # what the model had seen stays seen, renumbered: pages still add up after an edit
    seen = renumbered(record.seen, done.changes), line_count(done.text)
    ws.remember(path, encoded, whole=record.whole, lines=seen, codec=encoding.codec)
    where = f"{len(done.places)} places" if len(done.places) > 1 else f"line {done.places[0]}"
    kept = f" It keeps its encoding, {encoding.label}." if encoding.codec != "utf-8" else ""
    report = f"Edited {ws.show(path)} at {where} ({done.how}).{kept}\n{diff}" + (f"\n{syntax}" if syntax else "")
    return Result(report, change_summary(removed, added), detail=Diff(diff, syntax))


def _notebook(path: Path, data: bytes, args: dict, ws: Workspace) -> Result:
    """An edit of one cell's source; the notebook is written back valid, the rest of it unchanged."""
    try:
        edited = edit_cell(data, ws.show(path), args["old_string"], args["new_string"], args["replace_all"])
    except DocumentError as e:
        raise ToolError(f"{e}; fix it with Write.") from None
    diff, removed, added = compact_diff(edited.before, edited.done.text, ws.show(path))  # Read shows its cells
    ws.ask_outside("Edit", path)
    write_atomic(path, edited.data, follow_umask=True)
    ws.written(path, edited.data)
    ws.remember(path, edited.data, whole=ws.reads[path].whole)
    text = f"Edited cell {edited.cell} of {ws.show(path)} ({edited.done.how}).{edited.note}\n{diff}"
    return Result(
        text,
        _("{change} in cell {cell}").format(change=change_summary(removed, added), cell=edited.cell),
        detail=Diff(diff),
    )


def _numbered(old_lines: list[str]) -> bool:
    """Whether old_string carries Read's line numbers: every line starts with one, counting up by one."""
    numbers = [READ_PREFIX.match(line) for line in old_lines if line.strip()]
    values = [int(n.group(1)) for n in numbers if n]
    if not values or len(values) < len(numbers):
        return False
    return values == list(range(values[0], values[0] + len(values)))


def _already_there(text: str, new: str) -> int | None:
    """Where new_string stands as whole lines of the file (an edit already made), not inside a longer line."""
    wanted = new.strip("\n")
    if not wanted.strip():
        return None
    for found in re.finditer(re.escape(wanted), text):
        before = text[text.rfind("\n", 0, found.start()) + 1 : found.start()]
        if not before.strip() and text[found.end() : found.end() + 1] in ("", "\n", "\r"):
            return found.start()
    return None


def explain_miss(lines: Lines, old: str, new: str) -> str:
    """Why old_string is not in the file, with the closest lines and the likely cause."""
    if (at := _already_there(lines.text, new)) is not None:
        return (
            f"old_string was not found, but new_string is already present at line {lines.line_of(at)}; the edit "
            "may be done."
        )
    old_lines = whole_lines(old, new)[0]
    numbered = _numbered(old_lines)
    if numbered:
        old_lines = [READ_PREFIX.sub("", line, count=1) for line in old_lines]
    start = _closest(lines.form(indentless), old_lines)
    if start is None:
        if numbered:
            return "old_string was not found: its lines start with line numbers copied from Read; leave them out."
        return "old_string was not found in the file, and no line resembles its first lines; Read the file again."
    window = lines.lines[start : start + len(old_lines)]
    span = f"line {start + 1}" if len(window) == 1 else f"lines {start + 1}-{start + len(window)}"
    if numbered:
        cause = (
            "Cause: its lines start with the line numbers that Read puts in front (number, tab); "
            "old_string must be the file's text alone."
        )
    else:
        cause = _quote_slip(window, old_lines, start + 1) or _cause(window, old_lines)
    shown = "\n".join(window)
    return f"old_string was not found. {cause} The closest text ({span}) follows, exactly as in the file.\n{shown}"


KEYS = 5  # of old_string's first lines, each may find the place: its first line may be the one that differs
PLACES = 40  # places weighed as a whole, at most: a line that recurs (`} from None`) must not make a long file slow


def _closest(stripped: list[str], old_lines: list[str]) -> int | None:
    """Where the file's lines most like old_string's start (None when none resembles any of its first lines): the
    places its first lines find, weighed by how alike the whole span is, so that a place sharing only the first
    line loses to one that differs in that line alone."""
    starts: list[int] = []
    for j, line in enumerate(old_lines[:KEYS]):
        key = indentless(line)
        if not key.strip():
            continue
        words = re.findall(r"\w{3,}", key) or [key]
        sharing = [text for text in dict.fromkeys(stripped) if any(w in text for w in words)]  # before difflib
        for close in get_close_matches(key, sharing, n=3, cutoff=0.6):
            starts += [i - j for i, text in enumerate(stripped) if text == close and i >= j]
    places = list(dict.fromkeys(starts))[:PLACES]
    wanted = "\n".join(indentless(line) for line in old_lines)
    alike = {at: SequenceMatcher(None, "\n".join(stripped[at : at + len(old_lines)]), wanted).ratio() for at in places}
    return max(places, key=lambda at: (alike[at], -at)) if places else None


SAME_QUOTES = str.maketrans('"', "'")


def _quote_slip(window: list[str], old_lines: list[str], first: int) -> str | None:
    """The cause when old_string differs from the file only by ' for " (or the reverse), named where it is: the
    matcher folds typographic quotes, never these two, which differ in code."""
    file_text, old_text = "\n".join(window), "\n".join(old_lines)
    at = file_text.translate(SAME_QUOTES).find(old_text.translate(SAME_QUOTES))
    if at < 0 or old_text in file_text:
        return None
    k = next(k for k, (a, b) in enumerate(zip(file_text[at:], old_text, strict=False)) if a != b)
    line = first + file_text.count("\n", 0, at + k)
    has, wrote = file_text[at + k], old_text[k]
    return (f"Likely cause: the quotes differ: line {line} has {has} where old_string has {wrote} (in code they are "
            "different characters: copy the file's).")  # fmt: skip


def _cause(window: list[str], old_lines: list[str]) -> str:
    file_text, old_text = "\n".join(window), "\n".join(old_lines)
    if any(line.startswith("\t") for line in window) and any(line.startswith(" ") for line in old_lines):
        return "Likely cause: the file indents with tabs and old_string with spaces."
    if "".join(file_text.split()) == "".join(old_text.split()):
        return "Likely cause: whitespace differs."
    if file_text.translate(TYPOGRAPHY) != file_text or old_text.translate(TYPOGRAPHY) != old_text:
        return "Likely cause: quotes, dashes or other typography differ."
    return "Likely cause: the text differs; Read the lines again and copy them exactly."


TOOL = Tool(
    name="Edit",
    description=(
        "Replace old_string with new_string in a file. old_string must match one place "
        "(copy it from Read without the line-number prefix; include enough lines to be unique) "
        'unless replace_all is true. Small whitespace, indentation, typographic quote (“” for ") and escaping slips '
        "are tolerated."
    ),
    parameters={
        "type": "object",
        "properties": {
            "file_path": {"type": "string"},
            "old_string": {"type": "string", "description": "The exact text to replace"},
            "new_string": {"type": "string", "description": "The replacement, inserted literally"},
            "replace_all": {"type": "boolean", "default": False, "description": "Replace every occurrence"},
        },
        "required": ["file_path", "old_string", "new_string"],
    },
    run=run,
    target=file_target,
    changes=changes_file_path,
)
