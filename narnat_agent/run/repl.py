"""The interactive run: the banner, then questions and slash commands until the person leaves, the conversation
saved on the way out whatever ends it (a signal included)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from narnat_agent import __version__
from narnat_agent.i18n import _, ngettext
from narnat_agent.keyguard import redact
from narnat_agent.run.signals import leave_on_signals
from narnat_agent.run.start import USAGE_ERROR, Opening, build_agent, jobs_named, save, stop_jobs

RECAP = 96  # characters of the last question and answer a resumed conversation recalls

if TYPE_CHECKING:
    from collections.abc import Callable

    from narnat_agent.config.settings import Config
    from narnat_agent.core.agent import Agent
    from narnat_agent.core.ui import UI


def run_repl(config: Config, ui: UI, args: argparse.Namespace, system_prompt: str) -> int:
    """The interactive conversation, until the user leaves."""
    from narnat_agent.commands.dispatch import dispatch

    agent = build_agent(config, ui, Opening.of(args), system_prompt, ui.confirm)
    if agent is None:
        return USAGE_ERROR
    leave_on_signals(agent)
    agent.offer_undo(ui.confirm)
    _steer(agent, ui)
    resumed = bool(args.latest or args.resume)
    ui.banner(config.model, _banner(config, agent, resumed) + (_recap(agent) if resumed else []))
    agent.client.preload()
    agent.checkpoints.warm()
    try:
        _repl(agent, ui, _with_user_commands(config, ui, dispatch))
    finally:
        stop_jobs(agent)
    return 128 + agent.leaving if agent.leaving else 0  # a death by a signal, as shells report it


def _steer(agent: Agent, ui: UI) -> None:
    """While the agent works, a message sent joins the turn at its next tool boundary; a command that only shows
    something runs at once; any other command waits for the turn's end, and so does what was sent after it."""
    from narnat_agent.commands.dispatch import at_once
    from narnat_agent.logger import get_logger

    def run(line: str) -> bool:
        try:
            return at_once(agent, line)
        except Exception:  # on the keyboard's thread: a failure must not stop the keys
            get_logger("run").exception("command run while the agent worked")
            return True

    agent.steering = lambda: ui.take_sent(lambda line: not line.strip().startswith("/"))
    ui.run_at_once(run)


def _with_user_commands(config: Config, ui: UI, dispatch: Callable) -> Callable:
    """The slash commands with the user's own (.narnat/commands/NAME.md), which Tab completes too."""
    import functools

    from narnat_agent.commands import REGISTRY, custom
    from narnat_agent.commands.dispatch import descriptions

    user, notices = custom.load(config.project, config.home, REGISTRY, config.api_key)
    for notice in notices:
        ui.notice(notice)
    # the built-ins' help lines again: the UI was made before the settings could choose the language
    ui.add_commands({**descriptions(), **{name: command.description for name, command in user.items()}})
    return functools.partial(dispatch, user=user)


def _banner(config: Config, agent: Agent, resumed: bool) -> list[str]:
    """Two lines at start: what answers (version, model, endpoint) and where (project, conversation, its turns
    counted as /rewind numbers them, those before a compression included)."""
    from pathlib import Path
    from urllib.parse import urlparse

    host = urlparse(config.base_url).netloc or config.base_url
    home, project = Path.home(), config.project
    where = str(Path("~") / project.relative_to(home)) if project.is_relative_to(home) else str(project)
    turns = max(agent.checkpoints.turn_count(), agent.conversation.turns)
    resumed_as = ngettext("resumed '{name}' ({n} turn)", "resumed '{name}' ({n} turns)", turns)
    start = resumed_as.format(name=agent.session.name, n=turns) if resumed else _("new conversation")
    return [
        f"narnat {__version__} · {config.model} · {host}",
        _("{where} · {start} · /help for commands and keys").format(where=where, start=start),
    ]


def _recap(agent: Agent) -> list[str]:
    """Where a resumed conversation stopped: its last question, and the first words of the answer."""
    from narnat_agent.conversation.window import first_words

    question, answer = agent.conversation.last_exchange()
    if not question:
        return []
    # a question may hold the key, and a session saved before answers were kept masked may hold it in an answer
    question, answer = (redact(text, agent.workspace.secret) for text in (question, answer))
    paragraph = answer.strip().split("\n\n", 1)[0]
    return [f"❯ {first_words(question, RECAP)}"] + ([f"  {first_words(paragraph, RECAP)}"] if answer else [])


def _repl(agent: Agent, ui: UI, dispatch: Callable[[Agent, str], bool | str]) -> None:
    """Questions until the user leaves; when the autosave fails, leaving once more quits without it."""
    for last_chance in (False, True):
        leave_on_signals(agent)
        try:
            _questions(agent, ui, dispatch)
        finally:
            leave_on_signals(agent, stop=False)
            saved = save(agent, ui)
            agent.checkpoints.prune()
        if saved or last_chance or agent.leaving:
            return
        ui.notice(_("The conversation is still here: /save it once there is room, or leave again to quit without it."))


def _jobs_said(agent: Agent, ui: UI) -> bool:
    """Whether background commands still run, which leaving would stop: then they are named, and leaving again goes."""
    running = agent.workspace.jobs.running()
    if running:
        said = ngettext("{n} background command still runs ({commands}); leaving stops it: Ctrl-D or /exit again "
                        "to leave.", "{n} background commands still run ({commands}); leaving stops them: Ctrl-D or "
                        "/exit again to leave.", len(running))  # fmt: skip
        ui.warning(said.format(n=len(running), commands=jobs_named(running)))
    return bool(running)


def _questions(agent: Agent, ui: UI, dispatch: Callable[[Agent, str], bool | str]) -> None:
    """Questions and slash commands until the user leaves; `dispatch` returns False to leave, or the question that
    one of the user's own commands stands for."""
    warned = False  # of the background commands leaving would stop: leaving again, right after, goes
    while not agent.leaving:
        text = ui.read_input()
        try:
            if text is not None and text.strip().startswith("/"):  # a command may run turns too (/goal)
                done = dispatch(agent, text.strip())
                text = None if done is False else done if isinstance(done, str) else ""
            if text is None:
                if warned or not _jobs_said(agent, ui):
                    return
                warned = True
                continue
            warned = False
            if text.strip():
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
