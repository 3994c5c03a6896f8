"""Commands that keep running: a real server in the background, its log read with Read, stopped with Bash."""

import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from narnat_agent import state
from narnat_agent.commands.dispatch import dispatch
from narnat_agent.platform.processes import TAG
from narnat_agent.processes.jobs import MB, RUNNING, JobLog, Jobs, sweep
from narnat_agent.run.start import stop_jobs
from narnat_agent.tools.registry import execute
from narnat_agent.tools.workspace import Workspace
from tests.fake_llm import text_reply, tool_reply
from tests.processes import ended, gone, until
from tests.run.test_cli import narnat

SERVER = """\
import http.server, sys
server = http.server.HTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
print(f"listening on {server.server_port}", flush=True)
with open(sys.argv[1], "w") as ready:  # the test waits on this pipe, not on a clock
    ready.write(str(server.server_port))
server.serve_forever()
"""


def start_server(project: Path, workspace):
    (project / "server.py").write_text(SERVER)
    os.mkfifo(project / "ready")
    command = f"{sys.executable} server.py ready"
    started = execute("Bash", {"command": command, "run_in_background": True}, workspace)
    port = int((project / "ready").read_text())
    return started, port


def test_a_background_server_runs_its_log_is_read_and_bash_stops_it(harness, project):
    h = harness()
    started, port = start_server(project, h.workspace)
    [job] = h.workspace.jobs.started
    assert f"job 1, pid {job.pid}" in started.text and f"kill -- -{job.pid}" in started.text
    assert ".narnat/jobs/job-1-" in started.text and not started.is_error
    assert urllib.request.urlopen(f"http://127.0.0.1:{port}/server.py").read() == SERVER.encode()
    log = execute("Read", {"file_path": h.workspace.show(job.log)}, h.workspace)
    assert f"listening on {port}" in log.text and "Job 1 is still running" in log.text
    dispatch(h.agent, "/jobs")
    assert f"1    {job.pid}  running" in h.out.getvalue() and "server.py ready" in h.out.getvalue()
    killed = execute("Bash", {"command": f"kill -- -{job.pid}"}, h.workspace)
    assert not killed.is_error
    job.process.wait()
    told = killed.text + execute("Bash", {"command": "true"}, h.workspace).text  # whichever came after its end
    assert told.count("background job 1 (") == 1 and "was stopped by signal 15" in told
    assert "background job" not in execute("Bash", {"command": "true"}, h.workspace).text


def test_background_commands_go_through_the_same_safety_analysis(workspace, project):
    refused = execute("Bash", {"command": "rm -rf build", "run_in_background": True}, workspace)
    assert refused.is_error and "declined" in refused.text and not workspace.jobs.started


@pytest.mark.slow
def test_narnat_stops_its_background_commands_process_group_and_all_when_it_exits(project, fake_llm):
    os.mkfifo(project / "ready")  # the second call waits on it until the background child exists
    write_pid = "import sys; open('child.pid', 'w').write(sys.argv[1]); open('ready', 'w').close()"
    command = f'sleep 300 & {sys.executable} -c "{write_pid}" $!; wait'
    wait_ready = f"{sys.executable} -c \"open('ready').read()\""
    fake_llm.add(tool_reply(("Bash", {"command": command, "run_in_background": True})),
                 tool_reply(("Bash", {"command": wait_ready})), text_reply("Started."))  # fmt: skip
    done = narnat(project, "-p", "start it", "--output-format", "stream-json", base_url=fake_llm.base_url)
    assert done.returncode == 0, done.stderr
    assert "Stopped 1 background command: sleep 300 & " in done.stderr
    assert json.loads(done.stdout.splitlines()[-1])["type"] == "result"
    assert gone(int((project / "child.pid").read_text()))


def test_a_server_the_analysis_knows_never_ends_is_started_in_the_background_not_refused(workspace, project):
    command = f"{sys.executable} -m http.server 0 --bind 127.0.0.1"
    refused = execute("Bash", {"command": command}, workspace)
    assert refused.is_error and "in the background" in refused.text  # in the foreground it would never end
    started = execute("Bash", {"command": command, "run_in_background": True}, workspace)
    [job] = workspace.jobs.started
    assert not started.is_error and f"job 1, pid {job.pid}" in started.text
    execute("Bash", {"command": f"kill -- -{job.pid}"}, workspace)
    job.process.wait()


def test_a_job_log_is_read_without_the_colour_codes_its_command_wrote(workspace, project):
    script = "import sys; print('\\x1b[32mPASSED\\x1b[0m test_x', flush=True)"
    execute("Bash", {"command": f'{sys.executable} -c "{script}"', "run_in_background": True}, workspace)
    [job] = workspace.jobs.started
    job.process.wait()
    log = execute("Read", {"file_path": workspace.show(job.log)}, workspace)
    assert "PASSED test_x" in log.text and "\x1b" not in log.text


def test_waiting_for_a_job_gives_its_new_output_and_how_it_ended(workspace, project):
    (project / "test_slow.py").write_text("import time\n\ndef test_slow():\n    time.sleep(1)\n    assert 1 == 2\n")
    command = f"{sys.executable} -m pytest -q -p no:cacheprovider test_slow.py"
    started = execute("Bash", {"command": command, "run_in_background": True}, workspace)
    assert "wait %1" in started.text
    done = execute("Bash", {"command": "wait %1", "timeout": 60_000}, workspace)
    assert "1 failed" in done.text and "job 1" in done.text and "exited with code 1" in done.text
    assert done.verification is not None and (done.verification.command, done.verification.exit_code) == ("pytest", 1)
    again = execute("Bash", {"command": "wait %1"}, workspace)
    assert "1 failed" not in again.text and "no new output" in again.text  # only what is new since the last wait
    assert "background job 1" not in execute("Bash", {"command": "echo hi"}, workspace).text  # said once, not as news


def test_waiting_for_a_job_whose_log_a_command_replaced_by_a_fifo_returns(workspace):
    # opening the FIFO to read it waited for a writer: `wait %1` and the run hung past every timeout
    execute("Bash", {"command": "printf 'a\\nb\\n'", "run_in_background": True}, workspace)
    [job] = workspace.jobs.started
    job.process.wait()
    job.output.finish(30)
    job.log.unlink()
    os.mkfifo(job.log)
    done = execute("Bash", {"command": "wait %1", "timeout": 5_000}, workspace)
    assert done.text.startswith("(no new output)\n(job 1 exited with code 0; its log ")
    assert done.text.endswith(" was removed or replaced, so its output is lost)")


@pytest.mark.parametrize(
    ("printed", "read", "then", "given"),
    [
        (
            "run 1\\nrun 2\\nrun 3\\n",
            "3\trun 3\n",
            "run 4\\n",
            "line 4 of its log, after what was already seen)\nrun 4\n",
        ),
        # a line Read while it was being written is given again, whole
        ("run 1\\npart", "2\tpart\n", "ial\\n", "line 2 of its log, after what was already seen)\npartial\n"),
    ],
)
def test_waiting_for_a_job_gives_the_output_after_what_the_model_read_of_its_log(
    workspace, project, printed, read, then, given
):
    for fifo in ("ready", "go"):  # the job says it has printed, then waits to print the rest: no clock
        os.mkfifo(project / fifo)
    code = f"import sys; sys.stdout.write('{printed}'); sys.stdout.flush(); open('ready', 'w').close(); "
    code += f"open('go').read(); sys.stdout.write('{then}')"
    execute("Bash", {"command": f'{sys.executable} -c "{code}"', "run_in_background": True}, workspace)
    (project / "ready").read_text()
    [job] = workspace.jobs.started
    # a thread copies the job's output into its log as it comes
    assert until(lambda: printed.replace("\\n", "\n") in job.log.read_text()), job.log.read_text()
    assert read in execute("Read", {"file_path": str(job.log)}, workspace).text
    (project / "go").write_text("")
    done = execute("Bash", {"command": "wait %1", "timeout": 30_000}, workspace)
    assert done.text.startswith(f"(its output from {given}")


def test_waiting_after_reading_part_of_a_jobs_log_gives_the_lines_not_read(workspace):
    execute("Bash", {"command": "printf 'a\\nb\\nc\\n'", "run_in_background": True}, workspace)
    [job] = workspace.jobs.started
    job.process.wait()
    execute("Read", {"file_path": str(job.log), "limit": 2}, workspace)
    done = execute("Bash", {"command": "wait %1", "timeout": 30_000}, workspace)
    assert done.text.startswith("(its output from line 3 of its log, after what was already seen)\nc\n(job 1 exited")


def test_waiting_for_a_job_gives_its_output_without_the_colours_it_wrote_for_a_terminal(workspace):
    code = "print('\\x1b[32m.\\x1b[0m\\x1b[1m 3 passed\\x1b[0m', flush=True)"
    execute("Bash", {"command": f'{sys.executable} -c "{code}"', "run_in_background": True}, workspace)
    done = execute("Bash", {"command": "wait %1", "timeout": 30_000}, workspace)
    assert ". 3 passed" in done.text and "\x1b" not in done.text


def test_a_jobs_end_is_said_in_the_interfaces_language_and_told_the_model_in_english(workspace):
    from narnat_agent import i18n

    execute("Bash", {"command": f'{sys.executable} -c "pass"', "run_in_background": True}, workspace)
    i18n.use("zh-CN")
    try:
        done = execute("Bash", {"command": "wait %1", "timeout": 30_000}, workspace)
    finally:
        i18n.use("en")
    assert done.summary == "任务 1：已结束，退出码 0" and "(job 1 exited with code 0;" in done.text


def test_a_background_test_run_read_to_its_end_is_a_verification_once(workspace, project):
    (project / "test_ok.py").write_text("def test_ok():\n    assert True\n")
    command = f"{sys.executable} -m pytest -q -p no:cacheprovider test_ok.py"
    execute("Bash", {"command": command, "run_in_background": True}, workspace)
    [job] = workspace.jobs.started
    job.process.wait()
    read = execute("Read", {"file_path": workspace.show(job.log)}, workspace)
    assert read.verification is not None and (read.verification.command, read.verification.exit_code) == ("pytest", 0)
    assert execute("Read", {"file_path": workspace.show(job.log)}, workspace).verification is None  # counted once
    assert execute("Bash", {"command": "wait %1"}, workspace).verification is None


def test_waiting_past_the_timeout_says_the_job_still_runs_and_keeps_it(workspace, project):
    code = "import time; print('started', flush=True); time.sleep(60)"
    execute("Bash", {"command": f'{sys.executable} -c "{code}"', "run_in_background": True}, workspace)
    [job] = workspace.jobs.started
    waited = execute("Bash", {"command": f"wait {job.pid}", "timeout": 500}, workspace)
    assert "started" in waited.text and "still running" in waited.text and job.process.poll() is None
    workspace.jobs.stop_all()


def test_waiting_for_a_job_that_does_not_exist_names_those_that_do(workspace):
    result = execute("Bash", {"command": "wait %3"}, workspace)
    assert result.is_error and "no background job 3" in result.text


def test_a_jobs_log_read_again_is_not_said_to_be_modified_externally(workspace, project):
    code = "import time; print('one', flush=True); time.sleep(0.5); print('two', flush=True)"
    execute("Bash", {"command": f'{sys.executable} -c "{code}"', "run_in_background": True}, workspace)
    [job] = workspace.jobs.started
    log = str(job.log)
    execute("Read", {"file_path": log}, workspace)
    execute("Bash", {"command": "wait %1", "timeout": 30_000}, workspace)
    again = execute("Read", {"file_path": log}, workspace)
    assert "two" in again.text and "modified externally" not in again.text


def test_a_job_stopped_when_narnat_exits_says_so_in_its_log_and_to_waiting_in_a_later_run(workspace, project):
    os.mkfifo(project / "ready")  # the job opens it once it has printed: the test waits on it, not on a clock
    code = "import time; print('run 1', flush=True); open('ready', 'w').close(); time.sleep(60)"
    execute("Bash", {"command": f'{sys.executable} -c "{code}"', "run_in_background": True}, workspace)
    [job] = workspace.jobs.started
    (project / "ready").read_text()
    workspace.jobs.stop_all()  # Narnat exits
    later = Workspace(project, project / ".narnat", confirm=lambda command, reason: False)  # `narnat -c`
    lines = execute("Read", {"file_path": str(job.log)}, later).text.splitlines()
    assert lines[0] == "1\trun 1" and re.fullmatch(
        r"\d\t\[Narnat stopped this job when it exited, at \d\d:\d\d: the command had not finished\.\]", lines[-2]
    )
    waited = execute("Bash", {"command": "wait %1"}, later)
    assert waited.is_error and "job 1 belonged to an earlier run of Narnat, which stopped it before it finished" in (
        waited.text
    )
    assert f"its log {later.show(job.log)} ends: [Narnat stopped this job when it exited" in waited.text
    assert "This run's jobs: none." in waited.text and "no background job" not in waited.text


def test_waiting_in_a_later_run_for_a_job_that_finished_names_its_log_not_a_missing_job(workspace, project):
    execute("Bash", {"command": "echo done", "run_in_background": True}, workspace)
    [job] = workspace.jobs.started
    execute("Bash", {"command": "wait %1", "timeout": 10_000}, workspace)
    workspace.jobs.stop_all()
    assert not job.log.read_text().endswith("had not finished.]\n")  # it was not stopped: it had ended
    later = Workspace(project, project / ".narnat", confirm=lambda command, reason: False)
    waited = execute("Bash", {"command": "wait %1"}, later)
    assert f"job 1 belonged to an earlier run of Narnat (job numbers start again in each run) and ended there; its " \
           f"log: {later.show(job.log)}." in waited.text  # fmt: skip
    assert "no background job" in execute("Bash", {"command": "wait %2"}, later).text  # none had that number


def test_of_two_earlier_runs_jobs_1_waiting_names_the_one_this_conversation_read(workspace, project):
    folder = state.jobs(project / ".narnat")
    folder.mkdir(parents=True)
    (folder / "job-1-20261127-090000.log").write_text("ours\n")
    (folder / "job-1-20261128-090000.log").write_text("another conversation's\n")  # newer
    assert "job-1-20261128-090000.log" in execute("Bash", {"command": "wait %1"}, workspace).text  # none read: newest
    execute("Read", {"file_path": ".narnat/jobs/job-1-20261127-090000.log"}, workspace)
    assert "job-1-20261127-090000.log" in execute("Bash", {"command": "wait %1"}, workspace).text


PRINT_MB = "import sys; [sys.stdout.write(f'{i:07d}' + 'x' * 1016 + '\\n') for i in range({n} * 1024)]"


def _job(workspace, script: str):
    execute("Bash", {"command": f'{sys.executable} -c "{script}"', "run_in_background": True}, workspace)
    job = workspace.jobs.started[-1]
    job.process.wait()
    workspace.jobs.of_log(job.log)  # the rest of its output in the log
    return job


def test_a_jobs_log_keeps_its_first_and_last_megabyte_and_says_what_it_left_out(workspace):
    job = _job(workspace, PRINT_MB.replace("{n}", "5"))
    data = job.log.read_bytes()
    lines = data.split(b"\n")
    assert lines[0].startswith(b"0000000x") and data.endswith(f"{5 * 1024 - 1:07d}".encode() + b"x" * 1016 + b"\n")
    assert len(data) <= 2 * MB + 200 and b" bytes of output left out here: this log keeps the first 1,048,576 " in data
    assert job.state == "exited with code 0"


def test_a_job_printing_past_the_limit_is_stopped_and_the_model_is_told(project):
    workspace = Workspace(project, project / ".narnat", confirm=None, jobs=Jobs(limit_mb=3))
    job = _job(workspace, "import sys\nwhile True: sys.stdout.write('y' * 1023 + '\\n')")
    assert job.output.over and len(job.log.read_bytes()) <= 2 * MB + 300
    assert job.process.returncode < 0  # stopped by Narnat, not ended by the pipe its reader closed
    assert job.log.read_bytes().endswith(b"[Narnat stopped this job: its output passed 3 MB.]\n")
    said = execute("Bash", {"command": "true"}, workspace).text
    assert "background job 1 (" in said and "was stopped: its output passed 3 MB (setting job_output_limit_mb)" in said


@pytest.mark.skipif(not sys.platform.startswith("linux") or not shutil.which("setsid"), reason="setsid is Linux's")
def test_a_child_that_left_the_jobs_process_group_is_stopped_with_it(workspace, project):
    os.mkfifo(project / "ready")  # the test waits on it until the escaped child exists
    write_pid = "import sys; open('escaped', 'w').write(sys.argv[1]); open('ready', 'w').close()"
    command = f'setsid sleep 300 & {sys.executable} -c "{write_pid}" $!; wait'
    started = execute("Bash", {"command": command, "run_in_background": True}, workspace)
    assert not started.is_error, started.text
    (project / "ready").read_text()
    workspace.jobs.stop_all()
    assert ended(project / "escaped")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="found by their environment, which Linux shows")
@pytest.mark.parametrize("detach", ["setsid -f {run} >/dev/null 2>&1", "nohup {run} >/dev/null 2>&1 &"])
def test_what_a_bash_call_left_running_apart_from_its_output_is_stopped_with_the_jobs(workspace, project, detach):
    # a server started with & and its output redirected outlives the call, as meant, but not Narnat
    pid_then_sleep = "import os; open('escaped', 'w').write(str(os.getpid())); os.execvp('sleep', ['sleep', '300'])"
    run = f'{sys.executable} -c "{pid_then_sleep}"'
    command = detach.format(run=run) + "\nwhile [ ! -s escaped ]; do sleep 0.01; done"
    ran = execute("Bash", {"command": command}, workspace)
    assert not ran.is_error, ran.text
    assert not ended(project / "escaped", within=0)
    workspace.jobs.stop_all()
    assert ended(project / "escaped")
    assert list(state.jobs(workspace.state_dir).glob(f"*{RUNNING}")) == []


def tag(name: str) -> str:
    """A job's tag no other run of the suite on the machine uses: a sweep ends every process that carries it."""
    return f"{name}-{os.getpid()}"


def left_behind(tmp_path: Path, *tags: str) -> tuple[Path, subprocess.Popen, list[subprocess.Popen]]:
    """A jobs folder, a process that has ended (a killed Narnat's pid), and a job's process per tag still running."""
    folder = tmp_path / "jobs"
    folder.mkdir()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    left = [subprocess.Popen(["sleep", "300"], env={**os.environ, TAG: tag}, start_new_session=True) for tag in tags]
    return folder, dead, left


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="on Windows a job's Job object ends it with Narnat")
def test_the_start_ends_what_a_killed_narnats_jobs_left_and_leaves_a_running_ones_alone(tmp_path):
    folder, dead, left = left_behind(tmp_path, tag("aaaa"), tag("bbbb"))
    (folder / f"job-1.log{RUNNING}").write_text(f"{dead.pid} {tag('aaaa')}\n")  # its Narnat was killed
    (folder / f"job-2.log{RUNNING}").write_text(f"{os.getppid()} {tag('bbbb')}\n")  # its Narnat still runs
    (folder / "job-1.log").write_text("run 1\n")
    assert sweep(folder) == 1
    assert left[0].wait(30) == -9 and left[1].poll() is None
    assert not (folder / f"job-1.log{RUNNING}").exists() and (folder / f"job-2.log{RUNNING}").exists()
    assert re.fullmatch(r"run 1\n\n\[Narnat stopped this job at \d\d:\d\d, when it next started: the run that started "
                        r"it had ended without stopping it; the command had not finished\.\]\n",
                        (folder / "job-1.log").read_text())  # fmt: skip
    left[1].kill()
    left[1].wait()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="on Windows a job's Job object ends it with Narnat")
def test_a_killed_narnat_whose_pid_this_run_got_again_has_its_jobs_ended(tmp_path):
    # a container gives each run the same pid: the marker names this run's pid but not one of its jobs
    folder, _, left = left_behind(tmp_path, tag("eeee"))
    (folder / f"job-1.log{RUNNING}").write_text(f"{os.getpid()} {tag('eeee')}\n")
    try:
        assert sweep(folder) == 1
        assert left[0].wait(30) == -9 and not (folder / f"job-1.log{RUNNING}").exists()
    finally:  # a sweep that passed over it leaves it running
        left[0].kill()
        left[0].wait()


def test_the_stop_notice_for_many_jobs_counts_them_and_names_the_first_few(harness, project):
    h = harness()
    for n in range(5):
        execute("Bash", {"command": f"sleep 30{n}", "run_in_background": True}, h.workspace)
    stop_jobs(h.agent)
    said = h.err.getvalue() + h.out.getvalue()
    assert "Stopped 5 background commands: sleep 300; sleep 301; sleep 302; and 2 more" in said
    assert "sleep 303" not in said


class Pieces(io.RawIOBase):
    """A pipe's reading end: the output comes in pieces of 10,000 bytes, which a megabyte is no multiple of."""

    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[override]
        piece = self.data[self.at : self.at + min(len(buffer), 10_000)]
        buffer[: len(piece)] = piece
        self.at += len(piece)
        return len(piece)


def _logged(tmp_path, data: bytes, limit: int = 100 * MB) -> tuple[JobLog, bytes, list]:
    """A job's output copied into its log as it comes (64 KiB at a time, as a pipe gives it), and the limit's calls."""
    log, stopped = tmp_path / "job.log", []
    log.write_bytes(b"")
    output = JobLog(log, limit, on_limit=lambda: stopped.append(output.total))
    output.follow(io.BufferedReader(Pieces(data)))
    output.finish(30)
    return output, log.read_bytes(), stopped


def test_a_log_keeps_the_first_megabyte_exactly_then_the_gap_then_the_newest_output(tmp_path):
    data = b"".join(f"{i:07d}".encode() + b"z" * 1016 + b"\n" for i in range(3 * 1024 + 17))
    output, log, stopped = _logged(tmp_path, data)
    head, gap_line, tail = log[:MB], *log[MB:].split(b"\n", 2)[1:]
    assert head == data[:MB] and data.endswith(tail) and MB // 2 <= len(tail) <= MB
    said = re.fullmatch(
        r"\[… ([\d,]+) bytes of output left out here: this log keeps the first 1,048,576 and the last "
        r"524,288 …\]",  # the newest half megabyte, when the line was written
        gap_line.decode(),
    )
    assert said and int(said[1].replace(",", "")) == len(data) - MB - len(tail)  # all that is not in the log
    assert output.total == len(data) and not output.over and stopped == []


def test_a_log_that_fits_is_the_output_as_it_came(tmp_path):
    data = b"x" * (2 * MB)  # the head and a whole tail: nothing left out yet
    _, log, _ = _logged(tmp_path, data)
    assert log == data


def test_the_limit_is_on_everything_the_job_printed_and_stops_it_once(tmp_path):
    exactly = _logged(tmp_path, b"y" * (3 * MB), limit=3 * MB)
    assert not exactly[0].over and exactly[2] == []
    over, log, stopped = _logged(tmp_path, b"y" * (3 * MB + 10_000) + b"w" * (2 * MB), limit=3 * MB)
    assert over.over and len(stopped) == 1 and 3 * MB < stopped[0] <= 3 * MB + 10_000
    assert b"w" not in log  # what it printed once stopped is not kept
    assert log.endswith(b"\n[Narnat stopped this job: its output passed 3 MB.]\n")


def test_a_job_still_running_is_not_news_and_one_that_ended_is_news_once(project):
    jobs = Jobs()
    log = project / "job-1.log"
    code = "import sys; print('ready', flush=True); sys.stdin.readline(); sys.stdout.buffer.write(b'more \\xff\\n')"
    spawn = lambda tag: subprocess.Popen(  # noqa: E731
        [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env={**os.environ, TAG: tag}
    )
    job = jobs.start("python waits", log, spawn)
    assert job.number == 1 and (project / f"job-1.log{RUNNING}").exists()
    assert jobs.news() == [] and job.state == "running"
    assert jobs.of_log(log) is job and not job.output.waited  # a running job's output is not waited for
    said = ""
    while not said.endswith("\n"):
        said += Jobs.new_output(job, 100)  # until the job has said it is ready
        time.sleep(0.01)
    assert said == "ready\n"
    job.process.stdin.write(b"go\n")  # type: ignore[union-attr]
    job.process.stdin.close()  # type: ignore[union-attr]
    job.process.wait()
    assert jobs.of_log(log) is job and job.output.waited and log.read_bytes() == b"ready\nmore \xff\n"
    assert jobs.news() == ["background job 1 (python waits) exited with code 0"] and jobs.news() == []
    assert Jobs.new_output(job, 7) == "more \ufffd\n" and Jobs.new_output(job, 7) == ""  # only what is new, once
    job.given = 0  # the whole log again: its last characters, and how many came before them
    assert Jobs.new_output(job, 2) == "[… 11 characters before these]\n\ufffd\n"
    job.given = 0
    assert Jobs.new_output(job, 13) == "ready\nmore \ufffd\n"
    assert jobs.stop_all() == [] and not (project / f"job-1.log{RUNNING}").exists()
    assert jobs.stop_all() == []  # stopped twice: nothing to say the second time
    assert jobs.of_log(project / "job-9.log") is None
    log.unlink()
    assert Jobs.new_output(job, 100) == ""  # the log deleted under it


@pytest.mark.slow
def test_the_rest_of_an_ended_jobs_output_is_waited_for_once(project):
    jobs = Jobs()
    log = project / "job-1.log"
    script = "sleep 300 & echo started"  # the child holds the output open after the job's first process ends
    spawn = lambda tag: subprocess.Popen(  # noqa: E731
        ["sh", "-c", script], stdout=subprocess.PIPE, start_new_session=True, env={**os.environ, TAG: tag}
    )
    job = jobs.start("sh", log, spawn)
    job.process.wait()
    assert jobs.of_log(log) is job and job.output.waited  # waited for DRAIN seconds, not for the child's end
    job.output.finish(3600)  # once only: this returns at once
    jobs.stop_all()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the sweep finds processes by their environment")
def test_the_sweep_counts_every_file_and_passes_over_those_it_cannot_read(tmp_path):
    folder, dead, left = left_behind(tmp_path, tag("cccc"), tag("dddd"))
    for n, name in enumerate((tag("cccc"), tag("dddd")), 1):
        (folder / f"job-{n}.log{RUNNING}").write_text(f"{dead.pid} {name}\n")
    (folder / f"job-3.log{RUNNING}").write_text("not a pid\n")
    (folder / f"job-4.log{RUNNING}").mkdir()
    assert sweep(folder) == 2 and [p.wait(30) for p in left] == [-9, -9]
    assert sorted(p.name for p in folder.iterdir()) == [f"job-3.log{RUNNING}", f"job-4.log{RUNNING}"]


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell ignoring SIGTERM")
def test_a_job_that_ignores_the_polite_stop_is_killed_after_the_grace(project):
    jobs = Jobs()
    script = "trap '' TERM; echo ready; sleep 300"
    spawn = lambda tag: subprocess.Popen(  # noqa: E731
        ["sh", "-c", script], stdout=subprocess.PIPE, start_new_session=True, env={**os.environ, TAG: tag}
    )
    job = jobs.start("stubborn", project / "job-1.log", spawn)
    while b"ready" not in job.log.read_bytes():
        time.sleep(0.01)
    assert jobs.stop_all() == [job] and job.process.returncode == -9


@pytest.mark.skipif(sys.platform == "win32", reason="sleep is a POSIX command")
def test_a_job_stopped_at_exit_ends_its_log_with_the_line_saying_so_after_its_last_output(project):
    # what the job's output pipe still brings once its tree is stopped (a server's goodbye, from a process that holds
    # the pipe too) comes first: a later run reads the log's last line to say how the job ended
    jobs = Jobs()
    log = project / "job-1.log"
    reader, writer = os.pipe()

    def spawn(tag: str) -> subprocess.Popen:
        process = subprocess.Popen(["sleep", "300"], start_new_session=True, env={**os.environ, TAG: tag})
        process.stdout = os.fdopen(reader, "rb")  # its output: a pipe this test holds open as well
        return process

    def last_words() -> None:  # once Narnat waits for the rest of the output, it comes and the pipe closes
        assert until(lambda: job.output.waited)
        os.write(writer, b"goodbye\n")
        os.close(writer)

    job = jobs.start("sleep 300", log, spawn)
    os.write(writer, b"serving\n")
    assert until(lambda: log.read_bytes() == b"serving\n")
    talker = threading.Thread(target=last_words, daemon=True)
    talker.start()
    assert jobs.stop_all() == [job]
    talker.join(30)
    assert re.fullmatch(
        rb"serving\ngoodbye\n\n\[Narnat stopped this job when it exited, at \d\d:\d\d: the command "
        rb"had not finished\.\]\n",
        log.read_bytes(),
    ), log.read_bytes()


@pytest.mark.skipif(sys.platform == "win32", reason="a SIGINT sent to the process itself")
def test_a_ctrl_c_while_a_job_starts_stops_it_before_going_on(project):
    jobs = Jobs()

    def spawn(tag: str) -> subprocess.Popen:
        process = subprocess.Popen(["sleep", "300"], stdout=subprocess.PIPE, start_new_session=True,
                                   env={**os.environ, TAG: tag})  # fmt: skip
        os.kill(os.getpid(), signal.SIGINT)  # the user's Ctrl-C, as the job starts
        return process

    with pytest.raises(KeyboardInterrupt):
        jobs.start("sleep 300", project / "job-1.log", spawn)
    [job] = jobs.started
    assert job.process.returncode is not None and not (project / f"job-1.log{RUNNING}").exists()


@pytest.mark.slow
def test_past_thirty_two_running_jobs_another_is_refused_until_one_ends(workspace):
    # hundreds of jobs took every descriptor Narnat had: then no command could start, and each failed start left a
    # log the next job's name collided with ("File exists")
    try:
        for _ in range(32):
            assert not execute("Bash", {"command": "sleep 60", "run_in_background": True}, workspace).is_error
        refused = execute("Bash", {"command": "sleep 60", "run_in_background": True}, workspace)
        assert refused.is_error and refused.text.startswith("Error: 32 background jobs are running (%1, %2, %3, %4, "
                                                            "%5, …), the most one run keeps")  # fmt: skip
        assert refused.summary == "32 background jobs are running already, the most one run keeps"
        assert len(workspace.jobs.started) == 32
        first = workspace.jobs.started[0]
        workspace.jobs.stop(first)
        first.process.wait()
        assert not execute("Bash", {"command": "true", "run_in_background": True}, workspace).is_error
    finally:
        workspace.jobs.stop_all()
