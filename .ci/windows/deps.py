"""What the Windows prefix installs, for .ci/windows/setup; run by the Linux python3 (3.11+, for tomllib).

    deps.py reqs PYPROJECT              the requirements, one a line: [project] dependencies, the test extra less
                                        the lint/type/mutation tools, the build backend, pip, colorama
    deps.py key PYPROJECT FILE...       a short hash of those requirements and of the files named (the cache key)
    deps.py missing WHEELDIR            requirements that the wheels in WHEELDIR declare for Windows only and that
                                        no wheel there satisfies (`pip download --platform` evaluates environment
                                        markers for the machine it runs on, so it leaves these out)
"""

from __future__ import annotations

import hashlib
import re
import sys
import tomllib
import zipfile
from email.parser import HeaderParser
from pathlib import Path

try:
    from packaging.markers import Marker
    from packaging.requirements import Requirement
except ImportError:  # pip vendors packaging
    from pip._vendor.packaging.markers import Marker  # type: ignore[no-redef]
    from pip._vendor.packaging.requirements import Requirement  # type: ignore[no-redef]

NOT_ON_WINDOWS = {"ruff", "mypy", "mutmut"}  # tools of the Linux CI only
EXTRA = ["pip", "colorama"]  # pytest needs colorama on win32

WINDOWS = {
    "os_name": "nt",
    "sys_platform": "win32",
    "platform_system": "Windows",
    "platform_machine": "AMD64",
    "platform_release": "10",
    "platform_version": "10.0.19045",
    "platform_python_implementation": "CPython",
    "implementation_name": "cpython",
    "implementation_version": "3.11.9",
    "python_version": "3.11",
    "python_full_version": "3.11.9",
    "extra": "",
}


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def reqs(pyproject: str) -> list[str]:
    data = tomllib.loads(Path(pyproject).read_text(encoding="utf-8"))
    project = data["project"]
    test = [r for r in project.get("optional-dependencies", {}).get("test", [])
            if canonical(Requirement(r).name) not in NOT_ON_WINDOWS]
    build = data.get("build-system", {}).get("requires", [])
    return [*project.get("dependencies", []), *test, *build, *EXTRA]


def key(pyproject: str, files: list[str]) -> str:
    h = hashlib.sha256()
    h.update("\n".join(reqs(pyproject)).encode())
    for f in files:
        h.update(b"\0" + Path(f).read_bytes())
    return h.hexdigest()[:16]


def missing(wheeldir: str) -> list[str]:
    wheels = sorted(Path(wheeldir).glob("*.whl"))
    have = {canonical(w.name.split("-")[0]) for w in wheels}
    out: dict[str, str] = {}
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as z:
            meta = next(n for n in z.namelist() if n.count("/") == 1 and n.endswith(".dist-info/METADATA"))
            headers = HeaderParser().parsestr(z.read(meta).decode("utf-8"))
        for line in headers.get_all("Requires-Dist") or []:
            req = Requirement(line)
            name = canonical(req.name)
            if name in have or not req.marker or not req.marker.evaluate(WINDOWS):
                continue
            req.marker = None
            out.setdefault(name, str(req))
    return sorted(out.values())


def main(argv: list[str]) -> int:
    if len(argv) >= 2 and argv[0] == "reqs":
        print("\n".join(reqs(argv[1])))
    elif len(argv) >= 2 and argv[0] == "key":
        print(key(argv[1], argv[2:]))
    elif len(argv) == 2 and argv[0] == "missing":
        for req in missing(argv[1]):
            print(req)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
