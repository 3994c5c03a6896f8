"""/rewind /undo /redo: back to before a turn (its code, its conversation or both) and forward again."""

from narnat_agent.checkpoints import CheckpointError, Cut, Entry, FileChange, Plan, Rewind, Taken, TurnSummary
from narnat_agent.core.agent import Agent

MODES = {"1": (True, True), "2": (False, True), "3": (True, False)}  # (code, conversation)
SHOWN = 6  # file names listed in a report before "and N more"


def rewind(agent: Agent, arg: str) -> None:
    """/rewind [N or N.S] — go back to before turn N (or its step S): code, conversation or both."""
    turns = agent.checkpoints.turns()
    if not turns:
        agent.ui.info("Nothing to rewind: this conversation has no turns yet.")
        return
    if not arg:
        agent.ui.info(_listing(turns, agent.checkpoints.entries))
        arg = _ask(agent, "Rewind to before turn (N, or N.S for a step inside it; empty to cancel)")
        if not arg:
            agent.ui.notice("Nothing rewound.")
            return
    summary, step = _choose(turns, arg)
    code, conversation = _mode(agent, summary, step, arg)
    if code or conversation:
        _go_back(agent, summary, step, code, conversation)


def undo(agent: Agent, arg: str) -> None:
    """/undo — take back the last turn: its code and its conversation (/redo brings them back)."""
    turns = agent.checkpoints.turns()
    if not turns:
        agent.ui.info("Nothing to undo: this conversation has no turns yet.")
        return
    last = turns[-1]
    if not (last.code or last.conversation):
        raise CheckpointError(f"turn {len(turns)} cannot be taken back: its conversation was compressed and "
                              f"{agent.checkpoints.why_lost()}.")  # fmt: skip
    if not last.code:
        agent.ui.notice(f"The files of turn {len(turns)} cannot be restored ({agent.checkpoints.why_lost()}); "
                        "only its conversation is taken back.")  # fmt: skip
    _go_back(agent, last, 0, last.code, last.conversation)


def redo(agent: Agent, arg: str) -> None:
    """/redo — undo the last /rewind or /undo: its code and conversation come back."""
    checkpoints = agent.checkpoints
    plan = checkpoints.plan_redo()
    overwrite = _overwrite(agent, plan) if plan else False
    record, restored = checkpoints.redo(plan, overwrite)
    if record.taken:
        agent.conversation.messages.extend(record.taken.messages)
        agent.conversation.turns = record.taken.turns
    what = record.rewind
    agent.ui.notice(f"Redone: the rewind to before {what} is taken back.{_files(restored, plan, overwrite)}")
    agent.workspace.restored([agent.workspace.root / path for path in restored])
    if restored:
        _tell_model(agent, f"The user took back a rewind to before {what}, which restored files", restored)
    _context_unknown(agent)


def _tell_model(agent: Agent, what: str, files: list[str]) -> None:
    agent.session.notes.append(f"{what}: {', '.join(files)}. Their content on disk may differ from what this "
                               "conversation shows; Read a file again before relying on it.")  # fmt: skip


def _listing(turns: list[TurnSummary], entries: list[Entry]) -> str:
    """The turns with their files and steps, and the code rewinds made since (the lines above them still count
    what the turns changed, not what is on disk now)."""
    lines = ["   #  time   files  lines        question"]
    for n, turn in enumerate(turns, 1):
        first = " ".join(turn.question.strip().split("\n", 1)[0].split())[:50]
        added, removed = _totals(turn.files)
        changes = f"{len(turn.files):5}  {f'+{added} -{removed}':11}" if turn.files else f"{'':5}  {'':11}"
        gone = "" if turn.code else "  (its files can no longer be restored)"
        gone += "" if turn.conversation else "  (compressed: code only)"
        lines.append(f"{n:4}  {turn.time[11:16]}  {changes}  {first}{gone}")
        if len(turn.calls) > 1:
            lines += [f"{'':13}{n}.{s}  {_one_line(call)}" for s, call in enumerate(turn.calls, 1)]
        later = entries[turn.index + 1 : turns[n].index if n < len(turns) else len(entries)]
        lines += [f"   ↶  {e.time[11:16]}  code rewound to before {e.rewind}"
                  for e in later if isinstance(e, Rewind) and e.before]  # fmt: skip
    return "\n".join(lines)


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
    number, _, step = arg.partition(".")
    if not number.isdigit() or not 1 <= int(number) <= len(turns) or (step and not step.isdigit()):
        raise CheckpointError(f"'{arg}' is not a turn: give a number from 1 to {len(turns)}, or N.S for a step.")
    return turns[int(number) - 1], max(int(step or 1) - 1, 0)


def _mode(agent: Agent, turn: TurnSummary, step: int, label: str) -> tuple[bool, bool]:
    """What to rewind, asked (an empty answer cancels); a step or a compressed turn can only restore code."""
    if (step or not turn.conversation) and not turn.code:
        raise CheckpointError(f"the files of that turn cannot be restored ({agent.checkpoints.why_lost()}).")
    if step:
        question = f"Restore the code to before step {label}? The conversation stays as it is. y/N"
        answer = "3" if _ask(agent, question).lower() in ("y", "yes") else ""
    elif not turn.conversation:
        answer = "3"
    elif not turn.code:
        agent.ui.notice(f"The files of that turn cannot be restored ({agent.checkpoints.why_lost()});"
                        " only the conversation can.")  # fmt: skip
        return False, True
    else:
        answer = _ask(agent, "Restore 1) code and conversation  2) conversation only  3) code only (empty cancels)")
    if answer not in MODES:
        agent.ui.notice("Nothing rewound.")
        return False, False
    return MODES[answer]


def _go_back(agent: Agent, turn: TurnSummary, step: int, code: bool, conversation: bool) -> None:
    checkpoints = agent.checkpoints
    plan = checkpoints.plan(turn.index, step) if code else None
    overwrite = _overwrite(agent, plan) if plan else False
    restored = checkpoints.rewind(turn.index, plan, overwrite, _cutter(agent) if conversation else None)
    record = checkpoints.entries[-1]
    assert isinstance(record, Rewind)
    what = record.rewind
    parts = " and ".join(part for part, done in (("code", plan), ("conversation", conversation)) if done)
    agent.ui.notice(f"Rewound to before {what}: {parts}.{_files(restored, plan, overwrite)} "
                    "/redo takes it back until your next question.")  # fmt: skip
    agent.workspace.restored([agent.workspace.root / path for path in restored])
    if restored and not conversation:  # the history still shows the changes: the model must hear they are gone
        _tell_model(agent, f"The user rewound files to how they were before {what}", restored)
    if conversation:
        _context_unknown(agent)
        agent.workspace.reads.clear()  # the model no longer holds what it read in those turns: it reads again
        agent.ui.give_back(turn.question)


def _context_unknown(agent: Agent) -> None:
    """The conversation is shorter or longer than the last request measured, until the next one does."""
    agent.conversation.last_prompt_tokens = 0
    agent.ui.context_unknown()


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
    """Whether to overwrite the files someone else changed after the agent; asked, and no unless said."""
    if not plan.conflicts:
        return False
    agent.ui.warning(f"Changed since the agent's last change (by you or another program): {_names(plan.conflicts)}")
    return _ask(agent, "Overwrite them with the checkpoint? y/N", "n").lower() in ("y", "yes")


def _files(restored: list[str], plan: Plan | None, overwrite: bool) -> str:
    """What a restore did to the files, in a sentence or two."""
    if plan is None:
        return ""
    plural = "s" if len(restored) != 1 else ""
    text = f" Restored {len(restored)} file{plural}: {_names(restored)}." if restored else " No file needed restoring."
    kept = [] if overwrite else plan.conflicts
    text += f" Kept as changed since: {_names(kept)}." if kept else ""
    return text + (f" Could not restore (never kept in a checkpoint): {_names(plan.unkept)}." if plan.unkept else "")


def _names(paths: list[str]) -> str:
    more = f" and {len(paths) - SHOWN} more" if len(paths) > SHOWN else ""
    return ", ".join(paths[:SHOWN]) + more


def _totals(files: list[FileChange]) -> tuple[int, int]:
    return sum(f.added or 0 for f in files), sum(f.removed or 0 for f in files)
