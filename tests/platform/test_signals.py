"""The main thread interrupted from another thread, as the key watcher does on ESC."""

import signal
import subprocess
import sys
import threading

import pytest

from narnat_agent.platform.signals import held_from_threads, interrupt_main
from narnat_agent.processes import start_thread

# the key watcher's Esc as a run meets it: a helper thread interrupts the main thread's wait, which goes on after it
INTERRUPTED = """import threading
from narnat_agent.platform.signals import interrupt_main
from narnat_agent.processes import start_thread
started, never = threading.Event(), threading.Event()
start_thread(lambda: (started.wait(), interrupt_main()))
try:
    started.set()
    while True:
        never.wait(0.05)
except KeyboardInterrupt:
    print("stopped, still running")
"""


@pytest.mark.skipif(sys.platform == "win32", reason="the signal a thread sends the main one is POSIX's")
def test_an_interrupt_from_another_thread_stops_the_wait_and_the_run_goes_on():
    # a run sent anything but a SIGINT (or a signal sent to no thread of it) dies instead of stopping its turn
    done = subprocess.run([sys.executable, "-c", INTERRUPTED], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout == "stopped, still running\n", done.stderr


@pytest.mark.windows
def test_another_thread_interrupts_the_main_threads_wait():
    started, never = threading.Event(), threading.Event()
    start_thread(lambda: (started.wait(), interrupt_main()))
    with pytest.raises(KeyboardInterrupt):
        started.set()
        while True:  # short waits, as Bash's wait for its command: a signal landing just before one begins is
            never.wait(0.05)  # handled when it ends (a wait on Windows is not interrupted at all)


@pytest.mark.skipif(sys.platform == "win32", reason="Python runs every handler on the main thread there")
def test_threads_started_while_held_take_none_of_the_signals_and_the_main_thread_gets_them_back():
    ending = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
    before = signal.pthread_sigmask(signal.SIG_BLOCK, set())
    assert not ending & before
    masks: list[set] = []
    with held_from_threads():
        helper = threading.Thread(target=lambda: masks.append(signal.pthread_sigmask(signal.SIG_BLOCK, set())))
        helper.start()
        helper.join(30)
    assert ending <= masks[0]
    assert signal.pthread_sigmask(signal.SIG_BLOCK, set()) == before


@pytest.mark.skipif(sys.platform == "win32", reason="Python runs every handler on the main thread there")
def test_a_signal_blocked_before_stays_blocked_in_the_threads_started_while_held():
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGUSR1})
    masks: list[set] = []
    try:
        with held_from_threads():
            helper = threading.Thread(target=lambda: masks.append(signal.pthread_sigmask(signal.SIG_BLOCK, set())))
            helper.start()
            helper.join(30)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
    assert {signal.SIGUSR1, signal.SIGINT, signal.SIGTERM} <= masks[0]


@pytest.mark.skipif(sys.platform == "win32", reason="Python runs every handler on the main thread there")
def test_a_thread_that_fails_to_start_gives_the_main_thread_its_signals_back():
    before = signal.pthread_sigmask(signal.SIG_BLOCK, set())
    with pytest.raises(RuntimeError), held_from_threads():
        raise RuntimeError("can't start new thread")
    assert signal.pthread_sigmask(signal.SIG_BLOCK, set()) == before


@pytest.mark.skipif(sys.platform == "win32", reason="Python runs every handler on the main thread there")
def test_a_helper_thread_that_starts_another_still_takes_none_of_the_signals():
    # the key watcher's thread starts threads of its own: it must not come out of that able to take a Ctrl-C
    ending = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
    masks: list[set] = []

    def helper() -> None:
        start_thread(lambda: None).join(30)
        masks.append(signal.pthread_sigmask(signal.SIG_BLOCK, set()))

    start_thread(helper).join(30)
    assert ending <= masks[0]
