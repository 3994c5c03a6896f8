"""Keys: the prompt (prompt_toolkit) and the watcher that turns ESC or Ctrl-C into a cancel while the agent works."""

import os
import select
import signal
import sys
import threading
import time
from pathlib import Path

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent, Completer, Completion, FuzzyCompleter, WordCompleter
from prompt_toolkit.document import Document
from prompt_toolkit.history import FileHistory
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.keys import Keys

POLL = 0.05


class PathCompleter(Completer):
    """@path completion over the project's files as ripgrep lists them (.gitignore respected)."""

    def __init__(self, root: Path):
        self.root = root

    def _files(self) -> list[str]:
        from narnat_agent import ripgrep

        done = ripgrep.rg(["--files"], self.root)
        files = done.stdout.splitlines() if done else ripgrep.walk_matching("**", self.root, self.root)
        folders = {str(Path(f).parent) + "/" for f in files if "/" in f}
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


def bindings() -> KeyBindings:
    """Enter sends; Alt-Enter, Esc-Enter and Ctrl-J insert a newline."""
    keys = KeyBindings()

    @keys.add("enter")
    def _send(event) -> None:
        event.current_buffer.validate_and_handle()

    @keys.add("escape", "enter")
    @keys.add("c-j")
    def _newline(event) -> None:
        event.current_buffer.insert_text("\n")

    return keys


def prompt_session(history: Path, completer: Completer) -> PromptSession:
    """The one input session: persistent history, completion, multi-line editing."""
    return PromptSession(history=FileHistory(str(history)), completer=completer, key_bindings=bindings(),
                         multiline=True, complete_while_typing=True, prompt_continuation="  ")  # fmt: skip


INTERRUPT_KEYS = ("escape", "escape-twice", "ctrl-c")
TWICE = 1.5  # seconds within which the second ESC must follow, with "escape-twice"


class Watcher:
    """While the agent works: the interrupt key or Ctrl-C cancels (a SIGINT to the main thread); typed keys are kept.

    `key` is "escape" (one press), "escape-twice" (for vi users who press ESC by habit) or "ctrl-c" (ESC ignored).
    """

    def __init__(self, on_cancel=None):
        self.on_cancel = on_cancel
        self.key = "escape"
        self.last_escape = 0.0
        self.typed: list[str] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._input = None

    def start(self) -> None:
        """Take the keyboard; without a terminal on stdin there is nothing to watch (Ctrl-C still works)."""
        if self._thread is not None or not sys.stdin.isatty():
            return
        from prompt_toolkit.input import create_input

        self._input = create_input()
        self._raw = self._input.raw_mode()
        self._raw.__enter__()
        self._stop.clear()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        if self._thread is None:
            return
        self._stop.set()
        self._thread.join(1)
        self._thread = None
        self._raw.__exit__(None, None, None)

    def take_typed(self) -> str:
        text, self.typed = "".join(self.typed), []
        return text

    def _watch(self) -> None:
        fd = self._input.fileno()
        while not self._stop.is_set():
            ready, _, _ = select.select([fd], [], [], POLL)
            keys = self._input.read_keys() if ready else self._input.flush_keys()
            self.handle([k.key for k in keys])

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
            elif key in (Keys.ControlM, Keys.ControlJ):
                self.typed.append("\n")

    def _escape_cancels(self) -> bool:
        if self.key != "escape-twice":
            return self.key == "escape"
        now = time.monotonic()
        twice, self.last_escape = now - self.last_escape <= TWICE, now
        return twice

    def _cancel(self) -> None:
        if self.on_cancel:
            self.on_cancel()
        signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)


def restore_terminal_on_signals() -> None:
    """A kill while the watcher holds raw mode must not leave the shell without echo."""
    import atexit
    import termios

    if not os.isatty(0):
        return
    saved = termios.tcgetattr(0)

    def restore(*_args) -> None:
        termios.tcsetattr(0, termios.TCSANOW, saved)

    atexit.register(restore)
    for sig in (signal.SIGTERM, signal.SIGHUP):
        previous = signal.getsignal(sig)

        def handler(signum, frame, previous=previous):
            restore()
            signal.signal(signum, previous if callable(previous) else signal.SIG_DFL)
            os.kill(os.getpid(), signum)

        signal.signal(sig, handler)
