"""Plain-text terminal I/O: pipes, NO_COLOR and dumb terminals, and the words both UIs put around a turn.

Every text reaches its stream through `inert`: a pipe often ends at a terminal (`narnat | tee log`)."""

import sys
from collections.abc import Callable
from typing import TextIO

from narnat_agent.core.turn import Stop, TurnOutcome, TurnStats
from narnat_agent.i18n import YES, _, answers, ngettext, spaced, spoken
from narnat_agent.inert import inert
from narnat_agent.provider.reply import ToolCall, Usage
from narnat_agent.tools.base import Diff, Output, Todos
from narnat_agent.ui import cells

TODO_MARKS = {"completed": "✔", "in_progress": "◼", "pending": "◻"}

# Asked at each moment the UI reaches ("text": a piece of the answer, "summary": a piece of a summary being written,
# "tool": a call about to run) whether the user pressed the interrupt key then. A plain run has no keys to watch
# (Ctrl-C arrives as SIGINT), so by default never; a script stands in for the user where a run must be stopped at a
# chosen moment.
Interrupts = Callable[[str], bool]


def never(moment: str) -> bool:
    return False


def is_yes(answer: str) -> bool:
    """y, yes, 是 or 是的 — in any language Narnat speaks (its catalogs' words for YES); anything else is no."""
    return answer.strip().lower() in answers(YES)


def footer(stats: TurnStats) -> str:
    """ctx 19.8k/128k · sent 266.7k (250k cached) · out 1.2k · 17 requests · cost … · 13.2s · pytest: passed

    The context is the last request's prompt (how full the window is); sent, cached and out are the turn's totals.
    """
    approx = "~" if stats.estimated else ""
    sent, out = approx + tokens(stats.sent), approx + tokens(stats.completion)
    parts = [
        context(stats),
        _("sent {sent} ({cached} cached)").format(sent=sent, cached=tokens(stats.cached))
        if stats.cached
        else _("sent {sent}").format(sent=sent),
        _("out {out}").format(out=out),
    ]
    if stats.requests > 1:
        parts.append(_("{n} requests").format(n=stats.requests))
    if stats.cost is not None:
        parts.append(
            _("cost {cost:.4f} (session {session:.4f})").format(cost=stats.cost, session=stats.session_cost or 0)
        )
    if stats.model_from:
        parts.append(_("{model} from turn {turn}").format(model=stats.model, turn=stats.model_from))
    parts.append(_("{seconds:.1f}s").format(seconds=stats.seconds))
    parts += [str(v) for v in stats.latest]
    if stats.check is not None:
        parts.append(_("goal check {outcome}").format(outcome=stats.check))
    if stats.unproven is not None:
        parts.append(_("⚠ the answer claims success, but {outcome}").format(outcome=stats.unproven))
    return " · ".join(parts)


def context(stats) -> str:
    """How full the context window is after the turn: ctx 19.8k/128k."""
    approx = "~" if stats.estimated else ""
    return _("ctx {used}/{window}").format(used=approx + tokens(stats.context), window=tokens(stats.context_window))


def tokens(n: int) -> str:
    """1234 -> 1.2k, 128000 -> 128k, 1500000 -> 1.5M: read at a glance."""
    for size, unit in ((1_000_000, "M"), (1000, "k")):
        if n >= size:
            return f"{n / size:.1f}".removesuffix(".0") + unit
    return str(n)


def title_parts(title: str) -> tuple[str, str, int]:
    """A tool header `Name(target)` as its name, the target's first line, and how many lines follow it."""
    name, paren, target = title.partition("(")
    if paren and target.endswith(")"):
        target = target[:-1]
    first, *rest = target.split("\n")
    return name, first, len(rest)


def plain_title(title: str) -> str:
    """The header without a width: a long command shows its first line and how many lines follow."""
    name, first, more = title_parts(title)
    if "(" not in title:
        return title
    return f"{name}({first} {more_lines(more)})" if more else f"{name}({first})"


def more_lines(n: int) -> str:
    """What a tool header says of the lines it does not show: `… +3 lines`."""
    return ngettext("… +{n} line", "… +{n} lines", n).format(n=n)


GUTTER = "│ "  # before each line of reasoning, as the full-screen REPL shows it


def shown_to_model(output: Output) -> str:
    """How much of a command's output the model saw, when it was cut: `(328 shown to the model)`."""
    return _("({n} shown to the model)").format(n=output.shown_lines)


def checklist(todos: list[dict]) -> list[str]:
    return [f"{TODO_MARKS[t['status']]} {t['content']}" for t in todos]


class PlainStream:
    def __init__(self, ui: "PlainUI"):
        self.ui = ui
        self.cancelled = False
        self.at_line_start = True

    def feed(self, text: str) -> None:
        self.ui.end_reasoning()
        self.ui.out.write(inert(text))
        self.ui.out.flush()
        self.at_line_start = text.endswith("\n")
        if self.ui.interrupts("text"):  # as the terminal's key watcher does: the client stops reading
            self.cancelled = True

    def feed_reasoning(self, text: str) -> None:
        self.ui.reason(text)

    def end_block(self) -> None:
        if not self.at_line_start:
            self.ui.out.write("\n")
            self.ui.out.flush()
            self.at_line_start = True

    def replied(self, usage: Usage | None, price: float | None) -> None:
        """Usage is shown once, in the footer."""

    def finish(self, outcome: TurnOutcome) -> None:
        self.end_block()
        if outcome.stop is Stop.CANCELLED:
            self.ui.notice(_("Cancelled."))
        self.ui.say(f"  {self.footer(outcome.stats)}")

    def footer(self, stats: TurnStats) -> str:
        return footer(stats)


class QuietSink:
    """Where the summary streams while compressing: nothing is shown but progress."""

    def __init__(self, interrupts: Interrupts = never) -> None:
        self.cancelled = False
        self.interrupts = interrupts

    def feed(self, text: str) -> None:
        if self.interrupts("summary"):
            self.cancelled = True

    def feed_reasoning(self, text: str) -> None:
        pass


class PlainUI:
    """Answers to `out`; tool activity, notices and errors to `err`."""

    def __init__(self, out: TextIO = sys.stdout, err: TextIO = sys.stderr, inp: TextIO = sys.stdin,
                 interrupts: Interrupts = never):  # fmt: skip
        self.out, self.err, self.inp, self.interrupts = out, err, inp, interrupts
        self.stream: PlainStream | None = None
        self.reasoning = False  # a line of reasoning is open on err

    def use_interrupt_key(self, key: str) -> None:
        """Without a terminal there are no keys to watch: Ctrl-C (SIGINT) is the interrupt."""

    def use_bell(self, after_s: float | None) -> None:
        """Not a terminal: nothing rings."""

    def status(self, stats: TurnStats) -> None:
        """No status line: the footer says it."""

    def add_commands(self, commands: dict[str, str]) -> None:
        """No completion without a terminal."""

    def read_input(self) -> str | None:
        """The next question; None at end of input. Ctrl-C only clears the line."""
        self.out.write("> ")
        self.out.flush()
        try:
            line = self.inp.readline()
        except KeyboardInterrupt:
            self.out.write("\n")
            return ""
        return line.rstrip("\n") if line else None

    def turn_view(self) -> PlainStream:
        self.stream = PlainStream(self)
        return self.stream

    def say(self, text: str, stream: TextIO | None = None) -> None:
        """One or more whole lines, shown at once (stderr unless the user asked for them)."""
        self.end_reasoning()
        stream = stream or self.err
        stream.write(f"{inert(text)}\n")
        stream.flush()

    def banner(self, model: str, lines: list[str]) -> None:
        """The start header (interactive runs only)."""
        self.say("\n".join(lines))

    def separator(self, title: str) -> None:
        self.say(f"── {title} ──")

    def take_sent(self, accept: Callable[[str], bool]) -> list[str]:
        """Lines are read only at the prompt here: none arrives while the agent works."""
        return []

    def run_at_once(self, run: Callable[[str], bool]) -> None:
        """Nothing is read while the agent works."""

    def delivered(self, text: str) -> None:
        self.say(_("❯ {message} · delivered while the agent worked").format(message=text))

    def review(self, title: str, diff: str) -> None:
        """On stdout, as the user asked for it: the title, then the diff as `diff -u` prints it."""
        self.say("\n".join([title, diff]) if diff else title, self.out)

    def planning(self, on: bool) -> None:
        """No status line: the commands that switch plan mode say it."""

    def table(self, columns: list[str], rows: list[list[str]]) -> None:
        """Aligned columns on stdout; the last one is not padded."""
        widths = [max(cells.width(row[i]) for row in [columns, *rows]) for i in range(len(columns) - 1)]
        lines = [
            "  ".join([*(cells.ljust(cell, w) for cell, w in zip(row, widths, strict=False)), row[-1]])
            for row in [columns, *rows]
        ]
        self.say("\n".join(lines), self.out)

    def reason(self, text: str) -> None:
        """Reasoning streams to err as it comes, each line behind the REPL's gutter so that it reads apart from the
        narration; whatever is shown next starts on a line of its own."""
        for piece in inert(text).splitlines(keepends=True):
            self.err.write(piece if self.reasoning else GUTTER + piece)
            self.reasoning = not piece.endswith("\n")
        self.err.flush()

    def end_reasoning(self) -> None:
        if self.reasoning:
            self.err.write("\n")
            self.err.flush()
            self.reasoning = False

    def tool_start(self, header: str, call: ToolCall) -> None:
        if self.interrupts("tool"):
            raise KeyboardInterrupt  # what SIGINT raises
        if self.stream:
            self.stream.end_block()
        self.say(f"● {plain_title(spoken(header))}{call.origin}")

    def tool_end(self, result) -> None:
        detail = result.detail
        line = _("Error: {summary}").format(summary=result.summary) if result.is_error else result.summary
        if isinstance(detail, Output) and detail.shown_lines < detail.lines:
            line += spaced(shown_to_model(detail))
        self.say(f"  ⎿ {line}")
        if isinstance(detail, Todos):
            self.say("\n".join(f"    {line}" for line in checklist(list(detail.items))))
        elif isinstance(detail, Diff) and detail.syntax:
            self.say("\n".join(f"    {line}" for line in spoken(detail.syntax).splitlines()))

    def notice(self, text: str) -> None:
        self.say(f"! {text}")

    def warning(self, text: str) -> None:
        self.say(f"⚠ {text}")

    def info(self, text: str) -> None:
        """Output the user asked for (a listing, the help)."""
        self.say(text, self.out)

    def begin_compressing(self) -> QuietSink:
        self.say("… " + _("Compressing the conversation (summarising it for a fresh context)…"))
        return QuietSink(self.interrupts)

    def end_compressing(self) -> None:
        self.say("… " + _("Compression finished."))

    def stop_reading(self) -> bool:
        return False  # a blocking line read: the signal's KeyboardInterrupt ends it

    def give_back(self, question: str) -> None:
        """A question to edit and send again: not sent, or taken back by a rewind (plain input cannot pre-fill)."""
        self.notice(_("Your question, to edit and send again:\n{question}").format(question=question))

    def error(self, text: str) -> None:
        self.say(f"✗ {text}")

    def confirm(self, command: str, reason: str) -> bool:
        """y/n before a deleting command; only y or yes runs it."""
        self.err.write(
            inert(f"? {spoken(reason)}:\n    {command}\n  ") + _("Run it? [y/N] ")
        )  # (pybabel reads no f-string)
        self.err.flush()
        return is_yes(self.inp.readline())

    def ask(self, question: str, default: str = "", secret: bool = False) -> str:
        """One setup question; the default when the answer is empty."""
        self.err.write(inert(f"{question}{f' [{default}]' if default else ''}: "))
        self.err.flush()
        if secret and self.inp is sys.stdin and sys.stdin.isatty():
            import getpass

            answer = getpass.getpass("", stream=self.err)
        else:
            answer = self.inp.readline().strip()
        return answer or default
