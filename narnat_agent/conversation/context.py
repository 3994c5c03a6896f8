"""The conversation: OpenAI message dicts appended to only, so every request extends the last one."""

import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from narnat_agent.conversation.store import stamp
from narnat_agent.keyguard import redact
from narnat_agent.prompts.texts import SUMMARY_HEADING
from narnat_agent.provider.reply import Reply
from narnat_agent.tools.base import Picture

CANCELLED = "Cancelled by the user; if it was running, its effects are unknown."
INTERRUPTED = "[interrupted by the user]"  # ends an answer cut short, so the model does not take it as finished
PICTURES = "The images read by the tool calls above:"
MENTION = re.compile(r"(?<![\w@])@([\w/.~-]+[\w/])")
MAX_MENTIONS = 5


class Conversation:
    def __init__(self, system_prompt: str, name: str | None = None, summary: str = ""):
        if summary:
            system_prompt = f"{system_prompt}\n\n{SUMMARY_HEADING}\n{summary.strip()}\n"
        self.messages: list[dict] = [{"role": "system", "content": system_prompt}]
        self.turns = 0
        self.created = datetime.now()
        self.name = name or stamp(self.created)
        self.last_prompt_tokens = 0  # of the latest request: the safety net's measure of how full the context is
        self.prompt_estimated = False  # the provider reported no usage: last_prompt_tokens is counted from the text
        self.prompt_messages = 0  # how many of the messages the latest request carried

    @property
    def worth_saving(self) -> bool:
        """Whether it holds a turn, or goes on from a summary of an earlier conversation (/compact, then leaving)."""
        return self.turns > 0 or SUMMARY_HEADING in self.messages[0]["content"]

    def last_exchange(self) -> tuple[str, str]:
        """The last question asked and the answer that ended it ("" where there is none)."""
        asked = [n for n, m in enumerate(self.messages) if m["role"] == "user" and isinstance(m["content"], str)]
        if not asked:
            return "", ""
        answers = [m["content"] for m in self.messages[asked[-1] :] if m["role"] == "assistant" and m["content"]]
        return self.messages[asked[-1]]["content"], answers[-1] if answers else ""

    def add_user(self, text: str, question: bool = True) -> None:
        """A user message; a question counts as a turn, a message delivered within one (steering) does not."""
        self.messages.append({"role": "user", "content": text})
        self.turns += question

    def add_reply(self, reply: Reply, secret: str) -> None:
        """The assistant message; calls of a reply that was cut off are left out, so none waits for a result.

        The key (secret) the model wrote is kept masked, as the screen showed it: the history is what a saved session
        holds, and the provider's cache never held the answer (it comes after the prompt it cached)."""
        if reply.usage:
            self.last_prompt_tokens, self.prompt_estimated = reply.usage.prompt, reply.usage.estimated
            self.prompt_messages = len(self.messages)
        calls = [] if reply.cut_off else reply.tool_calls
        content = reply.content
        if reply.cancelled:
            content = f"{content}\n\n{INTERRUPTED}" if content else INTERRUPTED
        if not calls and not content:
            return
        content = redact(content, secret)
        message: dict = {"role": "assistant", "content": content or None}
        if reply.reasoning and reply.reasoning_field and calls:  # thinking providers need it back on tool-call turns
            message[reply.reasoning_field] = redact(reply.reasoning, secret)
        if calls:
            message["tool_calls"] = [
                {"id": c.id, "type": "function",
                 "function": {"name": c.name, "arguments": redact(c.stored_arguments, secret)}}
                for c in calls
            ]  # fmt: skip
        else:
            message["content"] = content
        self.messages.append(message)

    def add_tool_result(self, call_id: str, text: str) -> None:
        self.messages.append({"role": "tool", "tool_call_id": call_id, "content": text})

    def add_pictures(self, pictures: list[Picture]) -> None:
        """Images the tools read, for a model that sees: a user message after the tool results (a tool message
        cannot hold an image on most providers); it is not a question, so it is not a turn."""
        if not pictures:
            return
        content: list[dict] = [{"type": "text", "text": PICTURES}]
        for picture in pictures:
            content.append({"type": "text", "text": f"{picture.name}:"})
            content.append({"type": "image_url", "image_url": {"url": f"data:{picture.mime};base64,{picture.base64}"}})
        self.messages.append({"role": "user", "content": content})

    def answer_open_calls(self, text: str = CANCELLED) -> None:
        """Give every tool call of the last assistant message a result, so the history stays valid."""
        for i in range(len(self.messages) - 1, -1, -1):
            if self.messages[i]["role"] == "assistant":
                break
        else:
            return
        answered = {m["tool_call_id"] for m in self.messages[i + 1 :] if m["role"] == "tool"}
        for call in self.messages[i].get("tool_calls", []):
            if call["id"] not in answered:
                self.add_tool_result(call["id"], text)

    def last_answer(self) -> str:
        """The final answer: the text of the last message when the model wrote it and called no tool after it."""
        last = self.messages[-1]
        if last["role"] != "assistant" or last.get("tool_calls"):
            return ""
        return last["content"] or ""


def with_mentions(text: str, root: Path, known: Callable[[Path], bool]) -> str:
    """A question naming @paths gets a reminder to Read them (up to five, in order); their content is not added.
    Files the model has read as they are now (`known`) are left out: a full re-Read would only grow every request."""
    paths = []
    for match in MENTION.finditer(text):
        path = match.group(1)
        if path not in paths and (root / path).exists() and not known(root / path):
            paths.append(path)
    if not paths:
        return text
    named = ", ".join(f"@{p}" for p in paths[:MAX_MENTIONS])
    more = f" (and {len(paths) - MAX_MENTIONS} more)" if len(paths) > MAX_MENTIONS else ""
    return with_reminder(
        text, [f"The user mentioned {named}{more}.", "You MUST read these files with the Read tool before answering."]
    )


def with_reminder(text: str, lines: list[str]) -> str:
    """Facts the model must know with this message, set apart from what the user typed."""
    if not lines:
        return text
    body = "\n".join(lines)
    return f"{text}\n\n<system-reminder>\n{body}\n</system-reminder>"
