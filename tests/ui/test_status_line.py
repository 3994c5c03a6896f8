"""The status line below the prompt: its model and ctx agree with the footer and with /context."""

import io

from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from narnat_agent.commands.dispatch import dispatch
from narnat_agent.config.loader import load_config
from narnat_agent.conversation.session import new_session
from narnat_agent.core.agent import Agent
from narnat_agent.prompts.system_prompt import build_system_prompt
from narnat_agent.provider.client import Client
from narnat_agent.tools.workspace import Workspace
from narnat_agent.ui.terminal import TerminalUI
from tests.fake_llm import text_reply, usage


def test_the_status_line_shows_what_context_and_the_footer_show(project, fake_llm):
    env = {"NARNAT_API_KEY": "k", "NARNAT_BASE_URL": fake_llm.base_url, "NARNAT_MODEL": "fake-model"}
    config = load_config(project, project.parent / "home", env=env)
    fake_llm.models = ["fake-model", "other-model"]
    reply = text_reply("hello")
    reply.chunks[-1] = usage(6123)
    fake_llm.add(reply)
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        console = Console(file=io.StringIO(), width=100, record=True)
        ui = TerminalUI(console, project / ".narnat", project, {})
        prompt = build_system_prompt(config)
        workspace = Workspace(project, config.state_dir, ui.confirm)
        agent = Agent(config, ui, Client(config, ui.notice), workspace, new_session(prompt), prompt)
        agent.ask("hi")

        def shown(command: str) -> str:
            console.export_text()
            dispatch(agent, command)
            return console.export_text()

        assert "── ctx 6.1k/128k ·" in console.export_text()  # the footer
        assert ui._toolbar() == "fake-model · ctx 6.1k/128k · /help"
        assert shown("/context").startswith("ctx 6.1k/128k · ")
        shown("/model other-model")
        assert ui._toolbar() == "other-model · ctx 6.1k/128k · /help"
        shown("/clear")
        fresh = shown("/context").split(" · ")[0]
        assert fresh.startswith("ctx ~") and ui._toolbar() == f"other-model · {fresh} · /help"


def test_the_bell_rings_only_when_configured_and_on_a_terminal(project):
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        for terminal, after, rings in ((True, 30.0, True), (True, None, False), (False, 30.0, False)):
            out = io.StringIO()
            ui = TerminalUI(Console(file=out, force_terminal=terminal), project / ".narnat", project, {})
            ui.use_bell(after)
            ui.ring("waiting for you")
            assert (f"\x1b]0;narnat · {project.name} · waiting for you\x07\a" in out.getvalue()) is rings
