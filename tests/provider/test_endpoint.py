"""Servers people run themselves: the context they really give the model, and prompts they cut without an error."""

import json

import pytest

from narnat_agent.config.loader import load_config
from narnat_agent.provider.client import Client
from narnat_agent.provider.endpoint import Server, is_local, learn
from narnat_agent.run.start import _learn_server
from tests.fake_llm import text_reply, usage
from tests.provider.test_llm_shapes import Sink
from tests.run.test_cli import narnat

OLLAMA_SHOW = {  # /api/show of a model whose Modelfile sets num_ctx (an abridged real answer)
    "modelfile": "FROM qwen3:8b\nPARAMETER num_ctx 2048\n",
    "parameters": 'num_ctx                        2048\nstop                           "<|im_end|>"',
    "details": {"family": "qwen3", "parameter_size": "8.2B"},
    "model_info": {"general.architecture": "qwen3", "qwen3.context_length": 40960},
}


def ollama(fake, show=OLLAMA_SHOW, loaded=None) -> None:
    fake.pages = {"/api/version": {"version": "0.12.6"}, "/api/show": show, "/api/ps": {"models": loaded or []}}


def config_for(project, fake, **settings):
    if settings:
        (project / ".narnat").mkdir(exist_ok=True)
        (project / ".narnat" / "narnat.json").write_text(json.dumps(settings))
    env = {"NARNAT_API_KEY": "k", "NARNAT_BASE_URL": fake.base_url, "NARNAT_MODEL": "qwen3:8b"}
    return load_config(project, project.parent / "home", env=env)


def test_ollama_says_the_num_ctx_it_runs_the_model_with(project, fake_llm):
    ollama(fake_llm)
    assert learn(fake_llm.base_url, "qwen3:8b", "k") == Server("Ollama", 2048)
    assert ("/api/show", {"model": "qwen3:8b"}) in fake_llm.probes


def test_a_loaded_ollama_model_tells_its_real_context(project, fake_llm):
    ollama(fake_llm, loaded=[{"name": "qwen3:8b", "model": "qwen3:8b", "context_length": 8192}])
    assert learn(fake_llm.base_url, "qwen3:8b", "k") == Server("Ollama", 8192)


def test_ollama_without_num_ctx_leaves_the_context_unknown(project, fake_llm):
    ollama(fake_llm, show={**OLLAMA_SHOW, "parameters": 'stop "<|im_end|>"'})
    assert learn(fake_llm.base_url, "qwen3:8b", "k") == Server("Ollama", None)


def test_vllm_and_llama_cpp_report_their_context(project, fake_llm):
    fake_llm.pages = {"/v1/models": {"data": [{"id": "qwen3:8b", "max_model_len": 32768}]}}
    assert learn(fake_llm.base_url, "qwen3:8b", "k") == Server("vLLM", 32768)
    fake_llm.pages = {"/props": {"default_generation_settings": {"n_ctx": 16384}}}
    assert learn(fake_llm.base_url, "qwen3:8b", "k") == Server("llama.cpp", 16384)


def test_only_local_and_private_hosts_are_asked():
    assert is_local("http://127.0.0.1:11434/v1") and is_local("http://192.168.1.20:8000/v1")
    assert is_local("http://localhost:1234/v1") and not is_local("https://api.deepseek.com")


def test_context_window_defaults_from_the_server_unless_the_settings_name_it(project, fake_llm):
    ollama(fake_llm)
    config, server = _learn_server(config_for(project, fake_llm))
    assert config.context_window == 2048 and server == Server("Ollama", 2048)
    config, _ = _learn_server(config_for(project, fake_llm, context_window=64000))
    assert config.context_window == 64000


def test_a_prompt_larger_than_ollamas_context_is_said_once_with_the_fix(project, fake_llm):
    ollama(fake_llm)
    notices: list[str] = []
    client = Client(config_for(project, fake_llm), notices.append, Server("Ollama", 2048))
    big = [{"role": "user", "content": "word " * 3000}]
    fake_llm.add(text_reply("one"), text_reply("two"))
    client.stream(big, [], Sink())
    client.stream(big, [], Sink())
    [notice] = notices
    assert "2,048-token context" in notice and "OLLAMA_CONTEXT_LENGTH" in notice and "context_window" in notice


def test_far_fewer_prompt_tokens_counted_than_sent_means_the_prompt_was_cut(project, fake_llm):
    notices: list[str] = []
    client = Client(config_for(project, fake_llm), notices.append, Server("llama.cpp", None))
    cut = text_reply("I have no tools.")
    cut.chunks[-1] = usage(prompt=2048)
    fake_llm.add(cut, text_reply("fine"))
    client.stream([{"role": "user", "content": "word " * 8000}], [], Sink())
    assert len(notices) == 1 and "counted 2,048 prompt tokens but about 10," in notices[0]
    assert "llama.cpp counted" in notices[0] and "--ctx-size" in notices[0]


def test_a_count_close_to_what_was_sent_says_nothing(project, fake_llm):
    notices: list[str] = []
    client = Client(config_for(project, fake_llm), notices.append, Server("llama.cpp", None))
    whole = text_reply("ok")
    whole.chunks[-1] = usage(prompt=9000)
    fake_llm.add(whole)
    client.stream([{"role": "user", "content": "word " * 8000}], [], Sink())
    assert notices == []


@pytest.mark.slow
def test_a_headless_run_on_ollama_with_a_small_num_ctx_is_told_how_to_fix_it(project, fake_llm):
    ollama(fake_llm)
    fake_llm.add(text_reply("Hello."))
    done = narnat(project, "-p", "hi", base_url=fake_llm.base_url)
    assert done.returncode == 0 and done.stdout.strip() == "Hello."
    assert "2,048-token context" in done.stderr and "OLLAMA_CONTEXT_LENGTH=32768" in done.stderr
