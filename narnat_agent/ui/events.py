"""Headless output as JSON: one result object at the end (json), or one event per line as it happens (stream-json).

The shapes are documented in docs/headless.md; VERSION changes whenever a field changes meaning.
"""

import codecs
import json
import sys
import threading
import time
from typing import TextIO

from narnat_agent.core.turn import GoalRecord, TurnOutcome
from narnat_agent.inert import JSON_ESCAPES
from narnat_agent.keyguard import redact
from narnat_agent.provider.reply import ToolCall, Usage
from narnat_agent.tools.base import Result
from narnat_agent.tools.verification import Verification
from narnat_agent.ui.headless import HeadlessStream, HeadlessUI

VERSION = 2  # 2: every verification in order, with what ran and whether it was filtered; the suite's


class EventStream(HeadlessStream):
    ui: "EventUI"

    def feed(self, text: str) -> None:
        super().feed(text)
        self.ui.emit("text", text=text)

    def feed_reasoning(self, text: str) -> None:
        super().feed_reasoning(text)
        self.ui.emit("reasoning", text=text)

    def replied(self, usage: Usage | None, price: float | None) -> None:
        if usage is not None:  # as TurnStats counts it
            self.ui.emit("usage", sent=usage.prompt, cached=usage.cached, out=usage.completion,
                         estimated=usage.estimated, cost=price)  # fmt: skip


class EventUI(HeadlessUI):
    """stdout carries JSON only; stderr shows the run as the text output does."""

    def __init__(self, live: bool, out: TextIO = sys.stdout, err: TextIO = sys.stderr):
        super().__init__(out, err, sys.stdin)
        self.live = live  # stream-json: every event, not only the result
        self.lock = threading.Lock()  # notices of provider silence come from another thread
        self.started = time.monotonic()
        self.running = ("", "")  # id and name of the call running now
        self.tool_calls = 0
        self.gone = False  # stdout's reader closed it: nothing more is written there
        self.ascii = codecs.lookup(getattr(out, "encoding", None) or "utf-8").name != "utf-8"  # then in \u escapes

    def emit(self, kind: str, **fields: object) -> None:
        if self.live:
            self._write({"type": kind, **fields})

    def _write(self, event: dict) -> None:
        """One JSON line; the key masked, even in arguments the model wrote."""
        line = redact(json.dumps(event, ensure_ascii=self.ascii), self.secret).translate(JSON_ESCAPES)
        with self.lock:
            if self.gone:
                return
            try:
                self.out.write(line + "\n")
                self.out.flush()
            except (BrokenPipeError, ValueError):  # the reader went away (`| head -1`): the run ends as it would
                self.gone = True

    def say(self, text: str, stream: TextIO | None = None) -> None:
        """Text for a person goes to stderr whatever it is: stdout holds JSON lines only."""
        super().say(text, self.err)

    def turn_view(self) -> EventStream:
        self.stream = EventStream(self)
        return self.stream

    def begin(self, session: str, model: str) -> None:
        super().begin(session, model)
        self.emit("start", version=VERSION, session=session, model=model)

    def tool_start(self, header: str, call: ToolCall) -> None:
        super().tool_start(header, call)
        self.running = (call.id, call.name)
        self.emit("tool_call", id=call.id, name=call.name, arguments=call.args, header=header)

    def tool_end(self, result: Result) -> None:
        super().tool_end(result)
        call_id, name = self.running
        self.tool_calls += call_id != "check"  # a goal's check is Narnat's call, not the model's
        self.emit("tool_result", id=call_id, name=name, summary=result.summary, is_error=result.is_error)

    def notice(self, text: str) -> None:
        super().notice(text)
        self.emit("notice", level="notice", text=text)

    def warning(self, text: str) -> None:
        super().warning(text)
        self.emit("notice", level="warning", text=text)

    def error(self, text: str) -> None:
        super().error(text)
        self.emit("notice", level="error", text=text)

    def report(self, outcome: TurnOutcome, session: str | None, code: int) -> None:
        stats = outcome.stats
        self._write({
            "type": "result", "version": VERSION, "answer": outcome.answer, "is_error": code != 0,
            "stop": outcome.stop.value, "message": outcome.message, "exit_code": code, "session": session,
            "requests": stats.requests, "tool_calls": self.tool_calls, "cost": stats.cost,
            "usage": {"sent": stats.sent, "cached": stats.cached, "out": stats.completion,
                      "estimated": stats.estimated},
            "duration_s": round(time.monotonic() - self.started, 3),
            "verifications": [_verification(v) for v in stats.verifications],
            "suite": _verification(stats.suite) if stats.suite else None,
            "unproven_claim": _verification(stats.unproven) if stats.unproven else None,
            "changed_files": list(outcome.changed), "refused": list(outcome.refused),
            "goal": _goal(outcome.goal) if outcome.goal else None,
        })  # fmt: skip


def _verification(v: Verification) -> dict:
    return {"command": v.command, "run": v.run, "filtered": v.filtered, "outcome": v.status, "exit_code": v.exit_code}


def _goal(goal: GoalRecord) -> dict:
    """A goal's rounds: how each turn ended and what its check said; why the goal ended."""
    rounds = [{"turn": r.stop.value, "check": _verification(r.check) if r.check else None} for r in goal.rounds]
    return {"until": goal.until, "verified": goal.verified, "stop": goal.stop.value, "rounds": len(rounds),
            "verifications": rounds}  # fmt: skip
