"""The blocking main loop: a question in, model and tools in turns, an answer out."""

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from narnat_agent.config import session_store
from narnat_agent.config.loader import Config
from narnat_agent.core.compressor import clear_summary, summarise
from narnat_agent.core.context import Conversation, with_mentions
from narnat_agent.core.llm import Client, ContextTooLong, LLMError, cost
from narnat_agent.core.reply import Reply, ToolCall
from narnat_agent.logger import get_logger
from narnat_agent.tools import registry
from narnat_agent.tools.workspace import Result, Workspace

log = get_logger("core.agent")
REPEATS = 3
FULL = 0.9  # share of the context window that triggers the safety net


@dataclass
class TurnStats:
    context_window: int = 0
    context: int = 0  # tokens of the latest request: how full the context is
    sent: int = 0  # input tokens over the whole turn (every request resends the context)
    cached: int = 0  # of those, served from the provider's cache
    completion: int = 0
    requests: int = 0
    estimated: bool = False
    cost: float | None = None
    session_cost: float | None = None
    started: float = field(default_factory=time.monotonic)

    def add(self, reply: Reply, price: float | None) -> None:
        usage = reply.usage
        self.context, self.requests = usage.prompt, self.requests + 1
        self.sent, self.cached = self.sent + usage.prompt, self.cached + usage.cached
        self.completion += usage.completion
        self.estimated = self.estimated or usage.estimated
        if price is not None:
            self.cost = (self.cost or 0.0) + price


def _repeated(call: ToolCall, recent: list[str]) -> bool:
    """The doom-loop guard: the same call for the third time in a row."""
    recent.append(f"{call.name} {call.stored_arguments}")
    return len(recent) >= REPEATS and len(set(recent[-REPEATS:])) == 1


class TurnStopped(Exception):
    """The turn ends early with a notice for the user (repeated calls, step limit, cut-off answer)."""


class Agent:
    def __init__(self, config: Config, ui, client: Client, workspace: Workspace, conversation: Conversation,
                 system_prompt: str):  # fmt: skip
        self.config, self.ui, self.client = config, ui, client
        self.workspace, self.conversation = workspace, conversation
        self.system_prompt = system_prompt  # without any inherited summary
        self.session_cost: float | None = None

    def run(self, command: Callable[["Agent", str], bool]) -> None:
        """The REPL: questions and slash commands until the user leaves; `command` returns False to leave."""
        while (text := self.ui.read_input()) is not None:
            if text.strip().startswith("/"):
                if not command(self, text.strip()):
                    return
            elif text.strip():
                try:
                    self.ask(text)
                except LLMError as e:
                    self.ui.error(str(e))
                except KeyboardInterrupt:  # a cancel that landed between steps: the turn is already over
                    self.conversation.answer_open_calls()
                except Exception as e:  # a bug must not end the session; the history stays valid
                    log.exception("unexpected error")
                    self.conversation.answer_open_calls(f"Failed: {type(e).__name__}")
                    self.ui.error(f"Unexpected error ({type(e).__name__}: {e}); the conversation is kept.")

    def ask(self, question: str) -> None:
        """A question from the user: compress first when the conversation is full, then answer it."""
        if self._full() and not self.compress():
            self.ui.give_back(question)
            return
        try:
            self.turn(question)
        except ContextTooLong:
            self.ui.notice("The provider says the conversation no longer fits its context window; compressing.")
            if self.compress():
                self.turn(question)
            else:
                self.ui.give_back(question)

    def _full(self) -> bool:
        return (
            self.conversation.turns >= self.config.compress_turns
            or self.conversation.last_prompt_tokens > FULL * self.config.context_window
        )

    def compress(self) -> bool:
        """Summarise, archive the old conversation and continue in a new one that inherits the summary."""
        old = self.conversation
        log.info("compression started: turns=%d, prompt_tokens=%d", old.turns, old.last_prompt_tokens)
        sink = self.ui.begin_compressing()
        try:
            summary = summarise(self.client, old.messages, self.config.state_dir, sink)
        except LLMError as e:
            log.warning("compression request failed: %s", e)
            summary = ""
        except KeyboardInterrupt:
            log.info("compression cancelled by the user")
            summary = ""
        finally:
            self.ui.end_compressing()
        if not summary:
            self.ui.error("Compression failed: no summary came back; the conversation is unchanged.")
            return False
        archive = f"compressed-{session_store.stamp()}"
        session_store.save(self.config.state_dir, archive, old.to_session(self.config.model, self.workspace.todos))
        self.conversation = Conversation(self.system_prompt, summary=summary)
        clear_summary(self.config.state_dir)
        log.info("compression done: archived as %s, summary %d characters", archive, len(summary))
        self.ui.notice(f"Compressed: the old conversation is saved as '{archive}'; this one starts from its summary.")
        return True

    def save(self, name: str | None = None) -> str | None:
        """Save the conversation (under its own name by default); an empty one is not saved."""
        if not self.conversation.turns:
            return None
        name = name or self.conversation.name
        data = self.conversation.to_session(self.config.model, self.workspace.todos)
        session_store.save(self.config.state_dir, name, data)
        return name

    def turn(self, question: str) -> None:
        """Answer one question, through as many model and tool steps as it takes."""
        log.info("user input: %s", json.dumps(question, ensure_ascii=False))
        self.conversation.add_user(with_mentions(question, self.workspace.root))
        stream, stats = self.ui.create_stream(), TurnStats(self.config.context_window)
        try:
            self._steps(stream, stats)
        except TurnStopped as e:
            self.conversation.answer_open_calls(f"Not run: {e}")
            self.ui.notice(str(e))
        except KeyboardInterrupt:
            stream.cancelled = True
        finally:
            self.conversation.answer_open_calls()
            if stats.cost is not None:
                self.session_cost = (self.session_cost or 0.0) + stats.cost
            stats.session_cost = self.session_cost
            stream.finish(stats)
            log.info("turn done: context=%d, sent=%d, cached=%d, out=%d, requests=%d, cost=%s", stats.context,
                     stats.sent, stats.cached, stats.completion, stats.requests, stats.cost)  # fmt: skip
        self._warn()

    def _warn(self) -> None:
        turns, thresholds = self.conversation.turns, self.config.warn_turns
        if turns in thresholds:
            advice = " Consider /clear to start a new conversation." if turns == max(thresholds) else ""
            limit = f" At {self.config.compress_turns} it will be compressed."
            self.ui.warning(f"This conversation has reached {turns} turns.{limit}{advice}")

    def _steps(self, stream, stats: TurnStats) -> None:
        recent: list[str] = []  # the calls made so far this turn, for the doom-loop guard
        for _ in range(self.config.max_steps):
            reply = self.client.stream(self.conversation.messages, registry.schemas(), stream)
            stats.add(reply, cost(reply.usage, self.config.pricing))
            self.conversation.add_reply(reply)
            if reply.cancelled:
                raise KeyboardInterrupt
            self._check_ending(reply)
            if not reply.tool_calls:
                return
            for call in reply.tool_calls:
                if _repeated(call, recent):
                    raise TurnStopped(f"{call.name} was called {REPEATS} times in a row with the same arguments.")
                self.conversation.add_tool_result(call.id, self._call(call))
        raise TurnStopped(f"Stopped after {self.config.max_steps} tool steps (max_steps). Say 'continue' to go on.")

    @staticmethod
    def _check_ending(reply: Reply) -> None:
        if reply.error is not None:
            raise LLMError(f"The answer was cut off: the provider reported an error mid-stream ({reply.error}).")
        if reply.finish_reason is None:
            raise LLMError("The answer was cut off: the connection ended before the reply was complete.")
        if reply.finish_reason == "length":
            raise TurnStopped("The answer hit the model's output limit and was cut off; its tool calls were not run.")
        if reply.finish_reason in ("content_filter", "insufficient_system_resource", "error"):
            raise TurnStopped(f"The provider stopped the answer ({reply.finish_reason}).")

    def _call(self, call: ToolCall) -> str:
        """Run one call and show it; the text goes back to the model."""
        self.ui.tool_start(registry.header(call.name, call.args or {}))
        if call.error:
            result = Result(f"Error: {call.error}. Call {call.name} again with a JSON object.", "bad arguments", True)
        else:
            result = registry.execute(call.name, call.args, self.workspace)
        self.ui.tool_end(result)
        return result.text
