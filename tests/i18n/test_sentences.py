"""Sentences said to a person follow the interface's language (stops, turn-count warnings, compression); the same
sentence for the model stays English."""

import pytest

from narnat_agent import i18n
from narnat_agent.core.turn import Stop, TurnStopped
from narnat_agent.i18n import _, in_english, sentences
from narnat_agent.prompts.texts import COMPRESSION_PROMPT
from tests.fake_llm import text_reply


@pytest.fixture
def chinese():
    i18n.use("zh-CN")
    yield
    i18n.use("en")


def test_sentences_follow_each_other_with_a_space_in_english_and_without_one_in_chinese():
    assert sentences("Stopped.", "", "Say 'continue' to go on.") == "Stopped. Say 'continue' to go on."
    assert sentences("已停止。", "回复“继续”即可。") == "已停止。回复“继续”即可。"


def test_a_stop_is_said_in_the_interface_language_and_told_to_the_model_in_english(chinese):
    stop = TurnStopped(Stop.CUT_OFF, lambda: _("The provider stopped the answer ({finish}).").format(finish="x"))
    assert str(stop) == "服务商中止了回答（x）。"
    assert stop.for_model == "The provider stopped the answer (x)."
    assert in_english(lambda: _("Nothing rewound.")) == "Nothing rewound."
    assert _("Nothing rewound.") == "没有回退任何内容。"  # in English for that one sentence only


def test_compression_and_the_turn_count_warning_speak_chinese_and_the_summary_request_does_not(
    chinese, harness, fake_llm
):
    h = harness(compress_turns=2, warn_turns=[1])
    fake_llm.add(text_reply("answer 0"), text_reply("answer 1"), text_reply("   "))
    h.agent.ask("question 0")
    assert "⚠ 当前对话已达到 1 轮。到 2 轮时会自动压缩。建议用 /clear 开始新对话。" in h.err.getvalue()
    h.agent.ask("question 1")
    h.agent.ask("question 2")  # compresses first; the summary comes back empty
    assert "… 正在压缩..." in h.err.getvalue() and "压缩失败：没有拿到完整的总结，对话保持不变。" in h.err.getvalue()
    fake_llm.add(text_reply("## Summary"), text_reply("fresh"))
    h.agent.ask("question 2")
    assert "压缩完成：原对话已保存为「compressed-" in h.err.getvalue()
    assert fake_llm.requests[-2]["messages"][-1] == {"role": "user", "content": COMPRESSION_PROMPT}


def test_chinese_typography_no_space_inside_a_phrase_or_before_a_full_width_parenthesis(chinese, workspace, project):
    from narnat_agent.cli import _parser
    from narnat_agent.i18n import spaced
    from narnat_agent.tools import grep

    (project / "a.py").write_text("x = 1\nx = 2\n")
    summary = grep.run({**grep.TOOL.parameters.get("defaults", {}), "pattern": "x", "output_mode": "content",
                        "-n": True, "head_limit": 250, "offset": 0}, workspace).summary  # fmt: skip
    assert summary == "在 1 个文件中找到 2 行"
    assert "\n选项：\n" in _parser().format_help() and "用法：" in _parser().format_help()
    assert spaced("（模型看到其中 3 行）") == "（模型看到其中 3 行）" and spaced("(3 shown)") == " (3 shown)"
    assert spaced("(3 shown)", "  ") == "  (3 shown)"


def test_tool_lines_speak_chinese_and_stay_english_for_the_log_and_checkpoints(chinese, harness, fake_llm, project):
    from narnat_agent.tools import registry
    from tests.fake_llm import tool_reply

    (project / "tests").mkdir()
    todos = [{"content": "a", "activeForm": "a", "status": "in_progress"},
             {"content": "b", "activeForm": "b", "status": "pending"}]  # fmt: skip
    fake_llm.add(tool_reply(("TodoWrite", {"todos": todos}),
                            ("Grep", {"pattern": "x", "path": "tests", "glob": "*.py"})), text_reply("ok"))  # fmt: skip
    h = harness()
    h.agent.ask("plan it")
    err = h.err.getvalue()
    assert "● TodoWrite(2 个任务)" in err and '● Grep("x"，位于 tests，glob *.py)' in err
    grep = registry.prepare("Grep", {"pattern": "x", "path": "tests", "glob": "*.py"}).header
    assert str(grep) == 'Grep("x" in tests, glob *.py)'  # what the log, the JSON and the checkpoints keep


def test_context_says_its_rows_in_chinese(chinese, harness, fake_llm, project):
    from narnat_agent.commands.dispatch import dispatch
    from tests.fake_llm import tool_reply

    (project / "notes.txt").write_text("remember the milk\n")
    fake_llm.add(tool_reply(("Read", {"file_path": "notes.txt"})), text_reply("It says milk."))
    h = harness()
    h.agent.ask("what do my notes say?")
    dispatch(h.agent, "/context")
    shown = h.out.getvalue().split("上下文", 1)[-1]
    for row in ("系统提示词", "工具定义", "提问", "回答", "工具结果：Read", "占用最多的条目", "Read(notes.txt) 的结果"):
        assert row in shown, (row, shown)
    assert not any(word in shown for word in ("system prompt", "tool schemas", "questions", "Largest"))
