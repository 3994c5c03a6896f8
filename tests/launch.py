"""How the tests start Narnat as a separate program: one command line, and one environment scrubbed of what the
machine's own settings would leak in (provider settings, state folders, colour, locale, an active virtualenv)."""

import os
import sys

NARNAT = [sys.executable, "-m", "narnat_agent"]
LEAKS = ("NARNAT_", "OPENAI_", "XDG_", "NO_COLOR", "VIRTUAL_ENV", "LC_", "LANG")


def scrubbed_environment() -> dict[str, str]:
    """This process's environment without what would change how Narnat behaves, in the C locale (English)."""
    env = {name: value for name, value in os.environ.items() if not name.startswith(LEAKS)}
    env["LANG"] = "C.UTF-8"
    return env
