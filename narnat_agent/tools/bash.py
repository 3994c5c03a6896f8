"""Bash: run a command in the project, never hanging, never flooding, and asking before anything deletes files."""

import dataclasses
import os
import signal
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
from narnat_agent.i18n import N_, Said, _, listed, ngettext
from narnat_agent.keyguard import KEY_VARIABLES, confined
from narnat_agent.processes import HeldInterrupt, Spawn, start_thread
from narnat_agent.safety import analyze, last_pipeline
from narnat_agent.textfile import without_escapes
from narnat_agent.tools.base import Changes, Interrupted, Output, Result, Tool, ToolError
from narnat_agent.tools.workspace import Workspace
from narnat_agent.verification import verified

MAX_TIMEOUT_MS = 600_000
LIMIT = 30_000  # characters the model sees
KEEP = 4 * LIMIT  # raw bytes held in memory at each end; the spill file has everything
DRAIN_SECONDS = 1.5
NOT_FAILURES = {"grep", "egrep", "fgrep", "rg", "diff", "cmp", "test", "["}  # exit 1 means "no" for these
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
    """SIGTERM to the command's whole process group, then SIGKILL to whatever is left once the output closes
    (or two seconds pass). The pipe, not the group, tells when it is over: dead grandchildren linger as
    zombies until init reaps them."""
    for sig, wait in ((signal.SIGTERM, 2.0), (signal.SIGKILL, DRAIN_SECONDS)):
        try:
            os.killpg(process.pid, sig)
        except (ProcessLookupError, PermissionError):
            return
        output.thread.join(wait)


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


def _bash(spawn: Spawn, script: str, ws: Workspace, stdout: int | IO[bytes]) -> subprocess.Popen:
    """bash running script, confined, in its own session (so its whole process group can be stopped), with no
    terminal."""
    return spawn(confined(script, ws.hidden), cwd=ws.cwd, env=environment(ws.secret, ws.root),
                 stdin=subprocess.DEVNULL, stdout=stdout, stderr=subprocess.STDOUT, start_new_session=True)  # fmt: skip


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
        process = _bash(spawn, script, ws, subprocess.PIPE)
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
        raise Interrupted(_stopped(text, "cancelled by the user", timed_out=False))
    return Finished(text, None if timed_out else process.returncode, pipeline, output.lines)


def _follow(ws: Workspace, after: Path) -> tuple[int, ...]:
    """The working directory the command ended in becomes the next call's; returns the last pipeline's statuses."""
    try:
        final, _, statuses = after.read_text().partition("\n")
    finally:
        after.unlink(missing_ok=True)
    if final and Path(final).is_dir():
        ws.cwd = Path(final)
    return tuple(int(s) for s in statuses.split() if s.isdigit())


def run(args: dict, ws: Workspace) -> Result:
    command = args["command"]
    if not command.strip():
        raise ToolError("the command is empty.", Said(N_("the command is empty")))
    _check(command, ws, background=bool(args.get("run_in_background")))
    if not ws.cwd.is_dir():
        ws.cwd = ws.root
    if args.get("run_in_background"):
        return _background(command, ws)
    asked = args.get("timeout") or ws.bash_timeout_ms
    timeout_ms = min(asked, MAX_TIMEOUT_MS)
    finished = execute(command, ws, timeout_ms / 1000)
    notes = [f"timeout {asked} ms is above the maximum; it ran with {MAX_TIMEOUT_MS} ms"] if asked > timeout_ms else []
    if ws.cwd != ws.root:
        notes.append(f"Bash's working directory: {ws.cwd} — file paths in the other tools still start at the "
                     "project root")  # fmt: skip
    return _result(command, finished, timeout_ms, notes + ws.jobs.news())


def _background(command: str, ws: Workspace) -> Result:
    """Start a command that keeps running, its output going to a file the model Reads; it returns at once."""
    logs = state.jobs(ws.state_dir)
    logs.mkdir(parents=True, exist_ok=True)
    log = logs / f"job-{len(ws.jobs.started) + 1}-{datetime.now():%Y%m%d-%H%M%S}.log"
    job = ws.jobs.start(command, log, lambda out: _bash(subprocess.Popen, command, ws, out))
    news = "".join(f"\n({line})" for line in ws.jobs.news())
    text = (f"Started in the background as job {job.number}, pid {job.pid} (its own process group). Its output goes "
            f"to {ws.show(log)}: Read it (it grows). Later Bash and Read results say when it ends. "
            f"Stop it with: kill -- -{job.pid}{news}")  # fmt: skip
    return Result(text, _("job {number} started in the background · pid {pid}").format(number=job.number, pid=job.pid))


def _check(command: str, ws: Workspace, background: bool) -> None:
    """Refuse file operations and terminal programs (in the background nothing waits for them: a server is what it
    is for); ask the user before anything that deletes."""
    verdict = analyze(command, cwd=ws.cwd)
    if verdict.file_ops:
        why = listed(list(dict.fromkeys(verdict.file_ops)))
        raise ToolError(f"not run — Bash is for running programs: {why}.", Said(N_("not run: {why}"), why=why))
    if verdict.interactive and not background:
        why = listed(list(dict.fromkeys(verdict.interactive)))
        raise ToolError(f"not run — it would wait for a terminal: {why}.", Said(N_("not run: {why}"), why=why))
    if verdict.deletions:
        reason = listed(list(dict.fromkeys(verdict.deletions)))
        ws.ask(command, reason, Said(N_("Do not destroy it another way; ask the user what they want.")))


TAIL = 8  # lines of output kept for the screen


def _failed_stages(stages: list[list[str | None]], pipeline: tuple[int, ...]) -> list[str]:
    """Stages before the last that failed: the pipeline's exit code only tells about the last one. A stage stopped
    by SIGPIPE (141, its reader had enough) or a grep/diff answering "no" (1) did not fail."""
    if len(pipeline) != len(stages) or len(stages) < 2:
        return []
    return [f"stage {n} of the pipeline ({stage[0] if stage and stage[0] else '…'}) exited {status}"
            for n, (stage, status) in enumerate(zip(stages[:-1], pipeline, strict=False), 1)
            if status not in (0, 141) and not (status == 1 and _name(stage) in NOT_FAILURES)]  # fmt: skip


def _name(stage: list[str | None]) -> str | None:
    """The program a pipeline stage runs, without its folder."""
    return stage[0].rsplit("/", 1)[-1] if stage and stage[0] else None


def _result(command: str, finished: Finished, timeout_ms: int, notes: list[str]) -> Result:
    text, code = finished.text, finished.code
    stages = last_pipeline(command)
    verification = verified(stages, finished.code, finished.pipeline)
    if code is None:
        stopped = _stopped(text, f"timed out after {timeout_ms / 1000:g} s", True, notes)
        return dataclasses.replace(stopped, verification=verification)
    benign = code == 1 and bool(stages) and _name(stages[-1]) in NOT_FAILURES
    failed = _failed_stages(stages, finished.pipeline)
    status = "; ".join([f"exit code {code}" + (" — no match / a difference, not an error" if benign else ""),
                        *failed, *notes])  # fmt: skip
    body = f"{text.rstrip()}\n" if text.strip() else "(no output)\n"
    shown = _line_count(text)
    output = Output(tuple(text.splitlines()[-TAIL:]), finished.lines, min(shown, finished.lines))
    n = finished.lines
    if failed:
        summary = ngettext("exit {code} · a pipeline stage failed · {n} line",
                           "exit {code} · a pipeline stage failed · {n} lines", n).format(code=code, n=n)  # fmt: skip
    else:
        summary = ngettext("exit {code} · {n} line", "exit {code} · {n} lines", n).format(code=code, n=n)
    return Result(f"{body}({status})", summary, bool(failed) or (bool(code) and not benign), output, verification)


def _line_count(text: str) -> int:
    return text.count("\n") + bool(text and not text.endswith("\n"))


def _stopped(text: str, why: str, timed_out: bool, notes: tuple[str, ...] | list[str] = ()) -> Result:
    """A command stopped before it ended (timeout or cancel): the output it had printed, and that it was stopped."""
    lines = _line_count(text)
    if timed_out:
        summary = ngettext("timed out · {n} line", "timed out · {n} lines", lines).format(n=lines)
    else:
        summary = ngettext("cancelled · {n} line", "cancelled · {n} lines", lines).format(n=lines)
    shown = "the output so far is above" if text.strip() else "no output"
    status = "; ".join([f"{why}; the command and its children were stopped; {shown}", *notes])
    output = Output(tuple(text.splitlines()[-TAIL:]), lines, lines)
    return Result(f"{text.rstrip()}\n({status})".lstrip("\n"), summary, True, output)


TOOL = Tool(
    name="Bash",
    description=(
        "Run a bash command (tests, builds, git, package managers, scripts). No terminal: editors, pagers and "
        "REPLs are refused. Its working directory "
        "persists between calls (a result names it when it is not the project root); environment variables do not. "
        "Commands that delete files or destroy data ask the user first. "
        "Output is cut at 30000 characters (the full text is saved to a file you can Read). "
        "Timeout in ms, default 120000, max 600000."
    ),
    parameters={
        "type": "object",
        "properties": {
            "command": {"type": "string"},
            "timeout": {"type": "integer", "description": "Milliseconds (max 600000)"},
            "description": {"type": "string", "description": "What it does, in 5-10 words"},
            "run_in_background": {
                "type": "boolean",
                "description": "Start it and return at once (servers, "
                "watchers, long builds); its output goes to a file you Read",
            },
        },
        "required": ["command"],
    },
    run=run,
    target=lambda args: args.get("command", ""),  # the UI cuts it, visibly
    changes=lambda args: Changes(anything=True),
)
