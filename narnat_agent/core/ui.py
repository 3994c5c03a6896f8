"""What the core needs from a user interface. Both UIs (ui/terminal.py and ui/plain.py) implement these.

The core never imports a UI: the CLI builds one and hands it in, and the type checker holds both to this contract.
"""

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from narnat_agent.provider.client import Sink
from narnat_agent.provider.reply import ToolCall, Usage
from narnat_agent.tools.base import Result

if TYPE_CHECKING:
    from narnat_agent.core.turn import TurnOutcome, TurnStats


class TurnView(Sink, Protocol):
    """One turn on screen: the streamed answer and reasoning (a Sink), each request's usage, how the turn ended."""

    def replied(self, usage: Usage | None, price: float | None) -> None:
        """One model request of the turn is over (its usage as the provider reported it, and its price)."""
        ...

    def finish(self, outcome: "TurnOutcome") -> None: ...


class UI(Protocol):
    def read_input(self) -> str | None:
        """The next question or /command; "" after Ctrl-C, None when the user leaves."""
        ...

    def confirm(self, command: str, reason: str) -> bool: ...
    def ask(self, question: str, default: str, secret: bool = False) -> str: ...
    def give_back(self, question: str) -> None:
        """The question returns to the input line, to edit and send again."""
        ...

    def stop_reading(self) -> bool:
        """End a prompt that is waiting for input, as Ctrl-D would; False when none is (safe in a signal handler)."""
        ...

    def use_interrupt_key(self, key: str) -> None: ...
    def use_bell(self, after_s: float | None) -> None:
        """Ring when a turn longer than after_s seconds ends or a confirmation waits (None: never)."""
        ...

    def add_commands(self, commands: dict[str, str]) -> None:
        """More /commands (name: help line) to complete: the user's own; a known name takes the new line."""
        ...

    def status(self, stats: "TurnStats") -> None:
        """The conversation's model and how full its window is, for a status line where the UI has one."""
        ...

    def turn_view(self) -> TurnView: ...
    def tool_start(self, header: str, call: ToolCall) -> None: ...
    def tool_end(self, result: Result) -> None: ...
    def notice(self, text: str) -> None: ...
    def warning(self, text: str) -> None: ...
    def error(self, text: str) -> None: ...
    def info(self, text: str) -> None: ...
    def begin_compressing(self) -> Sink: ...
    def end_compressing(self) -> None: ...
    def banner(self, model: str, lines: list[str]) -> None:
        """The start header of an interactive run; the model stays visible afterwards where the UI can."""
        ...

    def take_sent(self, accept: Callable[[str], bool]) -> list[str]:
        """The lines sent while the agent worked, oldest first, up to the first that `accept` refuses (it and the
        rest stay queued for the turn's end)."""
        ...

    def run_at_once(self, run: Callable[[str], bool]) -> None:
        """A line sent while the agent works that `run` takes (a command that only shows something) runs at once
        instead of waiting in the queue."""
        ...

    def delivered(self, text: str) -> None:
        """A message sent while the agent worked has joined the turn."""
        ...

    def review(self, title: str, diff: str) -> None:
        """One file's change as the user asked to see it (/diff): a title line, then the whole unified diff."""
        ...

    def planning(self, on: bool) -> None:
        """Plan mode started or ended: the status line says so where the UI has one."""
        ...

    def separator(self, title: str) -> None:
        """A rule where a conversation starts (/clear, /enter)."""
        ...

    def table(self, columns: list[str], rows: list[list[str]]) -> None:
        """A listing the user asked for, fitted to the width (/show)."""
        ...


class Reporter(UI, Protocol):
    """The UI of one headless request: it names the run at its start and reports how it ended (text or JSON)."""

    secret: str  # the API key, masked in what it reports

    def begin(self, session: str, model: str) -> None: ...
    def report(self, outcome: "TurnOutcome", session: str | None, code: int) -> None: ...
