"""A headless run (-p): one request, saved as a session whatever happens, its end reported as text or JSON and
as the exit code."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from narnat_agent.i18n import _
from narnat_agent.run.signals import leave_on_signals
from narnat_agent.run.start import USAGE_ERROR, build_agent, save, stop_jobs

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
    agent = build_agent(config, ui, args, system_prompt, nobody or _allow)
    if agent is None:
        return USAGE_ERROR
    leave_on_signals(agent)
    return _headless(agent, ui, prompt, nobody, bool(args.latest or args.resume))


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
        saved = save(agent, ui, quiet=True)
        stop_jobs(agent)  # before the report: stream-json's last line is the result
    code = EXIT_CODES[outcome.stop.kind] if saved or not resumed else 1  # a resumed session must not be lost
    code = 128 + agent.leaving if agent.leaving else code
    ui.report(outcome, agent.session.name if saved else None, code)
    return code


def _ask(agent: Agent, ui: Reporter, prompt: str, nobody: NobodyToAsk | None) -> TurnOutcome:
    """The turn's outcome; a confirmation refused for want of anybody to ask means it did not do all it was asked."""
    from narnat_agent.conversation.store import SessionError
    from narnat_agent.core.turn import Stop, TurnOutcome
    from narnat_agent.provider.errors import LLMError

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
