"""The user's own commands: `.narnat/commands/NAME.md` (and `~/.narnat/commands/NAME.md`) become /NAME [arguments],
the file's text sent as the question with $ARGUMENTS filled in."""

import re
from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path

from narnat_agent import state
from narnat_agent.keyguard import redact
from narnat_agent.prompts.skills import UnusableFile, front_matter, read_markdown

NAME = re.compile(r"[a-z0-9][a-z0-9_.-]*")
ARGUMENTS = "$ARGUMENTS"


@dataclass(frozen=True)
class UserCommand:
    name: str
    text: str
    description: str  # its help line: the front matter's description, else the text's first line

    def question(self, arguments: str) -> str:
        """The text with the arguments in place of $ARGUMENTS (after it, when it has no such place)."""
        if ARGUMENTS in self.text:
            return self.text.replace(ARGUMENTS, arguments)
        return f"{self.text}\n\n{arguments}" if arguments else self.text


def _command(path: Path, name: str, project: Path, home: Path, secret: str) -> UserCommand:
    meta, body = front_matter(read_markdown(path, project, home))
    text = redact(body.strip(), secret)  # the text becomes the question: masked as a tool's result is
    if not text:
        raise UnusableFile("it is empty")
    description = meta.get("description")
    if not isinstance(description, str) or not description.strip():
        description = text.split("\n", 1)[0].lstrip("# ")
    return UserCommand(name, text, " ".join(description.split())[:80])


def load(
    project: Path, home: Path, builtins: Collection[str], secret: str = ""
) -> tuple[dict[str, UserCommand], list[str]]:
    """The user's commands, then the project's (which win by name), and a sentence for each file left out."""
    commands: dict[str, UserCommand] = {}
    notices: list[str] = []
    for root in state.commands_folders(project, home):
        for path in sorted(root.glob("*.md")):
            name = path.stem.lower()
            shown = str(path.relative_to(project)) if path.is_relative_to(project) else str(path)
            try:
                if name in builtins:
                    raise UnusableFile(f"/{name} is a built-in command, which wins; rename the file")
                if not NAME.fullmatch(name):
                    raise UnusableFile("a command's name has only letters, digits, '.', '-' and '_'")
                commands[name] = _command(path, name, project, home, secret)
            except UnusableFile as e:
                notices.append(f"{shown} is not a command: {e}.")
    return commands, notices
