"""The syntax errors in a text, language by language: Python's own compiler, libyaml for YAML, tree-sitter for the
others (each grammar its own PyPI package, tree-sitter-NAME), with the first error of JavaScript and TypeScript where
node and tsc name it."""

import functools
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from narnat_agent.tools.files.stopping import stop
from narnat_agent.tools.files.yaml_syntax import first_error

if TYPE_CHECKING:  # tree-sitter loads with the first check, not with the tools
    from tree_sitter import Tree

# A grammar's module is tree_sitter_NAME and its function language(); these differ
PACKAGES = {
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "tsx": ("tree_sitter_typescript", "language_tsx"),
    "csharp": ("tree_sitter_c_sharp", "language"),
    "php": ("tree_sitter_php", "language_php"),  # PHP inside HTML, as a .php file is
}
# The first error is named where the compiler names it (tools/files/stopping.py), held to node's and tsc's lines
STOPPING = {"javascript", "typescript", "tsx"}
SHOWN = 3  # errors listed at most; the first one matters most, the rest are often its echoes
Parsed = tuple[bytes, "Tree"]  # a text as bytes and its tree


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


def parsed(
    grammar: str, text: str, name: str, reuse: Parsed | None = None
) -> tuple[list[SyntaxProblem], Parsed | None]:
    """The errors in a text of this language, and tree-sitter's parse to reuse for a text like it (None for a
    language read otherwise)."""
    if grammar == "yaml":
        found = first_error(text)
        return ([SyntaxProblem(*found, _line(text, found[0]))] if found else []), None
    return (_python(text, name), None) if grammar == "python" else _tree_sitter(text, grammar, reuse)


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


def _tree_sitter(text: str, grammar: str, reuse: Parsed | None = None) -> tuple[list[SyntaxProblem], Parsed]:
    """The errors in the text, and its parse; with `reuse`, the parse of a text that differs from it in one place,
    whose unchanged parts are reused (tree-sitter's incremental parse: milliseconds, not a whole file's)."""
    data = text.encode("utf-8", "surrogateescape")
    parser = _parser(grammar)
    tree = parser.parse(data, _marked(*reuse, data)) if reuse else parser.parse(data)
    root = tree.root_node
    if not root.has_error:
        return [], (data, tree)
    lines = data.split(b"\n")
    first = stop(parser, data, tree, grammar) if grammar in STOPPING else None
    problems = [_problem(lines, *_row_column(data, first.offset), first.message)] if first else []
    pending = [root]
    while pending and len(problems) < SHOWN:
        node = pending.pop()
        if node.is_missing or node.is_error:
            if first is None or node.start_byte > first.offset:  # what follows the first error are its echoes
                problems.append(_problem(lines, node.start_point.row, node.start_point.column, _message(node)))
        else:
            pending.extend(child for child in reversed(node.children) if child.has_error)
    return problems, (data, tree)


def _marked(old: bytes, tree: "Tree", new: bytes) -> "Tree":
    """A copy of old's tree, told where new differs from old (one span: what lies before and after it is shared)."""
    limit = min(len(old), len(new))
    start = _shared(memoryview(old), memoryview(new), limit)
    end = _shared(memoryview(old)[::-1], memoryview(new)[::-1], limit - start)
    marked = tree.copy()
    old_end, new_end = len(old) - end, len(new) - end
    marked.edit(start, old_end, new_end, _row_column(old, start), _row_column(old, old_end), _row_column(new, new_end))
    return marked


def _shared(a: memoryview, b: memoryview, limit: int) -> int:
    """How many first bytes a and b share, up to limit: a binary search of slices compared in C."""
    low, high = 0, limit
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


def _row_column(data: bytes, offset: int) -> tuple[int, int]:
    return data.count(b"\n", 0, offset), offset - (data.rfind(b"\n", 0, offset) + 1)


def _problem(lines: list[bytes], row: int, column: int, message: str) -> SyntaxProblem:
    source = lines[row].decode("utf-8", "replace") if row < len(lines) else ""
    column = len(lines[row][:column].decode("utf-8", "replace")) if row < len(lines) else column
    return SyntaxProblem(row + 1, column + 1, message, source)


def _message(node) -> str:
    if node.is_missing:
        return f"missing {node.type!r}"
    text = node.text.decode("utf-8", "replace").strip().split("\n")[0]
    return f"unexpected {text[:40]!r}" if text else "unexpected end of file"


def _line(text: str, line: int) -> str:
    lines = text.split("\n")
    return lines[line - 1] if 0 < line <= len(lines) else ""
