"""What the user and the model read: the exact questions and refusals every command of the three corpora gets (and
that those which run get none), recorded in bash_verdicts.json. The corpus tests say that a command asks; this one
says what it says — which program, what is lost, whether /undo restores it, which tool to use instead.

A deliberate change of wording or of a rule shows as a diff of that file: record it again with
`python -m tests.safety.test_bash_wording` and read the diff before committing it."""

import json
import tempfile
from pathlib import Path

from narnat_agent.safety import Verdict, analyze
from tests.safety import bash_corpus_blind as blind
from tests.safety import bash_corpus_irreversible as irreversible
from tests.safety import test_bash_rules as rules
from tests.safety.test_bash_blind import held_out_project
from tests.safety.test_bash_irreversible import ROOT

RECORDED = Path(__file__).with_name("bash_verdicts.json")
Recorded = dict[str, dict[str, list[str]]]


def _said(verdict: Verdict) -> dict[str, list[str]]:
    said = {"ask": verdict.deletions, "refuse": verdict.file_ops, "refuse (waits)": verdict.interactive}
    return {kind: reasons for kind, reasons in said.items() if reasons}


def _corpora(project: Path) -> dict[str, tuple[list[str], Path | None]]:
    """Each corpus's commands, with the folder they are analysed from."""
    return {
        "rules": (rules.ASK + rules.REFUSE + rules.RUN, None),
        "irreversible": (
            [
                c
                for c, _ in irreversible.ASK
                + irreversible.REFUSE_FILE_OP
                + irreversible.REFUSE_TERMINAL
                + irreversible.RUN
            ],
            ROOT,
        ),
        "blind": ([c for c, _ in blind.ASK + blind.REFUSE_FILE_OP + blind.REFUSE_TERMINAL + blind.RUN], project),
    }


def _verdicts(project: Path) -> dict[str, Recorded]:
    return {
        corpus: {command: _said(analyze(command, cwd)) for command in commands}
        for corpus, (commands, cwd) in _corpora(project).items()
    }


def test_every_question_and_refusal_says_what_was_recorded(tmp_path: Path) -> None:
    recorded = json.loads(RECORDED.read_text())
    for corpus, verdicts in _verdicts(held_out_project(tmp_path)).items():
        changed = {
            c: (recorded[corpus].get(c), said) for c, said in verdicts.items() if recorded[corpus].get(c) != said
        }
        assert not changed, f"{corpus}: (recorded, now) {changed}"


def _record(verdicts: dict[str, Recorded]) -> str:
    """JSON with a command a line, so that a change reads as a diff of the commands it touched."""
    corpora = [
        f"{json.dumps(corpus)}: {{\n"
        + ",\n".join(
            f"  {json.dumps(c, ensure_ascii=False)}: {json.dumps(said, ensure_ascii=False)}"
            for c, said in recorded.items()
        )
        + "\n }"
        for corpus, recorded in verdicts.items()
    ]
    return "{\n " + ",\n ".join(corpora) + "\n}\n"


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as folder:
        RECORDED.write_text(_record(_verdicts(held_out_project(Path(folder)))))
