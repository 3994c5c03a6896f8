"""Programs that run another program: the command under `sudo -u x`, `timeout 5`, `npx pkg@1`, `uv run`, … .

A wrapper's options are read by their shape (`--opt=value`, a known option that takes a value, a flag). An option
the table does not know makes the analysis unsure where the command starts, so every later word naming a
program that can delete (a deleter, a shell, an interpreter, git, …) is checked as a command of its own.
"""

import re
from dataclasses import dataclass, replace

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.check import Argv, Check
from narnat_agent.safety.code import INTERPRETERS, SHELLS
from narnat_agent.safety.deletions import DELETERS, RULES
from narnat_agent.safety.families import BY_PROGRAM
from narnat_agent.safety.pyproject import RUNNERS as TASK_RUNNERS
from narnat_agent.safety.pyproject import pyproject_task
from narnat_agent.safety.runners import SPECIAL
from narnat_agent.safety.sql import CLIENTS
from narnat_agent.safety.syntax import EXPANDS, Command, names, positionals
from narnat_agent.safety.tasks import PNPM_OWN, package_script
from narnat_agent.safety.windows import CMDS, POWERSHELLS


@dataclass(frozen=True)
class Wrapper:
    values: frozenset[str] = frozenset()  # options that take the next word as their value
    skip: int = 0  # positional words before the command (timeout's duration, chroot's new root)
    scripts: frozenset[str] = frozenset()  # options whose value is shell text (su -c, flock -c, env -S)


def _w(values: str = "", skip: int = 0, scripts: str = "") -> Wrapper:
    return Wrapper(frozenset(values.split()), skip, frozenset(scripts.split()))


WRAPPERS = {
    "sudo": _w(
        "-u -g -h -p -C -D -r -t -U -T --user --group --host --prompt --chdir --role --type --other-user "
        "--close-from --command-timeout"
    ),
    "doas": _w("-u -C"),
    "env": _w("-u -C --unset --chdir", scripts="-S --split-string"),
    "command": _w(),
    "builtin": _w(),
    "exec": _w("-a"),
    "nohup": _w(),
    "setsid": _w(),
    "unbuffer": _w(),
    "chronic": _w(),
    "busybox": _w(),
    "shx": _w(),
    "coproc": _w(),
    "fakeroot": _w("-l -s -i -b"),
    "time": _w("-o -f --output --format"),
    "nice": _w("-n --adjustment"),
    "ionice": _w("-c -n -p -P -u --class --classdata"),
    "chrt": _w(skip=1),
    "timeout": _w("-s -k --signal --kill-after", skip=1),
    "stdbuf": _w("-i -o -e --input --output --error"),
    "taskset": _w(skip=1),
    "flock": _w("-w -E --timeout --conflict-exit-code", skip=1, scripts="-c --command"),
    "xargs": _w(
        "-I -i -n -L -l -P -s -d -E -e -a --max-args --max-procs --delimiter --arg-file --max-lines "
        "--replace --eof --max-chars --process-slot-var"
    ),
    "chroot": _w("--userspec --groups", skip=1),
    "setpriv": _w(
        "--reuid --regid --groups --inh-caps --ambient-caps --bounding-set --securebits --pdeathsig "
        "--selinux-label --apparmor-profile --landlock-access --landlock-rule"
    ),
    "su": _w("-g -G -s -w --group --supp-group --shell --whitelist-environment", scripts="-c --command"),
    "runuser": _w("-u -g -G -s -w --user --group --supp-group --shell", scripts="-c --command"),
    "script": _w(
        "-E -o -T -I -O -B --echo --output-limit --log-timing --log-in --log-out --log-io", scripts="-c --command"
    ),
    "systemd-run": _w(
        "-p -u -E -M --property --unit --setenv --uid --gid --nice --working-directory --machine "
        "--slice --description --on-calendar --on-active --timer-property --path-property"
    ),
    "strace": _w("-o -e -p -s -u -E -I -a -b -X -P -O -S --output --trace --signal --user --env"),
    "ltrace": _w("-o -e -p -s -u -a -n --output"),
    "npx": _w("-p --package", scripts="-c --call"),
    "pnpx": _w(),
    "bunx": _w("-p --package"),
    "uvx": _w("--from --with --python -p"),
    "nsenter": _w("-t --target"),
    "unshare": _w(),
    "sg": _w(skip=1),
    "catchsegv": _w(),
    "valgrind": _w(),
    "numactl": _w("-C -N -m -i -p -P --physcpubind --cpunodebind --membind --interleave --preferred"),
    "prlimit": _w("-p --pid"),
    "cgexec": _w("-g"),
    "nix-shell": _w("-p -I -A --arg --argstr --packages --attr", scripts="--run --command"),
    "firejail": _w(),
    "proot": _w("-r -b -w -q --rootfs --bind --cwd"),
    "pkexec": _w("--user"),
    "xvfb-run": _w("-n -s -e -f -p --server-num --server-args --error-file --auth-file"),
    "ccache": _w(),
    "nocache": _w(),
    "caffeinate": _w("-t -w"),
    "winpty": _w(),  # Git Bash's console bridge for programs that want a Windows console
    "dotenv": _w("-f -e -v"),
}
RUNNERS = {  # `<tool> <subcommand>` that runs the words after it as a command
    ("npm", "exec"): _w("-p --package -w --workspace", scripts="-c --call"),
    ("npm", "x"): _w("-p --package"),
    ("pnpm", "exec"): _w(),
    ("pnpm", "dlx"): _w(),
    ("yarn", "dlx"): _w("-p --package"),
    ("yarn", "exec"): _w(),
    ("yarn", "workspace"): _w(skip=1),  # `yarn workspace NAME rimraf dist`: a program of the package NAME
    ("bun", "x"): _w(),
    ("pipx", "run"): _w("--spec --python"),
    ("poetry", "run"): _w("-C --directory -P"),
    ("uv", "run"): _w(
        "--with --python -p --project --directory --package --extra --group --env-file --with-requirements "
        "--index --isolated-python"
    ),
    ("pdm", "run"): _w("-p --project"),
    ("pipenv", "run"): _w(),
    ("hatch", "run"): _w(),
    ("rye", "run"): _w(),
    ("pixi", "run"): _w("-e --environment"),
    ("conda", "run"): _w("-n -p --name --prefix"),
    ("direnv", "exec"): _w(skip=1),
    ("devbox", "run"): _w(),
    ("doppler", "run"): _w("-p -c --project --config"),
    ("op", "run"): _w("--env-file"),
    ("nix", "develop"): _w(scripts="-c --command"),
    ("bundle", "exec"): _w(),
}
RUNNING_TOOLS = {tool for tool, _ in RUNNERS}
YARN = _w("--cwd --modules-folder --cache-folder --global-folder --mutex --network-timeout --filter -F -C --dir")
YARN_OWN = names(
    "add audit autoclean bin cache check config create dedupe dlx exec explain generate-lock-entry global help "
    "import info init install licenses link list login logout node npm outdated owner pack patch patch-commit "
    "plugin policies publish rebuild remove run search set tag team test unlink unplug upgrade upgrade-interactive "
    "up version versions why workspace workspaces start build lint dev"
)
# programs whose words are data, not a command to run (echo rm -rf x, pytest -k rm, npm install rimraf)
DATA = names(
    "echo printf man info tldr whatis apropos help grep egrep fgrep rg ag ack jq yq pytest npm pnpm yarn bun pip "
    "pip3 pipx uv poetry pdm apt apt-get brew dnf yum pacman apk cargo go gem conda mamba composer kill pkill pgrep "
    "killall complete compgen history alias export declare local readonly unset set shopt test [ expr"
)
LOOKUPS = {"type", "which", "whence", "hash", "whereis"}
SCRIPT_MANAGERS = names("npm pnpm yarn bun composer")  # they run the project's scripts by name


def risky(name: str) -> bool:
    """A program that can delete files or run code: worth checking wherever it appears."""
    return (
        name in DELETERS
        or name in SHELLS
        or name in RULES
        or name in BY_PROGRAM
        or name in CLIENTS
        or name in POWERSHELLS
        or name in CMDS
        or name in WRAPPERS
        or bool(INTERPRETERS.match(name))
        or name in ("eval", "source", ".", "awk", "sed", "parallel", "hyperfine", "trap", "at", "make", "watch")
    )


def peel(command: Command, check: Check) -> list | None:
    """The command under its wrappers; None when there is nothing more to check (a wrapper ran its command as
    shell text, checked here already, or the command only looks a program up). Walks one index along argv, so a
    long run of wrappers costs one pass."""
    argv, at, unsure = list(command.argv), 0, False
    while at < len(argv) and (word := argv[at]) is not None:
        name = word.rsplit("/", 1)[-1]
        if name in LOOKUPS or name == "command" and argv[at + 1 : at + 2] in (["-v"], ["-V"]):
            return None
        if name in SPECIAL:
            return SPECIAL[name](argv[at:], command, check)
        if (ran := _task(name, argv[at:], command, check)) is not None:
            return ran
        spec, skip = _wrapper(name, argv, at)
        if spec is None:
            break
        inner, doubt = _unwrap(name, argv, at + skip, spec, check)
        if inner is None:
            return None
        if inner == len(argv) or name == "exec" and all(_descriptor(a) for a in argv[inner:]):
            return argv[at:]  # the wrapper alone: `env`, `exec 3> f`
        program = argv[inner]
        if program is not None and program != "{" and EXPANDS.search(program.strip("[")):  # not `time { …; }`
            argv[inner] = None  # `sudo /bin/r? …`: bash rewrites the name first, as it would with no wrapper
        runner = name in ("npx", "pnpx", "bunx", "uvx") or skip
        if runner and (program := argv[inner]):  # runners name a version: rimraf@5
            argv[inner] = re.sub(r"(?<=.)@[^/]*$", "", program)
        at, unsure = inner, unsure or doubt
    if unsure:  # not sure where the command starts: the first later word naming a program that can delete starts one
        later = next((j for j in range(at + 1, len(argv)) if _starts(argv[j])), None)
        if later is not None:
            check.command(replace(command, argv=argv[later:]))
    return argv[at:]


def _task(name: str, argv: Argv, command: Command, check: Check) -> list | None:
    """A package script or a pyproject task the command runs by name, checked; None when it runs none."""
    if name in SCRIPT_MANAGERS and (ran := package_script(argv, command, check)) is not None:
        return ran
    return pyproject_task(argv, check) if name in TASK_RUNNERS else None


def _descriptor(word: str | None) -> bool:
    return word is not None and re.fullmatch(r"\{\w+\}", word) is not None


def _starts(word: str | None) -> bool:
    if word is None:
        return False
    name = word.rsplit("/", 1)[-1]
    return risky(name) and name not in WRAPPERS


def _wrapper(name: str, argv: Argv, at: int) -> tuple[Wrapper | None, int]:
    """The wrapper's table, and how many words its name takes (`npm exec` two)."""
    if name in WRAPPERS:
        return WRAPPERS[name], 0
    for j in range(at + 1, min(at + 5, len(argv)) if name in RUNNING_TOOLS else 0):  # `pnpm -r --filter web exec`
        if (subcommand := argv[j]) is not None and (name, subcommand) in RUNNERS:
            return RUNNERS[(name, subcommand)], j - at
    own = YARN_OWN if name == "yarn" else PNPM_OWN if name == "pnpm" else None
    if own and (words := positionals(argv[at + 1 :], YARN.values)) and words[0] not in {None, *own}:
        return YARN, 0  # `yarn -s rimraf dist`, `pnpm prisma migrate reset` run a package's program
    return None, 0


def _unwrap(name: str, argv: Argv, at: int, spec: Wrapper, check: Check) -> tuple[int | None, bool]:
    """Where the command after the wrapper's options and positional words starts (argv[at] is the wrapper's last
    name word), and whether an option was one the table lacks; None when the wrapper ran shell text."""
    start, script, unsure = _options(name, argv, at, spec)
    if script is not None:  # `-c TEXT` or `--command=TEXT`
        word = argv[script] or ""
        check.script(word.split("=", 1)[1] if "=" in word else argv[script + 1] if script + 1 < len(argv) else "", name)
        return None, False
    if start is None:
        check.verdict.deletions.append(Said(N_("env gets a word computed at run time")))
        return len(argv), False
    return start, unsure


def _options(name: str, argv: Argv, at: int, spec: Wrapper) -> tuple[int | None, int | None, bool]:
    """Where the command after the wrapper starts (None: env gets a word computed at run time), where the option
    giving the shell text it runs instead of a command is, and whether an option was one the table lacks."""
    i, unsure = at + 1, False
    while i < len(argv) and (word := argv[i]) is not None and word.startswith("-") and word != "-":
        if word == "--":
            i += 1
            break
        flag = word.split("=", 1)[0]
        script = flag in spec.scripts or not word.startswith("--") and "-c" in spec.scripts and word.endswith("c")
        if script:
            return len(argv), i, False
        if flag in spec.values and "=" not in word:
            i += 2
            continue
        unsure |= not (flag in spec.values or word.startswith("--") and "=" in word or word[:2] in spec.values)
        i += 1
    while name == "env" and i < len(argv) and ((word := argv[i]) is None or "=" in word and word[:1] != "="):
        if word is None:
            return None, None, False
        i += 1
    start = min(i + spec.skip, len(argv))
    for j in range(start, min(start + 4, len(argv))):  # after a user or a lock file: `su root -c …`, `flock F -c …`
        word = argv[j]
        if word is not None and spec.scripts and (word in spec.scripts or word.split("=", 1)[0] in spec.scripts):
            return start, j, False
    return start, None, unsure


def unwrapped(argv: list[str]) -> list[str]:
    """The words of the command a run of wrappers starts (`sudo -u ci nice -n 5 pytest -q` → pytest's), past their
    options and the values those take; none when there is no command or a wrapper runs shell text (`su -c …`)."""
    at = 0
    while at < len(argv) and (spec := WRAPPERS.get(name := argv[at].rsplit("/", 1)[-1])) is not None:
        start, script, _ = _options(name, list(argv), at, spec)
        if start is None or script is not None and script < start:
            return []  # `su -c TEXT`; a `-c` after the command is the command's (`npx prettier -c src`)
        at = start
    return argv[at:]


KNOWN = (
    DATA | RULES.keys() | SHELLS | WRAPPERS.keys() | SPECIAL.keys() | DELETERS | {"awk", "sed", "eval", "source", "."}
)
