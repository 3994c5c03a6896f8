"""One run of Narnat once it is configured: the conversation chosen, the agent built, the REPL or one headless turn,
and the conversation saved on the way out, whatever ends it (a signal included)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from narnat_agent import __version__
from narnat_agent.i18n import _, ngettext
from narnat_agent.run.signals import leave_on_signals

if TYPE_CHECKING:
    from collections.abc import Callable

    from narnat_agent.config.loader import Config
    from narnat_agent.core.agent import Agent
    from narnat_agent.core.endpoint import Server
    from narnat_agent.core.headless import NobodyToAsk
    from narnat_agent.core.session import Session
    from narnat_agent.core.turn import TurnOutcome
    from narnat_agent.core.ui import UI, Reporter

# by Stop.kind; 3: the turn ended before doing all it was asked; 130: Ctrl-C, as shells report it
EXIT_CODES = {"completed": 0, "failed": 1, "stopped": 3, "cancelled": 130}
USAGE_ERROR = 2  # a configuration or command-line mistake: nothing was sent


def _session(config: Config, ui: UI, args: argparse.Namespace, system_prompt: str) -> Session:
    """The conversation of this run: a saved one (-c, --resume) or a new one (named by the time and the process)."""
    from narnat_agent.core import session as sessions
    from narnat_agent.core.compressor import inherit_summary

    if args.latest or args.resume:
        return _saved_session(config, args.resume, system_prompt)
    if summary := inherit_summary(config.state_dir):
        ui.notice(_("A summary left by an interrupted compression was inherited into this new conversation."))
    return sessions.new_session(system_prompt, summary)


def _saved_session(config: Config, name: str | None, system_prompt: str) -> Session:
    """A saved conversation (by name, else the most recent), going on in this run's environment (date, mode)."""
    from narnat_agent import state
    from narnat_agent.core import session as sessions
    from narnat_agent.core import session_store
    from narnat_agent.prompts.system_prompt import with_environment

    state_dir = config.state_dir
    if name is None or not session_store.exists(state_dir, session_store.check_name(name)):
        names = [row["name"] for row in session_store.listing(state_dir) if not row["name"].startswith("compressed-")]
        if name is not None:
            where, recent = state.sessions(state_dir), ", ".join(names[:3])
            missing = (
                _("there is no session named '{name}' in {where}; the most recent are {recent}.")
                if names
                else _("there is no session named '{name}' in {where}.")
            )
            raise session_store.SessionError(missing.format(name=name, where=where, recent=recent))
        if not names:
            raise session_store.SessionError(_("this project has no saved conversation yet."))
        name = names[0]
    session = sessions.load(state_dir, name)
    system = session.conversation.messages[0]
    system["content"] = with_environment(system["content"], system_prompt)
    return session


def sweep_leftovers(config: Config) -> None:
    """Temporary files of writers killed mid-write, in the project, the state folder and the user's settings."""
    from narnat_agent import state
    from narnat_agent.atomic import clean_leftovers
    from narnat_agent.ripgrep import folders_with_writes

    folders = folders_with_writes(config.project) | {state.user_folder(config.home)}
    if not config.state_dir.is_relative_to(config.project):
        folders |= folders_with_writes(config.state_dir)
    clean_leftovers(folders)


def run_repl(config: Config, ui: UI, args: argparse.Namespace, system_prompt: str) -> int:
    """The interactive conversation, until the user leaves."""
    from narnat_agent.commands.session import dispatch

    agent = _agent(config, ui, args, system_prompt, ui.confirm)
    if agent is None:
        return USAGE_ERROR
    agent.workspace.confirm = agent.ask_with_undo(ui.confirm)
    ui.banner(config.model, _banner(config, agent.session, bool(args.latest or args.resume)))
    agent.client.preload()
    agent.checkpoints.warm()
    try:
        _repl(agent, ui, _with_user_commands(config, ui, dispatch))
    finally:
        _stop_jobs(agent)
    return 128 + agent.leaving if agent.leaving else 0  # a death by a signal, as shells report it


def run_headless(config: Config, ui: Reporter, args: argparse.Namespace, prompt: str, system_prompt: str) -> int:
    """One request, saved as a session whatever happens; the exit code says how it ended."""
    from narnat_agent.core.headless import NobodyToAsk
    from narnat_agent.ui.events import EventUI

    nobody = None if args.yes else NobodyToAsk()
    if isinstance(ui, EventUI):  # JSON on stdout quotes the model's own arguments: the key is masked there too
        ui.secret = config.api_key
    agent = _agent(config, ui, args, system_prompt, nobody or _allow)
    if agent is None:
        return USAGE_ERROR
    return _headless(agent, ui, prompt, nobody, bool(args.latest or args.resume))


def _agent(
    config: Config, ui: UI, args: argparse.Namespace, system_prompt: str, confirm: Callable[[str, str], bool]
) -> Agent | None:
    """The agent of this run, on the conversation the flags chose; None (and one sentence) when it cannot be had."""
    from narnat_agent.core import session_store
    from narnat_agent.core.agent import Agent
    from narnat_agent.core.llm import Client
    from narnat_agent.logger import start_log
    from narnat_agent.tools.web.http import Web
    from narnat_agent.tools.workspace import Workspace

    start_log(config.state_dir, [config.api_key], ui.notice)
    try:
        session = _session(config, ui, args, system_prompt)
    except session_store.SessionError as e:
        ui.error((_("Cannot continue: {why}") if args.latest else _("Cannot resume: {why}")).format(why=e))
        return None
    web = Web(config.search_urls, config.web_timeout_s)
    workspace = Workspace(config.project, config.state_dir, confirm, config.bash_timeout_ms, config.sees_images,
                          web=web, secret=config.api_key, hidden=config.files)  # fmt: skip
    config, server = _learn_server(config)
    agent = Agent(config, ui, Client(config, ui.notice, server), workspace, session, system_prompt)
    leave_on_signals(agent)
    return agent


def _learn_server(config: Config) -> tuple[Config, Server | None]:
    """A server people run themselves says how much context it gives the model; that is context_window, unless the
    settings name one."""
    import dataclasses

    from narnat_agent.core.endpoint import learn

    server = learn(config.base_url, config.model, config.api_key)
    if server and server.context and not config.context_window_set:
        config = dataclasses.replace(config, context_window=server.context)
    return config, server


def _with_user_commands(config: Config, ui: UI, dispatch: Callable) -> Callable:
    """The slash commands with the user's own (.narnat/commands/NAME.md), which Tab completes too."""
    import functools

    from narnat_agent.commands import custom
    from narnat_agent.commands.session import COMMANDS, descriptions

    user, notices = custom.load(config.project, config.home, COMMANDS)
    for notice in notices:
        ui.notice(notice)
    # the built-ins' help lines again: the UI was made before the settings could choose the language
    ui.add_commands({**descriptions(), **{name: command.description for name, command in user.items()}})
    return functools.partial(dispatch, user=user)


def _banner(config: Config, session: Session, resumed: bool) -> list[str]:
    """Two lines at start: what answers (version, model, endpoint) and where (project, conversation)."""
    from pathlib import Path
    from urllib.parse import urlparse

    host = urlparse(config.base_url).netloc or config.base_url
    where = str(config.project).replace(str(Path.home()), "~", 1)
    turns = session.conversation.turns
    resumed_as = ngettext("resumed '{name}' ({n} turn)", "resumed '{name}' ({n} turns)", turns)
    start = resumed_as.format(name=session.name, n=turns) if resumed else _("new conversation")
    return [f"narnat {__version__} · {config.model} · {host}", _("{where} · {start} · /help for commands and keys")
            .format(where=where, start=start)]  # fmt: skip


def _stop_jobs(agent: Agent) -> None:
    """Background commands end with Narnat, each with its whole process group, said in one line."""
    stopped = agent.workspace.jobs.stop_all()
    if stopped:
        said = ngettext("Stopped {n} background command: {commands}", "Stopped {n} background commands: {commands}",
                        len(stopped))  # fmt: skip
        agent.ui.notice(said.format(n=len(stopped), commands="; ".join(job.command for job in stopped)))


def _allow(command: str, reason: str) -> bool:
    """--yes: every command that would ask runs."""
    return True


def _headless(agent: Agent, ui: Reporter, prompt: str, nobody: NobodyToAsk | None, resumed: bool) -> int:
    ui.begin(agent.session.name, agent.config.model)
    agent.go_on = lambda: _("`narnat --resume {name} -p continue` goes on.").format(name=agent.session.name)
    try:
        outcome = _ask(agent, ui, prompt, nobody)
    finally:
        leave_on_signals(agent, stop=False)  # from here on a signal only sets the exit code
        saved = _saved(agent, ui, quiet=True)
        _stop_jobs(agent)  # before the report: stream-json's last line is the result
    code = EXIT_CODES[outcome.stop.kind] if saved or not resumed else 1  # a resumed session must not be lost
    code = 128 + agent.leaving if agent.leaving else code
    ui.report(outcome, agent.session.name if saved else None, code)
    return code


def _ask(agent: Agent, ui: Reporter, prompt: str, nobody: NobodyToAsk | None) -> TurnOutcome:
    """The turn's outcome; a confirmation refused for want of anybody to ask means it did not do all it was asked."""
    from narnat_agent.core.provider_errors import LLMError
    from narnat_agent.core.session_store import SessionError
    from narnat_agent.core.turn import Stop, TurnOutcome

    try:
        outcome = agent.ask(prompt)
    except KeyboardInterrupt:  # a signal that landed between the turn's own steps: the turn is over all the same
        agent.conversation.answer_open_calls()
        return TurnOutcome(Stop.CANCELLED, _("interrupted"))
    except (SessionError, LLMError) as e:  # a compression's archive not written; still too long after compressing
        ui.error(str(e))
        return TurnOutcome(Stop.FAILED if isinstance(e, SessionError) else Stop.PROVIDER_ERROR, str(e))
    if nobody and (judged := nobody.judge(outcome)) is not outcome:
        ui.notice(judged.message)
        return judged
    return outcome


def _saved(agent: Agent, ui: UI, quiet: bool = False) -> bool:
    """The autosave; a failure is its one sentence, and the conversation stays in memory."""
    from narnat_agent.core.session_store import SessionError

    try:
        saved = agent.save()
    except SessionError as e:
        ui.error(str(e))
        return False
    if saved and not quiet:
        ui.notice(_("Saved this conversation as '{name}' (narnat --resume {name}).").format(name=saved))
    return True


def _repl(agent: Agent, ui: UI, dispatch: Callable[[Agent, str], bool | str]) -> None:
    """Questions until the user leaves; when the autosave fails, leaving once more quits without it."""
    for last_chance in (False, True):
        leave_on_signals(agent)
        try:
            _questions(agent, ui, dispatch)
        finally:
            leave_on_signals(agent, stop=False)
            saved = _saved(agent, ui)
            agent.checkpoints.prune()
        if saved or last_chance or agent.leaving:
            return
        ui.notice(_("The conversation is still here: /save it once there is room, or leave again to quit without it."))


def _questions(agent: Agent, ui: UI, dispatch: Callable[[Agent, str], bool | str]) -> None:
    """Questions and slash commands until the user leaves; `dispatch` returns False to leave, or the question that
    one of the user's own commands stands for."""
    while not agent.leaving and (text := ui.read_input()) is not None:
        if text.strip().startswith("/"):
            done = dispatch(agent, text.strip())
            if done is False:
                return
            text = done if isinstance(done, str) else ""
        if text.strip():
            try:
                agent.ask(text)
            except KeyboardInterrupt:  # a cancel that landed between steps: the turn is already over
                agent.conversation.answer_open_calls()
            except Exception as e:  # a bug must not end the session; the history stays valid
                from narnat_agent.logger import get_logger

                get_logger("run").exception("unexpected error")
                agent.conversation.answer_open_calls(f"Failed: {type(e).__name__}")
                ui.error(
                    _("Unexpected error ({kind}: {error}); the conversation is kept.").format(
                        kind=type(e).__name__, error=e
                    )
                )
