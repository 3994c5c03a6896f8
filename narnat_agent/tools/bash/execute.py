"""Running a command with no terminal, never hanging and never flooding: its output kept at both ends and spilled
to a private file with the API key masked, its whole process tree stopped at the timeout or on Ctrl-C, its environment
without the API key."""

import contextlib
import os
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO

from narnat_agent import state
from narnat_agent.i18n import N_, Said, ngettext
from narnat_agent.inert import without_escapes
from narnat_agent.keyguard import KEY_VARIABLES, MARK, can_be_key, confined
from narnat_agent.platform.processes import CALLS_TAG, TAG, start_tree, stop_tree
from narnat_agent.processes import HeldInterrupt, Spawn, start_thread
from narnat_agent.tools.base import RESULT_CHARS, Interrupted, Output, Result, ToolError
from narnat_agent.tools.bash.shells import Shell, chosen
from narnat_agent.tools.workspace import Workspace

LIMIT = RESULT_CHARS  # characters the model sees
KEEP = 4 * LIMIT  # raw bytes held in memory at each end; the spill file has everything
LOST = "the disk was full, so no file keeps them"  # where the output left out is, when the spill file failed
DRAIN_SECONDS = 1.5
POLL = 0.02  # seconds between looks at a long command
QUIET = {
    "PAGER": "cat", "GIT_PAGER": "cat", "MANPAGER": "cat", "SYSTEMD_PAGER": "", "LESS": "-FRX",
    "GIT_EDITOR": "true", "GIT_SEQUENCE_EDITOR": "true", "EDITOR": "true", "VISUAL": "true",
    "TERM": "dumb", "NO_COLOR": "1", "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "", "SSH_ASKPASS": "",
    "GCM_INTERACTIVE": "never", "GH_PROMPT_DISABLED": "1", "DEBIAN_FRONTEND": "noninteractive",
    "PIP_NO_INPUT": "1", "npm_config_yes": "true", "PYTHONUNBUFFERED": "1",
}  # fmt: skip


class _Masked:
    """Bytes written on with every occurrence of the key replaced by its marker, a key split across two writes too."""

    def __init__(self, file: IO[bytes], secret: str):
        self.file, self.key, self.held = file, secret.encode() if can_be_key(secret) else b"", b""

    def write(self, chunk: bytes) -> None:
        if not self.key:
            self.file.write(chunk)
            return
        data = (self.held + chunk).replace(self.key, MARK.encode())
        # held back: the longest end that could be the start of the key, until the next chunk says whether it is
        cut = next((n for n in range(min(len(self.key) - 1, len(data)), 0, -1) if self.key.startswith(data[-n:])), 0)
        self.file.write(data[: len(data) - cut])
        self.held = data[len(data) - cut :]

    def close(self) -> None:
        self.file.write(self.held)


def private(path: Path) -> IO[bytes]:
    """A new file for writing that only the user can read (a command's output may hold anything)."""
    return os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "wb")


class _Spill:
    """The spill file, written until the disk refuses (full, or over a quota): then it is removed, as it would hold
    only part of the output, and `lost` says so; the output is still read to its end, or the command would block."""

    def __init__(self, path: Path, secret: str):
        self.path, self.lost, self.file = path, False, None
        try:
            self.file = private(path)
        except OSError:
            self.lost = True
        self.masked = _Masked(self.file, secret) if self.file else None

    def write(self, chunk: bytes) -> None:
        if self.masked is not None and not self.lost:
            try:
                self.masked.write(chunk)
            except OSError:
                self._lose()

    def close(self) -> None:
        if self.masked is not None and not self.lost:
            try:
                self.masked.close()
                self.file.close()  # type: ignore[union-attr]
            except OSError:
                self._lose()

    def _lose(self) -> None:
        self.lost = True
        with contextlib.suppress(OSError):
            self.file.close()  # type: ignore[union-attr]  # its buffer cannot be written either
        self.path.unlink(missing_ok=True)


class _Output:
    """Reads the merged output on a thread: everything to a spill file (the key masked), the two ends kept in
    memory."""

    def __init__(self, stream, spill: Path, secret: str = ""):
        self.stream, self.spill, self.secret = stream, spill, secret
        self.head, self.tail_size, self.total, self.newlines, self.last = bytearray(), 0, 0, 0, b"\n"
        self.tail: deque[bytes] = deque()
        self.lost = False  # the spill file could not be written: the disk is full
        self.thread = start_thread(self._read)

    def _read(self) -> None:
        spill = _Spill(self.spill, self.secret)
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
        spill.close()
        self.lost = spill.lost

    @property
    def lines(self) -> int:
        """Lines the command printed, whether or not all of them are kept."""
        return self.newlines + (self.last != b"\n")

    def text(self, shown: str) -> tuple[str, bool]:
        """The cleaned output and whether part of it exists only in the spill file (shown: its name for Read, which
        the gap's line gives: what is kept of both ends may be short once cleaned, a progress bar's redraws)."""
        gap = self.total - len(self.head) - self.tail_size
        where = LOST if self.lost else f'Read(file_path="{shown}") has them'
        middle = f"\n[… {gap:,} bytes left out; {where}]\n".encode() if gap > 0 else b""
        raw = bytes(self.head) + middle + b"".join(self.tail)
        return clean(raw.decode("utf-8", errors="replace")), gap > 0


def clean(text: str) -> str:
    """No colour codes, and of each carriage-return redraw only what was left on screen."""
    text = without_escapes(text).replace("\r\n", "\n")
    return "\n".join(line.rsplit("\r", 1)[-1] for line in text.split("\n"))


def cut(text: str, lines: int, shown: str | None) -> str:
    """At most LIMIT characters: 30% head and 70% tail on line boundaries, with a marker naming the lines left
    out of the `lines` the command printed, and the Read call that pages through them in the spill file (shown;
    None when the disk was full)."""
    start, end = text[: int(LIMIT * 0.3)], text[-int(LIMIT * 0.7) :]
    head, tail = start.rsplit("\n", 1)[0], end.split("\n", 1)[-1]
    # a first line longer than the head's share is shown in part (its start), a last one longer than the tail's too;
    # one that fills its share exactly is shown whole
    within = "\n" not in start and text[len(start)] != "\n", "\n" not in end and text[-len(end) - 1] != "\n"
    first = head.count("\n") + (1 if within[0] else 2)
    last = lines - tail.count("\n") - (not tail.endswith("\n")) + within[1]
    call = f'Read(file_path="{shown}", offset={first})'
    pages, shows = (f"{call} pages through them", f"{call} shows them") if shown else (LOST, LOST)
    if not any(within):
        return f"{head}\n[… lines {first:,}–{last:,} of {lines:,} omitted; {pages}]\n{tail}"
    span = f"line {first:,}" if first == last else f"lines {first:,}–{last:,}"
    left = len(text) - len(head) - len(tail)
    return f"{head}\n[… {left:,} characters of {span} of {lines:,} omitted; {shows}]\n{tail}"


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
    user = _with_projects_virtualenv(_without_own_virtualenv(os.environ, root), root)
    kept = {k: v for k, v in user.items() if k not in KEY_VARIABLES and v not in secrets}
    return {**kept, **QUIET}


def _without_own_virtualenv(env: Mapping[str, str], root: Path | None) -> dict[str, str]:
    """Run from the virtualenv it was installed in, Narnat has that one's bin/ (Scripts\\ on Windows) on PATH (and in
    VIRTUAL_ENV when activated); a command would find Narnat's python and pip there instead of the project's."""
    own = os.path.realpath(sys.prefix)
    if sys.prefix == sys.base_prefix or (root and Path(own).is_relative_to(os.path.realpath(root))):
        return dict(env)
    activated = os.path.realpath(env.get("VIRTUAL_ENV", "")) == own
    kept = {k: v for k, v in env.items() if not (activated and k in ("VIRTUAL_ENV", "VIRTUAL_ENV_PROMPT"))}
    scripts = os.path.normcase(os.path.realpath(sysconfig.get_path("scripts")))
    path = [d for d in env.get("PATH", "").split(os.pathsep) if os.path.normcase(os.path.realpath(d)) != scripts]
    return {**kept, "PATH": os.pathsep.join(path)} if "PATH" in env else kept


PROJECT_VIRTUALENVS = (".venv", "venv")  # the names a project's own virtualenv goes by, at its root


def _with_projects_virtualenv(env: dict[str, str], root: Path | None) -> dict[str, str]:
    """The project's own virtualenv activated, as a person working there has it, when no other is: `python -m pytest`
    and `pip install` reach it (bin/, or Scripts\\ on Windows, first on PATH)."""
    if root is None or env.get("VIRTUAL_ENV"):
        return env
    for name in PROJECT_VIRTUALENVS:
        folder = root / name
        try:  # pathlib lets EACCES through: a folder the user cannot enter holds no virtualenv of theirs
            if not (folder / "pyvenv.cfg").is_file():
                continue
            programs = next(folder / d for d in ("bin", "Scripts") if (folder / d).is_dir())
        except (OSError, StopIteration):
            continue
        path = os.pathsep.join([str(programs), env["PATH"]]) if env.get("PATH") else str(programs)
        return {**env, "VIRTUAL_ENV": str(folder), "PATH": path}
    return env


def spawn_script(spawn: Spawn, shell: Shell, script: tuple[str, Path], ws: Workspace, stdout: int | IO[bytes],
                 job: str = "") -> subprocess.Popen:  # fmt: skip
    """shell running script, a text and the file it goes in on Windows (on Linux and macOS bash runs the text,
    confined), as a process tree that can be stopped whole, with no terminal; a background job's carries its tag in
    its environment and dies with Narnat."""
    text, file = script
    if shell.windows:
        with private(file) as out:
            out.write(text.encode("utf-8", "surrogateescape"))
        argv = shell.argv(file)
    else:
        argv = confined(text, ws.hidden)
    tagged = {TAG: job} if job else {CALLS_TAG: ws.jobs.calls_tag(ws.state_dir)}  # ends with Narnat
    env = {**environment(ws.secret, ws.root), **shell.variables} | tagged
    return start_tree(spawn, argv, dies_with_narnat=bool(job), cwd=ws.cwd, env=env, stdin=subprocess.DEVNULL,
                      stdout=stdout, stderr=subprocess.STDOUT)  # fmt: skip


def execute(command: str, ws: Workspace, timeout_s: float, spawn: Spawn = subprocess.Popen,
            shell: Shell | None = None) -> Finished:  # fmt: skip
    """Run command in shell (the workspace's by default) at the root of a process tree of its own, all of it stopped
    at the timeout or on Ctrl-C."""
    spills = state.spills(ws.state_dir)
    spills.mkdir(parents=True, exist_ok=True)
    spill = spills / f"bash-{datetime.now():%Y%m%d-%H%M%S-%f}.log"
    fd, name = tempfile.mkstemp(prefix="narnat-cwd-")
    os.close(fd)
    after = Path(name)
    shell = shell or chosen(ws.shell).shell
    script_file = after.with_name(after.name + shell.suffix)  # only a Windows shell's script is written there
    held, process = HeldInterrupt(), None
    with held:
        try:
            process = spawn_script(spawn, shell, (shell.script(command, after), script_file), ws, subprocess.PIPE)
        except OSError as e:  # on Windows, a shell removed since it was found, or one the setting names wrongly
            error = e.strerror or str(e)
            said = Said(N_("the shell could not start ({program}: {error})"), program=shell.program, error=error)
            raise ToolError(f"{said}.", said) from None
        finally:
            if process is None:
                _remove(after, script_file)
        output = _Output(process.stdout, spill, ws.secret)
    deadline = time.monotonic() + timeout_s
    timed_out = finished = cancelled = False
    try:
        held.release()
        # poll rather than Popen.wait(): on Ctrl-C that waits another 0.25 s for the child before raising; often at
        # first, as most commands end within milliseconds
        pause = 0.001
        while process.poll() is None and not timed_out:
            time.sleep(pause)
            pause = min(pause * 2, POLL)
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
        pipeline = _follow(ws, after, shell)
        _remove(script_file)
        if not finished and not cancelled:
            spill.unlink(missing_ok=True)
    text, partial = output.text(ws.show(spill))
    if len(text) > LIMIT:
        text = cut(text, output.lines, None if output.lost else ws.show(spill))
    elif not partial:
        spill.unlink(missing_ok=True)
    if cancelled:
        raise Interrupted(stopped(text, "cancelled by the user", timed_out=False))
    return Finished(text, None if timed_out else process.returncode, pipeline, output.lines)


def _remove(*files: Path) -> None:
    for file in files:
        file.unlink(missing_ok=True)


def _follow(ws: Workspace, after: Path, shell: Shell) -> tuple[int, ...]:
    """The working directory the command ended in becomes the next call's; returns the last pipeline's statuses."""
    try:
        final, _, statuses = os.fsdecode(after.read_bytes()).partition("\n")
    finally:
        after.unlink(missing_ok=True)
    final = shell.directory(final)
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
