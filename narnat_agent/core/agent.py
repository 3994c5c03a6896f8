"""The blocking main loop: a question in, model and tools in turns, an answer out."""

import json
from collections.abc import Callable
from dataclasses import replace

from narnat_agent.checkpoints import open_checkpoints
from narnat_agent.config.settings import Config
from narnat_agent.conversation import session as sessions
from narnat_agent.conversation.compressor import compressed
from narnat_agent.conversation.context import with_mentions, with_reminder
from narnat_agent.conversation.session import Session
from narnat_agent.conversation.window import Window, measure
from narnat_agent.core.budget import Budget
from narnat_agent.core.turn import Cancelled, Stop, TurnOutcome, TurnStats, TurnStopped
from narnat_agent.core.ui import UI, TurnView
from narnat_agent.i18n import N_, Said, _, ngettext, sentences
from narnat_agent.keyguard import redact
from narnat_agent.logger import get_logger
from narnat_agent.prompts.system_prompt import for_model
from narnat_agent.prompts.texts import PLAN_APPROVED, PLAN_OVER, PLANNING, STEERED
from narnat_agent.provider.client import Client
from narnat_agent.provider.errors import ContextTooLong, LLMError, ModelRefused
from narnat_agent.provider.pricing import cost
from narnat_agent.provider.reply import Ending, Reply, ToolCall
from narnat_agent.tools import registry
from narnat_agent.tools.base import Confirm, Interrupted, Output, Picture, Result
from narnat_agent.tools.verification import Verification, filtered, recognise
from narnat_agent.tools.workspace import Workspace

log = get_logger("core.agent")
EMPTY_TRIES = 2  # a reply with nothing in it is asked for once more
REPEATS = 4  # identical calls with identical results in a row that end the turn; those before it run, warned about
REPEATED = (
    "\n\n[This is the same call, with the same arguments, as the one before, and its result did not change. Fine "
    "to re-run something flaky; otherwise try something else. A {n}th identical call in a row ends the turn.]"
)
FULL = 0.9  # share of the context window that triggers the safety net
ENDINGS = {  # a reply that did not end normally: how the turn stops, and what the user (and model) is told
    Ending.ERROR: (Stop.PROVIDER_ERROR,
                   N_("The answer was cut off: the provider reported an error mid-stream ({error}).")),
    Ending.DISCONNECTED: (Stop.PROVIDER_ERROR,
                          N_("The answer was cut off: the connection ended before it was complete.")),
    Ending.STOPPED: (Stop.PROVIDER_ERROR, N_("The answer was cut off: {stopped}.")),
    Ending.LENGTH: (Stop.CUT_OFF,
                    N_("The answer hit the model's output limit and was cut off; its tool calls were not run.")),
    Ending.FILTERED: (Stop.CUT_OFF, N_("The provider stopped the answer ({finish}).")),
}  # fmt: skip


def _repeats(call: str, recent: list[tuple[str, str]]) -> int:
    """The doom-loop guard: how many times in a row, before this one, the same call has been made and given the same
    result (a call whose result changes, such as a Read of a growing log, is not repeating itself)."""
    same = 0
    for made, result in reversed(recent):
        if made != call or result != recent[-1][1]:
            break
        same += 1
    return same


class Agent:
    def __init__(
        self, config: Config, ui: UI, client: Client, workspace: Workspace, session: Session, system_prompt: str
    ):
        self.config, self.ui, self.client, self.workspace = config, ui, client, workspace
        self.system_prompt = system_prompt  # without any inherited summary
        self.leaving = 0  # the signal asking the process to end, once one has
        # after the step limit; a headless run names its own command (said again in English for the model)
        self.go_on: Callable[[], str] = lambda: _("Say 'continue' to go on.")
        self.budget = Budget(config.max_cost, config.max_tokens_sent, config.pricing)
        self.model_from = 0  # the turn from which /model's choice answers; 0 while the configured model does
        # the model before a /model switch that no request has used yet, and the turn it answered from
        self.untried: tuple[str, int] | None = None
        self.until: str | None = None  # a goal's check: run after every turn that completes, outside the model's say
        # the messages the person sent while the agent worked (the REPL's), delivered at the next tool boundary
        self.steering: Callable[[], list[str]] = list
        self.told_planning = False  # a question has told the model it plans, since plan mode began
        self.checkpoints = open_checkpoints(config.project, config.state_dir, session.checkpoints, ui.notice)
        self.switch(session)

    def switch(self, session: Session) -> None:
        """Continue in another conversation: the only way /clear, /enter, compression and --resume replace it."""
        self.session = session
        self.workspace.tool_state = session.tool_state
        self.checkpoints.use(session.checkpoints, session.checkpoints_damaged)
        self.model_from = self.conversation.turns + 1 if self.model_from else 0  # the chosen model goes on
        self.show_status()

    def window(self) -> Window:
        """Where the context window goes (/context); its figure is the status line's ctx."""
        return measure(self.conversation, registry.schemas(self.workspace.shell), self.config.context_window)

    def show_status(self) -> None:
        """The model and how full the window is, for the status line: the latest request's count, or an estimate
        where the conversation changed since (another conversation, a rewind)."""
        window = self.window()
        self.ui.status(TurnStats(self.config.context_window, window.sent, estimated=window.estimated,
                                 model=self.client.model, model_from=self.model_from))  # fmt: skip

    def use_model(self, name: str) -> None:
        """/model: `name` answers from the next turn on; the history is kept, and so is the system prompt (the
        provider's cache needs the prefix byte-stable), which names the new model from the next conversation on."""
        previous, self.client.model = self.client.model, name
        self.untried, self.model_from = (previous, self.model_from), self.conversation.turns + 1
        self.system_prompt = for_model(self.system_prompt, previous, name)
        log.info("model switched from %s to %s from turn %d", previous, name, self.model_from)
        self.show_status()

    def _refused_model(self, error: str) -> str:
        """A model just switched to that the provider refuses at once (no request has used it): the switch is
        undone."""
        if self.untried is None:
            return error
        refused, (previous, since) = self.client.model, self.untried
        self.use_model(previous)
        self.untried, self.model_from = None, since
        log.info("model %s refused; back to %s", refused, previous)
        why = error.rstrip(".")
        undone = _("The provider refused '{refused}', so the switch is undone and {previous} answers again ({why}).")
        return undone.format(refused=refused, previous=previous, why=why)

    @property
    def planning(self) -> bool:
        return self.workspace.planning

    def plan_mode(self, on: bool, approved: bool = False) -> None:
        """Plan mode on (each question tells the model it is planning; what would change a file is refused) or off
        (the next question tells it the plan may be carried out)."""
        if on == self.workspace.planning:
            return
        self.workspace.planning = on
        notes = [note for note in self.session.notes if note not in (PLAN_APPROVED, PLAN_OVER)]
        told = not on and self.told_planning  # a model never told it was planning needs no word that it is over
        self.session.notes = [*notes, PLAN_APPROVED if approved else PLAN_OVER] if told else notes
        self.told_planning = False
        log.info("plan mode %s", "on" if on else "off")
        self.ui.planning(on)

    def offer_undo(self, confirm: Confirm) -> None:
        """The user's yes/no, told whether /undo could bring the files back (only where /undo exists: the REPL, an
        editor): of the files a command names, for each; else in general."""

        def ask(command: str, reason: str) -> bool:
            covered = self.checkpoints.covers_commands() and "/undo" not in reason  # else the reason says it already
            if covered:
                reason = Said(
                    N_("{reason}; /undo can restore files, but not those in folders .gitignore names"), reason=reason
                )
            return confirm(command, reason)

        self.workspace.confirm, self.workspace.undo_says = ask, self.checkpoints.undo_says

    @property
    def conversation(self):
        return self.session.conversation

    def ask(self, question: str) -> TurnOutcome:
        """A question from the user: compress first when the conversation is full, then answer it."""
        if self._full() and not self.compress():
            self.ui.give_back(question)
            return TurnOutcome(Stop.FAILED, _("The conversation is full and could not be compressed."))
        try:
            outcome = self.turn(question)
        except ContextTooLong:
            self.ui.notice(_("The provider says the conversation no longer fits its context window; compressing."))
            if not self.compress():
                self.ui.give_back(question)
                return TurnOutcome(Stop.FAILED, _("The conversation no longer fits and could not be compressed."))
            outcome = self.turn(question)
        return outcome

    def _full(self) -> bool:
        return (
            self.conversation.turns >= self.config.compress_turns
            or self.conversation.last_prompt_tokens > FULL * self.config.context_window
        )

    def compress(self, keep: str = "") -> bool:
        """Continue in a new conversation (same name) that starts from a summary of this one, which is archived."""
        successor = compressed(self.session, self.client, self.ui, self.config, self.system_prompt, keep)
        if successor is None:
            return False
        self.switch(successor)
        self.checkpoints.forget_conversation()
        return True

    def save(self, name: str | None = None) -> str | None:
        """Save the conversation (under its own name by default); an empty one is not saved."""
        if not self.conversation.worth_saving:
            return None
        saved = sessions.save(self.config.state_dir, self.session, self.client.model, name)
        if saved.note:  # another process saved under this name meanwhile: this conversation goes on beside it
            self.ui.notice(saved.note)
        return saved.name

    def turn(self, question: str) -> TurnOutcome:
        """Answer one question, through as many model and tool steps as it takes."""
        question = self._without_keys(question)
        log.info("user input: %s", json.dumps(question, ensure_ascii=False))
        self.checkpoints.start_turn(self.conversation.turns + 1, question, len(self.conversation.messages))
        self.workspace.turn_begins(len(self.conversation.messages))
        mentioned = with_mentions(question, self.workspace.root, self.workspace.knows)
        planning = [PLANNING] if self.workspace.planning else []
        self.told_planning |= self.workspace.planning
        self.conversation.add_user(with_reminder(mentioned, [*self.session.notes, *planning]))
        self.session.notes = []
        self.budget.renew()
        view = self.ui.turn_view()
        stats = TurnStats(self.config.context_window, model=self.client.model, model_from=self.model_from)
        sent_before = self.client.requests
        stop, message = Stop.COMPLETED, ""
        try:
            self._steps(view, stats)
            if self.until is not None:
                stats.check, stats.check_output = self._check(self.until)
        except TurnStopped as e:
            self.conversation.answer_open_calls(f"Not run: {e.for_model}")
            stop, message = e.stop, str(e)
        except (Cancelled, KeyboardInterrupt):
            stop = Stop.CANCELLED
        except ContextTooLong:
            stop, message = Stop.PROVIDER_ERROR, _("The conversation no longer fits the model's context window.")
            raise
        except ModelRefused as e:
            stop, message = Stop.PROVIDER_ERROR, self._refused_model(str(e))
        except LLMError as e:
            stop, message = Stop.PROVIDER_ERROR, str(e)
        finally:
            self.conversation.answer_open_calls()
            stats.requests = self.client.requests - sent_before  # failed ones too: each is paid for or counted
            if stats.cost is not None:
                self.session.cost = (self.session.cost or 0.0) + stats.cost
            stats.session_cost = self.session.cost
            stats.end()
            answer = self.conversation.last_answer()
            stats.judge(answer)
            outcome = TurnOutcome(stop, message, answer, stats)
            view.finish(outcome)
            self.show_status()
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
            reached = ngettext(
                "This conversation has reached {n} turn.", "This conversation has reached {n} turns.", turns
            ).format(n=turns)
            limit = _("At {limit} it will be compressed.").format(limit=self.config.compress_turns)
            advice = _("Consider /clear to start a new conversation.") if turns == max(thresholds) else ""
            self.ui.warning(sentences(reached, limit, advice))

    def _steps(self, view: TurnView, stats: TurnStats) -> None:
        recent: list[tuple[str, str]] = []  # the calls made so far this turn and their results, for the guard
        for __ in range(self.config.max_steps):
            if self.budget.limited:
                self.budget.check(self.window().next_request)
            reply = self._reply(view, stats)
            self.conversation.add_reply(reply, self.workspace.secret)
            self.checkpoints.replied()
            self._check_ending(reply)
            if not reply.tool_calls:
                return
            pictures: list[Picture] = []  # they follow the tool results, in a message of their own
            for call in reply.tool_calls:
                result = self._unless_repeated(call, recent)
                stats.verified(result.verification)
                self.conversation.add_tool_result(call.id, result.text)
                if result.picture:
                    pictures.append(result.picture)
            self.conversation.add_pictures(pictures)
            self._deliver(self.steering())
        steps = self.config.max_steps
        raise TurnStopped(Stop.STEP_LIMIT, lambda: sentences(
            ngettext("Stopped after {n} tool step (max_steps).", "Stopped after {n} tool steps (max_steps).",
                     steps).format(n=steps), self.go_on()))  # fmt: skip

    def _without_keys(self, text: str) -> str:
        """What the person typed, masked as a tool's result is: a key pasted by mistake is neither sent nor saved."""
        for key in (self.workspace.secret, *self.workspace.other_keys):
            text = redact(text, key)
        return text

    def _deliver(self, messages: list[str]) -> None:
        """Messages sent while the agent worked join the turn after the results of the calls in flight (appended:
        the history the provider cached stays); the turn goes on with them."""
        for text in map(self._without_keys, messages):
            self.conversation.add_user(with_reminder(text, [STEERED]), question=False)
            log.info("delivered mid-turn: %s", json.dumps(text, ensure_ascii=False))
            self.ui.delivered(text)

    def _reply(self, view: TurnView, stats: TurnStats) -> Reply:
        """The model's next reply; one that carries nothing is asked for once more, then the turn stops."""
        for attempt in range(EMPTY_TRIES):
            reply = self.client.stream(self.conversation.messages, registry.schemas(self.workspace.shell), view)
            price = cost(reply.usage, self.config.pricing)
            stats.add(reply, price)
            self.budget.spend(reply.usage, price)
            self.untried = None
            view.replied(reply.usage, price)
            if not reply.empty:
                return reply
            log.warning("empty reply (try %d of %d)", attempt + 1, EMPTY_TRIES)
        raise TurnStopped(Stop.PROVIDER_ERROR, lambda: _("The model returned nothing (no text, no tool call) {n} "
                                                         "times in a row; ask again, or try another model.")
                          .format(n=EMPTY_TRIES))  # fmt: skip

    def _unless_repeated(self, call: ToolCall, recent: list[tuple[str, str]]) -> Result:
        """Run a call, warning in its result when it repeats the one before to the same result; stop when the
        warnings went unheeded."""
        made = f"{call.name} {call.stored_arguments}"
        if _repeats(made, recent) >= REPEATS - 1:
            raise TurnStopped(Stop.REPEATED_CALLS, lambda: _("{tool} was called {n} times in a row with the same "
                                                             "arguments, despite warnings.")
                              .format(tool=call.name, n=REPEATS))  # fmt: skip
        result = self._call(call)
        repeated = bool(recent) and recent[-1] == (made, result.text)
        recent.append((made, result.text))
        return replace(result, text=result.text + REPEATED.format(n=REPEATS)) if repeated else result

    @staticmethod
    def _check_ending(reply: Reply) -> None:
        if reply.ending is Ending.CANCELLED:
            raise Cancelled
        if reply.ending in ENDINGS:
            stop, text = ENDINGS[reply.ending]
            raise TurnStopped(stop, lambda: _(text).format(error=reply.error, finish=reply.finish_reason,
                                                           stopped=reply.stopped))  # fmt: skip

    def _call(self, call: ToolCall) -> Result:
        """Run one call and show it; its text goes back to the model."""
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
        return result

    def _check(self, command: str) -> tuple[Verification, str]:
        """A goal's check after the turn: the command run as Bash runs the model's (its safety analysis included),
        shown like a call; how it ended, and its output as the model would read it."""
        self.ui.tool_start(_("Check") + f"({command})", ToolCall("check", "Check", "", {"command": command}))
        try:
            __, result = registry.run_named(command, self.workspace)
        except Interrupted as stopped:
            self.ui.tool_end(stopped.result)
            raise Cancelled from None
        except KeyboardInterrupt:
            raise Cancelled from None
        self.ui.tool_end(result)
        output = result.detail if isinstance(result.detail, Output) else None
        # a check that could not run (refused, or never ended) has failed
        code = output.exit_code if output else 1
        log.info("goal check %s: %s", json.dumps(command), "timed out" if code is None else f"exit {code}")
        words: list[str | None] = list(command.split())
        return Verification(recognise(words) or command, code, command, filtered(words)), result.text
