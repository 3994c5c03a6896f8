"""The analysis's decisions one rule at a time, where the corpora leave a case unsaid: the commands a user or
model writes, and what Narnat then asks, refuses or lets run."""

from pathlib import Path

import pytest

from narnat_agent.safety import analyze, last_pipeline


@pytest.mark.parametrize(
    ("command", "stages"),
    [
        ("make build && pytest -q | tee log", [["pytest", "-q"], ["tee", "log"]]),
        ("pytest $(cat args) | grep -v warn", [["pytest", None], ["grep", "-v", "warn"]]),
        ("echo $(ls | wc -l)", [["echo", None]]),
        ("cd src; $RUNNER tests", [[None, "tests"]]),
        ("", []),
    ],
)
def test_the_last_pipeline_is_the_one_whose_exit_code_the_shell_reports(command, stages):
    assert last_pipeline(command) == stages


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ('pwsh -c "Remove-Item x; Clear-Content y"', ["Remove-Item deletes x", "Clear-Content empties y"]),
        (
            "pwsh -Co 'Remove-ItemProperty -Path HKCU:x'",
            ["Remove-ItemProperty deletes a value of the registry key HKCU:x — /undo cannot restore it"],
        ),
        ('pwsh -c "Get-Content s.ps1 | iex; icm -ScriptBlock {1}"', ["iex runs shell code computed at run time"]),
        ("pwsh -c $SCRIPT", ["pwsh runs code computed at run time"]),
        ("pwsh -Command Remove-Item -Recurse build", ["Remove-Item deletes build with everything inside"]),
        ("echo Get-ChildItem | pwsh -", []),  # a lone - is no abbreviation of -EncodedCommand
        ('pwsh -c "Get-ChildItem"', []),
        ("pwsh -File clean.ps1 -Command Remove-Item x", []),  # the words after a script are its arguments
        ("pwsh -F clean.ps1 -c Remove-Item x", []),
        # the values of parameters are no script: -ExecutionPolicy Bypass is how these commands are written
        (
            'powershell -ExecutionPolicy Bypass -Command "Remove-Item -Recurse C:\\build"',
            ["Remove-Item deletes C:\\build with everything inside — /undo restores only the project's files"],
        ),
        ('powershell -ep bypass -c "rm -r build"', ["rm deletes build with everything inside"]),
        (
            'pwsh -NoProfile -ExecutionPolicy Bypass -Command "Remove-Item -Recurse build"',
            ["Remove-Item deletes build with everything inside"],
        ),
        (
            'pwsh -WindowStyle Hidden -Command "Remove-Item -Recurse build"',
            ["Remove-Item deletes build with everything inside"],
        ),
        ('pwsh -OutputFormat Text -Command "Remove-Item x"', ["Remove-Item deletes x"]),
        ('pwsh -WorkingDirectory C:\\p -c "Remove-Item x"', ["Remove-Item deletes x"]),
        ("pwsh -Exec Bypass -File clean.ps1", []),
        # Windows PowerShell's first word is a command
        ('powershell "Remove-Item -Recurse build"', ["Remove-Item deletes build with everything inside"]),
        ("pwsh clean.ps1", []),  # pwsh's is a script file
        ("pwsh remove-old-builds.ps1", []),  # whatever the script is named
        ("powershell -File remove-old-builds.ps1", []),
        ("powershell -f remove-old-builds.ps1", []),
        ("powershell -FILE remove-old-builds.ps1", []),
        ("powershell Remove-Item -Recurse build", ["Remove-Item deletes build with everything inside"]),
        ('pwsh -cwa "Remove-Item build"', ["Remove-Item deletes build"]),  # -CommandWithArgs
        ("pwsh -CommandWithArgs 'Remove-Item $args[0]' build", ["Remove-Item deletes $args[0], build"]),
        ('pwsh -w Hidden -c "Remove-Item x"', ["Remove-Item deletes x"]),
        ('pwsh -wi Hidden -c "Remove-Item x"', ["Remove-Item deletes x"]),  # -WindowStyle abbreviated
        ('pwsh -i -c "Remove-Item x"', ["Remove-Item deletes x"]),  # -Interactive takes no value
        ('cmd /c "del a.txt & rd /s b"', ["del deletes a.txt", "rd deletes b with everything inside"]),
        ('cmd.exe /K "echo x && @ERASE y"', ["ERASE deletes y"]),
        ('cmd /c "dir & echo hi"', []),
    ],
)
def test_windows_shells_say_which_commands_delete(command, lost):
    assert analyze(command).deletions == lost


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        (
            'echo "Remove-Item -Recurse -Force build" | pwsh -Command -',
            ["Remove-Item deletes build with everything inside"],
        ),
        (
            "pwsh -NoProfile -Command - <<'EOF'\nRemove-Item -Recurse build\nEOF",
            ["Remove-Item deletes build with everything inside"],
        ),
        ("echo Remove-Item build | pwsh -NoProfile", ["Remove-Item deletes build"]),  # no command: it reads its input
        ("echo Remove-Item build | pwsh -NonInteractive -File -", ["Remove-Item deletes build"]),
        ("echo Remove-Item build | pwsh -", ["Remove-Item deletes build"]),
        ("echo Get-Date | pwsh -Command -", []),
        ("echo Remove-Item build | pwsh clean.ps1", []),  # the input is the script's data
        ("echo Remove-Item build | pwsh -File clean.ps1", []),
        ("echo Remove-Item build | pwsh -File - extra", ["Remove-Item deletes build"]),
        ("echo Remove-Item build | pwsh - extra", ["Remove-Item deletes build"]),
        ("echo Remove-Item build | pwsh -c Get-Date", []),
        ("cat $SCRIPT | pwsh -Command -", ["pwsh runs code computed at run time"]),
        ("pwsh < clean.ps1", []),  # a script file, opaque like `pwsh clean.ps1`
        ("echo rd /s /q build | cmd", ["rd deletes build with everything inside"]),
        ("cmd /q <<'EOF'\ndel a.txt\nEOF", ["del deletes a.txt"]),
        ("echo del a.txt | cmd /c dir", []),
        ("cat $SCRIPT | cmd", ["cmd runs code computed at run time"]),
    ],
)
def test_windows_shells_run_what_their_input_holds_when_given_no_command(command, lost):
    assert analyze(command).deletions == lost


@pytest.mark.parametrize("option", ["-e", "-E", "-ec", "-EC", "-en", "-enc", "-Enc", "-EncodedCommand", "-encodedc"])
def test_powershell_code_given_encoded_asks_under_every_abbreviation(option):
    assert analyze(f"pwsh -NoProfile {option} SQBFAFgA").deletions == [
        "pwsh runs encoded code the analysis cannot read"
    ]
    assert analyze(f"pwsh -ExecutionPolicy Bypass {option} SQBFAFgA").deletions == [
        "pwsh runs encoded code the analysis cannot read"
    ]


@pytest.mark.parametrize(
    ("command", "refused"),
    [
        ('read -p "Name? " name <<< bob', []),
        ("read -p x v < answers.txt", []),
        ("echo y | read -p ok a", []),
        ("read -p x v < <(echo y)", []),
        ('read -rp "Continue? " ok', ["read -p asks the user a question: ask in your answer instead"]),
    ],
)
def test_read_asks_the_user_only_when_nothing_feeds_it(command, refused):
    assert analyze(command).interactive == refused


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("gio trash $F", ["gio deletes files"]),
        ('git config --global alias.nuke "!rm -rf ."', ["rm deletes files: ."]),
        ("git config --global alias.st status", []),
    ],
)
def test_what_is_lost_is_seen_past_options_and_computed_words(command, lost):
    assert analyze(command).deletions == lost


OVERWRITES = ["git checkout <paths> overwrites uncommitted changes"]


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("git checkout -- Makefile", OVERWRITES),  # after --, only paths
        ("git checkout --quiet src/app.py", OVERWRITES),
        ("git checkout main --", []),
        ("git checkout -q main", []),
        ("git checkout --conflict merge main", []),  # --conflict's value is no path
        ("git checkout", []),
        ("git checkout -p -- src/app.py", []),  # refused instead: it asks questions
        ("git checkout --patch HEAD -- a.py", []),
        # a new branch, even one that looks like a file
        ("git checkout -b release/2.x origin/release/2.x", []),
        ("git checkout -B release/2.x origin/release/2.x", []),
        ("git checkout --orphan release/3.x release/2.x", []),
    ],
)
def test_git_checkout_asks_when_it_names_paths(command, lost):
    assert analyze(command).deletions == lost


def test_git_checkout_of_a_file_without_a_dot_asks_when_the_file_exists(tmp_path):
    (tmp_path / "Makefile").write_text("all:\n")
    assert analyze("git checkout Makefile", tmp_path).deletions == OVERWRITES
    assert analyze("git checkout main", tmp_path).deletions == []


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ('git rebase -x "$CMD" main', ["git rebase --exec runs shell code computed at run time"]),
        ('git rebase --exec "make test" main', []),
        ('git config alias.x "$VALUE"', ["the git alias x runs shell code computed at run time"]),
        ('git config user.email "$EMAIL"', []),
        ("git restore -S src/app.py", []),  # the index only: the working tree keeps its changes
        ("git restore --staged src/app.py", []),
        ("git restore -SW src/app.py", ["git restore overwrites uncommitted changes"]),
    ],
)
def test_git_code_and_settings_computed_at_run_time_ask(command, lost):
    assert analyze(command).deletions == lost


WATCH = "watch never ends; run the command once instead"


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("watch -d rm -rf build", ["rm deletes files: build"]),  # -d takes no value: rm is the command
        ("watch --differences rm -rf build", ["rm deletes files: build"]),
        ("watch -n 5 rm -rf build", ["rm deletes files: build"]),
        ("watch --interval 5 rm -rf build", ["rm deletes files: build"]),
        ("watch --interval=5 -d rm -rf build", ["rm deletes files: build"]),
        ('watch "$CMD"', ["watch runs shell code computed at run time"]),
        ("watch -n 5", []),
    ],
)
def test_watch_checks_the_command_after_its_options(command, lost):
    verdict = analyze(command)
    assert (verdict.deletions, verdict.interactive) == (lost, [WATCH])


def test_watch_refuses_what_its_command_would_be_refused_for():
    verdict = analyze("watch -n 2 -d cat log.txt")
    assert (verdict.file_ops, verdict.interactive) == (
        ["reading files with cat: use Read (offset/limit for a part)"],
        [WATCH],
    )


@pytest.mark.parametrize(
    "option",
    ["-j", "--jobs", "-S", "--sshlogin", "-a", "--arg-file", "-d", "--delimiter", "-I", "-N", "-n", "-L"]
    + ["--colsep", "--results", "--joblog"],
)
def test_parallel_checks_the_command_after_an_option_and_its_value(option):
    assert analyze(f"parallel {option} x cat {{}} ::: a.txt").file_ops == [
        "reading files with cat: use Read (offset/limit for a part)"
    ]


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ('git filter-branch --tree-filter "$CMD" HEAD', ["git filter-branch runs shell code computed at run time"]),
        ('git -c "$SETTING" status', ["git -c sets a value computed at run time"]),
        ('git config core.pager "$PAGER"', ["git's core.pager runs shell code computed at run time"]),
        ("git -c 'core.pager=!rm -rf build' log", ["rm deletes files: build"]),
        ("git -c 'alias.wipe=!rm -rf build && A=1 true' wipe", ["rm deletes files: build"]),
        ('git submodule foreach "$CMD"', ["git submodule foreach runs shell code computed at run time"]),
    ],
)
def test_git_settings_aliases_and_filters_are_checked_as_the_code_they_run(command, lost):
    assert analyze(command).deletions[: len(lost)] == lost


@pytest.mark.parametrize("option", ["--recursive", "-q", "--quiet"])
def test_git_submodule_foreach_checks_its_command_past_its_own_options(option):
    assert analyze(f"git submodule foreach {option} cat VERSION").file_ops == [
        "reading files with cat: use Read (offset/limit for a part)"
    ]


@pytest.mark.parametrize(
    "command",
    [
        'git rebase --exec "rm -rf build" main',
        'git rebase --exec="rm -rf build" main',
        'git rebase -x"rm -rf build" main',
        'git rebase -i main -x "rm -rf build"',
        "git -c 'core.pager=!rm -rf build'",
    ],
)
def test_git_options_that_run_code_are_read_in_every_spelling(command):
    assert analyze(command).deletions == ["rm deletes files: build"]


@pytest.mark.parametrize("command", ["git rebase main -x", "git -c"])
def test_a_git_option_missing_its_value_runs_nothing(command):
    assert analyze(command).deletions == []


def test_only_a_program_that_runs_its_stdin_as_commands_is_asked_about_what_its_stdin_says():
    assert analyze("echo FLUSHALL | redis-cli").deletions == ["redis-cli deletes keys — /undo cannot restore it"]
    assert analyze('echo "delete ns staging" | kubectl').deletions == []


DELETE_REQUEST = ["gh sends a DELETE request to GitHub: repos/o/r — /undo cannot restore it"]  # and names it


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("gh api -X DELETE repos/o/r", DELETE_REQUEST),
        ("gh api -XDELETE repos/o/r", DELETE_REQUEST),
        ("gh api -X=DELETE repos/o/r", DELETE_REQUEST),
        ("gh api --method delete repos/o/r", DELETE_REQUEST),
        ("gh api --method=DELETE repos/o/r", DELETE_REQUEST),
        ("gh api repos/o/r -X DELETE", DELETE_REQUEST),
        ("gh api -X GET repos/o/r", []),
        ("gh api repos/o/r -X", []),
        (
            "git push -fu origin main",
            ["git rewrites or deletes history on the remote: origin main — /undo cannot restore it"],
        ),
        (
            "git push -uf origin main",
            ["git rewrites or deletes history on the remote: origin main — /undo cannot restore it"],
        ),
        ("git push -u origin main", []),
    ],
)
def test_an_option_with_its_value_is_read_however_it_is_written(command, lost):
    assert analyze(command).deletions == lost


BFG = ["bfg rewrites the repository's history — /undo cannot restore it"]


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("terraform destroy --help", []),  # it prints how to use it
        ("dropdb -h", []),
        ("dropdb --version", []),
        ("dropdb -V", []),
        ("dropdb app", ["dropdb drops a PostgreSQL database or role: app — /undo cannot restore it"]),
        ("python ../app/manage.py flush", ["manage.py deletes every row in the database — /undo cannot restore it"]),
        (
            "java -jar tools/bfg-1.14.0.jar --strip-blobs-bigger-than 1M repo.git",
            [BFG[0].replace(" —", ": repo.git —")],
        ),
        ("java -jar bfg.jar", BFG),
        ("java -jar ~/tools/lib/bfg.jar --delete-files id_rsa", BFG),
        ("java -jar bfg.jar --help", []),
        ("java -jar", []),
        ("java -version", []),
        ("java -cp bfg.jar com.example.Main", []),  # a class is run, not the jar's tool
    ],
)
def test_the_program_is_known_by_its_script_or_jar_and_asking_for_help_destroys_nothing(command, lost):
    assert analyze(command).deletions == lost


@pytest.mark.parametrize(
    "command",
    ["rm -rf build dist", "bash -c 'rm -rf build dist'", "sudo sh -c 'rm -rf build dist'", "eval rm -rf build dist",
     "true && (rm -rf build dist)"],
)  # fmt: skip
def test_the_paths_a_deleter_names_are_the_commands_targets_however_deep_it_runs(command):
    """The question says what /undo can restore of them: the paths must come up from a script inside the command."""
    assert analyze(command).targets == ["build", "dist"]


def test_a_question_names_six_targets_and_marks_only_more():
    six = "docker deletes container volumes (persistent data): a b c d e f — /undo cannot restore it"
    assert analyze("docker volume rm a b c d e f").deletions == [six]
    assert analyze("docker volume rm a b c d e f g").deletions == [six.replace(" f ", " f … ")]


@pytest.mark.parametrize(
    ("path", "outside"),
    [("/work/app/x", False), ("/work/app", False), ("/work/app2/x", True), ("/work/ap", True), ("/work", True),
     ("build", False), ("../x", True), ("..", True), ("../*", True), ("a/../../x", True), ("a/../b", False),
     ("..x", False), ("./../app/x", False), ("../app2", True)],
)  # fmt: skip
def test_a_path_is_the_projects_only_under_its_folder_not_beside_it_with_the_same_start(path, outside):
    said = analyze(f"rm -rf {path}", Path("/work/app")).deletions
    assert said == [f"rm deletes files: {path}" + (" — /undo restores only the project's files" if outside else "")]


@pytest.mark.parametrize(
    "command", ['D=build; rm -rf "$D"', 'for D in a b; do rm -rf "$D"; done', 'read D && rm -rf "$D"']
)
def test_a_variable_the_command_sets_itself_is_not_said_with_the_value_bash_has_now(command):
    """Bash's environment holds D=/home/dev/photos, but the command gives D its own value before rm runs: the
    question must not name the photos folder."""
    said = analyze(command, Path("/work/app"), env={"HOME": "/home/dev", "D": "/home/dev/photos"}).deletions
    assert said == ["rm deletes files: $D"]


@pytest.mark.parametrize(
    ("command", "home"),
    [
        ('rm -rf "$HOME/"', "/home/dev"),
        ("rm -rf ${HOME}/", "/home/dev"),
        ('rm -rf "$HOME"', "/home/dev/"),
        ("rm -rf ~/", "/home/dev"),  # the shell's own spelling of it
        ("rm -rf ~", "/home/dev/"),
    ],
)
def test_the_home_folder_is_named_so_with_or_without_a_trailing_slash(command, home):
    said = analyze(command, Path("/work/app"), env={"HOME": home}).deletions
    assert said == ["rm deletes files: /home/dev/ (your home folder) — /undo restores only the project's files"]


@pytest.mark.parametrize("env", [None, {"HOME": "/home/dev", "f": "notes.txt"}])
def test_a_word_computed_at_run_time_in_the_command_find_runs_is_said_unknown(env):
    """The command -exec runs has only the words find hands it: none of them is the word as the user wrote it."""
    said = analyze('find . -name "*.log" -exec rm "$f" {} \\;', Path("/work/app"), env=env).deletions
    assert said == ["rm deletes files: $… what find selects"]
