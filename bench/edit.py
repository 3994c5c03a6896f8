"""Edit's matching chain on a 10,000-line file: the exact hit, a fuzzy hit, and a miss that runs every step.

Run: python bench/edit.py   (baseline: str.replace of the same text)
"""

from common import median_seconds, table

from narnat_agent.tools.edit import explain_miss
from narnat_agent.tools.edit.matcher import NotFound, apply_edit

LINES = 10_000
FILE = "".join(f"    value_{n} = compute({n}, 'label {n}')\n" for n in range(LINES))


def main() -> None:
    exact = "    value_7000 = compute(7000, 'label 7000')\n"
    indented = "value_7000 = compute(7000, 'label 7000')\nvalue_7001 = compute(7001, 'label 7001')\n"  # re-indented
    fuzzy = "value_7000 = compute(7000,  ‘label 7000’)\n"  # other indentation, blanks and quotes: the typography step
    miss = "absent_a = 1\nabsent_b = 2\nabsent_c = 3\nabsent_d = 4\n"  # every step, escapes included, then anchors
    baseline = median_seconds(lambda: FILE.replace(exact, "x\n", 1), 21)
    rows = []
    cases = (("exact match", exact), ("indentation match, new_string re-indented", indented),
             ("typography match", fuzzy), ("no match (full chain + hint)", miss))  # fmt: skip
    for label, old in cases:

        def run(old=old):
            try:
                apply_edit(FILE, old, "x\n")
            except NotFound as miss:  # the third case: every step, then the explanation the model gets
                explain_miss(miss.lines, old, "x\n")

        seconds = median_seconds(run, 11)
        rows.append((label, f"{seconds * 1000:.1f} ms", f"{baseline * 1000:.2f} ms str.replace",
                     f"{seconds / baseline:.0f}x", "< 50 ms"))  # fmt: skip
    table(f"Edit on a {LINES:,}-line file (median of 11)", rows)


if __name__ == "__main__":
    main()
