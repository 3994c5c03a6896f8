"""The steps of every run that shares a project's checkpoint store, and when each ran.

A command's two snapshots see the whole project, so what another narnat wrote while the command ran is in the
command's step, and a rewind of this conversation would take that work for its own. So each run notes here when
each of its steps ran; a rewind asks, naming them, before it touches the files of one of this conversation's
commands that a step of another run changed too while the command ran. A Write or Edit names its file: its steps
need no such doubt.
"""

import json
import os
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path

from narnat_agent.checkpoints.lock import exclusive
from narnat_agent.checkpoints.store import CheckpointError, Store
from narnat_agent.logger import get_logger

log = get_logger("checkpoints")


@dataclass(frozen=True)
class Window:
    start: float  # the wall clock before the snapshot before the step was begun
    end: float  # and once the snapshot after it was taken
    before: str
    after: str
    command: bool  # its snapshots saw the whole project, not only the files it names


class Journal:
    """One line of JSON per step or restore, appended by every run of the project."""

    def __init__(self, path: Path):
        self.path = path

    def note(self, window: Window) -> None:
        line = (json.dumps(asdict(window)) + "\n").encode()
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            with exclusive(self.path, os.O_RDWR | os.O_APPEND) as fd:
                cut = os.lseek(fd, 0, os.SEEK_END) > 0 and _last_byte(fd) != b"\n"
                os.write(fd, b"\n" + line if cut else line)  # a line a crash cut short stays alone
        except OSError as e:  # the store beside it fails too, and says so: the turn goes on
            log.warning("the runs' journal cannot be written: %s", e)

    def windows(self) -> list[Window] | None:
        """Every run's steps; None when the journal exists but cannot be read: any run may have been at work."""
        try:
            lines = self.path.read_bytes().splitlines()
        except FileNotFoundError:
            return []
        except OSError as e:
            log.warning("the runs' journal cannot be read: %s", e)
            return None
        return [w for line in lines if (w := _window(line))]

    def prune(self, ended_before: float) -> None:
        """Forget the steps that ended before a time: no rewind goes back to them."""
        try:
            with exclusive(self.path, os.O_RDWR) as fd:
                with open(fd, "rb", closefd=False) as f:
                    lines = f.read().splitlines(keepends=True)
                kept = b"".join(line for line in lines if (w := _window(line)) and w.end >= ended_before)
                os.ftruncate(fd, 0)  # in place, so a run appending meanwhile waits on the same file
                os.lseek(fd, 0, os.SEEK_SET)
                os.write(fd, kept)
        except OSError as e:
            log.warning("the runs' journal cannot be pruned: %s", e)


def _last_byte(fd: int) -> bytes:
    os.lseek(fd, -1, os.SEEK_END)
    return os.read(fd, 1)  # the write after it still appends: the file is open with O_APPEND


def _window(line: bytes) -> Window | None:
    """A line as written, or None for one a crash cut short."""
    try:
        fields = json.loads(line)
        window = Window(**fields)
    except (ValueError, TypeError):
        return None
    return window if all(isinstance(v, (float, int, str, bool)) for v in fields.values()) else None


def others_work(store: Store, windows: list[Window] | None, ours: set[tuple[str, str]],
                span: Iterable[tuple[str, str]]) -> set[str]:  # fmt: skip
    """The files of the span's commands that a step of another run, running at the same time, changed too.
    `ours` names every step and restore of this conversation (the other runs' steps are the rest); with no journal
    to read (None), every file of the span may be another run's."""
    if windows is None:
        return {name for before, after in span for name in store.changed(before, after)}
    wanted, found = set(span), set()
    for command in (w for w in windows if w.command and (w.before, w.after) in wanted):
        overlapping = [w for w in windows if (w.before, w.after) not in ours and w.start < command.end
                       and command.start < w.end]  # fmt: skip
        if not overlapping:
            continue
        changed = set(store.changed(command.before, command.after))
        for other in overlapping:
            try:
                found |= changed & set(store.changed(other.before, other.after))
            except CheckpointError:  # its snapshots are gone: any of the command's files may be its
                found |= changed
    return found
