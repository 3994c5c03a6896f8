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
WIDEST = "a column given its widest cell's width has no cell to wrap"
NO_BOX = "a table without a box draws no edge, whatever show_edge says"
UNHIGHLIGHTED = "the console is made without highlighting (make_ui): a print that does not say takes its setting"
AT_ONCE = "the REPL gives run_at_once before its first turn (run/repl.py), so nothing is queued before it"
HISTORY = (
    "a KeptHistory always has `failure`; an InMemoryHistory is kept only when the problem was told at the start, and "
    "then history_told stops the check"
)
EMPTY_WORD = "an empty word adds nothing to the line it joins"
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
    "narnat_agent/ui/cells.py": {
        'east_asian_width(char) in "XXWFXX"': "a character's East Asian width is one of F, H, W, Na, A and N: of "
        "these, W and F alone are in either string",
        "words += [word, char] if (word) or True else [char]": EMPTY_WORD,
        "return [*words, word] if (word) or True else words": EMPTY_WORD,
        "word[-2:] not in tuple(OPENING)": "after an opening mark the word is that mark alone or ends with a narrow "
        "character: its last two end with an opening mark only when its last one is that mark alone",
    },
    "narnat_agent/ui/terminal.py": {
        **{f'style="{name}"': UPPER for name in ("DIM", "RED", "MAGENTA", "BOLD")},
        'header_style="DIM"': UPPER,
        "zip(columns, widths, strict=None)": ZIP_SHORTER,
        "zip(columns, widths, )": ZIP_SHORTER,
        "table.add_column(name, no_wrap=None, width=width)": WIDEST,
        "table.add_column(name, no_wrap=False, width=width)": WIDEST,
        "table.add_column(name, width=width)": WIDEST,
        "table.add_column(name, no_wrap=True, width=None)": "rich measures a column by its widest cell too",
        "table.add_column(name, no_wrap=True, )": "rich measures a column by its widest cell too",
        "pad_edge=None,": FALSY,
        "show_edge=None)": NO_BOX,
        "show_edge=True)": NO_BOX,
        'header_style="dim", pad_edge=False, )': NO_BOX,
        "no_wrap=True, max_width=max(room, 1))": "ellipsis is a column's own overflow when none is given",
        "self.watcher.working(None)": FALSY,
        'title.split("(", )[0]': "the text before the first ( is the same however many splits follow",
        'title.split("(", 2)[0]': "the text before the first ( is the same however many splits follow",
        "self.console.print(shown, highlight=None)": UNHIGHLIGHTED,
        "self.console.print(shown, )": UNHIGHLIGHTED,
        "markup=False, highlight=None)": UNHIGHLIGHTED,
        "markup=False, )": UNHIGHLIGHTED,
        'self.stream: TerminalStream | None = ""': "the stream is read only as there or not, and the empty text is not",
        'self.compressing: Live | None = ""': "begin_compressing sets it before end_compressing reads it",
        'self.history_told = "XXXX", "", False': "the REPL's banner names the model before the first prompt",
        "self.mode = None": "the status line leaves out each part that is empty or None",
        "self.at_once: Callable[[str], bool] = None": AT_ONCE,
        "self.at_once: Callable[[str], bool] = lambda line: None": AT_ONCE,
        "self.at_once: Callable[[str], bool] = lambda line: True": AT_ONCE,
        'getattr(self.history, "failure", None)': HISTORY,
        'getattr(self.history, "failure", "XXXX")': HISTORY,
        "start_thread(None)": "the preload only warms imports and a render while the user types: nothing shown "
        "depends on it",
        "is_password=None)": "prompt_toolkit takes None as the session's own setting, which is False",
        "self.console.print(shown, highlight=True)": "rich highlights plain strings only: a Text is printed as styled",
    },
}
