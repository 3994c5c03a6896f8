"""Files a command would replace: a redirect onto a file that exists or that the same pipeline reads (the shell
empties it before anything reads it), and cp, mv or install onto an existing file. The file system is looked at
when the command is analysed, from the directory the command runs in."""

import os
from pathlib import Path

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.syntax import Command, names, operands, positionals

REPLACING = (">", ">|", "&>")
COPIERS = names("cp mv install")
VALUES = names("-t -S -m -o -g --target-directory --suffix --mode --owner --group")
KEEPS = names("-n --no-clobber --update=none -i --interactive -b --backup")  # nothing is lost: skipped or backed up


def redirected(command: Command, operator: str, target: str | None, cwd: Path | None) -> str | None:
    """Why writing the command's output to target loses data, or None."""
    if operator not in REPLACING or target is None or target.startswith("/dev/"):
        return None
    if target in _read_by_pipeline(command):
        return Said(N_("the redirection empties {file} before the pipeline reads it"), file=target)
    if existing_file(target, cwd):
        return Said(N_("the redirection replaces {file}, which exists"), file=target)
    return None


def replaces(name: str, target: str) -> str:
    return Said(N_("{program} replaces {file}, which exists"), program=name, file=target)


def _read_by_pipeline(command: Command) -> set[str | None]:
    """The files the commands of a pipeline up to this one name or read on stdin."""
    read: set[str | None] = set()
    stage: Command | None = command
    while stage is not None:
        read |= set(operands(stage.argv)) | {stage.stdin_file}
        stage = stage.upstream
    return read - {None}


def copied_over(name: str, argv: list[str | None], cwd: Path | None) -> str | None:
    """Why cp, mv, install or tee would replace an existing file, or None."""
    if name == "tee" and not {"-a", "--append"} & set(argv):
        return next((replaces("tee", f) for f in operands(argv) if f and existing_file(f, cwd)), None)
    if name not in COPIERS or cwd is None or any(a in KEEPS or (a or "").startswith("--backup") for a in argv[1:]):
        return None
    files = positionals(argv[1:], VALUES)
    into = next((argv[i + 1] for i, a in enumerate(argv[:-1]) if a in ("-t", "--target-directory")), None)
    if into is None and len(files) >= 2:
        files, into = files[:-1], files[-1]
    for source in files:
        if source is None or into is None:
            continue  # a name computed at run time: nothing to look at
        target = os.path.join(into, os.path.basename(source)) if _path(into, cwd).is_dir() else into
        if existing_file(target, cwd) and not _same(source, target, cwd):
            return replaces(name, target)
    return None


def _path(name: str, cwd: Path) -> Path:
    return Path(os.path.expanduser(name)) if name.startswith(("/", "~")) else cwd / name


def existing_file(name: str, cwd: Path | None) -> bool:
    return cwd is not None and _path(name, cwd).is_file()


def _same(source: str, target: str, cwd: Path) -> bool:
    try:
        return _path(source, cwd).samefile(_path(target, cwd))
    except OSError:
        return False
