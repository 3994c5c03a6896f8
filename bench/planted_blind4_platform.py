"""Planted defects of the platform seams (processes, files, locks, signals, the console, the watcher), a run's
signals, the background jobs, the held Ctrl-C, the store's lock and `narnat acp`'s entry point, written by a fourth
writer from the modules alone, as a tired developer would, without reading their tests: each is `later`."""

from defects import FORMAT_EDGE, INVERTED, STEP_MISSED, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND4_PLATFORM: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/platform/processes.py": _later(
        ('(entry / "environ").read_bytes().split(b"\\0")', '(entry / "environ").read_bytes().split(b"\\n")',
         f"{FORMAT_EDGE}: a process's environment is read as lines, not split at its NULs: no tagged process is "
         "found, and what a job or a Bash call left running outlives Narnat"),
        ("prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0) == 0", "prctl(_PR_SET_DUMPABLE, 1, 0, 0, 0) == 0",
         f"{WRONG_SETTING}: sealing leaves the process dumpable and says it sealed it: its memory and environment "
         "(the key) stay open to the user's other processes"),
    ),
    "narnat_agent/platform/files.py": _later(
        ("    def set_mode(path: Path | str, mode: int) -> None:\n        os.chmod(path, mode)\n",
         "    def set_mode(path: Path | str, mode: int) -> None:\n        os.chmod(path, mode & 0o777)\n",
         f"{FORMAT_EDGE}: a file's setuid, setgid and sticky bits are dropped each time it is written again"),
        ("yield lambda name: os.stat(name, dir_fd=base)", "yield lambda name: os.stat(name.decode(), dir_fd=base)",
         f"{FORMAT_EDGE}: a file whose name is not UTF-8 ends a newest-first listing with a UnicodeDecodeError"),
    ),
    "narnat_agent/platform/locks.py": _later(
        ("fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)", "fcntl.flock(fd, fcntl.LOCK_EX)",
         f"{WRONG_SETTING}: trying the lock waits for it: a second run hangs on the store without its notice, and a "
         "second pack waits for the first instead of being skipped"),
        ("        fcntl.flock(fd, fcntl.LOCK_EX)\n", "        fcntl.lockf(fd, fcntl.LOCK_EX)\n",
         f"{WRONG_SETTING}: the lock waited for is a record lock, the process's own: two descriptors of one run "
         "hold it at once, and one opened read-only cannot take it"),
    ),
    "narnat_agent/platform/signals.py": _later(
        ("signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)",
         "signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGTERM)",
         f"{WRONG_SETTING}: the main thread is sent a SIGTERM, not a SIGINT: an Esc ends the run instead of "
         "stopping the turn"),
        ("threading.main_thread().ident or 0", "threading.main_thread().native_id or 0",
         f"{WRONG_SETTING}: the main thread is named by its kernel id, not its thread id: the interrupt reaches no "
         "thread, or the process crashes"),
    ),
    "narnat_agent/platform/console.py": _later(
        ("select.select([keyboard.fileno()], [], [], timeout)", "select.select([0], [], [], timeout)",
         f"{WRONG_SETTING}: a key is waited for on standard input, not on the keyboard's own descriptor: keys typed "
         "while standard input is another stream are never seen (Esc does not stop a turn)"),
        ("STANDARD = (0, 1, 2)", "STANDARD = (0, 1)",
         f"{STEP_MISSED}: standard error is not looked at after a hangup: it stays the dead terminal and each write "
         "to it fails"),
    ),
    "narnat_agent/platform/watch.py": _later(
        ("_CREATE | _DELETE | _DELETE_SELF", "_CREATE | _DELETE_SELF",
         f"{STEP_MISSED}: a file removed is not reported: a checkpoint misses the file a command took away"),
        ("_libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)", "_libc.inotify_init1(os.O_CLOEXEC)",
         f"{STEP_MISSED}: the watch's descriptor blocks: asking what changed waits for ever when nothing did"),
    ),
    "narnat_agent/run/signals.py": _later(
        ("        if agent.leaving:\n            return\n        agent.leaving = signum\n",
         "        agent.leaving = signum\n        if agent.leaving:\n            return\n",
         f"{WRONG_ORDER}: the signal is noted before the check for an earlier one, so the first is taken for a "
         "second: neither the turn nor the waiting prompt is stopped"),
        ("if stop and not agent.ui.stop_reading():", "if stop and agent.ui.stop_reading():",
         f"{INVERTED}: a SIGTERM during a turn lets the turn run on to its end, and one at the prompt raises a "
         "KeyboardInterrupt there"),
    ),
    "narnat_agent/processes/jobs.py": _later(
        ("ended = [job for job in self.started if not job.told and job.process.poll() is not None]",
         "ended = [job for job in self.started if job.process.poll() is not None]",
         f"{STEP_MISSED}: a job that ended is told to the model again at every turn"),
        ("job.log.with_name(job.log.name + RUNNING)", "job.log.with_suffix(RUNNING)",
         f"{FORMAT_EDGE}: a stopped job's marker is looked for without its log's .log: it stays beside the log, "
         "and the next start sweeps a job long gone"),
    ),
    "narnat_agent/processes/__init__.py": _later(
        ('self.previous = signal.signal(signal.SIGINT, lambda signum, frame: setattr(self, "caught", True))\n',
         'signal.signal(signal.SIGINT, lambda signum, frame: setattr(self, "caught", True))\n'
         "            self.previous = signal.getsignal(signal.SIGINT)\n",
         f"{WRONG_ORDER}: the handler to put back is read after the holding one was set: once a command started, "
         "Ctrl-C is held for ever and never stops anything"),
        ("if self.caught and callable(self.previous):", "if callable(self.previous):",
         f"{STEP_MISSED}: the held Ctrl-C is released whether or not one came: every command is interrupted as it "
         "starts"),
    ),
    "narnat_agent/checkpoints/lock.py": _later(
        ("                told = True\n", "",
         f"{STEP_MISSED}: the notice that another narnat holds the store is said again every 50 ms while waiting"),
        ("            except OSError as e:\n", "            except PermissionError as e:\n",
         f"{WRONG_SETTING}: a store whose lock cannot be made for any reason but its rights (a file where its folder "
         "goes, a full disk) ends in a traceback, not in the store's error"),
    ),
    "narnat_agent/acp/__init__.py": _later(
        ("    settings = Settings(args, dict(os.environ), Path.home())\n    forget_key_variables(os.environ)",
         "    forget_key_variables(os.environ)\n    settings = Settings(args, dict(os.environ), Path.home())",
         f"{WRONG_ORDER}: the key's variables are forgotten before the settings read them: every session has no key"),
        ("if not all(_streams(fd) for fd in (0, 1)):", "if not any(_streams(fd) for fd in (0, 1)):",
         f"{WRONG_SETTING}: one of stdin and stdout a pipe is enough: `narnat acp > log` is served, and fails in "
         "asyncio's traceback instead of the one sentence"),
    ),
}  # fmt: skip
