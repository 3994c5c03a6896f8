"""The safety analysis of PowerShell and cmd text: what it decides on each Windows corpus, per shell.

Each command is analysed as the Bash tool on Windows hands it over: PowerShell text to `pwsh -Command` (as bash
text `pwsh -NoProfile -Command '<text>'`, which is all the analysis could read before it took PowerShell and cmd
text itself), cmd text to `cmd /c`, Git Bash's text as it is. The figures: destructive commands that ask, benign
commands that run untouched, terminal programs and plain file operations that are refused.

    python bench/windows_safety.py [blind]     # the held-out corpus too, once it is in tests/safety/
"""

import shlex
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from common import table

from narnat_agent.safety import Verdict, analyze
from tests.safety import windows_corpus as own

Entry = tuple[str, str, str]


def through_bash(shell: str, text: str, cwd: Path) -> Verdict:
    """The analysis of text as Git Bash would hand it to the shell that runs it."""
    if shell == "powershell":
        return analyze(f"pwsh -NoProfile -Command {shlex.quote(text)}", cwd)
    if shell == "cmd":
        return analyze(f"cmd /c {shlex.quote(text)}", cwd)
    return analyze(text, cwd)


def as_the_shell_runs_it(shell: str, text: str, cwd: Path) -> Verdict:
    """The analysis of text handed to the shell itself, as the Bash tool on Windows does."""
    return analyze(text, cwd, shell="bash" if shell == "bash" else shell)  # type: ignore[arg-type]


def project(root: Path, existing: tuple[str, ...]) -> Path:
    for name in existing:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("{}\n")
    return root


def figures(corpus: ModuleType, decide: Callable[[str, str, Path], Verdict], cwd: Path) -> list[tuple]:
    lists = {
        "destructive commands that ask": (corpus.ASK, lambda v: bool(v.deletions), "≥ 95%"),
        "benign commands that run": (
            corpus.RUN,
            lambda v: not (v.deletions or v.file_ops or v.interactive),
            "≥ 97%",
        ),  # fmt: skip
        "terminal programs and file ops refused": (
            corpus.REFUSE_FILE_OP + corpus.REFUSE_TERMINAL,
            lambda v: bool(v.file_ops or v.interactive),
            "≥ 90%",
        ),
    }
    rows = []
    for measure, (entries, right, target) in lists.items():
        for shell in ("powershell", "cmd", "bash", "all"):
            chosen = [e for e in entries if shell in ("all", e[0])]
            if chosen:
                good = sum(right(decide(s, text, cwd)) for s, text, _ in chosen)
                rows.append((measure, shell, f"{good}/{len(chosen)}", f"{good / len(chosen):.1%}", target))
    return rows


def misses(corpus: ModuleType, decide: Callable[[str, str, Path], Verdict], cwd: Path) -> None:
    for name, right in (
        ("ASK", lambda v: bool(v.deletions)),
        ("RUN", lambda v: not (v.deletions or v.file_ops or v.interactive)),
        ("REFUSE_FILE_OP", lambda v: bool(v.file_ops or v.interactive)),
        ("REFUSE_TERMINAL", lambda v: bool(v.file_ops or v.interactive)),
    ):
        for shell, text, category in getattr(corpus, name):
            verdict = decide(shell, text, cwd)
            if not right(verdict):
                print(f"  {name} miss [{shell}/{category}] {text!r}: {verdict}")


def main() -> None:
    corpora = [("Windows corpus", own)]
    if "blind" in sys.argv:
        from tests.safety import test_windows_blind as held_out

        blind = ModuleType("windows_corpus_blind")  # its lists of strings, each with the shell its comment names
        blind.ASK = [(s, c, "") for s, c in held_out.entries("DESTRUCTIVE")]  # type: ignore[attr-defined]
        blind.RUN = [(s, c, "") for s, c in held_out.entries("BENIGN")]  # type: ignore[attr-defined]
        blind.REFUSE_FILE_OP = [(s, c, "") for s, c in held_out.entries("FILE_OPS")]  # type: ignore[attr-defined]
        blind.REFUSE_TERMINAL = [(s, c, "") for s, c in held_out.entries("INTERACTIVE")]  # type: ignore[attr-defined]
        blind.EXISTING = held_out.EXISTING  # type: ignore[attr-defined]
        corpora.append(("Held-out Windows corpus", blind))
    headers = ("measure", "shell", "count", "share", "target")
    for title, corpus in corpora:
        with tempfile.TemporaryDirectory() as folder:
            cwd = project(Path(folder), getattr(corpus, "EXISTING", own.EXISTING))
            table(f"{title}, through pwsh -Command / cmd /c", figures(corpus, through_bash, cwd), headers)
            table(f"{title}, as the shell runs it", figures(corpus, as_the_shell_runs_it, cwd), headers)
            if "-v" in sys.argv or "--misses" in sys.argv:
                misses(corpus, as_the_shell_runs_it, cwd)


if __name__ == "__main__":
    main()
