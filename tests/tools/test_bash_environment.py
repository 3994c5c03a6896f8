"""Bash runs in the user's environment, not in the virtualenv Narnat itself was installed in."""

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from narnat_agent.tools.bash import environment
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


# In process: the environment a command gets, from this run's own (the suite runs in Narnat's virtualenv).
SCRIPTS = sysconfig.get_path("scripts")


def test_the_environment_leaves_out_narnats_virtualenv_and_keeps_the_rest_of_path(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", os.pathsep.join([SCRIPTS, "/usr/local/bin", SCRIPTS + "/", "/usr/bin"]))
    monkeypatch.setenv("VIRTUAL_ENV", sys.prefix + "/")
    monkeypatch.setenv("VIRTUAL_ENV_PROMPT", "(narnat)")
    for name, value in (("GIT_EDITOR", "vim"), ("PAGER", "less"), ("TERM", "xterm-256color")):
        monkeypatch.setenv(name, value)  # the person's own, for a terminal the command does not have
    env = environment("", tmp_path)
    assert env["PATH"] == os.pathsep.join(["/usr/local/bin", "/usr/bin"])
    assert "VIRTUAL_ENV" not in env and "VIRTUAL_ENV_PROMPT" not in env
    assert (env["GIT_EDITOR"], env["TERM"], env["PAGER"]) == ("true", "dumb", "cat")  # and no terminal to wait on


def test_another_activated_virtualenv_stays_and_so_does_path_without_narnats(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", os.pathsep.join([str(tmp_path / ".venv" / "bin"), SCRIPTS, "/usr/bin"]))
    monkeypatch.setenv("VIRTUAL_ENV", str(tmp_path / ".venv"))
    monkeypatch.setenv("VIRTUAL_ENV_PROMPT", "(project)")
    env = environment("", tmp_path)
    assert env["PATH"] == os.pathsep.join([str(tmp_path / ".venv" / "bin"), "/usr/bin"])
    assert (env["VIRTUAL_ENV"], env["VIRTUAL_ENV_PROMPT"]) == (str(tmp_path / ".venv"), "(project)")
    monkeypatch.delenv("PATH")
    assert "PATH" not in environment("", tmp_path)  # none is made up


def test_narnats_virtualenv_stays_where_it_is_the_projects_or_there_is_none(monkeypatch, tmp_path):
    path = os.pathsep.join([SCRIPTS, "/usr/bin"])
    monkeypatch.setenv("PATH", path)
    monkeypatch.setenv("VIRTUAL_ENV", sys.prefix)
    inside = environment("", Path(sys.prefix).parent)  # Narnat installed in the project's own .venv
    assert (inside["PATH"], inside["VIRTUAL_ENV"]) == (path, sys.prefix)
    assert environment("")["PATH"] == os.pathsep.join(["/usr/bin"])  # no project named: Narnat's is left out
    monkeypatch.setattr(sys, "base_prefix", sys.prefix)  # Narnat installed without a virtualenv
    assert environment("", tmp_path)["PATH"] == path


def virtualenv(root: Path, name: str = ".venv", programs: str = "bin") -> Path:
    """A virtualenv's shape, as `python -m venv` leaves it: pyvenv.cfg and the folder of its programs."""
    (root / name / programs).mkdir(parents=True)
    (root / name / "pyvenv.cfg").write_text("home = /usr/bin\n")
    return root / name


@pytest.mark.parametrize(("name", "programs"), [(".venv", "bin"), ("venv", "bin"), (".venv", "Scripts")])
def test_the_projects_own_virtualenv_is_activated_for_its_commands_when_none_is(monkeypatch, tmp_path, name, programs):
    monkeypatch.setenv("PATH", os.pathsep.join([SCRIPTS, "/usr/bin"]))
    monkeypatch.setenv("VIRTUAL_ENV", sys.prefix)  # Narnat's own, activated: left out, and the project's goes in
    mine = virtualenv(tmp_path, name, programs)
    env = environment("", tmp_path)
    assert (env["VIRTUAL_ENV"], env["PATH"]) == (str(mine), os.pathsep.join([str(mine / programs), "/usr/bin"]))


def test_an_active_virtualenv_a_folder_without_pyvenv_cfg_or_one_the_user_cannot_enter_activate_nothing(
    monkeypatch, tmp_path
):
    monkeypatch.setenv("PATH", "/usr/bin")
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    (tmp_path / "venv" / "bin").mkdir(parents=True)  # no pyvenv.cfg: a folder of that name, not a virtualenv
    assert "VIRTUAL_ENV" not in environment("", tmp_path) and environment("", tmp_path)["PATH"] == "/usr/bin"
    virtualenv(tmp_path, ".venv")
    monkeypatch.setenv("VIRTUAL_ENV", "/elsewhere/env")  # the user's own choice stays
    assert environment("", tmp_path)["VIRTUAL_ENV"] == "/elsewhere/env"
    monkeypatch.delenv("VIRTUAL_ENV")
    monkeypatch.delenv("PATH")
    assert environment("", tmp_path)["PATH"] == str(tmp_path / ".venv" / "bin")  # no PATH: its folder alone
