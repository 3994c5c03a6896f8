"""The slash commands. A command is one function of the Agent and its argument, decorated with `@command`: its usage
(`/save [name]`, whose first word names it) and its one-line help stand beside it, marked for the catalog, and the
registry below is what /help, Tab's completions and the dispatch read; `dispatch` imports the modules that hold
commands and says in which order /help lists them."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from narnat_agent.i18n import _

Function = TypeVar("Function", bound=Callable[..., Any])


@dataclass(frozen=True)
class SlashCommand:
    run: Callable[..., Any]
    usage: str  # as marked for the catalog; shown translated
    line: str
    at_once: bool = False  # it only shows something: sent while the agent works, it runs then, not after the turn

    def help(self) -> tuple[str, str]:
        """The usage and help line in the interface's language."""
        return _(self.usage), _(self.line)


REGISTRY: dict[str, SlashCommand] = {}


def command(usage: str, line: str, at_once: bool = False) -> Callable[[Function], Function]:
    """Register a slash command under the first word of its usage (both marked with N_ where it is defined)."""

    def registered(function: Function) -> Function:
        REGISTRY[usage.split()[0].removeprefix("/")] = SlashCommand(function, usage, line, at_once)
        return function

    return registered
