"""How a wrapper's options are read (`sudo -u root`, `env -S '…'`, `nice -n5`): where the wrapped command starts,
which options hand over shell text, and — after an option the table does not know — the later words that name a
program that can delete, checked on their own. A case for each shape of option."""

import pytest

from narnat_agent.safety import analyze, unwrapped

RM = ["rm deletes files: build"]


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        # an option the table lacks: the later word naming a deleter is checked, wherever the command starts
        ("sudo --weird-flag echo rm -rf build", RM),
        ("sudo --weird-flag -uroot echo rm -rf build", RM),  # a known option after it does not end the doubt
        ("sudo --weird-flag echo nice rm -rf build", RM),  # a wrapper is no start: the command after it is
        ("sudo --askpass-file echo /bin/rm -rf build", RM),  # a deleter named by its path
        ("sudo --weird-flag echo $CMD rm -rf build", RM),  # a computed word starts nothing
        # options the table knows: the command starts after them, and the words after it are its arguments
        ("sudo -uroot echo rm -rf build", []),
        ("sudo --preserve-env=PATH echo rm -rf build", []),
        ("sudo --chdir=/tmp echo rm -rf build", []),
        ("sudo -u root -E rm -rf build", RM),
        ("sudo -- rm -rf build", RM),
        # options whose value is shell text
        ('env -S "rm -rf build"', RM),
        ('env --split-string="rm -rf build=old"', ["rm deletes files: build=old"]),
        ('env -u HOME -S "rm -rf build"', RM),
        ('env -S "$CMD"', ["env runs shell code computed at run time"]),
        ("env -S", []),
        ('flock /tmp/lock -c "rm -rf build"', RM),
        ('su - root -c "rm -rf build"', RM),
        # env's assignments come before the command
        ("env FOO=1 BAR=2 rm -rf build", RM),
        ("env FOO=1 $CMD", ["env gets a word computed at run time"]),
    ],
)
def test_where_the_wrapped_command_starts(command, lost):
    assert list(dict.fromkeys(analyze(command).deletions)) == lost


@pytest.mark.parametrize(
    ("later", "lost"),
    [
        ('eval "rm -rf build"', RM),
        ("source $SCRIPT", ["source runs shell code computed at run time"]),
        (". $SCRIPT", [". runs shell code computed at run time"]),
        ("awk 'BEGIN{system(\"rm -rf build\")}'", RM),
        ("sed 's/x/rm -rf build/e' a.txt", ["sed's e command runs the text as a shell command"]),
        ("parallel rm -rf build ::: a", ["rm deletes files: build"]),
        ('hyperfine "rm -rf build"', RM),
        ('trap "rm -rf build" EXIT', RM),
        ("at now <<'EOF'\nrm -rf build\nEOF", RM),  # the input given to the wrapper reaches the command
        ("make -f - <<'EOF'\nall:\n\trm -rf build\nEOF", RM),
        ('watch "rm -rf build"', RM),
        ("shred build", ["shred overwrites build"]),  # a deleter, said as what it does
        ('zsh -c "rm -rf build"', RM),  # a shell
        ("find . -delete", ["find -delete deletes the files it finds"]),  # a program with rules of its own
        (
            "git clean -fdx",
            ["git clean -x deletes untracked files and those .gitignore names"],
        ),  # a family of the table
        ('sqlite3 app.db "DROP TABLE t"', ["sqlite3 drops table t — /undo cannot restore it"]),  # a SQL client
        ('pwsh -c "Remove-Item x"', ["Remove-Item deletes x"]),
        ('cmd /c "del a"', ["del deletes a"]),
        ("nice -n 5 rm -rf build", RM),  # a wrapper is checked from where it stands
        ('ruby -e "FileUtils.rm_rf(1)"', ["the ruby code calls a file-deletion function"]),  # an interpreter
    ],
)
def test_after_an_unknown_option_each_kind_of_program_that_can_delete_is_checked(later, lost):
    assert list(dict.fromkeys(analyze(f"sudo --weird-flag echo {later}").deletions)) == lost
    assert analyze(f"sudo -uroot echo {later}").deletions == []  # known options: echo runs, the rest is its text


RIMRAF = ["rimraf deletes files: build"]


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("command rm -rf build", RM),
        ("command -v rm", []),  # a lookup: it prints where rm is
        ("command -V rm", []),
        ("pnpx rimraf@5 build", RIMRAF),  # runners name a version
        ("bunx rimraf@latest build", RIMRAF),
        ("uvx rimraf@1 build", RIMRAF),
        ("nice pnpm exec rm -rf build", RM),  # a runner under a wrapper
        ("pnpm -r --filter web exec rm -rf build", RM),
        ("yarn rimraf build", RIMRAF),  # yarn runs a package's program by its name
        ("yarn -s rimraf build", RIMRAF),
        ("yarn --cwd web rimraf build", RIMRAF),
        ("yarn --cwd web install", []),
        ("yarn --silent run clean", []),
        ("yarn -v", []),
    ],
)
def test_runners_and_lookups(command, lost):
    assert list(dict.fromkeys(analyze(command).deletions)) == lost


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        # shell text named after the wrapper's positional words: su's user, flock's lock file
        ('flock /tmp/lock --command="rm -rf build=old"', ["rm deletes files: build=old"]),
        ('su root -c "$CMD"', ["su runs shell code computed at run time"]),
        ("flock /tmp/lock -c", []),
        # an option after one that takes a value is read too
        ("sudo -u root -g wheel echo rm -rf build", []),
        ("yarn $PROGRAM build", []),  # a program named at run time: yarn's own or a package's, unknown
    ],
)
def test_shell_text_after_positional_words_and_options_after_values(command, lost):
    assert list(dict.fromkeys(analyze(command).deletions)) == lost


@pytest.mark.parametrize(
    "command",
    [
        "sudo /bin/r? -rf build",
        "nohup /bin/r? -rf build",
        "env r[m] -rf build",
        "timeout 5 /bin/r* -rf build",
        "sudo -u root r{m,} -rf build",
    ],
)
def test_a_wrapped_program_named_by_a_pattern_is_unknown_as_it_is_unwrapped(command):
    assert analyze(command).deletions == ["the command name is computed at run time"]


@pytest.mark.parametrize("runner", ["npx", "pnpx", "bunx", "npx --yes"])
@pytest.mark.parametrize("package", ["rimraf@5", "@acme/rimraf", "@acme/rimraf@5.0.1", "rimraf@latest"])
def test_a_package_runner_runs_the_program_named_without_its_scope_or_version(runner, package):
    assert analyze(f"{runner} {package} dist").deletions == ["rimraf deletes files: dist"]


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["npx", "jest", "-c", "jest.config.js"], ["jest", "-c", "jest.config.js"]),  # a -c after it is the command's
        (["timeout", "-s", "KILL", "60", "npx", "prettier", "-c", "src"], ["prettier", "-c", "src"]),
        (["sudo", "-u", "ci", "nice", "-n", "5", "pytest", "-q"], ["pytest", "-q"]),
        (["npx", "-c", "jest"], []),  # the wrapper's own -c: shell text, no command
        (["su", "-c", "pytest", "ci"], []),
    ],
)
def test_the_command_a_run_of_wrappers_starts_is_found_and_its_own_options_stay_its_own(argv, command):
    """What verification reads to know a check ran (`npx jest -c jest.config.js` runs jest)."""
    assert unwrapped(argv) == command
