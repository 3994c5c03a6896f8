"""The syntax check Edit and Write add, on a 10,000-line file: a valid Edit (the statements around it are parsed),
a broken one (the whole file after and before are parsed, to confirm the error and leave out what was already
broken), and a Write of the whole file (parsed whole).

Run: python bench/syntax_check.py   (baseline: the Edit matcher's exact hit on the same text)
"""

from pathlib import Path

from common import median_seconds, table

from narnat_agent.tools.edit.matcher import apply_edit
from narnat_agent.tools.files.syntax_check import changed_lines, introduced

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


def main() -> None:
    rows = []
    for name, line in FILES.items():
        head, tail = WRAP.get(name, ("", ""))
        before = head + "".join(line.format(n=n) for n in range(LINES)) + tail
        old = line.format(n=7000)
        path = Path(name)
        broken = old.replace(*BREAK.get(name, ("7000", "7000 ((")), 1)
        edits = {"valid Edit": old.replace("7000", "7001", 1), "broken Edit": broken}
        edit = median_seconds(lambda: apply_edit(before, old, edits["valid Edit"], False), 11)  # noqa: B023
        for label, new in edits.items():
            done = apply_edit(before, old, new, False)
            changed = changed_lines(done.changes)
            assert bool(introduced(path, before, done.text, changed)) == (label == "broken Edit")
            seconds = median_seconds(lambda: introduced(path, before, done.text, changed), 11)  # noqa: B023
            rows.append((f"{name}, {label}", f"{seconds * 1000:.1f} ms", f"{edit * 1000:.1f} ms exact Edit",
                         f"{seconds / edit:.1f}x", "≤ 20 ms"))  # fmt: skip
        whole = median_seconds(lambda: introduced(path, "", before), 5)  # noqa: B023
        rows.append((f"{name}, Write of the whole file", f"{whole * 1000:.1f} ms", "", "", ""))
    table(f"Syntax check on a {LINES:,}-line file (median of 11)", rows)


if __name__ == "__main__":
    main()
