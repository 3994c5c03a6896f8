"""Pure formatters: what each event looks like on screen, as rich renderables (tested on a recorded console)."""

import re

from rich.text import Text

from narnat_agent.core.turn import TurnStats
from narnat_agent.tools.workspace import Output
from narnat_agent.ui import plain
from narnat_agent.ui.plain import TODO_MARKS

TODO_STYLES = {"completed": "dim strike", "in_progress": "bold", "pending": ""}
FOLDED = re.compile(r"… \+(\d+) lines")
HUNK = re.compile(r"@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@")
BODY_LINES = 40


def header(title: str, width: int) -> Text:
    """`● Edit(src/app.py)`, cut by display width (CJK counts double)."""
    line = Text("● ", style="green")
    line.append(title, style="bold")
    line.truncate(max(width - 1, 10), overflow="ellipsis")
    return line


def result(summary: str, error: bool) -> Text:
    return Text.assemble(("  ⎿  ", "dim"), (summary, "red" if error else ""))


def diff(text: str, limit: int = BODY_LINES) -> Text:
    """A unified diff with line numbers, +/- markers and colour; long diffs are folded."""
    out, old, new, lines = Text(), 0, 0, text.splitlines()
    shown = [line for line in lines if not line.startswith("… +")]
    folded = sum(int(m[1]) for line in lines if (m := FOLDED.match(line)))  # already cut for the model
    for i, line in enumerate(shown[:limit]):
        if match := HUNK.match(line):
            old, new = int(match[1]), int(match[2])
            if i:
                out.append("       ⋮\n", style="dim")
            continue
        if line.startswith("-"):
            out.append(f"     {old:>5} -{line[1:]}\n", style="red")
            old += 1
        elif line.startswith("+"):
            out.append(f"     {new:>5} +{line[1:]}\n", style="green")
            new += 1
        else:
            out.append(f"     {new:>5}  {line[1:]}\n", style="dim")
            old, new = old + 1, new + 1
    hidden = max(len(shown) - limit, 0) + folded
    if hidden > 0:
        out.append(f"     … +{hidden} lines\n", style="dim")
    out.rstrip()
    return out


def todos(items: list[dict]) -> Text:
    out = Text()
    for i, item in enumerate(items):
        out.append(f"     {TODO_MARKS[item['status']]} {item['content']}", style=TODO_STYLES[item["status"]])
        if i < len(items) - 1:
            out.append("\n")
    return out


def output_preview(output: Output, lines: int = 4) -> Text | None:
    """The first lines of a failed command's output, so errors are seen without asking."""
    body = [line for line in output.tail if line.strip()][:lines]
    if not body:
        return None
    return Text("\n".join(f"     {line[:200]}" for line in body), style="dim red")


def footer(stats: TurnStats) -> Text:
    """── ctx 19.8k/128k · sent 266.7k (201.3k cached) · out 1.2k · 0.0420 · session 0.3100 · 8.2s ──"""
    return Text(f"── {plain.footer(stats)} ──", style="dim")
