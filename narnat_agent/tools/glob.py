"""Glob: files whose path matches a pattern, newest first."""

import os
from pathlib import Path

from narnat_agent.i18n import N_, Said, _, ngettext
from narnat_agent.platform.files import slashed
from narnat_agent.tools.base import Result, ToolError
from narnat_agent.tools.files import ripgrep
from narnat_agent.tools.tool import Tool
from narnat_agent.tools.workspace import Workspace

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


def _matching(top: Path, pattern: str, ws: Workspace, ignore: bool = True,
              unread: list[str] | None = None) -> list[bytes] | None:  # fmt: skip
    """The files below top (relative to the root, as rg prints them) whose path below top matches the pattern,
    newest first; None when rg cannot run. What rg could not read goes to `unread`."""
    rx, cut = ripgrep.glob_regex(pattern), _cut(top, ws)
    unignored = [] if ignore else ["--no-ignore"]
    by_name = ripgrep.name_filter(pattern.rsplit("/", 1)[-1])
    flags = ["--files", *by_name, *ripgrep.scope(top, ws.root), *unignored, *ripgrep.target(top, ws.root)]
    if by_name and pattern.count("/") == 1 and pattern.startswith("**/"):  # rg's name filter says it all
        return _listed(flags, ws, lambda path: True, unread)
    return _listed(flags, ws, lambda path: bool(rx.fullmatch(os.fsdecode(path[cut:]))), unread)


def _listed(flags: list[str], ws: Workspace, keep, unread: list[str] | None) -> list[bytes] | None:
    try:
        return ripgrep.newest_files(flags, ws.root, keep, unread)
    except ripgrep.RgFailed as e:
        raise ToolError(f"Glob failed: {e}.") from None


def _cut(top: Path, ws: Workspace) -> int:
    """How many bytes of rg's names are the folder's own path."""
    return len(os.fsencode(ripgrep.target(top, ws.root)[-1])) + 1 if top != ws.root else 0


def _matches(count: int) -> str:
    return f"{count:,} file{'s match' if count != 1 else ' matches'}"


def run(args: dict, ws: Workspace) -> Result:
    top, pattern = _split(slashed(args["pattern"]), ws.resolve(args.get("path", ".")), ws.root)
    _folder(top, ws)
    wide = "/" not in pattern and pattern != "**"  # a name: the walk also counts what '*' leaves out below
    searched = f"**/{pattern}" if wide else pattern
    unread: list[str] = []
    found, note = _matching(top, searched, ws, unread=unread), ""
    if found is None:
        found = ripgrep.newest_first([os.fsencode(p) for p in ripgrep.walk_matching(searched, top, ws.root)], ws.root)
        note = ripgrep.FALLBACK_NOTE
    if unread:  # "no files" or a short list is not the whole truth: say where it could not look
        note = f"\n(Some paths could not be read: {unread[0]}){note}"
    cut = _cut(top, ws)
    files = [path for path in found if b"/" not in path[cut:]] if wide else found
    below = f"{_matches(len(found) - len(files))} '{searched}' in subfolders" if len(found) > len(files) else ""
    where = ws.show(top) if top != ws.root else "the project root"
    if not files and below:
        return Result(f"No files match '{args['pattern']}' in {where}; {below}.{note}", _("No files"))
    if not files:
        ignored = (_matching(top, pattern, ws, ignore=False) or []) if not note else []
        skipped = ripgrep.skipped_note(ignored, top, ws.root) or " Hidden files were included."
        moved = ws.nothing_found_note()
        return Result(f"No files match '{args['pattern']}' in {where}.{skipped}{moved}{note}", _("No files"))
    shown = "\n".join(ripgrep.shown_name(path) for path in files[:LIMIT])
    if len(files) > LIMIT:
        rest = len(files) - LIMIT
        shown += f"\n(showing the {LIMIT} newest of {len(files):,} files; {rest:,} more; narrow the pattern)"
    if below:
        shown += f"\n({below.replace(' file', ' more file', 1)})"
    summary = ngettext("Found {n} file", "Found {n} files", len(files)).format(n=len(files))
    return Result(f"{shown}{note}", summary)


TOOL = Tool(
    name="Glob",
    description=(
        "Find files by path pattern, relative to path (default: the project root). '*' and '?' match within "
        "one path segment and a '**' segment matches any number of folders: '*.py' is the top level only, "
        "'**/*.py' every depth, 'src/**/*.{ts,tsx}' below src. Respects .gitignore, also outside git; includes "
        "hidden files; skips .git and .narnat (unless path points there); newest first, at most 100."
    ),
    parameters={
        "type": "object",
        "properties": {
            "pattern": {"type": "string"},
            "path": {"type": "string", "description": "Folder to search (default: the project root)"},
        },
        "required": ["pattern"],
    },
    run=run,
    target=lambda args: (
        Said(N_("{search} in {path}"), search=args["pattern"], path=args["path"])
        if args.get("path")
        else args.get("pattern", "")
    ),
)
