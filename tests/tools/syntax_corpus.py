"""Broken edits of large real files, the line each compiler names for them, and the line Narnat names.

The recorded corpus is `tests/fixtures/syntax/broken_edits.json`; it is written again, with the compilers' lines of
the day, by `python -m tests.tools.syntax_corpus` (needs node, and TypeScript where node can load it: `npm install
--prefix DIR typescript` and NODE_PATH=DIR/node_modules).
"""

import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from narnat_agent.tools.edit.matcher import apply_edit
from narnat_agent.tools.files.syntax_check import changed_lines, introduced

FIXTURES = Path(__file__).parent.parent / "fixtures" / "syntax"
CORPUS = FIXTURES / "broken_edits.json"
# file: the seeds of its recorded edits (a first draw, and a second one held out while the check was written)
SOURCES = {
    "yargs-parser.test.mjs": (1, 101),
    "lodash.core.js": (2, 102),
    "yargs-parser.ts": (3, 103),
    "createFormControl.ts": (4, 104),
    "useFieldArray.test.tsx": (5, 105),
    "useForm.test.tsx": (107,),
    "more.py": (6, 106),
}
PER_KIND = {1: 6, 2: 6, 3: 6, 4: 6, 5: 6, 6: 6}  # the first draw's edits per kind; the held-out one has 8
JS_KINDS = ["unclosed-brace-line", "unclosed-paren", "unclosed-bracket", "stray-brace", "unterminated-string",
            "unterminated-template", "extra-open-paren", "extra-open-brace"]  # fmt: skip
PY_KINDS = ["unclosed-paren", "unclosed-bracket", "unclosed-brace", "closing-line", "stray-paren",
            "unterminated-string", "extra-open-paren"]  # fmt: skip
OPENER = {")": "(", "]": "[", "}": "{"}
COMMENT = ("//", "#", "*")
TYPESCRIPT = """// JSON lines {name, text} in; the first of TypeScript's sorted syntax diagnostics out (as tsc prints)
const ts = require('typescript');
for (const line of require('fs').readFileSync(0, 'utf8').split('\\n').filter(Boolean)) {
  const {name, text} = JSON.parse(line);
  const kind = name.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true, kind);
  const first = ts.sortAndDeduplicateDiagnostics(file.parseDiagnostics)[0];
  const where = first && file.getLineAndCharacterOfPosition(first.start);
  console.log(JSON.stringify(first ? {line: where.line + 1, message: ts.flattenDiagnosticMessageText(
    first.messageText, ' ')} : {line: null, message: ''}));
}
"""


def case_id(text: str) -> str:
    """A test id made of the text's words: mutmut passes the ids on pytest's command line, which quotes and
    backslashes would break."""
    return re.sub(r"\W+", "_", text, flags=re.ASCII).strip("_")[:40] or "blank"


def source(name: str) -> str:
    return (FIXTURES / f"{name}.txt").read_text()


def mutate(kind: str, line: str) -> str | None:  # noqa: C901, PLR0911  (one branch per kind of broken edit)
    """The line as a broken edit of this kind leaves it, or None when the line has no place for one."""
    text = line.rstrip("\n")
    body, indent = text.strip(), text[: len(text) - len(text.lstrip())]
    if kind == "unclosed-brace-line":
        return "" if re.fullmatch(r"\}[)\];,]*", body) else None
    if kind == "closing-line":
        return "" if re.fullmatch(r"[)\]}][)\]},:]*", body) else None
    if kind in ("unclosed-paren", "unclosed-bracket", "unclosed-brace"):
        closer = {"unclosed-paren": ")", "unclosed-bracket": "]", "unclosed-brace": "}"}[kind]
        at = text.rfind(closer)
        if at < 0 or body.startswith(COMMENT) or text.count(closer) != text.count(OPENER[closer]):
            return None
        return text[:at] + text[at + 1 :] + "\n"
    if kind == "stray-brace":
        return f"{text}\n{indent}}}\n" if body.endswith(";") else None
    if kind == "stray-paren":
        return text + ")\n" if body and not body.startswith("#") and body[-1] in ")]}" else None
    if kind == "unterminated-string":
        for quote in ('"', "'"):
            if text.count(quote) == 2 and "`" not in text and not body.startswith(COMMENT):
                at = text.rfind(quote)
                return text[:at] + text[at + 1 :] + "\n"
        return None
    if kind == "unterminated-template":
        at = text.rfind("`")
        return text[:at] + text[at + 1 :] + "\n" if text.count("`") == 2 and not body.startswith(COMMENT) else None
    if kind == "missing-closing-tag":
        tags = list(re.finditer(r"</[\w.]+>", text))
        return text[: tags[-1].start()] + text[tags[-1].end() :] + "\n" if tags and not body.startswith("//") else None
    if kind == "extra-open-paren":
        at = text.find("(")
        return text[:at] + "(" + text[at:] + "\n" if at >= 0 and not body.startswith(COMMENT) else None
    if kind == "extra-open-brace":
        return text + " {\n" if body.endswith(")") and body.startswith(("if ", "if(")) else None
    raise ValueError(kind)


def draw(name: str, seed: int, per_kind: int) -> list[dict]:
    """Broken edits of one file: per kind, lines drawn at random (from the seed) that have a place for it."""
    lines = source(name).splitlines(keepends=True)
    kinds = PY_KINDS if name.endswith(".py") else JS_KINDS + (["missing-closing-tag"] if name.endswith("x") else [])
    chance, found = random.Random(seed), []
    for kind in kinds:
        order = list(range(len(lines)))
        chance.shuffle(order)
        places = (n for n in order if mutate(kind, lines[n]) is not None)
        for n, _ in zip(places, range(per_kind), strict=False):  # at most per_kind
            found.append({"file": name, "kind": kind, "line": n + 1, "old": lines[n], "new": mutate(kind, lines[n])})
    return found


def edited(case: dict) -> str:
    lines = source(case["file"]).splitlines(keepends=True)
    assert lines[case["line"] - 1] == case["old"]
    lines[case["line"] - 1] = case["new"]
    return "".join(lines)


def edit_strings(case: dict) -> tuple[str, str]:
    """The case as an Edit's old and new strings: the line, with the lines after it while it is not unique."""
    text = source(case["file"])
    lines = text.splitlines(keepends=True)
    old, new, after = case["old"], case["new"], case["line"]
    while text.count(old) > 1 and after < len(lines):
        old, new, after = old + lines[after], new + lines[after], after + 1
    return old, new


def narnat_line(case: dict) -> int | None:
    """The line Edit's syntax check names first for the case."""
    text = source(case["file"])
    done = apply_edit(text, *edit_strings(case), False)
    said = introduced(Path(case["file"]), text, done.text, changed_lines(done.changes))
    found = re.search(r"line (\d+), column", said)
    return int(found[1]) if found else None


def compiler(name: str) -> str:
    return "python" if name.endswith(".py") else "node" if name.endswith((".js", ".mjs", ".cjs")) else "typescript"


def node_lines(cases: list[dict]) -> list[tuple[int | None, str]]:
    """`node --check`'s line and message for each case."""
    found = []
    with tempfile.TemporaryDirectory() as folder:
        for case in cases:
            path = Path(folder) / case["file"]
            path.write_text(edited(case))
            run = subprocess.run(["node", "--check", str(path)], capture_output=True, text=True, timeout=60)
            line = re.search(re.escape(str(path)) + r":(\d+)", run.stderr)
            message = next((t for t in run.stderr.splitlines() if t.startswith("SyntaxError")), "")
            found.append((int(line[1]) if run.returncode and line else None, message))
    return found


def typescript_lines(cases: list[dict]) -> list[tuple[int | None, str]]:
    """TypeScript's first sorted syntax diagnostic (its line and message) for each case."""
    given = "".join(json.dumps({"name": c["file"], "text": edited(c)}) + "\n" for c in cases)
    run = subprocess.run(["node", "-e", TYPESCRIPT], input=given, capture_output=True, text=True, check=True)
    return [(d["line"], d["message"]) for d in map(json.loads, run.stdout.splitlines())]


def python_lines(cases: list[dict]) -> list[tuple[int | None, str]]:
    found: list[tuple[int | None, str]] = []
    for case in cases:
        try:
            compile(edited(case), case["file"], "exec", dont_inherit=True)
            found.append((None, ""))
        except SyntaxError as e:
            found.append((e.lineno, e.msg))
    return found


def typescript_loads() -> bool:
    if shutil.which("node") is None:
        return False
    return subprocess.run(["node", "-e", "require.resolve('typescript')"], capture_output=True).returncode == 0


def compilers_lines(cases: list[dict]) -> list[tuple[int | None, str]]:
    """Each case's line and message from its own compiler, in the cases' order."""
    by = {"node": node_lines, "typescript": typescript_lines, "python": python_lines}
    answers: dict[int, tuple[int | None, str]] = {}
    for name, read in by.items():
        mine = [n for n, c in enumerate(cases) if compiler(c["file"]) == name]
        if mine:
            answers.update(zip(mine, read([cases[n] for n in mine]), strict=True))
    return [answers[n] for n in range(len(cases))]


def main() -> None:
    drawn = [c for name, seeds in SOURCES.items() for seed in seeds for c in draw(name, seed, PER_KIND.get(seed, 8))]
    cases = list({(c["file"], c["line"], c["kind"]): c for c in reversed(drawn)}.values())[::-1]  # once each
    recorded = []
    for case, (line, message) in zip(cases, compilers_lines(cases), strict=True):
        if line is not None:  # an edit the compiler takes (a quote inside a comment, say) is not a broken one
            recorded.append({**case, "compiler": compiler(case["file"]), "compiler_line": line, "message": message})
    CORPUS.write_text(json.dumps(recorded, indent=1, ensure_ascii=False) + "\n")
    agree = sum(narnat_line(c) == c["compiler_line"] for c in recorded)
    print(f"{len(recorded)} broken edits recorded; Narnat names the compiler's line for {agree}", file=sys.stderr)


if __name__ == "__main__":
    os.chdir(Path(__file__).parent.parent.parent)
    main()
