"""Package scripts and make/just targets, read from the project's files: `npm run db:reset` runs the text that
package.json gives `db:reset` (and its pre/post scripts), `make clean-db` the recipes of clean-db and of what it
depends on, `composer reset-db` and `just reset-db` theirs. That text is checked as the command it is, and what it
would destroy or never end is said with the script's name. A script that cannot be read (no such file, no such
script, a folder of another package) asks only when its name says it destroys."""

import json
import re
import shlex
from pathlib import Path

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.check import Argv, Check
from narnat_agent.safety.code import INTERPRETERS, SHELLS, scan
from narnat_agent.safety.endless import SCRIPTS
from narnat_agent.safety.refusals import FOLLOWING
from narnat_agent.safety.syntax import Command, names
from narnat_agent.safety.vocabulary import said_by_name

MAX_FILE = 256_000  # bytes of a package.json, Makefile or justfile read; a longer one cannot be read
MAX_TARGETS = 32  # targets and scripts followed from one command (prerequisites, @script calls)
NPM_ALIASES = {"t": "test", "tst": "test", "test": "test", "start": "start", "stop": "stop", "restart": "restart"}
RUN_WORDS = names("run run-script rum urn")
OTHER_PACKAGE = names("-w --workspace --workspaces -ws -r --recursive --filter -F --all -A")  # another package.json
DIRECTORY = names("--prefix -C --dir --cwd")
MANAGER_VALUES = names("-w --workspace --filter -F --prefix -C --dir --cwd --loglevel --reporter")
PNPM_OWN = names(
    "add audit bin c cache config create dedupe deploy dlx doctor env exec fetch get help i import init install "
    "install-test it licenses link list ln ls outdated pack patch patch-commit patch-remove prune publish rb rebuild "
    "recursive remove rm root run server set setup store t test un uninstall unlink up update why x start"
)
BUN_OWN = names(
    "add build create exec i init install link outdated patch pm publish remove repl rm run test unlink update "
    "upgrade x"
)
COMPOSER_OWN = names(
    "about archive audit browse bump check-platform-reqs clear-cache config create-project depends diagnose "
    "dump-autoload dumpautoload exec fund global help home init install i licenses list outdated prohibits reinstall "
    "remove require run-script run search self-update show status suggests update u upgrade validate why why-not"
)
MAKE_VALUES = names("-C -f --file --makefile -I -j -l -o -W --directory --include-dir --jobs --load-average")
MAKE_DRY = names("-n --dry-run --just-print --recon -q --question -p --print-data-base")
MAKE_DEFAULTS = {"MAKE": "make", "RM": "rm -f", "CC": "cc", "CXX": "g++", "AR": "ar", "SHELL": "/bin/sh"}
MAKE_REF = re.compile(r"\$(?:\(([^()$]*)\)|\{([^{}$]*)\}|([@<^?*%+|]))")
ASSIGNMENT = re.compile(r"^(?:export\s+|override\s+)?([A-Za-z_][\w.]*)\s*(\?|:{1,3}|\+|!)?=\s*(.*)$")
RULE = re.compile(r"^([^\s:=#][^:=#]*?)\s*::?\s*(?!=)([^;#]*)")
JUST_RECIPE = re.compile(r"^@?([A-Za-z_][\w-]*)(?:\s+[^:]*)?:(?!=)\s*([^#]*)$")
SHELLS_SHEBANG = re.compile(r"#!\S*(?:/env\s+)?(?:ba|z|da)?sh\b")


def package_script(argv: Argv, command: Command, check: Check) -> list | None:
    """`npm run NAME`, `pnpm NAME`, `yarn NAME`, `bun run NAME`, `composer NAME`: the script's text checked (None when
    the command runs no script, so that the rest of the analysis reads it)."""
    manager = (argv[0] or "").rsplit("/", 1)[-1]
    given, options = _words(argv[1:])
    if None in given or not given:
        return None
    words = [w for w in given if w is not None]
    if manager == "yarn" and words[0] == "workspace" and len(words) > 2:
        # `yarn workspace NAME ARGS`: ARGS as yarn runs them in that package, whose scripts are not read here
        words, options = words[2:], [*options, "--workspace", words[1]]
    if manager == "composer":
        script = words[1] if words[0] in ("run-script", "run") and len(words) > 1 else words[0]
        if words[0] not in ("run-script", "run") and script in COMPOSER_OWN:
            return None
        extra = words[2 if words[0] in ("run-script", "run") else 1 :]
        return _run_scripts("composer", script, extra, options, check, argv)
    if words[0] in RUN_WORDS and len(words) > 1:
        script, extra = words[1], words[2:]
    elif manager == "npm" and words[0] in NPM_ALIASES:
        script, extra = NPM_ALIASES[words[0]], words[1:]
    elif manager in ("pnpm", "yarn", "bun") and words[0] not in PNPM_OWN | BUN_OWN | names("dlx workspace"):
        scripts = _scripts(manager, options, check)  # a script of this name, else a package's program
        if scripts is None or words[0] not in scripts:  # its name, whether a package's program or no script at all
            check.verdict.deletions += said_by_name(Said(N_("package script")), words[0])
            return list(argv) if scripts is None and words[0] in SCRIPTS else None  # `pnpm dev` serves by its name
        script, extra = words[0], words[1:]
    else:
        return None
    return _run_scripts(manager, script, extra, options, check, argv)


def _words(args: Argv) -> tuple[list[str | None], list[str]]:
    """The words that are not options, and the options (with the values of those that take one); after `--`, all
    words are the script's."""
    words: list[str | None] = []
    options: list[str] = []
    skip = ended = False
    for word in args:
        if skip:
            options.append(word or "")
            skip = False
        elif word == "--" and not ended:
            ended = True
        elif word is not None and word.startswith("-") and not ended:
            options.append(word)
            skip = word in MANAGER_VALUES
        else:
            words.append(word)
    return words, options


def _scripts(manager: str, options: list[str], check: Check) -> dict[str, object] | None:
    """The scripts of the package the manager would run, or None when they cannot be read here."""
    if check.cwd is None or OTHER_PACKAGE & {o.split("=", 1)[0] for o in options}:
        return None
    folder = check.cwd
    for i, option in enumerate(options):
        if option.split("=", 1)[0] in DIRECTORY:
            value = option.split("=", 1)[1] if "=" in option else options[i + 1] if i + 1 < len(options) else ""
            folder = folder / value
    text = read_small(folder / ("composer.json" if manager == "composer" else "package.json"))
    try:
        scripts = json.loads(text).get("scripts") if text else None
    except (ValueError, AttributeError):
        return None
    return scripts if isinstance(scripts, dict) else None


def _run_scripts(manager: str, script: str, extra: list[str], options: list[str], check: Check, argv: Argv) -> list:
    """Check each script that `manager run script` runs: pre<script>, script, post<script>; the command itself is
    left to check when the script cannot be read."""
    scripts = _scripts(manager, options, check)
    kind = Said(N_("package script"))
    if scripts is None or script not in scripts:
        check.verdict.deletions += said_by_name(kind, script)
        if extra:  # `npm run typeorm -- schema:drop`: what the words it is given destroy, read as the program it is
            check.verdict.deletions += check.deletions_in(
                shlex.join([script, *(w or "" for w in extra)])
            )  # named after
        return list(argv)  # what its name says: `npm run dev` serves
    hooks = [script] if manager in ("composer", "yarn") else [f"pre{script}", script, f"post{script}"]
    for name in [h for h in hooks if h in scripts]:
        body = scripts[name]
        lines = body if isinstance(body, list) else [body]
        for line in lines[:MAX_TARGETS]:
            text = line if isinstance(line, str) else None
            if manager == "composer" and text is not None:
                text = _composer_line(text, check, kind, name)
            if text is not None and name == script and extra:
                text = " ".join([text, *(w or "" for w in extra)])
            checked(text, Said(N_("the {kind} {name}"), kind=kind, name=name), check)
    return []  # its text said all it does


def _composer_line(line: str, check: Check, kind: str, name: str) -> str | None:
    """A composer script line as shell text: `@php x` runs php, `@other` another script; a PHP callback
    (`Vendor\\Class::method`) cannot be read."""
    if line.startswith("@php ") or line.startswith("@composer "):
        return line[1:]
    if line.startswith("@putenv "):
        return ""
    if line.startswith("@"):
        return f"composer run-script {line[1:]}"
    if re.fullmatch(r"[\w\\]+::\w+", line):
        check.verdict.deletions += said_by_name(kind, name)
        return ""
    return line


def checked(text: str | None, source: str, check: Check) -> None:
    """What the script's text would destroy or never end, said with its source; what it reads with a file tool is
    no concern here (the script is not the model's file operation), unless it never ends (`tail -f`)."""
    if text is None:
        check.verdict.deletions.append(Said(N_("{source} runs shell code computed at run time"), source=source))
        return
    verdict = check.analysed(text)
    check.verdict.deletions += [Said(N_("{source}: {reason}"), source=source, reason=r) for r in verdict.deletions]
    endless = verdict.interactive + [r for r in verdict.file_ops if getattr(r, "template", None) == FOLLOWING]
    check.verdict.interactive += [Said(N_("{source}: {reason}"), source=source, reason=r) for r in endless]


def script_file(language: str | None, path: str, check: Check) -> bool:
    """A script file of the project that a shell or an interpreter runs (`bash x.sh`, `python x.py`, `./x.sh`),
    read and checked as its code; False when it cannot be read here. `language` is the interpreter, None when
    the file runs itself (its first line names the interpreter)."""
    text = read_small(check.cwd / path) if check.cwd is not None else None
    if text is None:
        return False
    first = text.split("\n", 1)[0]
    if language is None:
        shebang = re.match(r"#!\s*(?:\S*/env\s+(?:-\S+\s+)*)?(\S+)", first)  # env's program, past its options
        language = shebang.group(1).rsplit("/", 1)[-1] if shebang else "sh" if path.endswith(".sh") else None
    source = Said(N_("the script {file}"), file=path)
    if language is None:
        return False
    if language in SHELLS:
        checked(text, source, check)
    elif INTERPRETERS.match(language):
        check.verdict.deletions += [
            Said(N_("{source}: {reason}"), source=source, reason=r) for r in scan(language, text, check.deletions_in)
        ]
    else:
        return False
    return True


def read_small(path: Path) -> str | None:
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_FILE + 1)
    except OSError:
        return None
    return data.decode("utf-8", "replace") if len(data) <= MAX_FILE else None


def make_targets(argv: Argv, command: Command, check: Check) -> None:
    """`make [TARGET…]`: the recipes that would run, read from the Makefile (with those of the prerequisites)."""
    args = [a for a in argv[1:]]
    if (
        None in args
        or MAKE_DRY & {a.split("=", 1)[0] for a in args if a}
        or any(a and re.fullmatch(r"-[a-zA-Z]*[nq][a-zA-Z]*", a) for a in args)
    ):
        return
    folder, files, targets, assigned = _make_arguments(args, check.cwd)
    kind = Said(N_("make target"))
    text = None
    if folder is not None:
        for name in files or ["GNUmakefile", "makefile", "Makefile"]:
            if (text := read_small(folder / name)) is not None:
                break
    rules, variables = _makefile(text or "")
    variables.update(assigned)
    wanted = targets or [next(iter(rules), "")]
    for target in wanted:
        if text is None or target not in rules:
            check.verdict.deletions += said_by_name(kind, target)
            continue
        for name, recipe in _recipes(target, rules, variables):
            checked(recipe, Said(N_("the {kind} {name}"), kind=kind, name=name), check)


def _make_arguments(args: list, cwd: Path | None) -> tuple[Path | None, list[str], list[str], dict[str, str]]:
    """make's folder (-C), makefiles (-f), targets and variables given on its command line."""
    folder, files, targets, assigned = cwd, list[str](), list[str](), dict[str, str]()
    i = 0
    while i < len(args):
        word = args[i] or ""
        option, attached = _attached(word)
        value = attached if attached is not None else args[i + 1] if i + 1 < len(args) else ""
        step = 1 if attached is not None else 2
        if option in ("-C", "--directory") and folder is not None:
            folder, i = folder / (value or ""), i + step
        elif option in ("-f", "--file", "--makefile"):
            files, i = [*files, value or ""], i + step
        elif word in MAKE_VALUES:
            i += 2
        elif not word.startswith("-") and "=" in word:
            assigned[word.split("=", 1)[0]], i = word.split("=", 1)[1], i + 1
        else:
            targets += [] if word.startswith("-") else [word]
            i += 1
    return folder, files, targets, assigned


def _attached(word: str) -> tuple[str, str | None]:
    """make's folder or makefile option with the value written in its own word (`--directory=sub`, `-Csub`,
    `-fother.mk`): the option and the value; else the word and None."""
    if word.startswith(("--directory=", "--file=", "--makefile=")):
        option, _, value = word.partition("=")
        return option, value
    if word[:2] in ("-C", "-f") and len(word) > 2:
        return word[:2], word[2:]
    return word, None


def _makefile(text: str) -> tuple[dict[str, tuple[list[str], list[str]]], dict[str, str]]:
    """A Makefile's explicit rules (target → prerequisites, recipe lines) in order, and its variables."""
    rules: dict[str, tuple[list[str], list[str]]] = {}
    variables: dict[str, str] = {}
    current: list[str] = []
    for line in text.replace("\\\n", " ").splitlines():
        if line.startswith("\t"):
            for target in current:
                rules[target][1].append(line[1:].lstrip("@-+ "))
            continue
        if assignment := ASSIGNMENT.match(line):
            _assign(variables, *assignment.groups())
            current = []
        elif (rule := RULE.match(line)) and "%" not in rule.group(1):
            current = [t for t in rule.group(1).split() if not t.startswith(".")]
            for target in current:
                rules.setdefault(target, ([], []))[0].extend(rule.group(2).split())
        elif line.strip() and not line.startswith("#"):
            current = []
    return rules, variables


def _assign(variables: dict[str, str], name: str, operator: str | None, value: str) -> None:
    """A Makefile's assignment as make reads it: `?=` only when unset, `+=` appends, `!=` runs the shell (its value
    unknown), any other replaces."""
    value = "$${MAKE_FUNCTION}" if operator == "!" else value.strip()  # $$: a dollar, as the recipe expands it
    if operator == "?":
        variables.setdefault(name, value)
    elif operator == "+" and name in variables:
        variables[name] = f"{variables[name]} {value}"
    else:
        variables[name] = value


def _recipes(target: str, rules: dict, variables: dict[str, str]) -> list[tuple[str, str]]:
    """The recipe lines that `make target` runs, prerequisites first, each with its target, variables expanded."""
    found: list[tuple[str, str]] = []
    seen: list[str] = []
    done: set[str] = set()
    stack = [(target, False)]
    while stack and len(seen) < MAX_TARGETS:
        name, ready = stack.pop()
        if ready:
            done.add(name)
            found += _lines(name, rules, variables)
        elif name in rules and name not in seen:
            seen.append(name)
            stack.append((name, True))
            stack += [(p, False) for p in reversed(rules[name][0])]
    # a chain deeper than the limit: the targets reached are still read, the deepest first as make runs them
    return found + [line for name in reversed(seen) if name not in done for line in _lines(name, rules, variables)]


def _lines(name: str, rules: dict, variables: dict[str, str]) -> list[tuple[str, str]]:
    prerequisites = rules[name][0]
    return [(name, _expand(line, name, prerequisites, variables)) for line in rules[name][1]]


def _expand(line: str, target: str, prerequisites: list[str], variables: dict[str, str], depth: int = 0) -> str:
    """make's `$(VAR)`, `${VAR}` and automatic variables, as make expands them (an unknown variable is empty, a
    function's value unknown)."""

    def value(match: re.Match) -> str:
        name = match.group(1) or match.group(2) or ""
        automatic = match.group(3)
        if automatic:
            return target if automatic == "@" else " ".join(prerequisites[:1] if automatic == "<" else prerequisites)
        if " " in name or "," in name:  # a function: $(shell …), $(wildcard …)
            return "${MAKE_FUNCTION}"
        found = variables.get(name, MAKE_DEFAULTS.get(name, ""))
        return _expand(found, target, prerequisites, variables, depth + 1) if depth < 8 else found

    return MAKE_REF.sub(value, line.replace("$$", "\0")).replace("\0", "$")


def just_recipes(argv: Argv, command: Command, check: Check) -> list:
    """`just [RECIPE…]`: the recipes' lines, read from the justfile (with their dependencies)."""
    args = [a for a in argv[1:] if a is not None]
    if {"-n", "--dry-run", "-l", "--list", "--summary", "--show", "-s", "--help", "--evaluate"} & set(args):
        return argv
    kind = Said(N_("just recipe"))
    text = None
    if check.cwd is not None:
        for name in ("justfile", "Justfile", ".justfile"):
            if (text := read_small(check.cwd / name)) is not None:
                break
    recipes = _justfile(text or "")
    words = [a for a in args if not a.startswith("-")]
    wanted = words or [next(iter(recipes), "")]  # `just a b` runs both (or a with its arguments: read alike)
    for recipe in wanted:
        if text is None or recipe not in recipes:
            check.verdict.deletions += said_by_name(kind, recipe)
            continue
        seen: list[str] = []
        stack = [recipe]
        while stack and len(seen) < MAX_TARGETS:
            name = stack.pop()
            if name in seen or name not in recipes:
                continue
            seen.append(name)
            dependencies, body = recipes[name]
            stack += dependencies
            if body[:1] and body[0].startswith("#!") and not SHELLS_SHEBANG.match(body[0]):
                check.verdict.deletions += said_by_name(kind, name)
                continue
            code = re.sub(r"\{\{[^}]*\}\}", "${JUST_VALUE}", "\n".join(body))
            checked(code, Said(N_("the {kind} {name}"), kind=kind, name=name), check)
    return argv


def _justfile(text: str) -> dict[str, tuple[list[str], list[str]]]:
    recipes: dict[str, tuple[list[str], list[str]]] = {}
    current = None
    for line in text.splitlines():
        if line[:1] in (" ", "\t") and current is not None:
            recipes[current][1].append(line.strip().lstrip("@-"))
        elif (recipe := JUST_RECIPE.match(line)) and not line.startswith(("set ", "alias ", "export ", "import ")):
            current = recipe.group(1)
            recipes[current] = ([w for w in recipe.group(2).split() if re.fullmatch(r"[\w-]+", w)], [])
        elif line.strip() and not line.startswith(("#", "[")):
            current = None
    return recipes
