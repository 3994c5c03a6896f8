"""What the tools share: the project, the files the model has read, the todo list, the user's yes/no."""

import difflib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from narnat_agent.tools.support.text import digest

Confirm = Callable[[str, str], bool]


class ToolError(Exception):
    """A failure the model can act on; its text goes back as the tool result."""


@dataclass(frozen=True)
class Diff:
    """A file change, as a compact unified diff."""

    text: str


@dataclass(frozen=True)
class Output:
    """What a command printed: the last lines for the screen, and how much of it the model was shown."""

    tail: tuple[str, ...]
    lines: int
    shown_lines: int  # equal to lines unless the output was cut for the model


@dataclass(frozen=True)
class Todos:
    items: tuple[dict, ...]


Detail = Diff | Output | Todos | None


@dataclass(frozen=True)
class Result:
    text: str  # what the model receives
    summary: str  # the one line the user sees
    is_error: bool = False
    detail: Detail = None  # what the UI draws under the result line


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    parameters: dict
    run: "Callable[[dict, Workspace], Result]"
    target: Callable[[dict], str]  # what the UI shows in the header line: Read(<target>)

    @property
    def schema(self) -> dict:
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }


@dataclass(frozen=True)
class FileRecord:
    sha: str
    mtime: float
    whole: bool


@dataclass
class Workspace:
    root: Path
    state_dir: Path
    confirm: Confirm | None  # None: nobody can answer (a headless run without --yes)
    bash_timeout_ms: int = 120000
    reads: dict[Path, FileRecord] = field(default_factory=dict)
    todos: list[dict] = field(default_factory=list)
    cwd: Path = field(init=False)  # Bash's working directory: it persists between Bash calls, and only there

    def __post_init__(self) -> None:
        self.cwd = self.root

    def resolve(self, path: str) -> Path:
        """An absolute path; relative ones are taken from the project root, wherever Bash has moved: every path a
        tool prints is relative to the root, so a path shown once stays valid for the whole conversation."""
        p = Path(os.path.expanduser(path.strip()))
        return p if p.is_absolute() else self.root / p

    def show(self, path: Path) -> str:
        """A path as the user and the model see it: relative to the root when inside it."""
        try:
            return str(path.relative_to(self.root))
        except ValueError:
            return str(path)

    def remember(self, path: Path, data: bytes, whole: bool) -> None:
        """Record what the model now knows of a file (after a Read, Write or Edit)."""
        mtime = path.stat().st_mtime
        self.reads[path] = FileRecord(digest(data), mtime, whole)

    def require_fresh(self, path: Path, data: bytes, whole: bool) -> None:
        """The iron law: change only a file the model has read (all of it, for whole rewrites) as it is now."""
        record = self.reads.get(path)
        name = self.show(path)
        if record is None:
            raise ToolError(f"{name} has not been read in this session; Read it first, then retry.")
        if whole and not record.whole:
            raise ToolError(f"only part of {name} has been read; Read all of it before overwriting it with Write.")
        if record.sha != digest(data):
            raise ToolError(f"{name} was modified since you read it; Read it again, then retry.")

    def missing(self, path: Path) -> ToolError:
        """'does not exist', with the closest existing names, and where relative paths start."""
        parent = path.parent
        while not parent.is_dir() and parent != parent.parent:
            parent = parent.parent
        try:
            names = [p.name for p in parent.iterdir()]
        except OSError:
            names = []
        close = [parent / n for n in difflib.get_close_matches(path.name, names, n=3, cutoff=0.5)]
        where = f"relative paths start at the project root, {self.root}"
        if self.cwd != self.root:
            where += f"; Bash is in {self.cwd}, which does not move them"
            if path.is_relative_to(self.root) and (beside := self.cwd / path.relative_to(self.root)).exists():
                close.insert(0, beside)
        hint = f" Did you mean: {', '.join(self.show(p) for p in close)}?" if close else ""
        return ToolError(f"{self.show(path)} does not exist ({where}).{hint}")
