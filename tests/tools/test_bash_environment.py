"""Bash runs in the user's environment, not in the virtualenv Narnat itself was installed in."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fake_llm import text_reply, tool_reply
from tests.launch import scrubbed_environment

OWN = Path(sys.prefix)  # the suite runs in the virtualenv Narnat is installed in, as the README installs it
SHOW = 'echo "python=$(command -v python)"; echo "venv=${VIRTUAL_ENV-}"; echo "path=$PATH"'


def run_bash(project, fake_llm, path: list[Path], virtual_env: Path | None) -> tuple[dict[str, str], str]:
    """One headless run whose model calls Bash once: what the command saw, and the system prompt."""
    fake_llm.add(tool_reply(("Bash", {"command": SHOW})), text_reply("seen"))
    env = scrubbed_environment()
    env.update(HOME=str(project.parent / "home"), NARNAT_API_KEY="k", NARNAT_BASE_URL=fake_llm.base_url,
               PATH=os.pathsep.join(map(str, [*path, "/usr/local/bin", "/usr/bin", "/bin"])))  # fmt: skip
    if virtual_env:
        env["VIRTUAL_ENV"] = str(virtual_env)
    done = subprocess.run(
        [str(OWN / "bin" / "narnat"), "-p", "look"], cwd=project, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    messages = fake_llm.requests[-1]["messages"]
    result = next(m["content"] for m in messages if m["role"] == "tool")
    seen = dict(line.split("=", 1) for line in result.splitlines() if "=" in line)
    return seen, messages[0]["content"]


@pytest.mark.slow
def test_commands_do_not_see_narnats_own_virtualenv(project, fake_llm):
    seen, prompt = run_bash(project, fake_llm, [OWN / "bin"], OWN)  # `. .venv/bin/activate && narnat`
    assert str(OWN) not in seen["path"] and seen["venv"] == ""
    assert not seen["python"].startswith(str(OWN))
    assert "virtualenv" not in prompt.split("# Environment", 1)[1]


@pytest.mark.slow
def test_the_projects_own_virtualenv_stays_and_the_model_is_told_of_it(project, fake_llm):
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(project / ".venv")], check=True)
    mine = project / ".venv"
    seen, prompt = run_bash(project, fake_llm, [mine / "bin", OWN / "bin"], mine)  # the user activated theirs
    assert seen["python"] == str(mine / "bin" / "python") and seen["venv"] == str(mine)
    assert str(OWN / "bin") not in seen["path"].split(os.pathsep)
    environment = prompt.split("# Environment", 1)[1]
    assert "- Python virtualenv: .venv (active;" in environment
