"""Glob: files whose path matches a pattern, newest first."""

from narnat_agent import ripgrep
from narnat_agent.tools.workspace import Result, Tool, ToolError, Workspace

LIMIT = 100


def run(args: dict, ws: Workspace) -> Result:
    pattern = args["pattern"]
    top = ws.resolve(args.get("path", "."))
    if not top.exists():
        raise ws.missing(top)
    try:
        files = ripgrep.newest_files(["--files", "--glob", pattern, *ripgrep.target(top, ws.root)], ws.root)
    except ripgrep.RgFailed as e:
        raise ToolError(f"invalid pattern {pattern!r}: {e}") from None
    note = "" if files is not None else ripgrep.fallback_note()
    if files is None:
        files = ripgrep.by_newest(ripgrep.walk_matching(pattern, top, ws.root), ws.root)
    where = ws.show(top) if top != ws.root else "the working directory"
    if not files:
        skipped = ripgrep.skipped_note(["--files", "--glob", pattern, *ripgrep.target(top, ws.root)], ws.root)
        return Result(f"No files match {pattern!r} in {where}.{skipped}{note}", "No files")
    shown = "\n".join(files[:LIMIT])
    if len(files) > LIMIT:
        rest = len(files) - LIMIT
        shown += f"\n(showing the {LIMIT} newest of {len(files):,} files; {rest:,} more; narrow the pattern)"
    summary = f"Found {len(files)} file{'s' if len(files) != 1 else ''}"
    return Result(f"{shown}{note}", summary)


TOOL = Tool(
    name="Glob",
    description=(
        "Find files by path pattern, e.g. '**/*.py' or 'src/**/*.ts' (a pattern without '/' matches file names "
        "at any depth). Respects .gitignore; includes hidden files; newest first, at most 100."
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
