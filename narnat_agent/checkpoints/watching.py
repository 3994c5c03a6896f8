"""Whether the project changed since the last whole snapshot, told without walking it: its folders watched.

A command needs the whole project before and after it, and a whole snapshot costs about what `git status` costs.
When nothing changed since the last one (but the files that snapshots of touched files took in since), the last one
still stands and need not be taken again: not before a command when nothing ran since the previous call, not after
a command that changed nothing. Every folder a snapshot may keep a file of is watched (not .git, not .narnat, not
the folders .gitignore names whole, which no snapshot keeps), from before the snapshot that is trusted begins: a
watch is added before its folder is listed, so a file made meanwhile is either listed or reported. Whatever the
watcher cannot vouch for (no watcher on this system or file system, its events lost, the system's limit of watches
reached, a folder on another file system) makes every snapshot a whole one, as without it.

What changed is known too, by name: a whole snapshot then updates only those files, unless a folder came or went
or a .gitignore changed (what the snapshot keeps may differ anywhere below it).
"""

import os
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

from narnat_agent.atomic import TMP_PREFIX
from narnat_agent.logger import get_logger
from narnat_agent.platform.watch import Watch, open_watch

log = get_logger("checkpoints.store")
UNSEEN = {".git"}  # a repository's own folder: never in a snapshot, and busy with every git command
LIMIT = 2000  # changed names past which a whole snapshot looks at every file instead


class Watcher:
    """The project's folders watched; `still()` says whether the last whole snapshot stands, `mark()` what changed."""

    def __init__(self, project: Path, opener: Callable[[Path], Watch | None] = open_watch):
        self.root = os.path.realpath(project)
        self.opener = opener  # the system's watcher; another where the tests need a watcher that fails
        self.watch: Watch | None = None
        self.off = False  # the watcher cannot vouch for this project: every snapshot is a whole one
        self.ignored: set[str] = set()  # folders no snapshot keeps, as the last whole one listed them
        self.changed: set[str] | None = None  # names changed since the last mark; None: not known
        self.untaken = True  # a change since the last mark that no snapshot of touched files took in
        self.lost = False  # events were lost: the folders must be listed again before the next mark
        self.lock = threading.Lock()  # the first snapshot runs on a thread of its own

    def mark(self) -> set[str] | None:
        """A whole snapshot begins: anything that changes from now on counts. The names changed since the last
        mark (None: not known, every file must be looked at)."""
        with self.lock:
            if self.watch is None:
                return None
            self._drain()
            changed = self.changed
            if self.lost and self.watch is not None:
                self.lost = False
                self._walk("")
            self.changed, self.untaken = (set(), False) if self.watch is not None else (None, True)
            return changed

    def cover(self, names: Iterable[str]) -> None:
        """A snapshot of these touched files begins: their changes so far are in it; any other change counts. A
        touched file in a folder .gitignore names whole is kept from now on, and so are the folder's other files
        (the store's index holds one): the folder is watched from now on, and vouched for from the next mark."""
        with self.lock:
            covered = set(names)
            if self.watch is None:
                return
            if not self._drain() <= covered:
                self.untaken = True
            for folder in sorted(f for f in self.ignored if any(n.startswith(f"{f}/") for n in covered)):
                self.ignored.discard(folder)
                self._walk(folder)
                self.changed, self.untaken = None, True

    def still(self) -> bool:
        """Whether nothing changed since the last whole snapshot began, but what snapshots of touched files took."""
        with self.lock:
            if self.watch is not None and self._drain():
                self.untaken = True
            return self.watch is not None and self.changed is not None and not self.untaken

    def begin(self, ignored: set[str]) -> None:
        """Start watching before the run's first whole snapshot, leaving out the folders an earlier run's listing
        named whole (the snapshot's own listing corrects them): vouched for from its mark on."""
        if self.watch is None:
            self.follow(ignored)

    def follow(self, ignored: set[str]) -> None:
        """A whole snapshot is taken: the folders it leaves out whole are not watched, those it keeps are. Watching
        begins with the first one: until the next mark, nothing is vouched for."""
        with self.lock:
            if self.off:
                return
            if self.watch is None:
                self.ignored = ignored
                self.watch = self.opener(Path(self.root))
                self.off = self.watch is None
                self._walk("")
                self.changed, self.untaken = None, True
                return
            for folder in ignored - self.ignored:
                self.watch.forget(os.path.join(self.root, folder))
                if not self.watch.add(os.path.join(self.root, folder)):  # its own entries only, as _walk does
                    return self._stop(f"{folder} cannot be watched")
            kept = sorted(self.ignored - ignored)  # .gitignore no longer names them: watched from now on
            self.ignored = ignored
            for folder in kept:
                self._walk(folder)
            if kept:
                self.changed, self.untaken = None, True

    def close(self) -> None:
        with self.lock:
            if self.watch is not None:
                self.watch.close()
                self.watch = None

    def _drain(self) -> set[str]:
        """The names changed since the last drain, also added to `changed` (folders that came are watched now,
        those that went are forgotten)."""
        assert self.watch is not None
        events = self.watch.events()
        if events is None:
            log.info("file events lost; the project's folders are listed again at the next whole snapshot")
            self.lost, self.changed = True, None
            return {""}
        names = set()
        for event in events:
            name = self._name(event.path)
            if name is None:
                continue
            if (parent := name.rpartition("/")[0]) in self.ignored:
                # a folder no snapshot keeps the files of, whose entries are counted (a command that empties or
                # fills it is told from one that does not): only its listing counts, named as the folder
                if event.listed:
                    names.add(f"{parent}/")
                continue
            if event.went:
                self.watch.forget(event.path)
            if event.came and name in self.ignored and not self.watch.add(event.path):  # its own entries, as _walk
                self._stop(f"{event.path} cannot be watched")
            if event.came and name not in self.ignored:
                self._walk(name)
            if self.watch is None:  # the system's limit reached: nothing is vouched for any more
                return {""}
            names.add(name)
            # what the names alone cannot tell: the files of a folder gone, or what .gitignore leaves out (a folder
            # that came is one still, which no name can stand for)
            if event.went or not name or name.rsplit("/", 1)[-1] == ".gitignore":
                self.changed = None
        if self.changed is not None:
            self.changed |= names
            self.changed = self.changed if len(self.changed) <= LIMIT else None
        return names

    def _name(self, path: str) -> str | None:
        """A changed path as the store names it; None for what no snapshot keeps."""
        if path == self.root:
            return ""
        name = os.path.relpath(path, self.root).replace(os.sep, "/")
        leaf = name.rsplit("/", 1)[-1]
        if leaf in UNSEEN or leaf.startswith(TMP_PREFIX) or name == ".narnat":
            return None
        return name

    def _walk(self, start: str) -> None:
        """Watch a folder and every folder under it that a snapshot keeps files of: each watched before it is
        listed. A folder on another file system, or one that cannot be watched, turns the watcher off."""
        folders = [start]
        device = os.stat(self.root).st_dev
        while folders and self.watch is not None:
            name = folders.pop()
            path = os.path.join(self.root, name) if name else self.root
            if not self.watch.add(path):
                return self._stop(f"{path} cannot be watched")
            try:
                entries = list(os.scandir(path))
            except OSError:  # gone meanwhile, which its parent reports; one it cannot read, git cannot either
                continue
            for entry in entries:
                child = f"{name}/{entry.name}" if name else entry.name
                if entry.name in UNSEEN or child == ".narnat":
                    continue
                if child in self.ignored:  # its own entries only: what comes and goes there, not what changes
                    if not self.watch.add(entry.path):
                        return self._stop(f"{entry.path} cannot be watched")
                    continue
                try:
                    if not entry.is_dir(follow_symlinks=False):
                        continue
                    if entry.stat(follow_symlinks=False).st_dev != device:
                        return self._stop(f"{entry.path} is on another file system")
                except OSError:
                    continue
                folders.append(child)
        return None

    def _stop(self, why: str) -> None:
        log.info("the project is not watched (%s): each command's snapshots look at every file", why)
        if self.watch is not None:
            self.watch.close()
        self.watch, self.off, self.changed, self.untaken = None, True, None, True
