"""How a run ends on a signal: SIGTERM and SIGHUP (SIGBREAK on Windows) end it the way the user would, and a hung-up
terminal is let go."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from narnat_agent.core.agent import Agent


def leave_on_signals(agent: Agent, stop: bool = True) -> None:
    """SIGTERM and SIGHUP stop the turn like Esc does (`stop`), then the REPL ends and saves like Ctrl-D. Only the
    first one counts: closing a terminal delivers several, and none may interrupt the exit save."""
    import signal

    from narnat_agent.platform.signals import ENDING, HANGUP

    def leave(signum: int, frame: object) -> None:
        if signum == HANGUP:
            _mute_hung_up_terminal()
        if agent.leaving:
            return
        agent.leaving = signum
        if stop and not agent.ui.stop_reading():  # a waiting prompt ends like Ctrl-D; anything else stops like Esc
            raise KeyboardInterrupt

    for signum in ENDING:
        signal.signal(signum, leave)


def keep_exit_code() -> None:
    """The run is over and its exit code decided. While the interpreter shuts down (it puts back the signals' default
    actions, then can take a while collecting garbage), SIGTERM and SIGHUP are ignored: a second signal, or the
    hangup of a terminal closed after the save, must not turn the exit into a death by that signal (on Windows,
    SIGTERM and SIGBREAK: the signals that end a run there)."""
    import signal

    from narnat_agent.platform.signals import ENDING

    for signum in ENDING:
        signal.signal(signum, signal.SIG_IGN)  # the one action the shutdown leaves in place


def _mute_hung_up_terminal() -> None:
    """After a hangup nothing written to the terminal arrives and every write fails with a traceback: the
    standard streams that were that terminal go to /dev/null instead (a stream redirected to a file is kept)."""
    import logging
    import os

    from narnat_agent.platform.console import hung_up

    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in hung_up():
        os.dup2(devnull, fd)
    os.close(devnull)
    for name in ("asyncio", "prompt_toolkit"):  # their reports of the dead terminal itself
        logging.getLogger(name).setLevel(logging.CRITICAL)
