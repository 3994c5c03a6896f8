"""A tool as the registry holds it: its schema for the model, the function that runs it, and what it may change."""

from collections.abc import Callable
from dataclasses import dataclass

from narnat_agent.tools.base import Changes, Result
from narnat_agent.tools.workspace import Workspace


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    parameters: dict  # the JSON schema of its arguments, defaults included
    run: Callable[[dict, Workspace], Result]
    target: Callable[[dict], str]  # what the UI shows in the header line: Read(<target>)
    changes: Callable[[dict], Changes] | None = None  # None: it changes no file, so no checkpoint is taken

    @property
    def schema(self) -> dict:
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }


def file_target(args: dict) -> str:
    """A file tool's header target: its path on one line. A newline in a name (`a\nb.txt`) showed as `a +1 line`,
    read as a command cut short; shown as `\n`, as /diff shows it."""
    return str(args.get("file_path", "")).replace("\n", "\\n")
