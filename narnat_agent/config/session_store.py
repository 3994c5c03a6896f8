"""Saved conversations: .narnat/sessions/<name>.json, written atomically, read defensively."""

import json
import re
from datetime import datetime
from pathlib import Path

from narnat_agent.atomic import write_atomic

FORMAT = "narnat-session"
NAME = re.compile(r"[A-Za-z0-9_.-]{1,100}")


class SessionError(Exception):
    """A session that cannot be used, in one sentence naming it."""


def check_name(name: str) -> str:
    if not NAME.fullmatch(name) or name in (".", ".."):
        raise SessionError(f"'{name}' is not a session name: use letters, digits, '-', '_' and '.'.")
    return name


def stamp(moment: datetime | None = None) -> str:
    return (moment or datetime.now()).strftime("%Y-%m-%d_%H-%M-%S")


def path_of(state_dir: Path, name: str) -> Path:
    return state_dir / "sessions" / f"{check_name(name)}.json"


def save(state_dir: Path, name: str, session: dict) -> Path:
    """Write one session (messages, turns, todos, model, created) with its updated time."""
    path = path_of(state_dir, name)
    data = {"format": FORMAT, "version": 1, "name": name, **session, "updated": datetime.now().isoformat()}
    write_atomic(path, json.dumps(data, ensure_ascii=False, indent=1).encode())
    return path


def load(state_dir: Path, name: str) -> dict:
    path = path_of(state_dir, name)
    if not path.exists():
        raise SessionError(f"there is no session named '{name}' (see /show).")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise SessionError(f"{path} is damaged and cannot be loaded ({e.__class__.__name__}).") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not _valid(data):
        raise SessionError(f"{path} is not a Narnat session file.")
    return data


def _valid(data: dict) -> bool:
    messages = data.get("messages")
    return (
        isinstance(messages, list)
        and all(isinstance(m, dict) and isinstance(m.get("role"), str) for m in messages)
        and bool(messages)
        and messages[0]["role"] == "system"
        and isinstance(data.get("turns"), int)
        and isinstance(data.get("todos", []), list)
    )


def exists(state_dir: Path, name: str) -> bool:
    return path_of(state_dir, name).exists()


def delete(state_dir: Path, name: str) -> None:
    path = path_of(state_dir, name)
    if not path.exists():
        raise SessionError(f"there is no session named '{name}' (see /show).")
    path.unlink()


def listing(state_dir: Path) -> list[dict]:
    """Every readable session, newest first: name, turns, updated, first question; damaged files say so."""
    rows = []
    for path in (state_dir / "sessions").glob("*.json"):
        try:
            data = load(state_dir, path.stem)
        except SessionError as e:
            rows.append({"name": path.stem, "turns": 0, "updated": "", "first": f"(unreadable: {e})"})
            continue
        first = next((m["content"] for m in data["messages"] if m["role"] == "user"), "")
        rows.append({"name": path.stem, "turns": data["turns"], "updated": data.get("updated", ""),
                     "first": first if isinstance(first, str) else ""})  # fmt: skip
    return sorted(rows, key=lambda r: r["updated"], reverse=True)
