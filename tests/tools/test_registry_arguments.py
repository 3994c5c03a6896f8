"""What the registry makes of a call's arguments before any tool sees them (JSON text, numbers, nulls, defaults,
nested objects), what it refuses in plan mode, and how a failing tool's error reaches the model and the person."""

import sys

import pytest

from narnat_agent.i18n import Said
from narnat_agent.tools import bash, registry
from narnat_agent.tools.base import Output, Result, ToolError
from narnat_agent.tools.tool import Tool
from narnat_agent.tools.workspace import Workspace

EDIT = {"file_path": "a.txt", "old_string": "x", "new_string": "y"}
KEY = "sk-canary-5f2c9e1b7d"
TODO = {"content": "Run tests", "activeForm": "Running tests", "status": "pending"}


def checked(name: str, args: dict) -> dict | str:
    """The arguments as the tool would get them, or the error the model reads."""
    call = registry.prepare(name, args)
    return call.args if call.tool is not None else call.error


@pytest.mark.parametrize(
    ("name", "args", "expected"),
    [
        ("Read", {"file_path": "a", "offset": "3"}, {"file_path": "a", "offset": 3}),
        ("Read", {"file_path": "a", "offset": 3.0}, {"file_path": "a", "offset": 3}),
        ("Read", {"file_path": "a", "offset": "1.0"}, {"file_path": "a", "offset": 1}),
        ("Read", {"file_path": "a", "offset": None, "limit": None}, {"file_path": "a", "offset": 1}),
        ("Edit", {**EDIT, "replace_all": " TRUE "}, {**EDIT, "replace_all": True}),
        ("Edit", {**EDIT, "replace_all": "False"}, {**EDIT, "replace_all": False}),
        ("Write", {"file_path": "a", "content": '{"a": 1}'}, {"file_path": "a", "content": '{"a": 1}'}),
        ("Write", {"file_path": "a", "content": "true"}, {"file_path": "a", "content": "true"}),
        ("WebSearch", {"query": "7", "num": "7"}, {"query": "7", "num": 7}),
        ("WebSearch", {"query": "q", "num": 2.5e0 * 2}, {"query": "q", "num": 5}),
        ("WebSearch", {"query": "q", "lr": "lang_en"}, {"query": "q", "lr": "lang_en", "num": 5}),
        ("TodoWrite", {"todos": f"[{TODO}]".replace("'", '"')}, {"todos": [TODO]}),
        ("TodoWrite", {"todos": []}, {"todos": []}),
    ],
)
def test_arguments_are_read_as_their_schema_says(name, args, expected):
    assert checked(name, args) == expected


@pytest.mark.parametrize(
    ("name", "args", "error"),
    [
        ("Read", {"file_path": "a", "offset": 3.5}, "'offset' must be an integer, not 3.5"),
        ("Read", {"file_path": "a", "offset": True}, "'offset' must be an integer, not true"),
        ("Read", {"file_path": "a", "limit": "true"}, "'limit' must be an integer, not true"),
        ("Read", {"file_path": None}, "missing required parameter 'file_path'"),
        ("Read", {}, "missing required parameter 'file_path'"),
        ("Read", {"file_path": "a", "x": 1}, "unknown parameter 'x' (parameters: file_path, offset, limit)"),
        ("Edit", {**EDIT, "replace_all": "yes"}, "'replace_all' must be a boolean, not \"yes\""),
        ("Edit", {**EDIT, "replace_all": 1}, "'replace_all' must be a boolean, not 1"),
        ("Write", {"file_path": "a", "content": 5}, "'content' must be a string, not 5"),
        ("Grep", {"pattern": "x", "-A": "abc"}, "'-A' must be an integer, not \"abc\""),
        ("Grep", {"pattern": "x", "head_limit": "[1]"}, "'head_limit' must be an integer, not [1]"),
        ("Grep", {"pattern": "x", "head_limit": 2.5}, "'head_limit' must be an integer, not 2.5"),
        ("WebSearch", {"query": "q", "num": {}}, "'num' must be an integer, not {}"),
        (
            "Grep",
            {"pattern": "x", "output_mode": "lines"},
            "'output_mode' must be one of files_with_matches, content, count, not \"lines\"",
        ),
        ("WebSearch", {"query": "q", "lr": "en"}, "'lr' must be one of lang_en, lang_zh-CN, not \"en\""),
        ("TodoWrite", {"todos": {}}, "'todos' must be an array, not {}"),
        ("TodoWrite", {"todos": "{}"}, "'todos' must be an array, not {}"),
        ("TodoWrite", {"todos": [5]}, "'todos[0]' must be an object, not 5"),
        ("TodoWrite", {"todos": [TODO, 5]}, "'todos[1]' must be an object, not 5"),
        ("TodoWrite", {"todos": [{**TODO, "status": "done"}]}, "'todos[0].status' must be one of pending, "),
        ("TodoWrite", {"todos": [{**TODO, "status": None}]}, "missing required parameter 'todos[0].status'"),
        ("TodoWrite", {"todos": [{**TODO, "x": 1}]}, "unknown parameter 'todos[0].x' (parameters: content, "),
        ("TodoWrite", {"todos": [{**TODO, "content": 3}]}, "'todos[0].content' must be a string, not 3"),
    ],
)
def test_arguments_that_break_the_schema_are_refused_with_what_to_fix(name, args, error):
    said = checked(name, args)
    assert isinstance(said, str) and said.startswith(error), said
    assert said.endswith(f". Fix the arguments and call {name} again.")


def test_an_integer_sent_as_text_reaches_the_tool_as_an_integer(project):
    (project / "a.txt").write_text("one\ntwo\nthree\n")
    result = registry.execute("Read", {"file_path": "a.txt", "offset": "2", "limit": "1"}, workspace_in(project))
    assert not result.is_error and "2\ttwo" in result.text and "three" not in result.text


def workspace_in(project, planning: bool = False) -> Workspace:
    workspace = Workspace(project, project / ".narnat", confirm=lambda command, reason: False)
    workspace.planning = planning
    return workspace


def test_plan_mode_refuses_a_change_to_the_files_named_and_runs_what_only_reads(project):
    (project / "a.txt").write_text("alpha\n")
    planning = workspace_in(project, planning=True)
    refused = registry.execute("Write", {"file_path": "a.txt", "content": "beta\n"}, planning)
    assert refused.is_error and (project / "a.txt").read_text() == "alpha\n"
    assert refused.text == (
        "Error: plan mode: this would change a.txt, so Write was not run. While planning, investigate (Read, Glob, "
        "Grep, commands that read) and end with the plan; the user's /go carries it out."
    )
    assert refused.summary == "plan mode: this would change a.txt"
    read = registry.execute("Read", {"file_path": "a.txt"}, planning)
    assert not read.is_error and "alpha" in read.text
    assert not registry.execute("TodoWrite", {"todos": [TODO]}, planning).is_error  # it names no file
    written = registry.execute("Write", {"file_path": "b.txt", "content": "beta\n"}, workspace_in(project))
    assert not written.is_error and (project / "b.txt").read_text() == "beta\n"


def tool_that(run) -> Tool:
    return Tool("Probe", "", {"type": "object", "properties": {}}, run, lambda args: "")


def test_a_tool_error_goes_to_the_model_whole_and_to_the_person_as_its_first_line(workspace):
    def fails(args, ws):
        raise ToolError(
            "no such file: a.txt\nDid you mean b.txt?", Said("not found: {name}\nsecond\nthird", name="a.txt")
        )

    result = registry.Call("Probe", "Probe()", tool_that(fails)).run(workspace)
    assert result.is_error and result.text == "Error: no such file: a.txt\nDid you mean b.txt?"
    assert result.summary == "not found: a.txt"


def test_a_tool_that_crashes_ends_its_call_not_the_conversation(workspace):
    def crashes(args, ws):
        raise ValueError("bad offset\nin\nthree lines")

    result = registry.Call("Probe", "Probe()", tool_that(crashes)).run(workspace)
    assert (
        result.is_error and result.text == "Error: Probe failed unexpectedly: ValueError: bad offset\nin\nthree lines"
    )
    assert result.summary == "Probe failed unexpectedly: ValueError: bad offset"


class Broken(Exception):
    """A library's own error, of no kind the tools expect."""


@pytest.mark.parametrize(
    "error", [AttributeError("'NoneType' object has no attribute 'seek'"), RuntimeError("dict changed"), Broken("eof")]
)
def test_a_crash_of_any_kind_ends_its_call_not_the_conversation(workspace, error):
    def crashes(args, ws):
        raise error

    result = registry.Call("Probe", "Probe()", tool_that(crashes)).run(workspace)
    assert result.is_error and result.text == f"Error: Probe failed unexpectedly: {type(error).__name__}: {error}"


@pytest.mark.parametrize("tool", ["Read", "Write", "Edit"])
def test_a_name_too_long_for_the_file_system_is_said_in_its_words_not_as_a_crash(workspace, tool):
    name = "x" * 300 + ".txt"  # each part of a path holds at most 255 bytes on the usual file systems
    args = {"file_path": name, "content": "a\n", "old_string": "a", "new_string": "b"}
    args = {k: v for k, v in args.items() if k in registry.TOOLS[tool].parameters["properties"]}
    result = registry.execute(tool, args, workspace)
    assert result.is_error and "File name too long" in result.text and "unexpectedly" not in result.text
    assert result.text.startswith(f"Error: {tool} could not use {name[:40]}")
    assert result.summary.startswith(f"{tool} could not use ") and "File name too long" in result.summary


def test_a_tool_that_answers_is_given_its_checked_arguments(workspace):
    seen = []

    def answers(args, ws):
        seen.append(args)
        return Result("fine", "done")

    result = registry.Call("Probe", "Probe()", tool_that(answers), {"n": 1}).run(workspace)
    assert result == Result("fine", "done") and seen == [{"n": 1}]


def test_a_named_command_runs_as_bash_and_its_output_is_masked(project):
    workspace = Workspace(project, project / ".narnat", confirm=lambda command, reason: True, secret=KEY)
    command = f"\"{sys.executable}\" -c \"print('{KEY[:9]}' + '{KEY[9:]}'); raise SystemExit(3)\""
    header, result = registry.run_named(command, workspace)
    assert header == f"Bash({command})"
    assert isinstance(result.detail, Output) and result.detail.exit_code == 3
    assert KEY not in result.text and "[API key]" in result.text


def test_a_named_command_that_holds_the_key_shows_its_marker_in_the_header(project):
    workspace = Workspace(project, project / ".narnat", confirm=lambda command, reason: True, secret=KEY)
    header, __ = registry.run_named(f"echo {KEY}", workspace)
    assert header == "Bash(echo [API key])"


def test_the_tools_are_offered_in_their_order_with_bash_naming_its_shell():
    offered = registry.schemas()
    names = [schema["function"]["name"] for schema in offered]
    assert names == ["Read", "Write", "Edit", "Glob", "Grep", "Bash", "WebSearch", "WebFetch", "TodoWrite"]
    told = bash.for_shell(bash.chosen("").shell).schema
    assert offered[5] == told and offered[0] == registry.TOOLS["Read"].schema
    assert registry.schemas() is offered  # built once: the request's prefix stays byte-stable
