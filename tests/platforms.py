"""What a test may check on the platform it runs on: whether it is Wine (not Windows in everything), and whether a
file is for its user alone."""

import stat
import sys
from pathlib import Path


def _under_wine() -> bool:
    if sys.platform != "win32":
        return False
    import ctypes

    return hasattr(ctypes.WinDLL("ntdll"), "wine_get_version")


UNDER_WINE = _under_wine()


def private(path: Path) -> bool:
    """Mode 0600 on POSIX; on Windows an access list naming only the user (Wine shows the Unix mode instead, so
    there the file is only checked to be writable)."""
    if sys.platform != "win32":
        return stat.S_IMODE(path.stat().st_mode) == 0o600
    if UNDER_WINE:
        return bool(path.stat().st_mode & stat.S_IWRITE)
    from narnat_agent.platform import win32

    return win32.access(str(path)) == win32.user_alone()
