"""Which programs delete files, empty or replace them, or throw away uncommitted work — and with which arguments.

Each rule gets the whole argv (None where a word is computed at run time), the command, and the check in progress
(for shell text a program will run). A reason is a short phrase; Bash joins them into its question to the user.
"""

import os
import re
from collections.abc import Callable
from pathlib import Path

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.archives import ARCHIVERS
from narnat_agent.safety.check import OWN_FOLDER_LOST, Argv, Check, may_be_options, own_folder
from narnat_agent.safety.edits import ansible, in_place, keygen
from narnat_agent.safety.git import git
from narnat_agent.safety.probes import find_selection, named
from narnat_agent.safety.syntax import Command, names, operands, positionals, short_option

DELETERS = names("rm rmdir unlink shred srm wipe trash trash-put trash-rm rimraf del-cli wipefs truncate")
FIND_ACTIONS = ("-exec", "-execdir", "-ok", "-okdir")
MAX_LIST = 64_000  # bytes of a list of names read
VARIABLE = re.compile(r"\$\{?([A-Za-z_]\w*)\}?")


def deletions(name: str, argv: Argv, command: Command, check: Check) -> list[str]:
    """Why running argv would delete or replace files, or discard work; empty when it would not."""
    if name in DELETERS or name.startswith("mkfs"):
        args = argv[1:]
        if args and set(args) <= {"--help", "--version"}:
            return []
        if (said := _how(name, argv, check)) is not None:
            return [said] if said else []  # "": a listing (wipefs without -a)
        words = paths_of(argv, command, check)
        check.verdict.targets += [path for _, path in words if path]
        targets = " ".join(shown for shown, _ in words) or "(no operands)"
        if own_folder([path for _, path in words if path]):
            return [Said(N_("{program} deletes files: {targets} — {lost}"), program=name, targets=targets,
                         lost=OWN_FOLDER_LOST)]  # fmt: skip
        elsewhere = any(_outside(path, check.cwd) for _, path in words)
        if elsewhere:
            return [Said(N_("{program} deletes files: {targets} — /undo restores only the project's files"),
                         program=name, targets=targets)]  # fmt: skip
        return [Said(N_("{program} deletes files: {targets}"), program=name, targets=targets)]
    # perl is read as an interpreter elsewhere (its code, its script's words); its -i is this rule's
    rule = RULES.get(name) or (in_place if name == "perl" else None)
    reason = rule(argv, command, check) if rule else None
    return [reason] if reason else []


def paths_of(argv: Argv, command: Command, check: Check) -> list[tuple[str, str | None]]:
    """Each operand as the question shows it, and the path it is (None when unknown): a word computed at run time
    is shown as written, its variables resolved from Bash's environment when that is known."""
    offset = len(command.argv) - len(argv)
    aligned = offset >= 0 and command.argv[offset:] == argv and len(command.raw) == len(command.argv)
    found: list[tuple[str, str | None]] = []
    ended = False
    for i, word in enumerate(argv[1:], 1):
        if word is not None and word.startswith("-") and word != "-" and not ended:
            ended = word == "--"
            continue
        if word is not None and (expanded := home(word, check)) != word and _is_home(expanded, check):
            # `rm -rf ~/`, said as `rm -rf "$HOME/"` is
            found.append((Said(N_("{path} (your home folder)"), path=expanded.rstrip("/") + "/"), expanded))
        elif word is not None:
            found.append(_placed(home(word, check), check))
        else:
            shown, path = _resolved(command.raw[offset + i], check) if aligned else ("$…", None)
            found.append(_placed(shown, check) if path is not None and shown == path else (shown, path))
    return found


def home(word: str, check: Check) -> str:
    """`~` and `~/x` as the shell expands them, from Bash's environment (as written when it is not known)."""
    given = (check.env or {}).get("HOME")
    return given.rstrip("/") + word[1:] if given and (word == "~" or word.startswith("~/")) else word


def _is_home(path: str, check: Check) -> bool:
    return path.rstrip("/") == (check.env or {}).get("HOME", "").rstrip("/")


def _placed(path: str, check: Check) -> tuple[str, str]:
    """A relative path where a `cd` in front of it put the command (`cd "$DIR" && rm -rf ./*`): under that folder."""
    if check.directory is None or path.startswith(("/", "~")):
        return path, path
    placed = os.path.join(check.directory, path)
    return placed, placed


def _resolved(raw: str, check: Check) -> tuple[str, str | None]:
    """A word as the shell would expand its variables (`"$BUILD_DIR/"*` with BUILD_DIR unset is `/*`), said with
    what it is; as written when it runs other code or its variables are set by the command itself."""
    text = raw.replace('"', "").replace("'", "")
    names_ = VARIABLE.findall(text)
    if check.env is None or "$(" in text or "`" in text or not names_ or set(names_) & check.assigned:
        return text, None
    path = VARIABLE.sub(lambda m: check.env.get(m.group(1), "") if check.env else "", text)
    unset = [n for n in names_ if n not in check.env]
    if unset:
        return Said(N_("{word} ({names} unset: the path becomes {path})"), word=text, names=", ".join(unset),
                    path=path or "''"), path  # fmt: skip
    if path.rstrip("/") == check.env.get("HOME", "").rstrip("/") and path:
        return Said(N_("{path} (your home folder)"), path=path), path
    return path, path


def _how(name: str, argv: Argv, check: Check) -> str | None:
    """What deleters that do not delete say they do: truncate empties or cuts, shred overwrites, wipefs erases ("" when
    it only lists)."""
    if name == "truncate":
        size = _value(argv, "-s", "--size")
        files = " ".join(a or "$…" for a in positionals(argv[1:], ("-s", "--size", "-r", "--reference")))
        if size is None or re.fullmatch(r"0+[KMGTPEZY]?i?B?", size):
            return Said(N_("truncate empties {files}"), files=files)
        return Said(N_("truncate cuts {files} to {size}"), files=files, size=size)
    files = " ".join(home(a, check) if a else "$…" for a in operands(argv))
    if name == "shred":
        deletes = "--remove" in argv or any(a and a.startswith("--remove=") for a in argv) or short_option(argv, "u")
        return Said(N_("shred overwrites and deletes {files}") if deletes else N_("shred overwrites {files}"),
                    files=files)  # fmt: skip
    if name != "wipefs":
        return None
    # wipefs(8): without --all or --offset it only lists the signatures it finds
    erases = (
        {"-a", "--all", "-o", "--offset"} & set(argv)
        or short_option(argv[1:], "a")
        or any(a and a.startswith(("--all=", "--offset=")) for a in argv)
    )
    return Said(N_("wipefs erases the signatures on {device}"), device=files) if erases else ""


def _value(argv: Argv, short: str, long: str) -> str | None:
    """An option's value given as `-s 0`, `-s0`, `--size 0` or `--size=0` (None when absent)."""
    for i, word in enumerate(argv[1:], 1):
        if word in (short, long):
            return argv[i + 1] if i + 1 < len(argv) else None
        if word and word.startswith(long + "="):
            return word.split("=", 1)[1]
        if word and word.startswith(short) and len(word) > 2 and not word.startswith("--"):
            return word[2:]
    return None


def _outside(path: str | None, cwd: Path | None) -> bool:
    """A path that is not under the directory the command runs in (`/x`, `~/x`, `../x`): /undo does not reach it."""
    if path is None:
        return False
    full = os.path.normpath(os.path.join(cwd or "", os.path.expanduser(path)))
    if not os.path.isabs(full):  # relative, and where it is relative to is not known
        return full == ".." or full.startswith("../")
    try:
        return cwd is None or os.path.commonpath([full, str(cwd)]) != str(cwd)
    except ValueError:  # on Windows, another drive
        return True


def silent(argv: Argv, command: Command) -> bool:
    """The command prints nothing, so redirecting it over a file only empties the file."""
    if not argv or argv[0] in (":", "true", "false"):
        return True
    name, args = argv[0], argv[1:]
    if name == "exec":  # redirections of the shell itself: `exec 3> f`, `exec {fd}> f`
        return all(a is not None and re.fullmatch(r"\{\w+\}", a) for a in args)
    if name == "cat":
        return args == ["/dev/null"] or not args and command.stdin_file == "/dev/null"
    if name == "echo":
        return all(a in ("-n", "-e", "-E", "") for a in args)
    return name == "printf" and args == [""]


def _find(argv: Argv, command: Command, check: Check) -> str | None:
    i = 0
    while i < len(argv):  # each -exec command once: the next one starts after its terminator
        if argv[i] in FIND_ACTIONS:
            end = next((j for j in range(i + 1, len(argv)) if argv[j] in (";", "+")), len(argv))
            selected = selection(argv, check) if argv[i + 1 : i + 2] and argv[i + 1] in DELETERS else None
            inner = [selected if word == "{}" and selected else word for word in argv[i + 1 : end]]
            check.command(Command(argv=inner, splits=command.splits))
            i = end
        i += 1
    if "-delete" in argv:
        selected = selection(argv, check, command)
        listed = selected != Said(N_("what find selects"))
        if listed:
            return Said(N_("find -delete deletes {selected}"), selected=selected)
        if check.env is not None and (starts := _starts(argv, command, check)):  # as Bash's environment makes them
            return Said(N_("find -delete deletes the files it finds under {paths}"), paths=" ".join(starts))
        return Said(N_("find -delete deletes the files it finds"))
    return Said(N_("find gets words computed at run time, which may be actions")) if command.splits else None


def _starts(argv: Argv, command: Command, check: Check) -> list[str]:
    """The folders find starts from (the words before its expression), as the shell expands them; [] when one
    cannot be said."""
    end = next((i for i, w in enumerate(argv[1:], 1) if w is not None and w.startswith(("-", "(", "!"))), len(argv))
    found = paths_of(argv, command, check)[: end - 1]  # none of these words is an option: each is one of them
    return [shown for shown, _ in found] if all(path is not None for _, path in found) else []


def selection(argv: Argv, check: Check, command: Command | None = None) -> str:
    """What a find command selects, said for a question: counted and the first few named when a listing of the same
    selection can be made here (its deleting actions printing instead), else what decides it."""
    words: list[str] = []
    starts = _starts(argv, command, check) if command is not None and None in argv else []
    i = 1
    while i < len(argv):
        word = argv[i]
        if word is None and i <= len(starts):
            word = starts[i - 1]  # a start folder named by a variable, as the shell expands it
        if word is None:
            return Said(N_("what find selects"))
        if word in FIND_ACTIONS and argv[i + 1 : i + 2] and argv[i + 1] in DELETERS:
            i = next((j for j in range(i + 1, len(argv)) if argv[j] in (";", "+")), len(argv))
            words.append("-print")
        else:
            words.append(word)
        i += 1
    found = find_selection(words, check.cwd, check.env) if check.env is not None and check.cwd is not None else None
    return named(sorted(found) if found is not None else None, Said(N_("what find selects")))


def fed_names(command: Command, check: Check) -> str | None:
    """What xargs hands the command it runs: the names in the file it reads them from (its stdin, or -a FILE), or
    those its upstream prints."""
    argv = command.argv
    given = next((argv[i + 1] for i, a in enumerate(argv[:-1]) if a in ("-a", "--arg-file")), None)
    given = given or next((a.split("=", 1)[1] for a in argv if a and a.startswith("--arg-file=")), None)
    listing = given or command.stdin_file
    if listing:
        text = None
        if check.cwd is not None:
            try:
                with open(check.cwd / listing, "rb") as f:
                    text = f.read(MAX_LIST).decode("utf-8", "replace")
            except OSError:
                text = None
        listed = Said(N_("the names listed in {file}"), file=listing)
        return named(text.split() if text is not None else None, listed)
    upstream = command.upstream
    if upstream is None or not upstream.argv or upstream.argv[0] is None:
        return None
    if upstream.name == "find":
        return selection(upstream.argv, check)
    return Said(N_("the names {program} prints"), program=upstream.name or "")


def _rsync(argv: Argv, command: Command, check: Check) -> str | None:
    if "--dry-run" in argv or short_option(argv[1:], "n"):
        return None
    if any(a and a.startswith(("--del", "--remove-source-files")) for a in argv):
        return Said(N_("rsync deletes files (--delete / --remove-source-files)"))
    return may_be_options("rsync") if command.splits else None


def _sort(argv: Argv, command: Command, check: Check) -> str | None:
    out = next((argv[i + 1] for i, a in enumerate(argv[:-1]) if a in ("-o", "--output")), None)
    out = out or next((a.split("=", 1)[1] for a in argv if a and a.startswith("--output=")), None)
    out = out or next((a[2:] for a in argv[1:] if a and a.startswith("-o") and len(a) > 2), None)
    inputs = [
        a for i, a in enumerate(argv[1:], 1) if a is None or a[:1] != "-" and argv[i - 1] not in ("-o", "--output")
    ]
    empty = inputs == ["/dev/null"] or not inputs and command.stdin_file == "/dev/null"
    return Said(N_("sort -o replaces {file}"), file=out) if out and (out in inputs or empty) else None


def _tee(argv: Argv, command: Command, check: Check) -> str | None:
    if "--append" in argv or short_option(argv[1:], "a"):
        return None  # appending nothing loses nothing
    upstream = command.upstream
    empty = command.stdin_file == "/dev/null" or upstream is not None and silent(upstream.argv, upstream)
    files = [a or "$…" for a in operands(argv)]
    return Said(N_("tee empties {files}"), files=" ".join(files)) if empty and files else None


def _ln(argv: Argv, command: Command, check: Check) -> str | None:
    if "--force" in argv or short_option(argv[1:], "f"):
        target = operands(argv)[-1:]
        return (
            Said(N_("ln -f replaces {file}"), file=target[0] or "$…")
            if target
            else Said(N_("ln -f replaces its target"))
        )
    return None


def _words(argv: Argv) -> list:
    return [a for a in argv[1:] if a is None or not a.startswith("-")]


def _dd(argv: Argv, command: Command, check: Check) -> str | None:
    """dd of= overwrites the file or device it names; a new file (looked at from cwd) loses nothing."""
    for word in argv[1:]:
        out = None if word is None else word[3:] if word.startswith("of=") else ""
        if out is None:
            return Said(N_("dd of= overwrites its output file"))
        if out and out != "/dev/null" and (check.cwd is None or out.startswith("/dev/") or _exists(out, check.cwd)):
            return Said(N_("dd overwrites {file}"), file=out)
    return None


def _exists(name: str, cwd: Path) -> bool:
    return os.path.lexists(os.path.join(cwd, os.path.expanduser(name)))


def _fallocate(argv: Argv, command: Command, check: Check) -> str | None:
    """fallocate(1): --punch-hole, --zero-range and --collapse-range discard the file's data in the range."""
    discards = {"-p", "--punch-hole", "-z", "--zero-range", "-c", "--collapse-range"}
    if discards & set(argv[1:]) or any(short_option(argv[1:], letter) for letter in "pzc"):
        file = operands([a for i, a in enumerate(argv) if i == 0 or argv[i - 1] not in ("-o", "-l", "--offset",
                                                                                          "--length")])  # fmt: skip
        return Said(N_("fallocate discards part of {file}'s data"), file=file[-1] or "$…" if file else "a file")
    return None


def _parted(argv: Argv, command: Command, check: Check) -> str | None:
    """parted(8): mklabel writes a new, empty partition table; rm deletes a partition."""
    words = _words(argv)
    if {"mklabel", "mktable", "rm"} & {w for w in words if w}:
        return Said(N_("{program} erases {device}"), program="parted", device=next((w for w in words if w), "a disk"))
    return None


def _device(argv: Argv, command: Command, check: Check) -> str | None:
    name = (argv[0] or "").rsplit("/", 1)[-1]
    if set(argv[1:]) & {"--help", "-h", "--version", "-V"}:
        return None
    return Said(N_("{program} erases {device}"), program=name, device=" ".join(a or "$…" for a in operands(argv)))


Rule = Callable[[Argv, Command, Check], str | None]
RULES: dict[str, Rule] = {
    "find": _find,
    "rsync": _rsync,
    "sort": _sort,
    "tee": _tee,
    "ln": _ln,
    "dd": _dd,
    **ARCHIVERS,
    "git": git,
    "mv": lambda a, c, k: Said(N_("mv to /dev/null destroys the file")) if a[-1:] == ["/dev/null"] else None,
    "cp": lambda a, c, k: (
        Said(N_("{program} from /dev/null empties the file"), program="cp") if "/dev/null" in operands(a)[:-1] else None
    ),
    "install": lambda a, c, k: (
        Said(N_("{program} from /dev/null empties the file"), program="install")
        if "/dev/null" in operands(a)[:-1]
        else None
    ),
    "sponge": lambda a, c, k: (
        Said(N_("sponge replaces {files}"), files=" ".join(x or "$…" for x in operands(a))) if operands(a) else None
    ),
    "fallocate": _fallocate,
    "sed": in_place,
    "gsed": in_place,
    "ssh-keygen": keygen,
    "ansible": ansible,
    "parted": _parted,
    # what they erase is a device or volume, the whole of it (mkswap(8), blkdiscard(8), lvremove(8), vgremove(8))
    **{device: _device for device in ("mkswap", "blkdiscard", "lvremove", "vgremove", "pvremove")},
    "gio": lambda a, c, k: (
        Said(N_("{program} deletes files"), program="gio") if _words(a)[:1] in (["trash"], ["remove"], ["rm"]) else None
    ),
    "cmake": lambda a, c, k: (
        Said(N_("{program} deletes files"), program="cmake -E")
        if a[1:3] in (["-E", "rm"], ["-E", "remove"], ["-E", "remove_directory"])
        else None
    ),
}
