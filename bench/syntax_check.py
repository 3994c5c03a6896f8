"""The syntax check Edit and Write add, on a 10,000-line file: a valid change (the file after is parsed) and a
broken one (the file before is parsed too, to keep what was already broken out of the report).

Run: python bench/syntax_check.py   (baseline: the Edit matcher's exact hit on the same text)
"""

from pathlib import Path

from common import median_seconds, table

from narnat_agent.tools.edit.matcher import apply_edit
from narnat_agent.tools.syntax_check import introduced

LINES = 10_000
FILES = {  # name: (a line, numbered), 10,000 of them
    "big.py": "value_{n} = compute({n}, 'label {n}')\n",
    "big.js": "const value_{n} = compute({n}, 'label {n}');\n",
    "big.go": 'var value_{n} = compute({n}, "label {n}")\n',
    "big.json": '  "key_{n}": [{n}, "label {n}"],\n',
}
WRAP = {"big.go": ("package main\n", ""), "big.json": ("{\n", '  "end": 0\n}\n')}


def main() -> None:
    rows = []
    for name, line in FILES.items():
        head, tail = WRAP.get(name, ("", ""))
        before = head + "".join(line.format(n=n) for n in range(LINES)) + tail
        old = line.format(n=7000)
        valid = before.replace(old, old.replace("7000,", "7001,"))
        broken = before.replace(old, old.replace(",", ",(", 1))
        path = Path(name)
        assert not introduced(path, before, valid) and introduced(path, before, broken)
        edit = median_seconds(lambda: apply_edit(before, old, old.replace("7000,", "7001,"), False), 11)  # noqa: B023
        for label, after in (("valid", valid), ("broken", broken)):
            seconds = median_seconds(lambda: introduced(path, before, after), 11)  # noqa: B023
            rows.append((f"{name}, {label} change", f"{seconds * 1000:.1f} ms", f"{edit * 1000:.1f} ms exact Edit",
                         f"{seconds / edit:.1f}x", "≤ 20 ms"))  # fmt: skip
    table(f"Syntax check on a {LINES:,}-line file (median of 11)", rows)


if __name__ == "__main__":
    main()
