"""Archivers: what tar, zip, 7-Zip and unzip lose — the files they archive and delete, the entries they delete from
an archive, and the existing files an extraction replaces.

A tar extraction is looked at: the archive's members are listed in process (read-only, bounded) and those that
exist where it extracts are named; an archive that is not there extracts nothing, one that cannot be listed asks.
"""

import fnmatch
import os
import re
import tarfile
from pathlib import Path

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.check import Argv, Check, may_be_options
from narnat_agent.safety.probes import MAX_LINES, named
from narnat_agent.safety.syntax import Command, operands, positionals, short_option

MAX_ARCHIVE = 64_000_000  # bytes of an archive listed; a bigger one cannot be listed here
OVERWRITES = ("--overwrite", "--recursive-unlink", "--unlink-first", "-U")  # tar(1): replace without a second look
KEEPS = ("--keep-old-files", "--skip-old-files", "--to-stdout", "--to-command")  # tar(1): nothing is replaced
TAR_VALUES = ("-T", "--files-from", "-X", "--exclude-from", "-b", "-H", "-I", "--use-compress-program")


def archived(argv: Argv, command: Command, check: Check) -> str | None:
    """What an archiver loses: the files tar --remove-files, zip -m and 7z -sdel archive, the entries zip -d and
    7z d delete, the existing files an extraction replaces."""
    name = (argv[0] or "").rsplit("/", 1)[-1]
    words = positionals(argv[1:])
    if (
        name == "tar"
        and "--remove-files" in argv
        or name == "zip"
        and ("--move" in argv or short_option(argv[1:], "m"))
    ):
        return Said(N_("{program} deletes what it archives"), program=name)
    if name == "zip" and ("--delete" in argv or short_option(argv[1:], "d")):
        return Said(N_("{program} deletes files from {archive}"), program="zip -d", archive=_first(words))
    if name.startswith("7z") and "-sdel" in argv:
        return Said(N_("{program} deletes what it archives"), program="7z -sdel")
    if name.startswith("7z") and words[:1] == ["d"]:  # 7-Zip's d command
        return Said(N_("{program} deletes files from {archive}"), program="7z d", archive=_first(words[1:]))
    if name.startswith("7z") and "-aoa" in argv:  # its switch to overwrite all existing files
        return Said(N_("{program} overwrites existing files with those of {archive}"), program="7z -aoa",
                    archive=_first(words[1:]))  # fmt: skip
    if name == "tar" and None not in argv and (said := _extracted([a or "" for a in argv], check)):
        return said
    return may_be_options(name) if command.splits else None


def _first(words: list[str | None]) -> str:
    return next((w for w in words if w), "the archive")


def _unzip(argv: Argv, command: Command, check: Check) -> str | None:
    """unzip(1) -o: overwrite existing files without asking."""
    if short_option(argv[1:], "o") and not short_option(argv[1:], "l"):
        return Said(N_("{program} overwrites existing files with those of {archive}"), program="unzip -o",
                    archive=_first(operands(argv)))  # fmt: skip
    return None


def _extracted(argv: list[str], check: Check) -> str | None:
    """tar -x: the existing files it replaces, listed from the archive; with --overwrite or --recursive-unlink
    it asks even when the archive cannot be looked at."""
    args = argv[1:]
    cluster = args[0] if args and not args[0].startswith("-") else ""  # `tar xzf a.tgz`: the old form
    letters = cluster + "".join(m.group(1) for a in args if (m := re.match(r"-([A-Za-z]*)", a)) and not _attached(a))
    letters += "".join(found.group(1) for a in args if (found := _attached(a)))
    if not ("x" in letters or {"--extract", "--get"} & set(args)) or "k" in letters or "O" in letters:
        return None
    if any(a.split("=", 1)[0] in KEEPS for a in args):
        return None
    archive, folder, members = _parts(args, cluster)
    forced = next((a for a in args if a in OVERWRITES), "")
    program = f"tar {forced}".strip()
    if archive is None or check.cwd is None:
        return _overwrites(program, archive or "the archive") if forced else None
    path = Path(os.path.expanduser(archive))
    path = path if path.is_absolute() else check.cwd / path
    if not path.is_file():
        return _overwrites(program, archive) if forced else None  # nothing to extract: tar fails
    target = Path(os.path.expanduser(folder)) if folder else check.cwd
    target = target if target.is_absolute() else check.cwd / target
    if not forced and not target.exists():
        return None  # into a folder that is not there yet (`mkdir -p d && tar -x… -C d`): it replaces nothing
    listed = _members(path)
    if listed is None:
        return _overwrites(program, archive)
    members = [os.path.normpath(w) for w in members]  # `./src/app.ts` is the member listed as src/app.ts
    patterns = members if "--wildcards" in args else []  # tar(1): shell patterns then, `*` matching `/` too
    wanted = [m for m in listed if not members or any(m == w or m.startswith(w.rstrip("/") + "/") for w in members)
              or any(fnmatch.fnmatchcase(m, p) for p in patterns)]  # fmt: skip
    replaced = [m for m in wanted if (target / m).is_file()]
    if not replaced and not forced:
        return None
    return named(replaced, _overwrites(program, archive)) if replaced else _overwrites(program, archive)


def _attached(word: str) -> re.Match[str] | None:
    """A cluster whose -f or -C has its value in the same word (`-xzfa.tgz`, `-Cout`): its letters, and the value."""
    return re.fullmatch(r"-([A-BD-Za-eg-z]*[fC])(.+)", word)


def _overwrites(program: str, archive: str) -> str:
    return Said(N_("{program} overwrites existing files with those of {archive}"), program=program, archive=archive)


def _parts(args: list[str], cluster: str) -> tuple[str | None, str | None, list[str]]:
    """The archive (-f), the folder it extracts into (-C) and the members named, from tar's arguments."""
    archive = folder = None
    members: list[str] = []
    rest = args[1:] if cluster else args
    if "f" in cluster and rest:  # the old form takes -f's value first
        archive, rest = rest[0], rest[1:]
    i = 0
    while i < len(rest):
        word, value = rest[i], rest[i + 1] if i + 1 < len(rest) else None
        if word.startswith(("--file=", "--directory=")):
            archive, folder = (word[7:], folder) if word.startswith("--file=") else (archive, word[12:])
        elif attached := _attached(word):
            archive, folder = (attached[2], folder) if attached[1].endswith("f") else (archive, attached[2])
        elif word == "--file" or re.fullmatch(r"-[A-Za-z]*f", word):
            archive, i = value, i + 1
        elif word == "--directory" or re.fullmatch(r"-[A-Za-z]*C", word):
            folder, i = value, i + 1
        elif word in TAR_VALUES:
            i += 1
        elif not word.startswith("-"):
            members.append(word)
        i += 1
    return archive, folder, members


def _members(path: Path) -> list[str] | None:
    """The regular files a tar archive holds, read in process (gzip, bzip2 and xz too); None when it cannot be
    listed here (not a tar archive, too big, or more members than a question lists)."""
    if path.stat().st_size > MAX_ARCHIVE:
        return None
    found: list[str] = []
    try:
        with tarfile.open(path, "r:*", encoding="utf-8") as tar:
            for member in tar:
                if member.isfile():
                    found.append(os.path.normpath(member.name))
                if len(found) > MAX_LINES:
                    return None
    except (tarfile.TarError, OSError, EOFError):
        return None
    return found


ARCHIVERS = {"tar": archived, "zip": archived, "7z": archived, "7za": archived, "7zr": archived, "unzip": _unzip}
