"""Planted defects of the terminal and plain UIs, the keys, the renderers, the runs and the command line, written
from the modules alone, as a tired developer would, without reading their tests: each is `later`."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND_UI: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/ui/terminal.py": _later(
        ("answer = self.short.prompt(inert(asked), is_password=secret)", "answer = self.short.prompt(inert(asked))",
         f"{STEP_MISSED}: the API key typed at the setup's hidden question is shown on the screen as it is typed"),
        ("question = self.watcher.queued.pop(0)", "question = self.watcher.queued.pop()",
         f"{WRONG_ORDER}: of the questions queued while the agent worked, the last one is asked first"),
        ("plain = not (sys.stdin.isatty() and sys.stdout.isatty())", "plain = not sys.stdout.isatty()",
         f"{WRONG_SETTING}: with a pipe on stdin and a terminal on stdout, the rich UI takes the pipe for a keyboard"),
    ),
    "narnat_agent/ui/plain.py": _later(
        ("        if n >= size:\n", "        if n > size:\n",
         f"{OFF_BY_ONE}: exactly 1000 tokens is shown as 1000, and a million as 1000k"),
        ("return answer.strip().lower() in answers(YES)", "return answer.strip() in answers(YES)",
         f"{FORMAT_EDGE}: Y or YES typed in capitals is taken as no"),
        ("widths = [max(cells.width(row[i]) for row in [columns, *rows]) for i in range(len(columns) - 1)]",
         "widths = [max(cells.width(row[i]) for row in rows) for i in range(len(columns) - 1)]",
         f"{STEP_MISSED}: a column's heading wider than its cells is not counted: the columns after it shift"),
    ),
    "narnat_agent/ui/keys.py": _later(
        ("return single + [key.upper() for key in single if key.upper() != key]", "return single",
         f"{FORMAT_EDGE}: Y (Shift or Caps Lock) does not answer a confirmation: it keeps asking"),
        ("            enters = [KeyPress(Keys.ControlM, \"\\r\") if k.key == Keys.ControlJ else k for k in early]\n"
         "            store_typeahead(self._input, enters)\n",
         "            store_typeahead(self._input, early)\n",
         f"{STEP_MISSED}: a question typed with Enter before the first prompt arrives with a newline: it is not sent"),
        ('yield Completion("/" + name, -len(text), display_meta=meta)',
         'yield Completion("/" + name, -len(text[1:]), display_meta=meta)',
         f"{OFF_BY_ONE}: completing /he gives //help"),
    ),
    "narnat_agent/ui/markdown_stream.py": _later(
        ("self.committed, self.head, self.tail_printed = end, None, 0", "self.committed, self.tail_printed = end, 0",
         f"{STEP_MISSED}: the cached rendering of the printed blocks outlives a commit: the next block's lines are "
         "cut or repeated"),
        ('self.emit_plain(text[:end].removesuffix("\\n"))', "self.emit_plain(text[:end])",
         f"{FORMAT_EDGE}: past the plain-text limit, each printed piece of the answer is followed by an empty line"),
    ),
    "narnat_agent/ui/terminal_stream.py": _later(
        ("        finally:\n            self.waiting = None\n            self.live.stop()\n",
         "        finally:\n            self.live.stop()\n",
         f"{STEP_MISSED}: a notice after the turn ended is drawn under the stopped spinner and never shown"),
        ("        self._end_thinking()\n        self.markdown.finish(self.cancelled)\n",
         "        self.markdown.finish(self.cancelled)\n",
         f"{STEP_MISSED}: the reasoning's unfinished last line is printed after the tool's lines, not before them"),
    ),
    "narnat_agent/ui/render.py": _later(
        ("above = output.lines - len(shown)", "above = len(lines) - len(shown)",
         f"{WRONG_SETTING}: the lines above a command's tail are counted in the kept tail, not in the whole output"),
        (r'HUNK = re.compile(r"@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@")',
         r'HUNK = re.compile(r"@@ -(\d+),\d+ \+(\d+),\d+ @@")',
         f"{FORMAT_EDGE}: a hunk of one line (@@ -3 +3 @@) is shown as a line of the diff and numbered from 0"),
    ),
    "narnat_agent/ui/events.py": _later(
        # the escapes' table moved to inert.py (acp's JSON shares it): the same slip, written where the line is made
        (".translate(JSON_ESCAPES)", "",
         f"{STEP_MISSED}: DEL and the C1 controls are written raw in the JSON lines"),
        ("super().say(text, self.err)", "super().say(text, stream)",
         f"{WRONG_SETTING}: a listing the user asked for goes to stdout, among the JSON lines"),
    ),
    "narnat_agent/ui/cells.py": _later(
        ('return text + " " * max(columns - width(text), 0)', 'return text + " " * max(columns - len(text), 0)',
         f"{WRONG_SETTING}: a cell of wide characters is padded by its length, not its columns: the columns shift"),
        ("    if unicodedata.combining(char):\n        return 0\n", "",
         f"{STEP_MISSED}: a combining accent (e + U+0301) is measured as a column of its own"),
    ),
    "narnat_agent/ui/headless.py": _later(
        ('        if outcome.answer:  # this text is the answer, printed once the run is over\n'
         '            self.text = ""\n', "",
         f"{STEP_MISSED}: the answer is printed on stderr as narration too, before the report puts it on stdout"),
        ('self.ui.say(self.text.strip("\\n"))', "self.ui.say(self.text.strip())",
         f"{FORMAT_EDGE}: narration that starts with indented code loses its first line's indentation"),
    ),
    "narnat_agent/run/start.py": _later(
        ("    system = session.conversation.messages[0]\n"
         '    system["content"] = with_environment(system["content"], system_prompt)\n', "",
         f"{STEP_MISSED}: a resumed conversation keeps the date, mode and settings of the run that saved it"),
        ("if not config.state_dir.is_relative_to(config.project):",
         "if config.state_dir.is_relative_to(config.project):",
         f"{INVERTED}: the leftovers of killed writers in a state folder outside the project are never cleaned"),
        ("if saved and not quiet:", "if not quiet:",
         f"{STEP_MISSED}: leaving an empty conversation says it was saved as 'None'"),
    ),
    "narnat_agent/run/repl.py": _later(
        ("    for last_chance in (False, True):\n        leave_on_signals(agent)\n",
         "    for last_chance in (False, True):\n",
         f"{STEP_MISSED}: once a failed autosave gave its second chance, a SIGTERM no longer stops the turn running"),
        ('[f"  {first_words(paragraph, RECAP)}"]', '[f"  {first_words(answer, RECAP)}"]',
         f"{WRONG_SETTING}: a resumed conversation's recap runs the answer's paragraphs together"),
    ),
    "narnat_agent/run/headless.py": _later(
        ("except (SessionError, LLMError) as e:", "except SessionError as e:",
         f"{STEP_MISSED}: a provider failure raised by the turn ends -p with a traceback, not one sentence"),
        ("if saved or not resumed else 1", "if saved else 1",
         f"{WRONG_SETTING}: a new conversation that could not be saved exits 1 though its turn completed"),
    ),
    "narnat_agent/run/signals.py": _later(
        ("if stop and not agent.ui.stop_reading():", "if not agent.ui.stop_reading():",
         f"{WRONG_SETTING}: a SIGTERM during the exit save interrupts it"),
        ("        agent.leaving = signum\n"
         "        if stop and not agent.ui.stop_reading():  # a waiting prompt ends like Ctrl-D; anything else stops"
         " like Esc\n            raise KeyboardInterrupt\n",
         "        if stop and not agent.ui.stop_reading():  # a waiting prompt ends like Ctrl-D; anything else stops"
         " like Esc\n            raise KeyboardInterrupt\n        agent.leaving = signum\n",
         f"{WRONG_ORDER}: a SIGTERM during a turn stops the turn, but the run goes on instead of ending"),
    ),
    "narnat_agent/cli.py": _later(
        ("if not text.isdigit() or int(text) < 1:", "if not text.isdigit() or int(text) < 0:",
         f"{OFF_BY_ONE}: --max-steps 0 is taken, and the configured limit is used in silence"),
        ('base_url = ui.ask(_("Base URL"), base_url).rstrip("/")', 'base_url = ui.ask(_("Base URL"), base_url)',
         f"{FORMAT_EDGE}: a base URL typed with a trailing slash at setup is saved with it"),
        ("ui.use_bell(config.bell_after_s if config.bell else None)", "ui.use_bell(config.bell_after_s)",
         f"{WRONG_SETTING}: the bell rings and the title changes though the settings turn the bell off"),
    ),
}  # fmt: skip
