"""The checkpoints a conversation keeps: a list of entries, saved with the session and checked when read back.

Two kinds of entry: a turn, whose steps each hold the project before and after one call (the project as the
turn found it is the `before` of its first step, as nothing else changes files); and a rewind, holding the
project before and after its restore (None when only the conversation went back) and what it took away, so
/redo can put it back.
"""

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any


class Damaged(Exception):
    """A session file's checkpoints do not have the shape below (edited by hand, or written by a bug)."""


@dataclass(frozen=True)
class Step:
    call: str  # as the UI showed it: Edit(src/app.py)
    before: str
    after: str
    unkept: tuple[str, ...] = ()  # the files the call changed that no snapshot could keep


@dataclass(frozen=True)
class Turn:
    turn: int
    time: str
    question: str
    messages: int | None  # where the turn starts in the conversation; None once compression dropped them
    steps: tuple[Step, ...] = ()


@dataclass(frozen=True)
class Taken:
    """What a rewind took from the conversation, kept as it was given for /redo to give back."""

    messages: list[dict]
    turns: int


@dataclass(frozen=True)
class Rewind:
    rewind: str  # what it went back to: "turn 2", "turn 2, step 3"
    time: str
    before: str | None
    after: str | None
    tail: tuple["Turn | Rewind", ...]  # the entries it took away
    taken: Taken | None


Entry = Turn | Rewind


def steps_of(entries: Iterable[Entry]) -> list[tuple[bool, str, str]]:
    """The code changes of some entries in order, as (made by the agent, before, after)."""
    steps = []
    for entry in entries:
        if isinstance(entry, Turn):
            steps += [(True, s.before, s.after) for s in entry.steps]
        elif entry.before and entry.after:
            steps.append((False, entry.before, entry.after))
        else:  # a rewind of the conversation alone left the code of its turns in place
            steps += steps_of(entry.tail)
    return steps


def ids_of(entries: Iterable[Entry]) -> set[str]:
    ids: set[str] = set()
    for entry in entries:
        if isinstance(entry, Turn):
            ids |= {i for s in entry.steps for i in (s.before, s.after)}
        else:
            ids |= {i for i in (entry.before, entry.after) if i} | ids_of(entry.tail)
    return ids


def pairs_of(entries: Iterable[Entry]) -> set[tuple[str, str]]:
    """The (before, after) of every step and restore of these entries, those a rewind took away too."""
    pairs: set[tuple[str, str]] = set()
    for entry in entries:
        if isinstance(entry, Turn):
            pairs |= {(s.before, s.after) for s in entry.steps}
        else:
            pairs |= ({(entry.before, entry.after)} if entry.before and entry.after else set()) | pairs_of(entry.tail)
    return pairs


def unkept_of(entries: Iterable[Entry]) -> list[str]:
    """What the agent changed in these entries that a rewind cannot give back."""
    found: list[str] = []
    for entry in entries:
        parts = [u for s in entry.steps for u in s.unkept] if isinstance(entry, Turn) else unkept_of(entry.tail)
        found += [u for u in parts if u not in found]
    return found


def dump(entries: Iterable[Entry]) -> list[dict]:
    """The entries as JSON-able dicts, for the session file."""
    return [asdict(e) for e in entries]


def load(data: Any) -> list[Entry]:
    """The entries of a session file; Damaged when they do not have the shape above."""
    try:
        return [_entry(e) for e in data or []]
    except (KeyError, TypeError, ValueError, AttributeError):
        raise Damaged from None


def _entry(e: dict) -> Entry:
    if "turn" in e:
        steps = tuple(Step(_is(s["call"], str), _is(s["before"], str), _is(s["after"], str),
                           tuple(_is(u, str) for u in s.get("unkept", ()))) for s in e["steps"])  # fmt: skip
        return Turn(_is(e["turn"], int), _is(e["time"], str), _is(e["question"], str),
                    _is(e["messages"], int, type(None)), steps)  # fmt: skip
    # files from before "taken" kept its two parts beside the others
    kept = e.get("taken", {"messages": e.get("messages"), "turns": e.get("turns")})
    taken = kept and kept["messages"] is not None and Taken(_is(kept["messages"], list), _is(kept["turns"], int))
    return Rewind(_is(e["rewind"], str), _is(e["time"], str), _is(e["before"], str, type(None)),
                  _is(e["after"], str, type(None)), tuple(map(_entry, e["tail"])), taken or None)  # fmt: skip


def _is(value: Any, *kinds: type) -> Any:
    if not isinstance(value, kinds) or isinstance(value, bool):
        raise TypeError(f"{value!r} is not {kinds}")
    return value
