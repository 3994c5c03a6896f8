"""The checkpoint store: a git directory of Narnat's own, under .narnat/checkpoints/, whose work tree is the project.

A snapshot is `add --all` + `write-tree`, so files unchanged since the last one cost a stat each. The store
never reads or writes the user's .git: it has its own index and objects, no hooks, no user or system config (so
no signing: it never commits anyway), and it applies no attributes, so a restore gives back the exact bytes.
"""

import contextlib
import os
import shutil
import subprocess
import threading
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from subprocess import PIPE

from narnat_agent.checkpoints.store import AGE_DAYS, CheckpointError, FileChange, hide_from_git, relative, remove_file

SETTINGS = {
    "core.hooksPath": os.devnull,
    "core.autocrlf": "false",
    "core.fsmonitor": "false",
    "core.untrackedCache": "true",
    "core.quotePath": "false",
    "gc.auto": "0",  # nothing is removed behind the conversation's back; prune() decides
    "add.ignoreErrors": "true",  # an unreadable file must not stop the snapshot of the others
    "advice.addEmbeddedRepo": "false",
}
EXCLUDE = "/.narnat/\n.narnat-tmp-*\n"  # our state, and our atomic writes caught half-way
ATTRIBUTES = "* -text -eol -filter -ident -working-tree-encoding\n"  # overrides the project's .gitattributes
KEPT = "refs/narnat/kept"
LOCK_WAIT = 10.0  # seconds to wait for another narnat's snapshot in the same project before giving up
FIRST_LIMIT = 2**30  # bytes the first snapshot may copy: past it the project is likely a home folder or a data store


class GitStore:
    covers_commands = True

    def __init__(self, project: Path, git_dir: Path):
        self.project, self.git_dir = project, git_dir
        self.lock = threading.Lock()  # one snapshot at a time: git's index lock would fail the second
        self.env = {
            "PATH": os.environ.get("PATH", os.defpath),
            "GIT_DIR": str(git_dir),
            "GIT_WORK_TREE": str(project),
            "HOME": str(git_dir),  # no ~/.gitconfig, no credential helpers, no global excludes
            "XDG_CONFIG_HOME": str(git_dir),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GIT_LITERAL_PATHSPECS": "1",
            "GIT_TERMINAL_PROMPT": "0",
            "LC_ALL": "C",
        }
        self.command = ["git", *(a for key, value in SETTINGS.items() for a in ("-c", f"{key}={value}"))]

    def _git(self, *args: str, stdin: bytes | None = None) -> bytes:
        """Run git on the store; while another narnat in this project holds the store's lock, wait for it."""
        waited = 0.0
        while True:
            code, out, err = self._run([*self.command, *args], stdin)
            if code == 0:
                return out
            if b".lock': File exists" not in err or waited >= LOCK_WAIT:
                lines = err.decode(errors="replace").strip().splitlines() or [f"exit status {code}"]
                reason = next((line for line in lines if line.startswith(("fatal:", "error:"))), lines[-1])
                raise CheckpointError(f"the checkpoint store {self.git_dir} failed ({reason}).")
            time.sleep(0.1)
            waited += 0.1

    def _run(self, command: list[str], stdin: bytes | None) -> tuple[int, bytes, bytes]:
        try:
            # in a session of its own, so the terminal's Ctrl-C does not reach git, which would leave its lock behind
            process = subprocess.Popen(command, cwd=self.project, env=self.env, start_new_session=True,
                                       stdin=PIPE, stdout=PIPE, stderr=PIPE)  # fmt: skip
        except OSError as e:
            raise CheckpointError(f"git could not be started ({e.strerror}).") from None
        with process:
            try:
                out, err = process.communicate(stdin)
            except KeyboardInterrupt:  # a cancel waits for git to finish and release the store
                process.communicate()
                raise
        return process.returncode, out, err

    def _ready(self) -> None:
        if (self.git_dir / "HEAD").exists():
            return
        try:
            hide_from_git(self.git_dir.parent)
            self._git("init", "--quiet", "--template=")  # no sample hooks
            (self.git_dir / "info").mkdir(exist_ok=True)
            (self.git_dir / "info" / "exclude").write_text(EXCLUDE)
            (self.git_dir / "info" / "attributes").write_text(ATTRIBUTES)
        except OSError as e:  # a full or read-only disk: the store is off, the turn goes on
            raise CheckpointError(f"the checkpoint store {self.git_dir} cannot be created ({e.strerror}).") from None
        self._refuse_too_large()

    def _refuse_too_large(self) -> None:
        """The first snapshot copies every file .gitignore leaves in: refuse when that is more than FIRST_LIMIT."""
        out = self._git("ls-files", "-z", "--others", "--exclude-standard").decode(errors="surrogateescape")
        names = [name for name in out.split("\0") if name]
        size = sum(p.stat().st_size for name in names if (p := self.project / name).is_file() and not p.is_symlink())
        if size > FIRST_LIMIT:
            shutil.rmtree(self.git_dir)
            raise CheckpointError(
                f"the project holds {size / 2**30:.1f} GB in {len(names):,} files that .gitignore does not leave out,"
                f" more than the {FIRST_LIMIT // 2**30} GB a first checkpoint would copy; list what need not be kept"
                " in a .gitignore."
            )

    def snapshot(self, touched: Sequence[Path]) -> str:
        with self.lock:
            self._ready()
            self._git("add", "--all")
            forced = [rel for path in touched if (rel := relative(self.project, path)) and path.is_file()]
            if forced:
                paths = "\0".join(forced).encode()
                self._git("add", "--force", "--pathspec-from-file=-", "--pathspec-file-nul", stdin=paths)
            tree = self._git("write-tree").decode().strip()
        # git leaves an existing tree as it was: mark it as taken now, or a prune could count it as old
        with contextlib.suppress(OSError):
            os.utime(self.git_dir / "objects" / tree[:2] / tree[2:])
        return tree

    def warm(self) -> None:
        """Take a first snapshot in the background: the first one hashes every file, and a large tree takes seconds."""

        def first() -> None:
            with contextlib.suppress(CheckpointError, OSError):  # the next snapshot meets the error and says it
                self.snapshot([])

        threading.Thread(target=first, daemon=True).start()

    def changed(self, a: str, b: str) -> list[str]:
        out = self._git("diff-tree", "-r", "-z", "--no-renames", "--name-only", a, b)
        return [p for p in out.decode(errors="surrogateescape").split("\0") if p]

    def numstat(self, a: str, b: str) -> list[FileChange]:
        out = self._git("diff-tree", "-r", "-z", "--no-renames", "--numstat", a, b).decode(errors="surrogateescape")
        changes = []
        for record in out.split("\0"):
            if record:
                added, removed, path = record.split("\t", 2)
                binary = added == "-"
                changes.append(FileChange(path, None if binary else int(added), None if binary else int(removed)))
        return changes

    def contents(self, snapshot: str, paths: Iterable[str]) -> dict[str, str | None]:
        listing = self._listing(snapshot)
        return {p: listing.get(p) for p in paths}

    def _listing(self, snapshot: str) -> dict[str, str]:
        """Every file of a snapshot: path -> 'mode sha'."""
        out = self._git("ls-tree", "-r", "-z", "--full-tree", snapshot).decode(errors="surrogateescape")
        listing = {}
        for record in out.split("\0"):
            if record:
                meta, path = record.split("\t", 1)
                mode, _, sha = meta.split(" ")
                listing[path] = f"{mode} {sha}"
        return listing

    def restore(self, snapshot: str, paths: Sequence[str]) -> None:
        listing = self._listing(snapshot)
        present = [p for p in paths if p in listing]
        for rel in paths:
            if rel not in listing:
                remove_file(self.project, rel)
        if present:
            names = "\0".join(present).encode(errors="surrogateescape")
            with self.lock:
                self._git("checkout", snapshot, "--pathspec-from-file=-", "--pathspec-file-nul", stdin=names)

    def existing(self, ids: Iterable[str]) -> set[str]:
        ids = list(ids)
        if not ids or not (self.git_dir / "HEAD").exists():
            return set()
        out = self._git("cat-file", "--batch-check", stdin="".join(f"{i}\n" for i in ids).encode())
        return {fields[0] for fields in map(str.split, out.decode().splitlines()) if fields[1] == "tree"}

    def prune(self, keep: set[str]) -> None:
        """Keep the named snapshots (one ref to a tree holding them all) and the young ones; delete the rest."""
        self._ready()
        kept = sorted(self.existing(keep))
        listing = "".join(f"040000 tree {i}\t{i}\0" for i in kept).encode()
        holder = self._git("mktree", "-z", stdin=listing).decode().strip()
        self._git("update-ref", KEPT, holder)
        self._git("prune", f"--expire={AGE_DAYS}.days.ago")
