"""The process seam in process: a helper thread that takes none of the signals, and a Ctrl-C held while a child starts,
then handled as it would have been."""

import signal
import sys
import threading
from collections.abc import Callable

import pytest

from narnat_agent.processes import HeldInterrupt, start_thread


def quietly(step: Callable[[], object]) -> None:
    """A Ctrl-C that escapes where it should be held fails the test (it would stop the whole run otherwise)."""
    try:
        step()
    except KeyboardInterrupt:
        pytest.fail("a Ctrl-C was not held")


def ctrl_c() -> None:
    quietly(lambda: signal.raise_signal(signal.SIGINT))


@pytest.mark.skipif(sys.platform == "win32", reason="Python runs every handler on the main thread there")
def test_a_helper_thread_runs_its_target_and_takes_no_ctrl_c() -> None:
    seen: list[tuple] = []
    before = signal.pthread_sigmask(signal.SIG_BLOCK, set())
    thread = start_thread(lambda *args: seen.append((args, signal.pthread_sigmask(signal.SIG_BLOCK, set()))), 1, "a")
    thread.join(30)
    assert thread.daemon
    [(args, mask)] = seen
    assert args == (1, "a") and signal.SIGINT in mask
    assert signal.pthread_sigmask(signal.SIG_BLOCK, set()) == before


def test_a_ctrl_c_while_held_waits_for_release_and_then_interrupts() -> None:
    before = signal.getsignal(signal.SIGINT)
    with HeldInterrupt() as held:
        ctrl_c()  # no KeyboardInterrupt here: it is held
        assert held.caught is True
        with pytest.raises(KeyboardInterrupt):
            held.release()
        assert held.caught is False
        quietly(held.release)  # handled once only
    assert signal.getsignal(signal.SIGINT) is before


def test_nothing_held_is_nothing_released() -> None:
    with HeldInterrupt() as held:
        assert held.caught is False
        quietly(held.release)
    assert held.caught is False


def test_the_handler_narnat_set_gets_the_held_ctrl_c_once() -> None:
    calls: list[int] = []
    handler = lambda signum, frame: calls.append(signum)  # noqa: E731
    previous = signal.signal(signal.SIGINT, handler)
    try:
        with HeldInterrupt() as held:
            ctrl_c()
            assert calls == []
            quietly(held.release)  # the handler, not a KeyboardInterrupt
            quietly(held.release)
        assert calls == [signal.SIGINT]
        assert signal.getsignal(signal.SIGINT) is handler
    finally:
        signal.signal(signal.SIGINT, previous)


def test_an_ignored_ctrl_c_stays_ignored() -> None:
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        with HeldInterrupt() as held:
            ctrl_c()
            held.release()
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)


def test_another_thread_holds_nothing_and_leaves_the_handler_alone() -> None:
    before = signal.getsignal(signal.SIGINT)
    found: list[object] = []

    def hold() -> None:
        with HeldInterrupt() as held:
            found.append(held.previous)
            found.append(signal.getsignal(signal.SIGINT))

    thread = threading.Thread(target=hold)
    thread.start()
    thread.join(30)
    assert found == [None, before]
    assert signal.getsignal(signal.SIGINT) is before


def test_the_default_ctrl_c_handler_is_put_back_too() -> None:
    # SIG_DFL is 0: a truthiness check would take it for no handler and leave the holding one in place
    previous = signal.signal(signal.SIGINT, signal.SIG_DFL)
    try:
        with HeldInterrupt():
            assert signal.getsignal(signal.SIGINT) is not signal.SIG_DFL
        assert signal.getsignal(signal.SIGINT) is signal.SIG_DFL
    finally:
        signal.signal(signal.SIGINT, previous)
