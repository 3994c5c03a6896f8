"""The tool contract: what a call returns, how it fails, and what it may change."""

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from narnat_agent.i18n import N_, Said, cleaned
from narnat_agent.tools.verification import Verification

RESULT_CHARS = 30_000  # of a tool's result the model reads at most: one call cannot flood its context
Confirm = Callable[[str, str], bool]
Clean = Callable[[str], str]  # what every text leaving a tool passes through (the key masked, made encodable)


class EditorFiles(Protocol):
    """Files as the editor that drives Narnat holds them (acp/): a buffer's unsaved text is what the file says."""

    def text(self, path: Path) -> str | None:
        """The editor's text of the file; None where it has none to give (the disk's is the file's then)."""
        ...

    def wrote(self, path: Path, text: str) -> None:
        """A tool has written the file whose unsaved text it read: the editor's buffer takes what was written."""
        ...


class ToolError(Exception):
    """A failure the model can act on; its text goes back as the tool result. The person reads the first line of
    `shown` (by default the text itself) in the interface's language when it is a Said, as it is otherwise."""

    def __init__(self, text: str, shown: str | None = None):
        super().__init__(text)
        self.shown = text if shown is None else shown


def nobody_to_ask(reason: str) -> ToolError:
    """What a command that needs the user's yes gets when nobody can answer (a headless run without --yes)."""
    return ToolError(Said(N_("not run — it needs the user's confirmation ({reason}), and this headless run cannot ask "
                             "(the user can allow it with --yes). Do not do it another way; say in your answer what "
                             "was not done."), reason=reason))  # fmt: skip


@dataclass(frozen=True)
class Diff:
    """A file change, as a compact unified diff, and the syntax errors it introduced ("" when none)."""

    text: str
    syntax: str = ""

    def cleaned(self, clean: Clean) -> "Diff":
        return Diff(clean(self.text), cleaned(self.syntax, clean))


@dataclass(frozen=True)
class Output:
    """What a command printed: the last lines for the screen, and how much of it the model was shown."""

    tail: tuple[str, ...]
    lines: int
    shown_lines: int  # equal to lines unless the output was cut for the model
    exit_code: int | None = None  # how the command ended; None: stopped before it did (a timeout, a cancel)

    def cleaned(self, clean: Clean) -> "Output":
        return replace(self, tail=tuple(clean(line) for line in self.tail))


@dataclass(frozen=True)
class Todos:
    items: tuple[dict, ...]

    def cleaned(self, clean: Clean) -> "Todos":
        return Todos(tuple({k: clean(v) if isinstance(v, str) else v for k, v in item.items()} for item in self.items))


class Detail(Protocol):
    """What the UI draws under a result line; every text in it can be cleaned, so none can skip the cleaning."""

    def cleaned(self, clean: Clean) -> "Detail": ...


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
    detail: Detail | None = None  # what the UI draws under the result line
    verification: Verification | None = None  # a command that ran tests, a linter, a type checker or a build
    picture: Picture | None = None  # an image Read, for a model that sees images

    def cleaned(self, clean: Clean) -> "Result":
        """The same result with every text it carries passed through clean."""
        detail = self.detail.cleaned(clean) if self.detail is not None else None
        return replace(self, text=clean(self.text), summary=clean(self.summary), detail=detail)


class Interrupted(KeyboardInterrupt):
    """The user stopped a tool midway: `result` says what it had done by then, so the model does not guess."""

    def __init__(self, result: Result):
        super().__init__(result.summary)
        self.result = result


@dataclass(frozen=True)
class Changes:
    """What one call may change on disk, as its tool declares it: the files its arguments name, or anything."""

    files: tuple[str, ...] = ()  # paths as the model gave them
    anything: bool = False  # a command: whatever it runs may change any file


def changes_file_path(args: dict) -> Changes:
    """A tool that changes the one file its `file_path` argument names."""
    path = args.get("file_path")
    return Changes(files=(path,) if isinstance(path, str) and path.strip() else ())
