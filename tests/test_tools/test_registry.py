"""Every call is checked against its schema once, before the UI or the tool sees it."""

from narnat_agent.tools import registry


def test_schema_defaults_are_filled_in_before_the_tool_runs():
    call = registry.prepare("WebSearch", {"query": "rust"})
    assert call.args == {"query": "rust", "num": 5} and call.header == "WebSearch(rust)" and not call.error


def test_bad_arguments_never_reach_the_header_or_the_tool(workspace):
    call = registry.prepare("Read", {"file_path": ["a", "b"]})
    assert call.header == "Read(…)" and call.tool is None
    result = call.run(workspace)
    assert result.is_error and "'file_path' must be a string" in result.text and "call Read again" in result.text


def test_arguments_that_were_not_json_and_unknown_tools(workspace):
    call = registry.prepare("Bash", None, "the arguments were not valid JSON (Expecting value): {cmd")
    assert call.header == "Bash(…)" and "not valid JSON" in call.run(workspace).text
    unknown = registry.prepare("Delete", {"path": "x"}).run(workspace)
    assert unknown.is_error and "no tool named 'Delete'" in unknown.text and "TodoWrite" in unknown.text
