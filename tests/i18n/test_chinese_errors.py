"""What goes wrong, said under a Chinese locale: provider errors, settings mistakes, session files. A person reads
Chinese; the provider's own words, the JSON keys and `stop` values, and what the model receives stay as they are."""

import json

import pytest

from tests.fake_llm import Status, text_reply
from tests.run.test_cli import narnat

CHINESE = "zh_CN.UTF-8"


def settings(project, text: str) -> None:
    (project / ".narnat").mkdir(exist_ok=True)
    (project / ".narnat" / "narnat.json").write_text(text)


@pytest.mark.slow
def test_a_provider_refusal_is_chinese_in_the_json_message_with_english_keys(project, fake_llm):
    fake_llm.add(Status(401, {"error": {"message": "invalid key"}}))
    done = narnat(project, "-p", "hi", "--output-format", "json", base_url=fake_llm.base_url, lang=CHINESE)
    result = json.loads(done.stdout)
    assert (done.returncode, result["stop"], result["is_error"]) == (1, "provider_error", True)
    assert (
        result["message"] == "服务商拒绝了 API key（401）：请检查 .narnat/narnat.json 中的 api_key 或 NARNAT_API_KEY。"
    )
    assert result["message"] in done.stderr


@pytest.mark.slow
def test_a_retry_is_announced_in_chinese_in_the_providers_words_and_the_request_sent_again_is_the_same(
    project, fake_llm
):
    fake_llm.add(Status(503, {"error": {"message": "overloaded"}}, {"retry-after": "0"}), text_reply("好了"))
    done = narnat(project, "-p", "hi", base_url=fake_llm.base_url, lang=CHINESE)
    assert done.returncode == 0, done.stderr
    assert "服务商返回状态码 503（overloaded）；0.0 秒后重试（第 2 次，共 4 次）。" in done.stderr
    first, again = fake_llm.requests
    assert again["messages"] == first["messages"]


@pytest.mark.slow
def test_a_failed_turn_leaves_nothing_of_its_error_for_the_model_in_any_locale(project, fake_llm):
    def run(lang: str) -> tuple[list[dict], str]:
        fake_llm.add(Status(403, {"error": {"message": "region blocked"}}), text_reply("ok"))
        done = narnat(project, stdin="one\ntwo\n", base_url=fake_llm.base_url, lang=lang)
        assert done.returncode == 0, done.stderr
        return fake_llm.requests[-1]["messages"], done.stderr

    (english, said_in_english), (chinese, said_in_chinese) = run("C.UTF-8"), run(CHINESE)
    assert "The provider refused access (403): region blocked" in said_in_english
    assert "服务商拒绝访问（403）：region blocked" in said_in_chinese
    assert chinese == english and [m["role"] for m in chinese] == ["system", "user", "user"]


@pytest.mark.slow
def test_a_model_switch_the_provider_refuses_is_undone_in_chinese_too(project, fake_llm):
    fake_llm.add(text_reply("first"), Status(404, {"error": {"message": "no such thing"}}), text_reply("back"))
    done = narnat(project, stdin="one\n/model nope\ntwo\nthree\n", base_url=fake_llm.base_url, lang=CHINESE)
    assert "未找到（404）：请检查 model「nope」" in done.stderr
    assert [r["model"] for r in fake_llm.requests] == ["deepseek-v4-pro", "nope", "deepseek-v4-pro"]


@pytest.mark.parametrize(
    ("content", "said"),
    [
        ("{oops", "narnat.json：第 1 行第 2 列的 JSON 无效：Expecting property name enclosed in double quotes。"),
        ('{"max_steps": 0}', "narnat.json：「max_steps」必须是正整数，而不是 0。"),
        (
            '{"language": "fr"}',
            '「language」必须是空字符串 ""（跟随区域设置）或以下之一："en", "zh-CN"，而不是 "fr"。',
        ),
    ],
)
def test_a_settings_mistake_at_start_is_said_in_chinese(project, content, said):
    settings(project, content)
    done = narnat(project, "-p", "hi", lang=CHINESE)
    assert done.returncode == 2 and said in done.stderr, done.stderr


def test_a_key_with_a_character_no_key_has_is_refused_in_chinese(project):
    done = narnat(project, "-p", "hi", key="sk-ab\u200bc", lang=CHINESE)
    assert done.returncode == 2
    assert "API key 中有 U+200B ZERO WIDTH SPACE（第 6 个字符，共 7 个），正常的 key 不会包含它" in done.stderr


@pytest.mark.slow
def test_the_language_setting_words_the_notices_of_the_settings_it_is_read_with(project, fake_llm):
    settings(project, '{"language": "zh-CN", "colour": "blue"}')
    fake_llm.add(text_reply("ok"))
    done = narnat(project, "-p", "hi", base_url=fake_llm.base_url)  # the C locale
    assert done.returncode == 0, done.stderr
    assert "narnat.json：已忽略未知的键「colour」（可用的键：api_key, base_url," in done.stderr


@pytest.mark.slow
def test_session_file_errors_in_chinese(project, fake_llm):
    folder = project / ".narnat" / "sessions"
    folder.mkdir(parents=True)
    (folder / "broken.json").write_text("{not json")
    done = narnat(
        project, stdin="/enter ../x\n/enter broken\n/enter nowhere\n", base_url=fake_llm.base_url, lang=CHINESE
    )
    assert "「../x」不是有效的会话名：只能用字母、数字、「-」、「_」和「.」。" in done.stderr
    assert "broken.json 已损坏，无法加载（JSONDecodeError）。" in done.stderr
    assert "没有名为「nowhere」的会话（用 /show 查看）。" in done.stderr
    resumed = narnat(project, "--resume", "broken", base_url=fake_llm.base_url, lang=CHINESE)
    assert resumed.returncode == 2 and "无法恢复会话：" in resumed.stderr and "broken.json 已损坏" in resumed.stderr
