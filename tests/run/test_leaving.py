"""How a run ends on a signal, in process: the first SIGTERM or SIGHUP stops the turn and marks the run as leaving,
later ones change nothing; a hangup lets the dead terminal go; once the exit code is decided, they are ignored."""

import logging
import os
import signal

import pytest

from narnat_agent.run.signals import keep_exit_code, leave_on_signals

if os.name == "nt":  # the module's table names SIGHUP, which Windows lacks
    pytest.skip("SIGHUP is POSIX's; Windows' signals are tested there", allow_module_level=True)
ENDING = (signal.SIGTERM, signal.SIGHUP)


@pytest.fixture(autouse=True)
def handlers():
    """The test run's own handlers and the terminal's loggers, given back after each test."""
    before = {signum: signal.getsignal(signum) for signum in ENDING}
    levels = {name: logging.getLogger(name).level for name in ("asyncio", "prompt_toolkit")}
    yield
    for signum, handler in before.items():
        signal.signal(signum, handler)
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


def unstopped(signum: int) -> None:
    """The signal, delivered to a run that must not stop its turn for it."""
    try:
        signal.raise_signal(signum)
    except KeyboardInterrupt:  # caught here: pytest would take it for the person stopping the tests
        pytest.fail("the turn was stopped")


@pytest.mark.parametrize("signum", ENDING)
def test_the_first_signal_stops_the_turn_and_marks_the_run_leaving_and_later_ones_change_nothing(harness, signum):
    agent = harness().agent
    leave_on_signals(agent)
    with pytest.raises(KeyboardInterrupt):  # the plain UI's blocking read ends as a Ctrl-C would end it
        signal.raise_signal(signum)
    assert agent.leaving == signum
    other = ENDING[1 - ENDING.index(signum)]
    unstopped(other)  # a second one raised again would land in the exit save
    unstopped(signum)
    assert agent.leaving == signum


def test_without_stopping_the_signal_only_marks_the_run_leaving(harness):
    agent = harness().agent
    leave_on_signals(agent, stop=False)
    unstopped(signal.SIGTERM)
    assert agent.leaving == signal.SIGTERM


def test_a_hangup_sends_the_hung_up_terminal_to_dev_null_and_keeps_a_redirected_stream(harness, tmp_path):
    agent = harness().agent
    leave_on_signals(agent, stop=False)
    reader, writer = os.pipe()
    os.close(writer)  # what reading a hung-up terminal says: POLLHUP
    kept = os.dup(0)
    os.dup2(reader, 0)
    os.close(reader)
    fds = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    try:
        unstopped(signal.SIGHUP)
        assert os.path.samestat(os.fstat(0), os.stat(os.devnull))
        assert os.read(0, 1) == b"", "what reads the dead terminal's stdin meets its end, not an error"
        assert not os.path.samestat(os.fstat(1), os.stat(os.devnull))
        if fds is not None:
            assert len(os.listdir("/proc/self/fd")) == fds, "/dev/null is opened for the hangup only"
    finally:
        os.dup2(kept, 0)
        os.close(kept)
    assert agent.leaving == signal.SIGHUP
    assert logging.getLogger("asyncio").level == logging.getLogger("prompt_toolkit").level == logging.CRITICAL


def test_a_terminate_lets_the_terminal_be(harness):
    agent = harness().agent
    leave_on_signals(agent, stop=False)
    unstopped(signal.SIGTERM)
    assert logging.getLogger("asyncio").level != logging.CRITICAL


def test_once_the_exit_code_is_decided_the_ending_signals_are_ignored():
    keep_exit_code()
    assert [signal.getsignal(signum) for signum in ENDING] == [signal.SIG_IGN, signal.SIG_IGN]
    signal.raise_signal(signal.SIGTERM)
    signal.raise_signal(signal.SIGHUP)


def test_a_hangup_after_a_terminate_still_lets_the_dead_terminal_go(harness):
    agent = harness().agent
    leave_on_signals(agent, stop=False)
    unstopped(signal.SIGTERM)
    unstopped(signal.SIGHUP)
    assert agent.leaving == signal.SIGTERM
    assert logging.getLogger("asyncio").level == logging.getLogger("prompt_toolkit").level == logging.CRITICAL
