import io
import os
import signal
from pathlib import Path

import pytest
from hypothesis import settings

from narnat_agent.config.loader import load_config
from narnat_agent.conversation.session import new_session
from narnat_agent.core.agent import Agent
from narnat_agent.prompts.system_prompt import build_system_prompt
from narnat_agent.provider.client import Client
from narnat_agent.tools.workspace import Workspace
from narnat_agent.ui.plain import Interrupts, PlainUI, never
from tests.fake_llm import FakeLLM
from tests.launch import LEAKS

# Generated cases are the same on every run of a commit: CI never turns red on a draw, and a failure reproduces.
settings.register_profile("narnat", derandomize=True, print_blob=True)
settings.load_profile("narnat")

# The interrupt key reaches the core as SIGINT; a runner started in the background by a script has it ignored
# (and passes that on to every narnat it starts), so the tests take it back.
signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture
def fake_llm():
    server = FakeLLM()
    yield server
    server.close()


@pytest.fixture
def project(tmp_path, monkeypatch) -> Path:
    """An empty project directory with its own HOME, and no provider settings from the real environment."""
    root = tmp_path / "project"
    root.mkdir()
    (tmp_path / "home").mkdir()
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("USERPROFILE", str(tmp_path / "home"))  # Windows' home
    for name in list(os.environ):
        if name.startswith(LEAKS):
            monkeypatch.delenv(name)
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def workspace(project) -> Workspace:
    return Workspace(project, project / ".narnat", confirm=lambda command, reason: False)


class Harness:
    """A real agent wired to the fake server, with the plain UI (or the one given) writing into buffers."""

    def __init__(self, project: Path, fake: FakeLLM, answers: str = "", interrupts: Interrupts = never,
                 ui: PlainUI | None = None, **settings):  # fmt: skip
        env = {
            "NARNAT_API_KEY": settings.pop("api_key", "sk-test"),
            "NARNAT_BASE_URL": fake.base_url,
            "NARNAT_MODEL": "fake-model",
        }
        if settings:
            import json

            (project / ".narnat").mkdir(exist_ok=True)
            (project / ".narnat" / "narnat.json").write_text(json.dumps(settings))
        self.config = load_config(project, project.parent / "home", env=env)
        self.out, self.err = io.StringIO(), io.StringIO()
        self.ui = ui or PlainUI(self.out, self.err, io.StringIO(answers), interrupts)
        self.workspace = Workspace(project, self.config.state_dir, self.ui.confirm, self.config.bash_timeout_ms,
                                   sees_images=self.config.sees_images, secret=self.config.api_key)  # fmt: skip
        prompt = build_system_prompt(self.config)
        client = Client(self.config, self.ui.notice)
        self.agent = Agent(self.config, self.ui, client, self.workspace, new_session(prompt), prompt)
        self.agent.offer_undo(self.ui.confirm)  # as the REPL does

    @property
    def conversation(self):
        return self.agent.conversation


def assert_failed(outcome, pattern: str) -> None:
    """The turn failed on the provider's side, with a sentence matching the pattern."""
    import re

    from narnat_agent.core.turn import Stop

    assert outcome.stop is Stop.PROVIDER_ERROR and re.search(pattern, outcome.message), outcome


@pytest.fixture
def harness(project, fake_llm):
    def make(answers: str = "", interrupts: Interrupts = never, ui: PlainUI | None = None, **settings) -> Harness:
        return Harness(project, fake_llm, answers, interrupts, ui, **settings)

    return make


@pytest.fixture
def web():
    from tests.web_server import WebServer

    server = WebServer()
    yield server
    server.close()


if os.name == "nt":
    # The tests' own files are UTF-8 with LF line endings, as on Linux, where a test writes text without saying how;
    # Narnat itself always names its encoding (tests/layout/test_text_io.py holds it to that).
    import pathlib

    _read_text, _write_text = pathlib.Path.read_text, pathlib.Path.write_text

    def _utf8_read_text(self, encoding=None, errors=None):
        return _read_text(self, encoding or "utf-8", errors)

    def _utf8_write_text(self, data, encoding=None, errors=None, newline=None):
        return _write_text(self, data, encoding or "utf-8", errors, "" if newline is None and not encoding else newline)

    pathlib.Path.read_text = _utf8_read_text  # type: ignore[method-assign]
    pathlib.Path.write_text = _utf8_write_text  # type: ignore[method-assign]
