"""Where Narnat keeps what it writes: the project's `.narnat/` folder, or a per-user folder standing in for it.

This module alone knows the layout; everything else asks it for a path.
"""

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

from narnat_agent.atomic import write_atomic

FOLDER = ".narnat"
CONFIG = "narnat.json"
INSTRUCTIONS = "narnat.md"

# Runtime data and secrets that must stay out of the project's git history; the file names itself, so that
# `git status` does not list .narnat/ and `git add -A` does not commit it.
GITIGNORE_HEADER = "# Narnat: secrets and runtime data\n"
GITIGNORE = (
    GITIGNORE_HEADER
    + """\
.gitignore
narnat.json
sessions/
logs/
spills/
jobs/
history
last_session_summary.md
"""
)


def project_folder(project: Path) -> Path:
    return project / FOLDER


def user_folder(home: Path) -> Path:
    return home / FOLDER


def settings_files(project: Path, home: Path) -> tuple[Path, ...]:
    """The settings files, in the order they are read: the user's, then the project's."""
    return user_folder(home) / CONFIG, project_folder(project) / CONFIG


def commands_folders(project: Path, home: Path) -> tuple[Path, ...]:
    """Where the user's own /commands are (NAME.md): the user's, then the project's, which wins by name."""
    return user_folder(home) / "commands", project_folder(project) / "commands"


def skills_folders(project: Path, home: Path) -> tuple[Path, ...]:
    """Where skills are (NAME/SKILL.md): the user's, then the project's, which wins by name."""
    return user_folder(home) / "skills", project_folder(project) / "skills"


def fallback_folder(project: Path, home: Path, env: Mapping[str, str]) -> Path:
    """The per-user folder that stands in for a project's `.narnat/` that cannot be written."""
    base = Path(env.get("XDG_STATE_HOME") or home / ".local" / "state")
    project_id = hashlib.sha256(os.fsencode(project)).hexdigest()[:12]
    return base / "narnat" / f"{project.name}-{project_id}"


def choose_folder(project: Path, home: Path, env: Mapping[str, str]) -> tuple[Path, str]:
    """The folder this process can write, `.narnat/` else the per-user one, and a notice when it is not `.narnat/`."""
    own = project_folder(project)
    if writable(own):
        ignore_runtime_files(own)
        return own, ""
    elsewhere = fallback_folder(project, home, env)
    if writable(elsewhere):
        return elsewhere, f"{own} cannot be written; this project's sessions and logs go to {elsewhere}."
    return elsewhere, f"Neither {own} nor {elsewhere} can be written; sessions and logs cannot be saved."


def sessions(state_dir: Path) -> Path:
    return state_dir / "sessions"


def logs(state_dir: Path) -> Path:
    return state_dir / "logs"


def spills(state_dir: Path) -> Path:
    """Long command output, kept for Read."""
    return state_dir / "spills"


def jobs(state_dir: Path) -> Path:
    """The output of Bash's background commands, kept for Read."""
    return state_dir / "jobs"


def checkpoints(state_dir: Path) -> Path:
    return state_dir / "checkpoints"


def input_history(state_dir: Path) -> Path:
    return state_dir / "history"


def summary(state_dir: Path) -> Path:
    """The summary a compression hands to the next conversation."""
    return state_dir / "last_session_summary.md"


def writable(folder: Path) -> bool:
    """Whether files can be made in folder (created if missing); tried, since root passes every permission check."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


def ignore_runtime_files(state_dir: Path) -> None:
    """Keep secrets and runtime data out of the project's git history, once the folder holds anything."""
    gitignore = state_dir / ".gitignore"
    with contextlib.suppress(OSError):  # a full disk: the next start that can write it does
        current = gitignore.read_text(encoding="utf-8", errors="replace") if gitignore.exists() else ""
        if not current:
            write_atomic(gitignore, GITIGNORE.encode())
        elif current.startswith(GITIGNORE_HEADER) and ".gitignore" not in current.split():  # written by an older one
            write_atomic(gitignore, (current.rstrip("\n") + "\n.gitignore\n").encode())
