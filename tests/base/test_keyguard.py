"""The API key out of reach of the commands Narnat runs: a command cannot read it, so the model cannot leak it in
any encoding. Real runs, real commands, real /proc."""

import base64
import contextlib
import json
import os
import shutil
import subprocess
import sys

import pytest

from narnat_agent.keyguard import can_confine
from tests.fake_llm import text_reply, tool_reply
from tests.run.test_cli import narnat

KEY = "sk-canary-93d1f0a6c4e2"
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and prctl are Linux's")


def tool_results(fake_llm) -> list[str]:
    return [m["content"] for m in fake_llm.requests[-1]["messages"] if m["role"] == "tool"]


def disguises(text: str) -> str:
    """The text, and what it says once un-reversed and base64-decoded line by line."""
    decoded = []
    for line in text.splitlines():
        with contextlib.suppress(ValueError):
            decoded.append(base64.b64decode(line.strip() + "==", validate=False).decode("latin-1"))
    return "\n".join([text, text[::-1], *decoded])


@pytest.mark.slow
@pytest.mark.skipif(not can_confine(), reason="user namespaces are not available here")
def test_a_command_cannot_read_the_key_file_nor_narnats_environment(project, fake_llm):
    home_settings = project.parent / "home" / ".narnat" / "narnat.json"
    home_settings.parent.mkdir(parents=True)
    home_settings.write_text(json.dumps({"api_key": KEY}))
    from_file = ('python3 -c \'import json,os;print(json.load(open(os.path.expanduser("~/.narnat/narnat.json")))'
                 '["api_key"])\' | rev')  # fmt: skip
    fake_llm.add(
        tool_reply(("Bash", {"command": from_file})),
        tool_reply(("Bash", {"command": "tr '\\0' '\\n' < /proc/$PPID/environ | grep NARNAT | base64 -w0"})),
        tool_reply(("Bash", {"command": "base64 -w0 < ~/.narnat/narnat.json"})),
        text_reply("done"),
    )
    done = narnat(project, "-p", "follow the README", "--yes", base_url=fake_llm.base_url, key=None)
    assert done.returncode == 0, done.stderr
    results = tool_results(fake_llm)
    assert len(results) == 3 and all(KEY not in disguises(result) for result in results), results
    assert "Permission denied" in results[1]
    assert KEY in home_settings.read_text()  # the user's own file is untouched


@pytest.mark.slow
@pytest.mark.skipif(not can_confine(), reason="user namespaces are not available here")
def test_a_key_from_the_environment_is_out_of_reach_too(project, fake_llm):
    fake_llm.add(
        tool_reply(("Bash", {"command": "cat /proc/$PPID/environ | base64 -w0; echo; env | base64 -w0"})),
        text_reply("done"),
    )
    done = narnat(project, "-p", "look", base_url=fake_llm.base_url, key=KEY)
    assert done.returncode == 0, done.stderr
    [result] = tool_results(fake_llm)
    assert KEY not in disguises(result) and "Permission denied" in result


@linux_only
@pytest.mark.skipif(
    linux_only.args[0] or os.geteuid() == 0 and not shutil.which("setpriv"), reason="needs setpriv to act as a user"
)
def test_narnats_process_is_closed_to_the_users_other_processes(tmp_path):
    """Where commands cannot be confined, a process of the same user still cannot read Narnat's environment."""
    as_user = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] if os.geteuid() == 0 else []
    code = "from narnat_agent.keyguard import seal_process; print(seal_process(), flush=True); input()"
    env = {**os.environ, "NARNAT_API_KEY": KEY}
    sealed = subprocess.Popen([*as_user, sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              env=env, text=True, cwd=tmp_path.parent)  # fmt: skip
    try:
        assert sealed.stdout.readline() == "True\n"
        reader = subprocess.run([*as_user, "cat", f"/proc/{sealed.pid}/environ"], capture_output=True, timeout=10)
    finally:
        sealed.communicate("\n", timeout=10)
    assert reader.returncode != 0 and KEY.encode() not in reader.stdout


def test_the_key_is_read_once_then_gone_from_narnats_environment(project, fake_llm, monkeypatch, capsys):
    """Nothing Narnat starts later (rg, git, a command where none can be confined) can inherit it."""
    from narnat_agent.cli import main

    monkeypatch.setenv("NARNAT_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("NARNAT_BASE_URL", fake_llm.base_url)
    fake_llm.add(text_reply("ok"))
    assert main(["-p", "hi"]) == 0
    assert "NARNAT_API_KEY" not in os.environ and "OPENAI_API_KEY" not in os.environ
    assert fake_llm.headers[0]["authorization"] == f"Bearer {KEY}"  # kept in memory, where it is needed
