"""Whether processes a test started have ended, by their ids: never by matching every process on the machine."""

import time
from pathlib import Path


def gone(pid: int) -> bool:
    """No such process, or only its exit status waiting to be collected."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return True


def ended(pids_file: Path, within: float = 5.0) -> bool:
    """Whether every process whose id a command wrote to pids_file has ended before the deadline."""
    pids = [int(pid) for pid in pids_file.read_text().split()]
    deadline = time.monotonic() + within
    while not all(gone(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True
