"""Checkpoints of a conversation: the state of the project before and after every Write, Edit and Bash call.

What a conversation keeps is a list of entries (timeline.py), saved with it.
A rewind's plan and its restore, worked out against the store, are plans.py's.
"""

import os
import shutil
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from narnat_agent import state
from narnat_agent.checkpoints.entries import Entry, Rewind, Step, Taken, Turn, ids_of, pairs_of, steps_of, unkept_of
from narnat_agent.checkpoints.git import os_failure
from narnat_agent.checkpoints.git_store import GitStore
from narnat_agent.checkpoints.plans import Plan, changed_files, contents, restore, work_out
from narnat_agent.checkpoints.runs import Journal, Window, others_work
from narnat_agent.checkpoints.store import (
    AGE_DAYS,
    CheckpointError,
    CopyStore,
    FileChange,
    Snapshot,
    Store,
    lost_entries,
    name_of,
)
from narnat_agent.i18n import N_, Said, _, listed, ngettext
from narnat_agent.logger import get_logger

log = get_logger("checkpoints")
NO_COMMANDS = N_("git is not installed: checkpoints keep the files Write and Edit change, not what commands change.")
DAMAGED = N_("The checkpoints saved with this conversation are damaged: its earlier turns cannot be rewound.")


def open_store(project: Path, state_dir: Path, say: Callable[[str], None]) -> Store:
    """The shadow git store, or copies of the touched files when git is not installed."""
    root = state.checkpoints(state_dir)
    return GitStore(project, root / "git", say) if shutil.which("git") else CopyStore(project, root / "files")


def open_checkpoints(project: Path, state_dir: Path, entries: list[Entry], say: Callable[[str], None]) -> "Checkpoints":
    """A conversation's checkpoints over the project's store, beside the journal of the runs that share it."""
    journal = Journal(state.checkpoints(state_dir) / "steps")
    return Checkpoints(open_store(project, state_dir, say), journal, entries, say)


@dataclass(frozen=True)
class Pending:
    """A step whose tool is running: its snapshot before, and the touched paths to snapshot after."""

    label: str  # the call as the UI showed it: Edit(src/app.py)
    before: Snapshot
    touched: list[Path]
    everything: bool  # a command: it may change any file
    start: float  # when the project was last looked at before it: its snapshot before was begun


@dataclass(frozen=True)
class FileDiff:
    """One file as a turn found it and as it left it (None: the file did not exist), for /diff."""

    path: str
    before: bytes | None
    after: bytes | None


@dataclass(frozen=True)
class TurnSummary:
    index: int  # in the entry list
    time: str
    question: str
    files: list[FileChange]
    calls: list[str]  # its steps, as the UI showed them: Edit(src/app.py)
    conversation: bool  # its messages are still in the conversation
    code: bool  # its snapshots are still in the store


Cut = Callable[[int, int], Taken]  # cuts the conversation back to (message, turns), returning what it took


class Checkpoints:
    """The checkpoints of the current conversation; `entries` is the session's list, shared, not copied."""

    def __init__(self, store: Store, journal: Journal, entries: list[Entry], say: Callable[[str], None]):
        self.store, self.journal, self.say = store, journal, say
        self.broken = False  # after the first failure the store is left alone for the rest of the run
        self.said_commands = False
        self.whole: Snapshot | None = None  # the last whole snapshot, with the touched files of those after it
        self.whole_began = 0.0  # when the whole project was last looked at for it
        self.only_calls = False  # nothing but this run's calls ran since `whole` was taken (no reply, no turn)
        self.use(entries)

    def use(self, entries: list[Entry], damaged: bool = False) -> None:
        """Follow another conversation's list; a damaged one (a session file edited by hand) came empty: say so."""
        if damaged:
            self.say(_(DAMAGED))
        self.entries = entries

    def _snapshot(self, touched: Sequence[Path], everything: bool) -> Snapshot | None:
        if self.broken:
            return None
        began = time.time()
        try:
            snapshot = self.store.snapshot(touched, everything)
        except (CheckpointError, OSError) as e:
            self.broken = True
            log.warning("checkpoints off: %s", e)
            self.say(_("Checkpoints are off for this run: {problem}").format(problem=_said(e)))
            return None
        if everything or self.whole:
            known = self.whole.unkept if self.whole and not everything else {}
            self.whole = Snapshot(snapshot.id, known | snapshot.unkept)
            self.whole_began = began if everything else self.whole_began  # the other files are as they were then
            self.only_calls = self.only_calls or everything
        return snapshot

    def warm(self) -> None:
        """Let the store take its first snapshot while the user types the first question."""
        if not self.broken:
            self.store.warm()

    def replied(self) -> None:
        """The model has answered: files may have changed while it wrote, so the next command needs a new look,
        unless the store saw that nothing changed."""
        self.only_calls = False

    def start_turn(self, turn: int, question: str, messages: int) -> None:
        """Mark where a user turn starts: in time, and in the conversation. Its first command's snapshot looks at
        every file again: what a watcher cannot see (a file changed through a hard link from outside the project)
        is then none of this turn's work."""
        self.only_calls = False
        if not self.broken:
            self.store.look_again()
        self.entries.append(Turn(turn, _now(), question, messages))

    def _standing(self) -> Snapshot | None:
        """The last whole snapshot, if the store saw that nothing changed since (but what later snapshots took)."""
        whole = self.whole
        return whole if whole is not None and not self.broken and self.store.standing() == whole.id else None

    def before(self, label: str, touched: Sequence[Path], anything: bool) -> Pending | None:
        """The snapshot before a tool call that may change the touched files (even if ignored), or anything (a
        command); None if none."""
        if anything and not self.store.covers_commands and not self.said_commands:
            self.said_commands = True
            self.say(_(NO_COMMANDS))
        now = time.time()
        # the project cannot differ from the last whole snapshot: nothing but the agent's own calls ran since, or
        # the store saw that nothing changed (the project looked at now)
        standing = self._standing() if anything else None
        reused = standing or (self.whole if anything and self.only_calls else None)
        start = self.whole_began if reused and not standing else now
        touched = [Path(os.path.realpath(p)) for p in touched]  # where a write lands: neither "../" nor a link hides it
        before = reused or self._snapshot(touched, anything)
        return Pending(label[:80], before, touched, anything, start) if before else None

    def after(self, pending: Pending | None) -> None:
        """Record the step once the tool has run, and say at once what of its changes /undo cannot give back; a
        call that changed nothing (a refused one) is no step."""
        if pending is None:
            return
        # a command after which the store saw nothing change: the project is as its snapshot before (the last whole
        # one) holds it
        unchanged = pending.everything and self._standing() is not None
        after = pending.before if unchanged else self._snapshot(pending.touched, pending.everything)
        if after is None:
            return
        before = pending.before.unkept
        # an ignored folder (`name/`) is looked at by whole snapshots only: those of a command
        unkept = {name: why for name, why in (before | after.unkept).items()
                  if before.get(name) != after.unkept.get(name)
                  and (pending.everything or name[-1:] != "/")}  # fmt: skip
        # said at once: files, and folders whose entries went (npm ci); a folder that only grew is named by /undo,
        # when the command changed files it restores (npm install: package.json), not for a cache that grew (pytest)
        said = {name: why for name, why in unkept.items()
                if name[-1:] != "/" or lost_entries(before.get(name), after.unkept.get(name))}  # fmt: skip
        unkept = unkept if after.id != pending.before.id else said
        if said:
            names = ", ".join(f"{name} ({why.reason})" for name, why in said.items())
            self.say(_("{call}: /undo cannot restore {files}.").format(call=pending.label, files=names))
        turn = self.entries[-1] if self.entries else None
        if isinstance(turn, Turn) and (after.id != pending.before.id or unkept):
            step = Step(pending.label, pending.before.id, after.id, tuple(unkept))
            self.entries[-1] = replace(turn, steps=(*turn.steps, step))
            self.journal.note(Window(pending.start, time.time(), pending.before.id, after.id, pending.everything))

    def why_lost(self) -> str:
        """Why the store lacks snapshots this conversation names."""
        if self.broken:
            return _("checkpoints are off for this run")
        began = self.store.began()
        first = next((e.time for e in self.entries if isinstance(e, Turn)), None)
        if began is None or (first and began > datetime.fromisoformat(first).timestamp()):
            return _("the checkpoint store was deleted, or set aside as damaged, since")
        return _("they were pruned: the store keeps this conversation's and those of the last {days} days").format(
            days=AGE_DAYS
        )

    def undo_says(self, paths: list[Path]) -> str:
        """What /undo could give back of these paths should a command delete them, as the question says it ("" for
        none of the project's existing files): the store's last snapshot, taken before the command, holds them or
        not."""
        real = [Path(os.path.realpath(p)) for p in paths if os.path.lexists(p)]
        names = [n for p in real if (n := name_of(self.store.project, p)) and n[0] != "/"]
        if self.broken or not names:
            return ""
        try:
            lost = self.store.lost(names)
        except (CheckpointError, OSError) as e:
            log.warning("what /undo keeps of %s: %s", names, e)
            return ""
        if not lost:
            return Said(N_("/undo can restore it")) if len(names) == 1 else Said(N_("/undo can restore them"))
        why: dict[str, list[str]] = {}
        for name, reason in _lost_of(names, lost).items():
            why.setdefault(reason, []).append(name)
        said = listed([Said(N_("{names} ({why})"), names=", ".join(n), why=reason) for reason, n in why.items()])
        whole = all(any(k.rstrip("/") in _up(n) for k in lost) for n in names)
        if whole:
            return Said(N_("/undo cannot restore {lost}"), lost=said)
        return Said(N_("/undo can restore them, but not {lost}"), lost=said)

    def covers_commands(self) -> bool:
        """Whether what a command changes can be rewound."""
        return self.store.covers_commands and not self.broken

    def turns(self) -> list[TurnSummary]:
        """The turns that can be rewound to, oldest first, with the files the agent changed in each."""
        available = self._available()
        summaries = []
        for index, entry in enumerate(self.entries):
            if isinstance(entry, Turn):
                code = not self.broken and ids_of([entry]) <= available
                files = self._files(entry) if code and entry.steps else []
                calls = [step.call for step in entry.steps]
                summaries.append(
                    TurnSummary(index, entry.time, entry.question, files, calls, entry.messages is not None, code)
                )
        return summaries

    def turn_count(self, end: int | None = None) -> int:
        """The conversation's turns as /rewind numbers them, those before a compression included (of the entries
        before `end`)."""
        return sum(isinstance(e, Turn) for e in self.entries[:end])

    def _available(self) -> set[str]:
        try:
            return set() if self.broken else self.store.existing(ids_of(self.entries))
        except CheckpointError:
            return set()

    def _files(self, entry: Turn) -> list[FileChange]:
        changes = changed_files(self.store, steps_of([entry]))
        files = []
        for target, expected in {(c.target, c.expected) for c in changes.values()}:
            mine = {c.path for c in changes.values() if (c.target, c.expected) == (target, expected)}
            files += [f for f in self.store.numstat(target, expected) if f.path in mine]
        return sorted(files, key=lambda f: f.path)

    def unkept_in(self, index: int) -> list[str]:
        """The files turn `index` changed that no snapshot could keep (too large, not a regular file, unreadable)."""
        return unkept_of([self.entries[index]])

    def diffs(self, index: int) -> list[FileDiff]:
        """Every file turn `index` changed (commands' changes included), before and after it; those no snapshot
        could keep are left out (the turn's listing names them), and so are those it made and removed again."""
        entry = self.entries[index]
        assert isinstance(entry, Turn)
        unkept = unkept_of([entry])
        changes = [c for c in changed_files(self.store, steps_of([entry])).values() if c.path not in unkept]
        before, after = contents(self.store, changes, "target"), contents(self.store, changes, "expected")
        return [FileDiff(c.path, self._data(before[c.path]), self._data(after[c.path]))
                for c in sorted(changes, key=lambda c: c.path)
                if before[c.path] is not None or after[c.path] is not None]  # fmt: skip

    def _data(self, content: str | None) -> bytes | None:
        return None if content is None else self.store.data(content)

    def plan(self, index: int, step: int = 0) -> Plan:
        """What rewinding the code to before entry `index` (at its step `step`) would restore."""
        entry = self.entries[index]
        assert isinstance(entry, Turn)
        span = [replace(entry, steps=entry.steps[step:]), *self.entries[index + 1 :]]
        return self._plan(step, steps_of(span), unkept_of(span))

    def plan_redo(self) -> Plan | None:
        """What undoing the last rewind would restore (None: it did not touch the code); it must be the last."""
        last = self.entries[-1] if self.entries else None
        if not isinstance(last, Rewind):
            raise CheckpointError(
                _("there is nothing to redo: /redo takes back a rewind only until the next question.")
            )
        return self._plan(0, [(True, last.before, last.after)], []) if last.before and last.after else None

    def _plan(self, step: int, steps: list[tuple[bool, str, str]], unkept: list[str]) -> Plan:
        if self.broken:
            raise CheckpointError(_("checkpoints are off for this run, so only the conversation can be rewound."))
        ids = {i for _, before, after in steps for i in (before, after)}
        if missing := ids - self.store.existing(ids):
            gone = ngettext("{n} of the checkpoints needed is no longer in the store ({why}), so only the "
                            "conversation can be rewound.",
                            "{n} of the checkpoints needed are no longer in the store ({why}), so only the "
                            "conversation can be rewound.", len(missing))  # fmt: skip
            raise CheckpointError(gone.format(n=len(missing), why=self.why_lost()))
        span = [(before, after) for by_agent, before, after in steps if by_agent]
        others = others_work(self.store, self.journal.windows(), pairs_of(self.entries), span)
        return work_out(self.store, step, steps, unkept, others)

    def rewind(self, index: int, plan: Plan | None, overwrite: bool, cut: Cut | None = None) -> list[str]:
        """Go back to before entry `index`: the code when a plan is given, the conversation when `cut` is given.

        The rewind becomes an entry itself, holding what it took away, so /redo can undo it.
        """
        entry = self.entries[index]
        assert isinstance(entry, Turn)
        number = self.turn_count(index + 1)  # as /rewind lists it
        label = f"turn {number}" + (f", step {plan.step + 1}" if plan and plan.step else "")  # the model reads it
        if cut and (entry.messages is None or (plan and plan.step)):
            raise CheckpointError(_cannot_go_back(number, plan.step + 1 if plan and plan.step else None))
        restored: list[str] = []
        before = after = None
        if plan:
            (restored, after), before = self._restore(plan, overwrite, f"rewind to {label}"), plan.now
        tail: tuple[Entry, ...] = ()
        taken = None
        if cut and entry.messages is not None:
            tail, taken = tuple(self.entries[index:]), cut(entry.messages, entry.turn - 1)
            del self.entries[index:]
        self.entries.append(Rewind(label, _now(), before, after, tail, taken))
        return restored

    def redo(self, plan: Plan | None, overwrite: bool) -> tuple[Rewind, list[str]]:
        """Undo the last rewind (its plan from plan_redo): the rewind, whose `taken` the caller gives back, and the
        files restored."""
        record = self.entries.pop()
        assert isinstance(record, Rewind)
        restored = self._restore(plan, overwrite, f"redo of the rewind to {record.rewind}")[0] if plan else []
        self.entries.extend(record.tail)
        return record, restored

    def _restore(self, plan: Plan, overwrite: bool, why: str) -> tuple[list[str], str]:
        """The restore, noted in the journal: for another run's command that runs meanwhile, these are not its."""
        began = time.time()
        restored, after = restore(self.store, plan, overwrite, why)
        if after != plan.now:
            self.journal.note(Window(began, time.time(), plan.now, after, False))
        return restored, after

    def forget_conversation(self) -> None:
        """After compression the turns' messages are gone; their code can still be rewound."""
        self.entries[:] = _forget(self.entries)

    def prune(self) -> None:
        """Delete the snapshots that this conversation does not name and that are older than the store keeps."""
        try:
            if not self.broken:
                self.store.prune(ids_of(self.entries))
                self.journal.prune(time.time() - AGE_DAYS * 86400)
        except (CheckpointError, OSError) as e:
            log.warning("prune failed: %s", e)


def _said(error: Exception) -> str:
    """A store failure as one sentence: a file-system error no store call turned into one (a full disk met writing
    Narnat's own file in the store) is said as the store's own are, by its folder, not by a temporary file's name."""
    name = getattr(error, "filename", None)
    if isinstance(error, OSError) and isinstance(name, (str, bytes)):
        return os_failure(error, Path(os.fsdecode(name)).parent)
    return str(error)


def _up(name: str) -> list[str]:
    """A name and the folders above it: a/b/c, a/b, a."""
    parts = name.split("/")
    return ["/".join(parts[:i]) for i in range(len(parts), 0, -1)]


def _lost_of(names: list[str], lost: dict[str, str]) -> dict[str, str]:
    """What a question names as lost: a path inside an ignored folder by its own name, else what the store lacks
    of it (itself, or files and folders under it)."""
    shown: dict[str, str] = {}
    for name in names:
        if any(k.rstrip("/") in _up(name)[1:] for k in lost):
            shown[name] = Said(N_("in a folder .gitignore names"))
        else:
            shown |= {k: why for k, why in lost.items() if k.rstrip("/") == name or k.startswith(f"{name}/")}
    return shown


def _forget(entries: Sequence[Entry]) -> list[Entry]:
    return [
        replace(e, messages=None) if isinstance(e, Turn) else replace(e, tail=tuple(_forget(e.tail)), taken=None)
        for e in entries
    ]


def _cannot_go_back(turn: int, step: int | None) -> str:
    if step is None:
        return _("the conversation cannot go back to turn {turn}: only its code can.").format(turn=turn)
    return _("the conversation cannot go back to turn {turn}, step {step}: only its code can.").format(
        turn=turn, step=step
    )


def _now() -> str:
    return datetime.now().isoformat(timespec="seconds")
