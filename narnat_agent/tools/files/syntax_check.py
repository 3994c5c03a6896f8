"""Whether a change to a source file broke its syntax: Python's own compiler for .py, tree-sitter for the others.

Only errors the change introduced count: a file already broken elsewhere keeps quiet about what was there before.
"""

import functools
import json
import re
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from narnat_agent.tools.files.statements import around

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
    ".yaml": "yaml",
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
# Each grammar is its own PyPI package, tree-sitter-NAME (module tree_sitter_NAME, function language()); these differ
PACKAGES = {
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
    "csharp": ("tree_sitter_c_sharp", "language"),
    "php": ("tree_sitter_php", "language_php"),  # PHP inside HTML, as a .php file is
}
# Their grammars misread much valid code (C's macros, HTML's embedded scripts and XML prologues): they are trusted
# only on a file that parsed cleanly before the change.
GUESSING = {"c", "cpp", "html"}
# The meaning of a line depends on tags far above it: parsed whole, but for a file that is PHP from its first line to
# its end (no ?> after <?php), whose statements are read after that first line
WHOLE = {"php", "html"}
# A YAML document is one nested mapping: its statements parsed alone place an error elsewhere than the whole does,
# so an error found there is placed on the whole file
PLACED_WHOLE = {"yaml"}
COMMENTED_JSON = ("tsconfig", "jsconfig", "devcontainer", ".devcontainer")
SHOWN = 3  # errors listed at most; the first one matters most, the rest are often its echoes
LINE_CHARS = 200


@dataclass(frozen=True)
class SyntaxProblem:
    line: int  # 1-based
    column: int  # 1-based
    message: str
    text: str  # the offending line

    @property
    def key(self) -> tuple[str, str]:
        """What stays the same when lines above it move: an error before and after a change is the same one."""
        return self.message, self.text.strip()


def language(path: Path) -> str | None:
    """The language checked for this file, or None when there is no check for it."""
    if path.suffix in (".py", ".pyi"):
        return "python"
    grammar = GRAMMARS.get(path.suffix.lower())
    if grammar == "json" and (path.name.startswith(COMMENTED_JSON) or ".vscode" in path.parts):
        return None  # JSON with comments and trailing commas, which their readers accept and strict JSON does not
    return grammar


def _python(text: str, name: str) -> list[SyntaxProblem]:
    try:
        compile(text, name, "exec", dont_inherit=True)
    except SyntaxError as e:
        lines = re.split(r"\r\n|\r|\n", text)  # the compiler's line ends: not a form feed's or U+2028's
        line = e.lineno or 1
        source = lines[line - 1] if 0 < line <= len(lines) else (e.text or "").rstrip("\n")
        return [SyntaxProblem(line, e.offset or 1, e.msg, source)]
    except ValueError:  # a NUL byte: not source the compiler reads, and not for us to judge
        return []
    return []


@functools.cache
def _parser(grammar: str):
    import importlib

    import tree_sitter

    module, function = PACKAGES.get(grammar, (f"tree_sitter_{grammar}", "language"))
    return tree_sitter.Parser(tree_sitter.Language(getattr(importlib.import_module(module), function)()))


def _tree_sitter(text: str, grammar: str) -> list[SyntaxProblem]:
    data = text.encode("utf-8", "surrogateescape")
    root = _parser(grammar).parse(data).root_node
    problems: list[SyntaxProblem] = []
    lines = data.split(b"\n")
    pending = [root] if root.has_error else []
    while pending and len(problems) < SHOWN:
        node = pending.pop()
        if node.is_missing or node.is_error:
            row, column = node.start_point
            source = lines[row].decode("utf-8", "replace") if row < len(lines) else ""
            column = len(lines[row][:column].decode("utf-8", "replace")) if row < len(lines) else column
            problems.append(SyntaxProblem(row + 1, column + 1, _message(node), source))
        else:
            pending.extend(child for child in reversed(node.children) if child.has_error)
    return problems


def _message(node) -> str:
    if node.is_missing:
        return f"missing {node.type!r}"
    text = node.text.decode("utf-8", "replace").strip().split("\n")[0]
    return f"unexpected {text[:40]!r}" if text else "unexpected end of file"


def problems(path: Path, text: str) -> list[SyntaxProblem]:
    """The syntax errors in a file's text (none for a language without a check)."""
    grammar = language(path)
    if grammar is None:
        return []
    return _python(text, path.name) if grammar == "python" else _tree_sitter(text, grammar)


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
    only the whole file can tell (they were broken before too, or a JSON document's error lies elsewhere)."""
    new, old = after.split("\n"), before.split("\n")
    document = language(path) == "json"
    fragment = around(new, changed)
    if language(path) == "php" and fragment.start > 0 and 0 not in fragment.head:
        fragment = replace(fragment, head=(0, *fragment.head))  # the opening <?php
    found = problems(path, fragment.text(new, comma=not document))
    if not found:
        return None if document else []  # the JSON reader found an error: not in these statements, then
    earlier = fragment.before(len(new) - len(old)).text(old, comma=not document)
    if language(path) in PLACED_WHOLE or not _clean(path, earlier):
        return None
    placed = [(p, fragment.line(p.line)) for p in found]
    return [replace(p, line=n, text=new[n - 1] if 0 < n <= len(new) else p.text) for p, n in placed]


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
    found = problems(path, after)
    if not found:
        return ""  # the usual case: the file before is never parsed
    known = Counter(p.key for p in problems(path, before)) if before else Counter()
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
    if not found:
        return ""
    shown = "\n".join(f"  line {p.line}, column {p.column}: {p.message}\n    {p.text[:LINE_CHARS]}" for p in found)
    return f"Syntax check ({grammar}): this change introduced {_count(len(found))}:\n{shown}"


def _count(n: int) -> str:
    return "a syntax error" if n == 1 else f"{n} syntax errors"
