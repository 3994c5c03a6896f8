"""Edit's matching chain, from exact to strict block anchors. Every step finds all matches; it never guesses."""

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from difflib import SequenceMatcher

from narnat_agent.i18n import N_, Said
from narnat_agent.tools.base import ToolError
from narnat_agent.tools.edit.reindent import indent, new_string_frame
from narnat_agent.tools.edit.typography import TYPOGRAPHY, fold, keep_typography, slipped

BLANKS = re.compile(r"[ \t]+")
ESCAPE = re.compile(r"\\([nt\"'\\])")
UNESCAPED = {"n": "\n", "t": "\t", '"': '"', "'": "'", "\\": "\\"}
SIMILAR = 0.85
SHOWN = 5  # lines named in an ambiguous match


# Only spaces and tabs count as blanks: other Unicode spaces are typography, kept by the last line step.
def _trailing(line: str) -> str:
    return line.rstrip(" \t")


def indentless(line: str) -> str:
    return line.strip(" \t")


def _blanks(line: str) -> str:
    if line.isascii():  # the fast path: no Unicode spaces to keep apart
        return " ".join(line.split())
    return BLANKS.sub(" ", line).strip(" \t")


# (name, how a line is compared, whether changed lines keep the file's typography)
LINE_STEPS: tuple[tuple[str, Callable[[str], str], bool], ...] = (
    ("trailing whitespace", _trailing, False),
    ("indentation", indentless, False),
    ("inner whitespace", _blanks, False),
    ("typography", fold, True),
)


class NotFound(ToolError):
    """No step matched; `lines` is the file as the chain saw it, for explaining the miss."""

    def __init__(self, lines: "Lines"):
        super().__init__("old_string was not found")
        self.lines = lines


Replacement = Callable[[], tuple[str, str]]  # the new text, and how new_string was re-indented ("" if not)


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    replacement: Replacement  # made only once the matches are counted: making it may refuse


@dataclass(frozen=True)
class Edited:
    text: str
    how: str  # how it matched: "indentation match; new_string re-indented by +4 spaces"
    places: list[int]  # the first line of each replaced place
    changes: list[tuple[int, int, int]]  # per place: its first line, how many lines it had, how many it has now


def _lines_in(text: str, gone_whole: bool = False) -> int:
    """How many lines a piece of text touches; none for an empty replacement of whole lines."""
    if not text:
        return 0 if gone_whole else 1
    return text.count("\n") + (0 if text.endswith("\n") else 1)


class Lines:
    """The file split into lines once, with each comparison form computed once."""

    def __init__(self, text: str):
        self.text = text
        self.lines = text.split("\n")
        self.starts, pos = [], 0
        for line in self.lines:
            self.starts.append(pos)
            pos += len(line) + 1
        self._forms: dict[Callable, list[str]] = {}

    def form(self, norm: Callable[[str], str]) -> list[str]:
        """Every line compared the way `norm` compares, computed once per file."""
        if norm not in self._forms:
            if norm is fold:  # one translate over the whole text instead of one per line
                self._forms[norm] = [" ".join(line.split()) for line in self.text.translate(TYPOGRAPHY).split("\n")]
            else:
                self._forms[norm] = [norm(line) for line in self.lines]
        return self._forms[norm]

    def candidates(self, form: list[str], first: str, count: int):
        """Indexes where a run of `count` lines could start with `first`, found by list.index (C speed)."""
        i, last = 0, len(form) - count + 1
        while i < last:
            try:
                i = form.index(first, i, last)
            except ValueError:
                return
            yield i
            i += 1

    def span(self, i: int, count: int, replacement: Replacement, newline: bool = False) -> Span:
        """Lines i to i+count-1; with newline, the line break after them too (the lines go away)."""
        last = i + count - 1
        end = self.starts[last] + len(self.lines[last])
        return Span(self.starts[i], min(end + newline, len(self.text)), replacement)

    def line_of(self, offset: int) -> int:
        return self.text.count("\n", 0, offset) + 1


def _merge(block: list[str], old_lines: list[str], new_lines: list[str], norm: Callable, typographic: bool):
    """new_string laid over the matched lines: unchanged lines keep the file's text, changed ones are
    re-indented only if new_string carries old_string's indentation slip, and take the file's typography."""
    place = new_string_frame(block, old_lines, new_lines, norm)
    # old_string's lines as new_string would spell them unchanged: as they are, or at the file's indentation
    at_file = [indent(f) + o[len(indent(o)) :] for f, o in zip(block, old_lines, strict=True)]
    view = old_lines if place.how else at_file
    unslip = slipped(old_lines, block)
    out: list[str] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, view, new_lines, autojunk=False).get_opcodes():
        if tag == "equal":
            out += block[i1:i2]
            continue
        made = [place.apply(n).translate(unslip) if typographic else place.apply(n) for n in new_lines[j1:j2]]
        if tag == "replace" and typographic and i2 - i1 == j2 - j1:
            made = [keep_typography(f, n) for f, n in zip(block[i1:i2], made, strict=True)]
        out += made
    return "\n".join(out), place.how


def whole_lines(old: str, new: str) -> tuple[list[str], list[str]]:
    """Both strings as whole lines; a final newline on old_string (and then on new_string) ends its last line,
    so an empty new_string then has no lines at all."""
    if old.endswith("\n"):
        if not new:
            return old[:-1].split("\n"), []
        old, new = old[:-1], new.removesuffix("\n")
    return old.split("\n"), new.split("\n")


def _exact(lines: Lines, old: str, new: str, line_end: bool = False) -> list[Span]:
    """Every place of old, or with line_end only those where a line ends right after it."""
    spans: list[Span] = []
    i, text = lines.text.find(old), lines.text
    while i != -1:
        end = i + len(old)
        if not line_end or end == len(text) or text[end] == "\n":
            start = max(_line_start(text, i, old, new), spans[-1].end if spans else 0)
            spans.append(Span(start, end, lambda: (new, "")))
        i = text.find(old, end)
    return spans


def _line_start(text: str, i: int, old: str, new: str) -> int:
    """Where the replacement starts: at i, or at the line's start when old_string's first line left out part
    of the line's indentation and new_string's first line has all of it, or whole lines go away."""
    start = text.rfind("\n", 0, i) + 1
    before = text[start:i]
    blank = not new.split("\n", 1)[0].strip() and old.endswith("\n")  # no line would keep that indentation
    whole = indent(new) == before + indent(old) or blank
    return start if before and not before.strip(" \t") and whole else i


def _line_step(lines: Lines, old: str, new: str, norm: Callable[[str], str], typographic: bool) -> list[Span]:
    old_lines, new_lines = whole_lines(old, new)
    target = [norm(line) for line in old_lines]
    if not any(target):
        return []
    form, m, spans, taken = lines.form(norm), len(target), [], 0
    for i in lines.candidates(form, target[0], m):
        if i >= taken and form[i : i + m] == target:
            block = lines.lines[i : i + m]
            make = lambda b=block: _merge(b, old_lines, new_lines, norm, typographic)  # noqa: E731
            spans.append(lines.span(i, m, make, newline=not new_lines))
            taken = i + m  # matches never overlap
    return spans


def _strong(line: str) -> bool:
    return sum(c.isalnum() for c in line) >= 4


def _similarity(a: str, b: str) -> float:
    """1 - Levenshtein distance / longer length (of two lines that differ)."""
    if len(a) > 1000 or len(b) > 1000:
        return 0.0
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return 1 - previous[-1] / max(len(a), len(b))


def _anchors(lines: Lines, old: str, new: str) -> list[Span]:
    """First and last lines as anchors around a middle that drifted only where new_string rewrites it."""
    old_lines, new_lines = whole_lines(old, new)
    target = [fold(line) for line in old_lines]
    m = len(target)
    if m < 4 or not (_strong(target[0]) or _strong(target[-1])):  # a lone "}" may close a fixed-size window
        return []
    rewritten = {fold(line) for line in new_lines}
    form, spans = lines.form(fold), []
    for i in lines.candidates(form, target[0], m):
        if form[i + m - 1] != target[-1]:
            continue
        pairs = list(zip(form[i + 1 : i + m - 1], target[1:-1], strict=True))
        drift = [(f, o) for f, o in pairs if f != o]
        if 2 * len(drift) > len(pairs):
            continue
        if all(o not in rewritten and _similarity(f, o) >= SIMILAR for f, o in drift):
            block = lines.lines[i : i + m]
            make = lambda b=block: _merge(b, old_lines, new_lines, fold, True)  # noqa: E731
            spans.append(lines.span(i, m, make, newline=not new_lines))
    return spans


def _steps(old: str, new: str):
    """(name, finder) in the order they are tried."""
    yield "exact", lambda lines: _exact(lines, old, new)
    if old.endswith("\n") and new.endswith("\n"):
        yield "trailing newline", lambda lines: _exact(lines, old[:-1], new[:-1], line_end=True)
    for name, norm, typographic in LINE_STEPS:
        yield name, lambda lines, norm=norm, typographic=typographic: _line_step(lines, old, new, norm, typographic)


def first_few(places: list[int]) -> str:
    """The first few of many numbers, each once with how often it occurs: one line can hold thousands of matches."""
    counts = Counter(places)
    shown = list(counts)[:SHOWN]
    parts = [f"{n}" if counts[n] == 1 else f"{n} ({counts[n]:,} times)" for n in shown]
    rest = len(places) - sum(counts[n] for n in shown)
    return ", ".join(parts) + (f" and {rest:,} more" if rest else "")


def few(numbers: list[int]) -> str:
    """The first few numbers, for a person: the count is said beside them."""
    return ", ".join(map(str, numbers[:SHOWN])) + (", …" if len(numbers) > SHOWN else "")


def _ambiguous(places: list[int], name: str) -> ToolError:
    lines = sorted(set(places))
    where = ("line " if len(lines) == 1 else "lines ") + first_few(places)
    return ToolError(
        f"ambiguous: old_string matches {len(places):,} places ({name} match) at {where}. "
        "Include more surrounding lines to pick one, or set replace_all=true to change every one.",
        Said(N_("old_string matches {count} places (lines {lines})"), count=f"{len(places):,}", lines=few(lines)),
    )  # fmt: skip


def apply_edit(text: str, old: str, new: str, replace_all: bool = False) -> Edited:
    """The edited text, how it matched, and where."""
    lines = Lines(text)
    chain = list(_steps(old, new))
    if ESCAPE.search(old):
        plain_old, plain_new = (ESCAPE.sub(lambda m: UNESCAPED[m.group(1)], s) for s in (old, new))
        chain += [(f"escapes, then {name}", finder) for name, finder in _steps(plain_old, plain_new)]
    if not replace_all:
        chain.append(("block anchors", lambda lines: _anchors(lines, old, new)))
    for name, finder in chain:
        spans = finder(lines)
        if not spans:
            continue
        places = [lines.line_of(s.start) for s in spans]
        if len(spans) > 1 and not replace_all:
            raise _ambiguous(places, name)
        made = [span.replacement() for span in spans]
        edited = text
        for span, (replacement, _) in zip(reversed(spans), reversed(made), strict=True):
            edited = edited[: span.start] + replacement + edited[span.end :]
        if edited == text:
            raise ToolError(
                f"old_string matched ({name} match), but new_string leaves the file as it is there.",
                Said(N_("the edit would leave the file unchanged")),
            )
        moved = sorted({how for _, how in made if how})
        how = f"{name} match" + "".join(f"; new_string re-indented {how}" for how in moved)
        changes = []
        for place, span, (replacement, _) in zip(places, spans, made, strict=True):
            gone = text[span.start : span.end]
            changes.append((place, _lines_in(gone), _lines_in(replacement, gone.endswith("\n"))))
        return Edited(edited, how, places, changes)
    raise NotFound(lines)
