"""The checkpoints a conversation keeps: a JSON-able list of entries, saved with the session.

Two kinds of entry:
- a turn: {"turn", "time", "question", "messages", "steps": [{"call", "before", "after"}]}, where "messages"
  is where the turn starts in the conversation (None once compression has dropped those messages); the
  project as the turn found it is the "before" of its first step, as nothing else changes files;
- a rewind: {"rewind", "time", "before", "after", "tail", "messages", "turns"}: the project before and
  after the restore (None when only the conversation went back) and what it took away, so /redo can put it back.
"""

OPTIONAL_ID = (str, type(None))


def well_formed(entries: object) -> bool:
    """Whether a list read from a session file has the shape described above (files can be edited or damaged)."""
    return isinstance(entries, list) and all(isinstance(e, dict) and _entry(e) for e in entries)


def _entry(e: dict) -> bool:
    if "turn" in e:
        return (
            isinstance(e["turn"], int) and isinstance(e.get("time"), str) and isinstance(e.get("question"), str)
            and isinstance(e.get("messages"), (int, type(None))) and isinstance(e.get("steps"), list)
            and all(isinstance(s, dict) and all(isinstance(s.get(k), str) for k in ("call", "before", "after"))
                    for s in e["steps"])
        )  # fmt: skip
    return (
        isinstance(e.get("rewind"), str) and isinstance(e.get("time"), str)
        and isinstance(e.get("before"), OPTIONAL_ID) and isinstance(e.get("after"), OPTIONAL_ID)
        and well_formed(e.get("tail")) and isinstance(e.get("messages"), (list, type(None)))
        and isinstance(e.get("turns"), (int, type(None)))
    )  # fmt: skip


def steps_of(entries: list[dict]) -> list[tuple[bool, str, str]]:
    """The code changes of some entries in order, as (made by the agent, before, after)."""
    steps = []
    for entry in entries:
        if "turn" in entry:
            steps += [(True, s["before"], s["after"]) for s in entry["steps"]]
        elif entry["before"]:
            steps.append((False, entry["before"], entry["after"]))
        else:  # a rewind of the conversation alone left the code of its turns in place
            steps += steps_of(entry["tail"])
    return steps


def ids_of(entries: list[dict]) -> set[str]:
    ids = set()
    for entry in entries:
        if "turn" in entry:
            ids |= {s[k] for s in entry["steps"] for k in ("before", "after")}
        else:
            ids |= {entry["before"], entry["after"]} | ids_of(entry["tail"])
    return ids - {None}
