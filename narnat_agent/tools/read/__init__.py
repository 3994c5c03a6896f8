"""Read: a file as numbered lines, a directory as a listing."""

import contextlib
import dataclasses
import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from narnat_agent.i18n import N_, Said, _, ngettext
from narnat_agent.inert import without_escapes
from narnat_agent.platform.files import open_now
from narnat_agent.tools.base import Result, ToolError
from narnat_agent.tools.files.documents import DocumentError, notebook_text, pdf_text
from narnat_agent.tools.files.textfile import binary_kind, decode, digest, line_count, size_text
from narnat_agent.tools.read.images import SUFFIXES as IMAGE_SUFFIXES
from narnat_agent.tools.read.images import read_image
from narnat_agent.tools.read.lines import Scanned, numbered, pieces, scan
from narnat_agent.tools.tool import Tool, file_target
from narnat_agent.tools.verification import of_job
from narnat_agent.tools.workspace import Workspace, printable

MAX_LINES = 2000
MAX_LINE_CHARS = 2000
MAX_CHARS = 100_000  # a page of a file never floods the context, whatever its line lengths
LIMIT = f"up to {MAX_LINES} lines or {MAX_CHARS:,} characters, whichever comes first"  # said alike everywhere
MAX_ENTRIES = 500
MAX_FILE = 256 * 1024 * 1024


def _listing(path: Path, ws: Workspace) -> Result:
    entries = sorted(path.iterdir(), key=lambda p: (not p.is_dir(), p.name))
    lines = [printable(p.name) + ("/" if p.is_dir() else "") for p in entries[:MAX_ENTRIES]]
    rest = len(entries) - MAX_ENTRIES
    more = f"\n... {rest} more entries; use Glob to narrow" if rest > 0 else ""
    body = "\n".join(lines) or "(empty directory)"
    return Result(
        f"Directory {ws.show(path)}/ ({len(entries)} entries):\n{body}{more}",
        ngettext("Listed {n} entry", "Listed {n} entries", len(entries)).format(n=len(entries)),
    )


def _numbered(texts: Iterable[str], start: int, count: int) -> tuple[list[str], int, bool]:
    """Up to `count` numbered lines from `start` (1-based) within the character budget, the last one shown, and
    whether any of them is indented with a tab; the text may come in pieces."""
    out: list[str] = []
    used, last, tabs = 0, start - 1, False
    for n, line, length in numbered(texts, start, MAX_LINE_CHARS):
        if n >= start + count:
            break
        if length > MAX_LINE_CHARS:
            line = f"{line[:MAX_LINE_CHARS]}… [line cut: {length} characters]"
        entry = f"{n}\t{line}"
        if out and used + len(entry) > MAX_CHARS:
            break
        out.append(entry)
        used += len(entry) + 1
        last, tabs = n, tabs or line.startswith("\t")
    return out, last, tabs


def _tail(start: int, last: int, total: int, limit: int | None) -> str:
    """How the page ends, and which limit ended it."""
    if last == total:
        return f"(End of file - {total} lines)"
    if last - start + 1 == limit:
        why = f", as limit={limit} asked"
    elif last - start + 1 == MAX_LINES:
        why = f": the {MAX_LINES}-line limit of one Read"
    else:
        why = f": the {MAX_CHARS:,}-character limit of one Read"
    return f"(Showing lines {start}-{last} of {total}{why}; use offset={last + 1} to continue.)"


def _check(path: Path, ws: Workspace) -> None:
    if not path.exists():
        raise ws.missing(path)
    if not path.is_file():  # a device, pipe or socket could block or never end
        raise ToolError(f"{ws.show(path)} is not a regular file (a device, pipe or socket); Read shows files only.")
    if (size := path.stat().st_size) > MAX_FILE:
        raise ToolError(f"{ws.show(path)} is {size_text(size)}, too large to Read; search it with Grep instead.")


@contextlib.contextmanager
def _unreadable(path: Path, ws: Workspace) -> Iterator[None]:
    """A file the system refuses, as one sentence."""
    try:
        yield
    except PermissionError:
        raise ToolError(f"{ws.show(path)}: permission denied.") from None
    except OSError as e:
        raise ToolError(f"{ws.show(path)} cannot be read: {e.strerror or e}.") from None


def _opened(path: Path) -> BinaryIO:
    """The file opened to be read without ever waiting: a file whose read waits for news (/proc/kmsg, a tracing pipe)
    says it has none (EAGAIN) instead of holding a headless run for ever; a regular file on disk reads as always."""
    return os.fdopen(open_now(path), "rb")


def run(args: dict, ws: Workspace) -> Result:
    job = ws.jobs.of_log(ws.resolve(args["file_path"]))
    result = _read(args, ws, growing=job is not None)
    if job is None:
        return result
    news = [line for line in ws.jobs.news() if not line.startswith(f"background job {job.number} ")]
    verification = None
    if job.state == "running":
        state = f"Job {job.number} is still running: this file grows; Read it again later for more."
    else:
        state = f"Job {job.number} ({job.command}) {job.state}."
        verification = of_job(job)
    text = without_escapes(result.text)  # a command's colours, written to its log as they would be to a terminal
    text = "\n".join([text, state, *(f"({line})" for line in news)])
    return dataclasses.replace(result, text=text, verification=verification)


def _read(args: dict, ws: Workspace, growing: bool) -> Result:
    """The file's text; `growing` is a background job's log, whose changes are no news."""
    path = ws.resolve(args["file_path"])
    if path.is_dir():
        return _listing(path, ws)
    _check(path, ws)
    if ws.editor is None and path.suffix.lower() not in (".pdf", ".ipynb", *IMAGE_SUFFIXES):
        with _unreadable(path, ws), _opened(path) as file:  # a text file is paged from the disk in pieces
            head = file.read(4096)
            if head is None:  # nothing now, and a plain read would wait for more
                raise ToolError(f"{ws.show(path)} cannot be read: it has nothing now and its read would wait for more.")
            if head and not binary_kind(head, path) and (scanned := scan(_rewound(file))):
                return _streamed(path, file, scanned, args, ws, growing)
    with _unreadable(path, ws):
        data = ws.content(path)
    note = _changed_since(path, digest(data), ws, growing)
    if not data:
        ws.remember(path, data, whole=True)
        return Result(f"{note}{ws.show(path)} is empty (0 bytes).", _("Read 0 lines (empty file)"))
    if path.suffix.lower() in (".pdf", ".ipynb"):
        return _document(path, data, args, ws, note)
    if path.suffix.lower() in IMAGE_SUFFIXES:
        return read_image(path, data, ws.show(path), ws.sees_images)
    if kind := binary_kind(data[:4096], path):
        said = Said(N_("{file} is a {kind}, not text"), file=ws.show(path), kind=kind)
        raise ToolError(f"{ws.show(path)} is a {kind} ({size_text(len(data))}); Read shows text files only.", said)
    text, encoding = decode(data, ws.seen_as(path, data))
    if encoding.codec != "utf-8":
        note += f"(This file is not UTF-8: it is shown as {encoding.label}; Edit and Write keep its encoding.)\n"
    return _page(lambda: [text], line_count(text), args, ws, (path, digest(data), encoding.codec), note)


def _changed_since(path: Path, sha: str, ws: Workspace, growing: bool) -> str:
    """The note for a file read before whose content has changed since: by /rewind (as Edit says it), or else."""
    previous = None if growing else ws.reads.get(path)
    if previous is None or previous.sha == sha:
        return ""
    how = "was restored by /rewind after you last read it" if previous.rewound else "was modified externally"
    return f"Note: {ws.show(path)} {how}.\n"


def _rewound(file: BinaryIO) -> BinaryIO:
    file.seek(0)
    return file


def _streamed(path: Path, file: BinaryIO, scanned: Scanned, args: dict, ws: Workspace, growing: bool) -> Result:
    """A page of a UTF-8 file, read from the disk in pieces."""
    note = _changed_since(path, scanned.sha, ws, growing)
    return _page(lambda: pieces(file, scanned.bom), scanned.total, args, ws, (path, scanned.sha, "utf-8"), note)


def _document(path: Path, data: bytes, args: dict, ws: Workspace, note: str) -> Result:
    """A PDF's text page by page, or a notebook's cells, paged as the lines of a text file are."""
    name = ws.show(path)
    try:
        text = notebook_text(data, name) if path.suffix.lower() == ".ipynb" else pdf_text(path, name)
    except DocumentError as e:
        raise ToolError(str(e)) from None
    if not text:
        ws.remember(path, data, whole=True)
        return Result(f"{note}{name} is a PDF with no text layer (a scanned document?): Read cannot see the text in "
                      "images of pages.", _("PDF without text"))  # fmt: skip
    return _page(lambda: [text], line_count(text), args, ws, (path, digest(data), "utf-8"), note)


def _page(texts: Callable[[], Iterable[str]], total: int, args: dict, ws: Workspace, file: tuple[Path, str, str],
          note: str) -> Result:  # fmt: skip
    """The page of numbered lines that offset and limit ask for, of a text of `total` lines (given whole or in
    pieces), remembered as seen; `file` is the path, the digest of its bytes and the codec it is shown in."""
    path, sha, codec = file
    start = max(total + args["offset"] + 1 if args["offset"] < 0 else args["offset"], 1)  # -20: the last 20 lines
    if start > total:
        said = Said(N_("{file} has {total} lines; offset={offset} is past the end"), file=ws.show(path),
                    total=str(total), offset=str(start))  # fmt: skip
        raise ToolError(f"{ws.show(path)} has {total} lines; offset={start} is past the end.", said)
    limit = args["limit"] if args.get("limit", 0) > 0 else None
    shown, last, tabbed = _numbered(texts(), start, min(limit or MAX_LINES, MAX_LINES))
    ws.saw(path, sha, whole=False, lines=(((start, last),), total), codec=codec)
    ws.jobs.read_through(path, last)  # a background job's log: `wait %N` gives what comes after
    tabs = "(This file indents with tabs: each line number is followed by one tab, then the line as it is.)\n"
    tabs = tabs if tabbed else ""
    body = "\n".join(shown)
    count = last - start + 1
    if count == total:
        summary = ngettext("Read {n} line", "Read {n} lines", count).format(n=count)
    else:
        summary = ngettext("Read {n} line of {total}", "Read {n} lines of {total}", count).format(n=count, total=total)
    return Result(f"{note}{tabs}{body}\n{_tail(start, last, total, limit)}", summary)


TOOL = Tool(
    name="Read",
    description=(
        f"Read a text file as numbered lines (number, tab, line) from offset: one Read shows {LIMIT}, "
        "and says where to continue. Also images, PDFs (page by page) and notebooks (cell by cell). A directory "
        "gives its listing."
    ),
    parameters={
        "type": "object",
        "properties": {
            "file_path": {"type": "string", "description": "Absolute path, or relative to the project root"},
            "offset": {
                "type": "integer",
                "default": 1,
                "description": "First line to read (1-based); -N reads the last N lines",
            },
            "limit": {"type": "integer", "description": "How many lines to read"},
        },
        "required": ["file_path"],
    },
    run=run,
    target=file_target,
)
