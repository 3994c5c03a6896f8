"""Keys: the prompt (prompt_toolkit) and the watcher that turns ESC or Ctrl-C into a cancel while the agent works."""

import asyncio
import atexit
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

from prompt_toolkit import PromptSession
from prompt_toolkit.application import get_app
from prompt_toolkit.completion import CompleteEvent, Completer, Completion, FuzzyCompleter, WordCompleter
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.input.typeahead import store_typeahead
from prompt_toolkit.key_binding import KeyBindings, KeyPress
from prompt_toolkit.keys import Keys
from prompt_toolkit.styles import Style

from narnat_agent.i18n import NO, YES, _, answers
from narnat_agent.platform.console import key_ready, read_keys, saved_terminal
from narnat_agent.platform.signals import ENDING, interrupt_main
from narnat_agent.processes import start_thread

POLL = 0.05
PLAN_KEY = "\0plan\0"  # what the prompt returns for Shift-Tab, before what was typed: /plan, the text kept


class PathCompleter(Completer):
    """@path completion over the project's files as ripgrep lists them (.gitignore respected)."""

    def __init__(self, root: Path):
        self.root = root

    def _files(self) -> list[str]:
        from narnat_agent.tools.files import ripgrep

        done = ripgrep.rg(["--files"], self.root)
        files = done.stdout.splitlines() if done else ripgrep.walk_matching("**", self.root, self.root)
        folders = {Path(f).parent.as_posix() + "/" for f in files if "/" in f}
        return sorted(folders) + sorted(files)

    def get_completions(self, document: Document, event: CompleteEvent):
        word = document.get_word_before_cursor(WORD=True)
        if not word.startswith("@"):
            return
        fragment = word[1:]
        fuzzy = FuzzyCompleter(WordCompleter(self._files(), WORD=True))
        for found in fuzzy.get_completions(Document(fragment, len(fragment)), event):
            yield Completion(found.text, -len(fragment), display=found.display)


class CommandCompleter(Completer):
    def __init__(self, commands: dict[str, str]):
        self.commands = commands

    def get_completions(self, document: Document, event: CompleteEvent):
        text = document.text_before_cursor
        if not text.startswith("/") or " " in text:
            return
        for name, meta in self.commands.items():
            if name.startswith(text[1:]):
                yield Completion("/" + name, -len(text), display_meta=meta)


class MergedCompleter(Completer):
    def __init__(self, *completers: Completer):
        self.completers = completers

    def get_completions(self, document: Document, event: CompleteEvent):
        for completer in self.completers:
            yield from completer.get_completions(document, event)


STYLE = Style.from_dict(
    {
        "discarded": "strike fg:ansibrightblack",  # a line given up with Ctrl-C must not look sent
        "bottom-toolbar": "noreverse fg:ansibrightblack",
    }
)


@Condition
def _blank() -> bool:
    return not get_app().current_buffer.text.strip()


def bindings() -> KeyBindings:
    """Enter sends; Alt-Enter, Esc-Enter and Ctrl-J insert a newline; Ctrl-C discards; Ctrl-D on a blank line leaves;
    Shift-Tab switches plan mode."""
    keys = KeyBindings()

    @keys.add("c-c")
    def _discard(event) -> None:
        discarded = "class:aborting" if _blank() else "class:discarded"
        event.app.exit(exception=KeyboardInterrupt(), style=discarded)

    @keys.add("c-d", filter=_blank)  # also when only whitespace is there, e.g. an Enter typed while busy
    def _leave(event) -> None:
        event.app.exit(exception=EOFError(), style="class:exiting")

    @keys.add("enter")
    def _send(event) -> None:
        event.current_buffer.validate_and_handle()

    @keys.add("escape", "enter")
    @keys.add("c-j")
    def _newline(event) -> None:
        event.current_buffer.insert_text("\n")

    @keys.add("s-tab")
    def _plan_mode(event) -> None:
        typed, event.current_buffer.text = event.current_buffer.text, ""
        event.app.exit(result=PLAN_KEY + typed)

    return keys


def prompt_session(history: History, completer: Completer, toolbar) -> PromptSession:
    """The one input session: persistent history, completion, multi-line editing, a status line below."""
    return PromptSession(history=history, completer=completer, key_bindings=bindings(), style=STYLE,
                         multiline=True, complete_while_typing=True, prompt_continuation="  ",
                         bottom_toolbar=toolbar)  # fmt: skip


class KeptHistory(FileHistory):
    """The input history file; once it cannot be read or written, it is left alone and `failure` says why."""

    def __init__(self, path: Path):
        super().__init__(str(path))
        self.failure = ""

    def load_history_strings(self):
        try:
            yield from super().load_history_strings()
        except OSError as e:
            self.failure = self.failure or f"{type(e).__name__}: {e.strerror or e}"

    def store_string(self, string: str) -> None:
        if self.failure:
            return
        try:
            super().store_string(string)
        except OSError as e:
            self.failure = f"{type(e).__name__}: {e.strerror or e}"


def input_history(path: Path) -> tuple[History, str]:
    """The history for the prompt, and why it is not kept ("" when it is)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "ab"):
            pass
    except OSError as e:
        return InMemoryHistory(), f"{type(e).__name__}: {e.strerror or e}"
    return KeptHistory(path), ""


FOLLOWING = 0.3  # seconds after a one-key answer within which an Enter typed by habit (y⏎) still belongs to it


def yes_no(message) -> bool:
    """One key answers: y (or 是) is yes; n (or 否), Esc, Ctrl-C and Ctrl-D are no; any other key keeps asking.
    An Enter typed right after y or n is part of the answer: left for the next prompt, it would send what waits
    there (after /undo, the question just given back)."""
    keys = KeyBindings()
    given: list[bool] = []

    def other(event) -> None:
        if given:  # typed after the answer: the next prompt's, as if typed there
            store_typeahead(event.app.input, event.key_sequence)
            event.app.exit(result=given[0])

    def enter(event) -> None:
        if given:
            event.app.exit(result=given[0])

    keys.add(Keys.Any)(other)
    keys.add("enter")(enter)

    def answer(value: bool, wait: bool):
        def handler(event) -> None:
            if given:
                return other(event)
            given.append(value)
            event.current_buffer.text = _("yes") if value else _("no")
            app = event.app
            if wait:
                asyncio.get_running_loop().call_later(FOLLOWING, lambda: app.is_done or app.exit(result=value))
            else:
                app.exit(result=value)

        return handler

    for key in _one_key(YES):
        keys.add(key)(answer(True, wait=True))
    for key in _one_key(NO):
        keys.add(key, eager=True)(answer(False, wait=True))
    for key in ("escape", "c-c", "c-d"):
        keys.add(key, eager=True)(answer(False, wait=False))
    return PromptSession(message, key_bindings=keys).prompt()


def _one_key(meaning: str) -> list[str]:
    """The one-key answers that mean YES (or NO) in any language Narnat speaks: y and Y, 是."""
    single = sorted(word for word in answers(meaning) if len(word) == 1)
    return single + [key.upper() for key in single if key.upper() != key]


def terminal_keyboard() -> Input | None:
    """The terminal's keyboard; None when standard input is no terminal."""
    if not sys.stdin.isatty():
        return None
    from prompt_toolkit.input import create_input

    return create_input()


TWICE = 1.5  # seconds within which the second ESC must follow, with "escape-twice"


class Watcher:
    """Owns the keyboard whenever the prompt does not, so no key falls into the terminal's line mode (where a
    Ctrl-D is lost). While the agent is `busy` the interrupt key or Ctrl-C cancels (a SIGINT to the main thread),
    a line typed and sent with Enter is queued to be sent as a question of its own once the turn ends, and text
    typed without Enter waits for the next prompt; otherwise every key is handed to the next prompt as if typed there.

    `key` is "escape" (one press), "escape-twice" (for vi users who press ESC by habit) or "ctrl-c" (ESC ignored).
    """

    def __init__(self, on_cancel=None, on_queued=None, keyboard: Callable[[], Input | None] | None = None):
        self.on_cancel, self.on_queued = on_cancel, on_queued
        self.keyboard = keyboard or terminal_keyboard  # where the keys come from (a test gives a pipe)
        self.queued: list[str] = []  # questions sent while the agent was busy, oldest first
        self.key = "escape"
        self.last_escape = 0.0
        self.typed: list[str] = []
        self.held: list[KeyPress] = []  # Ctrl-D pressed while busy: handed to the next prompt
        self.busy = self.fired = False
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._input: Input | None = None

    def hold(self) -> None:
        """The terminal raw from here to the end of the run, the prompts' turns included (each leaves it as it found
        it): a key typed between the watcher and a prompt (a Ctrl-D as a turn ends, a question right after an empty
        Enter) never meets the line mode. What was typed before Narnat got here went through it, which made each
        Enter a newline: it waits for the first prompt with its Enters back."""
        if self._input is not None or (keyboard := self.keyboard()) is None:
            return
        self._input = keyboard
        raw = self._input.raw_mode()
        raw.__enter__()
        atexit.register(raw.__exit__, None, None, None)
        if key_ready(self._input, 0):
            early = [*self._input.read_keys(), *self._input.flush_keys()]
            enters = [KeyPress(Keys.ControlM, "\r") if k.key == Keys.ControlJ else k for k in early]
            store_typeahead(self._input, enters)

    def start(self) -> None:
        """Take the keyboard; without a terminal on stdin there is nothing to watch (Ctrl-C still works)."""
        if self._thread is not None:
            return
        self.hold()
        if self._input is None:
            return
        self._stop.clear()
        self.fired = False
        self._thread = start_thread(self._watch, self._input)

    def stop(self) -> bool:
        """Give the keyboard back; True if the watcher was running."""
        if self._thread is None:
            return False
        self._stop.set()
        self._thread.join(1)
        self._thread = None
        if self.held and self._input is not None:  # a Ctrl-D the loop had no turn to hand over
            store_typeahead(self._input, self.held)
            self.held = []
        return True

    def working(self, busy: bool) -> None:
        """The agent starts (keys may cancel it, once) or stops working."""
        self.busy, self.fired = busy, False

    def take_typed(self) -> str:
        text, self.typed = "".join(self.typed), []
        return text

    def _watch(self, keyboard: Input) -> None:
        while not self._stop.is_set():
            keys = read_keys(keyboard) if key_ready(keyboard, POLL) else keyboard.flush_keys()
            if self.busy:
                self.handle([k.key for k in keys])
                # a Ctrl-D typed as the turn ends (the footer is out, the prompt not yet back) still leaves
                self.held += [k for k in keys if k.key == Keys.ControlD]
            elif keys or self.held:  # the prompt's own keys, early: Enter sends, Ctrl-D leaves, as if it had been there
                store_typeahead(keyboard, [*self.held, *keys])
                self.held = []

    def handle(self, keys: list) -> None:
        """One batch of parsed keys: ESC followed by another key in the same batch is Alt+key, not ESC."""
        for i, key in enumerate(keys):
            alt = key == Keys.Escape and i + 1 < len(keys) and keys[i + 1] != Keys.Escape
            if key == Keys.ControlC or key == Keys.Escape and not alt and self._escape_cancels():
                self._cancel()
                return
            if key == Keys.Escape:
                continue
            if isinstance(key, str) and len(key) == 1 and key.isprintable():
                self.typed.append(key)
            elif key == Keys.ControlJ:
                self.typed.append("\n")
            elif key == Keys.ControlM:
                self._queue()

    def _queue(self) -> None:
        """Enter while busy sends what was typed, as its own question, when the turn ends; an empty Enter is lost."""
        question = self.take_typed()
        if question.strip():
            self.queued.append(question)
            if self.on_queued:
                self.on_queued(question)

    def _escape_cancels(self) -> bool:
        if self.key != "escape-twice":
            return self.key == "escape"
        now = time.monotonic()
        twice, self.last_escape = now - self.last_escape <= TWICE, now
        return twice

    def _cancel(self) -> None:
        """Once per turn: a second SIGINT could land anywhere, even in the code that cleans up after the first."""
        if self.fired:
            return
        self.fired = True
        if self.on_cancel:
            self.on_cancel()
        interrupt_main()


def restore_terminal_on_signals() -> None:
    """A kill while the watcher holds raw mode must not leave the shell without echo."""
    import atexit

    restore = saved_terminal()
    if restore is None:
        return
    atexit.register(restore)
    for sig in ENDING:
        previous = signal.getsignal(sig)

        def handler(signum, frame, previous=previous):
            restore()
            signal.signal(signum, previous if callable(previous) else signal.SIG_DFL)
            os.kill(os.getpid(), signum)

        signal.signal(sig, handler)
