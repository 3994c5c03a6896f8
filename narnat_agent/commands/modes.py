"""/goal: how the agent works through a request, beyond one question and its answer."""

from narnat_agent.commands import command
from narnat_agent.core.agent import Agent
from narnat_agent.core.goal import Goal, pursue, split_goal
from narnat_agent.i18n import N_


@command(N_('/goal <text> --until "<command>"'),
         N_("work on the text turn after turn until the command passes (at most max_turns turns)"))  # fmt: skip
def goal(agent: Agent, arg: str) -> None:
    text, until = split_goal(arg)
    pursue(agent, Goal(text, until, agent.config.max_turns))
