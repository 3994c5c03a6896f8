"""ESC-to-stop latency: from the key press to "Interrupted by user" on screen, in a real pseudo-terminal.

Run: python bench/esc_latency.py   (a local fake provider streams slowly; 5 interrupts while streaming,
5 while a tool (sleep) runs)
"""

import os
import statistics
import sys
import tempfile
import time

import pexpect
from common import ROOT, table

from tests.fake_llm import SSE, FakeLLM, chunk, tool_reply, usage

ROUNDS = 5


def main() -> None:
    fake = FakeLLM()
    slow = SSE([chunk({"content": f"word{n} "}) for n in range(2000)] + [chunk(finish="stop"), usage()], delay=0.02)
    sleeping = tool_reply(("Bash", {"command": "sleep 30"}))
    for _ in range(ROUNDS):
        fake.add(slow)
    for _ in range(ROUNDS):
        fake.add(sleeping)
    project = tempfile.mkdtemp()
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NARNAT_", "OPENAI_", "NO_COLOR"))}
    env.update(
        HOME=project, NARNAT_API_KEY="k", NARNAT_BASE_URL=fake.base_url, PYTHONPATH=str(ROOT), TERM="xterm-256color"
    )
    child = pexpect.spawn(
        sys.executable, ["-m", "narnat_agent"], env=env, cwd=project, dimensions=(30, 100), encoding="utf-8", timeout=30
    )
    child.delaybeforesend = None  # pexpect otherwise sleeps 50 ms before each send
    child.expect("❯")
    results = {"while streaming": [], "while a tool runs": []}
    for phase, wait_for in (("while streaming", "word20 "), ("while a tool runs", "Bash")):
        for _ in range(ROUNDS):
            child.send("go\r")
            child.expect(wait_for)
            time.sleep(0.3)
            started = time.perf_counter()
            child.send("\x1b")
            child.expect("Interrupted by user")
            results[phase].append(time.perf_counter() - started)
            child.expect("❯")
    child.sendeof()
    fake.close()
    rows = [(f"ESC {phase}", f"{statistics.median(v) * 1000:.0f} ms", f"max {max(v) * 1000:.0f} ms", "",
             "~100 ms") for phase, v in results.items()]  # fmt: skip
    table(f"ESC to stop (median of {ROUNDS}; pexpect adds its own read latency)", rows)


if __name__ == "__main__":
    main()
