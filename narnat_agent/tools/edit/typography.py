"""Typography for Edit's matcher: curly quotes, dashes, ellipses and Unicode spaces folded to what a keyboard
types, and a changed line given back the file's own typography wherever it says the same thing."""

from difflib import SequenceMatcher
from itertools import groupby

TYPOGRAPHIC = {
    "‘": "'", "’": "'", "‚": "'", "‛": "'", "“": '"', "”": '"', "„": '"', "‟": '"',
    "–": "-", "‒": "-", "‐": "-", "‑": "-", "−": "-", "—": "--", "―": "--", "…": "...",
    "\u00a0": " ", "\u202f": " ", "\u2007": " ", "\u2009": " ", "\u200a": " ", "\u3000": " ",
}  # fmt: skip
TYPOGRAPHY = str.maketrans(TYPOGRAPHIC)


def fold(line: str) -> str:
    return " ".join(line.translate(TYPOGRAPHY).split())


def slipped(old_lines: list[str], block: list[str]) -> dict[int, str]:
    """The typographic characters old_string used but the file does not, folded: new_string, written the same way,
    is folded too, so that it does not bring them into the file."""
    slip = "".join(old_lines)
    return str.maketrans({c: TYPOGRAPHIC[c] for c in set(slip) & TYPOGRAPHIC.keys() if c not in "".join(block)})


def _indexed_fold(line: str) -> tuple[str, list[int]]:
    chars, origin = [], []
    for i, c in enumerate(line):
        folded = c.translate(TYPOGRAPHY)
        chars.append(folded)
        origin.extend([i] * len(folded))
    return "".join(chars), origin


def _whole(origin: list[int], start: int, end: int) -> bool:
    """Whether positions start to end of a folded line cut no character's folding in two."""
    cut_before = start > 0 and origin[start - 1] == origin[start]
    cut_after = end < len(origin) and origin[end - 1] == origin[end]
    return not (cut_before or cut_after)


def keep_typography(file_line: str, new_line: str) -> str:
    """new_line, with the file's own characters wherever it says the same thing after folding: a file character
    stays only where all of its folding, and all of the new characters' folding it stands for, is unchanged
    (a `.` that is now part of `…` gives way to it)."""
    f, f_origin = _indexed_fold(file_line)
    n, n_origin = _indexed_fold(new_line)
    out: list[str] = []
    n_done = -1

    def take_new(j1: int, j2: int) -> None:
        nonlocal n_done
        for k in n_origin[j1:j2]:
            if k > n_done:
                out.append(new_line[k])
                n_done = k

    for tag, i1, i2, j1, j2 in SequenceMatcher(None, f, n, autojunk=False).get_opcodes():
        if tag != "equal":
            take_new(j1, j2)
            continue
        for _, run in groupby(range(i1, i2), key=f_origin.__getitem__):  # one file character's folding at a time
            positions = list(run)
            start, end = positions[0], positions[-1] + 1
            q1, q2 = start - i1 + j1, end - i1 + j1
            if _whole(f_origin, start, end) and _whole(n_origin, q1, q2):
                out.append(file_line[f_origin[start]])
                n_done = max(n_done, n_origin[q2 - 1])
            else:
                take_new(q1, q2)
    return "".join(out)
