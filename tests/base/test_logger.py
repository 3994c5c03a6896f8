import logging
import os
import re
import signal
import subprocess

import pytest

if os.name == "nt":
    pytest.skip("file-size limits (resource) and signals are POSIX's", allow_module_level=True)

import resource  # noqa: E402

from narnat_agent.logger import get_logger, start_log
from tests.fake_llm import text_reply
from tests.launch import NARNAT
from tests.run.test_cli import narnat


def flush():
    for handler in logging.getLogger("narnat").handlers:
        handler.flush()


def test_log_lines_have_the_design_format_and_never_hold_secrets(tmp_path):
    path = start_log(tmp_path / ".narnat", ["sk-secret-123"], print)
    log = get_logger("core.llm")
    log.info("request with key %s", "sk-secret-123")
    log.info("headers: {'Authorization': 'Bearer sk-other'}")
    flush()
    text = path.read_text()
    assert path.parent == tmp_path / ".narnat" / "logs"
    assert "sk-secret-123" not in text and "sk-other" not in text
    first = text.splitlines()[0]
    assert first[19:] == " [core.llm] INFO request with key ***"


def test_terminal_controls_in_a_logged_result_are_written_visible_not_obeyed(tmp_path):
    # `tail -f .narnat/logs/…` shows the log in a terminal: a file's text set the window title from there
    path = start_log(tmp_path, [], print)
    get_logger("tools.read").info("result: %s", "evil \x1b]0;PWN\x07 \x9b2J \u202eRTL\nnext\tline")
    flush()
    assert path.read_text(encoding="utf-8").splitlines()[0][19:] == (
        " [tools.read] INFO result: evil ␛]0;PWN␇ \\x9b2J \\u202eRTL")  # fmt: skip
    assert path.read_text(encoding="utf-8").splitlines()[1] == "next\tline"


def test_a_short_key_does_not_mangle_words_that_contain_it(tmp_path):
    path = start_log(tmp_path, ["local", "x"], print)
    get_logger("core.llm").info("connected to localhost; exit code 0")
    flush()
    assert path.read_text().rstrip().endswith("connected to localhost; exit code 0")


def test_undecodable_text_is_logged_escaped_and_logging_goes_on(tmp_path):
    path = start_log(tmp_path, [], print)
    name = b"caf\xe9.py".decode("utf-8", "surrogateescape")
    get_logger("tools.read").info("read %s", name)
    get_logger("tools.read").info("still logging")
    flush()
    assert path.read_text().splitlines()[0].endswith("read caf\\xe9.py") and "still logging" in path.read_text()


@pytest.mark.slow
def test_two_processes_started_together_get_their_own_log(project, fake_llm):
    fake_llm.add(text_reply("one"), text_reply("two"))
    env = {**os.environ, "HOME": str(project.parent / "home"), "NARNAT_API_KEY": "sk-test-key",
           "NARNAT_BASE_URL": fake_llm.base_url}  # fmt: skip
    runs = [subprocess.Popen([*NARNAT, "-p", f"question {i}"], cwd=project, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE) for i in (1, 2)]  # fmt: skip
    assert [run.wait(timeout=60) for run in runs] == [0, 0]
    logs = sorted((project / ".narnat" / "logs").glob("*.log"))
    assert len(logs) == 2
    assert sorted(log.read_text().count("user input") for log in logs) == [1, 1]


def limit_file_size(size: int):
    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails with EFBIG instead of killing the process
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return apply


@pytest.mark.slow
def test_a_log_that_cannot_be_written_costs_one_notice_not_a_traceback_per_line(project, fake_llm):
    fake_llm.add(text_reply("the answer"))
    done = narnat(project, "-p", "hi", base_url=fake_llm.base_url, preexec_fn=limit_file_size(150))
    assert done.returncode == 0 and done.stdout == "the answer\n"
    assert "Traceback" not in done.stderr and "Logging error" not in done.stderr
    assert done.stderr.count("Cannot write the log") == 1 and "File too large" in done.stderr


def test_a_log_folder_that_cannot_be_made_costs_one_notice(tmp_path):
    (tmp_path / "state").write_text("a file where the folder should be")
    notices = []
    start_log(tmp_path / "state", [], notices.append)
    get_logger("core.agent").warning("first")
    get_logger("core.agent").warning("second")
    assert len(notices) == 1 and "Cannot write the log" in notices[0] and "logging is off" in notices[0]


@pytest.fixture
def narnat_log():
    """The narnat logger as the test run had it, given back after the test."""
    root = logging.getLogger("narnat")
    handlers, propagate, level = list(root.handlers), root.propagate, root.level
    yield root
    for handler in list(root.handlers):
        root.removeHandler(handler)
        handler.close()
    for handler in handlers:
        root.addHandler(handler)
    root.propagate, root.level = propagate, level


def test_a_header_is_logged_with_its_credential_alone_masked(tmp_path, narnat_log):
    path = start_log(tmp_path, [], print)
    get_logger("core.llm").info("headers: {'Authorization': 'Bearer sk-other', 'x-api-key': 'k'}")
    flush()
    assert path.read_text().splitlines()[0][19:] == (
        " [core.llm] INFO headers: {'Authorization': '***', 'x-api-key': 'k'}"
    )


def test_a_later_log_replaces_the_earlier_and_nothing_reaches_the_terminal(tmp_path, narnat_log, caplog, capfd):
    first = start_log(tmp_path / "one", [], print)
    get_logger("core.agent").warning("into the first")
    second = start_log(tmp_path / "two", [], print)
    get_logger("core.agent").warning("into the second")
    flush()
    assert "into the first" in first.read_text() and "into the second" not in first.read_text()
    assert "into the second" in second.read_text()
    assert narnat_log.handlers == [h for h in narnat_log.handlers if h.baseFilename == str(second)]
    assert caplog.records == [] and capfd.readouterr().err == ""


def test_a_log_that_fails_while_written_says_why_once(tmp_path, narnat_log):
    notices = []
    path = start_log(tmp_path, [], notices.append)
    get_logger("core.agent").info("first")
    narnat_log.handlers[0].stream.close()  # the file the log writes to fails under it
    get_logger("core.agent").info("second")
    get_logger("core.agent").info("third")
    assert notices == [f"Cannot write the log {path} (ValueError); logging is off for this run."]


def test_a_log_folder_that_cannot_be_made_says_what_failed_and_where_and_nothing_more(tmp_path, narnat_log, capsys):
    (tmp_path / "state").write_text("a file where the folder should be")
    notices = []
    path = start_log(tmp_path / "state", [], notices.append)
    get_logger("core.agent").warning("first")
    get_logger("core.agent").warning("second, once logging is off")
    assert notices == [f"Cannot write the log {path} (Not a directory); logging is off for this run."]
    assert capsys.readouterr() == ("", ""), "no warning reaches the terminal once logging is off"


def test_a_log_is_named_by_its_start_and_its_process_so_runs_started_together_get_their_own(tmp_path, narnat_log):
    path = start_log(tmp_path, [], print)
    assert re.fullmatch(rf"\d{{4}}-\d\d-\d\d_\d\d-\d\d-\d\d-{os.getpid()}\.log", path.name), path.name
