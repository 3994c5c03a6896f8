"""The OpenAI-compatible streaming client: one request, its retries, its errors, its usage and cost."""

import json
import random
import re
import threading
import time
from collections.abc import Callable
from typing import Protocol

from narnat_agent.config.settings import Config
from narnat_agent.i18n import _
from narnat_agent.keyguard import StreamMask, redact
from narnat_agent.logger import get_logger
from narnat_agent.processes import start_thread
from narnat_agent.provider.body import Body
from narnat_agent.provider.endpoint import Server
from narnat_agent.provider.errors import IMAGES, ContextTooLong, LLMError, Retry, provider_words, refusal
from narnat_agent.provider.fit import Fit
from narnat_agent.provider.pricing import cost
from narnat_agent.provider.reply import Reply, ReplyBuilder, StreamError, Usage
from narnat_agent.provider.silence import IDLE, Silence
from narnat_agent.provider.tokens import estimate
from narnat_agent.provider.transport import (
    APIError,
    ConnectionFailed,
    Events,
    LineTooLong,
    StatusError,
    TimedOut,
    Transport,
)
from narnat_agent.provider.usage import doubt, text_floor

MAX_TRIES = 4
# characters per token of the context window an answer may take before it is stopped: an answer must fit the
# window to be sent back, and a provider that streams without end would otherwise fill the memory
ANSWER_CHARS_PER_TOKEN = 8
# The read timeout ends a stream that sends nothing at all, at stream_idle_timeout_s; the watch ends one that sends
# only keep-alives a moment later, so each failure can be named for what it was.
GRACE = 1.0
MODELS_TIMEOUT = 15.0  # seconds /model waits for the list: a command, not a turn, so nothing can interrupt it
log = get_logger("core.llm")


class Sink(Protocol):
    """Where a reply streams: a turn's view, or the silent sink of a compression."""

    cancelled: bool  # set by the UI when the user presses the interrupt key; the client stops reading

    def feed(self, text: str) -> None: ...
    def feed_reasoning(self, text: str) -> None: ...


class _Masked:
    """A sink that never receives the key, though the model may write it cut across pieces, even by a piece of the
    other kind (answer, reasoning): what could be its beginning waits for the next piece of its kind; when the other
    kind comes first, a few characters of it come out before (so the reasoning that ends `… s` still comes before the
    answer) and the rest waits; what still waits comes out at the end (`release`)."""

    def __init__(self, sink: Sink, secret: str):
        self.sink, self.text, self.reasoning = sink, StreamMask(secret), StreamMask(secret)

    @property
    def cancelled(self) -> bool:
        return self.sink.cancelled

    @cancelled.setter
    def cancelled(self, value: bool) -> None:
        self.sink.cancelled = value

    def feed(self, text: str) -> None:
        self._pass(self.reasoning.let_go(), self.sink.feed_reasoning)
        self._pass(self.text.feed(text), self.sink.feed)

    def feed_reasoning(self, text: str) -> None:
        self._pass(self.text.let_go(), self.sink.feed)
        self._pass(self.reasoning.feed(text), self.sink.feed_reasoning)

    def release(self) -> None:
        self._pass(self.reasoning.rest(), self.sink.feed_reasoning)
        self._pass(self.text.rest(), self.sink.feed)

    @staticmethod
    def _pass(text: str, to: Callable[[str], None]) -> None:
        if text:
            to(text)


def _has_images(messages: list[dict]) -> bool:
    return any(isinstance(m.get("content"), list) for m in messages)


def _without_images(message: dict) -> dict:
    """A message that carried images, as text: the tool results above already say what each image is."""
    words = [part["text"] for part in message["content"] if part.get("type") == "text"]
    return {**message, "content": "\n".join([*words, "(The images are not shown: this provider refused them.)"])}


def _take(chunk: object, builder: ReplyBuilder, sink: Sink, silence: Silence) -> None:
    """One chunk into the reply and onto the screen; only part of the answer counts as the provider being heard."""
    before = builder.parts
    text, thought = builder.add(chunk)
    if builder.parts > before:
        silence.heard()
    if thought:
        sink.feed_reasoning(thought)
    if text:
        sink.feed(text)


def _chunks(stream: Events):
    """The stream's chunks; a data line that is not JSON is the provider's fault, said as such."""
    chunks = iter(stream)
    while True:
        try:
            yield next(chunks)
        except StopIteration:
            return
        except json.JSONDecodeError as e:
            raise StreamError(f"malformed stream: a data line is not JSON ({e.msg})") from None
        except LineTooLong as e:
            raise StreamError(f"malformed stream: {e}") from None


class Client:
    def __init__(self, config: Config, notify: Callable[[str], None], server: Server | None = None, *,
                 clock: Callable[[], float] = time.monotonic, sleep: Callable[[float], None] = time.sleep):  # fmt: skip
        self.config = config
        self.clock, self.sleep = clock, sleep  # how the silence is timed and a retry waits (a test's own)
        self.model = config.model  # /model changes it for the rest of the conversation
        self.notify = notify
        self.fit = Fit(notify, config.model, server)  # the server that people run themselves, when it said so
        self.use_stream_options = True
        self.send_reasoning = True
        self.send_images = True  # until the provider refuses one: then images go as the words that describe them
        self._transport: Transport | None = None
        self._lock = threading.Lock()
        self._body = Body()
        self.requests = 0  # sent so far, retries included
        self.doubted = False  # the provider's counts were found wrong once: said, and not again

    def preload(self) -> None:
        """Load the HTTP client in the background while the user types."""
        start_thread(self._http)

    def _http(self) -> Transport:
        with self._lock:
            if self._transport is None:
                config = self.config
                self._transport = Transport(config.base_url, config.api_key, config.stream_idle_timeout_s)
            return self._transport

    def stream(self, messages: list[dict], tools: list[dict], sink: Sink) -> Reply:
        """Send one request and stream its reply into sink, retrying what may be retried."""
        self._http()  # loaded first: silence is timed at the provider only
        sent = self._body.grow(messages, self._form, self._outgoing) + estimate(tools)  # serialised once, here
        self.fit.before(sent)
        for attempt in range(1, MAX_TRIES + 1):
            try:
                idle, overall = self.config.stream_idle_timeout_s + GRACE, self.config.request_timeout_s
                with Silence(self.notify, idle=idle, overall=overall, clock=self.clock) as silence:
                    reply = self._attempt(messages, tools, sink, silence)
                self.fit.after(sent, reply.usage)
                return reply
            except Retry as retry:
                if attempt == MAX_TRIES:
                    gave_up = _("{problem}; gave up after {tries} tries.")
                    raise LLMError(gave_up.format(problem=retry, tries=MAX_TRIES)) from None
                wait = retry.wait if retry.wait is not None else min(8.0, 0.5 * 2 ** (attempt - 1))
                wait *= 1 - random.random() * 0.25
                again = _("{problem}; retrying in {wait:.1f}s (try {attempt} of {tries}).")
                self.notify(again.format(problem=retry, wait=wait, attempt=attempt + 1, tries=MAX_TRIES))
                log.warning("retry %d: %s", attempt, retry.english)
                self.sleep(wait)
        raise AssertionError("unreachable")

    def models(self) -> list[str] | None:
        """The model names the endpoint lists (/v1/models), or None when it keeps no such list."""
        try:
            listing = self._http().get_json("/models", MODELS_TIMEOUT)
        except StatusError as e:
            log.info("no model list: status %d", e.status_code)
            return None
        except ConnectionFailed as e:
            why = redact(str(e), self.config.api_key)
            raise LLMError(
                _("Cannot reach {base_url} ({error}).").format(base_url=self.config.base_url, error=why)
            ) from None
        except APIError as e:
            log.info("no model list: %s", e)
            return None
        entries = listing.get("data") if isinstance(listing, dict) else None
        ids = [entry.get("id") for entry in entries or [] if isinstance(entry, dict)]
        return sorted(name for name in ids if isinstance(name, str))

    def _attempt(self, messages: list[dict], tools: list[dict], sink: Sink, silence: Silence) -> Reply:
        started = time.monotonic()
        silence.abort = self._http().hang_up  # the limits hold while the answer's headers come, too
        try:
            stream = self._open(messages, tools)
        except Retry:
            if which := silence.expired:
                self._stalled(ReplyBuilder(), lambda: self._limit(which), retry=which == IDLE)
            raise
        silence.abort = stream.hang_up
        builder, masked = ReplyBuilder(), _Masked(sink, self.config.api_key)
        try:
            try:
                self._read(stream, builder, masked, silence)
            finally:
                stream.close()
            reply = self._finish(builder, masked)
        finally:
            masked.release()
        reply.usage = self._checked(messages, tools, reply)
        log.info(
            "reply: tokens_in=%s%d, tokens_out=%d, cached=%d, finish=%s, time=%.2fs, cost=%s",
            "~" if reply.usage.estimated else "", reply.usage.prompt, reply.usage.completion,
            reply.usage.cached, reply.finish_reason, time.monotonic() - started,
            cost(reply.usage, self.config.pricing),
        )  # fmt: skip
        return reply

    def _read(self, stream: Events, builder: ReplyBuilder, sink: Sink, silence: Silence) -> None:
        """The stream's chunks into the reply and the sink, until its end, a cancel, a failure or a limit."""
        try:
            limit = max(self.config.context_window, 32_000) * ANSWER_CHARS_PER_TOKEN
            for chunk in _chunks(stream):
                _take(chunk, builder, sink, silence)
                if sink.cancelled:
                    builder.reply.cancelled = True
                    break
                if builder.size > limit:
                    self._stalled(builder, lambda: _("The provider sent more than {limit:,} characters in one answer, "
                                                     "more than the context window holds").format(limit=limit),
                                  retry=False)  # fmt: skip
                    break
        except KeyboardInterrupt:
            builder.reply.cancelled = True
        except TimedOut:
            idle = self.config.stream_idle_timeout_s
            self._stalled(builder, lambda: _("The provider sent nothing for {seconds:g} s (stream_idle_timeout_s)")
                          .format(seconds=idle))  # fmt: skip
        except (StreamError, APIError) as e:
            if not silence.expired and not builder.parts:
                message = self._message(e)
                raise Retry(
                    lambda: _("The provider failed before answering ({message})").format(message=message)
                ) from None
            builder.reply.error = None if silence.expired else self._message(e)  # a limit's notice says why
        except Exception:  # the connection a limit closed fails in the transport's own words
            if not silence.expired:
                raise
        if silence.expired:
            which = silence.expired
            self._stalled(builder, lambda: self._limit(which), retry=which == IDLE)

    def _limit(self, which: str) -> str:
        if which == IDLE:
            alive = _("The provider sent only keep-alives for {seconds:g} s (stream_idle_timeout_s)")
            return alive.format(seconds=self.config.stream_idle_timeout_s)
        return _("The request ran longer than {seconds:g} s (request_timeout_s)").format(
            seconds=self.config.request_timeout_s
        )

    def _stalled(self, builder: ReplyBuilder, why: Callable[[], str], retry: bool = True) -> None:
        """A request ended for want of progress: asked again when nothing of the answer had arrived, else cut off
        where it stopped (without a finish reason the reply counts as cut off)."""
        if builder.parts:
            self.notify(_("{problem}; the answer stops there.").format(problem=why()))
            said = why()  # the turn's last word names the limit, not a broken connection
            builder.reply.stopped = said[:1].lower() + said[1:]
        elif retry:
            raise Retry(why)
        else:
            raise LLMError(_("{problem}, and nothing of the answer had arrived.").format(problem=why()))

    @staticmethod
    def _finish(builder: ReplyBuilder, sink: Sink) -> Reply:
        """The complete reply; text held back as a possible tool call that was none is shown now."""
        reply = builder.finish()
        if builder.unshown:
            sink.feed(builder.unshown)
        if reply.finish_reason == "model_context_window_exceeded":
            raise ContextTooLong(_("The conversation no longer fits the model's context window."))
        return reply

    def _open(self, messages: list[dict], tools: list[dict]) -> Events:
        """The response stream; a rejected optional field is dropped once and the request sent again."""
        while True:
            fields: dict = {"model": self.model, "stream": True}
            if tools:
                fields["tools"] = tools
            if self.use_stream_options:
                fields["stream_options"] = {"include_usage": True}
            body = self._body.build(fields, messages, self._form, self._outgoing)
            log.info("request: %d messages", len(messages))
            self.requests += 1
            try:
                return self._http().stream("/chat/completions", body)
            except StatusError as e:
                self._classify(e, messages)
            except ConnectionFailed as e:  # timeouts included
                raise self._unreachable(e) from None

    def _unreachable(self, error: ConnectionFailed) -> Retry:
        """Why no response came; a server that accepted the connection and said nothing is not one out of reach."""
        url, idle = self.config.base_url, self.config.stream_idle_timeout_s
        if isinstance(error, TimedOut) and error.silent_server:
            return Retry(lambda: _("{base_url} accepted the connection and sent nothing for {seconds:g} s "
                                   "(stream_idle_timeout_s)").format(base_url=url, seconds=idle))  # fmt: skip
        why = redact(str(error), self.config.api_key)
        return Retry(lambda: _("Cannot reach {base_url} ({error})").format(base_url=url, error=why))

    def _classify(self, e: StatusError, messages: list[dict]) -> None:
        """Decide what a status error means: returns only when the request should be sent again now."""
        status, message = e.status_code, self._message(e)
        log.warning("status %d: %s", status, message)
        if status in (400, 422) and self.use_stream_options and "stream_options" in message:
            self.use_stream_options = False
            return
        if status in (400, 422) and self.send_reasoning and re.search(r"reasoning", message, re.I) \
                and not re.search(r"must be passed|missing", message, re.I):  # fmt: skip
            self.send_reasoning = False
            return
        if status in (400, 415, 422) and self.send_images and _has_images(messages) and IMAGES.search(message):
            self.send_images = False
            self.notify(_("The provider refused an image; images are left out of what this run sends."))
            return
        raise refusal(status, message, e.headers, self.model, self.config.base_url)

    def _message(self, error: Exception) -> str:
        return provider_words(error, self.config.api_key)

    @property
    def _form(self) -> tuple[bool, bool]:
        return self.send_images, self.send_reasoning

    def _outgoing(self, message: dict) -> dict:
        """A message as this provider takes it: without images or reasoning once it refused them."""
        if not self.send_images and isinstance(message["content"], list):
            message = _without_images(message)
        if self.send_reasoning:
            return message
        return {k: v for k, v in message.items() if k not in ("reasoning_content", "reasoning")}

    def _checked(self, messages: list[dict], tools: list[dict], reply: Reply) -> Usage:
        """The provider's counts, or Narnat's estimate where it gave none or none that can be right (said once)."""
        prompt = self._body.grow(messages, self._form, self._outgoing) + estimate(tools)  # counted as it grew
        if reply.usage is None:
            return self._estimate(prompt, reply)
        why = doubt(reply.usage, text_floor(messages) + estimate(tools), local=self.fit.server is not None)
        if why is None:
            return reply.usage
        log.warning("implausible usage from the provider (%s): %s", why, reply.usage)
        if not self.doubted:
            self.doubted = True
            self.notify(_("The provider's token counts cannot be right ({why}); costs, budgets and the context window "
                          "use Narnat's own estimates instead (marked ~).").format(why=why))  # fmt: skip
        return self._estimate(prompt, reply)

    @staticmethod
    def _estimate(prompt: int, reply: Reply) -> Usage:
        """The usage of a reply the provider did not count (or not believably): the prompt's tokens as the body
        counted them, the schemas included."""
        made = reply.content + reply.reasoning + "".join(c.arguments for c in reply.tool_calls)
        return Usage(prompt, estimate(made), 0, estimated=True)
