"""What the analysis may look at beyond the command's text when Bash is about to run it: read-only listings that
name what would be lost — the files find selects, the commits git would move a branch past. Each runs with a short
timeout and a bounded output, never anything that writes."""

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path

from narnat_agent.i18n import N_, Said

TIMEOUT = 2.0  # seconds; a listing that takes longer is left out of the question
MAX_LINES = 1000  # lines read of a listing; past that, "more than"
FIND_ACTIONS = {"-delete", "-print", "-print0", "-ls", "-fls", "-fprint", "-fprint0", "-fprintf", "-printf", "-quit"}
QUIET = {"LC_ALL": "C", "GIT_OPTIONAL_LOCKS": "0", "GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat", "PAGER": "cat"}


def _lines(argv: list[str], cwd: Path, nul: bool = False, locale: str = "C") -> list[str] | None:
    """The first lines a read-only program prints, or None when it fails or takes too long."""
    quiet = {**QUIET, "LC_ALL": locale}
    try:
        done = subprocess.run(argv, cwd=cwd, capture_output=True, timeout=TIMEOUT, env={**os.environ, **quiet},
                              stdin=subprocess.DEVNULL)  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode != 0:
        return None
    text = done.stdout.decode("utf-8", "replace")
    return [line for line in text.split("\0" if nul else "\n") if line][: MAX_LINES + 1]


def find_selection(expression: list[str], cwd: Path, env: Mapping[str, str] | None = None) -> list[str] | None:
    """What `find` with these words selects, each action that deletes or prints replaced by -print (so each binds
    where it did); None when the words run other programs (`-exec grep …` decides by running it) or find fails."""
    words: list[str] = []
    skip = 0
    for word in expression:
        if skip:
            skip -= 1
        elif word in ("-exec", "-execdir", "-ok", "-okdir"):
            return None
        elif word in FIND_ACTIONS:
            words.append("-print")
            skip = 1 if word in ("-fls", "-fprint", "-fprint0", "-printf") else 2 if word == "-fprintf" else 0
        else:
            words.append(word)
    # without an action find prints what the whole expression selects: a -print added would bind to its last term
    # `-name '?.log'` matches `é.log` under UTF-8 alone: find selects as the command's locale (env) has it
    found = _lines(["find", *words], cwd, locale=_character_locale(env or {}))
    return list(dict.fromkeys(found)) if found is not None else None  # `-print -delete` prints each file twice


def _character_locale(env: Mapping[str, str]) -> str:
    """The locale that decides what a character is for a program run with env: LC_ALL, else LC_CTYPE, else LANG."""
    return next((env[name] for name in ("LC_ALL", "LC_CTYPE", "LANG") if env.get(name)), "C")


def git_lines(args: list[str], cwd: Path) -> list[str] | None:
    """What a read-only git command prints in cwd, without running anything the repository configures."""
    return _lines(["git", "-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", *args], cwd)


def named(names_: list[str] | None, what: str) -> str:
    """Names for a question: how many, and the first few; `what` when they are not known."""
    if names_ is None:
        return what
    if not names_:
        return Said(N_("{what}: nothing, as the files are now"), what=what)
    count = f"{MAX_LINES:,}+" if len(names_) > MAX_LINES else str(len(names_))
    first = ", ".join(names_[:3]) + (", …" if len(names_) > 3 else "")
    return Said(N_("{what}: {count} ({first})"), what=what, count=count, first=first)
