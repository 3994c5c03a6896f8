"""pyproject.toml's tasks read as what they run, in each runner's way: its name for the runner, the hooks only PDM
and taskipy run, the arguments given after the task's name, tasks that name each other, and a bound on them."""

from pathlib import Path

import pytest

from narnat_agent.safety import analyze
from narnat_agent.safety.tasks import MAX_TARGETS
from tests.tools.syntax_corpus import case_id

PYPROJECT = """\
[tool.poe.tasks]
tidy = { shell = "rm -rf build" }
pre_tidy = "rm -rf cache"
wipe = { cmd = "rm -rf" }
loop = ["loop", "tidy"]
lint = "ruff check ."
two = ["rm -rf one", "rm -rf two"]
named = ["lint", { script = "app:run" }, "rm -rf named"]

[tool.pdm.scripts]
drop = "rm -rf"
post_drop = "rm -rf post"

[tool.taskipy.tasks]
pre_go = "rm -rf pre"
go = "echo go"

[tool.hatch.envs.default.scripts]
pre_x = "rm -rf hatchpre"
x = "echo"
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    return tmp_path


SAID = [
    ("poe tidy", ["the poe task tidy: rm deletes files: build"]),  # poe runs no pre_ task
    ("poethepoet tidy", ["the poethepoet task tidy: rm deletes files: build"]),
    ("/usr/local/bin/poe -q tidy", ["the poe task tidy: rm deletes files: build"]),
    # the arguments after the name go to the task's last command
    ("poe wipe build", ["the poe task wipe: rm deletes files: build"]),
    ("poe tidy extra", ["the poe task tidy: rm deletes files: build extra"]),
    ("poe two extra", ["the poe task two: rm deletes files: one", "the poe task two: rm deletes files: two extra"]),
    # a task naming itself is read once
    ("poe loop", ["the poe task tidy: rm deletes files: build"]),
    ("poe named", ["the poe task named: rm deletes files: named"]),
    ("pdm run -v drop y", ["the pdm task drop: rm deletes files: y", "the pdm task post_drop: rm deletes files: post"]),
    ("task go", ["the task task pre_go: rm deletes files: pre"]),
    ("hatch run pre_x", ["the hatch task pre_x: rm deletes files: hatchpre"]),  # hatch runs no pre_ script
    ("hatch run default:pre_x", ["the hatch task pre_x: rm deletes files: hatchpre"]),
]


@pytest.mark.parametrize(("command", "said"), SAID, ids=[case_id(c) for c, _ in SAID])
def test_a_task_is_read_as_the_commands_it_runs(command, said, project):
    assert analyze(command, project).deletions == said


QUIET = ["pdm drop", "hatch run x", "hatch run other:pre_x", "poe missing", "poe lint", "task", "pdm run"]


@pytest.mark.parametrize("command", QUIET, ids=[case_id(c) for c in QUIET])
def test_a_command_that_names_no_task_of_the_file_is_left_to_its_words(command, project):
    assert analyze(command, project).deletions == []


def test_without_a_pyproject_the_runner_is_left_to_its_words(tmp_path):
    assert analyze("poe tidy", tmp_path).deletions == []


def test_tasks_that_name_tasks_are_followed_only_so_far(tmp_path):
    chain = "".join(f't{n} = ["t{n + 1}"]\n' for n in range(MAX_TARGETS - 1))
    (tmp_path / "pyproject.toml").write_text(
        f'[tool.poe.tasks]\n{chain}t{MAX_TARGETS - 1} = "rm -rf near"\nu0 = ["u1"]\n'
        + "".join(f'u{n} = ["u{n + 1}"]\n' for n in range(1, MAX_TARGETS))
        + f'u{MAX_TARGETS} = "rm -rf far"\n',
        encoding="utf-8",
    )
    assert analyze("poe t0", tmp_path).deletions == [f"the poe task t{MAX_TARGETS - 1}: rm deletes files: near"]
    assert analyze("poe u0", tmp_path).deletions == []


def test_a_task_of_more_commands_than_the_bound_is_read_up_to_it(tmp_path):
    lines = ", ".join(['"echo"'] * MAX_TARGETS + ['"rm -rf late"'])
    (tmp_path / "pyproject.toml").write_text(f"[tool.poe.tasks]\nmany = [{lines}]\n", encoding="utf-8")
    assert analyze("poe many", tmp_path).deletions == []
    lines = ", ".join(['"echo"'] * (MAX_TARGETS - 1) + ['"rm -rf last"'])
    (tmp_path / "pyproject.toml").write_text(f"[tool.poe.tasks]\nmany = [{lines}]\n", encoding="utf-8")
    assert analyze("poe many", tmp_path).deletions == ["the poe task many: rm deletes files: last"]


@pytest.mark.parametrize("text", ["[project]\nname = 'app'\n", "[tool.ruff]\nline-length = 120\n"])
def test_a_pyproject_without_the_runners_table_leaves_the_command_to_its_words(text, tmp_path):
    (tmp_path / "pyproject.toml").write_text(text, encoding="utf-8")
    for command in ("poe tidy", "pdm run drop", "task go", "hatch run x", "hatch run docs:x"):
        assert analyze(command, tmp_path).deletions == [], command
