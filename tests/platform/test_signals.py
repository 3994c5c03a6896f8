"""The main thread interrupted from another thread, as the key watcher does on ESC."""

import threading

import pytest

from narnat_agent.platform.signals import interrupt_main
from narnat_agent.processes import start_thread


@pytest.mark.windows
def test_another_thread_interrupts_the_main_threads_wait():
    started, never = threading.Event(), threading.Event()
    start_thread(lambda: (started.wait(), interrupt_main()))
    with pytest.raises(KeyboardInterrupt):
        started.set()
        while True:  # short waits, as Bash's wait for its command: a signal landing just before one begins is
            never.wait(0.05)  # handled when it ends (a wait on Windows is not interrupted at all)
