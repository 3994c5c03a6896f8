"""The held-out Windows corpus, written from the contract by someone who never saw the rules: measured once, then kept
here so that later rules keep what it found. Its entries are plain strings; the comment above each (or above its
group) names the shell that runs it (pwsh and powershell: PowerShell; cmd; git-bash: bash). Its section of
overwrites says the files it names exist; they are made in the project the commands are analysed from."""

import ast
import re
from pathlib import Path

import pytest

from narnat_agent.safety import analyze
from tests.safety import windows_corpus_blind as blind
from tests.safety.test_windows_corpus import windows_project
from tests.tools.syntax_corpus import case_id

EXISTING = (
    ".env", "app.config", "README.md", "data/users.csv", "package.json", "src/index.js", ".gitignore", "db.sqlite3",
    "src/main.py", "src/config.ts", "config.yml", "schema.graphql", "config.json", "app.log", "settings.json",
    "src/index.ts", ".env.local", "logs/app.log",
    "config/local.json",  # the target of Git Bash's `cp -f` among the destructive commands
)  # fmt: skip
SHELLS = {"pwsh": "powershell", "powershell": "powershell", "cmd": "cmd", "git-bash": "bash"}
SHELL_COMMENT = re.compile(r"\s*#\s*(pwsh|powershell|cmd|git-bash)\b")
HERE = "the folder is not on this machine: on Windows it is looked at and the command asks"
AS_IN_BASH = "as in bash (docs/safety.md)"
KNOWN_MISSES = {  # the held-out corpus and the contract disagree, or the file system here cannot tell
    r"Copy-Item -Path .\backup\* -Destination C:\Users\dev\project -Recurse -Force": HERE,
    "xcopy /s /e /y dist\\* C:\\inetpub\\wwwroot\\": HERE,
    r"move /y *.txt ..\archive": "..\\archive is not in the project: no file there is known to be replaced",
    "docker rmi -f myapp:latest myapp:dev": "images are built again: they run, " + AS_IN_BASH,
    '"test output" | Out-File -FilePath "$env:TEMP\\probe-$(Get-Random).txt"': "text written into a file is Write's "
    "job, refused as `echo text > file` is " + AS_IN_BASH,
    "$tmp = Join-Path $env:TEMP \"probe_$(Get-Random).txt\"; 'hello' | Out-File $tmp; Get-Content $tmp; "
    "Remove-Item $tmp": "a file named at run time asks when deleted, and text written is refused, " + AS_IN_BASH,
    "code .": "VS Code opens its window and returns at once without --wait",
    "git commit --amend": "GIT_EDITOR=true under Bash: --amend keeps the message and returns at once",
    "npx create-next-app@latest": "npx runs the package's program, which the analysis cannot see, " + AS_IN_BASH,
    "Get-Content package.json | ConvertFrom-Json | Select-Object -ExpandProperty scripts": "the file feeds a program "
    "(ConvertFrom-Json), as `cat package.json | jq` runs " + AS_IN_BASH,
    "(Get-Content .\\appsettings.json -Raw | ConvertFrom-Json).ConnectionStrings": "the file feeds a program "
    "(ConvertFrom-Json), as `cat f | jq` runs " + AS_IN_BASH,
    'git grep -n "TODO" -- "*.py"': "git's own search of tracked files runs, " + AS_IN_BASH,
}


def entries(name: str) -> list[tuple[str, str]]:
    """The (shell, command) pairs of one list of the corpus, each with the shell its nearest comment above names."""
    source = Path(blind.__file__).read_text()
    lines = source.splitlines()
    shells = {n: SHELLS[m.group(1)] for n, line in enumerate(lines, 1) if (m := SHELL_COMMENT.match(line))}
    tree = ast.parse(source)
    found = next(node.value for node in tree.body if isinstance(node, ast.Assign) and node.targets[0].id == name)
    pairs = []
    for item in found.elts:
        shell = shells[max(n for n in shells if n < item.lineno)]
        pairs.append((shell, ast.literal_eval(item)))
    return pairs


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return windows_project(tmp_path_factory.mktemp("blind"), EXISTING)


def _cases(pairs: list[tuple[str, str]]) -> list:
    return [
        pytest.param(s, c, marks=pytest.mark.xfail(strict=True, reason=KNOWN_MISSES[c]), id=case_id(f"{s} {c}"))
        if c in KNOWN_MISSES
        else pytest.param(s, c, id=case_id(f"{s} {c}"))
        for s, c in pairs
    ]


@pytest.mark.parametrize(("shell", "command"), _cases(entries("DESTRUCTIVE")))
def test_held_out_destructive_windows_commands_ask(shell, command, project):
    assert analyze(command, project, shell).deletions, command


@pytest.mark.parametrize(("shell", "command"), _cases(entries("BENIGN")))
def test_held_out_benign_windows_commands_run(shell, command, project):
    verdict = analyze(command, project, shell)
    assert (verdict.deletions, verdict.file_ops, verdict.interactive) == ([], [], []), command


@pytest.mark.parametrize(("shell", "command"), _cases(entries("INTERACTIVE") + entries("FILE_OPS")))
def test_held_out_terminal_programs_and_file_operations_are_refused(shell, command, project):
    verdict = analyze(command, project, shell)
    assert verdict.file_ops or verdict.interactive, command
