"""One streamed assistant reply, assembled from chunks of any OpenAI-compatible provider."""

import json
import random
import string
from dataclasses import dataclass, field
from enum import Enum

from narnat_agent.encodable import encodable
from narnat_agent.logger import get_logger
from narnat_agent.provider.content import ContentSplitter
from narnat_agent.provider.text_calls import recover

log = get_logger("core.reply")
FILTERED = ("content_filter", "insufficient_system_resource", "error", "model_context_window_exceeded")


class Ending(Enum):
    """How a reply's stream ended; only COMPLETE lets its tool calls run or its text count as whole."""

    COMPLETE = "complete"
    CANCELLED = "cancelled"
    ERROR = "error"  # an error event inside the stream
    DISCONNECTED = "disconnected"  # the stream ended without a finish reason
    STOPPED = "stopped"  # Narnat stopped reading it at a limit (its size, a timeout)
    LENGTH = "length"  # the model's output limit
    FILTERED = "filtered"  # the provider stopped the answer


@dataclass
class ToolCall:
    id: str
    name: str
    arguments: str  # raw text as streamed
    args: dict | None = None  # parsed, when the arguments were a JSON object
    error: str | None = None  # why they could not be used
    recovered: str = ""  # the text format it was written in, when the model wrote the call as text

    @property
    def origin(self) -> str:
        """What the tool line adds for a call the model wrote as text."""
        return f" · recovered from {self.recovered} text" if self.recovered else ""

    @property
    def stored_arguments(self) -> str:
        """Valid JSON for the history, so the next request is accepted."""
        return json.dumps(self.args, ensure_ascii=False) if self.args is not None else "{}"


@dataclass
class Usage:
    prompt: int = 0
    completion: int = 0
    cached: int = 0
    estimated: bool = False


@dataclass
class Reply:
    content: str = ""
    reasoning: str = ""
    reasoning_field: str = "reasoning_content"  # "" when it came inside content: then it is not sent back
    tool_calls: list[ToolCall] = field(default_factory=list)
    finish_reason: str | None = None
    usage: Usage | None = None
    error: str | None = None  # an error event inside the stream
    stopped: str = ""  # why Narnat stopped reading it midway, in a sentence
    cancelled: bool = False

    @property
    def ending(self) -> Ending:
        if self.cancelled:
            return Ending.CANCELLED
        if self.error is not None:
            return Ending.ERROR
        if self.stopped:
            return Ending.STOPPED
        if self.finish_reason is None:
            return Ending.DISCONNECTED
        if self.finish_reason == "length":
            return Ending.LENGTH
        if self.finish_reason in FILTERED:
            return Ending.FILTERED
        return Ending.COMPLETE

    @property
    def empty(self) -> bool:
        """It ended normally with no text and no call: nothing to show as an answer or to run."""
        return self.ending is Ending.COMPLETE and not self.content.strip() and not self.tool_calls

    @property
    def cut_off(self) -> bool:
        """The reply did not end normally: its tool calls must not run."""
        return self.ending is not Ending.COMPLETE


def _new_id() -> str:
    return "".join(random.choices(string.ascii_letters + string.digits, k=9))


def _get(obj: object, name: str) -> object:
    """A field of an SDK object or a dict, including provider extras."""
    if isinstance(obj, dict):
        return obj.get(name)
    return getattr(obj, name, None)


def _kind(value: object) -> str:
    kinds = {list: "a list", dict: "an object", bool: "a boolean", int: "a number", float: "a number"}
    return kinds.get(type(value), f"a {type(value).__name__}")


def _text(obj: object, name: str) -> str:
    """A text field ("" when absent); any other type means the stream is malformed."""
    value = _get(obj, name)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise StreamError(f"malformed stream: '{name}' is {_kind(value)}, not text")
    return encodable(value)  # a JSON "\ud800" would make every later request unencodable


def _list(obj: object, name: str) -> list:
    value = _get(obj, name)
    if value is None:
        return []
    if not isinstance(value, list):
        raise StreamError(f"malformed stream: '{name}' is {_kind(value)}, not a list")
    return value


class _Slot:
    def __init__(self, index: int | None):
        self.index, self.id, self.name, self.arguments = index, "", "", ""

    @property
    def complete(self) -> bool:
        if not self.name:
            return False
        try:
            json.loads(self.arguments or "{}")
        except ValueError:
            return False
        return True


class ReplyBuilder:
    """Keys tool-call fragments by index (id only as a fallback); see the rules in SPEC §5."""

    def __init__(self) -> None:
        self.reply = Reply()
        self.slots: list[_Slot] = []
        self.by_index: dict[int, _Slot] = {}
        self.by_id: dict[str, _Slot] = {}
        self.current: _Slot | None = None
        self.parts = 0  # chunks that carried part of the answer: text, reasoning, a tool call or how it ended
        self.size = 0  # characters of the answer so far: text, reasoning and tool calls' arguments
        self.content = ContentSplitter()

    def add(self, chunk: object) -> tuple[str, str]:
        """Take one chunk; returns the (text, reasoning) it added, for the screen."""
        error = _get(chunk, "error")
        if error or _get(chunk, "object") == "error":
            raise StreamError(_error_text(error or chunk))
        usage = _get(chunk, "usage")
        text, thought, progress = [], [], False  # progress: this chunk carried part of the answer or its end
        fields = []  # reasoning in a field of its own; the content's is the splitter's to keep
        for choice in _list(chunk, "choices"):
            usage = _get(choice, "usage") or usage
            delta = _get(choice, "delta") or {}
            if piece := _text(delta, "content"):
                self.size += len(piece)
                progress = True  # even while the splitter holds it back from the screen
                shown, thinking = self.content.add(piece)
                text.append(shown)
                thought.append(thinking)
            for name in ("reasoning_content", "reasoning"):
                if piece := _text(delta, name):
                    self.size += len(piece)
                    thought.append(piece)
                    fields.append(piece)
                    self.reply.reasoning_field = name
            calls = _get(delta, "tool_calls") or []
            for fragment in calls if isinstance(calls, list) else [calls]:  # TGI sends one object
                self._merge(fragment)
            if finish := _text(choice, "finish_reason"):
                self.reply.finish_reason = finish
            progress = progress or bool(calls or finish)
        if usage:
            self.reply.usage = _usage(usage) or self.reply.usage
        self.reply.reasoning += "".join(fields)
        self.parts += bool(progress or thought)
        return "".join(text), "".join(thought)

    def _slot_for(self, index: int | None, call_id: str, name: str) -> _Slot:
        if index is not None:
            slot = self.by_index.get(index)
            reused = slot and call_id and name and call_id != slot.id and slot.complete
            if slot is None or reused:  # Ollama puts every call at index 0
                slot = self._open(index)
            return slot
        if call_id:
            return self.by_id.get(call_id) or self._open(None)
        if self.current is None or (name and self.current.complete):
            return self._open(None)
        return self.current

    def _open(self, index: int | None) -> _Slot:
        slot = _Slot(index)
        self.slots.append(slot)
        if index is not None:
            self.by_index[index] = slot
        return slot

    def _merge(self, fragment: object) -> None:
        function = _get(fragment, "function") or {}
        index = _get(fragment, "index")
        index = index if isinstance(index, int) else None
        call_id = _text(fragment, "id")
        name = _text(function, "name")
        slot = self._slot_for(index, call_id, name)
        if call_id and not slot.id:
            slot.id = call_id
            self.by_id[call_id] = slot
        if name and not slot.name:
            slot.name = name
        arguments = _get(function, "arguments")
        if arguments:
            piece = encodable(arguments) if isinstance(arguments, str) else json.dumps(arguments)
            self.size += len(piece)
            slot.arguments += piece
        self.current = slot

    def finish(self) -> Reply:
        """The reply with its named calls parsed, or recovered from its text; cut-off replies keep no calls."""
        self.reply.content, thought = self.content.finish()
        self.reply.reasoning += thought
        if self.content.thought:
            self.reply.reasoning_field = ""
        if not self.reply.cut_off:
            self.reply.tool_calls = [_parse(slot) for slot in self.slots if slot.name] or self._recovered()
        return self.reply

    @property
    def unshown(self) -> str:
        """Answer text held back from the screen that turned out not to be a tool call."""
        return self.content.unshown(self.reply.content)

    def _recovered(self) -> list[ToolCall]:
        found = recover(self.reply.content)
        if found is None:
            return []
        self.reply.content = found.prose
        calls = [
            ToolCall(_new_id(), name, json.dumps(args, ensure_ascii=False), args, recovered=found.form)
            for name, args in found.calls
        ]
        log.info("recovered %d tool call(s) written as %s text: %s", len(calls), found.form,
                 "; ".join(f"{c.name} {c.arguments}" for c in calls))  # fmt: skip
        return calls


class StreamError(Exception):
    """An error event inside a 200 stream."""


def _parse(slot: _Slot) -> ToolCall:
    call = ToolCall(slot.id or _new_id(), slot.name, slot.arguments)
    raw = slot.arguments.strip() or "{}"
    try:
        args = json.loads(raw)
    except ValueError as e:
        call.error = f"the arguments were not valid JSON ({e}): {raw[:200]}"
        return call
    if not isinstance(args, dict):
        call.error = f"the arguments must be a JSON object, not {raw[:200]}"
        return call
    call.args = args
    return call


def _count(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None  # negative: checked later


def _usage(raw: object) -> Usage | None:
    """The token counts, or None (then estimated) when the provider's counts are not numbers."""
    details = _get(raw, "prompt_tokens_details") or {}
    cached = _count(_get(details, "cached_tokens") or _get(raw, "prompt_cache_hit_tokens") or 0)
    prompt, completion = _count(_get(raw, "prompt_tokens") or 0), _count(_get(raw, "completion_tokens") or 0)
    if prompt is None or completion is None or cached is None:
        return None
    return Usage(prompt, completion, cached)


def _error_text(error: object) -> str:
    message = _get(error, "message")
    return str(message) if message else json.dumps(error if isinstance(error, (dict, str)) else str(error))
