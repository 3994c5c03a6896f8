"""The checkpoint tests' project: folders, a generator, CRLF text, attributes git would apply; with git or not."""

from pathlib import Path

import pytest


@pytest.fixture
def tree(project) -> Path:
    (project / "src").mkdir()
    (project / "src" / "main.py").write_text("print('hello')\n")
    (project / "src" / "util.py").write_text("def f():\n    return 1\n")
    (project / "gen.py").write_text("open('out.txt', 'w').write('generated 2\\n')\n")
    (project / "out.txt").write_text("generated 1\n")
    (project / "notes.txt").write_bytes(b"line one\r\nline two\r\n")
    (project / ".gitattributes").write_text("* text=auto\n")  # the store must still give back CRLF as it was
    return project


@pytest.fixture
def no_git(tree, tmp_path, monkeypatch) -> Path:
    """The project, with git nowhere on PATH: the checkpoints keep copies of the files Write and Edit change."""
    (tmp_path / "bin").mkdir()
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    return tree
