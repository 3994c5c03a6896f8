"""The blocking main loop: a question in, model and tools in turns, an answer out."""

import json
from collections.abc import Callable

from narnat_agent.checkpoints.turns import Checkpoints, open_store
from narnat_agent.config.loader import Config
from narnat_agent.core import session as sessions
from narnat_agent.core import session_store
from narnat_agent.core.compressor import clear_summary, summarise
from narnat_agent.core.context import with_mentions, with_reminder
from narnat_agent.core.llm import Client, ContextTooLong, LLMError, cost
from narnat_agent.core.reply import Ending, Reply, ToolCall
from narnat_agent.core.session import Session
from narnat_agent.core.turn import Cancelled, Stop, TurnOutcome, TurnStats, TurnStopped
from narnat_agent.core.ui import UI, TurnView
from narnat_agent.logger import get_logger
from narnat_agent.tools import registry
from narnat_agent.tools.base import Confirm, Interrupted
from narnat_agent.tools.workspace import Workspace

log = get_logger("core.agent")
REPEATS = 3
FULL = 0.9  # share of the context window that triggers the safety net
ENDINGS = {  # a reply that did not end normally: how the turn stops, and what the user is told
    Ending.ERROR: (Stop.PROVIDER_ERROR, "The answer was cut off: the provider reported an error mid-stream ({error})."),
    Ending.DISCONNECTED: (Stop.PROVIDER_ERROR, "The answer was cut off: the connection ended before it was complete."),
    Ending.LENGTH: (
        Stop.CUT_OFF,
        "The answer hit the model's output limit and was cut off; its tool calls were not run.",
    ),
    Ending.FILTERED: (Stop.CUT_OFF, "The provider stopped the answer ({finish})."),
}


def _repeated(call: ToolCall, recent: list[str]) -> bool:
    """The doom-loop guard: the same call for the third time in a row."""
    recent.append(f"{call.name} {call.stored_arguments}")
    return len(recent) >= REPEATS and len(set(recent[-REPEATS:])) == 1


class Agent:
    def __init__(self, config: Config, ui: UI, client: Client, workspace: Workspace, session: Session,
                 system_prompt: str):  # fmt: skip
        self.config, self.ui, self.client, self.workspace = config, ui, client, workspace
        self.system_prompt = system_prompt  # without any inherited summary
        self.leaving = 0  # the signal asking the process to end, once one has
        self.checkpoints = Checkpoints(open_store(config.project, config.state_dir), session.checkpoints, ui.notice)
        self.switch(session)

    def switch(self, session: Session) -> None:
        """Continue in another conversation: the only way /clear, /enter, compression and --resume replace it."""
        self.session = session
        self.workspace.tool_state = session.tool_state
        self.checkpoints.use(session.checkpoints)

    def ask_with_undo(self, confirm: Confirm) -> Confirm:
        """The user's yes/no, told whether /undo could bring the files back (only where /undo exists: the REPL)."""

        def ask(command: str, reason: str) -> bool:
            undo = self.checkpoints.covers_commands() and "/undo" not in reason  # else the reason says it already
            return confirm(command, reason + ("; all but git-ignored files can be undone with /undo" if undo else ""))

        return ask

    @property
    def conversation(self):
        return self.session.conversation

    def run(self, command: Callable[["Agent", str], bool]) -> None:
        """The REPL: questions and slash commands until the user leaves; `command` returns False to leave."""
        while not self.leaving and (text := self.ui.read_input()) is not None:
            if text.strip().startswith("/"):
                if not command(self, text.strip()):
                    return
            elif text.strip():
                try:
                    self.ask(text)
                except KeyboardInterrupt:  # a cancel that landed between steps: the turn is already over
                    self.conversation.answer_open_calls()
                except Exception as e:  # a bug must not end the session; the history stays valid
                    log.exception("unexpected error")
                    self.conversation.answer_open_calls(f"Failed: {type(e).__name__}")
                    self.ui.error(f"Unexpected error ({type(e).__name__}: {e}); the conversation is kept.")

    def ask(self, question: str) -> TurnOutcome:
        """A question from the user: compress first when the conversation is full, then answer it."""
        if self._full() and not self.compress():
            self.ui.give_back(question)
            return TurnOutcome(Stop.FAILED, "The conversation is full and could not be compressed.")
        try:
            outcome = self.turn(question)
        except ContextTooLong:
            self.ui.notice("The provider says the conversation no longer fits its context window; compressing.")
            if not self.compress():
                self.ui.give_back(question)
                return TurnOutcome(Stop.FAILED, "The conversation no longer fits and could not be compressed.")
            outcome = self.turn(question)
        return outcome

    def _full(self) -> bool:
        return (
            self.conversation.turns >= self.config.compress_turns
            or self.conversation.last_prompt_tokens > FULL * self.config.context_window
        )

    def compress(self) -> bool:
        """Summarise, archive the old conversation and continue in a new one (same name) that inherits the summary."""
        old = self.session
        log.info("compression started: turns=%d, prompt_tokens=%d", old.turns, old.conversation.last_prompt_tokens)
        sink = self.ui.begin_compressing()
        try:
            summary = summarise(self.client, old.conversation.messages, self.config.state_dir, sink)
        except LLMError as e:
            log.warning("compression request failed: %s", e)
            summary = ""
        except KeyboardInterrupt:
            log.info("compression cancelled by the user")
            summary = ""
        except OSError as e:  # the summary file could not be written (a full disk)
            self.ui.error(f"Compression failed: the summary could not be saved ({e.strerror}); free some space. "
                          "The conversation is unchanged.")  # fmt: skip
            return False
        finally:
            self.ui.end_compressing()
        if not summary:
            self.ui.error("Compression failed: no complete summary came back; the conversation is unchanged.")
            return False
        archive = f"compressed-{session_store.stamp()}"
        try:
            sessions.save(self.config.state_dir, old, self.config.model, archive)
        except session_store.SessionError as e:
            self.ui.error(f"Compression failed: {e} The conversation is unchanged.")
            return False
        successor = sessions.new_session(self.system_prompt, summary, name=old.name)
        successor.checkpoints, successor.cost = old.checkpoints, old.cost
        self.switch(successor)
        self.checkpoints.forget_conversation()
        clear_summary(self.config.state_dir)
        log.info("compression done: archived as %s, summary %d characters", archive, len(summary))
        self.ui.notice(f"Compressed: the old conversation is saved as '{archive}'; this one starts from its summary.")
        return True

    def save(self, name: str | None = None) -> str | None:
        """Save the conversation (under its own name by default); an empty one is not saved."""
        if not self.session.turns:
            return None
        saved = sessions.save(self.config.state_dir, self.session, self.config.model, name)
        if saved.note:  # another process saved under this name meanwhile: this conversation goes on beside it
            self.ui.notice(saved.note)
        return saved.name

    def turn(self, question: str) -> TurnOutcome:
        """Answer one question, through as many model and tool steps as it takes."""
        log.info("user input: %s", json.dumps(question, ensure_ascii=False))
        self.checkpoints.start_turn(self.conversation.turns + 1, question, len(self.conversation.messages))
        mentioned = with_mentions(question, self.workspace.root, self.workspace.knows)
        self.conversation.add_user(with_reminder(mentioned, self.session.notes))
        self.session.notes = []
        view, stats = self.ui.turn_view(), TurnStats(self.config.context_window)
        stop, message = Stop.COMPLETED, ""
        try:
            self._steps(view, stats)
        except TurnStopped as e:
            self.conversation.answer_open_calls(f"Not run: {e}")
            stop, message = e.stop, str(e)
        except (Cancelled, KeyboardInterrupt):
            stop = Stop.CANCELLED
        except ContextTooLong:
            stop, message = Stop.PROVIDER_ERROR, "The conversation no longer fits the model's context window."
            raise
        except LLMError as e:
            stop, message = Stop.PROVIDER_ERROR, str(e)
        finally:
            self.conversation.answer_open_calls()
            if stats.cost is not None:
                self.session.cost = (self.session.cost or 0.0) + stats.cost
            stats.session_cost = self.session.cost
            stats.end()
            outcome = TurnOutcome(stop, message, self.conversation.last_answer(), stats)
            view.finish(outcome)
            log.info("turn done: %s; context=%d, sent=%d, cached=%d, out=%d, requests=%d, cost=%s", stop.value,
                     stats.context, stats.sent, stats.cached, stats.completion, stats.requests, stats.cost)  # fmt: skip
        if stop.kind == "failed":
            self.ui.error(message)
        elif stop.kind == "stopped":
            self.ui.notice(message)
        self._warn()
        return outcome

    def _warn(self) -> None:
        turns, thresholds = self.conversation.turns, self.config.warn_turns
        if turns in thresholds:
            advice = " Consider /clear to start a new conversation." if turns == max(thresholds) else ""
            limit = f" At {self.config.compress_turns} it will be compressed."
            self.ui.warning(f"This conversation has reached {turns} turns.{limit}{advice}")

    def _steps(self, view: TurnView, stats: TurnStats) -> None:
        recent: list[str] = []  # the calls made so far this turn, for the doom-loop guard
        for _ in range(self.config.max_steps):
            reply = self.client.stream(self.conversation.messages, registry.schemas(), view)
            price = cost(reply.usage, self.config.pricing)
            stats.add(reply, price)
            view.replied(reply.usage, price)
            self.conversation.add_reply(reply)
            self._check_ending(reply)
            if not reply.tool_calls:
                return
            for call in reply.tool_calls:
                if _repeated(call, recent):
                    message = f"{call.name} was called {REPEATS} times in a row with the same arguments."
                    raise TurnStopped(Stop.REPEATED_CALLS, message)
                self.conversation.add_tool_result(call.id, self._call(call))
        message = f"Stopped after {self.config.max_steps} tool steps (max_steps). Say 'continue' to go on."
        raise TurnStopped(Stop.STEP_LIMIT, message)

    @staticmethod
    def _check_ending(reply: Reply) -> None:
        if reply.ending is Ending.CANCELLED:
            raise Cancelled
        if reply.ending in ENDINGS:
            stop, text = ENDINGS[reply.ending]
            raise TurnStopped(stop, text.format(error=reply.error, finish=reply.finish_reason))

    def _call(self, call: ToolCall) -> str:
        """Run one call and show it; the text goes back to the model."""
        checked = registry.prepare(call.name, call.args, call.error, self.workspace.secret)
        self.ui.tool_start(checked.header, call)
        pending = None
        try:
            if checked.tool is not None and checked.tool.changes is not None:
                changes = checked.tool.changes(checked.args)  # the files named are kept even if .gitignore says no
                touched = [self.workspace.resolve(path) for path in changes.files]
                pending = self.checkpoints.before(checked.header, touched, changes.anything)
            result = checked.run(self.workspace)
        except Interrupted as stopped:  # what the tool did before the user stopped it goes on record
            self.ui.tool_end(stopped.result)
            self.conversation.add_tool_result(call.id, stopped.result.text)
            raise Cancelled from None
        except KeyboardInterrupt:
            raise Cancelled from None
        finally:
            self.checkpoints.after(pending)
        self.ui.tool_end(result)
        return result.text
