"""One log file per start under .narnat/logs/, with secrets masked."""

import itertools
import logging
import os
import re
from datetime import datetime
from pathlib import Path

ROOT = "narnat"
FORMAT = "%(asctime)s [%(area)s] %(levelname)s %(message)s"
AUTH_HEADER = re.compile(r"(authorization[\"']?\s*[:=]\s*[\"']?)(bearer\s+)?[^\s\"',}]+", re.IGNORECASE)


def get_logger(area: str) -> logging.Logger:
    """A logger for one part of the program, e.g. get_logger("core.agent")."""
    return logging.getLogger(f"{ROOT}.{area}")


class _Redact(logging.Filter):
    def __init__(self, secrets: list[str]):
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        record.area = record.name.removeprefix(f"{ROOT}.")
        message = AUTH_HEADER.sub(r"\1***", record.getMessage())
        for secret in self.secrets:
            message = message.replace(secret, "***")
        record.msg, record.args = message, None
        return True


def _create(logs: Path, stamp: str) -> Path:
    """A new, empty log file named after the time; runs started in the same second each get their own."""
    for n in itertools.count(1):
        path = logs / (f"{stamp}.log" if n == 1 else f"{stamp}-{n}.log")
        try:
            os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644))
        except FileExistsError:
            continue
        return path
    raise AssertionError("unreachable")


def start_log(state_dir: Path, secrets: list[str]) -> Path:
    """Open .narnat/logs/YYYY-MM-DD_HH-MM-SS.log for this run; the secrets never reach it."""
    logs = state_dir / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y-%m-%d_%H-%M-%S")
    path = _create(logs, stamp)
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setFormatter(logging.Formatter(FORMAT, datefmt="%Y-%m-%d %H:%M:%S"))
    handler.addFilter(_Redact(secrets))
    root = logging.getLogger(ROOT)
    for old in list(root.handlers):
        root.removeHandler(old)
        old.close()
    root.addHandler(handler)
    root.setLevel(logging.INFO)
    root.propagate = False
    return path
