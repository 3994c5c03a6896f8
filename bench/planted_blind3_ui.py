"""Planted defects of the terminal and plain UIs, the keys, the renderers, the runs and the command line, by a third
writer, from the modules alone, as a tired developer would, without reading their tests: each is `later`."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_MOMENT, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND3_UI: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/ui/terminal.py": _later(
        ("            with contextlib.suppress(ValueError):  # the watcher queued it before asking\n"
         "                self.watcher.queued.remove(question)\n", "",
         f"{STEP_MISSED}: a command typed while the agent works that runs at once (/help) runs again after the turn"),
        ('text, self.pending = "/plan", text.removeprefix(PLAN_KEY)', 'text, self.pending = "/plan", ""',
         f"{STEP_MISSED}: what was typed before Shift-Tab is lost, not kept for the next prompt"),
        ("        return answer.strip() or default\n", "        return answer or default\n",
         f"{FORMAT_EDGE}: a setup answer pasted with a trailing space (a key, a URL) is kept with it"),
    ),
    "narnat_agent/ui/plain.py": _later(
        ('return line.rstrip("\\n") if line else None', 'return line.rstrip("\\n") or None',
         f"{INVERTED}: an empty Enter at the plain prompt ends the session like the end of input"),
        ("self.err.write(piece if self.reasoning else GUTTER + piece)", "self.err.write(GUTTER + piece)",
         f"{STEP_MISSED}: reasoning streamed in pieces gets the gutter before every piece, in the middle of its lines"),
        ('return f"{n / size:.1f}".removesuffix(".0") + unit', 'return f"{n / size:.1f}" + unit',
         f"{FORMAT_EDGE}: a round count of tokens says 128.0k, not 128k"),
    ),
    "narnat_agent/ui/keys.py": _later(
        ("yield Completion(found.text, -len(fragment), display=found.display)",
         "yield Completion(found.text, -len(word), display=found.display)",
         f"{OFF_BY_ONE}: completing @src/ma replaces the @ too: the path is no longer marked as one"),
        ('            return self.key == "escape"\n', "            return True\n",
         f"{WRONG_SETTING}: with interrupt_key ctrl-c, ESC still cancels the turn"),
        ("            self.queued.append(question)\n            if self.on_queued:\n"
         "                self.on_queued(question)\n",
         "            if self.on_queued:\n                self.on_queued(question)\n"
         "            self.queued.append(question)\n",
         f"{WRONG_ORDER}: a command run at once while the agent works is queued after it ran, and runs again"),
    ),
    "narnat_agent/ui/markdown_stream.py": _later(
        ("        self.committed -= self.anchor\n", "",
         f"{STEP_MISSED}: once old blocks are dropped, the printed mark is not moved with them: text is skipped"),
        ('end = len(text) if final else text.rfind("\\n") + 1', 'end = len(text) if final else text.rfind("\\n")',
         f"{OFF_BY_ONE}: past the plain-text limit, each printed piece leaves its newline to the next: blank lines"),
    ),
    "narnat_agent/ui/terminal_stream.py": _later(
        ("    def _show(self, renderable) -> None:\n        self.waiting = None\n",
         "    def _show(self, renderable) -> None:\n",
         f"{STEP_MISSED}: a notice while the answer streams replaces the answer's live lines with the old spinner"),
        ("self.thinking += inert(text)", "self.thinking += text",
         f"{STEP_MISSED}: an escape sequence in the model's reasoning reaches the terminal"),
    ),
    "narnat_agent/ui/render.py": _later(
        ("    while lines and not lines[-1].strip():\n        lines.pop()\n", "",
         f"{STEP_MISSED}: output that ends in blank lines shows blank lines as its tail"),
        ("note = _cut_note(len(first) - len(target.plain), more_lines)", "note = _cut_note(len(first), more_lines)",
         f"{WRONG_SETTING}: a header cut to the width says the whole target's length was cut, not what was cut"),
    ),
    "narnat_agent/ui/events.py": _later(
        ("line = redact(json.dumps(event, ensure_ascii=self.ascii), self.secret).translate(JSON_ESCAPES)",
         "line = json.dumps(event, ensure_ascii=self.ascii).translate(JSON_ESCAPES)",
         f"{STEP_MISSED}: the API key, in a tool's arguments or the answer, is written in the JSON lines"),
        ('self.ui.emit("reasoning", text=text)', 'self.ui.emit("text", text=text)',
         f"{WRONG_SETTING}: reasoning is streamed as answer text in stream-json"),
    ),
    "narnat_agent/ui/cells.py": _later(
        ("if char in CLOSING and (word or words):", "if char in CLOSING and word:",
         f"{FORMAT_EDGE}: a full-width comma after a wide character may start a line"),
        ("if line and width((line + word).rstrip()) > columns:", "if width((line + word).rstrip()) > columns:",
         f"{FORMAT_EDGE}: a first word wider than the columns is wrapped after an empty line"),
    ),
    "narnat_agent/ui/headless.py": _later(
        ("        self.text += text\n", "        self.text = text\n",
         f"{WRONG_SETTING}: narration before a tool call keeps only its last streamed piece"),
        ("        self.session = session\n", "        pass\n",
         f"{STEP_MISSED}: -p's footer names no session to resume"),
    ),
    "narnat_agent/run/start.py": _later(
        ("        name = names[0]\n", "        name = names[-1]\n",
         f"{WRONG_ORDER}: -c continues the oldest saved conversation, not the latest"),
        ("n=len(jobs) - SHOWN_JOBS)", "n=len(jobs))",
         f"{WRONG_SETTING}: five background commands stopped are said as three 'and 5 more'"),
    ),
    "narnat_agent/run/repl.py": _later(
        # (replaces "a cancel between steps leaves a tool call unanswered", which changed nothing a run can reach: the
        # turn's own `finally` answers the open calls before anything else can raise)
        ('            get_logger("run").exception("command run while the agent worked")\n            return True\n',
         '            get_logger("run").exception("command run while the agent worked")\n            return False\n',
         f"{INVERTED}: a command that failed while the agent worked is queued too, and runs again after the turn"),
        ('text = None if done is False else done if isinstance(done, str) else ""',
         "text = None if done is False else done if isinstance(done, str) else text",
         f"{WRONG_SETTING}: a slash command, once run, is also sent to the model as a question"),
    ),
    "narnat_agent/run/headless.py": _later(
        ("    first = len(agent.checkpoints.entries)\n    try:\n"
         "        outcome = _ask(agent, ui, prompt, nobody, until)\n",
         "    try:\n        outcome = _ask(agent, ui, prompt, nobody, until)\n"
         "        first = len(agent.checkpoints.entries)\n",
         f"{WRONG_MOMENT}: the run's changed files are counted from after its turn: none is said"),
        ("ui.report(outcome, agent.session.name if saved else None, code)",
         "ui.report(outcome, agent.session.name, code)",
         f"{STEP_MISSED}: a run whose save failed still names a session to resume"),
    ),
    "narnat_agent/cli.py": _later(
        ("max_turns=args.max_turns or config.max_turns", "max_turns=config.max_turns",
         f"{STEP_MISSED}: --max-turns is ignored: a goal takes the settings' max_turns"),
        ("if prompt is not None and not prompt.strip():", "if prompt is not None and not prompt:",
         f"{FORMAT_EDGE}: a prompt of only a newline on stdin is sent to the model"),
        ('(b"\\xef\\xbb\\xbf", "utf-8-sig")', '(b"\\xef\\xbb\\xbf", "utf-8")',
         f"{FORMAT_EDGE}: a UTF-8 prompt with a byte order mark is sent with the mark"),
    ),
}  # fmt: skip
