"""The user's own Markdown files: skills (named and described in the system prompt; the model Reads the body when
it needs it) and the reading of any such file, which /NAME commands share.

Such a file's text reaches the model, so a file that leads (through a link) to a settings file, which may hold the
API key, or out of the project and the user's own folder, is left out: a cloned repository cannot aim one at them."""

import contextlib
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from narnat_agent import state
from narnat_agent.i18n import _
from narnat_agent.tools.files.textfile import binary_kind

SKILLS_HEADING = "# Skills"
SKILLS_INTRO = (
    "Instructions for particular tasks, kept in files. When a task matches a skill's description, Read its file "
    "first and follow it."
)
MAX_BYTES = 64 * 1024  # a command or skill file is an instruction, not a document
MAX_DESCRIPTION = 300  # characters of a description in the system prompt, which every request carries
MAX_SKILLS = 100  # skills the system prompt lists (3,000 made it 1 MB, past any context window)


class UnusableFile(Exception):
    """A user's file that cannot be used, with the reason in a few words."""


@dataclass(frozen=True)
class Skill:
    name: str
    description: str
    path: str  # as the model's Read takes it


def read_markdown(path: Path, project: Path, home: Path) -> str:
    """A command's or skill's text; a file too large, binary, not UTF-8, not regular, or leading to a settings file
    or out of the project and the user's folder is refused with the reason."""
    try:
        found = path.stat()
        if not stat.S_ISREG(found.st_mode):
            raise UnusableFile(_("it is not a regular file"))
        _check_lead(path, found, project, home)
        with path.open("rb") as f:
            data = f.read(MAX_BYTES + 1)
    except OSError as e:
        raise UnusableFile(_("it cannot be read ({error})").format(error=e.strerror)) from None
    if len(data) > MAX_BYTES:
        raise UnusableFile(_("it is larger than {size} KB").format(size=MAX_BYTES // 1024))
    if kind := binary_kind(data[:4096], path):
        raise UnusableFile(_("it is binary ({kind})").format(kind=kind))
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UnusableFile(_("it is not UTF-8 text")) from None


def _check_lead(path: Path, found: os.stat_result, project: Path, home: Path) -> None:
    """Refuses a file that is a settings file under another name (a symbolic or hard link), or lies outside the
    project and the user's own folder once its links are followed."""
    for settings in state.settings_files(project, home):
        with contextlib.suppress(OSError):
            if os.path.samestat(found, settings.stat()):
                raise UnusableFile(_("it leads to a settings file, which may hold the API key"))
    real = path.resolve()
    if not any(real.is_relative_to(root.resolve()) for root in (project, home)):
        raise UnusableFile(_("it leads outside the project and your own folder ({path})").format(path=real))


def front_matter(text: str) -> tuple[dict, str]:
    """The YAML mapping between the leading `---` lines, and the text after it ({} when there is none)."""
    first, _newline, rest = text.partition("\n")  # not `_`: that name is the catalog's
    head, found, body = rest.partition("\n---")
    if first.strip() != "---" or not found:
        return {}, text
    import yaml

    try:
        data = yaml.safe_load(head)
    except yaml.YAMLError as e:
        problem = getattr(e, "problem", None) or e
        raise UnusableFile(_("its front matter is not valid YAML ({problem})").format(problem=problem)) from None
    return (data if isinstance(data, dict) else {}), body.partition("\n")[2]


def _skill(path: Path, shown: str, project: Path, home: Path) -> Skill:
    meta = front_matter(read_markdown(path, project, home))[0]
    name, description = meta.get("name"), meta.get("description")
    if not isinstance(name, str) or not name.strip():
        raise UnusableFile(_("its front matter has no name (name: ...)"))
    if not isinstance(description, str) or not description.strip():
        raise UnusableFile(_("its front matter has no description (description: ...)"))
    return Skill(name.strip(), " ".join(description.split())[:MAX_DESCRIPTION], shown)


def find_skills(project: Path, home: Path, notify: Callable[[str], None]) -> list[Skill]:
    """The user's skills, then the project's (which win by name); each one left out is said once."""
    found: dict[str, Skill] = {}
    for root in state.skills_folders(project, home):
        for path in sorted(root.glob("*/SKILL.md")):
            shown = str(path.relative_to(project)) if path.is_relative_to(project) else str(path)
            try:
                skill = _skill(path, shown, project, home)
            except UnusableFile as e:
                notify(_("Skill {path} is left out: {reason}.").format(path=shown, reason=e))
                continue
            found[skill.name] = skill
    skills = list(found.values())
    if len(skills) > MAX_SKILLS:
        left_out = _("{n} skills are left out: the system prompt lists at most {limit} (the first left out: {name}).")
        notify(left_out.format(n=len(skills) - MAX_SKILLS, limit=MAX_SKILLS, name=skills[MAX_SKILLS].name))
    return skills[:MAX_SKILLS]


def skills_section(skills: list[Skill]) -> str:
    """The system prompt's list of skills: names and one-line descriptions; the bodies stay in their files."""
    lines = [f"- {s.name}: {s.description} (Read {s.path})" for s in skills]
    return f"{SKILLS_HEADING}\n{SKILLS_INTRO}\n" + "\n".join(lines) + "\n"
