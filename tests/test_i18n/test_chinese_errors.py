"""What goes wrong, said under a Chinese locale: a person reads Chinese; the provider's own words, the JSON keys
and `stop` values, and what the model receives stay as they are."""

import json

from tests.fake_llm import Status, text_reply
from tests.test_cli import narnat

CHINESE = "zh_CN.UTF-8"


def test_a_provider_refusal_is_chinese_in_the_json_message_with_english_keys(project, fake_llm):
    fake_llm.add(Status(401, {"error": {"message": "invalid key"}}))
    done = narnat(project, "-p", "hi", "--output-format", "json", base_url=fake_llm.base_url, lang=CHINESE)
    result = json.loads(done.stdout)
    assert (done.returncode, result["stop"], result["is_error"]) == (1, "provider_error", True)
    assert (
        result["message"] == "服务商拒绝了 API key (401)：请检查 .narnat/narnat.json 中的 api_key 或 NARNAT_API_KEY。"
    )
    assert result["message"] in done.stderr


def test_a_retry_is_announced_in_chinese_in_the_providers_words_and_the_request_sent_again_is_the_same(
    project, fake_llm
):
    fake_llm.add(Status(503, {"error": {"message": "overloaded"}}, {"retry-after": "0"}), text_reply("好了"))
    done = narnat(project, "-p", "hi", base_url=fake_llm.base_url, lang=CHINESE)
    assert done.returncode == 0, done.stderr
    assert "服务商返回状态码 503（overloaded）；0.0 秒后重试（第 2 次，共 4 次）。" in done.stderr
    first, again = fake_llm.requests
    assert again["messages"] == first["messages"]


def test_a_failed_turn_leaves_nothing_of_its_error_for_the_model_in_any_locale(project, fake_llm):
    def run(lang: str) -> tuple[list[dict], str]:
        fake_llm.add(Status(403, {"error": {"message": "region blocked"}}), text_reply("ok"))
        done = narnat(project, stdin="one\ntwo\n", base_url=fake_llm.base_url, lang=lang)
        assert done.returncode == 0, done.stderr
        return fake_llm.requests[-1]["messages"], done.stderr

    (english, said_in_english), (chinese, said_in_chinese) = run("C.UTF-8"), run(CHINESE)
    assert "The provider refused access (403): region blocked" in said_in_english
    assert "服务商拒绝访问 (403)：region blocked" in said_in_chinese
    assert chinese == english and [m["role"] for m in chinese] == ["system", "user", "user"]


def test_a_model_switch_the_provider_refuses_is_undone_in_chinese_too(project, fake_llm):
    fake_llm.add(text_reply("first"), Status(404, {"error": {"message": "no such thing"}}), text_reply("back"))
    done = narnat(project, stdin="one\n/model nope\ntwo\nthree\n", base_url=fake_llm.base_url, lang=CHINESE)
    assert "未找到 (404)：请检查 model 'nope'" in done.stderr
    assert [r["model"] for r in fake_llm.requests] == ["deepseek-v4-pro", "nope", "deepseek-v4-pro"]
