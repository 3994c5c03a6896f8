"""A slash command is one decorated function: its usage and help line beside it, and /help, Tab's completions and the
dispatch all find it there."""

import pytest

from narnat_agent.commands import REGISTRY, command
from narnat_agent.commands.dispatch import descriptions, dispatch, listed


@pytest.fixture
def shout():
    said = []

    @command("/shout <words>", "say the words louder")
    def shout(agent, arg: str) -> None:
        said.append(arg.upper())
        agent.ui.notice(arg.upper())

    yield said
    del REGISTRY["shout"]


def test_each_command_is_registered_under_the_first_word_of_its_usage():
    assert all(slash.usage.split()[0] == f"/{name}" for name, slash in REGISTRY.items())
    assert [name for name, __ in listed()][:5] == ["save", "show", "enter", "delete", "clear"]
    assert [name for name, __ in listed()][-3:] == ["jobs", "help", "exit"]


def test_a_new_decorated_function_is_dispatched_completed_and_listed_by_help(shout, harness):
    h = harness()
    assert dispatch(h.agent, "/shout hello there") is True
    assert shout == ["HELLO THERE"] and "! HELLO THERE" in h.err.getvalue()
    assert descriptions()["shout"] == "say the words louder"
    dispatch(h.agent, "/help")
    assert "/shout <words>" in h.out.getvalue() and "say the words louder" in h.out.getvalue()


@pytest.mark.parametrize("language", ["en", "zh-CN"])
def test_help_fits_the_terminal_its_descriptions_in_one_column_with_a_hanging_indent(harness, monkeypatch, language):
    from narnat_agent import i18n
    from narnat_agent.ui import cells

    monkeypatch.setenv("COLUMNS", "72")
    h = harness()
    try:
        i18n.use(language)
        dispatch(h.agent, "/help")
    finally:
        i18n.use("en")
    lines = h.out.getvalue().splitlines()
    assert any(
        line.startswith("  /compact [" + ("要保留的内容" if language == "zh-CN" else "what to keep") + "]")
        for line in lines
    )
    end = next(i for i, line in enumerate(lines[1:], 1) if not line.startswith(" "))
    commands = lines[1:end]  # the Commands section, without its title
    assert all(cells.width(line) <= 72 for line in commands), [line for line in commands if cells.width(line) > 72]
    continued = [line for line in commands if not line.startswith("  /")]
    indents = {len(line) - len(line.lstrip()) for line in continued}
    assert continued and len(indents) == 1, continued  # long lines wrap under their own description
    column = indents.pop()
    for row in (line for line in commands if line.startswith("  /")):  # /compact [what to keep] too
        at = next(i for i in range(len(row)) if cells.width(row[:i]) == column)
        assert row[at - 1] == " " and row[at] != " ", (row, column)


def test_help_and_tabs_completions_say_each_commands_line_in_the_interfaces_language(harness):
    from narnat_agent import i18n

    h = harness()
    try:
        i18n.use("zh-CN")
        dispatch(h.agent, "/help")
        completions = descriptions()
    finally:
        i18n.use("en")
    assert completions["exit"] == "保存并退出（Ctrl-D 也一样）"
    exit_row = next(line for line in h.out.getvalue().splitlines() if line.startswith("  /exit "))
    assert exit_row.split(maxsplit=1)[1] == "保存并退出（Ctrl-D 也一样）"


def test_context_speaks_the_interfaces_language_in_its_rows(harness, fake_llm):
    from narnat_agent import i18n
    from tests.fake_llm import text_reply

    h = harness()
    fake_llm.add(text_reply("hello"))
    h.agent.ask("hi there")
    try:
        i18n.use("zh-CN")
        dispatch(h.agent, "/context")
    finally:
        i18n.use("en")
    shown = h.out.getvalue()
    assert "系统提示词" in shown and "工具定义" in shown and "第 1 个提问：hi there" in shown, shown
    assert "system prompt" not in shown and "question 1" not in shown
