"""A headless run without --yes: nobody can confirm a command, so each one that needs it is refused and counted."""

from dataclasses import replace

from narnat_agent.core.turn import Stop, TurnOutcome
from narnat_agent.i18n import _
from narnat_agent.tools.base import nobody_to_ask


class NobodyToAsk:
    """The confirmation callback when nobody is there: it refuses, remembers the command, and tells the model why."""

    def __init__(self) -> None:
        self.refused: list[str] = []

    def __call__(self, command: str, reason: str) -> bool:
        self.refused.append(command)
        raise nobody_to_ask(reason)

    def judge(self, outcome: TurnOutcome) -> TurnOutcome:
        """A turn that completed around a refused command did not do all it was asked: the model finished without it,
        which a script must be able to tell from a turn that did everything (exit 3, the commands named)."""
        if not self.refused or not outcome.completed:
            return outcome
        commands = "; ".join(self.refused)
        message = _(
            "The turn finished, but a command that needs confirmation was not run: {commands} (run with --yes to allow "
            "it)."
        ).format(commands=commands)
        return replace(outcome, stop=Stop.CONFIRMATION_REFUSED, message=message, refused=tuple(self.refused))
