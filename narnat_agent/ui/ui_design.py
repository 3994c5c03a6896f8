"""The one object through which all terminal I/O goes."""

import sys

from narnat_agent.ui.plain import PlainUI


def make_ui(headless: bool) -> PlainUI:
    """Headless runs write the answer to stdout and everything else to stderr."""
    return PlainUI(sys.stdout, sys.stderr, sys.stdin)
