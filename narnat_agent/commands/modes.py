"""/goal /plan /go: how the agent works through a request, beyond one question and its answer."""

from narnat_agent.commands import command
from narnat_agent.core.agent import Agent
from narnat_agent.core.goal import Goal, pursue, split_goal
from narnat_agent.i18n import N_, _


@command(N_('/goal <text> --until "<command>"'),
         N_("work on the text turn after turn until the command passes (at most max_turns turns)"))  # fmt: skip
def goal(agent: Agent, arg: str) -> None:
    text, until = split_goal(arg)
    pursue(agent, Goal(text, until, agent.config.max_turns))


@command(N_("/plan [question]"),
         N_("plan mode on or off (Shift-Tab): the agent investigates and proposes, and changes nothing"))  # fmt: skip
def plan(agent: Agent, arg: str) -> None:
    if agent.planning and not arg:
        agent.plan_mode(False)
        agent.ui.notice(_("Plan mode off: the next question may change files."))
        return
    if not agent.planning:
        agent.plan_mode(True)
        agent.ui.notice(_("Plan mode on: Edit, Write and commands that would change something are refused. /go "
                          "carries the plan out; Shift-Tab or /plan leaves."))  # fmt: skip
    if arg:
        agent.ask(arg)


@command(N_("/go [words]"), N_("leave plan mode and carry out the plan, in this conversation"))
def go(agent: Agent, arg: str) -> None:
    if not agent.planning:
        agent.ui.notice(_("Not in plan mode: /plan starts it; a question goes on as it is."))
        return
    agent.plan_mode(False, approved=True)
    agent.ask(arg or "Go ahead: carry out the plan.")
