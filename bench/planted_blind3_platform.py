"""Planted defects of the platform seams (processes, files, locks, signals, the console, the watcher), the editor
protocol's server, a run's signals and the background jobs, written by a third writer from the modules alone, as a
tired developer would, without reading their tests: each is `later`."""

from defects import FORMAT_EDGE, INVERTED, STEP_MISSED, WRONG_MOMENT, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND3_PLATFORM: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/platform/processes.py": _later(
        ('wanted = {f"{name}={tag}".encode() for name in (TAG, CALLS_TAG)}',
         'wanted = {f"{name}={tag}".encode() for name in (TAG,)}',
         f"{WRONG_SETTING}: what a Bash call left running (a server started with &) is not found by its tag and "
         "outlives Narnat"),
        ("                    os.kill(int(entry.name), signal.SIGKILL)\n                    found += 1\n",
         "                    os.kill(int(entry.name), signal.SIGKILL)\n                found += 1\n",
         f"{WRONG_ORDER}: every process whose environment could be read is counted as one ended, not only the "
         "tagged ones"),
    ),
    "narnat_agent/platform/files.py": _later(
        ("            yield lambda name: os.stat(name, dir_fd=base)\n",
         "            yield lambda name: os.stat(name)\n",
         f"{WRONG_SETTING}: names are stat'ed in the current folder, not the folder listed"),
        ("base = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)",
         "base = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)",
         f"{FORMAT_EDGE}: a folder reached through a symbolic link cannot be listed"),
    ),
    "narnat_agent/platform/locks.py": _later(
        ("        fcntl.flock(fd, fcntl.LOCK_EX)\n", "        fcntl.flock(fd, fcntl.LOCK_SH)\n",
         f"{WRONG_SETTING}: the lock waited for is shared: two waiters hold it at once"),
        ("        except BlockingIOError:\n            return False\n",
         "        except BlockingIOError:\n            pass\n",
         f"{INVERTED}: a lock another run holds is said to be taken"),
    ),
    "narnat_agent/platform/signals.py": _later(
        ("    HANGUP = signal.SIGHUP\n", "    HANGUP = signal.SIGTERM\n",
         f"{WRONG_SETTING}: a real hangup does not let the dead terminal go; a SIGTERM is taken for one"),
        ("            signal.pthread_sigmask(signal.SIG_SETMASK, previous)",
         "            signal.pthread_sigmask(signal.SIG_UNBLOCK, _TAKEN)",
         f"{WRONG_SETTING}: a helper thread that starts another unblocks the signals for itself, and can take the "
         "Ctrl-C meant for the main thread"),
    ),
    "narnat_agent/platform/console.py": _later(
        ("        if not os.isatty(0):\n            return None\n        saved",
         "        if not os.isatty(1):\n            return None\n        saved",
         f"{WRONG_SETTING}: the terminal is looked for on standard output, not input: piped output leaves a killed "
         "run's terminal raw, and piped input ends the start in termios' error"),
        ("poller.poll(0)", "poller.poll()",
         f"{STEP_MISSED}: looking for a hung-up terminal waits for ever on a live one with nothing typed"),
    ),
    "narnat_agent/platform/watch.py": _later(
        ("if _file_system(os.path.realpath(root), mounts) not in LOCAL:",
         "if _file_system(str(root), mounts) not in LOCAL:",
         f"{STEP_MISSED}: a project reached through a symbolic link is judged by the link's file system, not its own"),
        ('.split(b"\\0", 1)[0]', "",
         f"{FORMAT_EDGE}: a changed entry's name keeps the NUL bytes the kernel pads it with"),
    ),
    "narnat_agent/acp/server.py": _later(
        ("        if opened is self.busy and opened is not None:\n",
         "        if opened is self.busy:\n",
         f"{STEP_MISSED}: with no turn running, loading a saved session is refused as one answering a prompt"),
        ("        opened = self._opened(session_id)\n        if opened is self.busy:\n",
         "        opened = self._opened(session_id)\n        if self.busy is not None:\n",
         f"{WRONG_SETTING}: a session's mode cannot be changed while another session's turn runs"),
        ("self.leaving = self.leaving or signum", "self.leaving = signum",
         f"{WRONG_MOMENT}: the exit code is decided by the last signal, not the first (a SIGHUP after a SIGTERM: 129)"),
    ),
    "narnat_agent/run/signals.py": _later(
        ("devnull = os.open(os.devnull, os.O_RDWR)", "devnull = os.open(os.devnull, os.O_WRONLY)",
         f"{WRONG_SETTING}: a hung-up standard input becomes a descriptor that cannot be read, and reading fails"),
        ("            _mute_hung_up_terminal()\n        if agent.leaving:\n            return\n",
         "            _mute_hung_up_terminal()\n",
         f"{STEP_MISSED}: a second signal (a closed terminal sends several) interrupts the exit save"),
    ),
    "narnat_agent/processes/jobs.py": _later(
        ("if int(owner) != os.getpid() and alive(int(owner)):", "if alive(int(owner)):",
         f"{STEP_MISSED}: a killed Narnat's jobs are left running when this run got its pid (a container's)"),
        ('{text[-limit:]}"', '{text[:limit]}"',
         f"{WRONG_SETTING}: a job's long new output is given by its first characters, not its last"),
        ("if job is not None and job.process.poll() is not None:", "if job is not None:",
         f"{WRONG_MOMENT}: the one wait for an ended job's output is spent while it still runs, and its last output "
         "is missing once it has ended"),
    ),
}  # fmt: skip
