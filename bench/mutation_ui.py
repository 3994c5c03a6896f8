"""The equivalent mutants of the terminal and plain UIs and the ways Narnat is run (bench/mutation.py): a piece of a
line as the mutant writes it, and why that change cannot alter what the code does."""

FALSY = "the flag is read only as true or false, and None is false"
ZIP_SHORTER = (
    "a row has one cell more than there are widths (the last is not padded): strict=False lets zip stop at the "
    "shorter, and None or no strict is False"
)
UPPER = "rich reads a style's words in any case: RED is red"
UNKNOWN_STYLE = "rich draws a style it cannot read as no style, as it draws the empty one"
FIRST_HUNK = (
    "every diff the UI is given starts with its hunk header (compact_diff and /diff drop the --- and +++ lines), "
    "which sets both line numbers before a line is shown"
)
LEGACY = (
    "rich reads legacy_windows only to write to a Windows console's own streams; the scratch console writes to a "
    "StringIO in the colours it is given"
)
DELAY = (
    "the delay only decides how often the open block is redrawn: every block is printed alike, a frame later at most"
)
PADDED = (
    "only 'left' pads a heading's line to the width, and render_lines strips trailing blanks: any other value draws "
    "the same"
)
NOT_BLANK = "a tail that is not blank (a blank one returns before) parses into one block at least"
BLOCK_BEFORE = (
    "the line that closes is the last block's start (when there are two at least) or the end of the text: a block "
    "always starts before it"
)
NOTHING_MORE = "the rendering up to where printing stopped adds no line: the equal case prints nothing"
DRAWN_AT_WIDTH = "the lines were drawn at the console's width by render_lines: rich finds nothing to wrap, soft or not"
LIVE_EMPTY = "rich's live region draws nothing for None, as for the empty text"
STARTED = "tool_start sets the running call before each tool_end reads it"
NO_INPUT = (
    "a headless run reads nothing after its prompt: a command that would ask is refused (or run with --yes), and no "
    "setup question is asked"
)
GIVEN_COLOURS = "the colour system is given: rich draws in it whether or not it takes the file for a terminal"

UI_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/ui/plain.py": {
        "self.cancelled = None": FALSY,
        "self.reasoning = None": FALSY,
        'self.stream: PlainStream | None = ""': "the stream is read only as there or not, and the empty text is not",
        "zip(row, widths, strict=None)": ZIP_SHORTER,
        "zip(row, widths, )": ZIP_SHORTER,
    },
    "narnat_agent/ui/render.py": {
        **{f'style="{name}"': UPPER for name in ("DIM", "RED", "BLUE", "GREEN", "BOLD", "MAGENTA", "RED DIM")},
        '"RED DIM" if failed': UPPER,
        'if failed else "DIM"': UPPER,
        'style="red" if error else "XXXX"': UNKNOWN_STYLE,
        "old, new, lines = 1, 0,": FIRST_HUNK,
        "old, new, lines = 0, 1,": FIRST_HUNK,
        '"     {new:>5}  ", "DIM"': UPPER,
        '"     {new:>5} +", "BLUE"': UPPER,
        '"     {old:>5} -", "RED"': UPPER,
        "self.body.wrap(None,": "Text.wrap hands the console only to a justification, which for the left one it "
        "does not read",
    },
    "narnat_agent/ui/markdown_stream.py": {
        "legacy_windows=None)": LEGACY,
        "legacy_windows=True)": LEGACY,
        "no_color=console.no_color, )": LEGACY,
        "force_terminal=None,": GIVEN_COLOURS,
        "*x_render_lines__mutmut_15": GIVEN_COLOURS,  # force_terminal left out
        "5 * (time.process_time() + began)": DELAY,
        "6 * (time.process_time() - began)": DELAY,
        "FRAME), 2.0)": DELAY,
        "text.justify = None": PADDED,
        'text.justify = "XXleftXX"': PADDED,
        'text.justify = "LEFT"': PADDED,
        "blocks[-1].type if (blocks) or True else": NOT_BLANK,
        'blocks[-1].type if blocks else "XXXX"': NOT_BLANK,
        "if n < closed_at), default=None)": BLOCK_BEFORE,
        "if n < closed_at), )": BLOCK_BEFORE,
        "if n < closed_at), default=1)": BLOCK_BEFORE,
        "if end >= self.committed:": NOTHING_MORE,
        "self.head, self.tail_printed, self.plain = None, 1, True": "once the answer goes on as plain text, nothing "
        "reads tail_printed: its markdown is over",
        "if len(rendered) >= window and": NOTHING_MORE,
        "if scrolled >= self.tail_printed:": NOTHING_MORE,
        "rendered = self._after(None)": "a slice to None is a slice to the end",
        "join(visible)) if (visible) or True else None)": "the open block is not blank "
        "(a blank tail returns before), and markdown that is not blank draws a line at least",
        "self._flush(final=None)": FALSY,
        "self.code_theme = self.inline_code_theme = None": "code blocks are drawn by _Code in CODE_THEME, and inline "
        "code has no lexer: rich reads neither theme",
        'None, "XXnoneXX", False, None': UNKNOWN_STYLE,
        'None, "NONE", False, None': UPPER,
        'background_color="DEFAULT"': "rich reads a colour's name in any case",
        'self.head: list[str] | None = ""': "the first head is the rendering of nothing: it has no lines, as the "
        "empty text has no length",
    },
    "narnat_agent/ui/terminal_stream.py": {
        'self.waiting: Spinner | None = ""': "spin(), at the end of __init__, sets it before anything reads it",
        "console=ui.console, transient=True, refresh_per_second=10,": "auto_refresh=True is rich's default",
        "print(_Raw(text), crop=None)": "rich reads crop only as true or false, and None is false",
        "join(lines)), soft_wrap=None)": DRAWN_AT_WIDTH,
        "join(lines)), soft_wrap=False)": DRAWN_AT_WIDTH,
        "join(lines)), )": DRAWN_AT_WIDTH,
        "self.live.update(None)": LIVE_EMPTY,
        "self.live.update(renderable if (renderable is not None) or True else": LIVE_EMPTY,
        'style="DIM"': UPPER,
        'style="DIM RED"': UPPER,
        'style="DIM ITALIC"': UPPER,
        'style="CYAN"': UPPER,
        "self.ui.watcher.working(None)": FALSY,
    },
    "narnat_agent/ui/events.py": {
        "self.running = None": STARTED,
        'self.running = ("XXXX", "")': STARTED,
        'self.running = ("", "XXXX")': STARTED,
        'getattr(out, "encoding", ) or "utf-8"': "every text stream has an encoding attribute (None for a StringIO)",
        'getattr(out, "encoding", None) or "UTF-8"': "Python's codecs take UTF-8 in any case",
        "super().__init__(out, err, None)": NO_INPUT,
        "super().__init__(out, err, )": NO_INPUT,
        "super().begin(session, None)": "HeadlessUI.begin keeps the session's name only",
        "super().say(text, None)": "PlainUI.say writes to err when given no stream",
        "super().say(text, )": "PlainUI.say writes to err when given no stream",
    },
}
