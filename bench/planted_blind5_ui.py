"""Planted defects of the keys, the plain and terminal UIs, the renderers, the JSON events, the cells and -p's text
output, by a fifth writer, from the modules alone, as a tired developer would, without reading their tests: each is
`later`."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND5_UI: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/ui/keys.py": _later(
        ('        with open(path, "ab"):\n', '        with open(path, "wb"):\n',
         f"{WRONG_SETTING}: the input history file is emptied at every start: the arrows recall no earlier session"),
        ("        self._thread.join(1)\n        self._thread = None\n", "        self._thread.join(1)\n",
         f"{STEP_MISSED}: the watcher stopped for the second prompt is never started again: ESC cancels no later turn"),
        ("    return not get_app().current_buffer.text.strip()\n", "    return not get_app().current_buffer.text\n",
         f"{FORMAT_EDGE}: Ctrl-D on a line holding only an Enter typed while busy does not leave"),
    ),
    "narnat_agent/ui/plain.py": _later(
        ("sent, out = approx + tokens(stats.sent), approx + tokens(stats.completion)",
         "sent, out = approx + tokens(stats.context), approx + tokens(stats.completion)",
         f"{WRONG_SETTING}: the footer's sent says the last request's prompt, not what the turn sent in all"),
        ("    def finish(self, outcome: TurnOutcome) -> None:\n        self.end_block()\n",
         "    def finish(self, outcome: TurnOutcome) -> None:\n",
         f"{STEP_MISSED}: an answer that does not end its line leaves stdout without its last newline"),
        ('            self.out.write("\\n")\n            return ""\n', '            self.out.write("\\n")\n'
         "            return None\n",
         f"{INVERTED}: Ctrl-C at the plain prompt ends the session instead of clearing the line"),
    ),
    "narnat_agent/ui/terminal.py": _later(
        ('sized = {name: value for name, value in os.environ.items() if name not in ("COLUMNS", "LINES")}',
         "sized = dict(os.environ)",
         f"{WRONG_SETTING}: a COLUMNS exported from another window cuts every line at a width not the window's"),
        ("        result = result.cleaned(inert)\n", "",
         f"{STEP_MISSED}: an escape sequence in a command's output or summary reaches the terminal"),
        ("            if live:\n                live.start()\n", "",
         f"{STEP_MISSED}: after a confirmation the turn's live region (spinner, open block) never comes back"),
    ),
    "narnat_agent/ui/terminal_stream.py": _later(
        ("        self.markdown.finish(self.cancelled)\n", "        self.markdown.finish()\n",
         f"{WRONG_SETTING}: a flood interrupted with ESC is still drawn in full after the cancel"),
        ("self.ui.console.print(_Raw(text), crop=False)", "self.ui.console.print(_Raw(text))",
         f"{STEP_MISSED}: past the plain-text limit, each long line of the answer is cut at the screen's width"),
    ),
    "narnat_agent/ui/markdown_stream.py": _later(
        ("last_start = max((n for n in starts if n < closed_at), default=0)",
         "last_start = max((n for n in starts if n <= closed_at), default=0)",
         f"{OFF_BY_ONE}: the anchor is put past the last printed block: the next rendering starts in the wrong place"),
        ('return [TRAILING.sub(r"\\1", line) for line in out.getvalue().split("\\n")[:-1]]',
         'return [line.rstrip() for line in out.getvalue().split("\\n")[:-1]]',
         f"{FORMAT_EDGE}: the padding of a quote's or a table's lines, inside their colour codes, stays to the width"),
    ),
    "narnat_agent/ui/render.py": _later(
        ('gutter, style, old = f"     {old:>5} -", "red", old + 1',
         'gutter, style, old = f"     {new:>5} -", "red", old + 1',
         f"{WRONG_SETTING}: a removed line is numbered by the new file's line, not the old file's"),
        ("if fixed + cell_len(first) + cell_len(f\" {note}\") > width:",
         "if fixed + cell_len(first) + cell_len(f\" {note}\") >= width:",
         f"{OFF_BY_ONE}: a tool header that fills the width exactly is cut, and says one char more"),
    ),
    "narnat_agent/ui/events.py": _later(
        ('self.emit("notice", level="warning", text=text)', 'self.emit("notice", level="notice", text=text)',
         f"{WRONG_SETTING}: a warning is streamed as a notice of level notice"),
        ("arguments=call.args, header=header)", "arguments=call.arguments, header=header)",
         f"{WRONG_SETTING}: a tool_call's arguments are the raw streamed text (a string), not the JSON object"),
    ),
    "narnat_agent/ui/cells.py": _later(
        ("word = word + char if word else words.pop() + char", "word = word + char if word else words[-1] + char",
         f"{STEP_MISSED}: a full-width comma after a wide character shows that character twice"),
        ("words += [word, char] if word else [char]", "words.append(word + char)",
         f"{STEP_MISSED}: Latin text followed by a wide character (Python编写) is never broken between them"),
    ),
    "narnat_agent/ui/headless.py": _later(
        ("if answer := inert(redact(outcome.answer, self.secret)):",
         "if (answer := inert(redact(outcome.answer, self.secret))) is not None:",
         f"{FORMAT_EDGE}: a run without an answer (cancelled, failed) prints an empty line on stdout"),
        ('            self.ui.say(self.text.strip("\\n"))\n        self.text = ""\n',
         '            self.ui.say(self.text.strip("\\n"))\n            self.text = ""\n',
         f"{WRONG_ORDER}: spaces streamed before a tool call are kept and come out before the next narration"),
    ),
}  # fmt: skip
