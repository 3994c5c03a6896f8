"""`narnat`: the REPL, or one headless request with -p. Heavy modules load only after the flags are read."""

import argparse
import io
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


def first_run_setup(ui, project, home) -> None:
    """Ask for the endpoint, key and model, and save them for the user (in the project if it keeps its own key)."""
    from narnat_agent.config.defaults import DEFAULT_BASE_URL, DEFAULTS
    from narnat_agent.config.loader import write_setup

    models = ollama_models()
    base_url, model, key = DEFAULT_BASE_URL, str(DEFAULTS["model"]), ""
    if models:
        ui.notice(f"An Ollama server answers on {OLLAMA} with: {', '.join(models[:10])}")
        base_url, model, key = f"{OLLAMA}/v1", models[0], "ollama"
    ui.notice("No API key configured yet; three questions, saved to ~/.narnat/narnat.json.")
    base_url = ui.ask("Base URL", base_url)
    key = ui.ask("API key (hidden)", key, secret=True)
    model = ui.ask("Model", model)
    path = write_setup(project, home, {"base_url": base_url, "api_key": key, "model": model})
    kept = "; .narnat/.gitignore keeps it out of git" if path.is_relative_to(project) else ""
    ui.notice(f"Saved {path} (mode 0600{kept}).")


def read_prompt(arg: str | None) -> str | None:
    """The -p text as text the model can be sent: UTF-16 or UTF-8 on stdin; bytes that are neither escaped (\\xe9)."""
    from narnat_agent.encodable import encodable

    if arg != "-":
        return None if arg is None else encodable(arg)  # argv holds undecodable bytes as surrogates
    data = sys.stdin.buffer.read()
    for bom, codec in ((b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"), (b"\xef\xbb\xbf", "utf-8-sig")):
        if data.startswith(bom):
            return data.decode(codec, errors="backslashreplace")
    return data.decode("utf-8", errors="backslashreplace")


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        return _start(args)
    except KeyboardInterrupt:  # Ctrl-C before the conversation could take it: leave quietly, as shells report it
        return 130


def _leave_on_signals(agent) -> None:
    """SIGTERM and SIGHUP stop the turn like Esc does, then the REPL ends and saves like Ctrl-D."""
    import signal

    def leave(signum: int, frame: object) -> None:
        agent.leaving = signum
        raise KeyboardInterrupt

    for signum in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, leave)


def _start(args: argparse.Namespace) -> int:
    from pathlib import Path

    from narnat_agent.commands.session import COMMANDS
    from narnat_agent.config.loader import ConfigError, MissingApiKey, build_system_prompt, load_config, with_state_dir
    from narnat_agent.ui.ui_design import make_ui

    prompt = read_prompt(args.prompt)
    if isinstance(sys.stdin, io.TextIOWrapper):  # the plain REPL's lines: a byte that is not UTF-8 is escaped
        sys.stdin.reconfigure(errors="backslashreplace")
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
            first_run_setup(ui, project, home)
            config = load_config(project, home, model=args.model)
    except ConfigError as e:
        ui.error(str(e))
        return 2
    config = with_state_dir(config)
    for notice in config.notices:
        ui.notice(notice)
    ui.use_interrupt_key(config.interrupt_key)
    confirm = ui.confirm if not headless else (lambda command, reason: True) if args.yes else None
    return _run(config, ui, confirm, build_system_prompt(config, ui.notice), prompt, args.resume)


def _run(config, ui, confirm, system_prompt: str, prompt: str | None, resume: str | None) -> int:
    from narnat_agent.commands.session import dispatch
    from narnat_agent.config import session_store
    from narnat_agent.core import session as sessions
    from narnat_agent.core.agent import Agent
    from narnat_agent.core.compressor import inherit_summary
    from narnat_agent.core.llm import Client
    from narnat_agent.logger import start_log
    from narnat_agent.tools.support.http import Web
    from narnat_agent.tools.workspace import Workspace

    start_log(config.state_dir, [config.api_key], ui.notice)
    try:
        session = sessions.load(config.state_dir, resume) if resume else sessions.new_session(system_prompt)
    except session_store.SessionError as e:
        ui.error(f"Cannot resume: {e}")
        return 2
    if summary := inherit_summary(config.state_dir):
        session = sessions.new_session(system_prompt, summary)
        ui.notice("A summary left by an interrupted compression was inherited into this new conversation.")
    client = Client(config, ui.notice)
    web = Web(config.search_urls, config.web_timeout_s)
    workspace = Workspace(config.project, config.state_dir, confirm, config.bash_timeout_ms, web=web,
                          secret=config.api_key)  # fmt: skip
    agent = Agent(config, ui, client, workspace, session, system_prompt)
    _leave_on_signals(agent)
    if prompt is None:
        client.preload()
        agent.checkpoints.warm()
        _repl(agent, ui, dispatch)
        return 128 + agent.leaving if agent.leaving else 0  # a death by a signal, as shells report it
    try:
        code = _ask(agent, ui, prompt)
    finally:
        kept = not resume or _saved(agent, ui, quiet=True)
    return 128 + agent.leaving if agent.leaving else code if kept else 1


def _ask(agent, ui, prompt: str) -> int:
    from narnat_agent.config.session_store import SessionError

    try:
        outcome = agent.ask(prompt)
    except SessionError as e:  # a compression whose archive could not be written
        ui.error(str(e))
        return 1
    return EXIT_CODES[outcome.stop.kind]


def _saved(agent, ui, quiet: bool = False) -> bool:
    """The autosave; a failure is its one sentence, and the conversation stays in memory."""
    from narnat_agent.config.session_store import SessionError

    try:
        saved = agent.save()
    except SessionError as e:
        ui.error(str(e))
        return False
    if saved and not quiet:
        ui.notice(f"Saved this conversation as '{saved}' (narnat --resume {saved}).")
    return True


def _repl(agent, ui, dispatch) -> None:
    """Questions until the user leaves; when the autosave fails, leaving once more quits without it."""
    for last_chance in (False, True):
        try:
            agent.run(dispatch)
        finally:
            saved = _saved(agent, ui)
            agent.checkpoints.prune()
        if saved or last_chance or agent.leaving:
            return
        ui.notice("The conversation is still here: /save it once there is room, or leave again to quit without it.")
