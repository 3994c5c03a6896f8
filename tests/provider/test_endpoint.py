"""Servers people run themselves: the context they really give the model, and prompts they cut without an error."""

import json
import socket

import pytest

from narnat_agent.config.loader import load_config
from narnat_agent.provider.client import Client
from narnat_agent.provider.endpoint import Server, check_model, is_local, learn, local_servers
from narnat_agent.run.start import _learn_server
from tests.fake_llm import Status, Unanswered, text_reply, usage
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
    assert "Ollama runs qwen3:8b with a 2,048-token context" in notice


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


def test_lm_studio_reports_the_loaded_context_else_the_largest(project, fake_llm):
    fake_llm.pages = {"/api/v0/models/org%2Fqwen3%3A8b": {"loaded_context_length": 8192, "max_context_length": 32768}}
    assert learn(fake_llm.base_url, "org/qwen3:8b", "k") == Server("LM Studio", 8192)
    fake_llm.pages = {"/api/v0/models/qwen3%3A8b": {"max_context_length": 32768}}
    assert learn(fake_llm.base_url, "qwen3:8b", "k") == Server("LM Studio", 32768)


def test_a_loaded_ollama_model_is_found_by_either_of_its_names(project, fake_llm):
    ollama(fake_llm, loaded=[{"name": "other", "model": "other", "context_length": 4096},
                             {"name": "qwen3:8b-q4", "model": "qwen3:8b", "context_length": 8192}])  # fmt: skip
    assert learn(fake_llm.base_url, "qwen3:8b", "k") == Server("Ollama", 8192)
    ollama(fake_llm, loaded=["odd", {"name": "qwen3:8b", "context_length": 0}])
    assert learn(fake_llm.base_url, "qwen3:8b", "k") == Server("Ollama", None)  # loaded, but no real size said


def test_the_smallest_size_is_one_token(project, fake_llm):
    fake_llm.pages = {"/v1/models": {"data": [{"id": "qwen3:8b", "max_model_len": 1}]}}
    assert learn(fake_llm.base_url, "qwen3:8b", "k") == Server("vLLM", 1)


@pytest.mark.parametrize("size", [0, -1, True, "8192", 81.5])
def test_a_size_that_is_not_a_positive_whole_number_is_no_size(project, fake_llm, size):
    fake_llm.pages = {"/v1/models": {"data": [{"id": "qwen3:8b", "max_model_len": size}]}}
    assert learn(fake_llm.base_url, "qwen3:8b", "k") is None


def test_vllm_names_the_model_asked_for_and_nothing_recognised_is_none(project, fake_llm):
    fake_llm.pages = {"/v1/models": {"data": ["x", {"id": "other", "max_model_len": 1024},
                                              {"id": "qwen3:8b", "max_model_len": 32768}]}}  # fmt: skip
    assert learn(fake_llm.base_url, "qwen3:8b", "k") == Server("vLLM", 32768)
    fake_llm.pages = {"/api/version": ["not", "an", "object"], "/v1/models": [1], "/props": [2]}
    assert learn(fake_llm.base_url, "qwen3:8b", "k") is None


def test_a_server_answering_its_probes_with_a_web_page_is_not_recognised(project, fake_llm):
    page = "<!doctype html><title>llama.cpp</title>"  # a web UI served at every path
    fake_llm.pages = {"/api/version": page, "/v1/models": page, "/props": page}
    assert learn(fake_llm.base_url, "qwen3:8b", "k") is None


def test_a_host_on_the_local_network_by_name_is_local_and_a_public_address_is_not():
    assert is_local("http://gpu-box.local:8000/v1") and is_local("http://10.0.0.7:8080/v1")
    assert not is_local("http://8.8.8.8/v1") and not is_local("not a url")


def test_each_server_names_its_own_fix():
    assert Server("llama.cpp", 1).fix == "start llama-server with a larger --ctx-size (-c)"
    assert Server("vLLM", 1).fix == "start vllm serve with a larger --max-model-len"
    assert Server("LM Studio", 1).fix == "load the model with a larger context length"


def test_the_servers_answering_on_their_ports_are_listed_with_their_models(fake_llm):
    port = int(fake_llm.base_url.rsplit(":", 1)[1].split("/")[0])
    fake_llm.models = ["b", "a"]
    fake_llm.pages = {}
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        closed = s.getsockname()[1]
    found = local_servers((("Nothing", closed), ("vLLM", port)))
    assert found == [("vLLM", f"http://127.0.0.1:{port}/v1", ["b", "a"])]
    fake_llm.models = None
    fake_llm.pages = {"/v1/models": {"data": [{"id": "m"}, {"id": 7}, "x"]}}
    assert local_servers((("vLLM", port),)) == [("vLLM", f"http://127.0.0.1:{port}/v1", ["m"])]


def test_the_setups_check_sends_one_token_and_passes_when_answered(fake_llm):
    fake_llm.add(text_reply("OK"))
    assert check_model(fake_llm.base_url, "sk-check", "m") is None
    assert fake_llm.requests[0]["max_tokens"] == 1 and fake_llm.requests[0]["model"] == "m"
    assert fake_llm.headers[0]["authorization"] == "Bearer sk-check"


@pytest.mark.parametrize(
    ("status", "body", "said"),
    [
        (401, "no", "{url} refused the API key (401): check the key."),
        (403, "no", "{url} refused the API key (403): check the key."),
        (404, "gone", "{url} does not know the model 'm' (404): check its name. gone"),
        (
            400,
            "The Model m does not exist",
            "{url} does not know the model 'm' (400): check its name. The Model m does not exist",
        ),
        (400, "max_tokens is not supported", None),
        (422, "bad field", None),
        (500, "sk-check-secret-key broke", "{url} answered 500: [API key] broke"),
    ],
)
def test_the_setups_check_says_what_to_fix(fake_llm, status, body, said):
    fake_llm.add(Status(status, body))
    expected = said.format(url=fake_llm.base_url) if said else None
    assert check_model(fake_llm.base_url, "sk-check-secret-key", "m") == expected


def test_the_setups_check_of_a_server_that_is_not_there_says_so():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{s.getsockname()[1]}/v1"
    said = check_model(url, "k", "m")
    assert said.startswith(f"Cannot reach {url} (") and said.endswith("): check the address and that the server runs.")
    assert "urlopen error" not in said  # the reason alone, not the exception that carried it


def test_the_setups_check_of_a_model_that_does_not_answer_in_time_says_it_may_still_be_loading(fake_llm):
    fake_llm.add(Unanswered())
    said = check_model(fake_llm.base_url, "k", "m", timeout=0.3)
    assert said == f"m did not answer within 0.3 s at {fake_llm.base_url} (a large model may still be loading)."


def test_ollamas_num_ctx_is_read_among_its_other_parameters(project, fake_llm):
    ollama(fake_llm, show={"parameters": "num_predict                    128\nnum_ctx                        4096"})
    assert learn(fake_llm.base_url, "qwen3:8b", "k") == Server("Ollama", 4096)


@pytest.mark.parametrize(
    ("pages", "name"),
    [
        ({"/v1/models": {"data": [{"id": "m", "max_model_len": 4096}]}}, "vLLM"),
        ({"/props": {"default_generation_settings": {"n_ctx": 4096}}}, "llama.cpp"),
        ({"/api/v0/models/m": {"max_context_length": 4096}}, "LM Studio"),
    ],
)
def test_a_servers_own_pages_are_asked_with_the_key_and_without_one_when_there_is_none(fake_llm, pages, name):
    fake_llm.pages = pages
    assert learn(fake_llm.base_url, "m", "sk-local") == Server(name, 4096)
    assert fake_llm.probe_headers[-1]["authorization"] == "Bearer sk-local"  # the page that answered
    fake_llm.probe_headers.clear()
    assert learn(fake_llm.base_url, "m", "") == Server(name, 4096)
    assert not any("authorization" in h for h in fake_llm.probe_headers)


def test_a_page_is_read_with_a_get_and_a_question_posted_as_json(project, fake_llm):
    ollama(fake_llm)
    learn(fake_llm.base_url, "qwen3:8b", "k")
    version, ps, show = fake_llm.probe_headers[:3]
    assert "content-length" not in version and version["content-type"] == "application/json"
    assert show["content-type"] == "application/json" and int(show["content-length"]) > 0
    assert fake_llm.probes[:3] == [("/api/version", None), ("/api/ps", None), ("/api/show", {"model": "qwen3:8b"})]


def test_the_setups_check_asks_for_one_token_of_an_answer(fake_llm):
    fake_llm.add(text_reply("OK"))
    check_model(fake_llm.base_url, "sk-check", "m")
    assert fake_llm.requests == [{"model": "m", "messages": [{"role": "user", "content": "Say OK."}], "max_tokens": 1}]
    assert fake_llm.headers[0]["content-type"] == "application/json"


def test_the_setups_check_gives_at_most_500_characters_of_the_servers_words(fake_llm):
    fake_llm.add(Status(500, "e" * 600))
    said = check_model(fake_llm.base_url, "sk-check", "m")
    assert said == f"{fake_llm.base_url} answered 500: {'e' * 500}"


def test_the_setups_check_of_an_address_that_is_no_url_says_why():
    said = check_model("nowhere", "k", "m")
    assert said.startswith("Cannot reach nowhere (unknown url type: ") and "None" not in said


def _raw_server(answer: bytes, then: bytes = b"", every: float = 0.0) -> socket.socket:
    """A server that answers every connection with `answer`, then `then` every `every` seconds until it hangs up."""
    import threading
    import time

    listener = socket.create_server(("127.0.0.1", 0))

    def serve(connection: socket.socket) -> None:
        with connection:
            connection.recv(65536)
            try:
                connection.sendall(answer)
                while then:
                    time.sleep(every)
                    connection.sendall(then)
            except OSError:
                pass

    def accept() -> None:
        while True:
            try:
                connection, _ = listener.accept()
            except OSError:
                return
            threading.Thread(target=serve, args=(connection,), daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    return listener


def test_a_probe_answered_with_endless_headers_is_no_server_not_a_traceback():
    # http.client gives up past 100 headers with an HTTPException, which is no OSError: the start ended in a traceback
    listener = _raw_server(b"HTTP/1.1 200 OK\r\n" + b"X-Padding: a\r\n" * 150)
    try:
        assert learn(f"http://127.0.0.1:{listener.getsockname()[1]}/v1", "m", "k") is None
    finally:
        listener.close()


@pytest.mark.slow
def test_a_probe_whose_answer_drips_without_end_is_given_up(project):
    # each read came within the timeout: the start waited for ever
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{"
    listener = _raw_server(head, then=b" ", every=0.05)
    try:
        assert learn(f"http://127.0.0.1:{listener.getsockname()[1]}/v1", "m", "k") is None
    finally:
        listener.close()
