"""`narnat acp`: Narnat as an Agent Client Protocol agent, which editors (Zed, JetBrains IDEs, Neovim plugins) start
and drive over stdin and stdout.

`server.py` answers the protocol's requests and runs each turn on the main thread; `sessions.py` opens a session in
the client's working folder as the REPL opens its conversation; `ui.py` is the UI the core talks to, said as protocol
messages; `calls.py` shows each tool call (kind, title, locations, a diff for a file change); `replay.py` tells a
saved conversation again; `wire.py` carries the lines. The protocol itself is the `agent-client-protocol` package's.
"""

from __future__ import annotations

import argparse


def run_acp(args: argparse.Namespace) -> int:
    """Serve one client until it closes stdin (or a signal ends the run); the exit code says which."""
    import os
    from pathlib import Path

    from narnat_agent.acp.server import serve
    from narnat_agent.acp.sessions import Settings
    from narnat_agent.acp.wire import stdio
    from narnat_agent.keyguard import forget_key_variables

    protocol_out = os.dup(1)  # the protocol's alone: whatever else writes to stdout lands on stderr
    os.dup2(2, 1)
    settings = Settings(args, dict(os.environ), Path.home())
    forget_key_variables(os.environ)  # each session reads the key from `settings`; the commands never see it
    return serve(settings, lambda: stdio(protocol_out))
