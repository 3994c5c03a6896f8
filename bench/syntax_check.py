"""The syntax check Edit and Write add, on a 10,000-line file: a valid Edit (the statements around it are parsed),
a broken one (those statements, after and before, to confirm the error and leave out what was already broken), an
Edit of JavaScript that leaves a block open (the compiler stops in what follows: read on to the end of the file),
and a Write of the whole file (parsed whole).

Run: python bench/syntax_check.py [--before REV] [--rounds N]   (baseline: the Edit matcher's exact hit on the same
text; REV: a git revision measured in the same run, round by round in turn with the working tree)
"""

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

from common import median_seconds, source_trees, table

LINES = 10_000
FILES = {  # name: (a line, numbered), 10,000 of them; each language as its files are commonly laid out
    "big.py": "value_{n} = compute({n}, 'label {n}')\n",
    "big.js": "const value_{n} = compute({n}, 'label {n}');\n",
    "big.ts": "const value_{n}: number = compute({n}, 'label {n}');\n",
    "big.tsx": "const value_{n} = <Item key={{{n}}} label='label {n}' />;\n",
    "big.go": 'var value_{n} = compute({n}, "label {n}")\n',
    "big.rs": 'static VALUE_{n}: (i32, &str) = ({n}, "label {n}");\n',
    "big.c": 'int value_{n} = compute({n}, "label {n}");\n',
    "big.cpp": '  int value_{n} = compute({n}, "label {n}");\n',
    "Big.java": '  int value_{n} = compute({n}, "label {n}");\n',
    "Big.cs": '    int value_{n} = Compute({n}, "label {n}");\n',
    "big.rb": "  VALUE_{n} = compute({n}, 'label {n}')\n",
    "big.php": "$value_{n} = compute({n}, 'label {n}');\n",
    "big.sh": "value_{n}=$(compute {n} 'label {n}')\n",
    "big.css": ".item-{n} {{ margin: {n}px; content: 'label {n}'; }}\n",
    "big.html": "    <li id='item-{n}'>label {n}</li>\n",
    "big.json": '  "key_{n}": [{n}, "label {n}"],\n',
    "big.yaml": "key_{n}: [{n}, 'label {n}']\n",
    "big.toml": 'key_{n} = [{n}, "label {n}"]\n',
}
WRAP = {
    "big.go": ("package main\n", ""),
    "big.cpp": ("namespace app {\n", "}\n"),
    "Big.java": ("class Big {\n", "}\n"),
    "Big.cs": ("namespace App {\n  class Big {\n", "  }\n}\n"),
    "big.rb": ("module Big\n", "end\n"),
    "big.php": ("<?php\n", ""),
    "big.html": ("<html><body><ul>\n", "</ul></body></html>\n"),
    "big.json": ("{\n", '  "end": 0\n}\n'),
}

BREAK = {"big.json": ("[7000,", "[7000 ((,"), "big.yaml": ("[7000,", "[[7000,"), "big.html": ("</li>", "</li")}
# 2,500 functions of four lines; the Edit removes the line that closes the 1,750th, at line 7,000
FUNCTION = "function f{n}(a) {{\n  const b = a + {n};\n  return b;\n}}\n"


def measure() -> dict[str, float]:
    """Each row's median seconds, for the package first on sys.path (the working tree or a revision's export)."""
    from narnat_agent.tools.edit.matcher import apply_edit
    from narnat_agent.tools.files.syntax_check import changed_lines, introduced

    rows: dict[str, float] = {}
    for name, line in FILES.items():
        head, tail = WRAP.get(name, ("", ""))
        before = head + "".join(line.format(n=n) for n in range(LINES)) + tail
        old = line.format(n=7000)
        path = Path(name)
        broken = old.replace(*BREAK.get(name, ("7000", "7000 ((")), 1)
        edits = {"valid Edit": old.replace("7000", "7001", 1), "broken Edit": broken}
        rows[f"{name}, exact Edit"] = median_seconds(lambda: apply_edit(before, old, edits["valid Edit"], False), 11)  # noqa: B023
        for label, new in edits.items():
            done = apply_edit(before, old, new, False)
            changed = changed_lines(done.changes)
            assert bool(introduced(path, before, done.text, changed)) == (label == "broken Edit")
            rows[f"{name}, {label}"] = median_seconds(lambda: introduced(path, before, done.text, changed), 11)  # noqa: B023
        rows[f"{name}, Write of the whole file"] = median_seconds(lambda: introduced(path, "", before), 5)  # noqa: B023
    functions = "".join(FUNCTION.format(n=n) for n in range(LINES // 4))
    done = apply_edit(functions, "  return b;\n}\nfunction f1750(", "  return b;\nfunction f1750(", False)
    changed = changed_lines(done.changes)
    assert introduced(Path("open.js"), functions, done.text, changed)
    rows["open.js, Edit that leaves a block open"] = median_seconds(
        lambda: introduced(Path("open.js"), functions, done.text, changed), 11
    )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", help="a git revision to measure in the same run")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, each measuring every revision in turn")
    parser.add_argument("--tree", help=argparse.SUPPRESS)  # one round of the package in this folder, for the parent
    options = parser.parse_args()
    if options.tree:
        sys.path.insert(0, options.tree)  # before the repository, which common.py put first
        print(json.dumps(measure()))
        return
    trees = source_trees(options.before)
    runs: dict[str, list[dict[str, float]]] = {label: [] for label in trees}
    for round_ in range(options.rounds):
        order = list(trees.items())
        for label, tree in order if round_ % 2 == 0 else order[::-1]:  # each goes first in turn
            child = [sys.executable, __file__, "--tree", str(tree)]
            runs[label].append(json.loads(subprocess.run(child, capture_output=True, check=True).stdout))
    medians = {label: {row: statistics.median(r[row] for r in got) for row in got[0]} for label, got in runs.items()}
    now = medians["now"]
    rows = []
    for row, seconds in now.items():
        if row.endswith("exact Edit"):
            continue
        name = row.split(",")[0]
        baseline = None if "Write" in row else now.get(f"{name}, exact Edit")
        budget = "≤ 50 ms" if "broken" in row or "open" in row else "" if "Write" in row else "≤ 20 ms"
        earlier = "".join(f"{medians[b][row] * 1000:.1f} ms → " for b in medians if b != "now" and row in medians[b])
        rows.append((row, f"{earlier}{seconds * 1000:.1f} ms", f"{baseline * 1000:.1f} ms exact Edit" if baseline
                     else "", f"{seconds / baseline:.1f}x" if baseline else "", budget))  # fmt: skip
    before = f" ({options.before} → now)" if options.before else ""
    table(f"Syntax check on a {LINES:,}-line file{before}, medians of {options.rounds} rounds of 11", rows)


if __name__ == "__main__":
    main()
