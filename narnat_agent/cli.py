"""`narnat`: the REPL, or one headless request with -p. Heavy modules load only after the flags are read."""

import argparse
import sys

from narnat_agent import __version__

OLLAMA = "http://127.0.0.1:11434"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="narnat", description="A terminal coding agent for OpenAI-compatible models.")
    parser.add_argument("-p", "--print", dest="prompt", metavar="PROMPT",
                        help="answer one request and exit; '-' reads it from stdin")  # fmt: skip
    parser.add_argument("--model", help="use this model instead of the configured one")
    parser.add_argument("--resume", metavar="NAME", help="start from a saved session")
    parser.add_argument("--yes", action="store_true", help="headless: run commands that would ask for confirmation")
    parser.add_argument("--version", action="version", version=f"narnat {__version__}")
    return parser


def ollama_models() -> list[str]:
    """The models of an Ollama server on this machine, or [] when none answers quickly."""
    import json
    import urllib.request

    try:
        with urllib.request.urlopen(f"{OLLAMA}/api/tags", timeout=0.5) as response:
            return [m["name"] for m in json.load(response).get("models", [])]
    except (OSError, ValueError, KeyError, TypeError):
        return []


def first_run_setup(ui, project) -> None:
    """Ask for the endpoint, key and model, and save them to ./.narnat/narnat.json."""
    from narnat_agent.config.defaults import DEFAULT_BASE_URL, DEFAULTS
    from narnat_agent.config.loader import write_project_config

    models = ollama_models()
    base_url, model, key = DEFAULT_BASE_URL, str(DEFAULTS["model"]), ""
    if models:
        ui.notice(f"An Ollama server answers on {OLLAMA} with: {', '.join(models[:10])}")
        base_url, model, key = f"{OLLAMA}/v1", models[0], "ollama"
    ui.notice("No API key configured yet; three questions, saved to .narnat/narnat.json.")
    base_url = ui.ask("Base URL", base_url)
    key = ui.ask("API key (hidden)", key, secret=True)
    model = ui.ask("Model", model)
    path = write_project_config(project, {"base_url": base_url, "api_key": key, "model": model})
    ui.notice(f"Saved {path} (mode 0600; .narnat/.gitignore keeps it out of git).")


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return _start(args)
    except KeyboardInterrupt:  # Ctrl-C before the conversation could take it: leave quietly, as shells report it
        return 130


def _start(args: argparse.Namespace) -> int:
    from pathlib import Path

    from narnat_agent.commands.session import COMMANDS
    from narnat_agent.config.loader import ConfigError, MissingApiKey, build_system_prompt, load_config
    from narnat_agent.ui.ui_design import make_ui

    prompt = sys.stdin.read() if args.prompt == "-" else args.prompt
    headless = prompt is not None
    help_lines = {name: (fn.__doc__ or "").split(" — ", 1)[-1] for name, fn in COMMANDS.items()}
    ui = make_ui(headless, Path.cwd(), help_lines)
    if headless and not prompt.strip():
        ui.error("The prompt is empty: pass text after -p, or '-p -' with the prompt on stdin.")
        return 2
    project, home = Path.cwd(), Path.home()
    try:
        try:
            config = load_config(project, home, model=args.model)
        except MissingApiKey:
            if headless or not sys.stdin.isatty():
                raise
            first_run_setup(ui, project)
            config = load_config(project, home, model=args.model)
    except ConfigError as e:
        ui.error(str(e))
        return 2
    for notice in config.notices:
        ui.notice(notice)
    ui.use_interrupt_key(config.interrupt_key)
    confirm = ui.confirm if not headless else (lambda command, reason: True) if args.yes else None
    return _run(config, ui, confirm, build_system_prompt(config), prompt, args.resume)


def _run(config, ui, confirm, system_prompt: str, prompt: str | None, resume: str | None) -> int:
    from narnat_agent.commands.session import dispatch
    from narnat_agent.config import session_store
    from narnat_agent.core.agent import Agent
    from narnat_agent.core.compressor import inherit_summary
    from narnat_agent.core.context import Conversation
    from narnat_agent.core.llm import Client, LLMError
    from narnat_agent.logger import start_log
    from narnat_agent.tools.workspace import Workspace

    start_log(config.state_dir, [config.api_key])
    try:
        conversation, todos = _first_conversation(config, system_prompt, resume)
    except session_store.SessionError as e:
        ui.error(f"Cannot resume: {e}")
        return 2
    if summary := inherit_summary(config.state_dir):
        conversation = Conversation(system_prompt, summary=summary)
        ui.notice("A summary left by an interrupted compression was inherited into this new conversation.")
    client = Client(config, ui.notice)
    workspace = Workspace(config.project, config.state_dir, confirm, config.bash_timeout_ms, todos=todos)
    agent = Agent(config, ui, client, workspace, conversation, system_prompt)
    if prompt is None:
        ui.banner(config.model, _banner(config, conversation, resume))
        client.preload()
        try:
            agent.run(dispatch)
        finally:
            if saved := agent.save():
                ui.notice(f"Saved this conversation as '{saved}' (narnat --resume {saved}).")
        return 0
    try:
        agent.ask(prompt)
    except LLMError as e:
        ui.error(str(e))
        return 1
    finally:
        if resume:
            agent.save()
    return 130 if ui.stream and ui.stream.cancelled else 0  # 130: stopped by Ctrl-C, as shells report it


def _banner(config, conversation, resume: str | None) -> list[str]:
    """Two lines at start: what answers (version, model, endpoint) and where (project, conversation)."""
    from pathlib import Path
    from urllib.parse import urlparse

    host = urlparse(config.base_url).netloc or config.base_url
    where = str(config.project).replace(str(Path.home()), "~", 1)
    start = f"resumed '{resume}' ({conversation.turns} turns)" if resume else "new conversation"
    return [f"narnat {__version__} · {config.model} · {host}", f"{where} · {start} · /help for commands and keys"]


def _first_conversation(config, system_prompt: str, resume: str | None):
    """A new conversation, or the saved one named by --resume, with its todo list."""
    from narnat_agent.config import session_store
    from narnat_agent.core.context import Conversation

    if not resume:
        return Conversation(system_prompt), []
    data = session_store.load(config.state_dir, session_store.check_name(resume))
    return Conversation.from_session(resume, data), data.get("todos", [])
