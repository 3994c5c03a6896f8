"""Where the context window goes: what /context shows, the status line's ctx and the budget's next request.

The provider counts a request's prompt as a whole; the parts are counted from their text and scaled to that
figure, so they add up to the same ctx the footer shows.
"""

import json
import re
from dataclasses import dataclass, field

from narnat_agent.conversation.context import Conversation
from narnat_agent.i18n import N_, Said
from narnat_agent.prompts.skills import SKILLS_HEADING, SKILLS_INTRO
from narnat_agent.prompts.texts import SUMMARY_HEADING
from narnat_agent.provider.tokens import estimate
from narnat_agent.tools import registry

SECTION = re.compile(  # system prompt sections after the base prompt, the laws and the environment
    rf"^(?:# (?:User|Project) instructions \((?P<file>[^)\n]+)\)$|(?P<skills>{re.escape(SKILLS_HEADING)}\n"
    rf"{re.escape(SKILLS_INTRO)})|{re.escape(SUMMARY_HEADING)}$)",
    re.MULTILINE,
)


@dataclass
class Window:
    size: int
    sent: int = 0  # the latest request's prompt: the provider's count (the footer's ctx), or an estimate
    since: int = 0  # tokens added after that request, which the next one carries too
    estimated: bool = False
    parts: dict[str, int] = field(default_factory=dict)  # where the tokens go
    items: list[tuple[int, str]] = field(default_factory=list)  # each message: its tokens and what it is

    @property
    def next_request(self) -> int:
        return self.sent + self.since

    @property
    def left(self) -> int:
        return max(0, self.size - self.next_request)


def _system_parts(prompt: str) -> list[tuple[str, str]]:
    """The system prompt cut at its section headings: each instruction file, the skills, an inherited summary."""
    names, starts = [Said(N_("system prompt"))], [0]
    for match in SECTION.finditer(prompt):
        file, skills = match["file"], match["skills"]
        names.append(Said(N_("instructions: {file}"), file=file) if file else Said(N_("skills")) if skills
                     else Said(N_("inherited summary")))  # fmt: skip
        starts.append(match.start())
    ends = [*starts[1:], len(prompt)]
    return [(name, prompt[start:end]) for name, start, end in zip(names, starts, ends, strict=True)]


def first_words(text: str, width: int = 50) -> str:
    """Text on one line, without the reminders Narnat added for the model, cut to `width` characters."""
    line = " ".join((text or "").split("<system-reminder>", 1)[0].split())
    return line if len(line) <= width else line[: width - 1] + "…"


def _header(function: dict) -> str:
    """A call as the UI's tool line shows it: Read(src/app.py)."""
    try:
        args = json.loads(function["arguments"])
    except ValueError:
        args = None
    return first_words(registry.prepare(function["name"], args if isinstance(args, dict) else None).header, 60)


def _pieces(conversation: Conversation, tools: list[dict]) -> list[tuple[int, str, str, int]]:
    """(message index, part, item label, estimated tokens) for everything a request carries; parts and labels are
    Said, to be shown in the interface's language."""
    pieces = [(0, part, "", estimate(text)) for part, text in _system_parts(conversation.messages[0]["content"])]
    pieces.append((0, Said(N_("tool schemas")), "", estimate(tools)))
    calls: dict[str, tuple[str, str]] = {}
    question = 0
    for n, message in enumerate(conversation.messages[1:], 1):
        role, size = message["role"], estimate(message)
        if role == "user" and not isinstance(message["content"], str):  # the images the tools read
            pieces.append((n, Said(N_("images")), Said(N_("images read by the tools")), size))
        elif role == "user":
            question += 1
            said = Said(N_("question {n}: {text}"), n=str(question), text=first_words(message["content"]))
            pieces.append((n, Said(N_("questions")), said, size))
        elif role == "assistant":
            functions = {c["id"]: c["function"] for c in message.get("tool_calls", [])}
            calls.update({id_: (f["name"], _header(f)) for id_, f in functions.items()})
            named = ", ".join(calls[id_][1] for id_ in functions)
            # named after what makes up its size: three words of text before a 300-line Edit are not the item; an
            # answer without calls is its text, however short
            text = message["content"] or ""
            label = (Said(N_("answer: {text}"), text=first_words(text))
                     if text and (2 * estimate(text) >= size or not functions)
                     else Said(N_("calls {names}"), names=named))  # fmt: skip
            pieces.append((n, Said(N_("answers")), label, size))
        else:
            name, header = calls.get(message.get("tool_call_id", ""), ("tool", "tool"))
            pieces.append(
                (n, Said(N_("tool results: {tool}"), tool=name), Said(N_("result of {call}"), call=header), size)
            )
    return pieces


def measure(conversation: Conversation, tools: list[dict], size: int) -> Window:
    """The conversation's share of the window, parts scaled to the provider's count of the latest request."""
    pieces = _pieces(conversation, tools)
    known, carried = conversation.last_prompt_tokens, conversation.prompt_messages
    counted = sum(tokens for n, _, _, tokens in pieces if n < carried) if known else 0
    scale = known / counted if counted else 1.0
    window = Window(size, estimated=conversation.prompt_estimated or not known)
    for n, part, label, tokens in pieces:
        scaled = round(tokens * scale)
        window.parts[part] = window.parts.get(part, 0) + scaled
        if label:
            window.items.append((scaled, label))
        if known and n >= carried:
            window.since += scaled
    window.sent = known or sum(window.parts.values())
    return window
