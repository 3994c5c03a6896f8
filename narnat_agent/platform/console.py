"""The terminal or console: a key waited for and read, its settings given back after a kill, a hung-up terminal let
go, and output in UTF-8.

POSIX: select() on the terminal, termios for its settings, poll() for a hangup; the streams keep the locale's
encoding (UTF-8 on every system Narnat supports). Windows: the console's input handle waited on, its mode for its
settings, no hangup; standard streams that are not the console (pipes, files) write UTF-8 whatever the code page
(a Chinese Windows defaults to cp936), as the console itself takes Unicode.
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from prompt_toolkit.input import Input
    from prompt_toolkit.key_binding import KeyPress

STANDARD = (0, 1, 2)

if sys.platform == "win32":
    from narnat_agent.platform import win32

    LANG_CHINESE = 0x04  # the primary language of every Chinese LANGID (zh-CN 0x0804, zh-TW 0x0404, …)

    def key_ready(keyboard: Input, timeout: float) -> bool:
        """Whether a key waits on the console, waiting up to timeout seconds for one."""
        from prompt_toolkit.eventloop.win32 import wait_for_handles

        return wait_for_handles([keyboard.handle], int(timeout * 1000)) is not None  # type: ignore[attr-defined]

    def read_keys(keyboard: Input) -> list[KeyPress]:
        """The keys waiting on the console. An ESC given as the virtual key alone is ESC too: Wine's console gives
        it so (Windows' gives its character), and prompt_toolkit reads ESC by its character."""
        from prompt_toolkit.key_binding import KeyPress
        from prompt_toolkit.keys import Keys

        bare = win32.bare_escapes(keyboard.handle)  # type: ignore[attr-defined]
        return [*keyboard.read_keys(), *(KeyPress(Keys.Escape, "\x1b") for _ in range(bare))]

    def saved_terminal() -> Callable[[], None] | None:
        """What gives the console back its input mode as it is now; None without a console."""
        console = win32.console_input_mode()
        if console is None:
            return None
        handle, mode = console
        return lambda: win32.set_console_mode(handle, mode)

    def hung_up(fds: tuple[int, ...] = STANDARD) -> list[int]:
        return []

    def system_language() -> str:
        """The language of Windows' interface as a locale name ("zh_CN" on a Chinese Windows): Windows sets no LANG."""
        return "zh_CN" if win32.ui_language() & 0x3FF == LANG_CHINESE else ""

    def utf8_output() -> None:
        """Standard streams that are not the console read and write UTF-8 (the console is Unicode already)."""
        for stream in (sys.stdin, sys.stdout, sys.stderr):
            if isinstance(stream, io.TextIOWrapper) and stream.encoding.lower().replace("-", "") != "utf8":
                with contextlib.suppress(OSError, ValueError):
                    stream.reconfigure(encoding="utf-8")

else:
    import select

    def key_ready(keyboard: Input, timeout: float) -> bool:
        """Whether a key waits on the terminal, waiting up to timeout seconds for one."""
        ready, _, _ = select.select([keyboard.fileno()], [], [], timeout)
        return bool(ready)

    def read_keys(keyboard: Input) -> list[KeyPress]:
        """The keys waiting on the terminal."""
        return keyboard.read_keys()

    def saved_terminal() -> Callable[[], None] | None:
        """What gives the terminal back its settings as they are now; None when standard input is no terminal."""
        import termios

        if not os.isatty(0):
            return None
        saved = termios.tcgetattr(0)

        def restore() -> None:
            with contextlib.suppress(termios.error, OSError):  # the terminal is gone (closed window, hung-up ssh)
                termios.tcsetattr(0, termios.TCSANOW, saved)

        return restore

    def hung_up(fds: tuple[int, ...] = STANDARD) -> list[int]:
        """The standard descriptors whose terminal hung up (isatty is False after a hangup: poll says it)."""
        found = []
        for fd in fds:
            poller = select.poll()
            poller.register(fd, select.POLLIN)
            if any(event & select.POLLHUP for _, event in poller.poll(0)):
                found.append(fd)
        return found

    def system_language() -> str:
        """Nothing beyond the locale's variables (LANG, LC_ALL), which the locale itself is."""
        return ""

    def utf8_output() -> None:
        """Nothing to do: the streams follow the locale, UTF-8 (Python makes the C locale UTF-8 too)."""
