"""Built-in defaults of every setting."""

DEFAULT_BASE_URL = "https://api.deepseek.com"

DEFAULTS: dict[str, object] = {
    "api_key": "",
    "base_url": DEFAULT_BASE_URL,
    "model": "deepseek-v4-pro",
    "context_window": 128000,
    "warn_turns": [50, 100],
    "compress_turns": 120,
    "bash_timeout_ms": 120000,
    "pricing": {},
    "max_steps": 200,
    "interrupt_key": "escape",
    "web_timeout_s": 10,
    "stream_idle_timeout_s": 120,
    "sees_images": False,
}
