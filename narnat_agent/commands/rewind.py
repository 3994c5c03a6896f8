"""/diff /rewind /undo /redo: what a turn changed, back to before a turn (its code, its conversation or both, or one
file) and forward again."""

import difflib
import os
import re
from dataclasses import replace

from narnat_agent.checkpoints import CheckpointError, Cut, Entry, FileChange, FileDiff, Plan, Rewind, Taken, TurnSummary
from narnat_agent.commands import command
from narnat_agent.conversation.window import first_words
from narnat_agent.core.agent import Agent
from narnat_agent.i18n import N_, _, ngettext, sentences, spaced
from narnat_agent.ui import cells

MODES = {"1": (True, True), "2": (False, True), "3": (True, False)}  # (code, conversation)
SHOWN = 6  # file names listed in a report before "and N more"
REWOUND = "The user rewound files to how they were before"  # what the model is told, and /redo takes back
# a whole turn's /diff names these without their lines (a lockfile's thousands would bury the change); /diff N path
# shows them
LONG_DIFF = 400
# past these, diffing and drawing a file (a bundle, a data file on one line) took gigabytes and minutes: a file is
# named with its size, a line cut with the rest counted
SHOWN_BYTES = 1 << 20
LONG_LINE = 1000
LOCKFILES = frozenset({"package-lock.json", "npm-shrinkwrap.json", "pnpm-lock.yaml", "yarn.lock", "bun.lock",
                       "poetry.lock", "uv.lock", "Pipfile.lock", "Cargo.lock", "Gemfile.lock", "composer.lock",
                       "go.sum", "mix.lock", "pubspec.lock", "Podfile.lock", "flake.lock"})  # fmt: skip


@command(
    N_("/diff [N] [path]"),
    N_("what turn N changed (default: the last), every file or one, commands' changes too"),
    at_once=True,
)
def diff(agent: Agent, arg: str) -> None:
    turns = agent.checkpoints.turns()
    if not turns:
        agent.ui.info(_("Nothing to show: this conversation has no turns yet."))
        return
    number, __, path = arg.partition(" ") if arg[:1].isdigit() else (str(len(turns)), "", arg)
    summary = _choose(turns, number)[0]
    if not summary.code:
        raise CheckpointError(
            _("the files of that turn cannot be shown ({why}).").format(why=agent.checkpoints.why_lost())
        )
    changes = [c for c in agent.checkpoints.diffs(summary.index) if not path.strip() or c.path == path.strip()]
    # what the turn changed that no checkpoint could keep (a file a command made unreadable): named, never taken
    # for no change
    left = ", ".join(_name_line(n) for n in agent.checkpoints.unkept_in(summary.index)
                     if not path.strip() or n == path.strip())  # fmt: skip
    if not changes:
        unchanged = _("Turn {turn} did not change {path}.") if path.strip() else _("Turn {turn} changed no file.")
        if left:
            unchanged = _("Turn {turn} changed only what no checkpoint could keep, so it cannot be shown: {files}.")
        agent.ui.info(unchanged.format(turn=number, path=path.strip(), files=left))
        return
    title = ngettext("Turn {turn} changed {n} file: {question}", "Turn {turn} changed {n} files: {question}",
                     len(changes))  # fmt: skip
    agent.ui.info(title.format(turn=number, n=len(changes), question=first_words(summary.question, 60)))
    for change in changes:
        title, lines = _unified(change)
        if not path.strip() and (lines.count("\n") >= LONG_DIFF or change.path.rsplit("/", 1)[-1] in LOCKFILES):
            title, lines = _("{title} · not shown: /diff {turn} {path}").format(
                title=title, turn=number, path=_name_line(change.path)), ""  # fmt: skip
        agent.ui.review(title, lines)
    if left:
        agent.ui.info(_("Also changed, but no checkpoint could keep it to show: {files}.").format(files=left))


def _unified(change: FileDiff) -> tuple[str, str]:
    """A file's title line (what happened to it, lines added and removed) and its unified diff."""
    before, after = change.before or b"", change.after or b""
    if b"\0" in before or b"\0" in after:
        return _("{path} (binary, {size:,} bytes)").format(path=_name_line(change.path), size=len(after)), ""
    if max(len(before), len(after)) > SHOWN_BYTES:
        large = _("{path} (too large to show: {size:,} bytes)")
        return large.format(path=_name_line(change.path), size=len(after or before)), ""
    old, new = before.decode("utf-8", "replace").splitlines(), after.decode("utf-8", "replace").splitlines()
    lines = list(difflib.unified_diff(old, new, lineterm=""))[2:]  # the title stands for the --- and +++ lines
    added = sum(line.startswith("+") for line in lines)
    removed = sum(line.startswith("-") for line in lines)
    if change.before is None:
        title = _("{path} (created, +{added})")
    elif change.after is None:
        title = _("{path} (deleted, -{removed})")
    else:
        title = _("{path} (+{added} -{removed})")
    return title.format(path=_name_line(change.path), added=added, removed=removed), "\n".join(map(_cut, lines))


def _cut(line: str) -> str:
    if len(line) <= LONG_LINE:
        return line
    more = len(line) - LONG_LINE
    rest = ngettext("… {n} more character", "… {n} more characters", more)
    return f"{line[:LONG_LINE]} {rest.format(n=f'{more:,}')}"


def _name_line(name: str) -> str:
    """A file's name on one line: a newline in it (`x\n● secrets.txt (deleted, -120)`) would forge a line of the
    review; shown as `\n`, as the terminal's other controls are shown."""
    return name.replace("\n", "\\n")


@command(N_("/rewind [N or N.S] [path]"),
         N_("go back to before turn N (or its step S): code, conversation or both; or one file"))  # fmt: skip
def rewind(agent: Agent, arg: str) -> None:
    turns = agent.checkpoints.turns()
    if not turns:
        agent.ui.info(_("Nothing to rewind: this conversation has no turns yet."))
        return
    if " " in arg:
        _rewind_file(agent, turns, *arg.split(" ", 1))
        return
    if not arg:
        agent.ui.info(_listing(turns, agent.checkpoints.entries))
        arg = _ask(agent, _("Rewind to before turn (N, or N.S for a step inside it; empty to cancel)"))
        if not arg:
            agent.ui.notice(_("Nothing rewound."))
            return
    summary, step = _choose(turns, arg)
    code, conversation = _mode(agent, summary, step, arg)
    if code or conversation:
        _go_back(agent, summary, step, code, conversation)


@command("/undo", N_("take back the last turn: its code and its conversation (/redo brings them back)"))
def undo(agent: Agent, arg: str) -> None:
    turns = agent.checkpoints.turns()
    if not turns:
        agent.ui.info(_("Nothing to undo: this conversation has no turns yet."))
        return
    last, why = turns[-1], agent.checkpoints.why_lost()
    if not (last.code or last.conversation):
        raise CheckpointError(_("turn {turn} cannot be taken back: its conversation was compressed and {why}.")
                              .format(turn=len(turns), why=why))  # fmt: skip
    if not last.code:
        agent.ui.notice(_("The files of turn {turn} cannot be restored ({why}); only its conversation is taken back.")
                        .format(turn=len(turns), why=why))  # fmt: skip
    _go_back(agent, last, 0, last.code, last.conversation)


@command("/redo", N_("undo the last /rewind or /undo: its code and conversation come back"))
def redo(agent: Agent, arg: str) -> None:
    checkpoints = agent.checkpoints
    plan = checkpoints.plan_redo()
    overwrite = _overwrite(agent, plan) if plan else False
    record, restored = checkpoints.redo(plan, overwrite)
    if record.taken:
        agent.conversation.messages.extend(record.taken.messages)
        agent.conversation.turns = record.taken.turns
    what = record.rewind
    turn, step = _target(what)
    redone = (
        _("Redone: the rewind to before turn {turn}, step {step} is taken back.")
        if step
        else _("Redone: the rewind to before turn {turn} is taken back.")
    )
    agent.ui.notice(sentences(redone.format(turn=turn, step=step), *_files(agent, restored, plan, overwrite)))
    if record.taken:  # the conversation that showed what the model read is back
        agent.workspace.bring_back()
    agent.workspace.restored([agent.workspace.root / path for path in restored])
    told = f"{REWOUND} {what}:"
    if pending := [note for note in agent.session.notes if note.startswith(told)]:
        agent.session.notes = [note for note in agent.session.notes if note not in pending]  # no longer true
    elif restored and not record.taken:  # with the conversation back, the files are as it shows them
        _tell_model(agent, f"The user took back a rewind to before {what}, which restored files", restored)
    _measure_again(agent)


def _rewind_file(agent: Agent, turns: list[TurnSummary], number: str, path: str) -> None:
    """One file back to how it was before turn N (its later changes undone too); the conversation stays."""
    summary = _choose(turns, number)[0]
    path = path.strip()
    plan = agent.checkpoints.plan(summary.index)
    if path not in [c.path for c in plan.changes]:
        raise CheckpointError(
            _("there is nothing to restore in {path}: the agent did not change it from turn {turn} on, or it is "
              "as it was then.")
            .format(path=path, turn=number)
        )  # fmt: skip
    question = _("restore {path} to before turn {turn}; the conversation stays as it is").format(path=path, turn=number)
    if not agent.ui.confirm(f"/rewind {number} {path}", question):
        agent.ui.notice(_("Nothing rewound."))
        return
    _go_back(agent, summary, 0, code=True, conversation=False, only=path)


def _tell_model(agent: Agent, what: str, files: list[str]) -> None:
    agent.session.notes.append(
        f"{what}: {', '.join(files)}. Their content on disk may differ from what this "
        "conversation shows; Read a file again before relying on it."
    )


def _listing(turns: list[TurnSummary], entries: list[Entry]) -> str:
    """The turns with their files and steps, and the code rewinds made since (the lines above them still count
    what the turns changed, not what is on disk now)."""
    columns = ((_("time"), 5), (_("files"), 5), (_("lines"), 11))
    lines = ["   #  " + "  ".join(cells.ljust(title, width) for title, width in columns) + "  " + _("question")]
    for n, turn in enumerate(turns, 1):
        first = " ".join(turn.question.strip().split("\n", 1)[0].split())[:50]
        added, removed = _totals(turn.files)
        changes = f"{len(turn.files):5}  {f'+{added} -{removed}':11}" if turn.files else f"{'':5}  {'':11}"
        gone = "" if turn.code else spaced(_("(its files can no longer be restored)"), "  ")
        gone += "" if turn.conversation else spaced(_("(compressed: code only)"), "  ")
        lines.append(f"{n:4}  {turn.time[11:16]}  {changes}  {first}{gone}")
        if len(turn.calls) > 1:
            lines += [f"{'':13}{n}.{s}  {_one_line(call)}" for s, call in enumerate(turn.calls, 1)]
        later = entries[turn.index + 1 : turns[n].index if n < len(turns) else len(entries)]
        lines += [f"   ↶  {e.time[11:16]}  {_rewound(e)}" for e in later if isinstance(e, Rewind) and e.before]
    return "\n".join(lines)


def _target(label: str) -> tuple[int, int]:
    """The turn and step (0: the whole turn) of a rewind's label: "turn 2", "turn 2, step 3"."""
    found = re.fullmatch(r"turn (\d+)(?:, step (\d+))?", label)
    assert found, label
    return int(found[1]), int(found[2] or 0)


def _rewound(rewind: Rewind) -> str:
    """What a rewind of the code took back: the code alone, or the conversation with it (/undo)."""
    turn, step = _target(rewind.rewind)
    if step:
        return _("code rewound to before turn {turn}, step {step}").format(turn=turn, step=step)
    if rewind.taken:
        return _("code and conversation rewound to before turn {turn}").format(turn=turn)
    return _("code rewound to before turn {turn}").format(turn=turn)


def _one_line(call: str) -> str:
    """A call as one line of the table, its line breaks marked."""
    return " ⏎ ".join(line.strip() for line in call.splitlines() if line.strip())


def _ask(agent: Agent, question: str, default: str = "") -> str:
    """An answer from the user; Ctrl-C or Ctrl-D is no answer."""
    try:
        return agent.ui.ask(question, default).strip()
    except (KeyboardInterrupt, EOFError):
        return ""


def _choose(turns: list[TurnSummary], arg: str) -> tuple[TurnSummary, int]:
    number, __, step = arg.partition(".")
    if not number.isdigit() or (step and not step.isdigit()):
        raise CheckpointError(
            _("'{arg}' is not a turn: give a number from 1 to {last}, or N.S for a step.").format(
                arg=arg, last=len(turns)
            )
        )
    if not 1 <= int(number) <= len(turns):
        raise CheckpointError(
            _("There is no turn {n}: the turns go from 1 to {last}.").format(n=int(number), last=len(turns))
        )
    return turns[int(number) - 1], max(int(step or 1) - 1, 0)


def _mode(agent: Agent, turn: TurnSummary, step: int, label: str) -> tuple[bool, bool]:
    """What to rewind, asked (an empty answer cancels); a step or a compressed turn can only restore code."""
    if (step or not turn.conversation) and not turn.code:
        raise CheckpointError(
            _("the files of that turn cannot be restored ({why}).").format(why=agent.checkpoints.why_lost())
        )
    if step:
        question = _("restore the code to before step {step}; the conversation stays as it is").format(step=label)
        answer = "3" if agent.ui.confirm(f"/rewind {label}", question) else ""
    elif not turn.conversation:
        answer = "3"
    elif not turn.code:
        agent.ui.notice(_("The files of that turn cannot be restored ({why}); only the conversation can.")
                        .format(why=agent.checkpoints.why_lost()))  # fmt: skip
        return False, True
    else:
        answer = _ask(agent, _("Restore 1) code and conversation  2) conversation only  3) code only (empty cancels)"))
    if answer not in MODES:
        agent.ui.notice(_("Nothing rewound."))
        return False, False
    return MODES[answer]


def _go_back(agent: Agent, turn: TurnSummary, step: int, code: bool, conversation: bool, only: str = "") -> None:
    checkpoints = agent.checkpoints
    plan = checkpoints.plan(turn.index, step) if code else None
    if plan and only:  # one file of the plan
        plan = replace(plan, changes=[c for c in plan.changes if c.path == only],
                       conflicts=[p for p in plan.conflicts if p == only], unkept=[])  # fmt: skip
    overwrite = _overwrite(agent, plan) if plan else False
    changed = {f.path for t in checkpoints.turns() if t.index >= turn.index for f in t.files}
    restored = checkpoints.rewind(turn.index, plan, overwrite, _cutter(agent) if conversation else None)
    record = checkpoints.entries[-1]
    assert isinstance(record, Rewind)
    what = record.rewind
    agent.ui.notice(sentences(_rewind_done(what, bool(plan), conversation), *_files(agent, restored, plan, overwrite),
                              _("/redo takes it back until your next question.")))  # fmt: skip
    agent.workspace.restored([agent.workspace.root / path for path in restored])
    if restored and not conversation:  # the history still shows the changes: the model must hear they are gone
        _tell_model(agent, f"{REWOUND} {what}", restored)
    if conversation:
        _measure_again(agent)
        # the files those turns changed, restored or not, are no longer as the conversation shows them: read again;
        # what the model read of the others still holds
        agent.workspace.forget(
            [agent.workspace.root / path for path in changed.union(restored)], len(agent.conversation.messages)
        )
        agent.ui.give_back(turn.question.split("\n\n<system-reminder>", 1)[0])  # what the person typed, not Narnat


def _rewind_done(label: str, code: bool, conversation: bool) -> str:
    """What a rewind went back to, in one sentence (a step's rewind restores only code)."""
    turn, step = _target(label)
    if step:
        said = _("Rewound to before turn {turn}, step {step}: code.")
    elif code and conversation:
        said = _("Rewound to before turn {turn}: code and conversation.")
    else:
        said = _("Rewound to before turn {turn}: code.") if code else _("Rewound to before turn {turn}: conversation.")
    return said.format(turn=turn, step=step)


def _measure_again(agent: Agent) -> None:
    """The conversation is shorter or longer than the last request measured: the status line estimates what it
    holds now, until the next request counts it."""
    agent.conversation.last_prompt_tokens = 0
    agent.show_status()


def _cutter(agent: Agent) -> Cut:
    """Cuts the conversation back to where a turn started, and hands over what it took, for /redo."""

    def cut(start: int, turns: int) -> Taken:
        conversation = agent.conversation
        taken = Taken(conversation.messages[start:], conversation.turns)
        del conversation.messages[start:]
        conversation.turns = turns
        return taken

    return cut


def _overwrite(agent: Agent, plan: Plan) -> bool:
    """Whether to overwrite the files someone else changed after the agent, or may have changed with it; asked,
    every one of them named, and no unless said."""
    if not (plan.conflicts or plan.shared):
        return False
    if plan.conflicts:
        agent.ui.warning(_("Changed since the agent's last change (by you or another program): {names}")
                         .format(names=", ".join(plan.conflicts)))  # fmt: skip
    if plan.shared:
        agent.ui.warning(_("Changed by another narnat run in this project while the agent's commands ran, so maybe "
                           "that run's work: {names}").format(names=", ".join(plan.shared)))  # fmt: skip
    return agent.ui.confirm(_names(plan.conflicts + plan.shared), _("overwrite them with the checkpoint"))


def _files(agent: Agent, restored: list[str], plan: Plan | None, overwrite: bool) -> list[str]:
    """What a restore did to the files, in a sentence or two: those it brought back, and those it removed, which
    did not exist at the point it went to."""
    if plan is None:
        return []
    back = [path for path in restored if os.path.lexists(agent.workspace.root / path)]
    removed = [path for path in restored if path not in back]
    said = [ngettext("Restored {n} file: {names}.", "Restored {n} files: {names}.", len(back))
            .format(n=len(back), names=_names(back))] if back else []  # fmt: skip
    if removed:
        said.append(ngettext("Removed {n} file that did not exist then: {names}.",
                             "Removed {n} files that did not exist then: {names}.", len(removed))
                    .format(n=len(removed), names=_names(removed)))  # fmt: skip
    said = said or [_("No file needed restoring.")]
    if kept := [] if overwrite else plan.conflicts:
        said.append(_("Kept as changed since: {names}.").format(names=_names(kept)))
    if kept := [] if overwrite else plan.shared:
        said.append(_("Kept, as another narnat run changed them too: {names}.").format(names=_names(kept)))
    if plan.left:
        said.append(_("Left as they are, being no longer files a checkpoint keeps (a folder now, or too large): "
                      "{names}.").format(names=_names(plan.left)))  # fmt: skip
    if plan.unkept:
        said.append(_("Could not restore (never kept in a checkpoint): {names}.").format(names=_names(plan.unkept)))
    return said


def _names(paths: list[str]) -> str:
    shown = ", ".join(map(_name_line, paths[:SHOWN]))  # a newline in one would forge a line of the report
    return _("{names} and {n} more").format(names=shown, n=len(paths) - SHOWN) if len(paths) > SHOWN else shown


def _totals(files: list[FileChange]) -> tuple[int, int]:
    return sum(f.added or 0 for f in files), sum(f.removed or 0 for f in files)
