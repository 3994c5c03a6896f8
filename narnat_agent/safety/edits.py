"""Programs that change a file or a setting where it is and lose what was there: `sed -i` and `perl -i` deleting
or blanking lines of an existing file, `ssh-keygen` writing a key over an existing one, and Ansible's ad hoc
modules removing what they manage on the hosts they reach (`state=absent`) or running a command there."""

import os
import re

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.check import NOT_UNDOABLE, Argv, Check
from narnat_agent.safety.overwrites import existing_file
from narnat_agent.safety.syntax import Command, fed_code, positionals, short_option

# sed(1): an address (a line, a range, a /regex/) and the d command; s/RE/REPLACEMENT/ whose replacement is empty
# or is the part of RE before the `.*` it ends with (`s/^KEY=.*/KEY=/` blanks the value)
ADDRESS = r"(?:\d+|\$|/(?:\\.|[^/\n])*/)(?:\s*,\s*(?:\d+|\$|/(?:\\.|[^/\n])*/))?"
DELETE = re.compile(rf"(?:^|[;\n])\s*({ADDRESS})\s*d\s*(?=;|\n|$)")
SUBSTITUTE = re.compile(r"(?:^|[;\n])\s*s([/|#,:])((?:\\.|(?!\1).)*)\1((?:\\.|(?!\1).)*)\1[gip0-9]*\s*(?=;|\n|$)")
SED_VALUES = ("-l", "--line-length", "-f", "--file")
PERL_CODE = re.compile(r"-[a-zA-Z0-9]*[eE]")
READS = set("lyRFHeiDYkQpcBrA")  # ssh-keygen(1)'s options that do something else than make a new key
ANSIBLE_VALUES = ("-i", "--inventory", "-u", "--user", "-l", "--limit", "-f", "--forks", "-e", "--extra-vars",
                  "-T", "--timeout", "-b", "--become-user", "-M", "--module-path", "-c", "--connection", "-P", "-B",
                  "--become-method", "--vault-id", "--private-key", "-t", "--tree")  # fmt: skip
RUNS_COMMANDS = ("command", "shell", "raw", "ansible.builtin.command", "ansible.builtin.shell", "ansible.builtin.raw")


def in_place(argv: Argv, command: Command, check: Check) -> str | None:
    """`sed -i` or `perl -pi` that deletes lines (`1,20d`, `/^KEY/d`) or blanks what they hold
    (`s/^KEY=.*/KEY=/`) in a file that exists: which lines of which file."""
    name = (argv[0] or "").rsplit("/", 1)[-1]
    args = argv[1:]
    if None in args:
        return None
    words = [a for a in args if a is not None]
    if name == "perl":
        if not any(re.fullmatch(r"-[a-zA-Z0-9]*i\S*", a) for a in words) or not short_option(words, "p"):
            return None
        at = next((i for i, a in enumerate(words) if PERL_CODE.fullmatch(a)), None)
        if at is None or at + 1 >= len(words):
            return None
        script, files = words[at + 1], positionals(words[at + 2 :])
    else:
        if not any(re.fullmatch(r"-[nErsuz]*i\S*", a) or a.startswith("--in-place") for a in words):
            return None
        codes = sed_scripts(words)
        rest = positionals(words, SED_VALUES + ("-e", "--expression"))
        script, files = ("\n".join(codes), rest) if codes else (rest[0] if rest else "", rest[1:])
    existing = [f for f in files if f and existing_file(os.path.expanduser(f), check.cwd)]
    if not existing:
        return None
    shown = " ".join(existing)
    if found := DELETE.search(script):
        lines = found.group(1)
        if lines.startswith("/") or "/" in lines:
            return Said(N_("{program} -i deletes the lines matching {pattern} from {files}"), program=name,
                        pattern=lines, files=shown)  # fmt: skip
        return Said(N_("{program} -i deletes lines {lines} of {files}"), program=name, lines=lines, files=shown)
    for match in SUBSTITUTE.finditer(script):
        pattern, replacement = match.group(2), match.group(3)
        kept = re.sub(r"\.\*\$?$", "", pattern).lstrip("^")
        if replacement == "" or pattern.rstrip("$").endswith(".*") and replacement == kept:
            return Said(N_("{program} -i blanks the text matching {pattern} in {files}"), program=name,
                        pattern=f"/{pattern}/", files=shown)  # fmt: skip
    return None


def sed_scripts(words: list[str]) -> list[str]:
    """The scripts sed is given with -e, in each of its spellings: `-e SCRIPT`, `--expression SCRIPT`,
    `--expression=SCRIPT` and `-eSCRIPT` (the shell joins `-e'1d'` into one word)."""
    found = []
    for i, word in enumerate(words):
        if word in ("-e", "--expression"):
            found += words[i + 1 : i + 2]
        elif word.startswith("--expression="):
            found.append(word.split("=", 1)[1])
        elif word.startswith("-e") and len(word) > 2 and words[i - 1 : i] not in (["-e"], ["--expression"]):
            found.append(word[2:])
    return found


def keygen(argv: Argv, command: Command, check: Check) -> str | None:
    """ssh-keygen(1) writing a new key to -f FILE: over a key that exists, or told yes to its "Overwrite?" on
    stdin (`<<< y`, `yes |`), the old key is gone, and whatever trusted it with it."""
    args = [a for a in argv[1:] if a is not None]
    if any(a[:1] == "-" and a[1:2] in READS for a in args if not a.startswith("--")):
        return None  # it lists, prints, converts, signs or changes a passphrase: no new key
    if any(a.startswith("--") or a == "-?" for a in args):
        return None  # it has no long options: one of them, or -?, makes it print its usage and stop
    file = next((args[i + 1] for i, a in enumerate(args[:-1]) if a == "-f"), None)
    file = file or next((a[2:] for a in args if a.startswith("-f") and len(a) > 2 and a[1:2] == "f"), None)
    if not file:
        return None
    home = (check.env or {}).get("HOME")
    path = home + file[1:] if home and file.startswith("~/") else os.path.expanduser(file)
    upstream = command.upstream
    answered = (fed_code(command) or "").strip().lower().startswith("y") or (
        upstream is not None and upstream.name == "yes"
    )
    if existing_file(path, check.cwd):
        return Said(N_("ssh-keygen replaces the key {file}, which exists — {undo}"), file=file, undo=NOT_UNDOABLE)
    if answered:
        return Said(N_("ssh-keygen is told yes to replacing the key {file} if it exists — {undo}"), file=file,
                    undo=NOT_UNDOABLE)  # fmt: skip
    return None


def ansible(argv: Argv, command: Command, check: Check) -> str | None:
    """`ansible HOSTS -m MODULE -a ARGS`: a module told `state=absent` removes what it manages (a file, a package,
    a user) on every host it reaches; the command modules (the default one included) run ARGS there."""
    args = argv[1:]
    module, given = "command", None  # ansible(1): -m defaults to command
    for i, word in enumerate(args):
        value = args[i + 1] if i + 1 < len(args) else None
        if word in ("-m", "--module-name"):
            module = value or ""
        elif word in ("-a", "--args"):
            given = value
        elif word is not None and word.startswith(("--module-name=", "--args=")):
            module, given = (word.split("=", 1)[1], given) if word.startswith("--module-name=") else (module, word[7:])
    if module in RUNS_COMMANDS and (given is not None or None in args):
        check.script(given, "ansible", remote=True)
        return None
    if given is not None and re.search(r"\bstate\s*=\s*absent\b", given):
        what = re.sub(r"\s*\bstate\s*=\s*absent\b", "", given).strip() or module
        return Said(N_("ansible's {module} module removes {what} on the hosts it reaches — {undo}"), module=module,
                    what=what, undo=NOT_UNDOABLE)  # fmt: skip
    return None
