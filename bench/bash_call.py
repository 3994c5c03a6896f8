"""What a Bash call costs on a 10,000- and a 100,000-file git tree, measured from outside, against `git status`.

A headless turn makes CALLS Bash calls; a step's overhead is the time from the provider's answer sent whole to the
next request arrived. The same turn runs with checkpoints on and off (off: git left off PATH, so the store keeps
only what Write and Edit change), and `git status --porcelain` runs on the same tree, all interleaved. The figure
is a call's step with checkpoints on less the same step with them off, against `git status`; the whole call (the
guard's sandbox and the shell included) is also set against a step that starts no process (a Read). The commands:
`true` (changes nothing) and one that writes a file each call; a turn's first call is also shown alone (it looks
at every file). The tree is bench/checkpoint.py's.

Run: python bench/bash_call.py [--before REV] [--rounds N] [files ...]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from checkpoint import committed, git
from common import environment, source_trees, table

from tests.fake_llm import FakeLLM, text_reply, tool_reply

SIZES = (10_000, 100_000)
CALLS = 8
BUDGET = 1.5
COMMANDS = {
    "true": lambda n: {"command": f"true {n}"},  # each call differs: the same call repeated stops the turn
    "writes a file": lambda n: {"command": f"seq {n} >> written.txt"},
    "Read (no process)": None,
}


def without_git(folder: Path) -> str:
    """A PATH holding every program of this one but git: Narnat then takes no snapshot of what commands change."""
    folder.mkdir()
    for directory in os.environ["PATH"].split(os.pathsep):
        if not os.path.isdir(directory):
            continue
        for entry in os.scandir(directory):
            if not entry.name.startswith("git") and not (folder / entry.name).exists():
                (folder / entry.name).symlink_to(entry.path)
    return str(folder)


def turn(tree: Path, root: Path, command: str, path: str | None) -> list[float]:
    """Each call's step overhead, in seconds."""
    fake = FakeLLM()
    make = COMMANDS[command]

    def respond(request: dict) -> object:
        n = len(fake.requests) - 1
        if n >= CALLS:
            return text_reply("done")
        return tool_reply(("Bash", make(n)) if make else ("Read", {"file_path": ".gitignore", "limit": n + 1}))

    fake.respond = respond
    env = environment(str(root.parent), tree, NARNAT_BASE_URL=fake.base_url) | ({"PATH": path} if path else {})
    args = [sys.executable, "-m", "narnat_agent", "-p", "go", "--max-steps", str(CALLS + 1)]
    done = subprocess.run(args, env=env, cwd=root, capture_output=True, text=True)
    fake.close()
    if done.returncode:
        raise SystemExit(f"narnat failed ({done.returncode}): {done.stderr or done.stdout}")
    return [fake.arrivals[n + 1] - fake.answered[n] for n in range(CALLS)]


def status(root: Path) -> float:
    started = time.perf_counter()
    git(root, "status", "--porcelain")
    return time.perf_counter() - started


def measure(files: int, trees: dict[str, Path], rounds: int, off: str) -> None:
    with tempfile.TemporaryDirectory(prefix="narnat-bench-") as tmp:
        root = Path(tmp) / "tree"
        count, size = committed(root, files)
        started = time.perf_counter()
        turn(next(iter(trees.values())), root, "true", None)  # the store's first snapshot, which hashes every file
        first = time.perf_counter() - started
        steps: dict[tuple[str, str, bool], list[float]] = {}  # every call of every turn
        firsts: dict[tuple[str, str, bool], list[float]] = {}  # the first call of each turn
        statuses: list[float] = []
        for _ in range(rounds):  # interleaved: the machine's load falls on all sides alike
            for name, tree in trees.items():
                for command in COMMANDS:
                    for on in (True, False) if COMMANDS[command] else (True,):
                        overheads = turn(tree, root, command, None if on else off)
                        steps.setdefault((name, command, on), []).extend(overheads)
                        firsts.setdefault((name, command, on), []).append(overheads[0])
                        statuses.append(status(root))
        git_status = statistics.median(statuses)
        ms = lambda s: f"{s * 1000:.0f} ms"  # noqa: E731
        rows = [("the store's first snapshot (once)", ms(first), "", "", "")]
        for name in trees:
            step = {key[1:]: statistics.median(values) for key, values in steps.items() if key[0] == name}
            read = step[("Read (no process)", True)]
            for command in ("true", "writes a file"):
                on, off_ = step[(command, True)], step[(command, False)]
                rows.append((f"{name}: `{command}`, checkpoints on less off ({ms(on)} - {ms(off_)})", ms(on - off_),
                             f"git status {ms(git_status)}", f"{(on - off_) / git_status:.2f}x",
                             f"<= {BUDGET}x"))  # fmt: skip
                rows.append((f"{name}: `{command}`, whole call: its step less a Read's ({ms(read)})", ms(on - read),
                             f"git status {ms(git_status)}", f"{(on - read) / git_status:.2f}x", ""))  # fmt: skip
                on, off_ = (statistics.median(firsts[(name, command, state)]) for state in (True, False))
                rows.append((f"{name}: `{command}`, a turn's first call, on less off ({ms(on)} - {ms(off_)})",
                             ms(on - off_), f"git status {ms(git_status)}", f"{(on - off_) / git_status:.2f}x",
                             ""))  # fmt: skip
    table(f"A Bash call on a {count:,}-file, {size / 2**20:.0f} MB git tree ({CALLS} calls a turn, {rounds} "
          f"rounds, medians of the steps)", rows)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("files", nargs="*", type=int, default=list(SIZES))
    parser.add_argument("--before", help="a git revision to measure in the same run")
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    trees = source_trees(options.before)
    with tempfile.TemporaryDirectory(prefix="narnat-path-") as folder:
        off = without_git(Path(folder) / "bin")
        for files in options.files:
            measure(files, trees, options.rounds, off)


if __name__ == "__main__":
    main()
