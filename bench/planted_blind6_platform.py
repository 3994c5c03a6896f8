"""Planted defects of the platform seams (processes, files, locks, signals, the console, the watcher), the
background jobs and a run's signals, written by a sixth writer from the modules alone, as a tired developer would,
without reading their tests: each is `later`."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND6_PLATFORM: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/platform/processes.py": _later(
        ("prctl, _PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)", "prctl, _PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)",
         f"{WRONG_SETTING}: a background job is sent SIGTERM, not SIGKILL, when Narnat dies: one that traps or "
         "ignores TERM (a dev server, `trap '' TERM`) outlives a killed Narnat"),
        ("        if not stop(process):\n            return\n        settled(wait)",
         "        settled(wait)\n        if not stop(process):\n            return",
         f"{WRONG_ORDER}: the tree is waited for before it is asked to stop: every stop (Esc on a command, a job "
         "stopped) takes the whole grace before anything is sent, and the forced stop comes without a wait after"),
    ),
    "narnat_agent/platform/files.py": _later(
        ("READ_NOW = os.O_RDONLY | os.O_NONBLOCK", "READ_NOW = os.O_RDONLY",
         f"{STEP_MISSED}: a file opened to be read now waits: a FIFO in a session's, a log's or Read's place holds "
         "the run for ever"),
        ("    return os.open(path, READ_NOW)", "    return os.open(path, READ_NOW | os.O_NOFOLLOW)",
         f"{FORMAT_EDGE}: a path that is a symbolic link cannot be opened to be read (ELOOP): Read of a linked file, "
         "a job's log behind a link, fail"),
    ),
    "narnat_agent/platform/locks.py": _later(
        ("            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\n        except BlockingIOError:\n"
         "            return False\n        return True",
         "            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\n        except BlockingIOError:\n"
         "            return False\n        return False",
         f"{INVERTED}: a lock taken is said to be held by another: the taker holds it and goes on as if it had not"),
        ("        fcntl.flock(fd, fcntl.LOCK_EX)\n", "        fcntl.flock(os.dup(fd), fcntl.LOCK_EX)\n",
         f"{STEP_MISSED}: the lock waited for is taken on a copy of the descriptor never closed: closing the file "
         "does not let it go, and the next run waits until this one ends"),
    ),
    "narnat_agent/platform/signals.py": _later(
        ("signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)  # the main thread has an ident",
         "signal.raise_signal(signal.SIGINT)",
         f"{WRONG_SETTING}: the interrupt is raised in the calling thread, as on Windows: from a helper thread that "
         "holds SIGINT blocked it stays pending there, and Esc never interrupts the main thread's wait"),
        ("previous = signal.pthread_sigmask(signal.SIG_BLOCK, _TAKEN)",
         "previous = signal.pthread_sigmask(signal.SIG_UNBLOCK, _TAKEN)",
         f"{WRONG_SETTING}: helper threads start with the signals unblocked: one of them can take the Ctrl-C or the "
         "SIGTERM meant for the main thread"),
    ),
    "narnat_agent/platform/console.py": _later(
        ("termios.tcsetattr(0, termios.TCSANOW, saved)", "termios.tcsetattr(1, termios.TCSANOW, saved)",
         f"{WRONG_SETTING}: the settings are given back on standard output, not input: with output redirected to a "
         "file the terminal stays raw after a kill"),
        ("termios.tcsetattr(0, termios.TCSANOW, saved)", "termios.tcsetattr(0, termios.TCSAFLUSH, saved)",
         f"{WRONG_SETTING}: giving the terminal back its settings throws away what was typed meanwhile"),
    ),
    "narnat_agent/platform/watch.py": _later(
        ("found.append(Event(os.path.join(folder, os.fsdecode(name)) if name else folder,",
         "found.append(Event(os.path.join(folder, os.fsdecode(name)),",
         f"{FORMAT_EDGE}: a watched folder's own change (removed, moved, its mode) is reported as 'folder/', a path "
         "with a trailing slash that matches no folder known"),
        ('point = _unescape(fields.split(" ")[4]) if len(fields.split(" ")) > 4 else ""',
         'point = _unescape(fields.split(" ")[3]) if len(fields.split(" ")) > 3 else ""',
         f"{OFF_BY_ONE}: the mount table's root field is read as the mount point: every project is judged by the "
         "last mount whose root is /, however remote its own file system"),
    ),
    "narnat_agent/processes/jobs.py": _later(
        ('if n > line or not text.endswith(b"\\n"):', "if n > line:",
         f"{FORMAT_EDGE}: a line the job was still writing when the model Read the log counts as given: wait %N "
         "gives the rest of it from its middle"),
        ("log = (seen or logs)[-1]", "log = (seen or logs)[0]",
         f"{WRONG_SETTING}: wait %N for an earlier run's job names the oldest log of that number, not the one read "
         "last or the newest"),
        ("            job.output.finish(DRAIN)  # its last output first, then the line saying it did not finish\n"
         "            _stopped_line(job.log, AT_EXIT)\n",
         "            _stopped_line(job.log, AT_EXIT)\n"
         "            job.output.finish(DRAIN)  # its last output first, then the line saying it did not finish\n",
         f"{WRONG_ORDER}: the line saying Narnat stopped the job is written before the job's last output: a later "
         "run reading the log does not find it as its last line"),
    ),
    "narnat_agent/run/signals.py": _later(
        ("        signal.signal(signum, signal.SIG_IGN)  # the one action the shutdown leaves in place",
         "        signal.signal(signum, signal.SIG_DFL)  # the one action the shutdown leaves in place",
         f"{WRONG_SETTING}: the signals are given their default action, not ignored, once the exit code is decided: "
         "a second signal during shutdown turns a saved exit into a death by that signal"),
        ("        agent.leaving = signum\n", "        agent.leaving = True\n",
         f"{FORMAT_EDGE}: which signal ended the run is not kept: a run ended by SIGTERM exits 129, not 143"),
    ),
}  # fmt: skip
