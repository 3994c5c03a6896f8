import logging
import os
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
