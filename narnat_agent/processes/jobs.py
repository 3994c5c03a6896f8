"""Commands that keep running (dev servers, watchers, long builds): each a process tree of its own whose output goes
to a log of bounded size, listed for the user, and stopped, tree and all, when Narnat ends or when it has printed
more than the limit. Nothing of a job outlives Narnat: a Job object on Windows; on Linux the job's first process
dies with Narnat and, at the next start, what is left of an earlier Narnat's jobs is found by a tag in its
environment and ended (`sweep`). What a foreground Bash call leaves running carries a tag of the run's and ends
with the jobs the same way."""

import contextlib
import errno
import os
import secrets
import stat
import subprocess
import threading
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import IO

from narnat_agent import state
from narnat_agent.i18n import N_, Said
from narnat_agent.platform.files import open_now
from narnat_agent.platform.processes import alive, kill_tagged, stop_tree
from narnat_agent.processes import HeldInterrupt, start_thread

MB = 1 << 20
HEAD = MB  # bytes of a job's first output the log keeps
TAIL = MB  # at most this many of its last output, once the log is full; at least half of it
LIMIT_MB = 100  # output after which a job is stopped, unless the settings say otherwise (job_output_limit_mb)
DRAIN = 1.0  # seconds the rest of an ended job's output is waited for, once
RUNNING = ".running"  # beside a job's log while it runs: Narnat's pid and the job's tag, for the next start's sweep
LEFT_OUT = "\n[… {gap:,} bytes of output left out here: this log keeps the first {head:,} and the last {tail:,} …]\n"
# the last line of the log of a job stopped before it ended on its own, for whoever Reads it in a later run
AT_EXIT = "\n[Narnat stopped this job when it exited, at {time}: the command had not finished.]\n"
AT_START = "\n[Narnat stopped this job at {time}, when it next started: the run that started it had ended without \
stopping it; the command had not finished.]\n"
STOPPED = "[Narnat stopped this job "


@dataclass
class Job:
    number: int
    command: str
    process: subprocess.Popen
    log: Path
    output: "JobLog"
    tag: str  # in the environment of each of its processes: what finds them, even outside its tree
    told: bool = False  # the model has been told how it ended
    given: int = 0  # bytes of its log the model has been given by waiting for it or has Read
    recorded: bool = False  # its end is among the turn's verifications (when it verifies): counted once

    @property
    def pid(self) -> int:
        return self.process.pid  # also the process group's id on POSIX: it leads its own session

    @property
    def state(self) -> str:
        """How it stands, in English for the model and sayable again in the interface's language."""
        code = self.process.poll()
        if code is None:
            return Said(N_("running"))
        if self.output.over:
            return Said(N_("was stopped: its output passed {mb} MB (setting job_output_limit_mb)"),
                        mb=f"{self.output.limit // MB:,}")  # fmt: skip
        if code >= 0:
            return Said(N_("exited with code {code}"), code=str(code))
        return Said(N_("was stopped by signal {signal}"), signal=str(-code))

    def settled(self, seconds: float) -> None:
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(seconds)


@dataclass
class JobLog:
    """Copies a job's output into its log as it comes: the first HEAD bytes, then a rolling tail of the last TAIL
    bytes at most, with a line saying how much was left out between them; past `limit` bytes, `on_limit` runs."""

    path: Path
    limit: int
    on_limit: Callable[[], None] = lambda: None
    total: int = 0
    over: bool = False
    tail: deque[bytes] = field(default_factory=deque)
    kept: int = 0  # bytes in tail
    thread: threading.Thread | None = None
    waited: bool = False

    def follow(self, stream: IO[bytes]) -> None:
        self.thread = start_thread(self._copy, stream)

    def _copy(self, stream: IO[bytes]) -> None:
        with stream, open(self.path, "r+b") as log:
            while chunk := stream.read1(65536):  # type: ignore[attr-defined]
                if self.over:
                    continue  # what a stopping job still prints
                self._write(log, chunk)
                if self.total > self.limit:
                    self.over = True
                    log.write(f"\n[Narnat stopped this job: its output passed {self.limit // MB:,} MB.]\n".encode())
                    log.flush()
                    self.on_limit()

    def _write(self, log: IO[bytes], chunk: bytes) -> None:
        head = max(0, HEAD - self.total)
        self.total += len(chunk)
        if head:
            log.write(chunk[:head])
            chunk = chunk[head:]
        if chunk:
            self.tail.append(chunk)
            self.kept += len(chunk)
            if self.kept <= TAIL:
                log.write(chunk)
            else:  # the log is full: the head stays, then the gap's line and the newest half of TAIL
                data = b"".join(self.tail)[-(TAIL // 2) :]
                self.tail, self.kept = deque([data]), len(data)
                gap = self.total - HEAD - len(data)
                log.seek(HEAD)
                log.write(LEFT_OUT.format(gap=gap, head=HEAD, tail=len(data)).encode() + data)
                log.truncate()
        log.flush()

    def finish(self, seconds: float) -> None:
        """Wait up to seconds, once, for the rest of the output of a job that has ended (a child it left running
        may hold its output open for ever)."""
        if self.thread is not None and not self.waited:
            self.waited = True
            self.thread.join(seconds)


class Jobs:
    """The background commands of this run, in the order they started."""

    def __init__(self, limit_mb: int = LIMIT_MB) -> None:
        self.started: list[Job] = []
        self.limit = limit_mb * MB
        self.calls: tuple[str, Path] | None = None  # the tag of every Bash call's processes, and its marker

    def calls_tag(self, state_dir: Path) -> str:
        """The tag in the environment of every command a Bash call runs, so that what one leaves running apart
        from its output (a server started with `&`, a daemon that forked away) ends with the jobs; its marker among
        the jobs' logs lets the next start's sweep end them when Narnat was killed."""
        if self.calls is None:
            tag, folder = secrets.token_hex(8), state.jobs(state_dir)
            folder.mkdir(parents=True, exist_ok=True)
            state.ignore_runtime_files(state_dir)  # the marker may be the first file there: kept out of git
            marker = folder / f"calls-{os.getpid()}-{tag}{RUNNING}"
            marker.write_text(f"{os.getpid()} {tag}\n", encoding="utf-8")
            self.calls = tag, marker
        return self.calls[0]

    def start(self, command: str, log: Path, spawn: Callable[[str], subprocess.Popen]) -> Job:
        """A job whose process tree spawn(tag) starts (its output a pipe, tag in its environment), its output going
        into log; a Ctrl-C meanwhile stops it before it goes on."""
        held = HeldInterrupt()
        tag = secrets.token_hex(8)
        log.write_bytes(b"")
        running = log.with_name(log.name + RUNNING)
        running.write_text(f"{os.getpid()} {tag}\n", encoding="utf-8")
        with held:
            process = spawn(tag)
            output = JobLog(log, self.limit)
            job = Job(len(self.started) + 1, command, process, log, output, tag)
            output.on_limit = lambda: self.stop(job)
            self.started.append(job)
            output.follow(process.stdout)  # type: ignore[arg-type]
        try:
            held.release()
        except KeyboardInterrupt:
            self.stop(job)
            raise
        return job

    def of_log(self, path: Path) -> Job | None:
        """The job writing to path, its output all in the log if it has ended."""
        job = next((job for job in self.started if job.log == path), None)
        if job is not None and job.process.poll() is not None:
            job.output.finish(DRAIN)
        return job

    def read_through(self, log: Path, line: int) -> None:
        """The model has Read this run's job's log through `line`: waiting for the job gives what comes after it
        (a line still being written is given again, whole)."""
        job = next((job for job in self.started if job.log == log), None)
        if job is None:
            return
        through = 0
        with contextlib.suppress(OSError), _open_log(log) as data:
            for n, text in enumerate(data, 1):
                if n > line or not text.endswith(b"\n"):
                    break
                through += len(text)
        job.given = max(job.given, through)

    @staticmethod
    def first_new_line(job: Job) -> int:
        """The line of the job's log that its output not yet given starts at."""
        try:
            with _open_log(job.log) as log:
                return log.read(job.given).count(b"\n") + 1
        except OSError:
            return 1

    @staticmethod
    def new_output(job: Job, limit: int) -> str:
        """The job's output since it was last given, its last `limit` characters when there is more."""
        try:
            with _open_log(job.log) as log:
                log.seek(job.given)
                data = log.read()
        except OSError:
            return ""
        job.given += len(data)
        text = data.decode(errors="replace")
        return text if len(text) <= limit else f"[… {len(text) - limit:,} characters before these]\n{text[-limit:]}"

    def news(self) -> list[str]:
        """Jobs that ended since the model was last told, said once each."""
        ended = [job for job in self.started if not job.told and job.process.poll() is not None]
        for job in ended:
            job.told = True
        return [f"background job {job.number} ({job.command}) {job.state}" for job in ended]

    def running(self) -> list[Job]:
        return [job for job in self.started if job.process.poll() is None]

    def stop_all(self) -> list[Job]:
        """Stop every job's process tree (what a job left running after its first process ended, too); the jobs
        that were still running."""
        running = self.running()
        for job in self.started:
            self.stop(job)
        for job in running:
            job.output.finish(DRAIN)  # its last output first, then the line saying it did not finish
            _stopped_line(job.log, AT_EXIT)
        if self.calls is not None:
            kill_tagged(self.calls[0])
            self.calls[1].unlink(missing_ok=True)
        return running

    @staticmethod
    def stop(job: Job) -> None:
        """The job's whole tree asked to stop, then killed after GRACE seconds; what left its tree too."""
        stop_tree(job.process, job.settled)
        kill_tagged(job.tag)
        job.process.wait()
        job.log.with_name(job.log.name + RUNNING).unlink(missing_ok=True)


def _open_log(log: Path) -> IO[bytes]:
    """A job's log opened to be read without waiting: a FIFO a command put in its place would hold the run (and
    `wait %N` past its timeout); anything but a regular file is an OSError, as a missing log is."""
    fd = open_now(log)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(log))
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def sweep(folder: Path) -> int:
    """What is left of the background jobs of a Narnat that ended without stopping them (killed, or the machine
    lost power) ended now; how many processes that was. A job of a Narnat still running is left alone."""
    ended = 0
    for running in folder.glob(f"*{RUNNING}"):
        with contextlib.suppress(OSError, ValueError):
            owner, tag = running.read_text(encoding="utf-8").split()
            if int(owner) != os.getpid() and alive(int(owner)):
                continue
            if killed := kill_tagged(tag):
                _stopped_line(running.with_name(running.name.removesuffix(RUNNING)), AT_START)
            ended += killed
            running.unlink()
    return ended


def _stopped_line(log: Path, line: str) -> None:
    """The line that ends the log of a job Narnat stopped, with the time; a Bash call's marker has no log."""
    if log.name.startswith("job-") and log.is_file():
        with contextlib.suppress(OSError), log.open("a", encoding="utf-8") as out:
            out.write(line.format(time=datetime.now().strftime("%H:%M")))


def earlier_log(folder: Path, number: int, read: Iterable[Path]) -> tuple[Path, str] | None:
    """The log of the job numbered `number` in an earlier run (the one the conversation read, else the newest), and
    its last line when it says Narnat stopped the job; job numbers start again in each run."""
    logs = sorted(folder.glob(f"job-{number}-*.log"))  # the name's date and time sort them
    if not logs:
        return None
    known = set(read)
    seen = [log for log in logs if log in known]
    log = (seen or logs)[-1]
    with contextlib.suppress(OSError, UnicodeDecodeError):
        with _open_log(log) as data:
            data.seek(max(0, log.stat().st_size - 4096))
            last = data.read().decode("utf-8", errors="replace").rstrip("\n").rsplit("\n", 1)[-1]
        if last.startswith(STOPPED):
            return log, last
    return log, ""
