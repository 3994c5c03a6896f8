"""A goal: the agent works on one task turn after turn until a command the person named passes.

The check runs after every turn that completes, through the Bash tool (its safety analysis included) but outside
the model's control: the model's "done" ends a turn, never the goal. The goal ends when the check passes, when
its turns (`max_turns`), the budget (`max_cost`, `max_tokens_sent`) or a turn's steps (`max_steps`) are spent, when
the check cannot run at all (the shell could not start it: no turn can make it pass), or when the person stops it.
"""

from dataclasses import dataclass, replace
from pathlib import Path

from narnat_agent.conversation.context import with_reminder
from narnat_agent.core.agent import Agent
from narnat_agent.core.turn import GoalRecord, Round, Stop, TurnOutcome, TurnStats
from narnat_agent.i18n import _, listed, ngettext, spoken
from narnat_agent.logger import get_logger
from narnat_agent.safety import analyze
from narnat_agent.tools.verification import Verification

log = get_logger("core.goal")
TAIL = 4000  # characters of a failed check's output the next question carries (its end: errors live there)
STARTED = (
    "This is a goal, worked on over as many turns as it takes. After each of your turns Narnat runs `{until}`; the "
    "goal is met only when that command exits 0, whatever your answer says. Work towards it (run the command "
    "yourself where it helps) and end your turn when you believe it passes."
)
FAILED = "After your last turn Narnat ran `{until}`: {outcome}. The goal is not met yet. The end of its output:"


class GoalRefused(Exception):
    """A goal that cannot start, in one sentence."""


@dataclass(frozen=True)
class Goal:
    text: str
    until: str
    max_turns: int


def split_goal(arg: str) -> tuple[str, str]:
    """`TEXT --until "COMMAND"` as its text and its command (quotes around the whole command removed)."""
    text, found, until = arg.rpartition("--until")
    until = until.strip()
    if len(until) > 1 and until[0] == until[-1] and until[0] in "\"'":
        until = until[1:-1].strip()
    if not found or not text.strip() or not until:
        raise GoalRefused(_('say what to do and how to check it: /goal TEXT --until "COMMAND".'))
    return text.strip(), until


def refusal(until: str, cwd: Path) -> str | None:
    """Why a check cannot be the goal's (it would destroy something or wait for a person); None when it can run
    after every turn unattended."""
    verdict = analyze(until, cwd=cwd)
    reasons = list(dict.fromkeys([*verdict.deletions, *verdict.interactive]))  # file operations are the model's
    if not reasons:
        return None
    why = listed([spoken(reason) for reason in reasons])
    refused = _("The --until command is refused: {why}. Name a command that only checks (tests, a linter, a build).")
    return refused.format(why=why)


def pursue(agent: Agent, goal: Goal) -> TurnOutcome:
    """Turns on the goal until its check passes or something stops it; the last turn's outcome, with the rounds."""
    if agent.planning:
        raise GoalRefused(_("plan mode is on, and a goal changes things: /go or Shift-Tab leaves it first."))
    if why := refusal(goal.until, agent.workspace.root):
        raise GoalRefused(why)
    question = with_reminder(goal.text, [STARTED.format(until=goal.until)])
    rounds: list[Round] = []
    spent: list[TurnStats] = []  # each round's figures: the goal's are their sum
    outcome, stop = TurnOutcome(Stop.COMPLETED), Stop.TURN_LIMIT
    agent.until = goal.until
    try:
        for number in range(1, goal.max_turns + 1):
            outcome = agent.ask(question)
            spent.append(outcome.stats)
            rounds.append(Round(outcome.stop, outcome.stats.check))
            check = outcome.stats.check
            if not outcome.completed or check is None:
                stop = outcome.stop
                break
            log.info("goal round %d: %s", number, check.status)
            if check.status == "passed":
                stop = Stop.COMPLETED
                break
            if check.status == "could_not_run":  # the check itself is broken: no turn can make it pass
                stop = Stop.CHECK_COULD_NOT_RUN
                break
            if number < goal.max_turns:
                agent.ui.notice(_("Round {n} of {max}: {outcome}; going on.").format(n=number, max=goal.max_turns,
                                                                                    outcome=check))  # fmt: skip
            question = _next_question(goal, check, outcome.stats.check_output)
    finally:
        agent.until = None
    record = GoalRecord(goal.until, tuple(rounds), stop)
    message = _cannot_run(goal.until, outcome.stats) if stop is Stop.CHECK_COULD_NOT_RUN else _ending(record)
    (agent.ui.notice if record.verified else agent.ui.warning)(message)
    stats = _summed(spent) if spent else outcome.stats
    return replace(outcome, stop=stop, message=message if not record.verified else "", goal=record, stats=stats)


def _summed(spent: list[TurnStats]) -> TurnStats:
    """The rounds' figures as one run's: what was sent and received in all, every verification in order; the context
    and the model as the last round left them."""
    costs = [s.cost for s in spent if s.cost is not None]
    return replace(
        spent[-1], sent=sum(s.sent for s in spent), cached=sum(s.cached for s in spent),
        completion=sum(s.completion for s in spent), requests=sum(s.requests for s in spent),
        estimated=any(s.estimated for s in spent), cost=sum(costs) if costs else None,
        verifications=[v for s in spent for v in s.verifications], started=spent[0].started,
    )  # fmt: skip


def _next_question(goal: Goal, check: Verification, output: str) -> str:
    """What the model is told after a failed check: the outcome, the end of the output, and the goal again."""
    failed = FAILED.format(until=goal.until, outcome=check.status.replace("_", " ") + _exit(check))
    tail = output[-TAIL:]
    return with_reminder(f"Go on with the goal: {goal.text}", [failed, "```", tail.strip("\n"), "```"])


def _exit(check: Verification) -> str:
    return f" (exit {check.exit_code})" if check.exit_code not in (None, 0) else ""


def _cannot_run(until: str, stats: TurnStats) -> str:
    """A check the shell could not start, with the line that says why (`pnpm: not found`)."""
    lines = [line.strip() for line in stats.check_output.splitlines() if line.strip()]
    why = next((line for line in reversed(lines) if not line.startswith("(exit code")), "")
    code = stats.check.exit_code if stats.check else None
    said = _("Goal stopped: the check {until} could not run (exit {code}: {why}); install what it needs, or give the "
             "goal a command that runs here.")  # fmt: skip
    return said.format(until=until, code=code, why=why)


def _ending(record: GoalRecord) -> str:
    """How the goal ended, in one sentence."""
    n = len(record.rounds)
    if record.verified:
        return ngettext("Goal met: {until} passed after {n} turn.", "Goal met: {until} passed after {n} turns.",
                        n).format(until=record.until, n=n)  # fmt: skip
    last = next((r.check for r in reversed(record.rounds) if r.check), None)
    checked = str(last) if last else _("{until}: not run").format(until=record.until)
    if record.stop is Stop.TURN_LIMIT:
        said = ngettext("Goal not met after {n} turn (max_turns): {checked}.",
                        "Goal not met after {n} turns (max_turns): {checked}.", n)  # fmt: skip
    else:
        said = ngettext("Goal not met: stopped ({stop}) in turn {n}; {checked}.",
                        "Goal not met: stopped ({stop}) in turn {n}; {checked}.", n)  # fmt: skip
    return said.format(n=n, checked=checked, stop=record.stop.value.replace("_", " "))
