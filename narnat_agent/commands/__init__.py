"""The slash commands. Each is a function of the Agent and its argument, with a usage and a one-line help that /help
and Tab's completions show: `@helps` gives them where the command is defined (marked for the catalog), `help_line`
translates them where they are shown."""

from collections.abc import Callable
from typing import Any, TypeVar

from narnat_agent.i18n import _

Command = TypeVar("Command", bound=Callable[..., Any])
_HELP: dict[Callable[..., Any], tuple[str, str]] = {}


def helps(usage: str, line: str) -> Callable[[Command], Command]:
    """A command's usage (`/save [name]`) and help line, both marked with N_ where the command is defined."""

    def given(command: Command) -> Command:
        _HELP[command] = (usage, line)
        return command

    return given


def help_line(command: Callable[..., Any]) -> tuple[str, str]:
    """A command's usage and help line in the interface's language."""
    usage, line = _HELP[command]
    return _(usage), _(line)
