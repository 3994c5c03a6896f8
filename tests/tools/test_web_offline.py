"""Without the internet the web tools say so once, and that retrying will not help (no per-engine class names)."""

import shutil
import socket
import subprocess
import sys

import pytest

from narnat_agent.tools.registry import execute
from narnat_agent.tools.web.http import Web

ENGINES = ("baidu", "bing", "duckduckgo", "duckduckgo-lite")
OFFLINE_RUN = """
import tempfile
from pathlib import Path
from narnat_agent.tools.registry import execute
from narnat_agent.tools.workspace import Workspace
root = Path(tempfile.mkdtemp())
workspace = Workspace(root, root / ".narnat", confirm=None)
print(execute("WebSearch", {"query": "python asyncio timeout"}, workspace).text)
print(execute("WebFetch", {"url": "https://docs.python.org/3/"}, workspace).text)
"""


def closed_port() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{s.getsockname()[1]}"


def test_every_engine_refusing_is_one_sentence_that_says_retrying_will_not_help(workspace):
    workspace.web = Web(dict.fromkeys(ENGINES, closed_port()))
    result = execute("WebSearch", {"query": "python asyncio timeout"}, workspace)
    assert result.is_error and result.text.startswith("Error: this machine cannot reach the internet")
    assert "Retrying will not help" in result.text and "ConnectionError" not in result.text


def test_one_reachable_engine_keeps_the_ordinary_message(workspace, web):
    workspace.web = Web({**dict.fromkeys(ENGINES, closed_port()), "bing": web.url})
    result = execute("WebSearch", {"query": "python asyncio timeout"}, workspace)
    assert "no search engine gave results" in result.text and "cannot reach the internet" not in result.text


def test_a_refused_fetch_says_refused(workspace):
    result = execute("WebFetch", {"url": f"{closed_port()}/page"}, workspace)
    assert result.text.endswith(": the connection was refused.") and "ConnectionError" not in result.text


def test_a_machine_without_a_network_is_named_as_such():
    """A real network namespace with no interfaces: no DNS, no route, as on a plane."""
    if not shutil.which("unshare") or subprocess.run(["unshare", "-rn", "true"], capture_output=True).returncode:
        pytest.skip("cannot make a network namespace here (unshare -rn refused)")
    done = subprocess.run(
        ["unshare", "-rn", sys.executable, "-c", OFFLINE_RUN], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    search, fetch = done.stdout.split("\nError: could not connect", 1)
    assert search.startswith("Error: this machine cannot reach the internet") and "Retrying will not help" in search
    assert "retrying will not help" in fetch and "ConnectionError" not in done.stdout
