"""The checkpoint store: a git directory of Narnat's own, under .narnat/checkpoints/, whose work tree is the project.

A snapshot of everything is `add --all`, the files .gitignore names one by one (not the folders it names:
node_modules/ and .venv/ stay out), then `write-tree`, so files unchanged since the last one cost a stat each.
A snapshot of touched files updates only those. Nested repositories are kept as their files, never as links
to their commits, so git is never asked to look inside them. Files outside the project are kept under
`.narnat/outside/` in the store's trees, a name no project file can have there.
"""

import contextlib
import os
import re
import shutil
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from narnat_agent.atomic import TMP_PREFIX, write_atomic
from narnat_agent.checkpoints.git import USERS, Git, os_failure
from narnat_agent.checkpoints.index import Index
from narnat_agent.checkpoints.lock import StoreLock
from narnat_agent.checkpoints.store import (
    AGE_DAYS,
    CheckpointError,
    FileChange,
    Snapshot,
    Unkept,
    beyond_link,
    ignored_folder,
    make_private,
    name_of,
    not_kept,
    remove_file,
    unkept,
    unreadable,
)
from narnat_agent.checkpoints.watching import Watcher
from narnat_agent.i18n import N_, Said, _
from narnat_agent.logger import get_logger
from narnat_agent.processes import start_thread

OURS = ".narnat/"  # Narnat's state in the project: never a project file
EXCLUDE = f"/{OURS}\n.narnat-tmp-*\n"  # our state, and our atomic writes caught half-way
ATTRIBUTES = "* -text -eol -filter -ident -working-tree-encoding\n"  # overrides the project's .gitattributes
OUTSIDE = ".narnat/outside"
# add --all must not drop the outside files, which it cannot see; a pattern, as git refuses a literal path that
# starts in an ignored folder
PROJECT = ["--", ".", ":(exclude,top).narna[t]/outside/*"]
KEPT = "refs/narnat/kept"
IGNORED = "narnat-ignored"  # the folders the last whole listing named whole: where the next run starts watching
PACK_AT = 1000  # loose objects
# git names the nested repositories it meets: a link to the commit of one, no link for one without a commit
EMBEDDED = re.compile(r"^warning: adding embedded git repository: (.+)$", re.MULTILINE)
UNBORN = re.compile(r"^error: '(.+)/' does not have a commit checked out$", re.MULTILINE)
# with add.ignoreErrors, git keeps the others, names each file it could not read, and still exits 1
UNREADABLE = re.compile(r"^error: (?:open\((.+)\): (.+)|unable to index file (.+))$")
log = get_logger("checkpoints.store")
FIRST_LIMIT = 2**30  # bytes the first snapshot may copy: past it the project is likely a home folder or a data store


class GitStore:
    covers_commands = True

    def __init__(self, project: Path, git_dir: Path, say: Callable[[str], None]):
        self.project, self.git_dir, self.say = project, git_dir, say
        self.git = Git(project, git_dir)
        self.lock = StoreLock(git_dir.parent / "lock", git_dir, say)
        self.index = Index(git_dir / "index")
        self.watcher = Watcher(project)
        self.last: str | None = None  # the last snapshot: it stands as long as the watcher sees no other change
        self.ignored: set[str] = set()  # the folders the last whole snapshot left out whole
        self.kept: dict[str, Unkept] | None = None  # what the last whole snapshot could not keep (None: it failed)
        self.recheck = False  # the next whole snapshot looks again at every file the store holds
        self.unread: dict[str, str] = {}  # the files the last `add --all` could not read, and why

    def _ready(self) -> bool:
        """Create the store, under the lock, so runs started together agree on one; whether it was created now."""
        try:
            make_private(self.git_dir.parent)
            if (self.git_dir / "HEAD").exists():
                return False
            self.git("init", "--quiet", "--template=")  # no sample hooks
            (self.git_dir / "info").mkdir(mode=0o700, exist_ok=True)
            write_atomic(self.git_dir / "info" / "exclude", EXCLUDE.encode(), 0o600)
            write_atomic(self.git_dir / "info" / "attributes", ATTRIBUTES.encode(), 0o600)
        except OSError as e:  # a full or read-only disk: the store is off, the turn goes on
            raise CheckpointError(os_failure(e, self.git_dir)) from None
        self._refuse_too_large()
        return True

    def _take(
        self, touched: Sequence[Path], everything: bool, changed: set[str] | None
    ) -> tuple[str, dict[str, Unkept]]:
        fresh = self._ready()
        if not self.index.sound(fresh):  # a lost index is rebuilt from the whole project
            everything, changed = True, None
        skipped: dict[str, Unkept] = {}
        if everything:
            # only the files changed since the last whole snapshot, on top of it (the index holds the files as it
            # took them, or as other runs took them since, later), when the names are known
            partial = self._add_changed(changed) if changed is not None and self.kept is not None else None
            skipped = self._add_everything() if partial is None else partial
            self.kept, self.recheck = dict(skipped), False
        skipped |= self._add_touched(touched)
        tree = self.git("write-tree").decode().strip()
        self.index.written()
        return tree, skipped

    def _set_aside(self, error: CheckpointError) -> None:
        """A store git no longer takes for a repository: kept aside for whoever wants to look, and a new one begun."""
        if unreadable := _unreadable_folder(self.git_dir):  # a permission problem, not damage: its history stays
            denied = _("the checkpoint store cannot be read: {folder} is not readable by you (Permission denied); "
                       "give it back to your user (chmod -R u+rwX {store}).")  # fmt: skip
            raise CheckpointError(denied.format(folder=unreadable, store=self.git_dir))
        aside = self.git_dir.with_name(f"{self.git_dir.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            self.git_dir.rename(aside)
        except OSError as e:
            raise CheckpointError(os_failure(e, self.git_dir)) from None
        log.warning("damaged checkpoint store set aside as %s: %s", aside, error)
        damaged = _(
            "The checkpoint store was damaged and is set aside as {aside}; a new one is begun, so the files "
            "of the turns before this one can no longer be restored."
        )
        self.say(damaged.format(aside=aside))

    def began(self) -> float | None:
        """When the store was created (None: it does not exist)."""
        try:
            return (self.git_dir / "info" / "exclude").stat().st_mtime
        except OSError:
            return None

    def _refuse_too_large(self) -> None:
        """The first snapshot copies every file .gitignore leaves in: refuse when that is more than FIRST_LIMIT."""
        out = self.git("ls-files", "-z", "--others", "--exclude-standard").decode(errors="surrogateescape")
        names = [name for name in out.split("\0") if name]
        size = sum(p.stat().st_size for name in names if (p := self.project / name).is_file() and not p.is_symlink())
        if size > FIRST_LIMIT:
            shutil.rmtree(self.git_dir)
            large = _(
                "the project holds {size:.1f} GB in {files:,} files that .gitignore does not leave out, more "
                "than the {limit} GB a first checkpoint would copy; list what need not be kept in a .gitignore."
            )
            raise CheckpointError(large.format(size=size / 2**30, files=len(names), limit=FIRST_LIMIT // 2**30))

    def snapshot(self, touched: Sequence[Path], everything: bool) -> Snapshot:
        with self.lock.held():
            self.last = None
            changed = None
            if everything:
                if (before := self._ignored_before()) is not None:
                    self.watcher.begin(before)
                changed = self.watcher.mark()
            else:
                self.watcher.cover(n for path in touched if (n := name_of(self.project, path)) is not None)
            try:
                tree, skipped = self._take(touched, everything, changed)
            except CheckpointError as e:
                self.kept = None
                if not (self.git_dir / "HEAD").exists() or self.git.run("rev-parse", "--git-dir")[0] == 0:
                    raise
                self._set_aside(e)
                tree, skipped = self._take(touched, everything, None)
            if everything:
                self.watcher.follow(self.ignored)
            self.last = tree
        # git leaves an existing tree as it was: mark it as taken now, or a prune could count it as old
        with contextlib.suppress(OSError):
            os.utime(self.git_dir / "objects" / tree[:2] / tree[2:])
        return Snapshot(tree, skipped)

    def look_again(self) -> None:
        """Changes no watcher sees (through a hard link from outside the project, or a memory map) change files
        the store holds already: the next whole snapshot stats them all again (git's `add -u`, less than a
        `git status`: no walk for new files, which the watcher does see)."""
        self.recheck = True

    def standing(self) -> str | None:
        """The last snapshot, while nothing but the files snapshots of touched files took in changed since the last
        whole one began (None: something may have)."""
        last = self.last
        return last if last is not None and not self.recheck and self.watcher.still() else None

    def _add_everything(self) -> dict[str, Unkept]:
        """Stage the whole project; the ignored files too big to keep, to tell whether a command changed them."""
        # side by side, as add never stages an ignored file: the two walks of the tree take the time of one
        listing = self.git.start("ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory")
        try:
            nested = self._add_all(*PROJECT)
        finally:
            out = self.git.output(listing)
        for folder in nested:
            self._stage_folder(folder)
        listed = [n for n in out.decode(errors="surrogateescape").split("\0") if n]
        self.ignored = _whole_folders(listed)
        if self.ignored != self._ignored_before():
            write_atomic(self.git_dir / IGNORED, _listed(sorted(self.ignored)), 0o600)
        names = [n for n in listed if not n.endswith("/") and not n.rsplit("/", 1)[-1].startswith(TMP_PREFIX)]
        skipped = {n: why for n in names if (why := unkept(self.project / n))}
        # git keeps what a file it could not read held before: named, so a command that changed it is not taken
        # for one that left it alone (an /undo saying "no file needed restoring")
        skipped |= {n: unkept(self.project / n) or unreadable(why) for n, why in self.unread.items()}
        self._update([n for n in names if n not in skipped])
        folders = [n for n in listed if n.endswith("/") and n != OURS]  # what Narnat writes there is no loss
        return skipped | {n: seen for n in folders if (seen := ignored_folder(self.project / n))}

    def _ignored_before(self) -> set[str] | None:
        """The folders the last whole listing, of this run or an earlier one, named whole (None: no listing yet)."""
        try:
            data = (self.git_dir / IGNORED).read_bytes()
        except OSError:
            return None
        return {n for n in data.decode(errors="surrogateescape").split("\0") if n}

    def _add_changed(self, names: set[str]) -> dict[str, Unkept] | None:
        """Stage only the files changed since the last whole snapshot, which the index holds as it took it; what it
        could not keep. None when the names alone cannot say what a whole snapshot would keep: one is a folder now,
        or a file too large to keep or not a regular one (kept or not as .gitignore says), or was one."""
        assert self.kept is not None
        folders = {name for name in names if name.endswith("/")}  # ignored folders whose entries came or went
        names = names - folders
        if any(name in self.kept or unkept(self.project / name) for name in names):  # a folder is no regular file
            return None
        if self.recheck:
            if any(_unkept(self.project, name) != why for name, why in self.kept.items()):
                return None
            self.git("add", "--update", *PROJECT)
        self._update(sorted(names))
        kept = dict(self.kept)
        for folder in folders:  # counted again: a command that emptied or filled one is told so
            kept.pop(folder, None)
            if seen := ignored_folder(self.project / folder):
                kept[folder] = seen
        return kept

    def _add_all(self, *pathspec: str, env: dict[str, str] | None = None) -> list[str]:
        """`add --all`; the nested repositories it met, which it links to (or leaves out) instead of keeping."""
        code, _, err = self.git.run("add", "--all", *pathspec, env=env)
        text = err.decode(errors="surrogateescape")
        nested = EMBEDDED.findall(text) + UNBORN.findall(text)
        errors = [line for line in text.splitlines() if line.startswith(("error:", "fatal:"))]
        if code != 0 and not nested and not (errors and all(UNREADABLE.match(line) for line in errors)):
            raise CheckpointError(self.git.failure(text, code))
        self.unread = {}
        for line in errors:
            if found := UNREADABLE.match(line):
                opened, why, indexed = found.groups()  # git says both of one file: open(…) first, with why
                self.unread.setdefault(_unquoted(opened or indexed), why or "")
        return nested

    def _add_touched(self, touched: Sequence[Path]) -> dict[str, Unkept]:
        """Stage the touched files as they are now (ignored or not, in the project or outside it)."""
        inside, outside, gone, skipped = [], [], [], {}
        for path in touched:
            if (name := name_of(self.project, path)) is None:
                continue
            if beyond_link(self.project, name):  # a folder replaced by a link: its files are gone from the project
                gone.append(name)
            elif why := unkept(path):
                skipped[name] = why
            elif name.startswith("/"):
                outside.append(name)
            else:
                inside.append(name)
        self._update(inside)
        if gone:
            self.git("update-index", "--force-remove", "-z", "--stdin", stdin=_listed(gone))
        self._update_outside(outside)
        return skipped

    def _update(self, names: list[str]) -> None:
        if names:
            self.git("update-index", "--add", "--remove", "--replace", "-z", "--stdin", stdin=_listed(names))

    def _update_outside(self, names: list[str]) -> None:
        if not names:
            return
        present = [n for n in names if os.path.lexists(n)]
        shas = self.git("hash-object", "-w", "--no-filters", "--stdin-paths",
                        stdin="".join(f"{n}\n" for n in present).encode(errors="surrogateescape")).split()  # fmt: skip
        found = dict(zip(present, (s.decode() for s in shas), strict=True))
        records = [
            f"{_mode(n)} {found[n]}\t{OUTSIDE}{n}" if n in found else f"0 {'0' * 40}\t{OUTSIDE}{n}" for n in names
        ]
        self.git("update-index", "-z", "--index-info", stdin=_listed(records))

    def _stage_folder(self, folder: str) -> None:
        """Put a nested repository's files in the index as ordinary files: from then on git walks into it."""
        index = self.git_dir / f"index-{folder.count('/')}"  # one per depth: a repository may nest in a nested one
        env = {"GIT_WORK_TREE": str(self.project / folder), "GIT_INDEX_FILE": str(index)}
        try:
            self.git("update-index", "--force-remove", "--", folder)
            deeper = self._add_all(env=env)
            nested = self.git("write-tree", env=env).decode().strip()
        finally:
            index.unlink(missing_ok=True)
        self.git("read-tree", f"--prefix={folder}/", nested)
        for inner in deeper:
            self._stage_folder(f"{folder}/{inner}")

    def warm(self) -> None:
        """Take a first snapshot in the background: the first one hashes every file, and a large tree takes seconds."""

        def first() -> None:
            with contextlib.suppress(CheckpointError, OSError):  # the next snapshot meets the error and says it
                self.snapshot([], everything=True)
                self.pack()

        start_thread(first)

    def changed(self, a: str, b: str) -> list[str]:
        out = self.git("diff-tree", "-r", "-z", "--no-renames", "--name-only", a, b, env=self._no_index())
        return [_name(p) for p in out.decode(errors="surrogateescape").split("\0") if p]

    def numstat(self, a: str, b: str) -> list[FileChange]:
        raw = self.git("diff-tree", "-r", "-z", "--no-renames", "--numstat", a, b, env=self._no_index())
        out = raw.decode(errors="surrogateescape")
        changes = []
        for record in out.split("\0"):
            if record:
                added, removed, path = record.split("\t", 2)
                counts = (None, None) if added == "-" else (int(added), int(removed))  # binary: no lines
                changes.append(FileChange(_name(path), *counts))
        return changes

    def _no_index(self) -> dict[str, str]:
        """diff-tree compares two trees: it reads the index only to fail on a damaged one, so it is given none."""
        return {"GIT_INDEX_FILE": str(self.git_dir / "no-index")}

    def contents(self, snapshot: str, paths: Iterable[str]) -> dict[str, str | None]:
        listing = self._listing(snapshot)
        return {p: listing.get(p) for p in paths}

    def data(self, content: str) -> bytes:
        return self.git("cat-file", "blob", content.split()[1])

    def _listing(self, snapshot: str) -> dict[str, str]:
        """Every file of a snapshot: name -> 'mode sha'."""
        out = self.git("ls-tree", "-r", "-z", "--full-tree", snapshot).decode(errors="surrogateescape")
        listing = {}
        for record in out.split("\0"):
            if record:
                meta, path = record.split("\t", 1)
                mode, _, sha = meta.split(" ")
                listing[_name(path)] = f"{mode} {sha}"
        return listing

    def restore(self, snapshot: str, paths: Sequence[str]) -> None:
        listing = self._listing(snapshot)
        for name in paths:
            if name not in listing:
                remove_file(self.project, name)
            elif name.startswith("/"):
                mode, sha = listing[name].split()
                write_atomic(Path(name), self.git("cat-file", "blob", sha), int(mode, 8) & 0o777)
        present = [p for p in paths if p in listing and not p.startswith("/")]
        if present:
            names = "\0".join(present).encode(errors="surrogateescape")
            with self.lock.held():
                self.git("--literal-pathspecs", "checkout", snapshot, "--pathspec-from-file=-", "--pathspec-file-nul",
                         stdin=names, umask=USERS)  # fmt: skip

    def lost(self, names: list[str]) -> dict[str, str]:
        # the ignored files and folders the index lacks: add --all left them out, and the listing beside it kept
        # only the ignored files, and those only up to the size cap
        found = self.git("ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory", "--", *names,
                         env={"GIT_LITERAL_PATHSPECS": "1"})  # fmt: skip
        listed = [n for n in found.decode(errors="surrogateescape").split("\0") if n]
        return {n: Said(N_("a folder .gitignore names")) if n.endswith("/") else not_kept(self.project / n)
                for n in listed}  # fmt: skip

    def existing(self, ids: Iterable[str]) -> set[str]:
        ids = list(ids)
        if not ids or not (self.git_dir / "HEAD").exists():
            return set()
        out = self.git("cat-file", "--batch-check", stdin="".join(f"{i}\n" for i in ids).encode())
        return {fields[0] for fields in map(str.split, out.decode().splitlines()) if fields[1] == "tree"}

    def prune(self, keep: set[str]) -> None:
        """Keep the named snapshots (one ref to a tree holding them all) and the young ones; delete the rest."""
        with self.lock.held():
            self._ready()
            kept = sorted(self.existing(keep))
            listing = "".join(f"040000 tree {i}\t{i}\0" for i in kept).encode()
            holder = self.git("mktree", "-z", stdin=listing).decode().strip()
            self.git("update-ref", KEPT, holder)
            self.git("prune", f"--expire={AGE_DAYS}.days.ago")
        self.pack()

    def pack(self) -> None:
        """Pack the loose objects once there are many: on a large project the store is mostly the loose copies of
        its files, each taking a disk block or more. What no snapshot kept still goes after AGE_DAYS (git keeps
        each one's age in a "cruft" pack). Safe beside a snapshot, so without the lock."""
        with self.lock.packing() as fd:
            count = self.git("count-objects").split(maxsplit=1)[0]
            if fd is not None and int(count) >= PACK_AT:  # git holds the lock too: a pack outlives a narnat quit
                # no delta search, quick compression: most of the saving in a fraction of the time
                self.git("-c", "pack.compression=1", "repack", "-d", "-q", "--window=0", "--cruft",
                         f"--cruft-expiration={AGE_DAYS}.days.ago", "--no-write-bitmap-index", hold=(fd,))  # fmt: skip


def _unkept(project: Path, name: str) -> Unkept | None:
    """Why a whole snapshot would not keep this name now: an ignored folder (`node_modules/`) by its entries."""
    return ignored_folder(project / name) if name.endswith("/") else unkept(project / name)


def _whole_folders(listed: list[str]) -> set[str]:
    """The folders the ignored listing names whole (`build/`): no snapshot keeps their files. git lists a folder
    that is only untracked (`logs/`) before its ignored files, which the snapshot keeps one by one."""
    above = {name[:cut] for name in listed for cut in range(len(name) - 1) if name[cut] == "/"}
    return {name[:-1] for name in listed if name.endswith("/") and name[:-1] not in above}


def _name(path: str) -> str:
    """A store path as the checkpoints name it: outside files by their absolute path."""
    return path[len(OUTSIDE) :] if path.startswith(f"{OUTSIDE}/") else path


def _listed(names: list[str]) -> bytes:
    """Names (or index records) as git reads them with -z, each ended by a NUL: in any encoding."""
    return "".join(f"{n}\0" for n in names).encode(errors="surrogateescape")


def _mode(name: str) -> str:
    return "100755" if os.stat(name).st_mode & 0o111 else "100644"


def _unquoted(name: str) -> str:
    """A path as git's messages quote it: in single quotes, or C-style in double quotes when it holds special
    characters."""
    if len(name) >= 2 and name[0] == name[-1] == "'":  # unable to index file 'name'
        return name[1:-1]
    if not (len(name) >= 2 and name[0] == name[-1] == '"'):
        return name
    raw = name[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape").encode("latin-1")
    return raw.decode(errors="surrogateescape")


def _unreadable_folder(root: Path) -> Path | None:
    """A folder of the store the user may not list or enter (a store touched by `sudo narnat`), or None."""
    denied: list[str] = []

    def refused(error: OSError) -> None:
        if isinstance(error, PermissionError) and error.filename:
            denied.append(os.fsdecode(error.filename))

    for _walked in os.walk(root, onerror=refused):
        if denied:
            return Path(denied[0])
    return Path(denied[0]) if denied else None
