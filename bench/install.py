"""Install size: a fresh virtualenv with Narnat installed (without the test extra), its site-packages less pip and
setuptools, and the largest distributions in it; `narnat --version` in that install against `python -c pass`.

Run: python bench/install.py [--before REV]   (REV: a git revision installed the same way; takes a few minutes a
venv, from the package index pip is set up to use)
"""

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from common import ROOT, median_seconds, table

LEFT_OUT = ("pip", "setuptools", "_distutils_hack", "distutils-precedence.pth", "pkg_resources", "__pycache__")
LARGEST = 8


def source(revision: str | None) -> Path:
    """The project (pyproject and package) at a revision, or the working tree."""
    if revision is None:
        return ROOT
    folder = Path(tempfile.mkdtemp(prefix=f"narnat-src-{revision[:12]}-"))
    archive = subprocess.run(["git", "archive", revision], cwd=ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    return folder


def install(project: Path) -> Path:
    """A new virtualenv with the project installed; its site-packages folder."""
    venv = Path(tempfile.mkdtemp(prefix="narnat-venv-"))
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    copy = Path(tempfile.mkdtemp(prefix="narnat-build-")) / "src"  # a build leaves folders in the source tree
    shutil.copytree(project, copy, ignore=shutil.ignore_patterns(".git", "__pycache__", "*.egg-info", "build"))
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", str(copy)], check=True, capture_output=True)
    return next((venv / "lib").glob("python*/site-packages"))


def measure(site: Path) -> tuple[int, list[tuple[str, int]]]:
    """Bytes on disk (as `du` counts them) of what the install added, and its largest top-level entries."""
    added = [p.name for p in site.iterdir() if p.name not in LEFT_OUT]
    names = [name for name in added if not name.startswith(("pip-", "setuptools-"))]
    du = subprocess.run(["du", "-sk", "--", *names], cwd=site, capture_output=True, text=True, check=True).stdout
    entries = [(name, int(kb) * 1024) for kb, name in (line.split("\t", 1) for line in du.splitlines())]
    return sum(s for _, s in entries), sorted(entries, key=lambda e: -e[1])[:LARGEST]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--before", help="a git revision to install and measure the same way")
    options = parser.parse_args()
    revisions = [None, options.before] if options.before else [None]
    sites = {revision or "now": install(source(revision)) for revision in revisions}
    elsewhere = tempfile.mkdtemp()  # not the source tree, whose package would be imported instead
    commands = {"python -c pass": [sys.executable, "-c", "pass"]}
    commands |= {name: [str(site.parents[2] / "bin" / "narnat"), "--version"] for name, site in sites.items()}
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(15):  # interleaved: the machine's load falls on all of them alike
        for name, command in commands.items():
            times[name].append(median_seconds(lambda c=command: subprocess.run(c, capture_output=True, cwd=elsewhere),
                                              1))  # fmt: skip
    baseline = statistics.median(times["python -c pass"])
    for name, site in sites.items():
        total, largest = measure(site)
        version = statistics.median(times[name])
        mb = lambda n: f"{n / 2**20:.1f} MB"  # noqa: E731 -- as du -sh counts them (MiB)
        rows = [("site-packages less pip and setuptools", mb(total), "", "", "≤ 200 MB")]
        rows += [(f"  {entry}", mb(bytes_), "", "", "") for entry, bytes_ in largest]
        rows.append(("narnat --version", f"{version * 1000:.0f} ms", f"{baseline * 1000:.0f} ms python -c pass",
                     f"{version / baseline:.2f}x", "≤ 2x"))  # fmt: skip
        table(f"Install ({name}): {site}", rows)


if __name__ == "__main__":
    main()
