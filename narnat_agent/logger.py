"""One log file per run under .narnat/logs/; it never holds the key, and a failing disk costs one notice."""

import contextlib
import logging
import os
import re
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from narnat_agent import state
from narnat_agent.encodable import encodable
from narnat_agent.i18n import _
from narnat_agent.inert import inert
from narnat_agent.keyguard import redact

ROOT = "narnat"
FORMAT = "%(asctime)s [%(area)s] %(levelname)s %(message)s"
AUTH_HEADER = re.compile(r"(authorization[\"']?\s*[:=]\s*[\"']?)(bearer\s+)?[^\s\"',}]+", re.IGNORECASE)


def get_logger(area: str) -> logging.Logger:
    """A logger for one part of the program, e.g. get_logger("core.agent")."""
    return logging.getLogger(f"{ROOT}.{area}")


class _Redact(logging.Filter):
    """A second line of defence: the key and headers are never formatted into a log line in the first place."""

    def __init__(self, secrets: list[str]):
        super().__init__()
        self.secrets = secrets

    def filter(self, record: logging.LogRecord) -> bool:
        record.area = record.name.removeprefix(f"{ROOT}.")
        # inert: `tail -f` of the log shows a tool's result (a file's text, a page) in a terminal, which would obey
        # its sequences (a title set, the clipboard written)
        message = inert(AUTH_HEADER.sub(r"\1***", encodable(record.getMessage())))
        for secret in self.secrets:
            message = redact(message, secret, "***")
        record.msg, record.args = message, None
        return True


class _LogFile(logging.FileHandler):
    """The file is made at the first line; the first failure to write ends logging with one notice."""

    def __init__(self, path: Path, notify: Callable[[str], None]):
        super().__init__(path, encoding="utf-8", delay=True)
        self.notify = notify

    def emit(self, record: logging.LogRecord) -> None:
        try:
            super().emit(record)
        except Exception:  # opening the file happens outside the base class's own error handling
            self.handleError(record)

    def handleError(self, record: logging.LogRecord) -> None:
        error = sys.exc_info()[1]
        root = logging.getLogger(ROOT)
        root.removeHandler(self)
        root.addHandler(logging.NullHandler())  # not the last-resort handler, which would print every warning
        reason = error.strerror if isinstance(error, OSError) and error.strerror else type(error).__name__
        off = _("Cannot write the log {path} ({reason}); logging is off for this run.")
        self.notify(off.format(path=self.baseFilename, reason=reason))


def start_log(state_dir: Path, secrets: list[str], notify: Callable[[str], None]) -> Path:
    """Log this run to .narnat/logs/<time>-<pid>.log: processes started in the same second get their own file."""
    path = state.logs(state_dir) / f"{datetime.now():%Y-%m-%d_%H-%M-%S}-{os.getpid()}.log"
    with contextlib.suppress(OSError):  # then the first line fails to open the file, and says so once
        path.parent.mkdir(parents=True, exist_ok=True)
    handler = _LogFile(path, notify)
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
