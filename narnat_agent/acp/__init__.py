"""`narnat acp`: Narnat as an Agent Client Protocol agent, which editors (Zed, JetBrains IDEs, Neovim plugins) start
and drive over stdin and stdout.

`server.py` answers the protocol's requests and runs each turn on the main thread; `sessions.py` opens a session in
the client's working folder as the REPL opens its conversation; `ui.py` is the UI the core talks to, said as protocol
messages; `calls.py` shows each tool call (kind, title, locations, a diff for a file change); `replay.py` tells a
saved conversation again; `wire.py` carries the lines. The protocol itself is the `agent-client-protocol` package's.
"""

from __future__ import annotations

import argparse
import os
import stat
import sys

from narnat_agent.i18n import _

USAGE_ERROR = 2  # as the command line's mistakes: nothing was served


def _streams(fd: int) -> bool:
    """Whether fd is something asyncio's pipe transports carry (a pipe, a socket, a terminal), not a regular file."""
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode)


def run_acp(args: argparse.Namespace) -> int:
    """Serve one client until it closes stdin (or a signal ends the run); the exit code says which."""
    from pathlib import Path

    from narnat_agent.acp.server import serve
    from narnat_agent.acp.sessions import Settings
    from narnat_agent.acp.wire import stdio
    from narnat_agent.keyguard import forget_key_variables

    if not all(_streams(fd) for fd in (0, 1)):
        said = _("narnat acp talks to an editor through pipes, and its stdin or stdout is a file here: let the editor "
                 "start it, or pipe it (… | narnat acp | tee log).")  # fmt: skip
        sys.stderr.write(f"✗ {said}\n")
        return USAGE_ERROR
    protocol_out = os.dup(1)  # the protocol's alone: whatever else writes to stdout lands on stderr
    os.dup2(2, 1)
    settings = Settings(args, dict(os.environ), Path.home())
    forget_key_variables(os.environ)  # each session reads the key from `settings`; the commands never see it
    return serve(settings, lambda: stdio(protocol_out))
