"""Mutation testing: mutmut breaks one module a mutant at a time, and only the tests that cover it run against each.

Run: python bench/mutation.py [--keep DIR] [MODULE ...]   (default: every target below; MODULE as in TARGETS)

With --keep, each module's scratch copy stays in DIR; run again after a change, it gets the current code and tests
and tries only the mutants that survived (a changed function's mutants are made and tried anew).

Each module runs in a scratch copy of the repository (the working tree is never touched), one mutant at a time
(the machine is shared). A mutant is killed when a test fails or times out; one that survives is a defect the suite
would not notice, unless it is listed in EQUIVALENT with the reason it cannot change behaviour.
"""

import json
import shutil
import subprocess
import sys
import tempfile
from contextlib import nullcontext
from dataclasses import dataclass
from fnmatch import fnmatch
from pathlib import Path

from common import ROOT, table
from mutmut.mutation.diff_apply import get_diff_for_mutant
from mutmut.stats import status_by_exit_code


@dataclass(frozen=True)
class Target:
    tests: tuple[str, ...]  # the tests that cover the module
    functions: tuple[str, ...] = ()  # only these (Class.method for a method); the whole module when empty

    def patterns(self) -> list[str]:
        """mutmut's names for the functions' mutants: pkg.mod.x_function__mutmut_3, pkg.mod.xǁClassǁmethod__mutmut_3."""
        return [f"*.x{'ǁ' if '.' in f else '_'}{f.replace('.', 'ǁ')}__mutmut_*" for f in self.functions]


CHECKPOINT_TESTS = (
    "tests/test_core/test_checkpoints.py",
    "tests/test_core/test_checkpoint_stores.py",
    "tests/test_core/test_checkpoint_timeline.py",
    "tests/test_commands/test_rewind.py",
)
CHECKPOINT_FILES = ("store", "turns", "timeline", "git_store", "git", "lock")  # one row each: a run per file fits
EDIT_TESTS = (
    "tests/test_tools/test_edit_matcher.py",
    "tests/test_tools/test_edit.py",
    "tests/test_tools/test_edit_properties.py",
)
TARGETS: dict[str, Target] = {  # a module: a file, or a package ending in /
    "narnat_agent/redact.py": Target(("tests/test_tools/test_registry.py",)),
    "narnat_agent/tools/registry.py": Target(
        ("tests/test_tools/test_registry.py",), ("_safe", "_safe_result", "prepare", "Call.run")
    ),
    "narnat_agent/tools/edit/matcher.py": Target(EDIT_TESTS),
    "narnat_agent/tools/edit/reindent.py": Target(EDIT_TESTS),
    "narnat_agent/core/compressor.py": Target(("tests/test_core/test_compressor.py",)),
    "narnat_agent/core/agent.py": Target(
        ("tests/test_core", "tests/test_commands"), ("Agent.turn", "Agent._steps", "Agent._call", "Agent._check_ending")
    ),
    "narnat_agent/safety/": Target(("tests/test_tools/test_bash_rules.py", "tests/test_tools/test_bash.py")),
    **{f"narnat_agent/checkpoints/{name}.py": Target(CHECKPOINT_TESTS) for name in CHECKPOINT_FILES},
}

FIRST_PIECE = "the first piece of a split is the same however many pieces are asked for"
UNREAD = "an unreadable path's state is one constant before and after a call, whatever its value: only a change counts"
ORDER = ("a snapshot's id names its manifest and is compared only with one taken of the same touched list in the same"
         " order: another key order names the same content differently, never restores another")  # fmt: skip
MKSTEMP = "write_atomic makes a new file with mkstemp, 0600 already, and the store never rewrites a file it has"
ON_THE_NANOSECOND = "differs only for a file whose modification time is the cut-off to the nanosecond"
CHMOD = "the next line makes the folder 0700 whatever mkdir made it (the mode only closes the moment between the two)"
REWRITTEN = "the store's .gitignore is then written at every snapshot, with the same bytes"
FALSE = "difflib takes a false autojunk, None included, as False"
BOTH_OR_NEITHER = "a rewind sets both its snapshots (it restored code) or neither (Checkpoints.rewind)"
FALSY = "the value is only ever tested for truth, and both are false"
WHOLE = ("the last whole snapshot is reused only while nothing but the agent's own calls ran since: taking it again"
         " gives the same snapshot, only later")  # fmt: skip
REDO_STEP = "a redo's plan goes to redo(), which never reads its step"
UNSAID = "NotFound's message is never shown: Edit explains the miss from its lines, a notebook says its own sentence"
SAME_LENGTH = "the two have the same length by construction (a match has as many lines as old_string)"
NOT_TYPOGRAPHIC = "X is no typographic character: the set of those in the text is the same"
BELOW = "the indexes are never negative: -1 and -2 are both below every one of them"
UNSHOWN = "a turn that outgrows the context window is asked again after compression; its first message is never shown"
# module -> {a piece of a line as the mutant writes it: why that change cannot alter what the module does}
EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/core/agent.py": {
        'pending = ""': "the checkpoints take any false pending step alike: there is nothing to record",
        "conversation no longer fits the model's context window.": UNSHOWN,
        "NO LONGER FITS THE MODEL'S CONTEXT WINDOW.": UNSHOWN,
    },
    "narnat_agent/tools/registry.py": {
        'secret: str = "XXXX"': "a default of fewer than eight characters is never taken for a key",
        "if error and args is None:": "a call's arguments are None exactly when its error is set (core/reply.py)",
        "json.dumps(checked, ensure_ascii=None)": "json.dumps takes a false ensure_ascii, None included, as False",
    },
    "narnat_agent/checkpoints/store.py": {
        'rel.split("/", )[0]': FIRST_PIECE,
        'rel.split("/", 2)[0]': FIRST_PIECE,
        '{e.strerror}", None)': UNREAD,
        '{e.strerror}", "XXXX")': UNREAD,
        "json.dumps(kept, sort_keys=None)": ORDER,
        "json.dumps(kept, sort_keys=False)": ORDER,
        "json.dumps(kept, )": ORDER,
        "hexdigest()[:41]": "an id one hex digit longer names its manifest as well: ids are compared, never parsed",
        "data, None)": MKSTEMP,
        "data, )": MKSTEMP,
        'decode("UTF-8", "replace")': "codec names are case-insensitive",
        "autojunk=None)": FALSE,
        "st_mtime >= old": ON_THE_NANOSECOND,
        "st_mtime < old": ON_THE_NANOSECOND,
        "root.mkdir(parents=True, exist_ok=True)": CHMOD,
        "root.mkdir(mode=449, parents=True, exist_ok=True)": CHMOD,
        '(root / "XX.gitignoreXX").exists()': REWRITTEN,
        '(root / ".GITIGNORE").exists()': REWRITTEN,
        'b"*\\n", None)': MKSTEMP,
        'b"*\\n", )': MKSTEMP,
    },
    "narnat_agent/checkpoints/timeline.py": {
        "raise TypeError(None)": "load turns every TypeError into Damaged, and its message goes nowhere",
        "elif entry.before or entry.after:": BOTH_OR_NEITHER,
    },
    "narnat_agent/checkpoints/turns.py": {
        "began >= datetime.fromisoformat(first)": ON_THE_NANOSECOND.replace("file", "store"),
        "if (self.broken) and False else": "turns() reads the snapshots found only when the store is not broken",
        "return self._plan(None,": REDO_STEP,
        "return self._plan(1,": REDO_STEP,
        "if last.before or last.after else None": BOTH_OR_NEITHER,
        "if not overwrite or plan.conflicts:": "the branch only writes the log",
        "self._restore(plan, overwrite, None)": "only the log says why files were restored",
        "snapshot(touched, everything=None).id": "a false everything, None included, is False",
        "c in changes], everything=None).id": "a false everything, None included, is False",
        "self.broken = None": FALSY,
        "self.said_commands = None": FALSY,
        'self.whole = ""': FALSY,
        'self.whole: Snapshot | None = ""': FALSY,
        'before = after = ""': FALSY,
        "if (anything and self.whole) and False else": WHOLE,
        "if everything and self.whole:": WHOLE,
        "if (before) or True else None": "before is None only once the store is broken, and after() then takes no "
        "snapshot and records nothing",
    },
    "narnat_agent/tools/edit/matcher.py": {
        "super().__init__(None)": UNSAID,
        'super().__init__("XXold_string was not foundXX")': UNSAID,
        'super().__init__("OLD_STRING WAS NOT FOUND")': UNSAID,
        '"XX XX".join(line.split())': "a split's pieces hold no blank: any separator with one keeps lines apart",
        "while i <= last:": "at i == last the search range is empty: list.index finds nothing and the search ends",
        "newline: bool = True": "every caller says whether the line break goes",
        "[], -2, -1": BELOW,
        "[], -1, -2": BELOW,
        "autojunk=None)": FALSE,
        "strict=None)": SAME_LENGTH,
        "strict=False)": SAME_LENGTH,
        "zip(block, old_lines, )": SAME_LENGTH,
        "zip(block[i1:i2], made, )": SAME_LENGTH,
        "target[1:-1], ))": SAME_LENGTH,
        'slip = "XXXX".join(old_lines)': NOT_TYPOGRAPHIC,
        'not in "XXXX".join(block)': NOT_TYPOGRAPHIC,
        "translate(fold) if (typographic) or True": "a step that is not typographic matched old_string's characters one"
        " for one, so none of them is missing from the block: the fold changes nothing",
        'text.rfind("\\n", None, i)': "rfind takes a start of None as 0",
        'self.text.count("\\n", None, offset)': "count takes a start of None as 0",
        "gone_whole: bool = True": "the removed text is never empty (old_string is not), so the default is never read",
        'new.split("\\n", )[0]': FIRST_PIECE,
        'new.split("\\n", 2)[0]': FIRST_PIECE,
        "previous = list(range(len(b) + 2))": "the extra last cell is never read unless the file's line is empty, and"
        " then the similarity is below the threshold either way",
    },
    "narnat_agent/core/compressor.py": {
        "COMPRESSION_PROMPT}], None, sink)": "the client sends no tools field for None and for an empty list alike",
    },
}

LOG_LINE = r"^\s*log(\.\w+\(| = get_logger\()"  # the log is for diagnosis: its wording is not behaviour
KILLED = {"killed", "timeout", "caught by type check", "segfault"}


def run_mutmut(module: str, target: Target, scratch: Path) -> None:
    """Mutate `module` in a copy of the repository at `scratch`, one mutant at a time, with only its tests; a
    scratch kept from an earlier run gets the current code and tests, and only its survivors are tried again."""
    again = sorted(n for n, (status, _) in statuses(target, scratch).items() if status not in KILLED)
    for part in ("narnat_agent", "tests"):
        shutil.copytree(ROOT / part, scratch / part, ignore=shutil.ignore_patterns("__pycache__"), dirs_exist_ok=True)
    selection = ", ".join(f'"{test}"' for test in target.tests)
    pattern = f"{module}*" if module.endswith("/") else module
    (scratch / "pyproject.toml").write_text(
        (ROOT / "pyproject.toml").read_text()
        + f'\n[tool.mutmut]\nsource_paths = ["narnat_agent"]\nonly_mutate = ["{pattern}"]\n'
        f"pytest_add_cli_args_test_selection = [{selection}]\n"
        'pytest_add_cli_args = ["-q", "-p", "no:cacheprovider"]\n'
        f"do_not_mutate_patterns = ['{LOG_LINE}']\n"
    )
    for names in (target.patterns(), again) if again else (target.patterns(),):  # new mutants, then the survivors
        command = [sys.executable, "-m", "mutmut", "run", "--max-children", "1", *names]
        done = subprocess.run(command, cwd=scratch, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"mutmut failed on {module}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")


def statuses(target: Target, scratch: Path) -> dict[str, tuple[str, Path]]:
    """Each mutant's name, what became of it and the mutated file, from the results mutmut left beside that file."""
    found: dict[str, tuple[str, Path]] = {}
    for meta in (scratch / "mutants").rglob("*.meta"):
        for name, code in json.loads(meta.read_text())["exit_code_by_key"].items():
            if not target.functions or any(fnmatch(name, pattern) for pattern in target.patterns()):
                found[name] = (status_by_exit_code[code], meta.with_suffix(""))
    return found


def mutated_lines(name: str, mutated: Path) -> tuple[str, list[str]]:
    """The mutant's diff, and the lines it writes (what EQUIVALENT is keyed by: names shift when the code does)."""
    diff = get_diff_for_mutant(name, source=mutated.read_text(), path=name.rsplit(".", 1)[0])
    added = [line[1:].strip() for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++")]
    return diff, added


def measure(module: str, target: Target, keep: Path | None) -> tuple[tuple, list[str]]:
    """One table row for the module, and the notes below the table: each equivalent with its reason, each survivor."""
    with nullcontext(keep) if keep else tempfile.TemporaryDirectory(prefix="narnat-mutation-") as folder:
        scratch = Path(folder) / module.strip("/").replace("/", "-") if keep else Path(folder)
        scratch.mkdir(parents=True, exist_ok=True)
        run_mutmut(module, target, scratch)
        found = statuses(target, scratch)
        killed = sum(status in KILLED for status, _ in found.values())
        notes, equivalent = [], 0
        known = EQUIVALENT.get(module, {})
        for name in sorted(n for n, (status, _) in found.items() if status not in KILLED):
            status, mutated = found[name]
            diff, added = mutated_lines(name, mutated)
            reason = next((why for piece, why in known.items() for line in added if piece in line), None)
            if reason:
                equivalent += 1
                notes.append(f"equivalent {name}: {' / '.join(added)}\n    {reason}")
            else:
                notes.append(f"SURVIVED ({status}) {name}\n{diff}")
    total = len(found)
    score = f"{killed / (total - equivalent):.0%}" if total > equivalent else "-"
    name = f"{module} ({', '.join(target.functions)})" if target.functions else module
    return (name, total, killed, total - killed - equivalent, equivalent, score), notes


def main(modules: list[str], keep: Path | None = None) -> None:
    unknown = [m for m in modules if m not in TARGETS]
    if unknown:
        sys.exit(f"Unknown module {unknown[0]}: name one of {', '.join(TARGETS)}.")
    rows, notes = [], []
    for module in modules or list(TARGETS):
        row, module_notes = measure(module, TARGETS[module], keep)
        rows.append(row)
        notes += module_notes
    print("\n".join(notes))
    table("Mutants killed by the covering tests (score = killed / (mutants - equivalent))", rows,
          ("module", "mutants", "killed", "survived", "equivalent", "score"))  # fmt: skip


if __name__ == "__main__":
    arguments = sys.argv[1:]
    kept = Path(arguments.pop(1)) if arguments[:1] == ["--keep"] else None
    main(arguments[1:] if kept else arguments, kept)
