"""The listings a question may run before Bash does (env given): the files find selects, counted and named."""

from pathlib import Path

import pytest

from narnat_agent.safety import analyze
from narnat_agent.safety.probes import MAX_LINES

SELECTS = "find -delete deletes what find selects"


@pytest.fixture
def logs(tmp_path: Path) -> Path:
    for name in ("a.log", "b.log", "c.log", "d.log", "keep.txt", "sub/e.log"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x\n")
    return tmp_path


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("find . -name '*.log' -delete", f"{SELECTS}: 5 (./a.log, ./b.log, ./c.log, …)"),
        ("find . -maxdepth 1 -name '[abc].log' -delete", f"{SELECTS}: 3 (./a.log, ./b.log, ./c.log)"),
        ("find . -name '*.txt' -delete", f"{SELECTS}: 1 (./keep.txt)"),
        ("find . -name '*.zip' -delete", f"{SELECTS}: nothing, as the files are now"),
        # each file once, however many actions print it
        ("find sub -print -delete", f"{SELECTS}: 2 (sub, sub/e.log)"),
        ("find . -name '*.log' -fprint list.txt -delete", f"{SELECTS}: 5 (./a.log, ./b.log, ./c.log, …)"),
        ("find . -name a.log -fprintf out '%p' -delete", f"{SELECTS}: 1 (./a.log)"),
        ("find . -name '*.txt' -printf '%p' -delete", f"{SELECTS}: 1 (./keep.txt)"),
        ("find . -name b.log -ls -delete", f"{SELECTS}: 1 (./b.log)"),
        ("find . -name '*.log' -exec rm {} +", "rm deletes files: what find selects: 5 (./a.log, ./b.log, ./c.log, …)"),
        # what another program decides by running cannot be listed; a find that fails lists nothing
        ("find . -exec grep -q x {} \\; -delete", "find -delete deletes the files it finds under ."),
        ("find missing -delete", "find -delete deletes the files it finds under missing"),
    ],
)
def test_a_question_counts_and_names_the_files_find_selects(command, said, logs):
    assert [str(reason) for reason in analyze(command, logs, env={}).deletions] == [said]


def test_without_the_environment_nothing_is_listed(logs):
    assert [str(r) for r in analyze("find . -name '*.log' -delete", logs).deletions] == [
        "find -delete deletes the files it finds"
    ]


@pytest.mark.parametrize(("files", "count"), [(MAX_LINES, "1000"), (MAX_LINES + 1, "1,000+")])
def test_past_the_lines_read_the_count_says_more_than(files, count, tmp_path):
    for n in range(files):
        (tmp_path / f"{n:04}.tmp").touch()
    assert [str(r) for r in analyze("find . -name '*.tmp' -delete", tmp_path, env={}).deletions] == [
        f"{SELECTS}: {count} (./0000.tmp, ./0001.tmp, ./0002.tmp, …)"
    ]
