"""Whether a change to a source file broke its syntax (the errors found by tools/files/parsers.py).

Only errors the change introduced count: a file already broken elsewhere keeps quiet about what was there before.
"""

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path

from narnat_agent.i18n import N_, Said
from narnat_agent.tools.files.html_context import closing, open_elements, opening
from narnat_agent.tools.files.parsers import STOPPING, Parsed, SyntaxProblem, parsed
from narnat_agent.tools.files.statements import Fragment, around

GRAMMARS = {
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".json": "json",
    ".ipynb": "json",
    ".yaml": "yaml",  # read by libyaml, not a grammar
    ".yml": "yaml",
    ".toml": "toml",
    ".go": "go",
    ".rs": "rust",
    ".java": "java",
    ".c": "c",
    ".h": "cpp",  # its grammar reads C headers too; the C grammar fails on C++ ones
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".hpp": "cpp",
    ".hh": "cpp",
    ".hxx": "cpp",
    ".cs": "csharp",
    ".rb": "ruby",
    ".php": "php",
    ".sh": "bash",
    ".bash": "bash",
    ".html": "html",
    ".htm": "html",
    ".css": "css",
}  # fmt: skip  (.h is C++: its grammar reads C headers too, the C grammar fails on C++ ones)
# Their grammars misread much valid code (C's macros, HTML's embedded scripts and XML prologues): they are trusted
# only on a file that parsed cleanly before the change.
GUESSING = {"c", "cpp", "html"}
# The meaning of a line depends on tags far above it: parsed whole, but for a file that is PHP from its first line to
# its end (no ?> after <?php), whose statements are read after that first line
WHOLE = {"php"}
# Languages whose first error is named where their compiler names it (tools/files/parsers.py; Go's compiler reads a
# function left open on into the next `func`): one met only at the end of the statements around a change is looked
# for in the rest of the file, as the compiler reads on
READ_ON = STOPPING | {"yaml", "go"}
COMMENTED_JSON = ("tsconfig", "jsconfig", "devcontainer", ".devcontainer")
LINE_CHARS = 200


def language(path: Path) -> str | None:
    """The language checked for this file, or None when there is no check for it."""
    if path.suffix in (".py", ".pyi"):
        return "python"
    grammar = GRAMMARS.get(path.suffix.lower())
    if grammar == "json" and (path.name.startswith(COMMENTED_JSON) or ".vscode" in path.parts):
        return None  # JSON with comments and trailing commas, which their readers accept and strict JSON does not
    return grammar


def problems(path: Path, text: str) -> list[SyntaxProblem]:
    """The syntax errors in a file's text (none for a language without a check)."""
    return _parsed(path, text)[0]


def _parsed(path: Path, text: str, reuse: Parsed | None = None) -> tuple[list[SyntaxProblem], Parsed | None]:
    """The errors, and tree-sitter's parse to reuse for a text like it (None for a language read otherwise)."""
    grammar = language(path)
    return parsed(grammar, text, path.name, reuse) if grammar else ([], None)


def changed_lines(changes: list[tuple[int, int, int]]) -> tuple[int, int]:
    """The first and last line (1-based, in the new text) an edit wrote, from its (first, old, new) changes; where
    lines were only removed, the lines on both sides of the gap (the one before may now end a statement open)."""
    shift, spans = 0, []
    for first, old, new in sorted(changes):
        spans.append((max(first + shift - (new == 0), 1), first + shift + max(new, 1) - 1))
        shift += new - old
    return min(s[0] for s in spans), max(s[1] for s in spans)


def _json(text: str) -> bool:
    """Whether Python's JSON reader takes the text as standard JSON (no NaN or Infinity): a few milliseconds for a
    large document, where the grammar takes tens; what it takes, the grammar takes too."""

    def refuse(constant: str) -> None:
        raise ValueError(constant)

    try:
        json.loads(text, parse_constant=refuse)
    except (ValueError, RecursionError):
        return False
    return True


def _only_php(text: str) -> bool:
    return text.startswith("<?php") and "?>" not in text


def _clean(path: Path, text: str) -> bool:
    return language(path) == "json" and _json(text) or not problems(path, text)


def _local(path: Path, before: str, after: str, changed: tuple[int, int]) -> list[SyntaxProblem] | None:
    """The errors in the statements around the change, when those statements parsed cleanly before it; None when
    only the whole file can tell (they were broken before too, or a JSON document's error lies elsewhere). Where the
    first error is met only in the closing lines or at the end (the change left something open), the compiler stops
    somewhere in what follows: the statements are read on to the end of the file."""
    new, old = after.split("\n"), before.split("\n")
    document = language(path) == "json"
    if language(path) == "yaml":  # a key's indentation means something only beside a sibling's: those around are
        # taken along (the first key of a document has none above it, and `---` is none)
        changed = (_keyed(new, changed[0], -1), _keyed(new, changed[1], 1))
    fragment = around(new, changed)
    if language(path) == "php" and fragment.start > 0 and 0 not in fragment.head:
        fragment = replace(fragment, head=(0, *fragment.head))  # the opening <?php
    stopping = language(path) in READ_ON
    found = problems(path, fragment.text(new, comma=not document) + "\n" * stopping)  # its end on a line of its own
    if not found:
        return None if document else []  # the JSON reader found an error: not in these statements, then
    if language(path) == "html":
        return _in_page(path, new, old, fragment)
    earlier = fragment.before(len(new) - len(old)).text(old, comma=not document)
    if not _clean(path, earlier):
        return None
    if stopping and _open_until_the_end(fragment, found[0], new, old, changed):
        # what comes before the statements is as it was; from them on, the compiler reads to the end of the file
        fragment = replace(fragment, end=len(new), tail=())
        found = problems(path, fragment.text(new))
    placed = [(p, fragment.line(p.line)) for p in found]
    return [replace(p, line=n, text=new[n - 1] if 0 < n <= len(new) else p.text) for p, n in placed]


def _in_page(path: Path, new: list[str], old: list[str], fragment: Fragment) -> list[SyntaxProblem] | None:
    """An error the statements around an HTML Edit showed, read again inside the elements open where they start (a
    page's content is rarely indented as it nests, and a closing tag further down closes an element opened far
    above), and on until the elements open after the Edit are those open there before it: from there on the page
    reads as it did. None when only the whole page can tell."""
    start, grown = fragment.start, len(new) - len(old)
    elements, end = open_elements("\n".join(new[:start]) + "\n"), min(len(new), fragment.end + 1)  # the next token
    if elements is None:
        return None
    while (after := open_elements("\n".join(new[start:end]) + "\n", elements)) is None or after != open_elements(
        "\n".join(old[start : end - grown]) + "\n", elements
    ):  # until the same elements are open after the Edit as before it: what follows reads as it did
        if end >= len(new):
            return None
        end = min(len(new), end + max(end - start, 100))
    head = opening(elements)
    if problems(path, "\n".join([head, *old[start : end - grown], closing(after)])):
        return None
    found = problems(path, "\n".join([head, *new[start:end], closing(after)]))
    if found and found[0].line == 1:  # recovery took in the opening tags too: placed on the whole page's tags
        return None
    placed = [(p, start + p.line - 1) for p in found]  # its first line is the opening tags'
    return [replace(p, line=n, text=new[n - 1] if 0 < n <= len(new) else "") for p, n in placed]


def _keyed(lines: list[str], line: int, step: int) -> int:
    """The nearest line above (step -1) or below (step 1) `line` (1-based) with more than a comment on it, or `line`
    itself when there is none."""
    return next((n for n in range(line + step, 0 if step < 0 else len(lines) + 1, step)
                 if lines[n - 1].strip()[:1] not in ("", "#")), line)  # fmt: skip


def _open_until_the_end(
    fragment: Fragment, first: SyntaxProblem, new: list[str], old: list[str], changed: tuple[int, int]
) -> bool:
    """Whether where the compiler stops depends on the lines after the fragment: its first error is met only in
    the closing lines or at its end (the change left a block open), or the change opened or closed a template
    literal (an odd number of backticks where there was an even one), which moves every line after it in or out."""
    first_line, last_line = changed
    grown = len(new) - len(old)
    ticks = sum(line.count("`") for line in new[first_line - 1 : last_line])
    ticks_before = sum(line.count("`") for line in old[first_line - 1 : last_line - grown])
    return first.line > len(fragment.head) + fragment.end - fragment.start or (ticks - ticks_before) % 2 == 1


def introduced(path: Path, before: str, after: str, changed: tuple[int, int] | None = None) -> str:
    """A short block naming the syntax errors `after` has and `before` had not; "" when it parses or was as broken.

    With the changed lines known (an Edit), the statements around them are parsed, before and after the change:
    errors there that were not there before are the change's, which keeps a large file's check fast. Only when
    those statements were broken before too is the whole file parsed, after and before."""
    try:
        return _introduced(path, before, after, changed)
    except (RecursionError, MemoryError) as e:  # Python's compiler on deep nesting: the change itself stands
        return f"Written; syntax not checked ({type(e).__name__}: the file is nested too deeply to parse)."


def _introduced(path: Path, before: str, after: str, changed: tuple[int, int] | None) -> str:
    grammar = language(path)
    if grammar is None or grammar == "json" and _json(after):
        return ""
    whole = grammar in WHOLE and not (grammar == "php" and _only_php(after) and _only_php(before))
    local = _local(path, before, after, changed) if changed and before and not whole else None
    if local is not None:
        return _said(grammar, local)
    found, parsed = _parsed(path, after)
    if not found:
        return ""  # the usual case: the file before is never parsed
    known = Counter(p.key for p in _parsed(path, before, parsed)[0]) if before else Counter()
    if grammar in GUESSING and (known or not before):
        return ""
    new = []
    for problem in found:
        if known[problem.key]:
            known[problem.key] -= 1
        else:
            new.append(problem)
    return _said(grammar, new)


def _said(grammar: str, found: list[SyntaxProblem]) -> str:
    """The finding: English for the model, and said again in the interface's language (the parser's words and the
    source lines stay as they are)."""
    if not found:
        return ""
    lines = [Said(N_("  line {line}, column {column}: {message}{source}"), line=str(p.line), column=str(p.column),
                  message=p.message, source=_source(p.text)) for p in found]  # fmt: skip
    shown = lines[-1]
    for line in reversed(lines[:-1]):
        shown = Said(N_("{first}\n{rest}"), first=line, rest=shown)
    count = Said(N_("a syntax error")) if len(found) == 1 else Said(N_("{n} syntax errors"), n=str(len(found)))
    return Said(N_("Syntax check ({grammar}): this change introduced {count}:\n{shown}"), grammar=grammar,
                count=count, shown=shown)  # fmt: skip


def _source(text: str) -> str:
    return f"\n    {text[:LINE_CHARS]}" if text.strip() else ""  # none past the last line
