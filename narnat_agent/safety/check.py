"""What every rule of the analysis works with: the verdict it adds to, and the analysis in progress (`Check`),
through which a rule hands over shell text or a command that another program will run."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path, PureWindowsPath
from typing import Literal, Protocol

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.syntax import Command
from narnat_agent.state import FOLDER


@dataclass
class Verdict:
    """What Narnat must do before a command may run: ask (the reasons say what would be lost), or refuse."""

    deletions: list[str] = field(default_factory=list)  # ask the user first: what would be lost
    file_ops: list[str] = field(default_factory=list)  # refuse: a dedicated tool does this
    interactive: list[str] = field(default_factory=list)  # refuse: it would wait for a human
    targets: list[str] = field(default_factory=list)  # the paths a deleter names, as written (from where it runs)

    def merge(self, other: "Verdict") -> None:
        self.deletions += other.deletions
        self.file_ops += other.file_ops
        self.interactive += other.interactive
        self.targets += other.targets


class Check(Protocol):
    """One analysis in progress: nested shell text and nested commands land in the same verdict."""

    verdict: Verdict
    cwd: Path | None  # where the command runs, when known: files there can be looked at
    aliases: dict[str, str]  # defined earlier in the command: name → text
    # Bash's environment when the command is about to run: its variables are resolved and read-only listings made
    # (find's selection, git's commits) to name what would be lost; None when only the text is read
    env: Mapping[str, str] | None
    assigned: frozenset[str]  # variables and functions the command defines itself (known only when it runs)
    directory: str | None  # where a `cd` at the start of the command moves it (`cd "$DIR" && …`), when known

    def script(self, code: str | None, source: str, remote: bool = False, shell: "Shell" = "bash") -> None:
        """Shell text that will run (None: computed at run time), checked like the command itself, as the shell
        that runs it reads it."""

    def command(self, command: Command) -> None:
        """A command that another one runs (find -exec, a wrapper's), checked like a top-level one."""

    def deletions_in(self, code: str) -> list[str]:
        """What shell text that another program runs would destroy (system("…") in a script)."""

    def analysed(self, code: str) -> Verdict:
        """The whole verdict on shell text another program runs (a package script), kept apart from this one."""


NOT_UNDOABLE = Said(
    N_("/undo cannot restore it")
)  # how a question ends when what is lost lies beyond the project's files
# a command deleting Narnat's own folder deletes the checkpoints /undo would restore from, and the saved conversations
OWN_FOLDER_LOST = Said(
    N_("Narnat's own checkpoints and sessions among them ({folder}): /undo cannot restore anything once they are gone"),
    folder=f"{FOLDER}/",
)
KEPT = ("checkpoints", "sessions")  # what of Narnat's folder /undo and --resume need


def own_folder(paths: list[str]) -> bool:
    """Whether one of these paths is Narnat's own folder, or its checkpoints or sessions, or lies in them."""
    for path in paths:
        parts = PureWindowsPath(path).parts  # either separator: Bash's paths and PowerShell's and cmd's
        below = parts[parts.index(FOLDER) + 1 :] if FOLDER in parts else None
        if below is not None and (not below or below[0] in KEPT):
            return True
    return False


REGENERABLE = Said(N_("regenerable: its tool downloads or builds it again, /undo does not restore it"))
Argv = list[str | None]
Shell = Literal["bash", "powershell", "cmd"]  # the shells whose text the analysis reads


def computed(name: str) -> str:
    """The reason to ask about a program whose code is known only when it runs."""
    return Said(
        N_("{program} runs code computed at run time"), program=name
    )  # a command's words: literal text, or None where the shell computes them at run time


def may_be_options(name: str) -> str:
    """The reason to ask about a program given words computed at run time, which may turn into options."""
    return Said(N_("{program} gets words computed at run time, which may be options"), program=name)
