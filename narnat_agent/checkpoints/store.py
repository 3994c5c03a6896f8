"""What a checkpoint store does, and the store used when git is not installed: copies of the files a tool changes.

A snapshot id names a state of the project's files. A file is named by its path relative to the project, with
forward slashes, or by its absolute path when it lies outside the project. A content id says what a file holds
(mode and hash); None means the file does not exist.
"""

import difflib
import hashlib
import json
import os
import stat
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from narnat_agent.atomic import write_atomic
from narnat_agent.i18n import N_, Said, _
from narnat_agent.platform.files import open_now

CAP = 10 * 2**20  # a file a tool touches is kept in a checkpoint up to this size, even when .gitignore names it
AGE_DAYS = 7  # a prune keeps the snapshots the current conversation names, and all younger than this


class CheckpointError(Exception):
    """The checkpoint store cannot do what was asked, in one sentence."""


@dataclass(frozen=True)
class FileChange:
    path: str
    added: int | None  # lines; None for a binary file
    removed: int | None


@dataclass(frozen=True)
class Unkept:
    """A file a snapshot could not keep: why, and its state then, to tell whether a call changed it."""

    reason: str
    state: str


@dataclass(frozen=True)
class Snapshot:
    id: str
    unkept: dict[str, Unkept]  # by name


class Store(Protocol):
    project: Path
    covers_commands: bool  # False: what Bash changes is not in the snapshots

    def snapshot(self, touched: Sequence[Path], everything: bool) -> Snapshot:
        """The touched files as they are now, on top of the last snapshot; with `everything`, the whole project."""

    def standing(self) -> str | None:
        """The last snapshot while the project is known not to have changed since (but for the touched files
        snapshots took in); None when it may have."""

    def look_again(self) -> None:
        """The next whole snapshot looks at every file, whatever was seen to change."""

    def warm(self) -> None:
        """Start on the first snapshot in the background, if that is slow."""

    def began(self) -> float | None:
        """When the store was created (None: it does not exist)."""

    def changed(self, a: str, b: str) -> list[str]: ...
    def numstat(self, a: str, b: str) -> list[FileChange]: ...
    def contents(self, snapshot: str, paths: Iterable[str]) -> dict[str, str | None]: ...
    def data(self, content: str) -> bytes:
        """The bytes a content id (from `contents`) names."""

    def restore(self, snapshot: str, paths: Sequence[str]) -> None: ...
    def lost(self, names: list[str]) -> dict[str, str]:
        """Of these files and folders (the project's), what the last snapshot does not hold, so that /undo could not
        give it back were a command to delete it, and why (a Said): an ignored folder as `name/`."""

    def existing(self, ids: Iterable[str]) -> set[str]: ...
    def prune(self, keep: set[str]) -> None: ...


def name_of(project: Path, path: Path) -> str | None:
    """The path as the store names it, as written: a symbolic link on the way is an entry of its own (a tool's
    path has its links followed before, where the write lands); None for the project itself and its .narnat
    folder."""
    full = Path(os.path.normpath(os.path.abspath(path)))
    for root in (os.path.abspath(project), os.path.realpath(project)):
        if full.is_relative_to(root):
            rel = full.relative_to(root).as_posix()
            return None if rel == "." or rel.split("/", 1)[0] == ".narnat" else rel
    return full.as_posix()


def beyond_link(project: Path, name: str) -> bool:
    """Whether one of the folders on the way to a project's file is now a symbolic link: then no file of that name
    exists in the project, and what the link leads to is not it."""
    folders = name.split("/")[:-1]
    return not name.startswith("/") and any(
        _is_link(project / "/".join(folders[:n])) for n in range(1, len(folders) + 1)
    )


def _is_link(path: Path) -> bool:
    """A folder that cannot be looked at (a name longer than the disk allows) is no link: the file under it is then
    said to be unreadable, as any file is, instead of failing the whole snapshot."""
    try:
        return stat.S_ISLNK(path.lstat().st_mode)
    except OSError:
        return False


def unkept(path: Path) -> Unkept | None:
    """Why a file cannot be kept in a snapshot; None when it can (a file under the size cap, or nothing yet)."""
    try:
        st = path.lstat()
    except FileNotFoundError:
        return None
    except OSError as e:
        return unreadable(e.strerror or str(e))
    state = f"{st.st_mode:o} {st.st_size} {st.st_mtime_ns}"
    if stat.S_ISREG(st.st_mode) and st.st_size <= CAP and (error := _unreadable(path)):
        return unreadable(error, state)
    if stat.S_ISLNK(st.st_mode) or (stat.S_ISREG(st.st_mode) and st.st_size <= CAP):
        return None
    if stat.S_ISREG(st.st_mode):
        over = _("{size:,.0f} MB, over the {cap} MB a checkpoint keeps of a file")
        return Unkept(over.format(size=st.st_size / 2**20, cap=CAP // 2**20), state)
    return Unkept(_("not a regular file"), state)


def unreadable(error: str, state: str = "") -> Unkept:
    """A file no snapshot can keep because it cannot be read (a command made it mode 000, another user's file)."""
    return Unkept(_("cannot be read: {error}").format(error=error), state)


def _unreadable(path: Path) -> str | None:
    """Why this regular file cannot be opened for reading (None: it can): the store would fail on it, or keep what it
    held before as if nothing had changed."""
    try:
        os.close(open_now(path))  # never waits: a FIFO put there meanwhile
    except OSError as e:
        return e.strerror or str(e)
    return None


def ignored_folder(path: Path) -> Unkept | None:
    """A folder .gitignore names, whose files no snapshot keeps: its entries counted, to tell a command that deleted
    or added some (npm ci, npm install) from one that left it as it was."""
    try:
        entries = sum(1 for _ in os.scandir(path))
    except OSError:
        return None
    return Unkept(_("a folder .gitignore names, whose files checkpoints do not keep"), f"folder {entries}")


def lost_entries(before: Unkept | None, after: Unkept | None) -> bool:
    """Whether a folder's entries went, from one snapshot to the next (the folder deleted, emptied or thinned)."""
    return _entries(after) < _entries(before)


def _entries(folder: Unkept | None) -> int:
    return int(folder.state.split()[1]) if folder and folder.state.startswith("folder ") else 0


def not_kept(path: Path) -> Said:
    """Why a file that exists is not in a snapshot that looked at it, as a question says it."""
    if path.is_file() and path.stat().st_size > CAP:
        return Said(N_("over the {cap} MB a checkpoint keeps of a file"), cap=str(CAP // 2**20))
    return Said(N_("not a regular file"))


def make_private(root: Path) -> None:
    """The store's folder, for the user alone whatever the umask, and out of the project's own git status."""
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    root.chmod(0o700)  # a store made by an earlier version may be readable by all
    if not (root / ".gitignore").exists():
        write_atomic(root / ".gitignore", b"*\n", 0o600)


def remove_file(project: Path, rel: str) -> None:
    """Delete a file the snapshot does not have, and the project's folders it leaves empty (as git does)."""
    path = project / rel
    if beyond_link(project, rel):  # the file is gone already: what the link leads to is someone else's
        return
    if path.is_symlink() or path.is_file():
        path.unlink()
    if rel.startswith("/"):  # outside the project: its folders are not ours to remove
        return
    parent = path.parent
    while parent != project and parent.is_dir() and not any(parent.iterdir()):
        parent.rmdir()
        parent = parent.parent


class CopyStore:
    """Without git: each snapshot is a manifest of the touched files only, their bytes kept once by hash."""

    covers_commands = False

    def __init__(self, project: Path, root: Path):
        self.project, self.root, self.blobs, self.manifests = project, root, root / "blobs", root / "snapshots"

    def snapshot(self, touched: Sequence[Path], everything: bool) -> Snapshot:
        kept, skipped = {}, {}
        try:
            make_private(self.root)
            for path in touched:
                if (name := name_of(self.project, path)) is None:
                    continue
                if why := unkept(path):
                    skipped[name] = why
                else:
                    kept[name] = self._keep(path)
            data = json.dumps(kept, sort_keys=True).encode()
            snapshot = hashlib.sha256(data).hexdigest()[:40]
            if not (self.manifests / f"{snapshot}.json").exists():
                write_atomic(self.manifests / f"{snapshot}.json", data, 0o600)
        except OSError as e:
            unwritable = _("the checkpoint store {store} cannot be written ({error}).")
            raise CheckpointError(unwritable.format(store=self.root, error=e.strerror)) from None
        return Snapshot(snapshot, skipped)

    def _keep(self, path: Path) -> str | None:
        if not path.exists():
            return None
        data = path.read_bytes()
        sha = hashlib.sha256(data).hexdigest()
        if not (self.blobs / sha).exists():
            write_atomic(self.blobs / sha, data, 0o600)
        return f"{path.stat().st_mode & 0o777:o} {sha}"

    def _manifest(self, snapshot: str) -> dict[str, str | None]:
        try:
            return json.loads((self.manifests / f"{snapshot}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            missing = _("checkpoint {snapshot} is missing from {folder}.")
            raise CheckpointError(missing.format(snapshot=snapshot[:12], folder=self.manifests)) from None

    def standing(self) -> None:
        """Nothing watches the project: a snapshot holds only the touched files anyway."""

    def look_again(self) -> None:
        """Nothing is looked at but the touched files."""

    def warm(self) -> None:
        """Nothing to do ahead: a snapshot holds only the touched files."""

    def began(self) -> float | None:
        try:
            return self.root.stat().st_mtime
        except OSError:
            return None

    def changed(self, a: str, b: str) -> list[str]:
        before, after = self._manifest(a), self._manifest(b)
        return sorted(p for p in before.keys() & after.keys() if before[p] != after[p])

    def numstat(self, a: str, b: str) -> list[FileChange]:
        before, after = self._manifest(a), self._manifest(b)
        return [self._count(p, before[p], after[p]) for p in self.changed(a, b)]

    def _count(self, path: str, old: str | None, new: str | None) -> FileChange:
        texts = [self._bytes(c) for c in (old, new)]
        if any(b"\0" in t for t in texts):
            return FileChange(path, None, None)
        old_lines, new_lines = (t.decode("utf-8", "replace").splitlines() for t in texts)
        added = removed = 0
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_opcodes():
            if tag != "equal":
                removed, added = removed + i2 - i1, added + j2 - j1
        return FileChange(path, added, removed)

    def _bytes(self, content: str | None) -> bytes:
        return b"" if content is None else (self.blobs / content.split()[1]).read_bytes()

    def data(self, content: str) -> bytes:
        return self._bytes(content)

    def contents(self, snapshot: str, paths: Iterable[str]) -> dict[str, str | None]:
        manifest = self._manifest(snapshot)
        return {p: manifest.get(p) for p in paths}

    def restore(self, snapshot: str, paths: Sequence[str]) -> None:
        manifest = self._manifest(snapshot)
        for rel in paths:
            content = manifest.get(rel)
            if content is None:
                remove_file(self.project, rel)
            else:
                write_atomic(self.project / rel, self._bytes(content), int(content.split()[0], 8))

    def lost(self, names: list[str]) -> dict[str, str]:
        return {n: Said(N_("without git, checkpoints keep only what Write and Edit change")) for n in names}

    def existing(self, ids: Iterable[str]) -> set[str]:
        return {i for i in ids if (self.manifests / f"{i}.json").exists()}

    def prune(self, keep: set[str]) -> None:
        old = time.time() - AGE_DAYS * 86400
        used = set()
        for path in self.manifests.glob("*.json"):
            if path.stem in keep or path.stat().st_mtime > old:
                used |= {c.split()[1] for c in self._manifest(path.stem).values() if c}
            else:
                path.unlink()
        for blob in self.blobs.glob("*"):
            if blob.name not in used and blob.stat().st_mtime <= old:
                blob.unlink()
