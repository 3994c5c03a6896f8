"""The first start: local servers that answer are offered with their models, and the answers are checked by one
cheap request before they are saved."""

import io
import json
from urllib.parse import urlsplit

from narnat_agent.cli import first_run_setup
from narnat_agent.ui.plain import PlainUI
from tests.fake_llm import Status, text_reply

MODELS = {"object": "list", "data": [{"id": "qwen3:8b", "object": "model"}, {"id": "llama3.2", "object": "model"}]}


def setup(project, fake, answers: list[str]) -> tuple[dict, str]:
    """Runs the first start against the fake as an Ollama server; returns what was saved and what was said."""
    fake.pages = {"/v1/models": MODELS}
    err = io.StringIO()
    ui = PlainUI(io.StringIO(), err, io.StringIO("".join(f"{a}\n" for a in answers)))
    first_run_setup(ui, project, project.parent / "home", servers=(("Ollama", urlsplit(fake.base_url).port),))
    saved = json.loads((project.parent / "home" / ".narnat" / "narnat.json").read_text())
    return saved, err.getvalue()


def test_a_local_server_is_offered_with_its_models_and_checked_before_saving(project, fake_llm):
    fake_llm.add(text_reply("OK"))
    saved, said = setup(project, fake_llm, ["", "", ""])
    assert f"Ollama answers on {fake_llm.base_url} with: qwen3:8b, llama3.2" in said
    assert saved == {"base_url": fake_llm.base_url, "api_key": "local", "model": "qwen3:8b"}
    [check] = fake_llm.requests
    assert check["model"] == "qwen3:8b" and check["max_tokens"] == 1


def test_a_wrong_model_is_found_at_setup_and_asked_again(project, fake_llm):
    fake_llm.add(Status(404, {"error": {"message": "model 'qwen9' not found"}}), text_reply("OK"))
    saved, said = setup(project, fake_llm, ["", "", "qwen9", "", "", "llama3.2"])
    assert "does not know the model 'qwen9' (404)" in said
    assert saved["model"] == "llama3.2" and [r["model"] for r in fake_llm.requests] == ["qwen9", "llama3.2"]


def test_a_rejected_key_is_said_and_saved_only_after_the_last_try(project, fake_llm):
    fake_llm.add(*[Status(401, {"error": {"message": "invalid api key"}})] * 3)
    saved, said = setup(project, fake_llm, ["", "sk-wrong"] + [""] * 7)
    assert said.count("refused the API key (401)") == 3 and "Saved anyway" in said
    assert saved["api_key"] == "sk-wrong" and len(fake_llm.requests) == 3
