"""The request's body, grown rather than rebuilt: each message is serialised once, when it is first sent.

The history is append-only and a message is never changed once sent (the providers' prefix caches depend on it), so
the JSON of every message sent before is still right: a step at a 2 MB history serialises only its new messages,
where the whole history anew cost 5–10 ms a step, growing with the conversation. The serialised messages are kept in
blocks; a full block is sent as it is, never copied again, so the bytes copied per step do not grow either.
"""

import json
from collections.abc import Callable

from narnat_agent.provider.tokens import estimate

BLOCK = 1 << 18  # bytes: past this a block is full and the next message starts a new one


def dumps(value: object) -> bytes:
    """JSON as the openai SDK wrote a request: UTF-8, no spaces, no NaN."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode()


class Body:
    """The serialised messages of the conversation last sent, by identity: a list that lost its tail (a rewind) or
    was replaced (a compression, /clear) keeps only the messages it still shares from the start."""

    def __init__(self) -> None:
        self.sent: list[dict] = []  # the messages serialised, held so their identity stays theirs
        self.blocks: list[bytes] = []  # their JSON joined by commas (each block but the first starts with one)
        self.firsts: list[int] = []  # the index of each block's first message
        self.form: object = None  # what `outgoing` did to each message when they were serialised
        self.counted: list[int] = []  # each message's tokens, roughly (as the provider would count them, unsent)

    def build(self, fields: dict, messages: list[dict], form: object, outgoing: Callable[[dict], dict]) -> list[bytes]:
        """The request body in pieces: `fields` with the messages (each as `outgoing` makes it) after "model"."""
        self.grow(messages, form, outgoing)
        head = dumps({"model": fields["model"]})[:-1] + b',"messages":['
        rest = dumps({k: v for k, v in fields.items() if k != "model"})[1:]
        return [head, *self.blocks, b"]" + (b"," if rest != b"}" else b"") + rest]

    def grow(self, messages: list[dict], form: object, outgoing: Callable[[dict], dict]) -> int:
        """Serialise the messages not serialised yet; the rough count of tokens all of them make."""
        if form != self.form:
            self.sent, self.blocks, self.firsts, self.counted, self.form = [], [], [], [], form
        kept = next((n for n, (a, b) in enumerate(zip(self.sent, messages, strict=False)) if a is not b),
                    min(len(self.sent), len(messages)))  # fmt: skip
        if kept < len(self.sent):
            self._cut(kept, outgoing)
        for message in messages[kept:]:
            self._add(message, dumps(outgoing(message)))
        return sum(self.counted)

    def _add(self, message: dict, encoded: bytes) -> None:
        comma = b"," if self.sent else b""
        self.sent.append(message)
        self.counted.append(estimate(message))
        if self.blocks and len(self.blocks[-1]) < BLOCK:
            self.blocks[-1] += comma + encoded
        else:
            self.blocks.append(comma + encoded)
            self.firsts.append(len(self.sent) - 1)

    def _cut(self, kept: int, outgoing: Callable[[dict], dict]) -> None:
        """Forget the messages from `kept` on; the block holding the last one kept is serialised again."""
        while self.firsts and self.firsts[-1] >= kept:
            del self.blocks[-1], self.firsts[-1]
        first = self.firsts.pop() if self.firsts else 0
        del self.blocks[len(self.firsts) :]
        remaining = self.sent[first:kept]
        del self.sent[first:], self.counted[first:]
        for message in remaining:
            self._add(message, dumps(outgoing(message)))
