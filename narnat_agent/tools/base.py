"""The tool contract: what a tool is, what it returns, and how it fails."""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from narnat_agent.tools.verification import Verification

if TYPE_CHECKING:
    from narnat_agent.tools.workspace import Workspace

Confirm = Callable[[str, str], bool]


class ToolError(Exception):
    """A failure the model can act on; its text goes back as the tool result."""


def nobody_to_ask(reason: str) -> ToolError:
    """What a command that needs the user's yes gets when nobody can answer (a headless run without --yes)."""
    return ToolError(f"not run — it needs the user's confirmation ({reason}), and this headless run cannot ask "
                     "(the user can allow it with --yes).")  # fmt: skip


@dataclass(frozen=True)
class Diff:
    """A file change, as a compact unified diff, and the syntax errors it introduced ("" when none)."""

    text: str
    syntax: str = ""


@dataclass(frozen=True)
class Output:
    """What a command printed: the last lines for the screen, and how much of it the model was shown."""

    tail: tuple[str, ...]
    lines: int
    shown_lines: int  # equal to lines unless the output was cut for the model


@dataclass(frozen=True)
class Todos:
    items: tuple[dict, ...]


Detail = Diff | Output | Todos | None


@dataclass(frozen=True)
class Picture:
    """An image for a model that sees: it travels in the user message after the tool results."""

    name: str  # the file, as the tool result names it
    mime: str
    base64: str = field(repr=False)


@dataclass(frozen=True)
class Result:
    text: str  # what the model receives
    summary: str  # the one line the user sees
    is_error: bool = False
    detail: Detail = None  # what the UI draws under the result line
    verification: Verification | None = None  # a command that ran tests, a linter, a type checker or a build
    picture: Picture | None = None  # an image Read, for a model that sees images


class Interrupted(KeyboardInterrupt):
    """The user stopped a tool midway: `result` says what it had done by then, so the model does not guess."""

    def __init__(self, result: Result):
        super().__init__(result.summary)
        self.result = result


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    parameters: dict
    run: "Callable[[dict, Workspace], Result]"
    target: Callable[[dict], str]  # what the UI shows in the header line: Read(<target>)

    @property
    def schema(self) -> dict:
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }
