"""How Edit carries new_string's indentation over when old_string matched only by ignoring indentation."""

from collections.abc import Callable
from dataclasses import dataclass
from difflib import SequenceMatcher

from narnat_agent.tools.base import ToolError


def indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


@dataclass(frozen=True)
class Reindent:
    apply: Callable[[str], str]
    how: str  # for the result: "by +4 spaces"; empty when nothing moves


KEEP = Reindent(lambda line: line, "")


def indent_map(file_block: list[str], old_lines: list[str]) -> Reindent:
    """How old_string's indentation maps onto the file's: a constant shift, or spaces <-> tabs; else refuse."""
    pairs = [(indent(f), indent(o)) for f, o in zip(file_block, old_lines, strict=True) if f.strip() and o.strip()]
    if all(f == o for f, o in pairs):
        return KEEP
    for char in " \t":
        shifts = {len(f) - len(o) for f, o in pairs if set(f + o) <= {char}}
        if len(shifts) == 1 and all(set(f + o) <= {char} for f, o in pairs):
            return _shifter(char, shifts.pop())
    for unit in (4, 2, 8):
        if all(set(o) <= {" "} and set(f) <= {"\t"} and len(o) % unit == 0 for f, o in pairs):
            levels = {len(f) - len(o) // unit for f, o in pairs}
            if len(levels) == 1:
                return _converter(" ", unit, "\t", 1, levels.pop())
        if all(set(o) <= {"\t"} and set(f) <= {" "} and len(f) % unit == 0 for f, o in pairs):
            levels = {len(f) // unit - len(o) for f, o in pairs}
            if len(levels) == 1:
                return _converter("\t", 1, " ", unit, levels.pop())
    raise ToolError(
        "old_string matched only when ignoring indentation, and its indentation does not map consistently onto "
        "the file's; copy the lines exactly as Read shows them (tabs stay tabs)."
    )


def _shifter(char: str, shift: int) -> Reindent:
    def apply(line: str) -> str:
        if not line.strip():
            return line
        if shift >= 0:
            return char * shift + line
        drop = min(-shift, len(line) - len(line.lstrip(char)))
        return line[drop:]

    name = "space" if char == " " else "tab"
    return Reindent(apply, f"by {shift:+d} {name}{'s' if abs(shift) != 1 else ''}")


def _converter(src: str, src_unit: int, dst: str, dst_unit: int, offset: int) -> Reindent:
    def apply(line: str) -> str:
        if not line.strip():
            return line
        body = line.lstrip(src)
        levels, rest = divmod(len(line) - len(body), src_unit)
        return dst * (max(levels + offset, 0) * dst_unit) + src * rest + body

    unit = max(src_unit, dst_unit)
    how = "from spaces to tabs" if src == " " else "from tabs to spaces"
    shift = f", {offset:+d} level{'s' if abs(offset) != 1 else ''}" if offset else ""
    return Reindent(apply, f"{how} ({unit} spaces a tab{shift})")


def _pairs(old: list[str], new: list[str]):
    """(i, j): old line i and what new_string made of it, side by side (a changed line still resembles it)."""
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag == "equal":
            yield from zip(range(i1, i2), range(j1, j2), strict=True)
        elif tag == "replace" and (i2 - i1) * (j2 - j1) > 400:  # a rewrite that large: side by side only
            yield from zip(range(i1, i2), range(j1, j2), strict=True) if i2 - i1 == j2 - j1 else ()
        elif tag == "replace":
            for j in range(j1, j2):
                score, i = max((SequenceMatcher(None, old[i], new[j]).ratio(), i) for i in range(i1, i2))
                if score >= 0.6:
                    yield i, j


def _votes(file_block: list[str], old_lines: list[str], new_lines: list[str], norm: Callable) -> tuple[list, bool]:
    """Per line of new_string that comes from one of old_string: True if indented as old_string is, False if as
    the file is (lines that could be either are left out, and said)."""
    votes, both = [], False
    for i, j in _pairs([norm(o) for o in old_lines], [norm(n) for n in new_lines]):
        f, o, n = file_block[i], old_lines[i], new_lines[j]
        if n.strip() and o.strip():
            as_old, as_file = indent(n) == indent(o), indent(n) == indent(f)
            both = both or (as_old and as_file)
            votes += [as_old] if as_old != as_file else []
    return votes, both


def new_string_frame(
    file_block: list[str], old_lines: list[str], new_lines: list[str], norm: Callable[[str], str]
) -> Reindent:
    """How to re-indent new_string: as old_string maps onto the file when new_string carries the same slip,
    not at all when it is already indented as the file is; refuse when its lines leave doubt."""
    mapping = indent_map(file_block, old_lines)
    if all(mapping.apply(n) == n for n in new_lines):
        return KEEP
    votes, both = _votes(file_block, old_lines, new_lines, norm)
    # A line that new_string nests deeper or shallower can look like the other frame, so the first line that
    # tells decides, as long as most lines agree with it.
    if votes and 2 * votes.count(votes[0]) > len(votes):
        return mapping if votes[0] else KEEP
    if both and not votes:  # only lines both frames indent alike (a tab/space mapping leaves them as they are)
        return mapping
    if not votes:  # no line of new_string comes from one of old_string: the indentations it uses may tell
        used = {indent(n) for n in new_lines if n.strip()}
        in_old, in_file = (used <= {indent(x) for x in lines if x.strip()} for lines in (old_lines, file_block))
        if in_old != in_file:
            return mapping if in_old else KEEP
    why = (
        "some of its lines are indented like old_string's and others like the file's"
        if votes
        else "it is indented like neither old_string nor the file"
    )
    raise ToolError(
        f"old_string matched only with its indentation moved {mapping.how}, and new_string's indentation "
        f"leaves doubt: {why}. Copy old_string's lines exactly as Read shows them and indent new_string as the "
        "file is."
    )
