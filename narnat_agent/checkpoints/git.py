"""git run on the checkpoint store: its own settings and environment, private files, one sentence per failure.

The store never reads or writes the user's git settings or directories: it has its own index and objects, no
hooks, no user or system config (so no signing: it never commits anyway), and it applies no attributes, so a
restore gives back the exact bytes.
"""

import errno
import os
import subprocess
from pathlib import Path
from subprocess import PIPE

from narnat_agent.checkpoints.store import CheckpointError
from narnat_agent.i18n import _
from narnat_agent.platform.processes import detached

SETTINGS = {
    "core.hooksPath": os.devnull,
    "core.autocrlf": "false",
    "core.fsmonitor": "false",
    "core.untrackedCache": "true",
    "core.quotePath": "false",
    "core.sharedRepository": "0600",  # objects readable by the user alone, whatever the umask
    "gc.auto": "0",  # nothing is removed or packed behind the conversation's back; prune() decides
    "add.ignoreErrors": "true",  # an unreadable file must not stop the snapshot of the others
    "advice.addEmbeddedRepo": "false",
    "submodule.recurse": "false",
    "diff.ignoreSubmodules": "all",  # never run git inside a nested repository to ask whether it changed
}
PRIVATE = 0o077  # the umask of every git the store runs: its folders 0700, its files 0600
USERS = -1  # the umask Narnat runs with (subprocess leaves it as it is): a restore's files, as the user made them


class Git:
    """One git directory of Narnat's own whose work tree is the project."""

    def __init__(self, project: Path, git_dir: Path):
        self.project, self.git_dir = project, git_dir
        self.env = {
            "PATH": os.environ.get("PATH", os.defpath),
            "GIT_DIR": str(git_dir),
            "GIT_WORK_TREE": str(project),
            "HOME": str(git_dir),  # no ~/.gitconfig, no credential helpers, no global excludes
            "XDG_CONFIG_HOME": str(git_dir),
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GIT_OPTIONAL_LOCKS": "0",  # no opportunistic index refresh, here or in any repository git looks into
            "GIT_TERMINAL_PROMPT": "0",
            "LC_ALL": "C",
        }
        self.command = ["git", *(a for key, value in SETTINGS.items() for a in ("-c", f"{key}={value}"))]

    def __call__(self, *args: str, stdin: bytes | None = None, env: dict[str, str] | None = None,
                 hold: tuple[int, ...] = (), umask: int = PRIVATE) -> bytes:  # fmt: skip
        """git's output; a failure is a CheckpointError that says what to do about it. git keeps the `hold` file
        descriptors open, and the locks on them held, until it ends, even if Narnat ends first."""
        return self.output(self.start(*args, env=env, hold=hold, umask=umask), stdin)

    def run(
        self, *args: str, stdin: bytes | None = None, env: dict[str, str] | None = None
    ) -> tuple[int, bytes, bytes]:
        return self.finish(self.start(*args, env=env), stdin)

    def start(
        self, *args: str, env: dict[str, str] | None = None, hold: tuple[int, ...] = (), umask: int = PRIVATE
    ) -> subprocess.Popen:
        """git started, to run beside another; with umask USERS, the files it writes in the project are made as
        the user's own tools make them."""
        try:
            # detached, so the terminal's Ctrl-C does not reach git, which would leave its lock behind
            return subprocess.Popen([*self.command, *args], cwd=self.project, env=self.env | (env or {}),
                                    stdin=PIPE, stdout=PIPE, stderr=PIPE, **detached(umask, hold))  # fmt: skip
        except OSError as e:
            raise CheckpointError(_("git could not be started ({error}).").format(error=e.strerror)) from None

    def finish(self, process: subprocess.Popen, stdin: bytes | None = None) -> tuple[int, bytes, bytes]:
        with process:
            try:
                out, err = process.communicate(stdin)
            except KeyboardInterrupt:  # a cancel waits for git to finish and release the store
                process.communicate()
                raise
        return process.returncode, out, err

    def output(self, process: subprocess.Popen, stdin: bytes | None = None) -> bytes:
        code, out, err = self.finish(process, stdin)
        if code != 0:
            raise CheckpointError(self.failure(err.decode(errors="replace"), code))
        return out

    def failure(self, err: str, code: int) -> str:
        """The one sentence a git failure comes to."""
        if "No space left on device" in err or "Disk quota exceeded" in err:
            return no_room(self.git_dir)
        lines = err.strip().splitlines() or [f"exit status {code}"]
        reason = next((line for line in lines if line.startswith(("fatal:", "error:"))), lines[-1])
        return _("the checkpoint store {store} failed ({reason}).").format(store=self.git_dir, reason=reason)


def no_room(where: Path) -> str:
    return _("the disk holding {folder} is full; free some space and checkpoints resume with the next run.").format(
        folder=where
    )


def os_failure(e: OSError, where: Path) -> str:
    """The one sentence a file-system failure of the store comes to."""
    if e.errno in (errno.ENOSPC, errno.EDQUOT):
        return no_room(where)
    return _("the checkpoint store {store} cannot be written ({error}).").format(store=where, error=e.strerror)
