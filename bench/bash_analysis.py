"""Bash's safety analysis: what it decides on each corpus, and how long the slowest commands take to analyse.

The figures: destructive commands that ask, benign commands that run untouched, terminal programs and plain file
operations that are refused. The timings are set against parsing alone (tree-sitter on the same text).
"""

import subprocess
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from common import ROOT, median_seconds, table

from narnat_agent.safety.rules import MAX_LENGTH, MAX_TOTAL, analyze
from narnat_agent.safety.syntax import _parser
from tests.safety import bash_corpus as own
from tests.safety import bash_corpus_blind as blind
from tests.safety import bash_corpus_irreversible as irreversible
from tests.safety import bash_corpus_longtail as longtail
from tests.safety import bash_corpus_longtail_blind as longtail_blind
from tests.safety.held_out import lay_out
from tests.safety.test_bash_blind import EXISTING

try:
    from tests.safety import bash_corpus_categories as categories
except ImportError:  # the independent corpus lives on its own branch until it is merged
    categories = None


def figures(ask: list[str], run: list[str], refuse: list[str], cwd: Path | None = None) -> list[tuple]:
    verdicts = {command: analyze(command, cwd=cwd) for command in ask + run + refuse}
    asked = sum(bool(verdicts[c].deletions) for c in ask)
    ran = sum(verdicts[c].deletions == verdicts[c].file_ops == verdicts[c].interactive == [] for c in run)
    refused = sum(bool(verdicts[c].file_ops or verdicts[c].interactive) for c in refuse)
    return [
        ("destructive commands that ask", f"{asked}/{len(ask)}", f"{asked / len(ask):.1%}", "≥ 95%"),
        ("benign commands that run", f"{ran}/{len(run)}", f"{ran / len(run):.1%}", "≥ 97%"),
        ("terminal programs and file ops refused", f"{refused}/{len(refuse)}", f"{refused / len(refuse):.1%}", "≥ 90%"),
    ]


def by_category(pairs: list[tuple[str, str]], decided) -> list[tuple]:
    """Per category of a corpus of (command, category) pairs: how many got the expected verdict."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for command, category in pairs:
        counts[category][0] += bool(decided(analyze(command, cwd=ROOT)))
        counts[category][1] += 1
    return [(category, f"{right}/{total}", f"{right / total:.0%}") for category, (right, total) in counts.items()]


def irreversible_figures() -> None:
    corpus = irreversible
    refuse = corpus.REFUSE_FILE_OP + corpus.REFUSE_TERMINAL
    sets = [[c for c, _ in group] for group in (corpus.ASK, corpus.RUN, refuse)]
    table("Irreversible corpus", figures(*sets, cwd=ROOT), ("measure", "count", "share", "target"))
    rows = by_category(corpus.ASK, lambda v: v.deletions)
    rows += by_category(corpus.RUN, lambda v: not (v.deletions or v.file_ops or v.interactive))
    rows += by_category(refuse, lambda v: v.file_ops or v.interactive)
    table("Irreversible corpus by category", rows, ("category", "count", "share"))


def blind_figures() -> None:
    """The held-out corpus, from a project holding the files its commands name."""
    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        for name in EXISTING:
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            (project / name).write_text("{}\n")
        refuse = [c for c, _ in blind.REFUSE_FILE_OP + blind.REFUSE_TERMINAL]
        sets = [c for c, _ in blind.ASK], [c for c, _ in blind.RUN], refuse
        table("Held-out corpus", figures(*sets, cwd=project), ("measure", "count", "share", "target"))


def longtail_figures() -> None:
    """The long tail, from the project its commands name (a git repository with package scripts and a Makefile),
    and how many of its questions name what would be lost."""
    with tempfile.TemporaryDirectory() as folder:
        project = longtail.lay_out(Path(folder))
        refuse = [c for c, _ in longtail.REFUSE_TERMINAL]
        sets = [c for c, _ in longtail.ASK], [c for c, _ in longtail.RUN], refuse
        rows = figures(*sets, cwd=project)
        base = subprocess.run(["git", "-C", folder, "rev-list", "--max-parents=0", "HEAD"], capture_output=True)
        named = 0
        for command, env, must, must_not in longtail.QUESTIONS:
            verdict = analyze(command.replace("{base}", base.stdout.decode().strip()), cwd=project, env=env)
            said = "; ".join(verdict.deletions + verdict.file_ops + verdict.interactive)
            named += all(w in said for w in must) and not any(w in said for w in must_not)
        count = len(longtail.QUESTIONS)
        rows.append(("questions that name what would be lost", f"{named}/{count}", f"{named / count:.1%}", "100%"))
        table("Long-tail corpus", rows, ("measure", "count", "share", "target"))


def longtail_blind_figures() -> None:
    """The long tail's held-out corpus, from a project holding the files it names; its ending forms count as
    benign commands that must run."""
    from tests.safety.test_bash_longtail_blind import EXISTING as NAMED

    with tempfile.TemporaryDirectory() as folder:
        project = Path(folder)
        for name in NAMED:
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            (project / name).write_text("{}\n")
        corpus = longtail_blind
        sets = corpus.DESTRUCTIVE, corpus.BENIGN + corpus.ENDING_FORMS, corpus.NEVER_ENDING
        table("Long tail's held-out corpus", figures(*sets, cwd=project), ("measure", "count", "share", "target"))


def longtail_blind2_figures() -> None:
    """The long tail's second held-out corpus, from the project it lays out (a git repository), and how many of its
    questions name what would be lost."""
    from tests.safety import bash_corpus_longtail_blind2 as corpus

    with tempfile.TemporaryDirectory() as folder:
        project = lay_out(Path(folder), corpus.PROJECT, repository=True)
        sets = corpus.DESTRUCTIVE, corpus.BENIGN + corpus.ENDING_FORMS, corpus.NEVER_ENDING
        rows = figures(*sets, cwd=project)
        named = 0
        for command, words, env in corpus.QUESTIONS:
            said = " ".join(analyze(command, cwd=project, env=env).deletions).lower()
            named += bool(said) and all(w.lower() in said for w in words)
        count = len(corpus.QUESTIONS)
        rows.append(("questions that name what would be lost", f"{named}/{count}", f"{named / count:.1%}", "100%"))
        table("Long tail's second held-out corpus", rows, ("measure", "count", "share", "target"))


def slowest(commands: list[str]) -> tuple[float, str]:
    """The longest analysis among commands, each taken as the best of three runs so that a moment the machine
    spends elsewhere is not counted against one command."""
    worst = (0.0, "")
    for command in commands:
        spent = []
        for _ in range(3):
            started = time.perf_counter()
            analyze(command)
            spent.append(time.perf_counter() - started)
        worst = max(worst, (min(spent), command))
    return worst


def timings() -> list[tuple]:
    cases = {
        "3,333-stage pipeline of filters": "|".join(["wc"] * 3333),
        "pipeline of filters at the cap": " | ".join(["grep -v x"] * 3333)[:MAX_LENGTH],
        "&& chain at the cap": " && ".join(["git status"] * 3000)[:MAX_LENGTH],
        "heredoc at the cap": "python3 - <<'EOF'\n" + "print('x')\n" * ((MAX_TOTAL - 40) // 11) + "EOF",
        "60 nested $( )": "echo " + "$(echo " * 60 + "hi" + ")" * 60,
        "1,200 wrappers with unknown options": "sudo -X " * 1200 + "ls",
        "700 nested find -exec": "find . -exec " * 700 + "ls",
    }
    parser = _parser()
    rows = []
    for label, command in cases.items():
        spent = median_seconds(lambda c=command: analyze(c))
        baseline = median_seconds(lambda c=command: parser.parse(c.encode()))
        size = f"{label} ({len(command):,} chars)"
        ratio = f"{spent / baseline:.1f}×"
        rows.append((size, f"{spent * 1000:.1f} ms", f"{baseline * 1000:.1f} ms", ratio, "< 50 ms"))
    return rows


def main() -> None:
    irreversible_figures()
    blind_figures()
    longtail_figures()
    longtail_blind_figures()
    longtail_blind2_figures()
    own_refuse = own.REFUSE_FILE_OP + own.REFUSE_TERMINAL
    table("Own corpus (new cases)", figures(own.ASK, own.RUN, own_refuse), ("measure", "count", "share", "target"))
    old_refuse = own.FILE_OPS + own.INTERACTIVE
    old_run = own.BENIGN + own.ALLOWED_NEAR_FILE_OPS
    table("First corpus", figures(own.DELETING, old_run, old_refuse), ("measure", "count", "share", "target"))
    every = own.ASK + own.RUN + own_refuse + own.DELETING + old_run + old_refuse
    every += [c for c, _ in irreversible.ASK + irreversible.RUN + blind.ASK + blind.RUN + blind.REFUSE_TERMINAL]
    if categories is not None:
        sets = [[c for c, _ in group] for group in (categories.ASK, categories.RUN)]
        refuse = [c for c, _ in categories.REFUSE_FILE_OP + categories.REFUSE_TERMINAL]
        table("Corpus from categories", figures(*sets, refuse), ("measure", "count", "share", "target"))
        every += sets[0] + sets[1] + refuse
    worst, command = slowest(every)
    rows = timings() + [("slowest corpus command", f"{worst * 1000:.1f} ms", "", "", "< 50 ms")]
    table("Analysis time (median of 5) against tree-sitter parsing alone", rows)
    print(f"\nslowest corpus command: {command[:100]!r}")


if __name__ == "__main__":
    main()
