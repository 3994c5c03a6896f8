"""Grep: search file contents with a regex, through ripgrep."""

import contextlib
import os
import re
from pathlib import Path

from narnat_agent.i18n import N_, Said, _, ngettext
from narnat_agent.platform.files import slashed
from narnat_agent.tools.base import RESULT_CHARS, Result, ToolError
from narnat_agent.tools.files import ripgrep
from narnat_agent.tools.files.textfile import binary_kind
from narnat_agent.tools.tool import Tool
from narnat_agent.tools.workspace import Workspace

COLUMNS = 500  # of a line shown: a minified file's line is megabytes
OMITTED = " [... omitted end of long line]"  # how rg ends a line cut at COLUMNS
WINDOW = 150  # characters shown on each side of a match past the part of a long line rg shows
LONG_FILE = 64 * 2**20  # bytes of a file read again to find such a match
MODES = ["files_with_matches", "content", "count"]
MODE_FLAGS = {
    "files_with_matches": ["-l"],
    "count": ["-c"],
    "content": ["-n", "--no-heading", "--max-columns", str(COLUMNS), "--max-columns-preview"],
}
ROW = re.compile(rb"(\d+)([:-])(.*)", re.DOTALL)
BINARY = re.compile(
    rb'(.*): (?:binary file matches|WARNING: stopped searching binary file after match) \(found "\\0" byte .*\)',
    re.DOTALL,
)
FILE_GLOB = re.compile(r"[\w.*?/{},\[\]-]*(\*\.|/\*|^\*)[\w.*?/{},\[\]-]*")
Row = tuple[int, str, str]  # line number; ':' a match, '-' context, '--' a gap, '' rg's binary-file sentence; text


def _flags(args: dict, mode: str) -> list[str]:
    """rg's flags for the request: file names always (a single file too), each followed by a NUL."""
    flags = ["--with-filename", "--null", *MODE_FLAGS[mode]]
    if mode == "content":
        for key in ("-A", "-B", "-C"):
            if key in args:
                flags += [key, str(args[key])]
    for key, flag in (("-i", ["-i"]), ("multiline", ["-U", "--multiline-dotall"]), ("fixed_strings", ["-F"])):
        if args.get(key):
            flags += flag
    if args.get("type"):
        flags += ["--type", args["type"]]
    if args.get("glob"):
        flags += ["--glob", args["glob"]] if _listed_glob(args) else ripgrep.name_filter(args["glob"])
    return flags


def _listed_glob(args: dict) -> bool:
    """Whether the glob goes to rg's --glob, whose results then keep only the files rg lists (--glob outranks
    .gitignore); a plain name pattern without a type goes to rg's name filter instead, which does not."""
    glob = args.get("glob", "")
    return bool(glob) and ("/" in glob or bool(args.get("type")) or not ripgrep.name_filter(glob))


def _parse(out: bytes, mode: str) -> dict[bytes, list[Row] | int | None]:
    """rg's output by file: the rows (content), the number of matching lines (count), or nothing (file names)."""
    if mode == "files_with_matches":
        return dict.fromkeys(name for name in out.split(b"\0") if name)
    found: dict = {}
    last, apart = b"", False
    for line in out.split(b"\n"):
        path, nul, rest = line.partition(b"\0")
        if mode == "count" and nul:
            found[path] = int(rest)
            continue
        if line == b"--":  # rg's group separator; between two files we place our own, as the files get sorted
            apart = True
            continue
        if nul and (m := ROW.fullmatch(rest)):
            row = (int(m[1]), m[2].decode(), ripgrep.shown(m[3]))
        elif m := BINARY.fullmatch(line):
            path, row = m[1], (0, "", ripgrep.shown(line[len(m[1]) + 2 :]))
        else:
            continue
        found.setdefault(path, []).extend([(0, "--", ""), row] if apart and path == last else [row])
        last, apart = path, False
    return found


def _search(args: dict, ws: Workspace, top: Path, mode: str) -> tuple[dict, str]:
    """The matches by file, and a note when the fallback had to answer instead of rg."""
    scope = [*ripgrep.scope(top, ws.root), "-e", args["pattern"], *ripgrep.target(top, ws.root)]
    done = ripgrep.run([*_flags(args, mode), *scope], ws.root)
    if done is None:
        return _python_search(args, ws, top, mode), ripgrep.FALLBACK_NOTE
    if done.code > 1 and not done.out and "No files were searched" not in done.err:
        raise _failure(done.err, args["pattern"])
    found = _parse(done.out, mode)
    if mode == "content" and not args.get("multiline"):
        _window_long_lines(found, args, ws)
    if _listed_glob(args):  # a --glob match outranks --type too: the list keeps the type
        listed = set(ripgrep.files(top, ws.root, kind=args.get("type")) or [])
        found = {path: hits for path, hits in found.items() if path in listed}
    unread = f"\n(Some paths could not be read: {ripgrep.error_line(done.err)})" if done.code > 1 and done.out else ""
    return found, unread


def _regex(args: dict) -> re.Pattern:
    """The pattern as Python's re reads it (rg's syntax for what both share)."""
    flags = re.IGNORECASE if args.get("-i") else 0
    try:
        return re.compile(re.escape(args["pattern"]) if args.get("fixed_strings") else args["pattern"], flags)
    except re.error as e:
        raise ToolError(f"invalid regex: {e}.") from None


def _window_long_lines(found: dict, args: dict, ws: Workspace) -> None:
    """A match rg found past the part of a long line it shows (a minified file) is shown in a window around it,
    in place of a preview that holds none."""
    cut = {path: [i for i, row in enumerate(rows) if row[1] == ":" and row[2].endswith(OMITTED)]
           for path, rows in found.items()}  # fmt: skip
    cut = {path: rows for path, rows in cut.items() if rows}
    try:
        rx = _regex(args) if cut else None
    except ToolError:  # rg's syntax beyond Python's: the previews stay as rg cut them
        return
    for path, indexes in cut.items():
        file = ws.root / os.fsdecode(path)
        try:
            data = file.read_bytes() if file.stat().st_size <= LONG_FILE else b""
        except OSError:
            continue
        lines = data.split(b"\n")
        for i in indexes:
            number, sep, preview = found[path][i]
            line = lines[number - 1].decode("utf-8", "replace") if number <= len(lines) else ""
            match = rx.search(line) if rx else None
            if match and match.end() > len(preview) - len(OMITTED):
                start, end = max(match.start() - WINDOW, 0), match.end() + WINDOW
                before = f"[… {start:,} characters] " if start else ""
                found[path][i] = (number, sep, f"{before}{line[start:end]} [… {max(len(line) - end, 0):,} more]")


def _python_search(args: dict, ws: Workspace, top: Path, mode: str) -> dict:
    """The fallback: a plain regex search line by line (no context, multiline or type filters)."""
    rx = _regex(args)
    glob = args.get("glob", "").removeprefix("!")  # as rg reads it: a name at any depth, or a path from the root
    wanted = ripgrep.glob_regex(glob if "/" in glob else f"**/{glob}")
    found = {}
    for path in ripgrep.walk_matching("**", top, ws.root):
        if glob and bool(wanted.fullmatch(path)) == args["glob"].startswith("!"):
            continue
        data = (ws.root / path).read_bytes()
        if not binary_kind(data[:4096], ws.root / path):
            lines = data.decode("utf-8", "replace").splitlines()
            if rows := [(n, ":", line[:COLUMNS]) for n, line in enumerate(lines, 1) if rx.search(line)]:
                found[os.fsencode(path)] = rows
    return {path: len(rows) if mode == "count" else rows for path, rows in found.items()}


def _content(found: dict[bytes, list[Row]], args: dict) -> list[str]:
    """rg's lines (`path:line:text`, `path-line-text` for context) with the files sorted by path; with context,
    '--' between groups, as rg prints them."""
    numbered, grouped = args["-n"], any(args.get(key, 0) > 0 for key in ("-A", "-B", "-C"))
    lines: list[str] = []
    for path in sorted(found, key=lambda raw: (ripgrep.shown(raw), raw)):
        name = ripgrep.shown_name(path)
        if grouped and lines:
            lines.append("--")
        for number, sep, text in found[path]:
            if sep == "--":
                lines.append(sep)
            elif not sep:
                lines.append(f"{name}: {text}")
            else:
                lines.append(f"{name}{sep}{number}{sep}{text}" if numbered else f"{name}{sep}{text}")
    return lines


def _page(entries: list[str], args: dict, noun: str) -> str:
    offset, limit = args["offset"], args["head_limit"]
    if offset >= len(entries):
        return f"(offset {offset} is past the end: there are {len(entries):,} {noun})"
    page = entries[offset : offset + limit] if limit > 0 else entries[offset:]
    cut = _fitting(page)
    text = "\n".join(page[:cut])
    if cut < len(entries):
        last = offset + cut
        why = f", cut at {RESULT_CHARS:,} characters" if cut < len(page) else ""
        more = f"; use offset={last} for more" if last < len(entries) else ""
        text += f"\n(showing {noun} {offset + 1}-{last} of {len(entries):,}{why}{more})"
    return text


def _fitting(page: list[str]) -> int:
    """How many of the page's entries fit in RESULT_CHARS (at least one: an entry is at most a cut line)."""
    size = 0
    for n, entry in enumerate(page):
        size += len(entry) + 1
        if size > RESULT_CHARS:
            return max(n, 1)
    return len(page)


def _files(count: int) -> str:
    return ngettext("{n} file", "{n} files", count).format(n=f"{count:,}")


def _report(found: dict, args: dict, mode: str, ws: Workspace) -> tuple[str, str]:
    """The page of results the model sees, and the one-line summary."""
    files = len(found)
    if mode == "files_with_matches":
        names = [ripgrep.shown_name(path) for path in ripgrep.newest_first(list(found), ws.root)]
        return _page(names, args, "files"), ngettext("Found {n} file", "Found {n} files", files).format(n=f"{files:,}")
    if mode == "count":
        lines = sorted(f"{ripgrep.shown_name(path)}:{count}" for path, count in found.items())
        total = sum(found.values())
        said = ngettext("Counted {n} matching line in {files}", "Counted {n} matching lines in {files}", total)
        return _page(lines, args, "files"), said.format(n=f"{total:,}", files=_files(files))
    rows = [row for hits in found.values() for row in hits]
    matched, binary = sum(sep == ":" for _, sep, _ in rows), sum(not sep for _, sep, _ in rows)
    said = ngettext("Found {n} line in {files}", "Found {n} lines in {files}", matched)
    summary = said.format(n=f"{matched:,}", files=_files(files))
    if binary:
        summary = ngettext(
            "{found}; {n} binary file matched (lines not shown)",
            "{found}; {n} binary files matched (lines not shown)",
            binary,
        ).format(found=summary, n=f"{binary:,}")
    return _page(_content(found, args), args, "lines"), summary


def _top(args: dict, ws: Workspace) -> Path:
    top = ws.resolve(args.get("path", "."))
    if not top.exists():
        raise ws.missing(top)
    if not (top.is_file() or top.is_dir()):
        raise ToolError(
            f"{ws.show(top)} is not a regular file or folder (a FIFO, socket or device); Grep searches files only."
        )
    for key in ("offset", "head_limit"):
        if args.get(key, 0) < 0:
            raise ToolError(f"{key} must be 0 or more, not {args[key]}.")
    if top.is_file() and _holds_key(top, ws):
        name = ws.show(top)
        raise ToolError(
            f"{name} is a settings file and may hold the API key: Grep does not search it (whether a pattern occurs "
            f"would tell the key a piece at a time). Read it instead: the key is masked there.",
            Said(N_("{file} may hold the API key: Grep does not search it"), file=name),
        )
    return top


def _holds_key(path: Path, ws: Workspace, settings: set[tuple[int, int]] | None = None) -> bool:
    """Whether path is one of the settings files, which may hold the API key (`settings`: their identities, taken
    once for many paths)."""
    try:
        status = path.stat()
    except OSError:
        return False
    return (status.st_dev, status.st_ino) in (_identities(ws) if settings is None else settings)


def _identities(ws: Workspace) -> set[tuple[int, int]]:
    found = set()
    for hidden in ws.hidden:
        with contextlib.suppress(OSError):
            status = hidden.stat()
            found.add((status.st_dev, status.st_ino))
    return found


def _anchored(glob: str, root: Path) -> str:
    """A glob as rg reads it, from the root, with '/' between folders: './x' and '<root>/x' become '/x' (rg matches
    neither as written)."""
    exclude, body = glob[:1] == "!", slashed(glob.removeprefix("!"))
    if body.startswith(f"{root.as_posix()}/"):
        body = body[len(root.as_posix()) :]
    elif body.startswith("./"):
        body = body[1:]
    return "!" * exclude + body


def run(args: dict, ws: Workspace) -> Result:
    top = _top(args, ws)
    if args.get("glob"):
        args = {**args, "glob": _anchored(args["glob"], ws.root)}
    mode = args["output_mode"]
    try:
        found, note = _search(args, ws, top, mode)
        # a settings file in a folder searched is left out without a word: its match, or a note of it, would tell
        settings = _identities(ws)
        found = {path: hits for path, hits in found.items()
                 if not settings or not _holds_key(ws.root / os.fsdecode(path), ws, settings)}  # fmt: skip
        if not found:
            return _no_matches(args, ws, top, note)
    except ripgrep.RgFailed as e:  # a timeout
        raise _failure(e.stderr, args["pattern"]) from None
    text, summary = _report(found, args, mode, ws)
    return Result(text + note, summary)


def _no_matches(args: dict, ws: Workspace, top: Path, note: str) -> Result:
    where = ws.show(top) if top != ws.root else "the project root"
    said = f"No matches for '{args['pattern']}' in {where}."  # as sent: repr would double a regex's backslashes
    if top.is_dir() and not note:
        flags = [*_flags(args, "files_with_matches"), *ripgrep.scope(top, ws.root), "--no-ignore"]
        done = ripgrep.run([*flags, "-e", args["pattern"], *ripgrep.target(top, ws.root)], ws.root)
        ignored = [name for name in done.out.split(b"\0") if name] if done else []
        said += ripgrep.skipped_note(ignored, top, ws.root) or " Hidden files were searched; binary files were skipped."
    return Result(said + _glob_hint(args["pattern"]) + ws.nothing_found_note() + note, _("No matches"))


def _glob_hint(pattern: str) -> str:
    if not FILE_GLOB.fullmatch(pattern):
        return ""
    return (
        f" '{pattern}' looks like a file name pattern: to find files by name use Glob; to search only such "
        f"files, pass glob='{pattern}' and a regex for the text."
    )


def _failure(stderr: str, pattern: str) -> ToolError:
    reason = ripgrep.error_line(stderr)
    if "regex parse error" in stderr:
        hint = _glob_hint(pattern) or " Escape special characters, or set fixed_strings=true."
        return ToolError(f"invalid regex: {reason}.{hint}")
    return ToolError(f"Grep failed: {reason}.")


def _header(args: dict) -> str:
    """What was searched, filters included, so that a "No matches" under it reads right: "x" in src, glob *.py."""
    pattern = args["pattern"].replace('"', '\\"')  # a regex's own backslashes stay as written
    said: str = f'"{pattern}"'
    if args.get("path"):
        said = Said(N_("{search} in {path}"), search=said, path=args["path"])
    if args.get("glob"):
        said = Said(N_("{search}, glob {glob}"), search=said, glob=args["glob"])
    if args.get("type"):
        said = Said(N_("{search}, type {type}"), search=said, type=args["type"])
    return said


TOOL = Tool(
    name="Grep",
    description=(
        "Search file contents with a regex (ripgrep syntax). output_mode: files_with_matches (default, newest "
        "first), content (path:line:text; -A/-B/-C context, -n line numbers) or count. Filter with type ('py') or "
        "glob: a name pattern ('*.py', '!*.min.js' to exclude) matches at any depth, one with '/' "
        "('src/**/*.ts') is matched from the project root. Respects .gitignore, also outside git; searches "
        "hidden files; skips binary files (text before a late NUL byte still counts), .git and .narnat (unless "
        f"path points there); at most head_limit results (and {RESULT_CHARS} characters) from offset."
    ),
    parameters={
        "type": "object",
        "properties": {
            "pattern": {"type": "string"},
            "path": {"type": "string", "description": "File or folder (default: the project root)"},
            "glob": {"type": "string"},
            "type": {"type": "string"},
            "output_mode": {"type": "string", "enum": MODES, "default": "files_with_matches"},
            "-i": {"type": "boolean", "description": "Case-insensitive"},
            "-n": {"type": "boolean", "default": True, "description": "Line numbers in content mode"},
            "-A": {"type": "integer"},
            "-B": {"type": "integer"},
            "-C": {"type": "integer"},
            "multiline": {"type": "boolean", "description": "Let . and patterns span lines"},
            "fixed_strings": {"type": "boolean", "description": "Pattern is literal text"},
            "head_limit": {"type": "integer", "default": 250, "description": "Results to show (0 for all)"},
            "offset": {"type": "integer", "default": 0, "description": "Results to skip"},
        },
        "required": ["pattern"],
    },
    run=run,
    target=_header,
)
