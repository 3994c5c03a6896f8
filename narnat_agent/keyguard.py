"""What keeps the API key from the model, the screen, the log and the commands Narnat runs.

Its text is replaced by a marker wherever it would be shown or sent (`redact`). Masking the key's text cannot win
against a command that encodes it (`| base64`, `| rev`), so the key must also be unreadable to them: this process is
made non-dumpable (its /proc/<pid>/environ and memory closed to other processes of the user), the key leaves the
environment once read, and where the kernel allows unprivileged user namespaces Bash's commands run in namespaces of
their own: the files that may hold the key read as empty there, and no process outside can be inspected through /proc
(not Narnat, not the user's shell). Root in the host's namespaces can still read everything; the docs say what holds
on which platform.
"""

import functools
import os
import re
import shutil
import subprocess
from collections.abc import MutableMapping, Sequence
from pathlib import Path

from narnat_agent.platform.processes import NAMESPACES, seal

KEY_VARIABLES = ("NARNAT_API_KEY", "OPENAI_API_KEY")  # where the configuration reads the API key
MIN_KEY = 8  # shorter strings are words ("local" is in "localhost", "ollama" is a placeholder): left alone
MARK = "[API key]"
FEW = 4  # characters of what may begin the key that a stream lets go of when the other stream comes in between

# In a user namespace where the command's user is root, the key files are covered by /dev/null; then a nested user
# namespace maps the command back to the user's own ids and leaves it no capability over those mounts (they are
# locked: no namespace it can make may unmount them). From a user namespace of its own, no process outside it can be
# inspected either: /proc/<pid>/environ, /proc/<pid>/root and memory need CAP_SYS_PTRACE in the host's namespace.
_COVER = (
    's=$1; shift; for f; do {mount} --bind /dev/null "$f" || exit 125; done; '
    'exec {unshare} --user --map-user={uid} --map-group={gid} -- bash --noprofile --norc -c "$s"'
)
_NAMESPACES = ["--user", "--map-root-user", "--mount", "--propagation", "private"]
_BASH = ("bash", "--noprofile", "--norc", "-c")


def can_be_key(secret: str) -> bool:
    return len(secret) >= MIN_KEY


def redact(text: str, secret: str, mark: str = MARK) -> str:
    """text with every occurrence of secret replaced by mark, also where line ends cut it: a file or an output
    wrapped at a width or continued with a backslash, shown by Read or Grep with each line's number or name."""
    if not can_be_key(secret):
        return text
    text = text.replace(secret, mark) if secret in text else text
    return _wrapped(secret).sub(mark, text) if "\n" in text else text


WRAP = 200  # characters a tool may put before a line's text (Grep: the file's path and the line's number)


@functools.cache
def _wrapped(secret: str) -> re.Pattern[str]:
    """The key with a line end, and what may begin the next line, allowed between any two of its characters."""
    return re.compile(rf"(?:\\?\r?\n[^\n]{{0,{WRAP}}}?)?".join(map(re.escape, secret)))


class StreamMask:
    """A stream's text with the key masked wherever the stream cuts it: what could be the key's beginning waits for
    the next piece (or `rest`)."""

    def __init__(self, secret: str):
        self.secret = secret if can_be_key(secret) else ""
        self.held = ""
        self.shown = ""  # a few held characters let go before the stream went on: the key finished after them is masked

    def feed(self, text: str) -> str:
        """What can be shown now of everything fed so far."""
        text = redact(self.shown + self.held + text, self.secret)
        text = text[len(os.path.commonprefix([text, self.shown])) :]  # from where the key began, if it did
        keep = next((size for size in range(min(len(self.secret) - 1, len(text)), 0, -1)
                     if text.endswith(self.secret[:size])), 0)  # fmt: skip
        self.held, self.shown = text[len(text) - keep :], ""
        return text[: len(text) - keep]

    def let_go(self) -> str:
        """What is held, if it is a few characters, now that another stream shows something in between: they come
        first, as they came (the key's first few are common text: `s`, `sk-`); the key finished after them is still
        masked. More stays held until this stream goes on or ends: shown now, the key's two halves would meet."""
        if len(self.held) >= FEW:
            return ""
        self.shown, self.held = self.held, ""
        return self.shown

    def rest(self) -> str:
        """What was held back, now that no more will come: not the key."""
        held, self.held, self.shown = self.held, "", ""
        return held


def seal_process() -> bool:
    """Close this process's /proc entries and memory to the user's other processes (as ssh-agent does);
    whether it could. Linux only; root keeps its access."""
    return seal()


def forget_key_variables(environ: MutableMapping[str, str]) -> None:
    """The key read, the environment no longer holds it: nothing started later inherits it."""
    for name in KEY_VARIABLES:
        environ.pop(name, None)


def can_confine() -> bool:
    """Whether commands can run in namespaces of their own here (util-linux's `unshare`, user namespaces allowed)."""
    return _confining_argv() is not None


@functools.cache
def _confining_argv() -> tuple[str, ...] | None:
    """What runs a script confined, found once by absolute path (a command may change PATH for its own children).
    Namespaces are Linux's: elsewhere (macOS, Windows) commands run plain, as docs/safety.md says."""
    if not NAMESPACES:
        return None
    unshare, mount, sh = (shutil.which(name) for name in ("unshare", "mount", "sh"))
    if not (unshare and mount and sh):
        return None
    cover = _COVER.format(mount=mount, unshare=unshare, uid=os.getuid(), gid=os.getgid())
    argv = (unshare, *_NAMESPACES, sh, "-c", cover, "sh")
    return argv if _runs([*argv, "true"]) else None


@functools.cache
def _namespace_argv() -> tuple[str, ...] | None:
    """What runs bash in a user namespace of its own, as the user, when no key file needs covering: one program
    started before bash instead of four (no mount namespace, no mount, no second namespace)."""
    confining = _confining_argv()
    if confining is None:
        return None
    argv = (confining[0], "--user", f"--map-user={os.getuid()}", f"--map-group={os.getgid()}", "--", *_BASH)
    return argv if _runs([*argv, "true"]) else None


def _runs(argv: list[str]) -> bool:
    try:
        return subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=10).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def confined(script: str, hidden: Sequence[Path]) -> list[str]:
    """The argv that runs a bash script with the key files read as empty, where that is possible."""
    argv = _confining_argv()
    if argv is None:
        return [*_BASH, script]
    files = [str(p) for p in hidden if p.is_file()]
    if not files and (namespaced := _namespace_argv()):
        return [*namespaced, script]
    return [*argv, script, *files]
