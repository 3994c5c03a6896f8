"""A headless run (-p): one request, saved as a session whatever happens, its end reported as text or JSON and
as the exit code."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from narnat_agent.i18n import _, spoken
from narnat_agent.run.signals import leave_on_signals
from narnat_agent.run.start import USAGE_ERROR, Opening, build_agent, save, stop_jobs

if TYPE_CHECKING:
    from narnat_agent.config.settings import Config
    from narnat_agent.core.agent import Agent
    from narnat_agent.core.headless import NobodyToAsk
    from narnat_agent.core.turn import TurnOutcome
    from narnat_agent.core.ui import Reporter

# by Stop.kind; 3: the turn ended before doing all it was asked; 130: Ctrl-C, as shells report it
EXIT_CODES = {"completed": 0, "failed": 1, "stopped": 3, "cancelled": 130}


def run_headless(config: Config, ui: Reporter, args: argparse.Namespace, prompt: str, system_prompt: str) -> int:
    """One request, saved as a session whatever happens; the exit code says how it ended."""
    from narnat_agent.core.headless import NobodyToAsk

    nobody = None if args.yes else NobodyToAsk()
    ui.secret = config.api_key  # stdout quotes the model's answer, and JSON its arguments: the key is masked there
    if args.until is not None and (why := _refused_goal(args.until, config)):
        ui.error(why)
        return USAGE_ERROR
    question = _own_command(prompt, config, ui)
    if question is None:
        return USAGE_ERROR
    agent = build_agent(config, ui, Opening.of(args), system_prompt, nobody or _allowing(ui))
    if agent is None:
        return USAGE_ERROR
    leave_on_signals(agent)
    agent.plan_mode(args.plan)
    return _headless(agent, ui, question, nobody, bool(args.latest or args.resume), args.until)


def _own_command(prompt: str, config: Config, ui: Reporter) -> str | None:
    """`-p "/NAME arguments"`: the user's own command NAME is the question, as in the REPL (it was sent as the text
    "/NAME …"); a built-in command is said to have no headless meaning (None); any other text is the question."""
    from narnat_agent.commands import custom
    from narnat_agent.commands.dispatch import descriptions

    name, _space, arguments = prompt.strip().removeprefix("/").partition(" ")
    if not prompt.startswith("/") or not custom.NAME.fullmatch(name := name.lower()):
        return prompt
    builtins = descriptions()  # every built-in, their modules imported
    user, notices = custom.load(config.project, config.home, builtins, config.api_key)
    for notice in notices:
        ui.notice(notice)
    if (command := user.get(name)) is not None:
        return command.question(arguments.strip())
    if name in builtins:
        ui.error(_("/{name} is a command of the interactive prompt; -p takes a question, or one of your own commands "
                   "(.narnat/commands/NAME.md).").format(name=name))  # fmt: skip
        return None
    return prompt


def _refused_goal(until: str, config: Config) -> str | None:
    """A goal's check is looked at before anything starts: a destructive one is refused in one sentence."""
    from narnat_agent.core.goal import refusal

    return refusal(until, config.project)


def _allowing(ui: Reporter) -> Callable[[str, str], bool]:
    """--yes: every command that would ask runs, and stderr says so (what --yes let through, in a CI log)."""

    def allow(command: str, reason: str) -> bool:
        ui.notice(_("Allowed by --yes: {command} ({reason})").format(command=command, reason=spoken(reason)))
        return True

    return allow


def _headless(
    agent: Agent, ui: Reporter, prompt: str, nobody: NobodyToAsk | None, resumed: bool, until: str | None
) -> int:
    ui.begin(agent.session.name, agent.config.model)
    agent.go_on = lambda: _("`narnat --resume {name} -p continue` goes on.").format(name=agent.session.name)
    first = len(agent.checkpoints.entries)
    try:
        outcome = _ask(agent, ui, prompt, nobody, until)
        outcome = replace(outcome, changed=_changed(agent, first))
    finally:
        leave_on_signals(agent, stop=False)  # from here on a signal only sets the exit code
        saved = save(agent, ui, quiet=True)
        stop_jobs(agent)  # before the report: stream-json's last line is the result
    code = EXIT_CODES[outcome.stop.kind] if saved or not resumed else 1  # a resumed session must not be lost
    code = 128 + agent.leaving if agent.leaving else code
    ui.report(outcome, agent.session.name if saved else None, code)
    return code


def _changed(agent: Agent, first: int) -> tuple[str, ...]:
    """The files the run's turns changed (those from entry `first` on), as their checkpoints hold them."""
    turns = [turn for turn in agent.checkpoints.turns() if turn.index >= first]
    return tuple(sorted({change.path for turn in turns for change in turn.files}))


def _ask(agent: Agent, ui: Reporter, prompt: str, nobody: NobodyToAsk | None, until: str | None) -> TurnOutcome:
    """The turn's outcome (a goal's: its last turn's, with the rounds); a confirmation refused for want of anybody
    to ask means it did not do all it was asked."""
    from narnat_agent.conversation.store import SessionError
    from narnat_agent.core.goal import Goal, pursue
    from narnat_agent.core.turn import Stop, TurnOutcome
    from narnat_agent.provider.errors import LLMError

    try:
        outcome = agent.ask(prompt) if until is None else pursue(agent, Goal(prompt, until, agent.config.max_turns))
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
