"""A command's whole process tree: started so that it can be stopped whole, asked to end, then ended for sure.

The POSIX way, today: the command leads a session of its own and its process group is signalled. These three names
are the Bash tool's whole use of it, so the platform's own (Job objects on Windows, in processes/) can take this
module's place.
"""

import os
import signal
import subprocess

START = {"start_new_session": True}  # Popen's arguments that make the command the root of a tree of its own


def terminate(process: subprocess.Popen) -> bool:
    """Ask the command and everything it started to end (SIGTERM); False when none of them is left."""
    return _signal(process, signal.SIGTERM)


def kill(process: subprocess.Popen) -> bool:
    """End the command and everything it started (SIGKILL); False when none of them is left."""
    return _signal(process, signal.SIGKILL)


def _signal(process: subprocess.Popen, sig: signal.Signals) -> bool:
    try:
        os.killpg(process.pid, sig)
    except (ProcessLookupError, PermissionError):
        return False
    return True
