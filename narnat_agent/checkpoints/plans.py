"""A rewind's plan, worked out against the store, and its restore.

A rewind restores only the files the agent changed in the rewound span, each to what it held before the agent's
first change; a file whose content is no longer the agent's last version was changed by someone else since,
and the caller asks before it is overwritten.
"""

from dataclasses import dataclass, replace

from narnat_agent.checkpoints.store import Store
from narnat_agent.logger import get_logger

log = get_logger("checkpoints")


@dataclass(frozen=True)
class Change:
    path: str
    target: str  # the snapshot before the agent's first change: what the rewind brings back
    expected: str  # the snapshot after the last change the agent (or a rewind) made: what the file holds now


@dataclass(frozen=True)
class Plan:
    """A rewind worked out but not done: what it restores, which of those files someone else changed since."""

    step: int
    now: str
    changes: list[Change]
    conflicts: list[str]
    unkept: list[str]  # what the agent changed in the span that no snapshot could keep


def changed_files(store: Store, steps: list[tuple[bool, str, str]]) -> dict[str, Change]:
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


def contents(store: Store, changes: list[Change], field: str) -> dict[str, str | None]:
    """What each file holds in its change's `target` or `expected` snapshot."""
    found: dict[str, str | None] = {}
    for snapshot in {getattr(c, field) for c in changes}:
        found |= store.contents(snapshot, [c.path for c in changes if getattr(c, field) == snapshot])
    return found


def work_out(store: Store, step: int, steps: list[tuple[bool, str, str]], unkept: list[str]) -> Plan:
    """The plan for the steps, from step `step` of their turn: what they changed, against what the files hold now."""
    # a file no snapshot could keep is left as it is: its earlier content is not in the store
    changes = [c for c in changed_files(store, steps).values() if c.path not in unkept]
    now = store.snapshot([store.project / c.path for c in changes], everything=False).id
    current = store.contents(now, [c.path for c in changes])
    target, expected = contents(store, changes, "target"), contents(store, changes, "expected")
    todo = [c for c in changes if current[c.path] != target[c.path]]
    conflicts = [c.path for c in todo if current[c.path] != expected[c.path]]
    return Plan(step, now, todo, conflicts, unkept)


def restore(store: Store, plan: Plan, overwrite: bool, why: str) -> tuple[list[str], str]:
    """Restore the plan's files (those someone else changed only when `overwrite`); the snapshot after."""
    changes = [c for c in plan.changes if overwrite or c.path not in plan.conflicts]
    for target in sorted({c.target for c in changes}):
        paths = [c.path for c in changes if c.target == target]
        store.restore(target, paths)
        log.info("%s: restored from checkpoint %s: %s", why, target, ", ".join(paths))
    if not overwrite and plan.conflicts:
        log.info("%s: kept, as someone else changed them: %s", why, ", ".join(plan.conflicts))
    touched = [store.project / c.path for c in changes]
    return sorted(c.path for c in changes), store.snapshot(touched, everything=False).id
