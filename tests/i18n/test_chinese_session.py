"""A session under a Chinese locale, in a real pseudo-terminal: what a person reads is Chinese, what the model
receives is the same as under any other locale."""

import json
import subprocess
import sys

import pexpect
import pytest

from tests.fake_llm import text_reply, tool_reply
from tests.launch import NARNAT, scrubbed_environment

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")


def _env(project, fake_llm, lang: str) -> dict[str, str]:
    env = scrubbed_environment()
    env.update(HOME=str(project.parent / "home"), NARNAT_API_KEY="k", NARNAT_BASE_URL=fake_llm.base_url, LANG=lang,
               TERM="xterm-256color", PROMPT_TOOLKIT_NO_CPR="1")  # fmt: skip
    return env


@pytest.mark.slow
def test_a_session_under_a_chinese_locale_speaks_chinese_and_takes_a_one_key_answer(project, fake_llm):
    (project / "junk.txt").write_text("x")
    fake_llm.add(tool_reply(("Read", {"file_path": "junk.txt"})), tool_reply(("Bash", {"command": "rm junk.txt"})),
                 text_reply("删好了。"))  # fmt: skip
    child = pexpect.spawn(NARNAT[0], NARNAT[1:], cwd=str(project), dimensions=(30, 100),
                          env=_env(project, fake_llm, "zh_CN.UTF-8"), encoding="utf-8", timeout=20)  # fmt: skip
    try:
        child.expect("新对话 · 输入 /help")
        child.expect("❯")
        child.send("把 junk.txt 删掉\r")
        child.expect("读取 1 行")  # the tool line's summary
        child.expect("rm 会删除文件：junk.txt；/undo 可以恢复它")  # its reason
        child.expect(r"是否执行？\[y/n\]")
        child.send("是")  # what an input method sends, in one burst
        child.expect(r"是否执行？\[y/n\] 是")
        child.expect("退出码 0 · 0 行")
        child.expect("删好了")
        child.expect("上下文 ")  # the footer
        child.expect("❯")
        child.send("/save demo\r")
        child.expect("已保存为「demo」")
        child.expect("❯")
        child.send("/show\r")
        child.expect("名称")
        child.expect("第一个问题")
        child.expect("demo")
        child.expect("❯")
        child.send("/help\r")
        child.expect(r"/save \[名称\] +保存当前对话")
        child.expect("撤销上一轮")
        child.expect("❯")
        child.send("/rewind\r")
        child.expect(r"#  时间   文件   行数         问题")
        child.expect(r"把 junk\.txt 删掉")
        child.expect("回退到哪一轮之前")
        child.send("\r")
        child.expect("没有回退任何内容")
        child.expect("❯")
        child.sendeof()
        child.expect("对话已保存为")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert not (project / "junk.txt").exists()
    assert fake_llm.requests[0]["messages"][-1]["content"] == "把 junk.txt 删掉"


@pytest.mark.slow
def test_the_model_receives_the_same_whatever_the_locale(project, fake_llm):
    def run(lang: str) -> dict:
        fake_llm.add(text_reply("ok"))
        done = subprocess.run(
            [*NARNAT, "-p", "hi"], cwd=project, capture_output=True, env=_env(project, fake_llm, lang), timeout=60
        )
        assert done.returncode == 0, done.stderr
        return fake_llm.requests[-1]

    english, chinese = run("C.UTF-8"), run("zh_CN.UTF-8")
    assert chinese["messages"] == english["messages"] and chinese["tools"] == english["tools"]


STOPS = {  # a turn that stops early, with what its sentence says in English and in Chinese
    "repeated_calls": ([tool_reply(("Glob", {"pattern": "*"})) for _ in range(4)], [], "despite warnings", "连续调用"),
    "step_limit": ([tool_reply(("Glob", {"pattern": "*"}))], ["--max-steps", "1"], "tool step", "已停止"),
}


@pytest.mark.slow
@pytest.mark.parametrize("stop", STOPS)
def test_a_stopped_turn_tells_the_model_the_same_and_the_person_in_their_language(project, fake_llm, stop):
    replies, flags, english_words, chinese_words = STOPS[stop]

    def run(lang: str) -> tuple[dict, dict]:
        fake_llm.add(*replies)
        env = _env(project, fake_llm, lang)
        done = subprocess.run([*NARNAT, "-p", "hi", "--output-format", "json", *flags], cwd=project,
                              capture_output=True, env=env, timeout=60)  # fmt: skip
        result = json.loads(done.stdout)
        fake_llm.add(text_reply("ok"))  # the next question carries what the stopped turn left in the conversation
        subprocess.run([*NARNAT, "--resume", result["session"], "-p", "go on"], cwd=project, capture_output=True,
                       env=env, timeout=60, check=True)  # fmt: skip
        return result, fake_llm.requests[-1]

    (english_result, english), (chinese_result, chinese) = run("C.UTF-8"), run("zh_CN.UTF-8")
    assert chinese["messages"] == english["messages"] and chinese["tools"] == english["tools"]
    assert english_words in english_result["message"] and chinese_words in chinese_result["message"]
    assert chinese_result["stop"] == english_result["stop"] == stop and chinese_result["exit_code"] == 3
    assert set(chinese_result) == set(english_result)


@pytest.mark.slow
def test_tool_lines_errors_and_a_refusal_speak_chinese_while_the_model_receives_the_same(project, fake_llm):
    def run(lang: str) -> tuple[list[dict], str]:
        (project / "junk.txt").write_text("x\n")
        start = len(fake_llm.requests)
        fake_llm.add(tool_reply(("Read", {"file_path": "missing.txt"})),
                     tool_reply(("Edit", {"file_path": "junk.txt", "old_string": "x", "new_string": "y"})),
                     tool_reply(("Bash", {"command": "rm junk.txt"})), text_reply("ok"))  # fmt: skip
        done = subprocess.run(NARNAT, cwd=project, input="tidy up\nn\n", capture_output=True, text=True,
                              env=_env(project, fake_llm, lang), timeout=60)  # fmt: skip
        assert done.returncode == 0, done.stderr
        return [request["messages"] for request in fake_llm.requests[start:]], done.stdout + done.stderr

    english, in_english = run("C.UTF-8")
    chinese, in_chinese = run("zh_CN.UTF-8")
    assert chinese == english and len(english) == 4
    assert "the user declined to run it (rm deletes files: junk.txt)" in english[-1][-1]["content"]
    assert "⎿ Error: missing.txt does not exist" in in_english and "? rm deletes files: junk.txt" in in_english
    assert "⎿ 错误：missing.txt 不存在" in in_chinese
    assert "⎿ 错误：本次会话还没有读取过 junk.txt" in in_chinese
    assert "? rm 会删除文件：junk.txt" in in_chinese
    assert "⎿ 错误：用户拒绝执行（rm 会删除文件：junk.txt）。不要换别的方式删除，先问问用户想怎么做。" in in_chinese


@pytest.mark.slow
def test_the_log_stays_english_under_a_chinese_locale(project, fake_llm):
    import re

    from tests.fake_llm import Status

    busy = Status(503, {"error": {"message": "overloaded"}}, {"retry-after-ms": "10"})
    fake_llm.add(busy, tool_reply(("Read", {"file_path": "missing.txt"})), tool_reply(("Glob", {"pattern": "*.md"})),
                 text_reply("ok"))  # fmt: skip
    done = subprocess.run([*NARNAT, "-p", "look"], cwd=project, capture_output=True, text=True,
                          env=_env(project, fake_llm, "zh_CN.UTF-8"), timeout=60)  # fmt: skip
    assert done.returncode == 0 and "重试" in done.stderr, done.stderr  # the person reads Chinese
    [log] = (project / ".narnat" / "logs").glob("*.log")
    text = log.read_text()
    assert "retry 1: The provider answered status 503" in text and "missing.txt does not exist" in text
    assert not re.search(r"[\u4e00-\u9fff]", text), [
        line for line in text.splitlines() if re.search(r"[\u4e00-\u9fff]", line)
    ]
