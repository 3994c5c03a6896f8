"""Glob: files whose path matches a pattern, newest first."""

import os
from pathlib import Path

from narnat_agent import ripgrep
from narnat_agent.tools.workspace import Result, Tool, ToolError, Workspace

LIMIT = 100
META = set("*?[{\\")


def _split(pattern: str, top: Path, root: Path) -> tuple[Path, str]:
    """The folder to walk and the pattern below it. A literal start outside top ('/abs/dir/', '../') or into
    .narnat moves the folder there; inside top ('./', 'src/') it stays part of the pattern, so .gitignore rules
    still apply to it."""
    segments = pattern.split("/")
    literal = 0
    while literal < len(segments) - 1 and not META & set(segments[literal]):
        literal += 1
    top = Path(os.path.normpath(top))
    base = Path(os.path.normpath(top / "/".join(segments[:literal]))) if literal else top
    rest = "/".join(segments[literal:])
    if not base.is_relative_to(top) or ripgrep.in_state(base, root):
        return base, rest
    inside = base.relative_to(top).as_posix()
    return top, rest if inside == "." else f"{inside}/{rest}"


def _folder(top: Path, ws: Workspace) -> None:
    name = ws.show(top)
    if not top.exists():
        raise ws.missing(top)
    if top.is_file():
        raise ToolError(f"{name} is a file, not a folder; Glob searches folders.")
    if not top.is_dir():
        raise ToolError(f"{name} is not a folder (a FIFO, socket or device); Glob searches folders.")


def _matching(top: Path, pattern: str, ws: Workspace, ignore: bool = True) -> list[bytes] | None:
    """The files below top (relative to the root, as rg prints them) whose path below top matches the pattern,
    newest first; None when rg cannot run."""
    rx = ripgrep.glob_regex(pattern)
    cut = len(os.fsencode(ripgrep.target(top, ws.root)[-1])) + 1 if top != ws.root else 0
    unignored = [] if ignore else ["--no-ignore"]
    flags = [
        "--files",
        *ripgrep.name_filter(pattern.rsplit("/", 1)[-1]),
        *ripgrep.scope(top, ws.root),
        *unignored,
        *ripgrep.target(top, ws.root),
    ]
    try:
        return ripgrep.newest_files(flags, ws.root, lambda path: bool(rx.fullmatch(os.fsdecode(path[cut:]))))
    except ripgrep.RgFailed as e:
        raise ToolError(f"Glob failed: {e}.") from None


def run(args: dict, ws: Workspace) -> Result:
    top, pattern = _split(args["pattern"], ws.resolve(args.get("path", ".")), ws.root)
    _folder(top, ws)
    files, note = _matching(top, pattern, ws), ""
    if files is None:
        found = [os.fsencode(path) for path in ripgrep.walk_matching(pattern, top, ws.root)]
        files, note = ripgrep.newest_first(found, ws.root), ripgrep.FALLBACK_NOTE
    if not files:
        where = ws.show(top) if top != ws.root else "the working directory"
        ignored = len(_matching(top, pattern, ws, ignore=False) or []) if not note else 0
        skipped = ripgrep.skipped_note(ignored) or " Hidden files were included."
        return Result(f"No files match {args['pattern']!r} in {where}.{skipped}{note}", "No files")
    shown = "\n".join(ripgrep.shown(path) for path in files[:LIMIT])
    if len(files) > LIMIT:
        rest = len(files) - LIMIT
        shown += f"\n(showing the {LIMIT} newest of {len(files):,} files; {rest:,} more; narrow the pattern)"
    summary = f"Found {len(files)} file{'s' if len(files) != 1 else ''}"
    return Result(f"{shown}{note}", summary)


TOOL = Tool(
    name="Glob",
    description=(
        "Find files by path pattern, relative to path (default: the working directory). '*' and '?' match within "
        "one path segment and a '**' segment matches any number of folders: '*.py' is the top level only, "
        "'**/*.py' every depth, 'src/**/*.{ts,tsx}' below src. Respects .gitignore, also outside git; includes "
        "hidden files; skips .git and .narnat (unless path points there); newest first, at most 100."
    ),
    parameters={
        "type": "object",
        "properties": {
            "pattern": {"type": "string"},
            "path": {"type": "string", "description": "Folder to search (default: the working directory)"},
        },
        "required": ["pattern"],
    },
    run=run,
    target=lambda args: args.get("pattern", "") + (f" in {args['path']}" if args.get("path") else ""),
)
