"""Whether a change to a source file broke its syntax: Python's own compiler for .py, tree-sitter for the others.

Only errors the change introduced count: a file already broken elsewhere keeps quiet about what was there before.
"""

import functools
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

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
# A line that starts a top-level statement: not one that closes a bracket or a block, or continues one (else:)
STARTS = re.compile(r"(?!(?:end|fi|done|esac|else|elif|except|finally)\b)[^\s)\]}]")
WHOLE = {"php", "html"}  # the meaning of a line depends on tags far above it: always parsed whole
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
        lines = text.splitlines()
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
    """The first and last line (1-based, in the new text) an edit wrote, from its (first, old, new) changes."""
    shift, spans = 0, []
    for first, old, new in sorted(changes):
        spans.append((first + shift, first + shift + max(new, 1) - 1))
        shift += new - old
    return min(s[0] for s in spans), max(s[1] for s in spans)


def _window(text: str, changed: tuple[int, int]) -> str:
    """The top-level statements around the changed lines: from the line at column 0 where the first one starts to
    the next line at column 0 that starts another (a closing bracket at column 0 ends the statement, not starts)."""
    lines = text.split("\n")
    start, end = min(changed[0], len(lines)) - 1, changed[1]
    while start > 0 and not STARTS.match(lines[start]):
        start -= 1
    while end < len(lines) and not STARTS.match(lines[end]):
        end += 1
    return "\n".join(lines[start:end])


def introduced(path: Path, before: str, after: str, changed: tuple[int, int] | None = None) -> str:
    """A short block naming the syntax errors `after` has and `before` had not; "" when it parses or was as broken.

    With the changed lines known (an Edit), the statements around them are parsed first: when they parse, the
    file is taken as parsing, which keeps a large file's check fast; any error is confirmed on the whole file."""
    if changed and language(path) not in WHOLE and not problems(path, _window(after, changed)):
        return ""
    found = problems(path, after)
    if not found:
        return ""  # the usual case: the file before is never parsed
    known = Counter(p.key for p in problems(path, before)) if before else Counter()
    if language(path) in GUESSING and (known or not before):
        return ""
    new = []
    for problem in found:
        if known[problem.key]:
            known[problem.key] -= 1
        else:
            new.append(problem)
    if not new:
        return ""
    shown = "\n".join(f"  line {p.line}, column {p.column}: {p.message}\n    {p.text[:LINE_CHARS]}" for p in new)
    return f"Syntax check ({language(path)}): this change introduced {_count(len(new))}:\n{shown}"


def _count(n: int) -> str:
    return "a syntax error" if n == 1 else f"{n} syntax errors"
