"""What a test may check on the platform it runs on: whether it is Wine (not Windows in everything), whether a file
is for its user alone, how the tools show a path; and the tests Windows cannot run, each with its reason."""

import os
import shutil
import stat
import sys
from pathlib import Path

import pytest


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


def shown(path: str) -> str:
    """A path written with '/' as the tools show it here: with backslashes on Windows."""
    return path.replace("/", os.sep)


def posix_only(reason: str) -> pytest.MarkDecorator:
    """Skipped on Windows, which lacks what the test needs (the reason says what)."""
    return pytest.mark.skipif(os.name == "nt", reason=reason)


NO_FIFOS = posix_only("Windows has no FIFOs in the file system")
NO_MODES = posix_only("Windows keeps only the read-only bit of a file's mode")
NO_SYMLINKS = posix_only("a symlink on Windows needs Developer Mode or an administrator (and Wine's are not links)")
NO_BYTE_NAMES = posix_only("Windows names are Unicode: a name that is not UTF-8 cannot be made there")
NEEDS_GIT = pytest.mark.skipif(not shutil.which("git"), reason="needs git (Git for Windows is not in the Wine prefix)")


def needs_a_shell() -> None:
    """Skips the test where no shell runs the Bash tool's commands: under Wine only a stub PowerShell is found,
    unless a bash.exe is on PATH."""
    from narnat_agent.tools.bash.shells import chosen

    if UNDER_WINE and chosen().shell.powershell:
        pytest.skip("Wine's powershell.exe is a stub that runs nothing: a bash.exe (busybox-w32) on PATH stands in")
