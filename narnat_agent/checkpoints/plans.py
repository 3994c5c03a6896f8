"""A rewind's plan, worked out against the store, and its restore.

A rewind restores only the files the agent changed in the rewound span, each to what it held before the agent's
first change; a file whose content is no longer the agent's last version was changed by someone else since, and
one that another run changed too while one of the agent's commands ran may be that run's work: the caller asks
before either is overwritten. A path that is no longer a file a snapshot can keep (the person made it a folder, or
too large) is left as it is, whatever the answer: nothing could bring back what a restore would remove there.
"""

from dataclasses import dataclass, field, replace

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
    left: list[str] = field(default_factory=list)  # no longer files a snapshot can keep: left as they are
    shared: list[str] = field(default_factory=list)  # also changed by another run while an agent's command ran


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


def work_out(store: Store, step: int, steps: list[tuple[bool, str, str]], unkept: list[str],
             others: set[str]) -> Plan:  # fmt: skip
    """The plan for the steps, from step `step` of their turn: what they changed, against what the files hold now;
    `others` are the files another run changed while one of the steps' commands ran."""
    # a file no snapshot could keep is left as it is: its earlier content is not in the store
    changes = [c for c in changed_files(store, steps).values() if c.path not in unkept]
    taken = store.snapshot([store.project / c.path for c in changes], everything=False)
    left = sorted(c.path for c in changes if c.path in taken.unkept)
    changes = [c for c in changes if c.path not in taken.unkept]
    current = store.contents(taken.id, [c.path for c in changes])
    target, expected = contents(store, changes, "target"), contents(store, changes, "expected")
    todo = [c for c in changes if current[c.path] != target[c.path]]
    conflicts = [c.path for c in todo if current[c.path] != expected[c.path]]
    shared = sorted(c.path for c in todo if c.path in others and c.path not in conflicts)
    return Plan(step, taken.id, todo, conflicts, unkept, left, shared)


def restore(store: Store, plan: Plan, overwrite: bool, why: str) -> tuple[list[str], str]:
    """Restore the plan's files (those someone else changed, or may have, only when `overwrite`); the snapshot
    after."""
    doubtful = set(plan.conflicts) | set(plan.shared)
    changes = [c for c in plan.changes if overwrite or c.path not in doubtful]
    for target in sorted({c.target for c in changes}):
        paths = [c.path for c in changes if c.target == target]
        store.restore(target, paths)
        log.info("%s: restored from checkpoint %s: %s", why, target, ", ".join(paths))
    if not overwrite and plan.conflicts:
        log.info("%s: kept, as someone else changed them: %s", why, ", ".join(plan.conflicts))
    if not overwrite and plan.shared:
        log.info("%s: kept, as another run changed them too: %s", why, ", ".join(plan.shared))
    if plan.left:
        log.info("%s: left as they are, no longer files a checkpoint keeps: %s", why, ", ".join(plan.left))
    touched = [store.project / c.path for c in changes]
    return sorted(c.path for c in changes), store.snapshot(touched, everything=False).id
