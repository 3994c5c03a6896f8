"""Saved conversations: .narnat/sessions/<name>.json, written atomically, read defensively.

A save never silently replaces a file another process wrote since this process last read or wrote it: the session
is then saved beside it under a free name, and the caller is told.
"""

import contextlib
import errno
import json
import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from narnat_agent import state
from narnat_agent.atomic import write_atomic
from narnat_agent.encodable import encodable_data
from narnat_agent.i18n import N_, _
from narnat_agent.platform.files import open_now

FORMAT = "narnat-session"
MAX_NAME = 100
NAME_CHARACTER = r"[A-Za-z0-9_.-]"
NAME = re.compile(rf"{NAME_CHARACTER}{{1,{MAX_NAME}}}")
FULL = (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)
# What this process last read or wrote of each session file: (device, inode, mtime, size). Every save is a rename
# of a new file, so any other process's save changes the inode.
_known: dict[Path, tuple[int, int, int, int]] = {}


class SessionError(Exception):
    """A session that cannot be used, in one sentence naming it."""


@dataclass(frozen=True)
class Saved:
    name: str  # the name it was saved under
    note: str | None = None  # why that is not the name asked for


def check_name(name: str) -> str:
    if len(name) > MAX_NAME and re.fullmatch(rf"{NAME_CHARACTER}+", name):  # the right characters, too many of them
        raise SessionError(
            _("a session name is at most {limit} characters; '{name}…' has {length}.").format(
                limit=MAX_NAME, name=name[:20], length=len(name)
            )
        )
    if not NAME.fullmatch(name) or name in (".", ".."):
        raise SessionError(
            _("'{name}' is not a session name: use letters, digits, '-', '_' and '.'.").format(name=name)
        )
    return name


ARCHIVE = "compressed-"  # a compacted conversation's archive: kept as it was, never continued under its name


def is_archive(name: str) -> bool:
    return name.startswith(ARCHIVE)


def stamp(moment: datetime | None = None) -> str:
    """A default name: the time, and this process's id, so processes started in the same second differ."""
    return f"{(moment or datetime.now()):%Y-%m-%d_%H-%M-%S}-{os.getpid()}"


def path_of(state_dir: Path, name: str) -> Path:
    return state.sessions(state_dir) / f"{check_name(name)}.json"


def _identity(stat: os.stat_result) -> tuple[int, int, int, int]:
    return stat.st_dev, stat.st_ino, stat.st_mtime_ns, stat.st_size


def _changed_elsewhere(path: Path) -> bool:
    try:
        return _known.get(path) != _identity(path.stat())
    except OSError:  # nothing there (or nowhere to look): the write says why it fails, if it does
        return False


def claim(state_dir: Path, name: str) -> None:
    """The next save may replace the session as it is now (the user chose to overwrite it)."""
    path = path_of(state_dir, name)
    if path.exists():
        _known[path] = _identity(path.stat())


def save(state_dir: Path, name: str, session: dict) -> Saved:
    """Write one session (messages, turns, todos, model, created) with its updated time; never fails on content."""
    path, note = path_of(state_dir, name), None
    if _changed_elsewhere(path):
        n = 2
        while path_of(state_dir, f"{name}-{n}").exists():
            n += 1
        path = path_of(state_dir, f"{name}-{n}")
        note = _(
            "'{name}' was changed by another process or conversation since this one last read or saved it; "
            "saved this conversation beside it as '{beside}'."
        ).format(name=name, beside=path.stem)
    data = {"format": FORMAT, "name": path.stem, **session, "updated": datetime.now().isoformat()}
    try:
        body = json.dumps(data, ensure_ascii=False, indent=1).encode()
    except UnicodeEncodeError:  # a lone surrogate from anywhere: saved in its escaped form
        body = json.dumps(encodable_data(data), ensure_ascii=False, indent=1).encode()
    try:
        write_atomic(path, body)
    except OSError as e:
        raise SessionError(_cannot_save(path, e)) from None
    _known[path] = _identity(path.stat())
    return Saved(path.stem, note)


def _cannot_save(path: Path, error: OSError) -> str:
    if error.errno in FULL:
        full = _("Cannot save '{name}': the disk holding {folder} is full; free some space, then save again.")
        return full.format(name=path.stem, folder=path.parent)
    failed = _("Cannot save '{name}' in {folder} ({error}); make it writable or free space, then save again.")
    return failed.format(name=path.stem, folder=path.parent, error=error.strerror)


def _no_session(name: str) -> str:
    return _("there is no session named '{name}' (see /show).").format(name=name)


def _read(path: Path) -> tuple[dict, tuple[int, int, int, int]]:
    try:
        # opened without waiting, and only a regular file read: a FIFO named as a session hung `-c` for ever
        fd = open_now(path)
        with os.fdopen(fd, "rb") as f:
            status = os.fstat(f.fileno())
            if not stat.S_ISREG(status.st_mode):
                raise SessionError(_("{path} is not a regular file; remove it.").format(path=path))
            identity, raw = _identity(status), f.read()
    except FileNotFoundError:
        raise SessionError(_no_session(path.stem)) from None
    except OSError as e:
        raise SessionError(_("{path} cannot be read ({error}).").format(path=path, error=e.strerror)) from None
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as e:
        damaged = _("{path} is damaged and cannot be loaded ({error}).")
        raise SessionError(damaged.format(path=path, error=e.__class__.__name__)) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SessionError(_("{path} is not a Narnat session file.").format(path=path))
    if problem := _problem(data):
        raise SessionError(
            _("{path} cannot be loaded: {problem}; fix the file or delete it.").format(path=path, problem=problem)
        )
    return encodable_data(data), identity


def load(state_dir: Path, name: str) -> dict:
    path = path_of(state_dir, name)
    data, _known[path] = _read(path)
    return data


ROLES = ("system", "user", "assistant", "tool")
TODO_STATES = ("pending", "in_progress", "completed")


def _problem(data: dict) -> str:
    """What in a session's data is not as Narnat writes it, in words; "" when every field is."""
    messages = data.get("messages")
    if not isinstance(messages, list) or not messages:
        return _("'messages' must be a non-empty list")
    for n, message in enumerate(messages, 1):
        if problem := _message_problem(message, n):
            return problem
    for key, (missing, check, expected) in FIELDS.items():
        if not check(data.get(key, missing)):
            return _("'{key}' must be {expected}").format(key=key, expected=_(expected))
    return ""


def _text(value: object) -> bool:
    return isinstance(value, str)


# key -> (its value when absent, the check, what it must be) for every field beside the messages
FIELDS: dict[str, tuple[Any, Callable[[Any], bool], str]] = {
    "turns": (None, lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0, N_("a whole number")),
    "todos": ([], lambda v: isinstance(v, list) and all(_todo(t) for t in v),
              N_("a list of {content, activeForm, status} objects")),
    "reads": ({}, lambda v: isinstance(v, dict) and all(_read_record(r) for r in v.values()),
              N_("an object mapping paths to {sha, whole} records")),
    "cost": (None, lambda v: v is None or isinstance(v, (int, float)), N_("a number or null")),
    "notes": ([], lambda v: isinstance(v, list) and all(isinstance(n, str) for n in v), N_("a list of texts")),
    "created": ("", _text, N_("text")), "updated": ("", _text, N_("text")), "model": ("", _text, N_("text")),
    "name": ("", _text, N_("text")),
}  # fmt: skip


def _message_problem(message: object, n: int) -> str:
    """What is wrong with the nth message, in words; "" when nothing is."""
    if not isinstance(message, dict) or message.get("role") not in ROLES:
        return _("message {n} must be an object whose role is one of {roles}").format(n=n, roles=", ".join(ROLES))
    role, content = message["role"], message.get("content")
    if n == 1 and (role != "system" or not isinstance(content, str)):
        return _("message {n} must be the system prompt (role system, text content)").format(n=n)
    if not (isinstance(content, str) or content is None or (isinstance(content, list) and role == "user")):
        shown = json.dumps(content)[:40]
        return _("message {n} ({role}) has content {content}; it must be text").format(n=n, role=role, content=shown)
    calls = message.get("tool_calls", [])  # null too is none of Narnat's: every reader of the calls would fail on it
    if not isinstance(calls, list) or not all(_tool_call(c) for c in calls):
        not_calls = _("message {n} ({role}) has tool calls that are not {{id, function: {{name, arguments}}}} objects")
        return not_calls.format(n=n, role=role)
    texts = ("tool_call_id", "reasoning_content", "reasoning", "name")
    wrong = [key for key in texts if not _text(message.get(key, ""))]
    not_text = _("message {n} ({role}) has a '{key}' that is not text")
    return not_text.format(n=n, role=role, key=wrong[0]) if wrong else ""


def _tool_call(call: object) -> bool:
    function = call.get("function") if isinstance(call, dict) else None
    return (isinstance(call, dict) and isinstance(call.get("id"), str) and isinstance(function, dict)
            and isinstance(function.get("name"), str) and isinstance(function.get("arguments"), str))  # fmt: skip


def _todo(todo: object) -> bool:
    return (isinstance(todo, dict) and isinstance(todo.get("content"), str)
            and isinstance(todo.get("activeForm"), str) and todo.get("status") in TODO_STATES)  # fmt: skip


def _read_record(record: object) -> bool:
    return isinstance(record, dict) and isinstance(record.get("sha"), str) and isinstance(record.get("whole"), bool)


def exists(state_dir: Path, name: str) -> bool:
    return path_of(state_dir, name).exists()


def delete(state_dir: Path, name: str) -> None:
    path = path_of(state_dir, name)
    if not path.exists():
        raise SessionError(_no_session(name))
    path.unlink()
    _known.pop(path, None)


def listing(state_dir: Path) -> list[dict]:
    """Every readable session, newest first: name, turns, updated, first question; damaged files say so."""
    rows: list[tuple[dict, str]] = []  # each with the time it sorts by
    for path in state.sessions(state_dir).glob("*.json"):
        try:
            data = _read(path)[0]
        except SessionError as e:
            # placed by the file's time, so that `-c` meets the newest even when it cannot be read, and says why
            when = ""
            with contextlib.suppress(OSError):
                when = datetime.fromtimestamp(path.stat().st_mtime).isoformat()
            unreadable = _("(unreadable: {problem})").format(problem=e)
            rows.append(({"name": path.stem, "turns": 0, "updated": "", "first": unreadable}, when))
            continue
        first = next((m.get("content") for m in data["messages"] if m["role"] == "user"), "")
        updated = data.get("updated", "")
        rows.append(({"name": path.stem, "turns": data["turns"], "updated": updated,
                      "first": first if isinstance(first, str) else ""}, updated))  # fmt: skip
    return [row for row, _when in sorted(rows, key=lambda r: r[1], reverse=True)]
