"""How a turn went: its figures while it runs, and its outcome, which the REPL, headless mode and exit codes read."""

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum

from narnat_agent.i18n import in_english
from narnat_agent.provider.reply import Reply
from narnat_agent.tools.verification import Verification

# an answer that says the work is done or the checks pass; the words just before a match may take it back
CLAIM = re.compile(r"\b(?:all (?:the )?tests (?:now )?pass\w*|tests? (?:now )?pass(?:es|ed)?|"
                   r"(?:is|are) (?:now )?passing|passes now|fixed|works(?: now)?|done|complete[ds]?|succeed(?:s|ed)|"
                   r"successful(?:ly)?|verified)\b"
                   r"|✅|全部通过|测试通过|已修复|已完成", re.IGNORECASE)  # fmt: skip
NEGATION = re.compile(r"\b(?:not|no|never|yet|cannot|couldn't|isn't|aren't|wasn't|hasn't|haven't|still)\W+(?:\w+\W+)?$"
                      r"|[没未不]\w{0,2}$", re.IGNORECASE)  # fmt: skip


class Cancelled(Exception):
    """The user stopped the turn (Esc or Ctrl-C): the one way a cancel travels inside the core."""


class Stop(Enum):
    """Why a turn ended; the value is the stable, machine-readable name."""

    COMPLETED = "completed"
    CANCELLED = "cancelled"
    STEP_LIMIT = "step_limit"
    REPEATED_CALLS = "repeated_calls"
    CUT_OFF = "cut_off"
    CONFIRMATION_REFUSED = "confirmation_refused"
    BUDGET = "budget"
    TURN_LIMIT = "turn_limit"  # a goal's turns (max_turns) were spent before its check passed
    CHECK_COULD_NOT_RUN = "check_could_not_run"  # a goal's check could not start (exit 126, 127)
    PROVIDER_ERROR = "provider_error"
    FAILED = "failed"

    @property
    def kind(self) -> str:
        """completed, cancelled, stopped (ended early on purpose) or failed (something broke)."""
        if self in (Stop.COMPLETED, Stop.CANCELLED):
            return self.value
        return "failed" if self in (Stop.PROVIDER_ERROR, Stop.FAILED) else "stopped"


class TurnStopped(Exception):
    """The turn ends early with a sentence (repeated calls, step limit, cut-off answer): `say` gives it in the
    interface's language for the user, and in English for the model, which reads it for the calls left open (what
    the model receives never depends on the locale)."""

    def __init__(self, stop: Stop, say: Callable[[], str]):
        super().__init__(say())
        self.stop = stop
        self.for_model = in_english(say)


@dataclass
class TurnStats:
    """Token figures of one turn: the context it ended with and what it sent and received in all."""

    context_window: int = 0
    context: int = 0  # prompt tokens of the latest request: how full the context is
    sent: int = 0  # prompt tokens over all the turn's requests
    cached: int = 0  # of which the provider had cached
    completion: int = 0
    requests: int = 0  # sent, retries and failures included
    estimated: bool = False
    cost: float | None = None
    session_cost: float | None = None
    model: str = ""  # the model that answered
    model_from: int = 0  # the turn from which /model's choice answers; 0 while the configured model does
    started: float = field(default_factory=time.monotonic)
    ended: float | None = None  # set when the turn is over: its duration stays what it was
    verifications: list[Verification] = field(default_factory=list)  # every one, in the order they ran
    check: Verification | None = None  # a goal's check, run by Narnat after the turn
    check_output: str = ""  # what the check printed, as the model would read it
    unproven: Verification | None = None  # the answer claims success, but this verification failed last

    def verified(self, verification: Verification | None) -> None:
        if verification is not None:
            self.verifications.append(verification)

    @property
    def latest(self) -> list[Verification]:
        """The last outcome of each verification command, in the order they last ran."""
        last = {v.command: v for v in self.verifications}
        return sorted(last.values(), key=self.verifications.index)

    @property
    def suite(self) -> Verification | None:
        """The latest verification that ran a whole suite rather than part of one: a goal's check, run after the
        turn, is the latest of all."""
        ran = [*self.verifications, *([self.check] if self.check else [])]
        return next((v for v in reversed(ran) if not v.filtered), None)

    def judge(self, answer: str) -> None:
        """An answer that claims success while the last verification (the goal's check, else the model's own)
        failed is marked: the footer and the JSON say so."""
        last = self.check or (self.verifications[-1] if self.verifications else None)
        if last is not None and last.status != "passed" and claims_success(answer):
            self.unproven = last

    def add(self, reply: Reply, price: float | None) -> None:
        usage = reply.usage
        if usage is None:
            return
        self.context = usage.prompt
        self.sent += usage.prompt
        self.cached += usage.cached
        self.completion += usage.completion
        self.estimated = self.estimated or usage.estimated
        if price is not None:
            self.cost = (self.cost or 0.0) + price

    def end(self) -> None:
        self.ended = time.monotonic()

    @property
    def seconds(self) -> float:
        return (self.ended or time.monotonic()) - self.started


@dataclass(frozen=True)
class Round:
    """One turn of a goal: how it ended, and what the goal's check said after it."""

    stop: Stop
    check: Verification | None  # None: the turn did not complete, so the check did not run


@dataclass(frozen=True)
class GoalRecord:
    until: str
    rounds: tuple[Round, ...]
    stop: Stop  # COMPLETED: the check passed; TURN_LIMIT, CHECK_COULD_NOT_RUN, or why the last turn ended early

    @property
    def verified(self) -> bool:
        return self.stop is Stop.COMPLETED


@dataclass(frozen=True)
class TurnOutcome:
    stop: Stop
    message: str = ""  # one sentence saying why, when the turn did not complete
    answer: str = ""  # the turn's last assistant text
    stats: TurnStats = field(default_factory=TurnStats)
    goal: GoalRecord | None = None  # the rounds of a goal this outcome ends
    changed: tuple[str, ...] = ()  # the files the run's turns changed (headless reports name them)
    refused: tuple[str, ...] = ()  # commands a headless run could not ask about, so did not run

    @property
    def completed(self) -> bool:
        return self.stop is Stop.COMPLETED


def claims_success(answer: str) -> bool:
    """Whether an answer says the work is done or the checks pass ("All tests pass", "Fixed."), not merely that it
    is not ("the test is not fixed yet"). A heuristic: it marks, it never decides."""
    return any(not NEGATION.search(answer[max(0, m.start() - 30) : m.start()]) for m in CLAIM.finditer(answer))
