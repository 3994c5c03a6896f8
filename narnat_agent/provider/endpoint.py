"""What a server that people run themselves says about itself: its models, and the context it really gives one.

Ollama's OpenAI endpoint cuts a prompt longer than the model's num_ctx without an error, so the context it gives
is learned from its own API (/api/version, /api/show, /api/ps); vLLM, llama.cpp and LM Studio report theirs too.
Only hosts on this machine or a private network are asked: a cloud provider is never probed.
"""

import json
import time
from dataclasses import dataclass
from http.client import HTTPException
from urllib.parse import quote, urlsplit

from narnat_agent.i18n import N_, _
from narnat_agent.keyguard import redact
from narnat_agent.logger import get_logger

PROBE_BYTES = 1 << 20  # a probe's answer is a small JSON object
CHECK_TIMEOUT_S = 60  # the setup's check: a local server loads the model on the first request
LOCAL_SERVERS = (("Ollama", 11434), ("llama.cpp", 8080), ("LM Studio", 1234), ("vLLM", 8000))
FIXES = {
    "Ollama": N_(
        "set OLLAMA_CONTEXT_LENGTH=32768 in the environment of `ollama serve` (or PARAMETER num_ctx 32768 in a "
        "Modelfile)"
    ),
    "llama.cpp": N_("start llama-server with a larger --ctx-size (-c)"),
    "vLLM": N_("start vllm serve with a larger --max-model-len"),
    "LM Studio": N_("load the model with a larger context length"),
}
log = get_logger("core.endpoint")


@dataclass(frozen=True)
class Server:
    name: str  # Ollama, vLLM, llama.cpp or LM Studio
    context: int | None  # the tokens one request may hold, as the server runs the model now, when known

    @property
    def fix(self) -> str:
        """What to change so the server gives the model a larger context, in the interface's language."""
        return _(FIXES[self.name])


def is_local(base_url: str) -> bool:
    """Whether base_url names this machine or a private network, where people run their own servers."""
    import ipaddress

    host = urlsplit(base_url).hostname or ""
    if host == "localhost" or host.endswith(".local"):
        return True
    try:
        return ipaddress.ip_address(host).is_private
    except ValueError:
        return False


def get_json(url: str, key: str = "", body: dict | None = None, timeout: float = 1.0) -> dict | None:
    """The JSON object a server answers, or None when it does not answer that way quickly."""
    import urllib.request  # here: a cloud provider's start never pays for it

    data = json.dumps(body).encode() if body is not None else None
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {key}"} if key else {})}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data, headers), timeout=timeout) as response:
            value = json.loads(_body(response, time.monotonic() + timeout))
    except (OSError, ValueError, HTTPException, TooSlow):  # a timeout is an OSError; 100 headers an HTTPException
        return None
    return value if isinstance(value, dict) else None


class TooSlow(Exception):
    """A probe's answer that did not come whole within its time: no server of ours drips its answer."""


def _body(response, deadline: float) -> bytes:
    """The answer read as it comes, until its end, a megabyte, or the deadline (the timeout bounds each read only)."""
    data = bytearray()
    while chunk := response.read1(65536):
        data += chunk
        if len(data) > PROBE_BYTES or time.monotonic() > deadline:
            raise TooSlow
    return bytes(data)


def _int(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _ollama(root: str, model: str) -> int | None:
    """The context Ollama runs the model with: the loaded model's, else its num_ctx; None while neither is known
    (then it is the server's default, which OLLAMA_CONTEXT_LENGTH sets where the server starts)."""
    for loaded in (get_json(f"{root}/api/ps") or {}).get("models") or []:
        if isinstance(loaded, dict) and model in (loaded.get("name"), loaded.get("model")):
            return _int(loaded.get("context_length"))
    shown = get_json(f"{root}/api/show", body={"model": model}) or {}
    for line in str(shown.get("parameters") or "").splitlines():
        name, _, value = line.partition(" ")
        if name == "num_ctx" and value.strip().isdigit():
            return int(value)
    return None


def _vllm(base_url: str, model: str, key: str) -> int | None:
    """max_model_len in vLLM's model list."""
    for entry in (get_json(f"{base_url}/models", key) or {}).get("data") or []:
        if isinstance(entry, dict) and entry.get("id") == model:
            return _int(entry.get("max_model_len"))
    return None


def _llama_cpp(root: str, key: str) -> int | None:
    settings = (get_json(f"{root}/props", key) or {}).get("default_generation_settings") or {}
    return _int(settings.get("n_ctx"))


def _lm_studio(root: str, model: str, key: str) -> int | None:
    found = get_json(f"{root}/api/v0/models/{quote(model, safe='')}", key) or {}
    return _int(found.get("loaded_context_length") or found.get("max_context_length"))


def learn(base_url: str, model: str, key: str) -> Server | None:
    """The local server behind base_url and the context it gives the model, when it says so."""
    if not is_local(base_url):
        return None
    root = base_url.removesuffix("/v1")
    server = None
    if "version" in (get_json(f"{root}/api/version") or {}):
        server = Server("Ollama", _ollama(root, model))
    elif size := _vllm(base_url, model, key):
        server = Server("vLLM", size)
    elif size := _llama_cpp(root, key):
        server = Server("llama.cpp", size)
    elif size := _lm_studio(root, model, key):
        server = Server("LM Studio", size)
    log.info("endpoint: %s", f"{server.name}, context {server.context or 'unknown'}" if server else "not recognised")
    return server


def local_servers(servers: tuple = LOCAL_SERVERS) -> list[tuple[str, str, list[str]]]:
    """The servers answering on their usual ports here: (name, base_url, models), for the first start."""
    found = []
    for name, port in servers:
        base_url = f"http://127.0.0.1:{port}/v1"
        listing = get_json(f"{base_url}/models", timeout=0.5)
        if listing is not None:
            models = [m.get("id") for m in listing.get("data") or [] if isinstance(m, dict)]
            found.append((name, base_url, [m for m in models if isinstance(m, str)]))
    return found


def check_model(base_url: str, key: str, model: str, timeout: float = CHECK_TIMEOUT_S) -> str | None:
    """One cheap request (one token) to the chosen model; None when it answers within `timeout` seconds, else a
    sentence saying why not."""
    import urllib.error
    import urllib.request

    body = {"model": model, "messages": [{"role": "user", "content": "Say OK."}], "max_tokens": 1}
    headers = {"Content-Type": "application/json", "Authorization": f"Bearer {key}"}
    try:  # an address without http:// is refused as the request is made: said as one out of reach
        request = urllib.request.Request(f"{base_url}/chat/completions", json.dumps(body).encode(), headers)
        with urllib.request.urlopen(request, timeout=timeout):
            return None
    except urllib.error.HTTPError as e:
        detail = redact(e.read(500).decode(errors="replace").strip(), key)
        if e.code in (401, 403):
            return f"{base_url} refused the API key ({e.code}): check the key."
        if e.code == 404 or "model" in detail.lower():
            return f"{base_url} does not know the model '{model}' ({e.code}): check its name. {detail}"
        return None if e.code in (400, 422) else f"{base_url} answered {e.code}: {detail}"  # 400: a field it refuses
    except TimeoutError:
        return f"{model} did not answer within {timeout:g} s at {base_url} (a large model may still be loading)."
    except (OSError, ValueError) as e:
        return f"Cannot reach {base_url} ({getattr(e, 'reason', e)}): check the address and that the server runs."
