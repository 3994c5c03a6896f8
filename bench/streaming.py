"""Streaming: a 200 kB headless answer against a bare openai loop, and the terminal renderer's CPU per token.

Run: python bench/streaming.py
"""

import io
import os
import subprocess
import sys
import tempfile
import time

from common import ROOT, table
from rich.console import Console
from rich.live import Live
from rich.text import Text

from narnat_agent.ui.markdown_stream import MarkdownStream
from tests.fake_llm import SSE, FakeLLM, chunk, usage

BARE_LOOP = """
import os, sys, openai
client = openai.OpenAI(api_key="k", base_url=os.environ["NARNAT_BASE_URL"], max_retries=0)
for c in client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}], stream=True):
    if c.choices and c.choices[0].delta.content:
        sys.stdout.write(c.choices[0].delta.content)
"""


def answer(size: int) -> str:
    """Markdown like a model writes it: headings, paragraphs, lists and code, about `size` characters."""
    block = ("## Section\n\nSome prose with **bold** and `code` that explains what happens next in detail.\n\n"
             "- first point\n- second point\n\n```python\ndef f(x):\n    return x * 2\n```\n\n")  # fmt: skip
    return (block * (size // len(block) + 1))[:size]


def tokens(text: str) -> list[str]:
    return [text[i : i + 4] for i in range(0, len(text), 4)]  # ~4 characters a token


def headless_seconds(text: str, *args: str) -> float:
    fake = FakeLLM()
    fake.add(SSE([chunk({"content": t}) for t in tokens(text)] + [chunk(finish="stop"), usage()]))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NARNAT_", "OPENAI_"))}
    env.update(HOME=tempfile.mkdtemp(), NARNAT_API_KEY="k", NARNAT_BASE_URL=fake.base_url, PYTHONPATH=str(ROOT))
    started = time.perf_counter()
    subprocess.run([sys.executable, *args], env=env, cwd=env["HOME"], check=True, capture_output=True)
    fake.close()
    return time.perf_counter() - started


def render_cpu(text: str) -> float:
    """CPU seconds the terminal renderer spends on an answer arriving token by token at 60 tokens/s."""
    console = Console(file=io.StringIO(), width=100, height=40, force_terminal=True, color_system="truecolor")
    live = Live(console=console, transient=True, auto_refresh=False)
    live.start()
    clock = iter(n / 60 for n in range(10**7))
    stream = MarkdownStream(console, lambda lines: console.print(Text.from_ansi("\n".join(lines)), soft_wrap=True),
                            lambda r: live.update(r or "", refresh=True), clock=lambda: next(clock))  # fmt: skip
    started = time.process_time()
    for token in tokens(text):
        stream.feed(token)
    stream.finish()
    live.stop()
    return time.process_time() - started


def flood_cpu(text: str, cancel: bool) -> float:
    """CPU seconds for an answer that arrives faster than it can be drawn (all at once), or its finish after Esc."""
    from narnat_agent.ui.terminal_stream import _Raw

    console = Console(file=io.StringIO(), width=100, height=40, force_terminal=True, color_system="truecolor")
    stream = MarkdownStream(console, lambda lines: console.print(Text.from_ansi("\n".join(lines)), soft_wrap=True),
                            lambda r: None, emit_plain=lambda t: console.print(_Raw(t), crop=False))  # fmt: skip
    started = time.process_time()
    for i in range(0, len(text), 200):
        stream.feed(text[i : i + 200])
    if cancel:
        started = time.process_time()
    stream.finish(cancelled=cancel)
    return time.process_time() - started


def raw_cpu(text: str) -> float:
    out = io.StringIO()
    started = time.process_time()
    for token in tokens(text):
        out.write(token)
    return time.process_time() - started


def main() -> None:
    big = answer(200_000)
    ours = min(headless_seconds(big, "-m", "narnat_agent", "-p", "hi") for _ in range(3))
    bare = min(headless_seconds(big, "-c", BARE_LOOP) for _ in range(3))
    rows = [("headless 200 kB answer (wall)", f"{ours:.2f} s", f"{bare:.2f} s", f"{ours / bare:.2f}x", "<= 1.5x")]
    hundred = answer(100_000)
    render = render_cpu(hundred)
    terminal_write = Console(file=io.StringIO(), force_terminal=True)
    started = time.process_time()
    for token in tokens(hundred):
        terminal_write.file.write(token)
    raw = max(time.process_time() - started, raw_cpu(hundred))
    rows.append(("render CPU, 100 kB answer", f"{render:.2f} s", f"{raw * 1000:.1f} ms raw write",
                 f"{render / raw:.0f}x", "<= 1.5x"))  # fmt: skip
    per_token = {}
    for kb in (4, 16, 64):
        text = answer(kb * 1000)
        per_token[kb] = render_cpu(text) / len(tokens(text)) * 1000
    for kb in (4, 16, 64):
        rows.append((f"render CPU per token, {kb} kB", f"{per_token[kb]:.2f} ms", f"{per_token[4]:.2f} ms (4 kB)",
                     f"{per_token[kb] / per_token[4]:.2f}x", "flat, <= 1.5x"))  # fmt: skip
    flood = answer(5_000_000)
    raw = raw_cpu(flood)
    for cancel in (False, True):
        spent = flood_cpu(flood, cancel)
        label = "finish after Esc, 5 MB flood" if cancel else "render CPU, 5 MB flood"
        rows.append((label, f"{spent:.2f} s", f"{raw * 1000:.0f} ms raw write", f"{spent / raw:.0f}x", "bounded"))
    table("Streaming", rows)


if __name__ == "__main__":
    main()
