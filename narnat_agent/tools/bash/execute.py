"""Running a command with no terminal, never hanging and never flooding: its output kept at both ends and spilled
to a file, its whole process group stopped at the timeout or on Ctrl-C, its environment without the API key."""

import os
import subprocess
import sys
import tempfile
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO

from narnat_agent import state
from narnat_agent.i18n import ngettext
from narnat_agent.keyguard import KEY_VARIABLES, confined
from narnat_agent.platform.processes import TAG, start_tree, stop_tree
from narnat_agent.processes import HeldInterrupt, Spawn, start_thread
from narnat_agent.tools.base import Interrupted, Output, Result
from narnat_agent.tools.files.textfile import without_escapes
from narnat_agent.tools.workspace import Workspace

LIMIT = 30_000  # characters the model sees
KEEP = 4 * LIMIT  # raw bytes held in memory at each end; the spill file has everything
DRAIN_SECONDS = 1.5
QUIET = {
    "PAGER": "cat", "GIT_PAGER": "cat", "MANPAGER": "cat", "SYSTEMD_PAGER": "", "LESS": "-FRX",
    "GIT_EDITOR": "true", "GIT_SEQUENCE_EDITOR": "true", "EDITOR": "true", "VISUAL": "true",
    "TERM": "dumb", "NO_COLOR": "1", "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "", "SSH_ASKPASS": "",
    "GCM_INTERACTIVE": "never", "GH_PROMPT_DISABLED": "1", "DEBIAN_FRONTEND": "noninteractive",
    "PIP_NO_INPUT": "1", "npm_config_yes": "true", "PYTHONUNBUFFERED": "1",
}  # fmt: skip


class _Output:
    """Reads the merged output on a thread: everything to a spill file, the two ends kept in memory."""

    def __init__(self, stream, spill: Path):
        self.stream, self.spill = stream, spill
        self.head, self.tail_size, self.total, self.newlines, self.last = bytearray(), 0, 0, 0, b"\n"
        self.tail: deque[bytes] = deque()
        self.thread = start_thread(self._read)

    def _read(self) -> None:
        with open(self.spill, "wb") as spill:
            while chunk := self.stream.read1(65536):
                spill.write(chunk)
                self.total += len(chunk)
                self.newlines, self.last = self.newlines + chunk.count(b"\n"), chunk[-1:]
                if len(self.head) < KEEP:
                    room = KEEP - len(self.head)
                    self.head += chunk[:room]
                    chunk = chunk[room:]
                if chunk:
                    self.tail.append(chunk)
                    self.tail_size += len(chunk)
                    while self.tail_size - len(self.tail[0]) >= KEEP:
                        self.tail_size -= len(self.tail.popleft())

    @property
    def lines(self) -> int:
        """Lines the command printed, whether or not all of them are kept."""
        return self.newlines + (self.last != b"\n")

    def text(self) -> tuple[str, bool]:
        """The cleaned output and whether part of it exists only in the spill file."""
        gap = self.total - len(self.head) - self.tail_size
        middle = f"\n[… {gap:,} bytes …]\n".encode() if gap > 0 else b""
        raw = bytes(self.head) + middle + b"".join(self.tail)
        return clean(raw.decode("utf-8", errors="replace")), gap > 0


def clean(text: str) -> str:
    """No colour codes, and of each carriage-return redraw only what was left on screen."""
    text = without_escapes(text).replace("\r\n", "\n")
    return "\n".join(line.rsplit("\r", 1)[-1] for line in text.split("\n"))


def cut(text: str, lines: int, shown: str) -> str:
    """At most LIMIT characters: 30% head and 70% tail on line boundaries, with a marker naming the lines left
    out of the `lines` the command printed, and the Read call that pages through them in the spill file (shown)."""
    head = text[: int(LIMIT * 0.3)].rsplit("\n", 1)[0]
    tail = text[-int(LIMIT * 0.7) :].split("\n", 1)[-1]
    first, last = head.count("\n") + 2, lines - tail.count("\n") - (not tail.endswith("\n"))
    call = f'Read(file_path="{shown}", offset={first})'
    return f"{head}\n[… lines {first:,}–{last:,} of {lines:,} omitted; {call} pages through them]\n{tail}"


def _stop(process: subprocess.Popen, output: _Output) -> None:
    """The command's whole process tree asked to stop, then killed once the output closes (or two seconds pass).
    The pipe, not the tree, tells when it is over: dead grandchildren linger as zombies until init reaps them."""
    stop_tree(process, output.thread.join, last=DRAIN_SECONDS)


@dataclass(frozen=True)
class Finished:
    text: str
    code: int | None  # None when the command was stopped at its timeout
    pipeline: tuple[int, ...]  # the exit status of each stage of the last pipeline
    lines: int  # all the lines it printed; `text` may keep fewer


def environment(secret: str = "", root: Path | None = None) -> dict[str, str]:
    """The command's environment: the user's (Narnat's, without its own virtualenv unless that is the project's),
    without the API key under any name, quietened for no terminal."""
    secrets = {os.environ[name] for name in KEY_VARIABLES if os.environ.get(name)} | ({secret} if secret else set())
    user = _without_own_virtualenv(os.environ, root)
    kept = {k: v for k, v in user.items() if k not in KEY_VARIABLES and v not in secrets}
    return {**kept, **QUIET}


def _without_own_virtualenv(env: Mapping[str, str], root: Path | None) -> dict[str, str]:
    """Run from the virtualenv it was installed in, Narnat has that one's bin/ on PATH (and in VIRTUAL_ENV when
    activated); a command would find Narnat's python and pip there instead of the project's."""
    own = os.path.realpath(sys.prefix)
    if sys.prefix == sys.base_prefix or (root and Path(own).is_relative_to(os.path.realpath(root))):
        return dict(env)
    activated = os.path.realpath(env.get("VIRTUAL_ENV", "")) == own
    kept = {k: v for k, v in env.items() if not (activated and k in ("VIRTUAL_ENV", "VIRTUAL_ENV_PROMPT"))}
    path = [d for d in env.get("PATH", "").split(os.pathsep) if os.path.realpath(d) != os.path.join(own, "bin")]
    return {**kept, "PATH": os.pathsep.join(path)} if "PATH" in env else kept


def spawn_script(spawn: Spawn, script: str, ws: Workspace, stdout: int | IO[bytes], job: str = "") -> subprocess.Popen:
    """bash running script, confined, as a process tree that can be stopped whole, with no terminal; a background
    job's carries its tag in its environment and dies with Narnat."""
    env = environment(ws.secret, ws.root) | ({TAG: job} if job else {})
    return start_tree(spawn, confined(script, ws.hidden), dies_with_narnat=bool(job), cwd=ws.cwd, env=env,
                      stdin=subprocess.DEVNULL, stdout=stdout, stderr=subprocess.STDOUT)  # fmt: skip


def execute(command: str, ws: Workspace, timeout_s: float, spawn: Spawn = subprocess.Popen) -> Finished:
    """Run command in its own session, with its whole process group stopped at the timeout or on Ctrl-C."""
    spills = state.spills(ws.state_dir)
    spills.mkdir(parents=True, exist_ok=True)
    spill = spills / f"bash-{datetime.now():%Y%m%d-%H%M%S-%f}.log"
    fd, after = tempfile.mkstemp(prefix="narnat-cwd-")
    os.close(fd)
    # PIPESTATUS and $? are read in one assignment, before anything else can change them
    script = (f'{command}\n__narnat_pipe="${{PIPESTATUS[*]}}" __narnat_status=$?\n'
              f'{{ pwd -P; echo "$__narnat_pipe"; }} > "{after}"\nexit $__narnat_status\n')  # fmt: skip
    held = HeldInterrupt()
    with held:
        process = spawn_script(spawn, script, ws, subprocess.PIPE)
        output = _Output(process.stdout, spill)
    deadline = time.monotonic() + timeout_s
    timed_out = finished = cancelled = False
    try:
        held.release()
        # poll rather than Popen.wait(): on Ctrl-C that waits another 0.25 s for the child before raising
        while process.poll() is None and not timed_out:
            time.sleep(0.02)
            timed_out = time.monotonic() > deadline
        finished = True
    except KeyboardInterrupt:
        cancelled = True
    finally:  # also on Ctrl-C: nothing of the command outlives the call, and no file is left that nobody names
        if timed_out or process.poll() is None:
            _stop(process, output)
        output.thread.join(DRAIN_SECONDS)
        if output.thread.is_alive():  # a background child still holds the pipe
            _stop(process, output)
        process.wait()
        pipeline = _follow(ws, Path(after))
        if not finished and not cancelled:
            spill.unlink(missing_ok=True)
    text, partial = output.text()
    if len(text) > LIMIT:
        text = cut(text, output.lines, ws.show(spill))
    elif not partial:
        spill.unlink(missing_ok=True)
    if cancelled:
        raise Interrupted(stopped(text, "cancelled by the user", timed_out=False))
    return Finished(text, None if timed_out else process.returncode, pipeline, output.lines)


def _follow(ws: Workspace, after: Path) -> tuple[int, ...]:
    """The working directory the command ended in becomes the next call's; returns the last pipeline's statuses."""
    try:
        final, _, statuses = after.read_text(encoding="utf-8", errors="surrogateescape").partition("\n")
    finally:
        after.unlink(missing_ok=True)
    if final and Path(final).is_dir():
        ws.cwd = Path(final)
    return tuple(int(s) for s in statuses.split() if s.isdigit())


TAIL = 8  # lines of output kept for the screen


def line_count(text: str) -> int:
    return text.count("\n") + bool(text and not text.endswith("\n"))


def stopped(text: str, why: str, timed_out: bool, notes: tuple[str, ...] | list[str] = ()) -> Result:
    """A command stopped before it ended (timeout or cancel): the output it had printed, and that it was stopped."""
    lines = line_count(text)
    if timed_out:
        summary = ngettext("timed out · {n} line", "timed out · {n} lines", lines).format(n=lines)
    else:
        summary = ngettext("cancelled · {n} line", "cancelled · {n} lines", lines).format(n=lines)
    shown = "the output so far is above" if text.strip() else "no output"
    status = "; ".join([f"{why}; the command and its children were stopped; {shown}", *notes])
    output = Output(tuple(text.splitlines()[-TAIL:]), lines, lines)
    return Result(f"{text.rstrip()}\n({status})".lstrip("\n"), summary, True, output)
