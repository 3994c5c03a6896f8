"""Output in UTF-8 whatever the console's code page: what a pipe receives decodes as UTF-8."""

import os
import subprocess
import sys
import threading

import pytest

from narnat_agent.platform.console import hung_up, key_ready
from tests.platforms import posix_only

PRINT = "from narnat_agent.platform.console import utf8_output; utf8_output(); print('● · ⎿ 你好')"


@pytest.mark.windows
def test_a_pipe_receives_utf8():
    done = subprocess.run([sys.executable, "-c", PRINT], capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.decode("utf-8").strip() == "● · ⎿ 你好"


@pytest.mark.skipif(sys.platform == "win32", reason="a console does not hang up")
def test_a_hung_up_descriptor_is_told_from_one_with_input_waiting():
    waiting, writer = os.pipe()
    os.write(writer, b"keys")
    closed, gone = os.pipe()
    os.close(gone)
    empty, empty_writer = os.pipe()
    try:
        assert hung_up((waiting, closed, empty)) == [closed]
    finally:
        for fd in (waiting, writer, closed, empty, empty_writer):
            os.close(fd)


@pytest.mark.windows  # POSIX: termios' settings; Windows: the console's input mode
def test_no_terminal_settings_are_kept_when_standard_input_is_a_pipe():
    saved = "from narnat_agent.platform.console import saved_terminal; print(saved_terminal())"
    done = subprocess.run(
        [sys.executable, "-c", saved], stdin=subprocess.PIPE, capture_output=True, text=True, timeout=60
    )  # text: print's line ends in CRLF on Windows
    assert done.stdout == "None\n", done.stderr


class Keyboard:
    """The terminal's input as the key watcher holds it: a descriptor to wait on."""

    def __init__(self, fd: int):
        self.fd = fd

    def fileno(self) -> int:
        return self.fd


@pytest.mark.skipif(sys.platform == "win32", reason="the console's handle is waited on there")
def test_a_key_is_waited_for_up_to_the_time_given():
    reader, writer = os.pipe()
    try:
        assert not key_ready(Keyboard(reader), 0)
        threading.Timer(0.2, os.write, (writer, b"\x1b")).start()  # only a wait that returns early depends on it
        assert key_ready(Keyboard(reader), 60)
    finally:
        os.close(reader)
        os.close(writer)


@posix_only("a terminal hangs up there")
def test_a_terminal_whose_other_end_closed_is_hung_up_though_it_also_says_input():
    master, terminal = os.openpty()
    os.close(master)  # the window closed: poll says hang-up, error and input at once
    try:
        assert hung_up((terminal,)) == [terminal]
    finally:
        os.close(terminal)


RESTORED = """import termios, tty
from narnat_agent.platform.console import saved_terminal
before = termios.tcgetattr(0)
restore = saved_terminal()
tty.setraw(0)  # what the key watcher and prompt_toolkit do meanwhile
restore()
print(termios.tcgetattr(0) == before)
"""


@posix_only("a terminal's settings are termios' there")
def test_a_terminal_is_given_back_the_settings_it_had_when_saved():
    master, terminal = os.openpty()
    try:
        done = subprocess.run([sys.executable, "-c", RESTORED], stdin=terminal, capture_output=True, timeout=60)
    finally:
        os.close(terminal)
        os.close(master)
    assert done.stdout == b"True\n", done.stderr


# every standard stream on a terminal whose window closed; what hung_up() finds is told on the descriptor given
ALL_HUNG_UP = """import os, sys
from narnat_agent.platform.console import hung_up
master, terminal = os.openpty()
os.close(master)
for fd in (0, 1, 2):
    os.dup2(terminal, fd)
os.write(int(sys.argv[1]), repr(hung_up()).encode())
"""


@posix_only("a terminal hangs up there")
def test_each_standard_stream_of_a_hung_up_terminal_is_found_standard_error_too():
    # a stream left on the dead terminal fails at each write: stderr is where a run's last errors go
    reader, writer = os.pipe()
    try:
        subprocess.run([sys.executable, "-c", ALL_HUNG_UP, str(writer)], pass_fds=(writer,), capture_output=True,
                       timeout=60)  # fmt: skip
        os.close(writer)
        writer = -1
        assert os.read(reader, 100) == b"[0, 1, 2]"
    finally:
        os.close(reader)
        if writer >= 0:
            os.close(writer)


# keys typed while a run ends (the next shell command typed ahead) are still there once its settings are given back
TYPED_AHEAD_KEPT = """import os, select, termios, tty
from narnat_agent.platform.console import saved_terminal
restore = saved_terminal()
tty.setraw(0, termios.TCSANOW)  # as the key watcher does: what was typed stays to be read
restore()
ready, _, _ = select.select([0], [], [], 30)  # the line is there at once: only a flushed one waits this long
print(os.read(0, 100) if ready else None)
"""


@posix_only("a terminal's settings are termios' there")
def test_giving_the_terminal_its_settings_back_keeps_what_was_typed_ahead():
    master, terminal = os.openpty()
    try:
        os.write(master, b"make test\n")
        done = subprocess.run([sys.executable, "-c", TYPED_AHEAD_KEPT], stdin=terminal, capture_output=True,
                              timeout=60)  # fmt: skip
    finally:
        os.close(terminal)
        os.close(master)
    assert done.stdout == b"b'make test\\n'\n", done.stderr
