"""Whether the tests run under Wine, which is not Windows in everything a test may check."""

import sys


def _under_wine() -> bool:
    if sys.platform != "win32":
        return False
    import ctypes

    return hasattr(ctypes.WinDLL("ntdll"), "wine_get_version")


UNDER_WINE = _under_wine()
