"""Verification commands (tests, linters, type checkers, builds): recognised as written, and their real outcome kept."""

import subprocess
import sys

import pytest

from narnat_agent.processes.jobs import MB, Job, JobLog
from narnat_agent.safety import ending_chain
from narnat_agent.tools.registry import execute
from narnat_agent.tools.verification import Verification, filtered, of_job, recognise, verified_chain

RECOGNISED = [
    ("pytest -q", "pytest"),
    ("time uv run python -m pytest tests", "pytest"),
    ("/usr/bin/python3 -m mypy narnat_agent", "mypy"),
    ("env CI=1 npx jest --ci", "jest"),
    ("timeout 60 pytest", "pytest"),
    ("coverage run -m pytest", "pytest"),
    ("bundle exec rspec", "rspec"),
    ("ruff check .", "ruff"),
    ("black --check .", "black"),
    ("npx prettier -c src test", "prettier"),
    ("prettier --list-different .", "prettier"),
    ("isort --check-only .", "isort"),
    ("cargo fmt --check", "cargo fmt"),
    ("ruff format --check .", "ruff format"),
    ("npm test", "npm test"),
    ("npm run test", "npm test"),
    ("npm run test -- src", "npm test"),
    ("npm run test:node", "npm run test:node"),
    ("yarn test:unit", "yarn test:unit"),
    ("node --test", "node --test"),
    ("npm run lint", "npm run lint"),
    ("cargo test --release", "cargo test"),
    ("go test ./...", "go test"),
    ("make -j4 test", "make test"),
    ("./gradlew test", "gradlew test"),
    ("tsc --noEmit", "tsc"),
    ("cmake --build build", "cmake --build"),
    ("make check install", "make check"),  # named by its first target
    ("yarn lint src", "yarn lint"),
    ("sudo -E pytest -q", "pytest"),
    ("time timeout 60 pytest", "pytest"),
    ("python3.12 -m pytest", "pytest"),
    ("python -m coverage run -m pytest", "pytest"),
    # wrappers' options that take a value: the value is not the program
    ("nice -n 10 pytest", "pytest"),
    ("sudo -u ci pytest -q", "pytest"),
    ("timeout -s KILL 60 pytest", "pytest"),
    ("timeout --signal=KILL -k 5 60 cargo test", "cargo test"),
    ("stdbuf -o L npm test", "npm test"),
    ("ionice -c 3 nice -n 19 make check", "make check"),
    ("env -u DISPLAY -C sub mypy .", "mypy"),
]
NOT_VERIFICATIONS = ["python script.py", "node script.js", "npm run dev", "npm run testing-server", "npm install",
                     "cargo run", "go run .", "black .", "ruff format .", "cargo fmt", "prettier -w .", "isort .",
                     "dotnet format", "make clean", "git status", "ls -la",
                     "python -c 'print(1)'", "go mod tidy", "cargo publish", "docker build .", "npm run",
                     "env CI=1", "time", "nice -n 10", "sudo -u pytest", "timeout -s KILL 60",
                     "sudo -u ci python script.py", "su -c pytest ci"]  # fmt: skip


@pytest.mark.parametrize(("command", "name"), RECOGNISED)
def test_verification_commands_are_recognised_through_wrappers(command, name):
    assert recognise(command.split()) == name


@pytest.mark.parametrize("command", NOT_VERIFICATIONS)
def test_other_commands_are_not_verifications(command):
    assert recognise(command.split()) is None


FILTERED = ["pytest tests/test_io.py", "pytest -k slow", "pytest tests/unit", "pytest t.py::test_a", "pytest --lf",
            "python -m unittest tests.test_io", "npm run test -- src", "npm test -- -t parse", "vitest run src/a.ts",
            "jest parser", "go test ./pkg/x", "cargo test parse_", "node --test test/a.js", "pytest test_io.py",
            "pytest -p no:cacheprovider tests/test_io.py", "jest --testNamePattern=parse", "jest X",
            "pytest --tb=short tests/test_io.py", "pytest --maxfail=1 tests/unit"]  # fmt: skip
WHOLE = ["pytest", "pytest -q -p no:cacheprovider", "pytest tests", "pytest .", "python -m unittest",
         "python -m unittest discover", "npm test", "vitest run", "go test ./...", "cargo test --release",
         "mypy narnat_agent", "ruff check src", "tsc -p tsconfig.json", "make test", "pytest tests/", "pytest ./tests",
         "pytest ./", "py.test tests", "jest ./", "pytest -c tests/pytest.ini", "npm test --",
         "nice -n 10 pytest", "timeout -s KILL 60 pytest tests"]  # fmt: skip


@pytest.mark.parametrize("command", FILTERED)
def test_a_run_of_part_of_the_suite_is_told_apart(command):
    assert filtered(command.split())


@pytest.mark.parametrize("command", WHOLE)
def test_a_run_of_the_whole_suite_or_a_linter_on_its_paths_is_not_filtered(command):
    assert not filtered(command.split())


def test_words_known_only_at_run_time_end_what_is_read():
    assert recognise(["pytest", "-q", None]) == "pytest"  # pytest -q "$@"
    assert recognise([None, "pytest"]) is None  # $RUNNER pytest
    assert not filtered(["jest", ""]) and not filtered(["pytest", None, "tests/test_io.py"])


def test_a_command_that_is_no_verification_is_not_filtered():
    assert not filtered(["python", "check.py"]) and not filtered([])  # a goal's check may be any command


def test_a_filtered_run_is_named_as_it_ran_and_the_suite_is_its_latest_whole_run():
    from narnat_agent.core.turn import TurnStats

    stats = TurnStats(0)
    whole, part, lint = (Verification("pytest", 1, "pytest -q"), Verification("pytest", 0, "pytest -k io", True),
                         Verification("ruff", 0, "ruff check ."))  # fmt: skip
    for v in (whole, part, lint):
        stats.verified(v)
    assert [str(v) for v in stats.latest] == ["pytest -k io: passed", "ruff: passed"]
    assert stats.suite == lint and stats.verifications == [whole, part, lint]


LINT = "npx eslint . && npx prettier -c src"
CHECKS = "ruff check . && mypy src && pytest -k io"
CHAINS = [  # (command, its exit code, what is recorded)
    (LINT, 1, Verification("eslint && prettier", 1, LINT)),
    (LINT, 0, Verification("eslint && prettier", 0, LINT)),
    (CHECKS, 2, Verification("ruff && mypy && pytest", 2, CHECKS, True)),
    ("cd web && npm test", 1, Verification("npm test", 1, "npm test")),  # cd is no verification: as before
    ("pytest -q && git commit -qm fix", 0, Verification("pytest", 0, "pytest -q")),  # passed, or commit had not run
    ("pytest -q && git commit -qm fix", 1, None),  # the tests, or the commit (nothing to commit) failed: unknown
    ("npx eslint .; npx prettier -c src", 1, Verification("prettier", 1, "npx prettier -c src")),  # ; : the last's
    ("pytest || echo failed", 0, None),
]  # fmt: skip


@pytest.mark.parametrize(
    ("command", "run"),
    [
        ("pytest -k 'Chunked or Sliced'", "pytest -k 'Chunked or Sliced'"),
        ('pytest "tests/test a.py::test_b"', "pytest 'tests/test a.py::test_b'"),
        ('pytest -k "it\'s"', "pytest -k 'it'\"'\"'s'"),
        ("npm test -- --grep=fast", "npm test -- --grep=fast"),
    ],
)
def test_a_run_is_recorded_as_a_shell_reads_it_again(command, run):
    """The footer's and the JSON's `run` pasted into a shell runs the same command."""
    recorded = verified_chain(ending_chain(command), 1, ())
    assert recorded is not None and recorded.run == run
    assert subprocess.run(["bash", "-c", f"printf '%s\\n' {run}"], capture_output=True, text=True).stdout.split("\n")[
        :-1
    ] == [w for w in ending_chain(command)[-1][-1] if w is not None]


def test_a_run_keeps_the_environment_it_was_given_in_front():
    """`PYTHONPATH=src pytest` run again without its PYTHONPATH is another command (it fails to import)."""
    recorded = verified_chain(ending_chain("PYTHONPATH=src python -m pytest tests -v"), 0, ())
    assert recorded == Verification("pytest", 0, "PYTHONPATH=src python -m pytest tests -v")
    run = 'CI=1 NODE_OPTIONS="--max-old-space-size=4096" npx vitest run'
    assert verified_chain(ending_chain(f"cd sub && {run}"), 1, ()) == Verification("vitest", 1, run)


@pytest.mark.parametrize(("command", "code", "recorded"), CHAINS)
def test_verifications_joined_by_and_are_one_the_exit_code_cannot_tell_apart(command, code, recorded):
    assert verified_chain(ending_chain(command), code, ()) == recorded


def test_a_pipelines_verification_has_its_own_stages_exit_code():
    stages = ending_chain("pytest -q | tail -3")
    assert verified_chain(stages, 0, (1, 0)) == Verification("pytest", 1, "pytest -q")  # tail's 0 hides pytest's 1
    assert verified_chain(stages, 0, (1,)) == Verification("pytest", 0, "pytest -q")  # statuses not of these stages
    assert verified_chain(stages, None, (1, 0)) == Verification("pytest", None, "pytest -q")  # stopped: timed out


def test_a_background_jobs_verification_counts_once_with_the_jobs_exit_code(tmp_path):
    process = subprocess.Popen([sys.executable, "-c", "raise SystemExit(2)"])
    process.wait()
    job = Job(1, "cd web && npm test", process, tmp_path / "job.log", JobLog(tmp_path / "job.log", MB), "tag")
    assert of_job(job) == Verification("npm test", 2, "npm test") and job.recorded
    assert of_job(job) is None  # read again, or waited for again: already counted


def test_a_runner_the_shell_could_not_find_or_start_did_not_run_rather_than_fail():
    """`npm test` whose script starts a pnpm that is not installed exits 127: no test ran, none failed."""
    assert [Verification("npm test", c).status for c in (127, 126, 1)] == ["could_not_run", "could_not_run", "failed"]
    assert str(Verification("npm test", 127)) == "npm test: could not run (exit 127)"


def test_outcomes_read_as_a_person_says_them():
    assert [str(Verification("pytest", c)) for c in (0, 1, None)] == [
        "pytest: passed", "pytest: failed (exit 1)", "pytest: timed out"]  # fmt: skip


def test_a_long_filtered_run_is_cut_to_forty_characters_in_the_footer():
    run = "pytest tests/tools/test_verification.py -k footer"  # 49 characters
    assert str(Verification("pytest", 0, run[:40], True)) == f"{run[:40]}: passed"  # forty fit whole
    assert str(Verification("pytest", 0, run[:41], True)) == f"{run[:39]}…: passed"  # one more is cut to forty
    assert len(Verification("pytest", 0, run, True).shown) == 40


@pytest.mark.slow
def test_bash_keeps_the_runners_own_exit_code_behind_cd_and_a_pipe(workspace, project):
    (project / "sub").mkdir()
    (project / "sub" / "test_x.py").write_text("def test_x():\n    assert 1 == 2\n")
    command = f"cd sub && {sys.executable} -m pytest -q -p no:cacheprovider 2>&1 | tail -3"
    failing = execute("Bash", {"command": command}, workspace)
    ran = f"{sys.executable} -m pytest -q -p no:cacheprovider"
    assert failing.verification == Verification("pytest", 1, ran), failing.text  # tail's exit code is 0
    (project / "sub" / "test_x.py").write_text("def test_x():\n    assert 2 == 2\n")
    passing = execute("Bash", {"command": f"{sys.executable} -m pytest -q -p no:cacheprovider"}, workspace)
    assert passing.verification == Verification("pytest", 0, ran)
    assert execute("Bash", {"command": "echo hi"}, workspace).verification is None
    stopped = execute("Bash", {"command": f"{sys.executable} -m pytest --version; sleep 5", "timeout": 300}, workspace)
    assert stopped.verification is None  # the last command was sleep, not the runner


@pytest.mark.slow
def test_a_runner_stopped_at_the_timeout_is_timed_out_not_passed(workspace, project):
    (project / "test_slow.py").write_text("import time\n\ndef test_slow():\n    time.sleep(30)\n")
    stopped = execute(
        "Bash", {"command": f"{sys.executable} -m pytest -q -p no:cacheprovider", "timeout": 1500}, workspace
    )
    ran = f"{sys.executable} -m pytest -q -p no:cacheprovider"
    assert stopped.verification == Verification("pytest", None, ran) and stopped.verification.status == "timed_out"
