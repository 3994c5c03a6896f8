"""Start-up: `narnat --version`, headless launch to the first request, and the interactive prompt.

Run: python bench/startup.py [--before REV]   (baseline: `python -c pass` in the same interpreter; REV: a git
revision whose launch to the first request is measured in the same run, interleaved)
"""

import argparse
import statistics
import subprocess
import sys
import tempfile
import time

from common import environment, median_seconds, source_trees, table

from tests.fake_llm import FakeLLM, text_reply


def run(*args: str, **kwargs) -> None:
    subprocess.run([sys.executable, *args], check=True, capture_output=True, **kwargs)


BARE_SDK = """
import os, openai
client = openai.OpenAI(api_key="k", base_url=os.environ["NARNAT_BASE_URL"], max_retries=0)
for chunk in client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}], stream=True):
    pass
"""


def first_request_latency(env: dict, project: str, *args: str) -> float:
    """Seconds from launching a program to its request arriving at a local provider."""
    fake = FakeLLM()
    fake.add(text_reply("ok"))
    env = {**env, "NARNAT_BASE_URL": fake.base_url}
    started = time.perf_counter()
    run(*args, env=env, cwd=project)
    fake.close()
    return fake.arrivals[0] - started


def prompt_ready(env: dict, project: str) -> float:
    """Seconds until the interactive prompt is drawn in a pseudo-terminal."""
    import pexpect

    started = time.perf_counter()
    child = pexpect.spawn(sys.executable, ["-m", "narnat_agent"], env={**env, "TERM": "xterm-256color"},
                          cwd=project, dimensions=(30, 100), encoding="utf-8", timeout=20)  # fmt: skip
    child.expect("❯")
    elapsed = time.perf_counter() - started
    child.sendeof()
    child.expect(pexpect.EOF)
    return elapsed


def enter_to_request(env: dict, project: str) -> float:
    """Seconds from Enter at the prompt to the request reaching the provider, once the client has preloaded."""
    import pexpect

    fake = FakeLLM()
    fake.add(text_reply("ok"))
    child = pexpect.spawn(sys.executable, ["-m", "narnat_agent"], env={**env, "TERM": "xterm-256color",
                          "NARNAT_BASE_URL": fake.base_url}, cwd=project, dimensions=(30, 100), encoding="utf-8",
                          timeout=20)  # fmt: skip
    child.delaybeforesend = None  # pexpect otherwise sleeps 50 ms before each send
    child.expect("❯")
    time.sleep(3)  # the user types for a few seconds
    child.send("hi")
    time.sleep(0.2)
    started = time.perf_counter()
    child.send("\r")
    child.expect("ok")
    elapsed = fake.arrivals[0] - started
    child.expect("❯")
    child.sendeof()
    child.expect(pexpect.EOF)
    fake.close()
    return elapsed


def first_requests(trees: dict, project: str, rounds: int) -> tuple[dict[str, float], float]:
    """The median launch to first request of each tree, and of `python -c pass` launched alike, interleaved."""
    times: dict[str, list[float]] = {name: [] for name in trees}
    passes = []
    for _ in range(rounds):
        started = time.perf_counter()
        run("-c", "pass")
        passes.append(time.perf_counter() - started)
        for name, tree in trees.items():
            env = environment(project, tree)
            times[name].append(first_request_latency(env, project, "-m", "narnat_agent", "-p", "hi"))
    return {name: statistics.median(t) for name, t in times.items()}, statistics.median(passes)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", help="a git revision whose launch to the first request is measured too")
    options = parser.parse_args()
    trees = source_trees(options.before)
    project = tempfile.mkdtemp()
    env = environment(project, NARNAT_BASE_URL="http://127.0.0.1:9/v1")
    baseline = median_seconds(lambda: run("-c", "pass"), 9)
    version = median_seconds(lambda: run("-m", "narnat_agent", "--version", env=env, cwd=project), 9)
    ready = min(prompt_ready(env, project) for _ in range(5))
    firsts, passed = first_requests(trees, project, 9)
    bare = statistics.median(first_request_latency(env, project, "-c", BARE_SDK) for _ in range(5))
    sdk_import = median_seconds(lambda: run("-c", "import openai"), 5)
    enter = min(enter_to_request(env, project) for _ in range(3))
    ms = lambda s: f"{s * 1000:.0f} ms"  # noqa: E731
    rows = [
        ("narnat --version", ms(version), ms(baseline), f"{version / baseline:.2f}x", "< 150 ms, <= 2x"),
        ("interactive prompt ready", ms(ready), ms(baseline), f"{ready / baseline:.2f}x", "< 600 ms"),
        ("python -c 'import openai' (reference)", ms(sdk_import), ms(baseline), f"{sdk_import / baseline:.2f}x", ""),
        ("bare openai SDK script -> first request (reference)", ms(bare), ms(baseline), f"{bare / baseline:.2f}x", ""),
    ]
    for name, first in firsts.items():  # 0.45 s where python -c pass takes 0.03 s
        rows.append((f"headless launch -> first request ({name})", ms(first), ms(passed), f"{first / passed:.2f}x",
                     "<= 15x python -c pass"))  # fmt: skip
    rows.append(("REPL: Enter -> request at the provider", ms(enter), "", "", "< 50 ms"))
    table("Start-up (median of 9 runs, the request's interleaved; best of 5 for the pty)", rows)


if __name__ == "__main__":
    main()
