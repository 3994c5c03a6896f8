"""Pure formatters: what each event looks like on screen, as rich renderables (tested on a recorded console)."""

import re

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.text import Text

from narnat_agent.core.turn import TurnStats
from narnat_agent.i18n import _, ngettext, spaced
from narnat_agent.tools.base import Output
from narnat_agent.ui.plain import TODO_MARKS, more_lines, shown_to_model, title_parts
from narnat_agent.ui.plain import footer as footer_text

TODO_STYLES = {"completed": "dim strike", "in_progress": "bold", "pending": ""}
FOLDED = re.compile(r"… \+(\d+) lines")
HUNK = re.compile(r"@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@")
BODY_LINES = 40
RESULT = "  ⎿  "
INDENT = " " * len(RESULT)
TAIL_OK, TAIL_FAILED = 3, 6  # output lines shown under a command's result
TAIL_WIDTH = 400  # characters of one output line, at most (minified files have megabyte lines)


class Hanging:
    """A prefix, then text whose wrapped lines continue under the text, not at column 0."""

    def __init__(self, prefix: Text | str, body: Text):
        self.prefix = Text(prefix) if isinstance(prefix, str) else prefix
        self.body = body

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        indent = self.prefix.cell_len
        for i, line in enumerate(self.body.wrap(console, max(options.max_width - indent, 10))):
            line.rstrip()
            # appended, not added: `prefix + line` would give the whole first line the prefix's own style
            yield Text().append_text(self.prefix if i == 0 else Text(" " * indent)).append_text(line)


def header(title: str, width: int, origin: str = "") -> Text:
    """`● Bash(git stash push … +2 lines)`, then the call's origin (dim): one line of the width in columns; anything
    cut says how much more there is."""
    name, first, more_lines = title_parts(title)
    line = Text().append("● ", style="green")  # the bullet alone: green text is unreadable on a light theme
    line.append(name, style="bold")
    if "(" not in title:
        return line.append(origin, style="dim")
    note = _lines_note(more_lines) if more_lines else ""
    fixed = cell_len(f"● {name}(){origin}")
    target = Text(first, style="bold")
    if fixed + cell_len(first) + cell_len(f" {note}") > width:
        target.truncate(max(width - fixed - cell_len(f" {_cut_note(len(first), more_lines)}") - 1, 10))
        target.rstrip()  # the column a wide character did not fit in
        if len(target.plain) < len(first):  # the ten columns kept at least may hold all of it: then nothing is cut
            note = _cut_note(len(first) - len(target.plain), more_lines)
            target.append("…")
    line.append("(", style="bold").append_text(target)
    if note:
        line.append(f" {note}", style="magenta")
    return line.append(")", style="bold").append(origin, style="dim")


def _lines_note(lines: int) -> str:
    return ngettext("+{n} line", "+{n} lines", lines).format(n=lines)


def _cut_note(chars: int, lines: int) -> str:
    """What a header cut to the width leaves out: `+40 chars`, `+40 chars, +2 lines`."""
    cut = ngettext("+{n} char", "+{n} chars", chars).format(n=chars)
    return _("{chars}, {lines}").format(chars=cut, lines=_lines_note(lines)) if lines else cut


def result(summary: str, error: bool, output: Output | None = None) -> Hanging:
    """`⎿  exit 1 · 792 lines (328 shown to the model)`, wrapped under its own text."""
    body = Text(summary, style="red" if error else "")
    if output and output.shown_lines < output.lines:
        body.append(spaced(shown_to_model(output)), style="magenta")
    return Hanging(Text(RESULT, style="dim"), body)


def output_tail(output: Output, failed: bool) -> Group | None:
    """The last lines of a command's output, dimmed: where errors and summaries are."""
    lines = list(output.tail)
    while lines and not lines[-1].strip():
        lines.pop()
    shown = lines[-(TAIL_FAILED if failed else TAIL_OK) :]
    if not shown:
        return None
    rows: list[Hanging | Text] = [
        Hanging(INDENT, Text(line[:TAIL_WIDTH], style="red dim" if failed else "dim")) for line in shown
    ]
    above = output.lines - len(shown)
    if above > 0:
        more = ngettext("… +{n} line above", "… +{n} lines above", above).format(n=above)
        rows.insert(0, Text(f"{INDENT}{more}", style="dim"))
    return Group(*rows)


def diff(text: str, limit: int = BODY_LINES) -> Group:
    """A unified diff with line numbers, +/- markers and colour, a long line wrapped under its own text (right of
    the gutter); long diffs are folded."""
    rows: list[Hanging | Text] = []
    old, new, lines = 0, 0, text.splitlines()
    shown = [line for line in lines if not line.startswith("… +")]
    folded = sum(int(m[1]) for line in lines if (m := FOLDED.match(line)))  # already cut for the model
    for i, line in enumerate(shown[:limit]):
        if match := HUNK.match(line):
            old, new = int(match[1]), int(match[2])
            if i:
                rows.append(Text("       ⋮", style="dim"))
            continue
        if line.startswith("-"):
            gutter, style, old = f"     {old:>5} -", "red", old + 1
        elif line.startswith("+"):
            gutter, style, new = f"     {new:>5} +", "blue", new + 1  # as the code theme's inserted lines
        else:
            gutter, style, old, new = f"     {new:>5}  ", "dim", old + 1, new + 1
        rows.append(Hanging(Text(gutter, style=style), Text(line[1:], style=style)))
    hidden = max(len(shown) - limit, 0) + folded
    if hidden > 0:
        rows.append(Text(f"     {more_lines(hidden)}", style="dim"))
    return Group(*rows)


def syntax_finding(text: str) -> Text:
    """The syntax errors an edit introduced, under its diff: what the model was told, in red."""
    return Text("\n".join(f"{INDENT}{line}" for line in text.splitlines()), style="red")


def todos(items: list[dict]) -> Group:
    return Group(*(Hanging(f"{INDENT}{TODO_MARKS[t['status']]} ", Text(t["content"], style=TODO_STYLES[t["status"]]))
                   for t in items))  # fmt: skip


def footer(stats: TurnStats) -> Text:
    """── ctx 19.8k/128k · sent 266.7k (250k cached) · out 1.2k · 17 requests · cost … · 13.2s ──"""
    return Text(f"── {footer_text(stats)} ──", style="dim")


def separator(title: str, width: int) -> Text:
    """A rule across the screen with a title: where a new conversation starts."""
    head = f"── {title} "
    return Text(head + "─" * max(width - cell_len(head), 3), style="dim")
