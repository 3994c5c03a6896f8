"""The tool contract in process: the schema a tool gives the model, what a call may change, and every text a result
carries passed through the cleaning (the key masked) before it reaches the model or the person."""

from narnat_agent.i18n import Said
from narnat_agent.tools.base import (
    Changes,
    Diff,
    Interrupted,
    Output,
    Result,
    Todos,
    ToolError,
    changes_file_path,
    nobody_to_ask,
)
from narnat_agent.tools.tool import Tool


def masked(text: str) -> str:
    return text.replace("sk-KEY", "[key]")


def test_a_tools_schema_is_the_function_the_model_is_offered() -> None:
    # every sentence of the description and all of each parameter's schema reach the model: its rules live there
    parameters = {
        "type": "object",
        "properties": {
            "path": {"type": "string", "description": "Relative to the project root"},
            "mode": {"type": "string", "enum": ["quick", "deep"], "default": "quick"},
            "marks": {"type": "array", "items": {"type": "object", "properties": {"line": {"type": "integer"}}}},
        },
        "required": ["path"],
    }
    said = "Looks at a path. Never at a folder (use Glob). At most 100 files."
    tool = Tool("Look", said, parameters, run=lambda args, ws: Result("", ""), target=lambda a: "")
    assert tool.schema == {
        "type": "function",
        "function": {"name": "Look", "description": said, "parameters": parameters},
    }
    assert tool.changes is None


def test_a_file_tool_changes_the_file_its_file_path_names_and_nothing_else() -> None:
    assert changes_file_path({"file_path": "src/app.py", "content": "x"}) == Changes(files=("src/app.py",))
    assert changes_file_path({"file_path": "  "}) == Changes()
    assert changes_file_path({"file_path": 3}) == Changes()
    assert changes_file_path({}) == Changes()
    assert Changes().anything is False
    assert Changes().files == ()


def test_a_tool_error_shows_its_own_text_unless_told_another() -> None:
    error = ToolError("File not found: a.py")
    assert str(error) == "File not found: a.py"
    assert error.shown == "File not found: a.py"
    told = ToolError("long text for the model", "short line")
    assert str(told) == "long text for the model"
    assert told.shown == "short line"
    assert ToolError("text", "").shown == ""


def test_a_headless_run_names_why_the_command_needed_a_yes_and_the_fix() -> None:
    error = nobody_to_ask("it deletes files")
    assert str(error) == (
        "not run — it needs the user's confirmation (it deletes files), and this headless run cannot ask "
        "(the user can allow it with --yes). Do not do it another way; say in your answer what was not done."
    )
    assert isinstance(error.shown, Said)
    assert error.shown.values == {"reason": "it deletes files"}


def test_every_text_of_a_result_is_cleaned_and_the_rest_kept() -> None:
    result = Result(
        "key sk-KEY", "ran sk-KEY", is_error=True, detail=Diff("-sk-KEY\n+x", Said("{error}", error="sk-KEY"))
    )
    clean = result.cleaned(masked)
    assert clean.text == "key [key]"
    assert clean.summary == "ran [key]"
    assert clean.is_error is True
    assert clean.detail == Diff("-[key]\n+x", "[key]")
    assert isinstance(clean.detail, Diff) and isinstance(clean.detail.syntax, Said)
    assert Result("sk-KEY", "s").cleaned(masked).detail is None
    assert Result("a", "b").is_error is False
    bare = Result("a", "b")
    assert bare.detail is None and bare.verification is None and bare.picture is None


def test_a_commands_output_and_a_todo_list_are_cleaned_line_by_line() -> None:
    output = Output(("one sk-KEY", "two"), lines=40, shown_lines=20, exit_code=3)
    assert output.cleaned(masked) == Output(("one [key]", "two"), lines=40, shown_lines=20, exit_code=3)
    assert Output((), 0, 0).exit_code is None
    todos = Todos(({"content": "rotate sk-KEY", "activeForm": "Rotating sk-KEY", "status": "pending", "id": 2},))
    cleaned = Todos(({"content": "rotate [key]", "activeForm": "Rotating [key]", "status": "pending", "id": 2},))
    assert todos.cleaned(masked) == cleaned
    assert Diff("x").syntax == ""


def test_a_stopped_tool_carries_what_it_had_done() -> None:
    result = Result("stopped after 2 files", "stopped")
    stop = Interrupted(result)
    assert stop.result is result
    assert str(stop) == "stopped"
    assert isinstance(stop, KeyboardInterrupt)
