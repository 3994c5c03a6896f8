"""Per-step overhead along a 200-call headless turn whose history grows to about 2 MB.

Each step the fake provider asks for one Read of a different 10 kB file; a step's overhead is the time from the
provider's answer sent whole to the next request arrived (the reply read, the tool run, the next request built and
sent). The curve is printed by stretches of 20 steps; the figure is the last stretch against the first.

Run: python bench/steps.py [--before REV]   (REV: a git revision measured the same way in the same run)
"""

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from common import environment, source_trees, table

from tests.fake_llm import FakeLLM, text_reply, tool_reply

CALLS = 200
STRETCH = 20
FILE = "".join(f"line {n:04} of a file the model reads, long enough to be a typical source line\n" for n in range(125))


def project() -> str:
    folder = tempfile.mkdtemp()
    for n in range(CALLS):
        Path(folder, f"f{n:03}.txt").write_text(FILE)
    return folder


def turn(tree: Path, folder: str) -> tuple[list[float], list[int]]:
    """Each step's overhead in seconds, and the size of the request that followed it."""
    fake = FakeLLM()
    sizes: list[int] = []

    def respond(request: dict) -> object:
        sizes.append(sum(len(str(m.get("content") or "")) for m in request["messages"]))
        n = len(fake.requests) - 1
        return tool_reply(("Read", {"file_path": f"f{n:03}.txt"})) if n < CALLS else text_reply("done")

    fake.respond = respond
    env = environment(folder, tree, NARNAT_BASE_URL=fake.base_url)
    args = [sys.executable, "-m", "narnat_agent", "-p", "read them all", "--max-steps", str(CALLS + 1)]
    subprocess.run(args, env=env, cwd=folder, check=True, capture_output=True)
    fake.close()
    overheads = [fake.arrivals[n + 1] - fake.answered[n] for n in range(CALLS)]
    return overheads, sizes[1:]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", help="a git revision to measure in the same run")
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    trees = source_trees(options.before)
    folder = project()
    runs: dict[str, list[list[float]]] = {name: [] for name in trees}
    sizes: list[int] = []
    for _ in range(options.runs):  # interleaved: the machine's load falls on both alike
        for name, tree in trees.items():
            overheads, sizes = turn(tree, folder)
            runs[name].append(overheads)
    for name, measured in runs.items():
        per_step = [statistics.median(run[n] for run in measured) for n in range(CALLS)]
        stretches = [per_step[n : n + STRETCH] for n in range(0, CALLS, STRETCH)]
        first = statistics.median(stretches[0])
        rows = []
        for n, stretch in enumerate(stretches):
            median = statistics.median(stretch)
            history = sizes[min(n * STRETCH + STRETCH - 1, len(sizes) - 1)] / 1e6
            budget = "≤ 1.5x" if n == len(stretches) - 1 else ""
            steps = f"steps {n * STRETCH + 1}-{n * STRETCH + STRETCH}, history to {history:.2f} MB"
            rows.append((steps, f"{median * 1000:.1f} ms", f"{first * 1000:.1f} ms", f"{median / first:.2f}x", budget))
        table(f"Per-step overhead, {name} (median of {options.runs} runs per step, then of each stretch)", rows)


if __name__ == "__main__":
    main()
