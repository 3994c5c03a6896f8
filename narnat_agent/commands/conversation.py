"""/model /compact /context: the conversation at hand, steered without leaving it."""

import difflib

from narnat_agent.commands import command
from narnat_agent.conversation.window import Window
from narnat_agent.core.agent import Agent
from narnat_agent.i18n import N_, _, spoken
from narnat_agent.provider.errors import LLMError
from narnat_agent.ui import cells
from narnat_agent.ui.plain import tokens

LARGEST = 5  # single items /context names


@command(
    N_("/model [name]"), N_("switch the model from the next turn on, history kept; without a name, list the models")
)
def model(agent: Agent, arg: str) -> None:
    """The system prompt names the new model only from the next conversation: its prefix stays byte-stable for the
    provider's cache."""
    current, names = agent.client.model, agent.client.models()
    if not arg:
        if names is None:
            unlisted = _("{url} does not list its models; /model NAME switches to one by name (now: {current}).")
            agent.ui.info(unlisted.format(url=agent.config.base_url, current=current))
            return
        listed = [f"{'●' if name == current else ' '} {name}" for name in names]
        agent.ui.info(
            "\n".join(
                listed if current in names else [*listed, _("● {current} (not in the list)").format(current=current)]
            )
        )
        return
    if arg == current:
        agent.ui.notice(_("{model} already answers.").format(model=current))
        return
    if names is not None and arg not in names:
        close = difflib.get_close_matches(arg, names, n=1, cutoff=0.5)
        missing = (
            _("There is no model '{name}' at {url}; {current} still answers. Did you mean {close}? /model lists them.")
            if close
            else _("There is no model '{name}' at {url}; {current} still answers. /model lists them.")
        )
        raise LLMError(
            missing.format(url=agent.config.base_url, name=arg, current=current, close=close[0] if close else "")
        )
    agent.use_model(arg)
    switched = _(
        "{name} answers from turn {turn} on (was {current}); the conversation is kept. The system prompt "
        "names {name} from the next conversation."
    )
    agent.ui.notice(switched.format(name=arg, turn=agent.model_from, current=current))


@command(
    N_("/compact [what to keep]"), N_("summarise the conversation now and go on from the summary; your words guide it")
)
def compact(agent: Agent, arg: str) -> None:
    if not agent.conversation.turns:
        agent.ui.notice(_("Nothing to compact: this conversation has no turns yet."))
        return
    agent.compress(arg)


@command("/context", N_("where the context window goes: prompt, instructions, questions, answers, tool results"),
         at_once=True)  # fmt: skip
def context(agent: Agent, arg: str) -> None:
    window = agent.window()
    largest = _largest(window)
    agent.ui.info("\n".join([_headline(window), *_parts(window), *([_("Largest items"), *largest] if largest else [])]))


def _headline(window: Window) -> str:
    approx = "~" if window.estimated else ""
    used, size, left = approx + tokens(window.sent), tokens(window.size), approx + tokens(window.left)
    if window.since:
        return _("ctx {used}/{size} · ~{since} added since · {left} left").format(
            used=used, size=size, since=tokens(window.since), left=left
        )
    return _("ctx {used}/{size} · {left} left").format(used=used, size=size, left=left)


def _parts(window: Window) -> list[str]:
    total = max(1, sum(window.parts.values()))
    fixed = [part for part in window.parts if not part.startswith("tool results")]
    results = sorted((p for p in window.parts if p.startswith("tool results")), key=lambda p: -window.parts[p])
    return [
        f"  {cells.ljust(spoken(part), 28)} {tokens(window.parts[part]):>7} {window.parts[part] / total:>5.0%}"
        for part in [*fixed, *results]
    ]


def _largest(window: Window) -> list[str]:
    return [f"  {tokens(size):>7}  {spoken(label)}" for size, label in sorted(window.items, reverse=True)[:LARGEST]]
