"""Grep: search file contents with a regex, through ripgrep."""

import re
from pathlib import Path

from narnat_agent import ripgrep
from narnat_agent.tools.support.text import binary_kind
from narnat_agent.tools.workspace import Result, Tool, ToolError, Workspace

ROW = re.compile(r"(\d+)([:-])(.*)", re.DOTALL)
MODES = ["files_with_matches", "content", "count"]


def _flags(args: dict) -> list[str]:
    mode = args.get("output_mode", "files_with_matches")
    flags = {"files_with_matches": ["-l"], "count": ["-c", "--with-filename"]}.get(mode, [])
    if mode == "content":
        flags = ["--heading", "-n", "--max-columns", "500", "--max-columns-preview"]
        for key in ("-A", "-B", "-C"):
            if key in args:
                flags += [key, str(args[key])]
    for key, flag in (("-i", ["-i"]), ("multiline", ["-U", "--multiline-dotall"]), ("fixed_strings", ["-F"])):
        if args.get(key):
            flags += flag
    for key, flag in (("glob", "--glob"), ("type", "--type")):
        if args.get(key):
            flags += [flag, args[key]]
    return flags


def _content(out: str, numbered: bool) -> tuple[list[str], int]:
    """rg's per-file blocks as `path:line:text` rows sorted by path, and how many files matched."""
    blocks = {}
    for block in out.strip("\n").split("\n\n"):
        path, *rows = block.split("\n")
        blocks[path] = rows
    lines = []
    for path in sorted(blocks):
        for row in blocks[path]:
            m = ROW.fullmatch(row)
            if not m:
                lines.append(row)
            else:
                number, sep, text = m.groups()
                lines.append(f"{path}{sep}{number}{sep}{text}" if numbered else f"{path}{sep}{text}")
    return lines, len(blocks)


def _python_search(args: dict, ws: Workspace, top: Path) -> str:
    """The fallback: a plain regex search line by line (no context, multiline or type filters), in rg's format."""
    flags = re.IGNORECASE if args.get("-i") else 0
    try:
        rx = re.compile(re.escape(args["pattern"]) if args.get("fixed_strings") else args["pattern"], flags)
    except re.error as e:
        raise ToolError(f"invalid regex: {e}.") from None
    blocks = {}
    for path in ripgrep.walk_matching(args.get("glob") or "**", top, ws.root):
        data = (ws.root / path).read_bytes()
        if not binary_kind(data[:4096], ws.root / path):
            lines = data.decode("utf-8", "replace").splitlines()
            if rows := [f"{n}:{line[:500]}" for n, line in enumerate(lines, 1) if rx.search(line)]:
                blocks[path] = rows
    mode = args.get("output_mode", "files_with_matches")
    if mode == "files_with_matches":
        return "\n".join(blocks)
    if mode == "count":
        return "\n".join(f"{path}:{len(rows)}" for path, rows in blocks.items())
    return "\n\n".join("\n".join([path, *rows]) for path, rows in blocks.items())


def _search(args: dict, ws: Workspace, top: Path) -> tuple[str, str]:
    """rg's output for the requested mode, and a note when the fallback had to answer instead."""
    done = ripgrep.rg([*_flags(args), "-e", args["pattern"], *ripgrep.target(top, ws.root)], ws.root)
    if done is None:
        return _python_search(args, ws, top), ripgrep.fallback_note()
    if done.returncode > 1 and not done.stdout:
        raise _failure(done.stderr)
    return done.stdout, ""


def _page(entries: list[str], args: dict, noun: str) -> str:
    offset, limit = args.get("offset", 0), args.get("head_limit", 250)
    page = entries[offset : offset + limit] if limit > 0 else entries[offset:]
    text = "\n".join(page)
    if len(page) < len(entries):
        last = offset + len(page)
        more = f"; use offset={last} for more" if last < len(entries) else ""
        text += f"\n(showing {noun} {offset + 1}-{last} of {len(entries):,}{more})"
    return text


def run(args: dict, ws: Workspace) -> Result:
    top = ws.resolve(args.get("path", "."))
    if not top.exists():
        raise ws.missing(top)
    mode = args.get("output_mode", "files_with_matches")
    if mode == "files_with_matches":
        return _files(args, ws, top)
    out, note = _search(args, ws, top)
    if not out.strip():
        return _no_matches(args, ws, top, note)
    if mode == "content":
        lines, files = _content(out, args.get("-n", True))
        matched = sum(line != "--" for line in lines)
        text, summary = _page(lines, args, "lines"), f"Found {matched} lines in {files} files"
    else:
        lines = sorted(out.splitlines())
        text, summary = _page(lines, args, "files"), f"Counted matches in {len(lines)} files"
    return Result(text + note, summary)


def _files(args: dict, ws: Workspace, top: Path) -> Result:
    """files_with_matches: the matching files, newest first."""
    try:
        files = ripgrep.newest_files([*_flags(args), "-e", args["pattern"], *ripgrep.target(top, ws.root)], ws.root)
    except ripgrep.RgFailed as e:
        raise _failure(e.stderr) from None
    note = "" if files is not None else ripgrep.fallback_note()
    if files is None:
        files = ripgrep.by_newest(_python_search(args, ws, top).splitlines(), ws.root)
    if not files:
        return _no_matches(args, ws, top, note)
    return Result(_page(files, args, "files") + note, f"Found {len(files)} file{'s' if len(files) != 1 else ''}")


def _no_matches(args: dict, ws: Workspace, top: Path, note: str) -> Result:
    where = ws.show(top) if top != ws.root else "the working directory"
    flags = _flags({**args, "output_mode": "files_with_matches"})
    skipped = ripgrep.skipped_note([*flags, "-e", args["pattern"], *ripgrep.target(top, ws.root)], ws.root)
    return Result(f"No matches for {args['pattern']!r} in {where}.{skipped}{note}", "No matches")


def _failure(stderr: str) -> ToolError:
    reason = ripgrep.error_line(stderr)
    if "regex parse error" in stderr:
        return ToolError(f"invalid regex: {reason}. Escape special characters, or set fixed_strings=true.")
    return ToolError(f"Grep failed: {reason}.")


TOOL = Tool(
    name="Grep",
    description=(
        "Search file contents with a regex (ripgrep syntax). output_mode: files_with_matches (default, newest "
        "first), content (path:line:text; -A/-B/-C context, -n line numbers) or count. Filter with glob "
        "('*.py') or type ('py'). Respects .gitignore; searches hidden files; at most head_limit results "
        "from offset."
    ),
    parameters={
        "type": "object",
        "properties": {
            "pattern": {"type": "string"},
            "path": {"type": "string", "description": "File or folder (default: the working directory)"},
            "glob": {"type": "string"},
            "type": {"type": "string"},
            "output_mode": {"type": "string", "enum": MODES},
            "-i": {"type": "boolean", "description": "Case-insensitive"},
            "-n": {"type": "boolean", "description": "Line numbers in content mode (default true)"},
            "-A": {"type": "integer"},
            "-B": {"type": "integer"},
            "-C": {"type": "integer"},
            "multiline": {"type": "boolean", "description": "Let . and patterns span lines"},
            "fixed_strings": {"type": "boolean", "description": "Pattern is literal text"},
            "head_limit": {"type": "integer", "description": "Results to show (default 250; 0 for all)"},
            "offset": {"type": "integer", "description": "Results to skip"},
        },
        "required": ["pattern"],
    },
    run=run,
    target=lambda args: f'"{args.get("pattern", "")}"' + (f" in {args['path']}" if args.get("path") else ""),
)
