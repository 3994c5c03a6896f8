"""Narnat names the encoding wherever it reads or writes text: the locale's (cp1252, cp936 on Windows) is never
what a file holds."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "narnat_agent"
MODULES = sorted(PACKAGE.rglob("*.py"))
TEXT_CALLS = {"read_text", "write_text", "open"}


def _unnamed(tree: ast.AST) -> list[int]:
    """Lines of read_text(), write_text() and text-mode open() calls that name no encoding."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or "encoding" in {k.arg for k in node.keywords}:
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if name not in TEXT_CALLS or isinstance(node.func, ast.Attribute) and name == "open" and _is_os(node.func):
            continue
        at = 0 if isinstance(node.func, ast.Attribute) else 1  # Path.open(mode), open(file, mode)
        mode = next((a.value for a in node.args[at : at + 1] if isinstance(a, ast.Constant)), None)
        mode = next((k.value.value for k in node.keywords if k.arg == "mode" and isinstance(k.value, ast.Constant)),
                    mode)  # fmt: skip
        if name == "open" and isinstance(mode, str) and "b" in mode:
            continue  # a binary file
        found.append(node.lineno)
    return found


def _is_os(func: ast.Attribute) -> bool:
    return isinstance(func.value, ast.Name) and func.value.id in {"os", "Image", "webbrowser"}


@pytest.mark.windows
@pytest.mark.parametrize("path", MODULES, ids=[str(p.relative_to(PACKAGE)) for p in MODULES])
def test_text_is_read_and_written_in_a_named_encoding(path):
    lines = _unnamed(ast.parse(path.read_bytes()))
    assert not lines, f"{path.relative_to(PACKAGE)}: name the encoding at lines {lines}"
