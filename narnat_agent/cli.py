"""`narnat`: the REPL, or one headless request with -p. Heavy modules load only after the flags are read."""

import argparse
import sys

from narnat_agent import __version__

OLLAMA = "http://127.0.0.1:11434"
EXIT_CODES = {"completed": 0, "cancelled": 130, "failed": 1, "stopped": 0}  # 130: Ctrl-C, as shells report it


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
    from narnat_agent.core import session as sessions
    from narnat_agent.core.agent import Agent
    from narnat_agent.core.compressor import inherit_summary
    from narnat_agent.core.llm import Client
    from narnat_agent.logger import start_log
    from narnat_agent.tools.workspace import Workspace

    start_log(config.state_dir, [config.api_key])
    try:
        session = sessions.load(config.state_dir, resume) if resume else sessions.new_session(system_prompt)
    except session_store.SessionError as e:
        ui.error(f"Cannot resume: {e}")
        return 2
    if summary := inherit_summary(config.state_dir):
        session = sessions.new_session(system_prompt, summary)
        ui.notice("A summary left by an interrupted compression was inherited into this new conversation.")
    client = Client(config, ui.notice)
    workspace = Workspace(config.project, config.state_dir, confirm, config.bash_timeout_ms)
    agent = Agent(config, ui, client, workspace, session, system_prompt)
    if prompt is None:
        client.preload()
        try:
            agent.run(dispatch)
        finally:
            if saved := agent.save():
                ui.notice(f"Saved this conversation as '{saved}' (narnat --resume {saved}).")
            agent.checkpoints.prune()
        return 0
    try:
        outcome = agent.ask(prompt)
    finally:
        if resume:
            agent.save()
    return EXIT_CODES[outcome.stop.kind]
