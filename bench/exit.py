"""How long the process lives on once its work is done: after a headless answer is printed, and after /exit.

The session, the log and the checkpoints are written before the answer is printed (and, in the REPL, before /exit
returns); what is measured is what follows: the run's way out and the interpreter's teardown.

Run: python bench/exit.py [--before REV]   (baseline: `python -c pass` in the same run; REV: a git revision
measured the same way, interleaved)
"""

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import environment, source_trees, table

from tests.fake_llm import FakeLLM, text_reply

ROUNDS = 7


def after_answer(tree: Path, project: str) -> float:
    """Seconds from the answer's line on stdout to the process gone."""
    fake = FakeLLM()
    fake.add(text_reply("the answer"))
    env = environment(tempfile.mkdtemp(), tree, NARNAT_BASE_URL=fake.base_url)
    child = subprocess.Popen([sys.executable, "-m", "narnat_agent", "-p", "hi"], env=env, cwd=project,
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)  # fmt: skip
    assert child.stdout is not None and child.stdout.readline() == b"the answer\n"
    answered = time.perf_counter()
    child.wait()
    fake.close()
    return time.perf_counter() - answered


def after_exit(tree: Path, project: str) -> float:
    """Seconds from /exit typed (after one turn) to the process gone, in a pseudo-terminal."""
    import pexpect

    fake = FakeLLM()
    fake.add(text_reply("the answer"))
    # a terminal answers the prompt's cursor-position request at once; pexpect does not, and the prompt would wait
    env = environment(tempfile.mkdtemp(), tree, NARNAT_BASE_URL=fake.base_url, TERM="xterm-256color",
                      PROMPT_TOOLKIT_NO_CPR="1")  # fmt: skip
    child = pexpect.spawn(sys.executable, ["-m", "narnat_agent"], env=env, cwd=project, dimensions=(30, 100),
                          encoding="utf-8", timeout=30)  # fmt: skip
    child.delaybeforesend = None
    child.expect("❯")
    child.send("hi\r")
    child.expect("the answer")
    child.expect("❯")
    child.send("/exit\r")
    typed = time.perf_counter()
    child.expect(pexpect.EOF)
    child.wait()
    fake.close()
    return time.perf_counter() - typed


def launch() -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", help="a git revision to measure in the same run")
    options = parser.parse_args()
    trees = source_trees(options.before)
    project = tempfile.mkdtemp()
    times: dict[tuple[str, str], list[float]] = {}
    passes = []
    for _ in range(ROUNDS):  # interleaved: the machine's load falls on each alike
        passes.append(launch())
        for name, tree in trees.items():
            times.setdefault(("-p: answer printed -> process gone", name), []).append(after_answer(tree, project))
            times.setdefault(("REPL: /exit -> process gone", name), []).append(after_exit(tree, project))
    baseline = statistics.median(passes)
    rows = []
    for (what, name), measured in sorted(times.items()):
        value = statistics.median(measured)
        rows.append((f"{what} ({name})", f"{value * 1000:.0f} ms", f"{baseline * 1000:.0f} ms python -c pass",
                     f"{value / baseline:.2f}x", "≤ 100 ms"))  # fmt: skip
    table(f"Exit (median of {ROUNDS} runs, interleaved)", rows)


if __name__ == "__main__":
    main()
