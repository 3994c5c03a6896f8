"""What the tools share: the project, the files the model has read, the todo list, the user's yes/no."""

import difflib
import errno
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from narnat_agent.i18n import N_, Said
from narnat_agent.platform.files import native
from narnat_agent.processes.jobs import Jobs
from narnat_agent.tools.base import Confirm, EditorFiles, ToolError, nobody_to_ask
from narnat_agent.tools.files.textfile import binary_kind, decode, digest, line_ending, with_ending
from narnat_agent.tools.web.http import Web

Ranges = tuple[tuple[int, int], ...]  # line ranges, first and last (1-based)


@dataclass(frozen=True)
class FileRecord:
    """What the model has seen of a file's current content: all of it, or these line ranges (merged, 1-based)."""

    sha: str
    whole: bool
    seen: Ranges = ()
    codec: str = "utf-8"  # the encoding the model was shown the text in
    rewound: bool = False  # /rewind or /redo has put other content in the file since


def renumbered(seen: Ranges, changes: list[tuple[int, int, int]]) -> Ranges:
    """The lines the model had seen, numbered as they are after an edit that replaced, at each (first, old,
    new), `old` lines by `new` ones; the lines written count as seen where the model had seen those replaced."""
    out: list[tuple[int, int]] = []
    kept, shift, cursor = [], 0, 1  # unchanged stretches of the old numbering, with their shift
    for first, old, new in sorted(changes):
        kept.append((cursor, first - 1, shift))
        if all(any(a <= n <= b for a, b in seen) for n in range(first, first + old)):
            out.append((first + shift, first + shift + new - 1))
        cursor, shift = first + old, shift + new - old
    kept.append((cursor, sys.maxsize, shift))
    for a, b in seen:
        out += [(max(a, lo) + s, min(b, hi) + s) for lo, hi, s in kept if max(a, lo) <= min(b, hi)]
    return _merged([r for r in out if r[0] <= r[1]])


def _merged(ranges: list[tuple[int, int]]) -> Ranges:
    out: list[tuple[int, int]] = []
    for first, last in sorted(tuple(r) for r in ranges):  # a restored record holds lists
        if out and first <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return tuple(out)


def printable(name: str) -> str:
    """A file name as valid UTF-8 text: bytes that are not UTF-8 appear escaped, as in caf\\xe9.py."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def _unescaped(name: str) -> str:
    """The name printable() showed, back as the file system spells it."""
    return re.sub(r"\\x([89a-f][0-9a-f])", lambda m: chr(0xDC00 + int(m[1], 16)), name)


@dataclass
class ToolState:
    """What the tools keep for one conversation: the files the model has read and its todo list.

    It belongs to the conversation (saved, restored and dropped with it), so the tools only borrow it.
    """

    reads: dict[Path, FileRecord] = field(default_factory=dict)
    todos: list[dict] = field(default_factory=list)
    set_aside: dict[Path, FileRecord] = field(default_factory=dict)  # reads the last rewind took: /redo gives back
    # what the model knew as each turn began, by the turn's first message: what /undo of the turn goes back to
    at_turn: dict[int, dict[Path, FileRecord]] = field(default_factory=dict)


@dataclass
class Workspace:
    root: Path
    state_dir: Path
    confirm: Confirm | None  # None: nobody can answer (a headless run without --yes)
    bash_timeout_ms: int = 120000
    sees_images: bool = False  # Read sends a picture to the model, or only says what it is
    tool_state: ToolState = field(default_factory=ToolState)
    web: Web = field(default_factory=Web)
    jobs: Jobs = field(default_factory=Jobs)  # Bash's background commands: they belong to the run, not a conversation
    secret: str = field(default="", repr=False)  # the API key: never in what a tool returns (see registry)
    other_keys: tuple[str, ...] = field(default=(), repr=False)  # keys the settings hold besides it: masked too
    hidden: tuple[Path, ...] = ()  # files that may hold the key: Bash's commands read them as empty where it can
    shell: str = ""  # the `shell` setting: the shell Bash runs, when not the one found (tools/bash/shells.py)
    planning: bool = False  # plan mode: what would change a file is refused (registry.py; Bash's own check)
    cwd: Path = field(init=False)  # Bash's working directory: it persists between Bash calls, and only there
    editor: EditorFiles | None = None  # where an editor drives Narnat: its unsaved text of a file wins over the disk
    unsaved: set[Path] = field(default_factory=set)  # files whose editor text differed from the disk when read
    # what /undo could give back of the paths a command deletes, for its question ("": nothing to say); None where
    # no /undo follows (a headless run)
    undo_says: Callable[[list[Path]], str] | None = None

    def __post_init__(self) -> None:
        self.cwd = self.root

    def content(self, path: Path) -> bytes:
        """A file's bytes as Read, Edit and Write take them: the disk's, or, where an editor holds other text for it
        (changes not saved yet), that text in the file's own encoding and line endings."""
        data = path.read_bytes()
        if self.editor is None or binary_kind(data[:4096], path):
            return data
        text = self.editor.text(path)
        disk, encoding = decode(data)
        if text is None or text in (disk, disk.replace("\r\n", "\n")):  # an editor may hold CRLF lines as LF
            self.unsaved.discard(path)
            return data
        self.unsaved.add(path)
        try:
            return encoding.encode(with_ending(text, line_ending(disk)))
        except UnicodeEncodeError:
            return text.encode("utf-8")

    def written(self, path: Path, data: bytes) -> None:
        """A tool has written the file: an editor whose unsaved text of it was read takes the new text."""
        if self.editor is not None and path in self.unsaved:
            self.unsaved.discard(path)
            self.editor.wrote(path, decode(data)[0])

    @property
    def reads(self) -> dict[Path, FileRecord]:
        return self.tool_state.reads

    @property
    def todos(self) -> list[dict]:
        return self.tool_state.todos

    @todos.setter
    def todos(self, todos: list[dict]) -> None:
        self.tool_state.todos = todos

    def resolve(self, path: str) -> Path:
        """An absolute path; relative ones are taken from the project root, wherever Bash has moved: every path a
        tool prints is relative to the root, so a path shown once stays valid for the whole conversation. On Windows
        drive letters and either slash are taken as written, and Git Bash's /c/… is C:/…."""
        p = Path(os.path.expanduser(native(path.strip())))
        p = p if p.is_absolute() else self.root / p
        if "\\x" in path and not os.path.lexists(p) and os.path.lexists(raw := _unescaped(str(p))):
            return Path(raw)
        return p

    def show(self, path: Path) -> str:
        """A path as the user and the model see it: relative to the root when inside it, always valid UTF-8."""
        try:
            return printable(str(path.relative_to(self.root)))
        except ValueError:
            return printable(str(path))

    def remember(
        self, path: Path, data: bytes, whole: bool, lines: tuple[Ranges, int] | None = None, codec: str = "utf-8"
    ) -> None:
        """Record what the model now knows of a file, decoded with codec: all of it, or these line ranges of
        the file's total (lines), added to what it saw before of this same content."""
        self.saw(path, digest(data), whole, lines, codec)

    def saw(
        self, path: Path, sha: str, whole: bool, lines: tuple[Ranges, int] | None = None, codec: str = "utf-8"
    ) -> None:
        """`remember`, for a file known by the digest of its bytes (one paged from the disk, never held whole)."""
        previous = self.reads.get(path)
        seen: Ranges = ()
        if lines and not whole:
            ranges, total = lines
            before = previous if previous is not None and previous.sha == sha else None
            whole = before is not None and before.whole
            seen = _merged([*(before.seen if before else ()), *ranges])
            whole = whole or seen == ((1, total),)
        self.reads[path] = FileRecord(sha, whole, () if whole else seen, codec)

    def seen_as(self, path: Path, data: bytes) -> str | None:
        """The encoding the model has seen this content of a file in, if it has."""
        record = self.reads.get(path)
        return record.codec if record and record.sha == digest(data) else None

    def knows(self, path: Path) -> bool:
        """Whether the model has read this file (all or part of it) as it is now."""
        record = self.reads.get(path)
        try:
            return record is not None and path.is_file() and record.sha == digest(path.read_bytes())
        except OSError:
            return False

    def require_read(self, path: Path) -> None:
        """The iron law's first half, checked before a byte of the file is read: one the model never read is
        refused at once (a 1 GB file was loaded whole only to be refused)."""
        if path not in self.reads:
            name = self.show(path)
            raise ToolError(
                f"{name} has not been read in this session; Read it first, then retry.",
                Said(N_("{file} has not been read in this session"), file=name),
            )

    def require_fresh(self, path: Path, data: bytes, whole: bool) -> None:
        """The iron law: change only a file the model has read (all of it, for whole rewrites) as it is now."""
        self.require_read(path)
        record = self.reads[path]
        name = self.show(path)
        if whole and not record.whole:
            raise ToolError(
                f"only part of {name} has been read; Read all of it before overwriting it with Write.",
                Said(N_("only part of {file} has been read"), file=name),
            )
        if record.sha != digest(data):
            how = "restored by /rewind after you last read it" if record.rewound else "modified since you read it"
            shown = (
                N_("{file} was restored by /rewind after it was last read")
                if record.rewound
                else N_("{file} was modified since it was last read")
            )
            raise ToolError(f"{name} was {how}; Read it again, then retry.", Said(shown, file=name))

    def restored(self, paths: list[Path]) -> None:
        """Files a rewind has put back: a record of other content says so to the next Edit or Write."""
        for path in paths:
            record = self.reads.get(path)
            if record and not self.knows(path):
                self.reads[path] = replace(record, rewound=True)

    def turn_begins(self, message: int) -> None:
        """A turn begins at this message of the conversation: what the model knows of the files now is what taking
        the turn back returns to."""
        self.tool_state.at_turn[message] = dict(self.reads)

    def forget(self, paths: list[Path], message: int) -> None:
        """The conversation was cut back to a turn that began at `message`: of the files the cut turns changed, the
        model knows again what it knew then (none, or a read the file's content is checked against, as always), and
        nothing after. What it knew is set aside, for /redo to give back with the conversation."""
        then = self.tool_state.at_turn.get(message, {})
        self.tool_state.set_aside = {path: record for path in paths if (record := self.reads.pop(path, None))}
        self.reads.update({path: then[path] for path in paths if path in then})

    def bring_back(self) -> None:
        """What the last rewind set aside, the conversation that showed it given back (/redo)."""
        self.reads.update(self.tool_state.set_aside)
        self.tool_state.set_aside = {}

    def bash_elsewhere(self) -> str:
        """Where Bash's cd has gone, for results whose paths a model might read from there ("" at the root)."""
        if self.cwd == self.root:
            return ""
        return f"Bash is in {printable(str(self.cwd))}, which does not move them"

    def nothing_found_note(self) -> str:
        """For a search that found nothing: the paths it took may have been meant from Bash's directory."""
        elsewhere = self.bash_elsewhere()
        return f" (Paths and patterns start at the project root; {elsewhere}.)" if elsewhere else ""

    def ask(self, action: str, reason: str, declined: str, deleted: list[Path] | None = None) -> None:
        """The user's yes before action, or a ToolError saying why not (declined: what the model should do then, a
        Said the person reads too); the person is told what /undo could give back of the paths it deletes."""
        if self.confirm is None:
            raise nobody_to_ask(reason)
        undo = self.undo_says(deleted) if self.undo_says and deleted else ""
        if not self.confirm(action, Said(N_("{reason}; {undo}"), reason=reason, undo=undo) if undo else reason):
            raise ToolError(Said(N_("the user declined to run it ({reason}). {then}"), reason=reason, then=declined))

    def ask_outside(self, tool: str, path: Path) -> None:
        """A file outside the project is the user's to allow: Write and Edit ask before they change one."""
        real = os.path.realpath(path)
        if os.path.commonpath([real, os.path.realpath(self.root)]) != os.path.realpath(self.root):
            reason = Said(N_("it changes {path}, outside the project"), path=real)
            self.ask(f"{tool} {real}", reason, Said(N_("Ask the user what they want.")))

    def missing(self, path: Path) -> ToolError:
        """'does not exist', with the closest existing names, and where relative paths start; a path through a loop
        of symbolic links says so (it was said not to exist, and the loop's own name offered in its place), and so
        does a link on the way that leads to nothing."""
        try:
            os.stat(path)
        except OSError as e:
            if e.errno == errno.ELOOP:
                name, why = self.show(path), e.strerror or "a loop of symbolic links"
                return ToolError(f"{name} cannot be used: {why}.", Said(N_("{path} cannot be used: {why}."),
                                                                         path=name, why=why))  # fmt: skip
        if (link := next((p for p in (path, *path.parents) if p.is_symlink() and not p.exists()), None)) is not None:
            shown, target = self.show(link), printable(os.readlink(link))
            said = Said(N_("{path} is a symbolic link to {target}, which does not exist"), path=shown, target=target)
            return ToolError(f"{said}.", said)
        parent = path.parent
        while not parent.is_dir() and parent != parent.parent:
            parent = parent.parent
        try:
            names = [p.name for p in parent.iterdir()]
        except OSError:
            names = []
        close = [parent / n for n in difflib.get_close_matches(path.name, names, n=3, cutoff=0.5)]
        if path != parent and len(rest := path.relative_to(parent).parts) > 1:  # a folder on the way is missing
            near = [parent / n / Path(*rest[1:]) for n in difflib.get_close_matches(rest[0], names, n=3, cutoff=0.5)]
            close = [p for p in near if p.exists()] + close  # test/__init__.py: tests/__init__.py
        where = f"relative paths start at the project root, {printable(str(self.root))}"
        if self.cwd != self.root:
            where += f"; {self.bash_elsewhere()}"
            if path.is_relative_to(self.root) and (beside := self.cwd / path.relative_to(self.root)).exists():
                close.insert(0, beside)
        name, guesses = self.show(path), ", ".join(self.show(p) for p in close)
        if not close:
            return ToolError(f"{name} does not exist ({where}).", Said(N_("{path} does not exist"), path=name))
        said = Said(N_("{path} does not exist; did you mean {names}?"), path=name, names=guesses)
        return ToolError(f"{name} does not exist ({where}). Did you mean: {guesses}?", said)
