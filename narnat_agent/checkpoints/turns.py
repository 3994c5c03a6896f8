"""Checkpoints of a conversation: the state of the project before and after every Write, Edit and Bash call.

What a conversation keeps is a JSON-able list of entries (core/checkpoint_entries.py), saved with it.

A rewind restores only the files the agent changed in the rewound span, each to what it held before the agent's
first change; a file whose content is no longer the agent's last version was changed by someone else since,
and the caller asks before it is overwritten.
"""

import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from narnat_agent import state
from narnat_agent.checkpoints.git_store import GitStore
from narnat_agent.checkpoints.store import AGE_DAYS, CheckpointError, CopyStore, FileChange, Store, keepable
from narnat_agent.checkpoints.timeline import ids_of, steps_of, well_formed
from narnat_agent.core.context import Conversation
from narnat_agent.logger import get_logger

log = get_logger("core.checkpoints")
NO_COMMANDS = "git is not installed: checkpoints keep the files Write and Edit change, not what commands change."


def open_store(project: Path, state_dir: Path) -> Store:
    """The shadow git store, or copies of the touched files when git is not installed."""
    root = state.checkpoints(state_dir)
    return GitStore(project, root / "git") if shutil.which("git") else CopyStore(project, root / "files")


@dataclass(frozen=True)
class Change:
    path: str
    target: str  # the snapshot before the agent's first change: what the rewind brings back
    expected: str  # the snapshot after the last change the agent (or a rewind) made: what the file holds now


@dataclass(frozen=True)
class Pending:
    """A step whose tool is running: its snapshot before, and the touched paths to snapshot after."""

    label: str  # the call as the UI showed it: Edit(src/app.py)
    before: str
    touched: list[Path]


@dataclass(frozen=True)
class TurnSummary:
    index: int  # in the entry list
    time: str
    question: str
    files: list[FileChange]
    calls: list[str]  # its steps, as the UI showed them: Edit(src/app.py)
    conversation: bool  # its messages are still in the conversation
    code: bool  # its snapshots are still in the store


@dataclass(frozen=True)
class Plan:
    """A rewind worked out but not done: what it restores, which of those files someone else changed since."""

    step: int
    now: str
    changes: list[Change]
    conflicts: list[str]


def _changes(store: Store, steps: list[tuple[bool, str, str]]) -> dict[str, Change]:
    """Per file the agent changed: the snapshot before its first change and the one after the last change."""
    changes: dict[str, Change] = {}
    for by_agent, before, after in steps:
        if before == after:
            continue
        for path in store.changed(before, after):
            if path in changes:
                changes[path] = replace(changes[path], expected=after)
            elif by_agent:
                changes[path] = Change(path, before, after)
    return changes


def _contents(store: Store, changes: list[Change], field: str) -> dict[str, str | None]:
    """What each file holds in its change's `target` or `expected` snapshot."""
    found: dict[str, str | None] = {}
    for snapshot in {getattr(c, field) for c in changes}:
        found |= store.contents(snapshot, [c.path for c in changes if getattr(c, field) == snapshot])
    return found


class Checkpoints:
    """The checkpoints of the current conversation; `entries` is the session's list, shared, not copied."""

    def __init__(self, store: Store, entries: list[dict], say: Callable[[str], None]):
        self.store, self.say = store, say
        self.broken = False  # after the first failure the store is left alone for the rest of the run
        self.said_commands = False
        self.use(entries)

    def use(self, entries: list[dict]) -> None:
        """Follow another conversation's list; a damaged one (a session file edited by hand) is emptied, and said."""
        if not well_formed(entries):
            log.warning("damaged checkpoint entries dropped: %.200s", entries)
            self.say("The checkpoints saved with this conversation are damaged: its earlier turns cannot be rewound.")
            entries.clear()
        self.entries = entries

    def _snapshot(self, touched: Sequence[Path]) -> str | None:
        if self.broken:
            return None
        try:
            return self.store.snapshot(touched)
        except (CheckpointError, OSError) as e:
            self.broken = True
            log.warning("checkpoints off: %s", e)
            self.say(f"Checkpoints are off for this run: {e} Delete .narnat/checkpoints to start a new store.")
            return None

    def warm(self) -> None:
        """Let the store take its first snapshot while the user types the first question."""
        if not self.broken:
            self.store.warm()

    def start_turn(self, turn: int, question: str, messages: int) -> None:
        """Mark where a user turn starts: in time, and in the conversation."""
        entry = {"turn": turn, "time": _now(),
                 "question": question, "messages": messages, "steps": []}  # fmt: skip
        self.entries.append(entry)

    def before(self, label: str, touched: Sequence[Path], anything: bool) -> Pending | None:
        """The snapshot before a tool call that may change the touched files (even if ignored), or anything (a
        command); None if none."""
        if anything and not self.store.covers_commands and not self.said_commands:
            self.said_commands = True
            self.say(NO_COMMANDS)
        # a file over the size cap is left out of both snapshots, or the rewind would take it for a new file
        kept = [path for path in touched if keepable(path)]
        before = self._snapshot(kept)
        return Pending(label[:80], before, kept) if before else None

    def after(self, pending: Pending | None) -> None:
        """Record the step once the tool has run; a call that changed nothing (a refused one) is no step."""
        after = self._snapshot(pending.touched) if pending else None
        if pending and after and after != pending.before and self.entries and "turn" in self.entries[-1]:
            self.entries[-1]["steps"].append({"call": pending.label, "before": pending.before, "after": after})

    def covers_commands(self) -> bool:
        """Whether what a command changes can be rewound."""
        return self.store.covers_commands and not self.broken

    def turns(self) -> list[TurnSummary]:
        """The turns that can be rewound to, oldest first, with the files the agent changed in each."""
        available = self._available()
        summaries = []
        for index, entry in enumerate(self.entries):
            if "turn" in entry:
                code = not self.broken and ids_of([entry]) <= available
                files = self._files(entry) if code and entry["steps"] else []
                calls = [step["call"] for step in entry["steps"]]
                summaries.append(TurnSummary(index, entry["time"], entry["question"], files, calls,
                                             entry["messages"] is not None, code))  # fmt: skip
        return summaries

    def _available(self) -> set[str]:
        try:
            return set() if self.broken else self.store.existing(ids_of(self.entries))
        except CheckpointError:
            return set()

    def _files(self, entry: dict) -> list[FileChange]:
        changes = _changes(self.store, steps_of([entry]))
        files = []
        for target, expected in {(c.target, c.expected) for c in changes.values()}:
            mine = {c.path for c in changes.values() if (c.target, c.expected) == (target, expected)}
            files += [f for f in self.store.numstat(target, expected) if f.path in mine]
        return sorted(files, key=lambda f: f.path)

    def plan(self, index: int, step: int = 0) -> Plan:
        """What rewinding the code to before entry `index` (at its step `step`) would restore."""
        entry = self.entries[index]
        steps = steps_of([dict(entry, steps=entry["steps"][step:]), *self.entries[index + 1 :]])
        return self._plan(step, steps)

    def plan_redo(self) -> Plan | None:
        """What undoing the last rewind would restore (None: it did not touch the code); it must be the last."""
        last = self.entries[-1] if self.entries else {}
        if "rewind" not in last:
            raise CheckpointError("there is nothing to redo: /redo takes back a rewind only until the next question.")
        return self._plan(0, [(True, last["before"], last["after"])]) if last["before"] else None

    def _plan(self, step: int, steps: list[tuple[bool, str, str]]) -> Plan:
        if self.broken:
            raise CheckpointError("checkpoints are off for this run, so only the conversation can be rewound.")
        ids = {i for _, before, after in steps for i in (before, after)}
        if missing := ids - self.store.existing(ids):
            raise CheckpointError(
                f"{len(missing)} of the checkpoints needed are no longer in the store (it keeps the current"
                f" conversation's and those of the last {AGE_DAYS} days), so only the conversation can be rewound."
            )
        changes = list(_changes(self.store, steps).values())
        now = self.store.snapshot([self.store.project / c.path for c in changes])
        current = self.store.contents(now, [c.path for c in changes])
        target, expected = _contents(self.store, changes, "target"), _contents(self.store, changes, "expected")
        todo = [c for c in changes if current[c.path] != target[c.path]]
        conflicts = [c.path for c in todo if current[c.path] != expected[c.path]]
        return Plan(step, now, todo, conflicts)

    def _restore(self, plan: Plan, overwrite: bool, why: str) -> tuple[list[str], str]:
        """Restore the plan's files (those someone else changed only when `overwrite`); the snapshot after."""
        changes = [c for c in plan.changes if overwrite or c.path not in plan.conflicts]
        for target in sorted({c.target for c in changes}):
            paths = [c.path for c in changes if c.target == target]
            self.store.restore(target, paths)
            log.info("%s: restored from checkpoint %s: %s", why, target, ", ".join(paths))
        if not overwrite and plan.conflicts:
            log.info("%s: kept, as someone else changed them: %s", why, ", ".join(plan.conflicts))
        return sorted(c.path for c in changes), self.store.snapshot([self.store.project / c.path for c in changes])

    def rewind(self, index: int, plan: Plan | None, conversation: Conversation | None, overwrite: bool) -> list[str]:
        """Go back to before entry `index`: the code when a plan is given, the conversation when one is given.

        The rewind becomes an entry itself, holding what it took away, so /redo can undo it.
        """
        entry = self.entries[index]
        number = sum("turn" in e for e in self.entries[: index + 1])  # as /rewind lists it
        label = f"turn {number}" + (f", step {plan.step + 1}" if plan and plan.step else "")
        if conversation is not None and (entry["messages"] is None or (plan and plan.step)):
            raise CheckpointError(f"the conversation cannot go back to {label}: only its code can.")
        restored: list[str] = []
        before = after = None
        if plan:
            (restored, after), before = self._restore(plan, overwrite, f"rewind to {label}"), plan.now
        record: dict = {"rewind": label, "time": _now(), "before": before, "after": after, "tail": [], "messages": None,
                  "turns": None}  # fmt: skip
        if conversation is not None:
            start = entry["messages"]
            record |= {"tail": self.entries[index:], "messages": conversation.messages[start:],
                       "turns": conversation.turns}  # fmt: skip
            del self.entries[index:], conversation.messages[start:]
            conversation.turns = entry["turn"] - 1
        self.entries.append(record)
        return restored

    def redo(self, plan: Plan | None, conversation: Conversation, overwrite: bool) -> tuple[str, list[str]]:
        """Undo the last rewind (its plan from plan_redo): what it was, and the files restored."""
        record = self.entries.pop()
        restored = self._restore(plan, overwrite, f"redo of the rewind to {record['rewind']}")[0] if plan else []
        self.entries.extend(record["tail"])
        if record["messages"] is not None:
            conversation.messages.extend(record["messages"])
            conversation.turns = record["turns"]
        return record["rewind"], restored

    def forget_conversation(self) -> None:
        """After compression the turns' messages are gone; their code can still be rewound."""

        def forget(entries: list[dict]) -> None:
            for entry in entries:
                entry["messages"] = None
                if "rewind" in entry:
                    forget(entry["tail"])

        forget(self.entries)

    def prune(self) -> None:
        """Delete the snapshots that this conversation does not name and that are older than the store keeps."""
        try:
            if not self.broken:
                self.store.prune(ids_of(self.entries))
        except CheckpointError as e:
            log.warning("prune failed: %s", e)


def _now() -> str:
    return datetime.now().isoformat(timespec="seconds")
