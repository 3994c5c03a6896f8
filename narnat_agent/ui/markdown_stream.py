"""Markdown streamed block by block: finished blocks are printed once, only the open block is redrawn."""

import functools
import io
import re
import time
from collections.abc import Callable

from pygments.token import Comment, Error, Generic, Keyword, Name, Number, Operator, String, Token  # type: ignore[import-untyped]
from rich.console import Console
from rich.markdown import CodeBlock, Heading, Markdown
from rich.style import Style
from rich.syntax import ANSISyntaxTheme, Syntax
from rich.text import Text
from rich.theme import Theme

from narnat_agent.inert import inert

LIVE_LINES = 6
FRAME = 0.08  # seconds between redraws of the open block: smooth enough, and half the CPU of 20 fps
HUGE = 16_000  # characters waiting to be drawn beyond which the rest of the answer is shown as plain text
TRAILING = re.compile(r"[ \t]+((?:\x1b\[[0-9;]*m)*)$")
STABLE = ("paragraph_open", "bullet_list_open", "ordered_list_open", "fence", "code_block", "blockquote_open",
          "heading_open")  # fmt: skip  # blocks whose rendering only grows at the end while they stream

# Only the terminal's own colours, and of those the ones both light and dark palettes keep readable
# (not yellow, white or green); no backgrounds. The terminal's theme decides the actual shades.
CODE_THEME = ANSISyntaxTheme({
    Token: Style(), Comment: Style(italic=True, dim=True), Keyword: Style(color="magenta", bold=True),
    Keyword.Type: Style(color="cyan"), Operator.Word: Style(color="magenta"), Name.Builtin: Style(color="cyan"),
    Name.Function: Style(color="blue", bold=True), Name.Class: Style(color="blue", bold=True),
    Name.Decorator: Style(color="magenta"), Name.Exception: Style(color="cyan"), Name.Tag: Style(color="blue"),
    Name.Attribute: Style(color="cyan"), String: Style(color="cyan"), Number: Style(color="blue"),
    Generic.Deleted: Style(color="red"), Generic.Inserted: Style(color="blue"), Generic.Heading: Style(bold=True),
    Error: Style(color="red"),
})  # fmt: skip
THEME = Theme(
    {"markdown.code": "bold cyan", "markdown.code_block": "none", "markdown.kbd": "bold", "markdown.link": "blue"}
)


class _Code(CodeBlock):
    """Code exactly as written: no inset, no padding, no background, so it copies cleanly."""

    def __rich_console__(self, console, options):
        yield Syntax(
            str(self.text).rstrip(), self.lexer_name, theme=CODE_THEME, word_wrap=True, background_color="default"
        )


class _Heading(Heading):
    def __rich_console__(self, console, options):
        text = self.text.copy()
        text.justify = "left"
        yield text


@functools.cache
def parser():
    """One markdown-it parser for every render (rich builds a new one per document, a third of the cost)."""
    from markdown_it import MarkdownIt

    return MarkdownIt().enable("strikethrough").enable("table")


class _Markdown(Markdown):
    elements = {**Markdown.elements, "fence": _Code, "code_block": _Code, "heading_open": _Heading}

    def __init__(self, markup: str):  # rich's own fields (rich is pinned to one major version)
        self.markup, self.parsed = markup, parser().parse(markup)
        self.code_theme = self.inline_code_theme = CODE_THEME  # type: ignore[assignment]  # rich takes a theme too
        self.justify, self.style, self.hyperlinks, self.inline_code_lexer = None, "none", False, None


def render_lines(source: str, console: Console) -> list[str]:
    """source rendered as markdown for console's width and colours, lines without trailing blanks."""
    out = io.StringIO()
    system = console.color_system  # one of the names the constructor takes, typed as a plain str
    scratch = Console(file=out, width=console.width, color_system=system, theme=THEME,  # type: ignore[arg-type]
                      force_terminal=console.is_terminal, no_color=console.no_color, legacy_windows=False)  # fmt: skip
    scratch.print(_Markdown(source))
    return [TRAILING.sub(r"\1", line) for line in out.getvalue().split("\n")[:-1]]


class MarkdownStream:
    """Feed text as it arrives; `emit` prints finished lines once, `show` redraws the small live region.

    Every rendering starts at the last printed block (`anchor`), so the spacing rich puts between blocks
    comes out exactly as in a one-shot render, at a cost bounded by two blocks, not the answer. An answer that
    outruns the screen by more than HUGE characters (a flood, or one enormous block) goes on as plain text,
    so the work per character stays bounded however large the answer is.
    """

    def __init__(self, console: Console, emit: Callable[[list[str]], None], show: Callable[[Text | None], None],
                 clock: Callable[[], float] = time.monotonic,
                 emit_plain: Callable[[str], None] | None = None):  # fmt: skip
        self.console, self.emit, self.show, self.clock = console, emit, show, clock
        self.emit_plain = emit_plain or (lambda text: emit(text.split("\n")))  # plain text, printed as it is
        self.source, self.anchor, self.committed, self.tail_printed = "", 0, 0, 0
        self.arrived: list[str] = []  # text fed since the last flush (joined once per flush, not per token)
        self.head: list[str] | None = None  # the rendering of source[anchor:committed], cached
        self.delay, self.last, self.plain = FRAME, 0.0, False

    def feed(self, text: str) -> None:
        self.arrived.append(inert(text))  # before markdown: rich would pass an escape through, and so would plain text
        now = self.clock()
        if now - self.last >= self.delay:
            began = time.process_time()
            self._flush(final=False)
            self.delay = min(max(5 * (time.process_time() - began), FRAME), 1.0)  # stays cheap on huge blocks
            self.last = now

    def finish(self, cancelled: bool = False) -> None:
        """Print everything not printed yet and clear the live region; after a cancel, a flood is only counted."""
        self._take()
        waiting = len(self.source) - self.committed
        if cancelled and waiting > HUGE:
            self._print([f"… {waiting:,} more characters of the interrupted answer are not shown"])
        else:
            self._flush(final=True)
        self.show(None)

    def _take(self) -> None:
        """Join what arrived, and drop what no rendering needs any more (everything before the anchor)."""
        self.source = self.source[self.anchor :] + "".join(self.arrived)
        self.committed -= self.anchor
        self.anchor, self.arrived = 0, []

    def _after(self, end: int) -> list[str]:
        """The lines source[committed:end] adds to a one-shot render of everything before it."""
        if self.head is None:
            self.head = render_lines(self.source[self.anchor : self.committed], self.console)
        return render_lines(self.source[self.anchor : end], self.console)[len(self.head) :]

    def _flush(self, final: bool) -> None:
        self._take()
        if not self.plain and len(self.source) - self.committed > HUGE:
            self._go_plain()
        if self.plain:
            self._flush_plain(final)
            return
        tail = self.source[self.committed :]
        if not tail.strip():
            return
        blocks = [t for t in parser().parse(tail) if t.level == 0 and t.map and t.nesting >= 0]
        starts, kind = [t.map[0] for t in blocks], blocks[-1].type if blocks else ""
        lines = tail.split("\n")
        closed_at = len(lines) if final else starts[-1] if len(starts) >= 2 else 0
        if closed_at:
            end = self.committed + len("\n".join(lines[:closed_at]))
            self._print(self._after(end)[self.tail_printed :])
            last_start = max((n for n in starts if n < closed_at), default=0)
            self.anchor = self.committed + sum(len(line) + 1 for line in lines[:last_start])
            self.committed, self.head, self.tail_printed = end, None, 0
        if not final:
            self._show_open(kind)

    def _go_plain(self) -> None:
        """Close the markdown at a line end within HUGE characters (one bounded render), plain text after it. In
        one huge paragraph, at a word end: its lines already printed are the start of that render, not repeated."""
        window = self.source[self.committed : self.committed + HUGE]
        cut = window.rfind("\n")
        cut = cut if cut > 0 else window.rfind(" ")
        end = self.committed + max(cut, 0)
        if end > self.committed:
            self._print(self._after(end)[self.tail_printed :])
        self.committed = self.anchor = end + (cut > 0)
        self.head, self.tail_printed, self.plain = None, 0, True

    def _flush_plain(self, final: bool) -> None:
        """Whole lines are printed as they are; a line longer than the live region is printed in pieces."""
        text = self.source[self.committed :]
        end = len(text) if final else text.rfind("\n") + 1
        room = self.console.width * LIVE_LINES
        if not final and len(text) - end > room:
            end = len(text) - self.console.width
        if end:
            self.emit_plain(text[:end].removesuffix("\n"))
        self.committed = self.anchor = self.committed + end
        self.show(None if final or end == len(text) else Text(text[end:][-room:]))

    def _show_open(self, kind: str) -> None:
        rendered = self._after(len(self.source))
        window = max(1, min(LIVE_LINES, self.console.height - 3))
        if len(rendered) > window and kind in STABLE:
            scrolled = len(rendered) - window
            if scrolled > self.tail_printed:
                self._print(rendered[self.tail_printed : scrolled])
                self.tail_printed = scrolled
        visible = rendered[self.tail_printed :][-window:]
        self.show(Text.from_ansi("\n".join(visible)) if visible else None)

    def _print(self, lines: list[str]) -> None:
        if lines:
            self.emit(lines)
