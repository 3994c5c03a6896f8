"""Process trees: a command and whatever it starts, started so that the whole tree can be stopped, and stopped whole.

POSIX: the command leads a session of its own, so its process group is the tree: SIGTERM to the group, then SIGKILL.
Windows: the command starts in a process group of its own (for CTRL_BREAK) inside a Job object that its children
join by themselves and that ends them all when its handle closes, whether Narnat closes it or dies: CTRL_BREAK
first, then the job is terminated.
"""

import contextlib
import functools
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

Spawn = Callable[..., subprocess.Popen]  # subprocess.Popen, or a test's wrapper of it
GRACE = 2.0  # seconds between the polite stop and the forced one
TAG = "NARNAT_JOB"  # the environment variable that marks every process of a background job
CALLS_TAG = "NARNAT_RUN"  # the one that marks every process of a Bash call: what it leaves running ends with Narnat

if sys.platform == "win32":
    from narnat_agent.platform import win32

    _JOBS: dict[int, int] = {}  # a tree's first pid -> its Job object, held until the tree is stopped or Narnat ends

    def start_tree(spawn: Spawn, argv: object, dies_with_narnat: bool = False, **options: object) -> subprocess.Popen:
        """argv started as the root of a tree that stop_tree stops whole; on Windows every tree dies with Narnat.
        It starts suspended and runs once it is in its Job object, so none of its children can start outside."""
        flags = int(options.pop("creationflags", 0))  # type: ignore[call-overload]
        job = win32.killing_job()
        try:
            process = spawn(argv, creationflags=flags | subprocess.CREATE_NEW_PROCESS_GROUP | win32.CREATE_SUSPENDED,
                            **options)  # fmt: skip
            try:
                win32.adopt_suspended(job, process.pid)
            except OSError:
                process.wait()  # adopt_suspended ended it
                raise
        except BaseException:
            win32.close(job)
            raise
        _JOBS[process.pid] = job
        return process

    def ask_to_stop(process: subprocess.Popen) -> bool:
        """CTRL_BREAK to the tree's process group; False when nothing of the tree is left."""
        job = _JOBS.get(process.pid)
        if job is None or not win32.active_processes(job):
            return False
        # no console shared with the tree: the forced stop follows (CPython 3.11 reports that failure as a
        # SystemError wrapping the OSError)
        with contextlib.suppress(OSError, SystemError):
            os.kill(process.pid, signal.CTRL_BREAK_EVENT)
        return True

    def kill_tree(process: subprocess.Popen) -> bool:
        """Every process of the tree ended; False when nothing of it was left."""
        job = _JOBS.pop(process.pid, None)
        if job is None:
            return False
        try:
            left = win32.active_processes(job)
            win32.terminate_job(job)
        finally:
            win32.close(job)
        return bool(left)

    def alive(pid: int) -> bool:
        return win32.alive(pid)

    def detached(umask: int, hold: tuple[int, ...]) -> dict[str, Any]:
        """Popen's options for a helper the console's Ctrl-C must not reach. Windows has no umask and passes no
        descriptors by number: the `hold` locks stay with Narnat alone."""
        return {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}

    def kill_tagged(tag: str) -> int:
        """Nothing of an earlier Narnat's background jobs is left on Windows: their Job object ended them."""
        return 0

    NAMESPACES = False  # commands cannot run in namespaces of their own

    def seal() -> bool:
        """No way to close a process to the user's other processes here."""
        return False

    def registered_git_folders() -> list[str]:
        """Git for Windows' install folders as its installer recorded them (for this user, then for the machine)."""
        import winreg

        found: list[str] = []
        for hive in (winreg.HKEY_CURRENT_USER, winreg.HKEY_LOCAL_MACHINE):
            try:
                with winreg.OpenKey(hive, r"SOFTWARE\GitForWindows") as key:
                    found.append(str(winreg.QueryValueEx(key, "InstallPath")[0]))
            except OSError:
                continue
        return found

else:

    def start_tree(spawn: Spawn, argv: object, dies_with_narnat: bool = False, **options: object) -> subprocess.Popen:
        """argv started as the leader of a session of its own, whose process group stop_tree stops whole; with
        dies_with_narnat, Linux kills the leader when Narnat dies, however it dies (SIGKILL included)."""
        if dies_with_narnat and (prctl := _prctl()) is not None:
            # run in the child before exec: nothing there may load a library or take a lock, which another thread
            # may have held at the fork; the signal comes when the thread that started it (the main one) ends
            options["preexec_fn"] = functools.partial(prctl, _PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        return spawn(argv, start_new_session=True, **options)

    def ask_to_stop(process: subprocess.Popen) -> bool:
        """SIGTERM to the tree's process group; False when the group is gone."""
        return _signal_group(process.pid, signal.SIGTERM)

    def kill_tree(process: subprocess.Popen) -> bool:
        """SIGKILL to the tree's process group; False when the group was gone."""
        return _signal_group(process.pid, signal.SIGKILL)

    def _signal_group(pgid: int, sig: signal.Signals) -> bool:
        try:
            os.killpg(pgid, sig)
        except (ProcessLookupError, PermissionError):
            return False
        return True

    def alive(pid: int) -> bool:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:  # someone else's process: alive
            pass
        return True

    def detached(umask: int, hold: tuple[int, ...]) -> dict[str, Any]:
        """Popen's options for a helper the terminal's Ctrl-C must not reach (a session of its own), with this
        umask, keeping the `hold` descriptors open (and their locks held) until it ends."""
        return {"start_new_session": True, "umask": umask, "pass_fds": hold}

    def kill_tagged(tag: str) -> int:
        """Every process left of a background job (one that left the job's process group with setsid too) or of
        the Bash calls of a Narnat, found by the tag in its environment; how many there were. Linux shows
        environments in /proc; elsewhere none are found."""
        wanted = {f"{name}={tag}".encode() for name in (TAG, CALLS_TAG)}
        found = 0
        for entry in _processes():
            with contextlib.suppress(OSError):  # ended meanwhile, or another user's
                if wanted.intersection((entry / "environ").read_bytes().split(b"\0")):
                    os.kill(int(entry.name), signal.SIGKILL)
                    found += 1
        return found

    def _processes() -> list[Path]:
        proc = Path("/proc")
        if not (proc / "self" / "environ").exists():
            return []
        return [entry for entry in proc.iterdir() if entry.name.isdigit() and int(entry.name) != os.getpid()]

    _PR_SET_PDEATHSIG, _PR_SET_DUMPABLE = 1, 4
    NAMESPACES = sys.platform.startswith("linux")  # user and mount namespaces a command can run in (unshare)

    def seal() -> bool:
        """This process's /proc entries and memory closed to the user's other processes (as ssh-agent does);
        whether it could. Linux only; root keeps its access."""
        prctl = _prctl()
        return prctl is not None and prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0) == 0

    def registered_git_folders() -> list[str]:
        """No registry here: Git for Windows is Windows'."""
        return []

    @functools.cache
    def _prctl() -> Callable[..., int] | None:
        if not sys.platform.startswith("linux"):
            return None
        import ctypes

        return ctypes.CDLL(None).prctl


def stop_tree(process: subprocess.Popen, settled: Callable[[float], object], grace: float = GRACE,
              last: float = GRACE) -> None:  # fmt: skip
    """The tree asked to stop and given `grace` seconds (settled(seconds) waits for whatever says it is over: the
    process, its output), then killed and given `last` seconds; nothing is waited for once the tree is gone."""
    for stop, wait in ((ask_to_stop, grace), (kill_tree, last)):
        if not stop(process):
            return
        settled(wait)
