"""The listings a question may run before Bash does (env given): the files find selects, counted and named."""

import os
import subprocess
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
        ("find . -execdir grep -q x {} \\; -delete", "find -delete deletes the files it finds under ."),
        ("find . -ok grep -q x {} \\; -delete", "find -delete deletes the files it finds under ."),
        ("find . -okdir grep -q x {} \\; -delete", "find -delete deletes the files it finds under ."),
        ("find . -maxdepth 1 -name '?.log' -delete", f"{SELECTS}: 4 (./a.log, ./b.log, ./c.log, …)"),
        # an action's own words (a file, a format) are not find's: the words after them still are
        ("find . -name b.log -fls out -name b.log -delete", f"{SELECTS}: 1 (./b.log)"),
        ("find . -name b.log -fprint out -name b.log -delete", f"{SELECTS}: 1 (./b.log)"),
        ("find . -name b.log -fprint0 out -name b.log -delete", f"{SELECTS}: 1 (./b.log)"),
        ("find . -name b.log -printf '%p' -name b.log -delete", f"{SELECTS}: 1 (./b.log)"),
        ("find . -name b.log -fprintf out '%p' -name b.log -delete", f"{SELECTS}: 1 (./b.log)"),
        ("find . -name b.log -delete -o -name c.log -delete", f"{SELECTS}: 2 (./b.log, ./c.log)"),
        ("find . -name b.log -fls out -o -name c.log -delete", f"{SELECTS}: 2 (./b.log, ./c.log)"),
        (
            "find . -maxdepth 1 -name '*.log' | xargs rm",
            "rm deletes files: what find selects: 4 (./a.log, ./b.log, ./c.log, …)",
        ),
        # without an action find prints what the whole expression selects, each side of an -o
        (
            "find . -maxdepth 1 -name a.log -o -name keep.txt | xargs rm",
            "rm deletes files: what find selects: 2 (./a.log, ./keep.txt)",
        ),
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


def test_a_name_that_is_not_utf_8_is_named_all_the_same(tmp_path):
    (tmp_path / os.fsdecode(b"\xff.log")).write_text("x\n")
    assert [str(r) for r in analyze("find . -name '*.log' -delete", tmp_path, env={}).deletions] == [
        f"{SELECTS}: 1 (./\ufffd.log)"
    ]


@pytest.mark.slow  # the listing's own timeout (probes.TIMEOUT, 2 s) is waited out
def test_a_listing_that_outlasts_its_timeout_is_left_out_of_the_question(logs, tmp_path_factory, monkeypatch):
    """A find over a huge tree or a hung network mount: the question says what find deletes, without a count."""
    programs = tmp_path_factory.mktemp("programs")
    (programs / "find").write_text("#!/bin/sh\nexec sleep 60\n")  # the boundary: a find that never ends
    (programs / "find").chmod(0o755)
    monkeypatch.setenv("PATH", f"{programs}{os.pathsep}{os.environ['PATH']}")
    assert [str(r) for r in analyze("find . -name '*.log' -delete", logs, env={}).deletions] == [
        "find -delete deletes the files it finds under ."
    ]


def test_a_listing_is_read_in_the_c_locale_whatever_the_users_language(tmp_path, monkeypatch):
    """git's dry run says `Würde … löschen` to a person reading German: the listing Narnat reads must stay in the
    words it parses, or the question says nothing would be lost. Where git has no translation it passes anyway."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "draft.txt").write_text("mine\n")
    monkeypatch.setenv("LC_ALL", "C.UTF-8")  # the boundary: Narnat's own environment, as a person's shell sets it
    monkeypatch.setenv("LANGUAGE", "de")
    assert [str(r) for r in analyze("git clean -f", tmp_path, env={}).deletions] == [
        "git clean deletes untracked files: 1 (draft.txt)"
    ]


@pytest.mark.parametrize("locale", [{"LANG": "C.UTF-8"}, {"LC_ALL": "C.UTF-8"}, {"LC_CTYPE": "C.UTF-8", "LANG": "C"}])
def test_find_selects_in_the_locale_the_command_runs_with(locale, tmp_path):
    """Under UTF-8, `?` matches `é` (one character): the question names the file the command deletes."""
    for name in ("a.log", "é.log", "ab.log"):
        (tmp_path / name).write_text("x\n")
    assert [str(r) for r in analyze("find . -name '?.log' -delete", tmp_path, env=locale).deletions] == [
        f"{SELECTS}: 2 (./a.log, ./é.log)"
    ]
