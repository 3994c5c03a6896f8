"""Bash as the model uses it: real processes in a temporary project."""

import contextlib
import os
import re
import signal
import subprocess
import threading
from pathlib import Path

import pytest

from narnat_agent.tools import bash as bash_tool
from narnat_agent.tools.base import Interrupted, Output
from narnat_agent.tools.registry import execute
from narnat_agent.tools.workspace import Workspace
from tests.processes import ended


def bash(ws, command, **args):
    return execute("Bash", {"command": command, **args}, ws)


def test_output_and_exit_code(workspace):
    result = bash(workspace, "echo hello; echo oops >&2; exit 3")
    assert result.text == "hello\noops\n(exit code 3)"
    assert result.is_error and result.summary == "exit 3 · 2 lines"
    ok = bash(workspace, "echo fine")
    assert ok.text == "fine\n(exit code 0)" and not ok.is_error


def test_a_command_that_reads_its_input_gets_none_and_does_not_wait_on_narnats(workspace):
    # Narnat's own input is the person's terminal: a pipe nobody writes to stands for it
    read, write = os.pipe()
    saved = os.dup(0)
    os.dup2(read, 0)
    try:
        result = bash(workspace, "cat; echo read", timeout=3000)
    finally:
        os.dup2(saved, 0)
        for fd in (saved, read, write):
            os.close(fd)
    assert result.text == "read\n(exit code 0)"


def test_exit_1_of_grep_diff_and_test_is_not_an_error(workspace, project):
    (project / "a").write_text("x\n")
    (project / "b").write_text("y\n")
    for command in ("git --version | grep nothing-like-this", "diff a b", "test -e missing"):
        result = bash(workspace, command)
        assert not result.is_error and "not an error" in result.text, command
    assert bash(workspace, "false").is_error


def test_working_directory_persists_but_variables_do_not(workspace, project):
    (project / "sub").mkdir()
    bash(workspace, "cd sub && export FOO=bar")
    assert workspace.cwd == project / "sub"
    result = bash(workspace, 'pwd; echo "FOO=$FOO"')
    assert result.text.splitlines()[:2] == [str(project / "sub"), "FOO="]


@pytest.mark.slow
def test_timeout_kills_the_whole_process_group(workspace, project):
    result = bash(workspace, "sleep 301 & sleep 302 & jobs -p > pids; wait", timeout=1000)
    assert "timed out after 1 s" in result.text and result.is_error
    assert len((project / "pids").read_text().split()) == 2 and ended(project / "pids")


@pytest.mark.slow
def test_background_children_cannot_block_the_tool(workspace, project):
    # a child that held the output open would make the call time out
    result = bash(workspace, "sleep 303 & jobs -p > pids; echo started", timeout=5000)
    assert "started" in result.text and "timed out" not in result.text
    assert ended(project / "pids")


def test_long_output_keeps_head_and_tail_and_spills_the_rest(workspace, project):
    result = bash(workspace, "for i in $(seq 1 20000); do echo line $i; done; echo FINAL ERROR")
    assert len(result.text) < 31_000
    assert result.text.startswith("line 1\n") and "FINAL ERROR" in result.text
    lines = result.text.splitlines()
    marker = next(line for line in lines if "omitted" in line)
    first, last = (int(n.replace(",", "")) for n in marker.split("lines ")[1].split(" of")[0].split("–"))
    assert "of 20,001 omitted" in marker and 1 < first < last < 20_001  # counted as Read pages them, in lines
    before, after = lines[lines.index(marker) - 1], lines[lines.index(marker) + 1]
    assert (before, after) == (f"line {first - 1}", f"line {last + 1}")
    spill = marker.split('file_path="')[1].split('"')[0]
    assert spill.startswith(".narnat/spills/") and (project / spill).read_text().count("\n") == 20001
    assert f"offset={first})" in marker
    omitted = execute("Read", {"file_path": spill, "offset": first}, workspace).text
    assert omitted.splitlines()[0] == f"{first}\tline {first}"


def test_huge_output_stays_bounded_in_memory(workspace):
    result = bash(workspace, "yes | head -c 50000000")
    assert len(result.text) < 31_000 and "omitted" in result.text


def test_ansi_and_progress_redraws_are_stripped(workspace):
    result = bash(workspace, r"printf '\033[31mred\033[0m\n10%%\r50%%\r100%%\n'")
    assert result.text.startswith("red\n100%\n")


def test_deleting_commands_ask_and_run_only_on_yes(project):
    asked = []
    ws = Workspace(project, project / ".narnat", confirm=lambda c, r: asked.append((c, r)) or True)
    (project / "junk.txt").write_text("x")
    result = bash(ws, "rm junk.txt")
    assert asked == [("rm junk.txt", "rm deletes files: junk.txt")]
    assert not result.is_error and not (project / "junk.txt").exists()


def test_a_declined_deletion_is_not_run_and_the_model_is_told(project):
    ws = Workspace(project, project / ".narnat", confirm=lambda c, r: False)
    (project / "keep.txt").write_text("x")
    result = bash(ws, "echo start && rm -f keep.txt")
    assert result.is_error and "the user declined" in result.text
    assert (project / "keep.txt").exists()


def test_headless_without_yes_refuses_deletion(project):
    ws = Workspace(project, project / ".narnat", confirm=None)
    (project / "keep.txt").write_text("x")
    result = bash(ws, "git clean -fdx")
    assert result.is_error and "cannot ask" in result.text and "--yes" in result.text


def test_file_operations_are_refused_with_a_pointer(workspace):
    result = bash(workspace, "cat README.md")
    assert result.is_error and "use Read" in result.text
    assert "use Edit" in bash(workspace, "sed -i 's/a/b/' x.py").text


def test_terminal_programs_are_refused(workspace):
    assert "use Edit or Write" in bash(workspace, "vim app.py").text
    assert "git commit -m" in bash(workspace, "git commit").text


def test_programs_that_open_the_terminal_fail_fast(workspace):
    result = bash(workspace, "read -r x < /dev/tty; echo code $?", timeout=5000)  # waiting would time it out
    assert "code 1" in result.text and "timed out" not in result.text


def test_git_never_waits_for_an_editor(workspace, project):
    setup = (
        "git init -q -b main && git config user.email a@b && git config user.name a && "
        "touch a && git add a && git commit -qm one && git checkout -qb other && touch b && git add b && "
        "git commit -qm two && git checkout -q main && touch c && git add c && git commit -qm three"
    )
    assert "(exit code 0)" in bash(workspace, setup).text
    result = bash(workspace, "git merge other && git log --oneline | head -1", timeout=10000)  # or an editor waits
    assert "Merge branch 'other'" in result.text and "(exit code 0)" in result.text


def test_working_directory_that_vanished_falls_back_to_the_root(workspace, project):
    (project / "gone").mkdir()
    bash(workspace, "cd gone")
    os.rmdir(project / "gone")
    assert bash(workspace, "pwd").text.startswith(str(project))


def test_a_failing_stage_of_a_pipeline_is_reported_though_the_pipeline_exits_0(workspace, project):
    result = bash(workspace, "./no-such-program | sort")
    assert "(exit code 0" in result.text
    assert "stage 1 of the pipeline (./no-such-program) exited 127" in result.text
    quiet = bash(workspace, "yes | head -1; printf 'a\\n' | grep -c zzz | cat")
    assert "stage" not in quiet.text  # SIGPIPE upstream of head, and grep's "no match", are not failures


def test_a_timeout_above_the_maximum_is_said_not_clamped_silently(workspace):
    result = bash(workspace, "echo ok", timeout=900_000)
    assert "900000 ms is above the maximum; it ran with 600000 ms" in result.text
    assert "maximum" not in bash(workspace, "echo ok", timeout=5_000).text


def test_a_timeout_given_in_seconds_by_mistake_is_named_as_milliseconds(workspace):
    wrong = execute("Bash", {"command": "echo ok", "timeout": "2m"}, workspace)
    assert wrong.is_error and wrong.text.startswith("Error: 'timeout' must be an integer, not \"2m\"; timeout: ")
    assert "Milliseconds" in wrong.text
    stopped = bash(workspace, "sleep 5", timeout=120)
    assert "timeout is in milliseconds: 120 ms is 0.12 s (120 seconds would be 120000)" in stopped.text
    assert "milliseconds" not in bash(workspace, "echo ok", timeout=900).text  # said only when it cut the command
    workspace.bash_timeout_ms = 100  # the person's setting, not the model's slip: nothing to tell the model
    assert "milliseconds" not in bash(workspace, "sleep 5").text


@pytest.mark.slow
def test_a_timed_out_command_without_output_does_not_claim_partial_output(workspace):
    silent = bash(workspace, "sleep 5", timeout=500)
    assert "timed out after 0.5 s" in silent.text and "partial" not in silent.text and "no output" in silent.text
    chatty = bash(workspace, "echo started; sleep 5", timeout=500)
    assert chatty.text.startswith("started\n") and "output so far" in chatty.text


@pytest.mark.slow
def test_an_interrupted_command_leaves_no_spill_file(workspace, project):
    for command in ("sleep 5", "echo started; sleep 5"):
        timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
        timer.start()
        with pytest.raises(KeyboardInterrupt):
            bash(workspace, command)
        timer.join()
        assert list((project / ".narnat" / "spills").iterdir()) == [], command


def test_commands_never_see_the_api_key(workspace, monkeypatch):
    monkeypatch.setenv("NARNAT_API_KEY", "sk-canary-narnat")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-canary-openai")
    monkeypatch.setenv("COPIED_TOKEN", "sk-canary-openai")
    monkeypatch.setenv("FROM_CONFIG", "sk-canary-config")  # the key came from narnat.json, and also sits here
    monkeypatch.setenv("UNRELATED", "kept")
    ws = Workspace(workspace.root, workspace.state_dir, confirm=None, secret="sk-canary-config")
    names = "NARNAT_API_KEY OPENAI_API_KEY COPIED_TOKEN FROM_CONFIG UNRELATED"
    result = bash(ws, f'for v in {names}; do echo "$v=${{!v:-absent}}"; done')
    assert result.text.splitlines()[:5] == [f"{name}=absent" for name in names.split()[:4]] + ["UNRELATED=kept"]


def test_bash_names_its_directory_when_it_is_not_the_root_and_file_tools_point_there(workspace, project):
    (project / "pkg").mkdir()
    (project / "pkg" / "nap.py").write_text("x = 1\n")
    assert "working directory" not in bash(workspace, "pwd").text
    moved = bash(workspace, "cd pkg && ls")
    assert f"Bash's working directory: {project / 'pkg'}" in moved.text
    assert "file paths in the other tools still start at the project root" in moved.text
    missing = execute("Read", {"file_path": "nap.py"}, workspace)
    assert missing.is_error and "pkg/nap.py" in missing.text
    assert str(project) in missing.text and f"Bash is in {project / 'pkg'}" in missing.text
    assert not execute("Read", {"file_path": "pkg/nap.py"}, workspace).is_error


def test_git_checkout_of_a_file_without_an_extension_asks_and_of_a_branch_runs(project):
    asked = []
    ws = Workspace(project, project / ".narnat", confirm=lambda c, r: asked.append(c) or False)
    (project / "Makefile").write_text("all:\n")
    (project / "src").mkdir()
    for command in ("git checkout Makefile", "git checkout src"):
        assert "the user declined" in bash(ws, command).text
    assert asked == ["git checkout Makefile", "git checkout src"]
    bash(ws, "git checkout main")  # not a path here: git answers for itself, nobody is asked
    assert len(asked) == 2


def test_the_users_line_counts_every_line_and_a_failed_stage(workspace):
    long = bash(workspace, "seq 1 30000")
    assert long.summary == "exit 0 · 30000 lines" and long.detail.lines == 30000
    assert long.detail.shown_lines < 30000 and "omitted" in long.text  # the model saw a cut, and the user is told
    piped = bash(workspace, "(echo 'FAILED test_x'; exit 1) | tail -3")
    assert piped.summary == "exit 0 · a pipeline stage failed · 1 line" and piped.is_error


def test_a_ctrl_c_right_after_the_command_starts_still_stops_it(workspace):
    started: list[subprocess.Popen] = []

    def spawn_then_ctrl_c(*args, **kwargs) -> subprocess.Popen:
        process = subprocess.Popen(*args, **kwargs)
        started.append(process)
        os.kill(os.getpid(), signal.SIGINT)  # lands before execute() has anything in place to stop the command
        return process

    try:
        with pytest.raises(KeyboardInterrupt):
            bash_tool.execute("sleep 30", workspace, 60, spawn=spawn_then_ctrl_c)
        assert started[0].poll() is not None, "the command outlived the Ctrl-C"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(started[0].pid, signal.SIGKILL)
        started[0].wait()


@pytest.mark.parametrize("command", ["vim notes.txt", "python3", "top", "git rebase -i HEAD~2"])
def test_a_program_that_waits_for_a_terminal_is_refused_as_such_not_as_a_file_operation(workspace, command):
    result = bash(workspace, command)
    assert result.is_error and "it would wait for a terminal" in result.text, result.text
    assert "Bash is for running programs" not in result.text


@pytest.mark.parametrize("command", ["cat notes.txt", "grep -rn TODO .", "sed -i s/a/b/ notes.txt"])
def test_a_file_operation_is_refused_with_the_tool_that_does_it(workspace, project, command):
    (project / "notes.txt").write_text("a\n")
    result = bash(workspace, command)
    assert result.is_error and "Bash is for running programs" in result.text, result.text
    assert "wait for a terminal" not in result.text and "use " in result.text


KEY = "sk-spill-canary-0123456789"


def test_a_spill_file_is_the_users_alone_and_holds_the_key_masked(project):
    ws = Workspace(project, project / ".narnat", confirm=None, secret=KEY)
    split = KEY.replace("canary", '"c"anary')  # the call's own text does not hold the key: the output does
    result = bash(ws, f"seq 1 20000; echo {split} twice {split}; seq 1 5000")
    spill = project / result.text.split('file_path="')[1].split('"')[0]
    assert KEY not in result.text and "[API key] twice [API key]" in spill.read_text()
    assert KEY not in spill.read_text() and spill.stat().st_mode & 0o777 == 0o600


@pytest.mark.parametrize("cut", range(len(KEY) + 2))
def test_the_key_is_masked_in_a_spill_file_where_the_output_cuts_it(cut):
    import io

    from narnat_agent.tools.bash.execute import _Masked

    file = io.BytesIO()
    masked = _Masked(file, KEY)
    data = f"a {KEY} b sk-spill {KEY} sk-spill".encode()  # the end could start a key: it is written at the close
    for chunk in (data[:cut], data[cut : cut + 7], data[cut + 7 :]):
        masked.write(chunk)
    masked.close()
    assert file.getvalue() == b"a [API key] b sk-spill [API key] sk-spill"


def test_a_background_jobs_log_is_the_users_alone(workspace):
    execute("Bash", {"command": "echo started", "run_in_background": True}, workspace)
    [job] = workspace.jobs.started
    job.process.wait()
    job.output.finish(5)  # its output is copied to the log by a thread of its own, which may still be at it
    assert job.log.read_text() == "started\n" and job.log.stat().st_mode & 0o777 == 0o600


def test_a_shell_that_cannot_start_is_said_in_one_sentence(workspace, tmp_path):
    from narnat_agent.tools.base import ToolError
    from narnat_agent.tools.bash.shells import Shell

    missing = Shell("Git Bash", str(tmp_path / "Git" / "bin" / "bash.exe"), windows=True)
    with pytest.raises(ToolError, match=r"^the shell could not start \(.*bash.exe: No such file or directory\)\.$"):
        bash_tool.execute("echo hi", workspace, 5, shell=missing)


def test_a_command_stopped_at_its_timeout_says_so_with_its_notes_and_what_it_verified(workspace, project):
    (project / "sub").mkdir()
    bash(workspace, "cd sub")
    stopped = bash(workspace, "sleep 5", timeout=100)  # nothing holds the output: it is over as soon as it is stopped
    assert stopped.text == (
        f"(timed out after 0.1 s; the command and its children were stopped; no output; timeout is in milliseconds: "
        f"100 ms is 0.1 s (100 seconds would be 100000); Bash's working directory: {project / 'sub'} — file paths in "
        f"the other tools still start at the project root)"
    )
    assert stopped.summary == "timed out · 0 lines" and stopped.is_error and stopped.verification is None
    runner = bash(workspace, "pytest() { echo '  collecting'; sleep 5; }; pytest", timeout=100)
    said = "timed out after 0.1 s; the command and its children were stopped; the output so far is above"
    assert runner.text.startswith(f"  collecting\n({said}")
    assert (runner.summary, runner.detail) == ("timed out · 1 line", Output(("  collecting",), 1, 1))
    assert (runner.verification.command, runner.verification.exit_code) == ("pytest", None)


def test_a_verification_in_the_foreground_keeps_its_exit_code(workspace):
    failed = bash(workspace, "pytest() { return 3; }; pytest")
    assert failed.text == "(no output)\n(exit code 3)" and failed.summary == "exit 3 · 0 lines" and failed.is_error
    assert (failed.verification.command, failed.verification.exit_code) == ("pytest", 3)
    assert bash(workspace, "true").verification is None


@pytest.mark.parametrize(
    ("command", "status"),
    [
        ("false | cat", "exit code 0; stage 1 of the pipeline (false) exited 1"),
        (
            "(exit 3) | (exit 1) | cat",
            "exit code 0; stage 1 of the pipeline (exit) exited 3; stage 2 of the pipeline (exit) exited 1",
        ),
        ("X=false; $X | cat", "exit code 0; stage 1 of the pipeline (…) exited 1"),  # the program is known only then
    ],
)
def test_each_failed_stage_of_a_pipeline_is_named_with_its_exit_code(project, command, status):
    ws = Workspace(project, project / ".narnat", confirm=lambda c, r: True)
    result = bash(ws, command)
    assert result.text == f"(no output)\n({status})" and result.is_error
    assert result.summary == "exit 0 · a pipeline stage failed · 0 lines"


@pytest.mark.parametrize(
    "command",
    [
        "(exit 141) | true",
        "true | test",
        "printf 'a\\n' | /bin/grep -c zzz | cat",
        "! (exit 3) || false | cat",  # the statuses the shell reports are of a pipeline of one stage, not this one
    ],
)
def test_a_stage_stopped_by_sigpipe_or_answering_no_is_no_failure(workspace, command):
    result = bash(workspace, command)
    assert not result.is_error and "stage" not in result.text, result.text
    assert result.summary.startswith("exit ") and "failed" not in result.summary


def test_no_stage_is_named_when_an_earlier_pipeline_as_long_may_have_been_the_last_to_run(workspace):
    # `&&` stopped at the first pipeline: the statuses are its own, and `true` never ran
    result = bash(workspace, "false | false && true | cat")
    assert result.text == "(no output)\n(exit code 1)", result.text
    # one pipeline of two stages: the statuses can only be its own
    assert (
        bash(workspace, "true && false | cat").text
        == "(no output)\n(exit code 0; stage 1 of the pipeline (false) exited 1)"
    )


def test_a_last_stage_answering_no_by_a_path_or_alone_is_no_error(workspace):
    for command in ("printf 'a\\n' | /bin/grep -c zzz", "true | test"):
        result = bash(workspace, command)
        assert not result.is_error and "(exit code 1 — no match / a difference, not an error)" in result.text, command
    assert bash(workspace, "true | /bin/false").is_error


def test_a_command_the_person_named_runs_as_the_models_but_may_read_files(project):
    from narnat_agent.tools.registry import run_named

    asked = []
    ws = Workspace(project, project / ".narnat", confirm=lambda c, r: asked.append(c) or False)
    (project / "notes.txt").write_text("a\n")
    header, result = run_named("cat notes.txt", ws)  # a goal's check: the model would be sent to Read
    assert (header, result.text, result.is_error) == ("Bash(cat notes.txt)", "a\n(exit code 0)", False)
    header, result = run_named("rm notes.txt", ws)
    assert asked == ["rm notes.txt"] and result.is_error and (project / "notes.txt").exists()


def test_an_empty_command_is_refused_in_one_sentence(workspace):
    for command in ("", "  \n "):
        result = bash(workspace, command)
        assert (result.text, result.summary, result.is_error) == (
            "Error: the command is empty.", "the command is empty", True
        )  # fmt: skip


def test_a_timeout_of_exactly_the_maximum_is_taken_as_asked(workspace):
    result = bash(workspace, "echo ok", timeout=600_000)
    assert result.text == "ok\n(exit code 0)"
    assert bash(workspace, "echo ok", timeout=600_001).text.endswith(
        "(exit code 0; timeout 600001 ms is above the maximum; it ran with 600000 ms)"
    )


def test_a_job_waited_for_to_its_end_is_not_told_again_as_news(workspace):
    started = bash(workspace, "echo done", run_in_background=True)
    assert started.summary.startswith("job 1 started in the background · pid ")
    waited = bash(workspace, "wait %1", timeout=30_000)
    assert waited.text.startswith("done\n(job 1 exited with code 0; its whole output: .narnat/jobs/job-1-")
    assert (waited.summary, waited.is_error) == ("job 1: exited with code 0", False)
    assert bash(workspace, "true").text == "(no output)\n(exit code 0)"


def test_wait_finds_a_job_by_its_number_or_its_pid_and_names_the_jobs_when_none_is_found(workspace):
    none = bash(workspace, "wait %1")
    assert (none.text, none.summary) == (
        "Error: there is no background job 1 in this run; this run's jobs: none.", "there is no background job 1"
    )  # fmt: skip
    for word in ("one", "two"):
        bash(workspace, f"echo {word}", run_in_background=True)
    first, second = workspace.jobs.started
    assert bash(workspace, f"wait {first.pid}", timeout=30_000).text.startswith("one\n(job 1 exited with code 0;")
    assert bash(workspace, "wait 2", timeout=30_000).text.startswith("two\n(job 2 exited with code 0;")  # no such pid
    assert bash(workspace, "wait %2").text.startswith("(no new output)\n(job 2 exited with code 0;")  # said once
    known = f"%1 (pid {first.pid}), %2 (pid {second.pid})"
    for command, number in (("wait %3", 3), (f"wait %{second.pid}", second.pid), ("wait 7", 7)):
        missing = bash(workspace, command)
        assert missing.text == f"Error: there is no background job {number} in this run; this run's jobs: {known}."
        assert missing.summary == f"there is no background job {number}" and missing.is_error


def test_a_command_cancelled_midway_says_what_it_printed_and_that_it_was_stopped(workspace, project):
    os.mkfifo(project / "ready")  # the Ctrl-C comes once the command has printed: no clock decides

    def ctrl_c_once_ready() -> None:
        (project / "ready").read_text()
        os.kill(os.getpid(), signal.SIGINT)

    presser = threading.Thread(target=ctrl_c_once_ready)
    presser.start()
    with pytest.raises(Interrupted) as stopped:
        bash_tool.execute("echo X marks; echo started; echo > ready; sleep 5", workspace, 60)
    presser.join()
    result = stopped.value.result
    said = "cancelled by the user; the command and its children were stopped; the output so far is above"
    assert result.text == f"X marks\nstarted\n({said})"
    assert (result.summary, result.is_error) == ("cancelled · 2 lines", True)
    assert result.detail == Output(("X marks", "started"), 2, 2)
    assert list((project / ".narnat" / "spills").iterdir()) == []
    presser = threading.Thread(target=ctrl_c_once_ready)
    presser.start()
    with pytest.raises(Interrupted) as stopped:
        bash_tool.execute("seq 1 20000; echo > ready; sleep 5", workspace, 60)
    presser.join()
    spill = stopped.value.result.text.split('file_path="')[1].split('"')[0]  # the cut output names what it kept
    assert (project / spill).read_text() == "".join(f"{n}\n" for n in range(1, 20001))


def test_a_background_start_says_where_its_output_goes_how_to_wait_and_stop_and_what_ended_since(workspace):
    for _ in range(2):
        bash(workspace, "sleep 30", run_in_background=True)
    for job in workspace.jobs.started:
        workspace.jobs.stop(job)
        job.process.wait()
    try:
        started = bash(workspace, "sleep 31", run_in_background=True)
        third = workspace.jobs.started[2]
        log = workspace.show(third.log)
        assert log.startswith(".narnat/jobs/job-3-") and log.endswith(".log")
        assert started.text == (
            f"Started in the background as job 3, pid {third.pid} (its own process group). Its output goes to {log}: "
            "Read it (it grows; past 1 MB the log keeps the first and the last MB, and past 100 MB the job is "
            "stopped). Later Bash and Read results say when it ends; Bash `wait %3` waits for it (up to its timeout) "
            f"and returns its new output and exit code. Stop it with: kill -- -{third.pid}\n"
            "(background job 1 (sleep 30) was stopped by signal 15)\n"
            "(background job 2 (sleep 30) was stopped by signal 15)"
        )
        assert (started.summary, started.is_error) == (f"job 3 started in the background · pid {third.pid}", False)
    finally:
        workspace.jobs.stop_all()


def test_the_question_before_a_deletion_names_the_paths_from_the_commands_own_variables(project, monkeypatch):
    monkeypatch.setenv("FROM_CONFIG", "sk-canary-config-12345")  # the key, under a name nobody told Narnat of
    asked = []
    ws = Workspace(project, project / ".narnat", confirm=lambda c, r: asked.append(r) or False,
                   secret="sk-canary-config-12345")  # fmt: skip
    for command in ('rm -rf "$HOME/junk"', 'rm -rf "$FROM_CONFIG"'):
        assert bash(ws, command).is_error
    home = os.environ["HOME"]
    assert asked == [
        f"rm deletes files: {home}/junk — /undo restores only the project's files",
        "rm deletes files: $FROM_CONFIG (FROM_CONFIG unset: the path becomes '')",  # the command never sees the key
    ]


def test_narnats_virtualenv_inside_the_project_is_the_commands_too_when_a_deletion_is_asked(tmp_path, monkeypatch):
    import sys

    monkeypatch.setenv("VIRTUAL_ENV", sys.prefix)
    asked = []
    root = Path(sys.prefix).parent  # Narnat installed in the project's own virtualenv: nothing is run here
    ws = Workspace(root, tmp_path / ".narnat", confirm=lambda c, r: asked.append(r) or False)
    assert bash(ws, 'rm -rf "$VIRTUAL_ENV/narnat-absent"').is_error
    assert asked == [f"rm deletes files: {sys.prefix}/narnat-absent"]


def test_a_refusal_tells_the_person_in_short_what_the_model_is_told_at_length(workspace):
    file_op = bash(workspace, "grep -rn TODO .")
    assert file_op.text == "Error: not run — Bash is for running programs: searching files with grep: use Grep."
    assert file_op.summary == "not run: searching files with grep: use Grep"
    terminal = bash(workspace, "top")
    assert terminal.text == "Error: not run — it would wait for a terminal: top is interactive: use top -bn1."
    assert terminal.summary == "not run: top is interactive: use top -bn1"


def test_a_short_output_leaves_no_spill_file(workspace, project):
    assert bash(workspace, "seq 1 3").text == "1\n2\n3\n(exit code 0)"
    assert list((project / ".narnat" / "spills").iterdir()) == []


def test_output_left_out_though_the_rest_is_short_is_named_where_to_read_it(workspace, project):
    # a progress bar redrawn 50,000 times: what is kept of both ends, cleaned, is two short lines
    result = bash(workspace, "printf '\\r%06d' $(seq 1 50000); echo; echo done")
    gap = re.fullmatch(r'\[… [0-9,]+ bytes left out; Read\(file_path="(.+)"\) has them\]', result.text.splitlines()[1])
    assert gap is not None, result.text
    assert result.text.endswith("\n050000\ndone\n(exit code 0)") and (project / gap[1]).stat().st_size == 350_006


def test_plan_mode_refuses_the_models_commands_that_change_the_project_but_not_the_persons(project):
    from narnat_agent.tools.registry import run_named

    ws = Workspace(project, project / ".narnat", confirm=None, planning=True)
    refused = bash(ws, "touch made")
    assert refused.text == (
        "Error: plan mode: this would change the project (touch may change files), so it was not run. While planning, "
        "Bash runs only commands that read (ls, wc, diff, git status/log/diff/show, a program's --version; files are "
        "read and searched with Read, Grep and Glob); put the rest in the plan."
    )
    assert refused.summary == "plan mode: this would change the project (touch may change files)"
    assert not (project / "made").exists() and not bash(ws, "ls").is_error
    assert not run_named("touch named", ws)[1].is_error and (project / "named").exists()  # a goal's check runs


def test_windows_line_ends_and_a_last_line_without_its_end_are_lines_as_any(workspace):
    result = bash(workspace, "printf 'a\\r\\nb\\r\\nlast'")
    assert (result.text, result.summary) == ("a\nb\nlast\n(exit code 0)", "exit 0 · 3 lines")
    assert result.detail == Output(("a", "b", "last"), 3, 3, 0)


def test_a_spill_file_is_named_by_the_time_of_its_command(workspace, project):
    result = bash(workspace, "seq 1 20000")
    spill = result.text.split('file_path="')[1].split('"')[0]
    assert re.fullmatch(r"\.narnat/spills/bash-\d{8}-\d{6}-\d{6}\.log", spill), spill
    assert (project / spill).read_text() == "".join(f"{n}\n" for n in range(1, 20001))


def test_plan_mode_reads_the_command_where_bash_is(project):
    (project / "Makefile").write_text("all:\n")  # a file here, so checkout would overwrite it, not switch branch
    ws = Workspace(project, project / ".narnat", confirm=None, planning=True)
    refused = bash(ws, "git checkout Makefile")
    assert refused.summary == (
        "plan mode: this would change the project (git checkout <paths> overwrites uncommitted changes; git checkout "
        "may change files)"
    )


def test_the_question_before_a_deletion_says_what_undo_could_give_back_of_its_paths(project):
    asked, told = [], []
    ws = Workspace(project, project / ".narnat", confirm=lambda c, r: asked.append(str(r)) or False,
                   undo_says=lambda paths: told.append(paths) or "/undo restores them")  # fmt: skip
    (project / "junk.txt").write_text("x")
    declined = bash(ws, "rm junk.txt")
    assert told == [[project / "junk.txt"]] and asked == ["rm deletes files: junk.txt; /undo restores them"]
    assert declined.text == (
        "Error: the user declined to run it (rm deletes files: junk.txt). Do not destroy it another way; ask the user "
        "what they want."
    )
    assert declined.is_error and (project / "junk.txt").exists()


def test_after_a_cd_the_question_before_a_deletion_names_the_paths_where_the_command_runs(project):
    told = []
    ws = Workspace(project, project / ".narnat", confirm=lambda c, r: False,
                   undo_says=lambda paths: told.append(paths) or "/undo restores them")  # fmt: skip
    (project / "sub").mkdir()
    (project / "sub/junk.txt").write_text("x")
    (project / "junk.txt").write_text("the root's own")
    bash(ws, "cd sub")
    assert bash(ws, "rm junk.txt").is_error
    assert told == [[project / "sub" / "junk.txt"]]


def test_the_screen_gets_the_last_lines_the_exit_code_and_a_count_said_right(workspace):
    one = bash(workspace, "echo fine")
    assert (one.summary, one.detail) == ("exit 0 · 1 line", Output(("fine",), 1, 1, 0))
    many = bash(workspace, "seq 1 12; exit 4")
    assert (many.summary, many.detail) == ("exit 4 · 12 lines", Output(tuple(str(n) for n in range(5, 13)), 12, 12, 4))


def test_waiting_for_a_job_that_ended_gives_the_output_still_on_its_way_to_the_log(workspace):
    # the job's shell ends at once; what it left running prints a moment later, then closes the output
    bash(workspace, "(sleep 0.3; echo late) & echo early", run_in_background=True)
    workspace.jobs.started[0].process.wait()
    waited = bash(workspace, "wait %1", timeout=30_000)
    assert waited.text.startswith("early\nlate\n(job 1 exited with code 0; its whole output: "), waited.text


def test_a_line_too_long_to_show_is_cut_inside_and_said_so(workspace):
    # minified code, a one-line JSON: no whole line fits at either end
    alone = bash(workspace, "printf 'a%.0s' $(seq 1 40000)")
    head, marker, tail = alone.text.split("\n")[:3]
    spill = marker.split('file_path="')[1].split('"')[0]
    assert (head, tail) == ("a" * 9000, "a" * 21000) and alone.summary == "exit 0 · 1 line"
    assert marker == f'[… 10,000 characters of line 1 of 1 omitted; Read(file_path="{spill}", offset=1) shows them]'
    first = bash(workspace, "printf 'a%.0s' $(seq 1 40000); echo; echo done")
    head, marker, tail = first.text.split("\n")[:3]
    assert (head, tail) == ("a" * 9000, "done") and marker.startswith("[… 31,001 characters of line 1 of 2 omitted;")


def test_the_output_keeps_both_ends_in_memory_and_counts_what_it_left_out_between(tmp_path):
    import io

    from narnat_agent.tools.bash.execute import KEEP, _Output

    data = b"".join(b"%06d\n" % n for n in range(100_000))  # 700,000 bytes, read a pipe's 64 KB at a time
    output = _Output(io.BufferedReader(io.BytesIO(data)), tmp_path / "spill.log")
    output.thread.join()
    text, partial = output.text("spill.log")
    cut = re.fullmatch(
        r'(.*)\n\[… ([0-9,]+) bytes left out; Read\(file_path="spill.log"\) has them\]\n(.*)', text, re.S
    )
    assert cut is not None and partial
    head, left, tail = cut[1], int(cut[2].replace(",", "")), cut[3]
    assert len(head) == KEEP and KEEP <= len(tail) < KEEP + 65536
    assert head.encode() + data[KEEP : KEEP + left] + tail.encode() == data and data.endswith(tail.encode())
    assert output.lines == 100_000 and (tmp_path / "spill.log").read_bytes() == data


def test_a_command_leaves_no_file_of_its_own_in_the_temporary_folder(workspace, project, tmp_path, monkeypatch):
    import tempfile

    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))  # where the shell writes where it ended
    (project / "sub").mkdir()
    assert bash(workspace, "cd sub && exit 4").text == "(no output)\n(exit code 4)"
    assert workspace.cwd == project  # it left before saying where it was
    assert bash(workspace, "cd sub; echo $PIPESTATUS").text.startswith("0\n(exit code 0; Bash's working directory: ")
    assert workspace.cwd == project / "sub"
    assert bash(workspace, "sleep 5", timeout=100).summary == "timed out · 0 lines"
    assert list(folder.iterdir()) == []


def test_a_shell_that_cannot_start_leaves_no_file_and_is_said_short_to_the_person(workspace, tmp_path, monkeypatch):
    import tempfile

    from narnat_agent.tools.base import ToolError
    from narnat_agent.tools.bash.shells import Shell

    folder = tmp_path / "tmp"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))  # where the script and the file it would write go
    missing = Shell("Git Bash", str(tmp_path / "Git" / "bin" / "bash.exe"), windows=True)
    with pytest.raises(ToolError) as refused:
        bash_tool.execute("echo hi", workspace, 5, shell=missing)
    assert str(refused.value.shown) == f"the shell could not start ({missing.program}: No such file or directory)"
    assert list(folder.iterdir()) == []


def test_waiting_for_a_running_job_says_so_with_the_wait_it_took_and_verifies_nothing_yet(workspace):
    bash(workspace, "pytest() { sleep 30; }; pytest", run_in_background=True)
    try:
        waited = bash(workspace, "wait %1", timeout=100)
        log = workspace.show(workspace.jobs.started[0].log)
        assert waited.text == f"(no new output)\n(job 1 still running after 0.1 s; its whole output: {log})"
        assert (waited.summary, waited.is_error, waited.verification) == ("job 1: running", False, None)
    finally:
        workspace.jobs.stop_all()
    bash(workspace, "exit 3", run_in_background=True)
    failed = bash(workspace, "wait %2", timeout=30_000)
    assert failed.is_error and failed.summary == "job 2: exited with code 3"


@pytest.mark.slow
def test_waiting_for_a_job_whose_child_holds_its_output_gives_up_on_the_rest_after_a_moment(workspace):
    bash(workspace, "sleep 300 & echo started", run_in_background=True)  # past the suite's timeout
    try:
        workspace.jobs.started[0].process.wait()
        waited = bash(workspace, "wait %1", timeout=30_000)  # the child never closes the output while it runs
        assert waited.text.startswith("started\n(job 1 exited with code 0;")
    finally:
        workspace.jobs.stop_all()


def test_output_of_exactly_the_limit_is_shown_whole(workspace, project):
    result = bash(workspace, "printf 'a%.0s' $(seq 1 29999); echo")  # 30,000 characters with its newline
    assert result.text == "a" * 29999 + "\n(exit code 0)" and list((project / ".narnat" / "spills").iterdir()) == []


def test_a_command_in_the_foreground_is_no_background_job(workspace):
    result = bash(workspace, 'echo "job=${NARNAT_JOB-none}"')
    assert result.text == "job=none\n(exit code 0)"
