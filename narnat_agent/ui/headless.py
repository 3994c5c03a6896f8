"""narnat -p in plain text: the answer alone on stdout, everything else on stderr."""

from narnat_agent.core.turn import TurnOutcome, TurnStats
from narnat_agent.i18n import _
from narnat_agent.inert import inert
from narnat_agent.keyguard import redact
from narnat_agent.ui.plain import PlainStream, PlainUI, footer


class HeadlessStream(PlainStream):
    """A reply's text waits: narration goes to err when a tool call follows it; the final answer is the report's."""

    ui: "HeadlessUI"

    def __init__(self, ui: "HeadlessUI"):
        super().__init__(ui)
        self.text = ""

    def feed(self, text: str) -> None:
        self.text += text

    def end_block(self) -> None:
        if self.text.strip():
            self.ui.say(self.text.strip("\n"))
        self.text = ""

    def finish(self, outcome: TurnOutcome) -> None:
        if outcome.answer:  # this text is the answer, printed once the run is over
            self.text = ""
        super().finish(outcome)

    def footer(self, stats: TurnStats) -> str:
        """The figures, and the session the run is saved as (--resume NAME, or -c, continues it)."""
        return f"{footer(stats)} · " + _("session {name}").format(name=self.ui.session)


class HeadlessUI(PlainUI):
    """narnat -p: stdout holds the final answer only; narration, reasoning, tool lines and notices go to stderr."""

    session = ""  # the name this run is saved under, for the footer
    secret = ""  # the API key: the answer, quoting the model, may hold it

    def turn_view(self) -> HeadlessStream:
        self.stream = HeadlessStream(self)
        return self.stream

    def begin(self, session: str, model: str) -> None:
        self.session = session

    def report(self, outcome: TurnOutcome, session: str | None, code: int) -> None:
        """The end of the run: the answer on stdout."""
        if answer := inert(redact(outcome.answer, self.secret)):
            self.out.write(answer if answer.endswith("\n") else f"{answer}\n")
            self.out.flush()
