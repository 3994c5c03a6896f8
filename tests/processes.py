"""Whether processes a test started have ended, by their ids: never by matching every process on the machine."""

import os
import time
from collections.abc import Callable
from pathlib import Path

from narnat_agent.platform.processes import alive


def gone(pid: int) -> bool:
    """No such process, or only its exit status waiting to be collected (Windows, which has no /proc: not alive)."""
    if os.name == "nt":
        return not alive(pid)
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def until(condition: Callable[[], bool], within: float = 30.0) -> bool:
    """Whether the condition holds before the deadline, looked at every 20 ms: a bound for a loaded machine, never a
    measure (what it waits for takes milliseconds)."""
    deadline = time.monotonic() + within
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def ended(pids: Path | int, within: float = 30.0) -> bool:
    """Whether this process, or every process whose id a command wrote to the file, has ended before the deadline."""
    pids = [pids] if isinstance(pids, int) else [int(pid) for pid in pids.read_text().split()]
    return until(lambda: all(gone(pid) for pid in pids), within)
