"""/model /compact /context: the conversation at hand, steered without leaving it."""

import difflib

from narnat_agent.core.agent import Agent
from narnat_agent.core.llm import LLMError
from narnat_agent.core.window import Window
from narnat_agent.ui.plain import tokens

LARGEST = 5  # single items /context names


def model(agent: Agent, arg: str) -> None:
    """/model [name] — switch the model from the next turn on, history kept (the system prompt names it from the
    next conversation: its prefix stays byte-stable for the provider's cache); without a name, list the models."""
    current, names = agent.client.model, agent.client.models()
    if not arg:
        if names is None:
            agent.ui.info(f"{agent.config.base_url} does not list its models; /model NAME switches to one by name "
                          f"(now: {current}).")  # fmt: skip
            return
        listed = [f"{'●' if name == current else ' '} {name}" for name in names]
        agent.ui.info("\n".join(listed if current in names else [*listed, f"● {current} (not in the list)"]))
        return
    if arg == current:
        agent.ui.notice(f"{current} already answers.")
        return
    if names is not None and arg not in names:
        close = difflib.get_close_matches(arg, names, n=1, cutoff=0.5)
        hint = f" Did you mean {close[0]}?" if close else ""
        raise LLMError(f"{agent.config.base_url} has no model '{arg}'; {current} still answers.{hint} "
                       "/model lists them.")  # fmt: skip
    agent.use_model(arg)
    agent.ui.notice(f"{arg} answers from turn {agent.model_from} on (was {current}); the conversation is kept. "
                    f"The system prompt names {arg} from the next conversation.")  # fmt: skip


def compact(agent: Agent, arg: str) -> None:
    """/compact [what to keep] — summarise the conversation now and go on from the summary; your words guide it."""
    if not agent.conversation.turns:
        agent.ui.notice("Nothing to compact: this conversation has no turns yet.")
        return
    agent.compress(arg)


def context(agent: Agent, arg: str) -> None:
    """/context — where the context window goes: prompt, instructions, questions, answers, tool results."""
    window = agent.window()
    agent.ui.info("\n".join([_headline(window), *_parts(window), "Largest items", *_largest(window)]))


def _headline(window: Window) -> str:
    approx = "~" if window.estimated else ""
    since = f" · ~{tokens(window.since)} added since" if window.since else ""
    return f"ctx {approx}{tokens(window.sent)}/{tokens(window.size)}{since} · {approx}{tokens(window.left)} left"


def _parts(window: Window) -> list[str]:
    total = max(1, sum(window.parts.values()))
    fixed = [part for part in window.parts if not part.startswith("tool results")]
    results = sorted((p for p in window.parts if p.startswith("tool results")), key=lambda p: -window.parts[p])
    return [f"  {part:<28} {tokens(window.parts[part]):>7} {window.parts[part] / total:>5.0%}"
            for part in [*fixed, *results]]  # fmt: skip


def _largest(window: Window) -> list[str]:
    return [f"  {tokens(size):>7}  {label}" for size, label in sorted(window.items, reverse=True)[:LARGEST]]
