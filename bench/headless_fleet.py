"""A fleet of headless runs: 32 tasks, 8 at a time, in one project against the fake provider, next to one run alone.

Each task reads a file and answers (two model requests). Reports runs per second and the peak total resident
memory of the runs alive at once (sampled from /proc every 20 ms).

Run: python bench/headless_fleet.py
"""

import os
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from common import ROOT, table

from tests.fake_llm import FakeLLM, text_reply, tool_reply

TASKS, AT_ONCE = 32, 8


def respond(request: dict):
    """Each run's next step from its own request: the runs' requests interleave."""
    if request["messages"][-1]["role"] == "user":
        return tool_reply(("Read", {"file_path": "notes.txt"}))
    return text_reply("They are notes.")


def rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024
    except (OSError, StopIteration):  # the run has just ended
        return 0.0


class Fleet:
    def __init__(self, project: str, env: dict):
        self.project, self.env = project, env
        self.live: set[int] = set()
        self.lock = threading.Lock()
        self.peak = 0.0
        self.failures = 0

    def run(self, n: int) -> None:
        process = subprocess.Popen([sys.executable, "-m", "narnat_agent", "-p", f"task {n}", "--output-format", "json"],
                                   cwd=self.project, env=self.env, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)  # fmt: skip
        with self.lock:
            self.live.add(process.pid)
        code = process.wait()
        with self.lock:
            self.live.discard(process.pid)
            self.failures += code != 0

    def sample(self, done: threading.Event) -> None:
        while not done.wait(0.02):
            with self.lock:
                pids = list(self.live)
            self.peak = max(self.peak, sum(rss_mb(pid) for pid in pids))

    def measure(self, tasks: int, at_once: int) -> tuple[float, float]:
        """Seconds for all the tasks, and the peak total RSS in MB."""
        done = threading.Event()
        sampler = threading.Thread(target=self.sample, args=(done,))
        sampler.start()
        started = time.perf_counter()
        with ThreadPoolExecutor(at_once) as pool:
            list(pool.map(self.run, range(tasks)))
        elapsed = time.perf_counter() - started
        done.set()
        sampler.join()
        if self.failures:
            raise SystemExit(f"{self.failures} runs failed")
        return elapsed, self.peak


def main() -> None:
    fake = FakeLLM()
    fake.respond = respond
    project = tempfile.mkdtemp()
    with open(os.path.join(project, "notes.txt"), "w") as f:
        f.write("some notes\n" * 1000)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NARNAT_", "OPENAI_"))}
    env.update(HOME=project, NARNAT_API_KEY="sk-bench", NARNAT_BASE_URL=fake.base_url, PYTHONPATH=str(ROOT))
    alone_s, alone_mb = Fleet(project, env).measure(1, 1)
    fleet_s, fleet_mb = Fleet(project, env).measure(TASKS, AT_ONCE)
    fake.close()
    rate, alone_rate = TASKS / fleet_s, 1 / alone_s
    table(f"{TASKS} headless runs, {AT_ONCE} at a time, in one project (fake provider, {os.cpu_count()} cores)", [
        ("runs per second", f"{rate:.2f}", f"{alone_rate:.2f} one run alone", f"{rate / alone_rate:.2f}x", ""),
        ("peak total RSS", f"{fleet_mb:.0f} MB", f"{alone_mb:.0f} MB one run alone", f"{fleet_mb / alone_mb:.1f}x",
         f"≤ {AT_ONCE}x"),
    ])  # fmt: skip


if __name__ == "__main__":
    main()
