"""Commands that keep running (dev servers, watchers, long builds): each in its own process group with its output in
a file, listed for the user, and stopped, group and all, when Narnat ends."""

import contextlib
import os
import signal
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from narnat_agent.processes import HeldInterrupt

STOP_SECONDS = 2.0  # between SIGTERM and SIGKILL


@dataclass
class Job:
    number: int
    command: str
    process: subprocess.Popen
    log: Path
    told: bool = False  # the model has been told how it ended
    given: int = 0  # bytes of its log the model has been given by waiting for it

    @property
    def pid(self) -> int:
        return self.process.pid  # also the process group's id: it leads its own session

    @property
    def state(self) -> str:
        code = self.process.poll()
        if code is None:
            return "running"
        return f"exited with code {code}" if code >= 0 else f"was stopped by signal {-code}"


class Jobs:
    """The background commands of this run, in the order they started."""

    def __init__(self) -> None:
        self.started: list[Job] = []

    def start(self, command: str, log: Path, spawn: Callable[[IO[bytes]], subprocess.Popen]) -> Job:
        """A job whose process spawn starts writing into log; a Ctrl-C meanwhile stops it before it goes on."""
        held = HeldInterrupt()
        with held, open(log, "wb") as out:
            job = Job(len(self.started) + 1, command, spawn(out), log)
            self.started.append(job)
        try:
            held.release()
        except KeyboardInterrupt:
            self.stop(job)
            raise
        return job

    def of_log(self, path: Path) -> Job | None:
        return next((job for job in self.started if job.log == path), None)

    @staticmethod
    def new_output(job: Job, limit: int) -> str:
        """The job's output since it was last given, its last `limit` characters when there is more."""
        try:
            with job.log.open("rb") as log:
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

    def stop_all(self) -> list[Job]:
        """Stop every job's process group (what a job left running after its first process ended, too); the jobs
        that were still running."""
        running = [job for job in self.started if job.process.poll() is None]
        for job in self.started:
            self.stop(job)
        return running

    @staticmethod
    def stop(job: Job) -> None:
        """SIGTERM to the job's whole process group, SIGKILL to what is left after STOP_SECONDS."""
        _signal(job, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            job.process.wait(STOP_SECONDS)
        _signal(job, signal.SIGKILL)  # the first process, if it ignored SIGTERM, and any child that did
        job.process.wait()


def _signal(job: Job, sig: signal.Signals) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(job.pid, sig)
