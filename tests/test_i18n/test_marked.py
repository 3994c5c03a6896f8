"""Text a person reads goes through the catalog: a message handed to the UI as a bare literal is a failure.

The modules listed are the ones whose words the catalog holds so far; each one added stays held to this."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "narnat_agent"
SPEAKING = [
    "cli.py",
    "run.py",
    "commands/session.py",
    *(str(p.relative_to(PACKAGE)) for p in sorted((PACKAGE / "ui").glob("*.py"))),
]
SAYS = {"notice", "warning", "error", "info", "ask", "spin", "yes_no", "SessionError", "ArgumentTypeError"}


def _bare_messages(tree: ast.AST) -> list[str]:
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        first = node.args[0]
        literal = isinstance(first, ast.JoinedStr) or isinstance(first, ast.Constant) and isinstance(first.value, str)
        if name in SAYS and literal and any(c.isalpha() for c in ast.unparse(first)):
            found.append(ast.unparse(first)[:60])
    return found


@pytest.mark.parametrize("module", SPEAKING)
def test_what_a_module_says_to_a_person_is_marked_for_translation(module):
    bare = _bare_messages(ast.parse((PACKAGE / module).read_text()))
    assert not bare, f"{module}: wrap in _() and add to the catalog: {bare}"
