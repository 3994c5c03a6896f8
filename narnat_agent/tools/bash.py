"""Bash: run a command in the project, never hanging, never flooding, and asking before anything deletes files."""

import os
import re
import signal
import subprocess
import tempfile
import threading
import time
from collections import deque
from datetime import datetime
from pathlib import Path

from narnat_agent.tools.support.shell_rules import analyze
from narnat_agent.tools.support.shell_syntax import parse
from narnat_agent.tools.workspace import Output, Result, Tool, ToolError, Workspace

MAX_TIMEOUT_MS = 600_000
LIMIT = 30_000  # characters the model sees
KEEP = 4 * LIMIT  # raw bytes held in memory at each end; the spill file has everything
DRAIN_SECONDS = 1.5
ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
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
        self.head, self.tail, self.tail_size, self.total = bytearray(), deque(), 0, 0
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        with open(self.spill, "wb") as spill:
            while chunk := self.stream.read1(65536):
                spill.write(chunk)
                self.total += len(chunk)
                if len(self.head) < KEEP:
                    room = KEEP - len(self.head)
                    self.head += chunk[:room]
                    chunk = chunk[room:]
                if chunk:
                    self.tail.append(chunk)
                    self.tail_size += len(chunk)
                    while self.tail_size - len(self.tail[0]) >= KEEP:
                        self.tail_size -= len(self.tail.popleft())

    def text(self) -> tuple[str, bool]:
        """The cleaned output and whether part of it exists only in the spill file."""
        gap = self.total - len(self.head) - self.tail_size
        middle = f"\n[… {gap:,} bytes …]\n".encode() if gap > 0 else b""
        raw = bytes(self.head) + middle + b"".join(self.tail)
        return clean(raw.decode("utf-8", errors="replace")), gap > 0


def clean(text: str) -> str:
    """No colour codes, and of each carriage-return redraw only what was left on screen."""
    text = ANSI.sub("", text).replace("\r\n", "\n")
    return "\n".join(line.rsplit("\r", 1)[-1] for line in text.split("\n"))


def cut(text: str, spill: Path, shown: str) -> str:
    """At most LIMIT characters: 30% head and 70% tail on line boundaries, with a marker naming the spill file."""
    head = text[: int(LIMIT * 0.3)].rsplit("\n", 1)[0]
    tail = text[-int(LIMIT * 0.7) :].split("\n", 1)[-1]
    omitted = len(text) - len(head) - len(tail)
    return f"{head}\n[… {omitted:,} characters omitted; full output: {shown} — Read it with offset/limit]\n{tail}"


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


def execute(command: str, ws: Workspace, timeout_s: float) -> tuple[str, int | None, bool]:
    """Run command in its own session; returns output, exit code (None if killed) and whether it timed out."""
    spills = ws.state_dir / "spills"
    spills.mkdir(parents=True, exist_ok=True)
    spill = spills / f"bash-{datetime.now():%Y%m%d-%H%M%S-%f}.log"
    fd, cwd_file = tempfile.mkstemp(prefix="narnat-cwd-")
    os.close(fd)
    script = f'{command}\n__narnat_status=$?\npwd -P > "{cwd_file}"\nexit $__narnat_status\n'
    process = subprocess.Popen(
        ["bash", "--noprofile", "--norc", "-c", script], cwd=ws.cwd, env={**os.environ, **QUIET},
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    output = _Output(process.stdout, spill)
    deadline = time.monotonic() + timeout_s
    timed_out = False
    try:
        # poll rather than Popen.wait(): on Ctrl-C that waits another 0.25 s for the child before raising
        while process.poll() is None and not timed_out:
            time.sleep(0.02)
            timed_out = time.monotonic() > deadline
    finally:  # also on Ctrl-C: nothing of the command outlives the call
        if timed_out or process.poll() is None:
            _stop(process, output)
        output.thread.join(DRAIN_SECONDS)
        if output.thread.is_alive():  # a background child still holds the pipe
            _stop(process, output)
        process.wait()
        _follow_cwd(ws, Path(cwd_file))
    text, partial = output.text()
    if len(text) > LIMIT or partial:
        text = cut(text, spill, ws.show(spill)) if len(text) > LIMIT else text
    else:
        spill.unlink(missing_ok=True)
    return text, None if timed_out else process.returncode, timed_out


def _follow_cwd(ws: Workspace, cwd_file: Path) -> None:
    """The working directory the command ended in becomes the next call's."""
    try:
        final = cwd_file.read_text().strip()
    finally:
        cwd_file.unlink(missing_ok=True)
    if final and Path(final).is_dir():
        ws.cwd = Path(final)


def run(args: dict, ws: Workspace) -> Result:
    command = args["command"]
    if not command.strip():
        raise ToolError("the command is empty.")
    verdict = analyze(command)
    if verdict.file_ops:
        raise ToolError(f"not run — Bash is for running programs: {'; '.join(dict.fromkeys(verdict.file_ops))}.")
    if verdict.interactive:
        raise ToolError(f"not run — it would wait for a terminal: {'; '.join(dict.fromkeys(verdict.interactive))}.")
    if verdict.deletions:
        reason = "; ".join(dict.fromkeys(verdict.deletions))
        if ws.confirm is None:
            raise ToolError(f"not run — it needs the user's confirmation ({reason}), and this headless run "
                            "cannot ask (the user can allow it with --yes).")  # fmt: skip
        if not ws.confirm(command, reason):
            raise ToolError(f"the user declined to run it ({reason}). Do not delete these files another way; "
                            "ask the user what they want.")  # fmt: skip
    if not ws.cwd.is_dir():
        ws.cwd = ws.root
    timeout_ms = min(args.get("timeout") or ws.bash_timeout_ms, MAX_TIMEOUT_MS)
    text, code, timed_out = execute(command, ws, timeout_ms / 1000)
    return _result(_reporter(command), text, code, timed_out, timeout_ms)


TAIL = 8  # lines of output kept for the screen


def _reporter(command: str) -> str | None:
    """The program whose exit code the shell reports: the last top-level command."""
    commands = [c for c in parse(command).commands if not c.consumed]
    return commands[-1].name if commands else None


def _result(reporter: str | None, text: str, code: int | None, timed_out: bool, timeout_ms: int) -> Result:
    lines = text.count("\n") + bool(text and not text.endswith("\n"))
    if timed_out:
        status = f"timed out after {timeout_ms / 1000:g} s; the command and its children were stopped; partial output"
        return Result(f"{text}\n({status})", f"timed out · {lines} lines", True)
    benign = code == 1 and reporter in NOT_FAILURES
    note = " — no match / a difference, not an error" if benign else ""
    body = f"{text.rstrip()}\n" if text.strip() else "(no output)\n"
    output = Output(tuple(text.splitlines()[-TAIL:]), lines, lines)
    return Result(f"{body}(exit code {code}{note})", f"exit {code} · {lines} lines", bool(code) and not benign, output)


TOOL = Tool(
    name="Bash",
    description=(
        "Run a bash command (tests, builds, git, package managers, scripts). No terminal: editors, pagers and "
        "REPLs are refused. The working directory "
        "persists between calls; environment variables do not. Commands that delete files ask the user first. "
        "Output is cut at 30000 characters (the full text is saved to a file you can Read). "
        "Timeout in ms, default 120000, max 600000."
    ),
    parameters={
        "type": "object",
        "properties": {
            "command": {"type": "string"},
            "timeout": {"type": "integer", "description": "Milliseconds (max 600000)"},
            "description": {"type": "string", "description": "What it does, in 5-10 words"},
        },
        "required": ["command"],
    },
    run=run,
    target=lambda args: args.get("command", ""),  # the UI cuts it, visibly
)
