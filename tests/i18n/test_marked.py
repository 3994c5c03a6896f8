"""Text a person reads goes through the catalog: a message handed to a person as a bare English literal fails here.

Every module of the package is held to it, so a new one is too. A message counts as handed to a person when it is
an argument that holds words (WORDS; the first unless said) of a call that shows it (SAYS) or of an error or
outcome whose text a person reads (TELLS); the log is for diagnosis and stays English."""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "narnat_agent"
# a confirmation's first argument is the command asked about; ask takes a label or a reason; a stop has its kind first;
# a tool's Result and ToolError hold the model's text first, then the line a person reads
WORDS = {"confirm": slice(1, 2), "ask": slice(0, 2), "TurnStopped": slice(1, 2), "TurnOutcome": slice(1, 2),
         "Result": slice(1, 2), "ToolError": slice(1, 2)}  # fmt: skip
SAYS = {*WORDS, "notice", "warning", "error", "info", "spin", "yes_no", "notify", "say", "print", "write"}
TELLS = {
    "SessionError",
    "ArgumentTypeError",
    "ConfigError",
    "LLMError",
    "ContextTooLong",
    "Retry",
    "TurnStopped",
    "TurnOutcome",
    "Result",
    "ToolError",
    "Said",  # a reason or an error that stays English for the model: its message must be in the catalog
}
LOGS = {"log", "logging", "logger"}  # receivers whose calls write the log file, never the screen
MODULES = sorted(str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py"))


def _words(node: ast.expr) -> bool:
    """Whether a literal holds words of its own (an f-string's placeholders are not its words)."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str) and any(c.isalpha() for c in node.value)
    if isinstance(node, ast.JoinedStr):
        return any(_words(part) for part in node.values if isinstance(part, ast.Constant))
    return False


def _shown(node: ast.Call) -> list[ast.expr]:
    """The arguments of a call that a person reads."""
    func = node.func
    if isinstance(func, ast.Attribute):
        receiver = func.value.id if isinstance(func.value, ast.Name) else ""
        name = "" if receiver in LOGS else func.attr
    else:
        name = func.id if isinstance(func, ast.Name) else ""
    return node.args[WORDS.get(name, slice(0, 1))] if name in SAYS or name in TELLS else []


def bare_messages(source: str) -> list[str]:
    calls = (node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Call))
    return [ast.unparse(arg)[:60] for call in calls for arg in _shown(call) if _words(arg)]


def test_the_check_sees_a_bare_message_and_passes_a_marked_one():
    assert bare_messages('ui.notice(f"Saved {name}.")\nraise LLMError("The provider failed.")') == [
        "f'Saved {name}.'",
        "'The provider failed.'",
    ]
    assert not bare_messages('ui.notice(_("Saved {name}.").format(name=n))\nlog.info("saved %s", n)\nsay(f"● {t}")')
    tool = 'Result(text, f"Read {n} lines")\nSaid("deletes tags")'
    assert bare_messages(tool) == ["f'Read {n} lines'", "'deletes tags'"]
    assert not bare_messages('Result(f"Read {n}", shown)\nSaid(N_("deletes tags"))\nToolError(f"{p} is missing.")')


@pytest.mark.parametrize("module", MODULES)
def test_what_a_module_says_to_a_person_is_marked_for_translation(module):
    bare = bare_messages((PACKAGE / module).read_text())
    assert not bare, f"{module}: wrap in _() and add to the catalog: {bare}"


def _marked_in_f_strings(source: str) -> list[str]:
    """Messages marked inside an f-string: pybabel does not see them on every Python, so they go untranslated."""
    strings = (node for node in ast.walk(ast.parse(source)) if isinstance(node, ast.JoinedStr))
    calls = (call for string in strings for call in ast.walk(string) if isinstance(call, ast.Call))
    return [ast.unparse(call)[:60] for call in calls if isinstance(call.func, ast.Name) and call.func.id in MARKS]


MARKS = {"_", "N_", "ngettext"}


@pytest.mark.parametrize("module", MODULES)
def test_no_message_is_marked_inside_an_f_string(module):
    marked = _marked_in_f_strings((PACKAGE / module).read_text())
    assert not marked, f"{module}: mark the message outside the f-string, or pybabel misses it: {marked}"
