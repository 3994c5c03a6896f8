"""A saved conversation told again to the editor (session/load): the person's questions, the answers with their
reasoning, each tool call and what it returned, in order."""

import json
import re
from collections.abc import Iterator
from typing import Any

from acp import (
    start_tool_call,
    text_block,
    tool_content,
    update_agent_message_text,
    update_agent_thought_text,
    update_tool_call,
    update_user_message_text,
)

from narnat_agent.acp.calls import KINDS
from narnat_agent.tools import registry
from narnat_agent.ui.plain import plain_title

REMINDER = re.compile(r"\n\n<system-reminder>\n.*?\n</system-reminder>$", re.DOTALL)  # what Narnat added, not typed


def _arguments(raw: str) -> dict:
    try:
        args = json.loads(raw or "{}")
    except ValueError:
        return {}
    return args if isinstance(args, dict) else {}


def replayed(messages: list[dict]) -> Iterator[Any]:
    """The session/update notifications that show the conversation again (the system prompt is not shown)."""
    for message in messages[1:]:
        role, content = message["role"], message.get("content")
        if role == "user" and isinstance(content, str):  # a list: the pictures tools read, not a question
            yield update_user_message_text(REMINDER.sub("", content))
        elif role == "assistant":
            reasoning = message.get("reasoning_content") or message.get("reasoning")
            if isinstance(reasoning, str) and reasoning:
                yield update_agent_thought_text(reasoning)
            if content:
                yield update_agent_message_text(content)
            for call in message.get("tool_calls", []):
                name, args = call["function"]["name"], _arguments(call["function"]["arguments"])
                header = plain_title(registry.prepare(name, args).header)
                yield start_tool_call(call["id"], header, kind=KINDS.get(name, "other"),  # type: ignore[arg-type]
                                      status="pending", raw_input=args)  # fmt: skip
        elif role == "tool":
            yield update_tool_call(message["tool_call_id"], status="completed",
                                   content=[tool_content(text_block(str(content)))])  # fmt: skip
