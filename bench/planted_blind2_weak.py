"""Planted defects of the platform seams, the editor protocol's server, goals, Read, the provider's client, the
session store and commands, the user's commands and skills, the settings, the terminal UI, the REPL, Edit, the rg
runner and the documents, written by a second writer from the modules alone, as a tired developer would, without
reading their tests: each is `later`."""

from defects import FORMAT_EDGE, OFF_BY_ONE, STEP_MISSED, WRONG_MOMENT, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND2_WEAK: dict[str, tuple[Defect, ...]] = {
    # platform
    "narnat_agent/platform/processes.py": _later(
        ("    for stop, wait in ((ask_to_stop, grace), (kill_tree, last)):",
         "    for stop, wait in ((kill_tree, last), (ask_to_stop, grace)):",
         f"{WRONG_ORDER}: a tree is killed at once, never asked to stop first (no cleanup, no TERM trap runs)"),
        ("        if dies_with_narnat and (prctl := _prctl()) is not None:",
         "        if (prctl := _prctl()) is not None:",
         f"{WRONG_SETTING}: every command, not only a background job, is killed when the thread that started it "
         "ends"),
    ),
    "narnat_agent/platform/files.py": _later(
        ('        """A backslash in a glob escapes the next character (rg reads globs so here)."""\n'
         '        return glob\n',
         '        """A backslash in a glob escapes the next character (rg reads globs so here)."""\n'
         '        return glob.replace("\\\\", "/")\n',
         f"{FORMAT_EDGE}: on POSIX an escaped glob character (\\*) becomes a folder separator"),
        ('        """target replaced by source, in one rename."""\n        os.replace(source, target)',
         '        """target replaced by source, in one rename."""\n        os.replace(target, source)',
         f"{WRONG_ORDER}: the rename's two paths swapped: the file written is lost and the old one moves away"),
    ),
    "narnat_agent/platform/locks.py": _later(
        ("fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)", "fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)",
         f"{WRONG_SETTING}: a record lock, the process's own: a second descriptor of the same run takes it too"),
        ("        fcntl.flock(fd, fcntl.LOCK_EX)\n",
         "        for _ in range(100):\n            if try_lock(fd):\n                return\n"
         "            time.sleep(0.01)\n",
         f"{WRONG_MOMENT}: waiting for the lock stops after a second, and the caller goes on without it"),
    ),
    "narnat_agent/platform/signals.py": _later(
        ("        previous = signal.pthread_sigmask(signal.SIG_BLOCK, _TAKEN)\n        try:\n            yield\n"
         "        finally:\n            signal.pthread_sigmask(signal.SIG_SETMASK, previous)\n",
         "        previous = signal.pthread_sigmask(signal.SIG_BLOCK, _TAKEN)\n        yield\n"
         "        signal.pthread_sigmask(signal.SIG_SETMASK, previous)\n",
         f"{STEP_MISSED}: a thread that fails to start leaves the main thread with Ctrl-C and SIGTERM blocked"),
        ("_TAKEN = {signal.SIGINT, *ENDING}", "_TAKEN = {signal.SIGINT, signal.SIGTERM}",
         f"{WRONG_SETTING}: a helper thread can take the SIGHUP of a closed terminal"),
    ),
    "narnat_agent/platform/console.py": _later(
        ("        saved = termios.tcgetattr(0)\n\n        def restore() -> None:\n"
         "            with contextlib.suppress(termios.error, OSError):",
         "        def restore() -> None:\n"
         "            with contextlib.suppress(termios.error, OSError):\n                saved = termios.tcgetattr(0)",
         f"{WRONG_MOMENT}: the terminal's settings are read when given back, not when saved: a kill leaves it raw"),
        ("if any(event & select.POLLHUP for _, event in poller.poll(0)):",
         "if any(event == select.POLLHUP for _, event in poller.poll(0)):",
         f"{FORMAT_EDGE}: a hung-up terminal that also reports input or an error is not seen to have hung up"),
    ),
    "narnat_agent/platform/watch.py": _later(
        ("lost = lost or bool(mask & (_OVERFLOW | _UNMOUNT))", "lost = bool(mask & (_OVERFLOW | _UNMOUNT))",
         f"{WRONG_MOMENT}: an overflow followed by other events in the same read is forgotten"),
        ("                        if (gone := self.folders.pop(wd, None)) is not None"
         " and self.watches.get(gone) == wd:\n"
         "                            del self.watches[gone]\n",
         "                        if (gone := self.folders.pop(wd, None)) is not None:\n"
         "                            self.watches.pop(gone, None)\n",
         f"{STEP_MISSED}: a folder removed and made again loses its new watch when the old one's end arrives"),
    ),
    # acp
    "narnat_agent/acp/server.py": _later(
        ("            save(opened.agent, opened.ui, quiet=True)\n            stop_jobs(opened.agent)\n",
         "            save(opened.agent, opened.ui, quiet=True)\n",
         f"{STEP_MISSED}: the background commands of the editor's sessions outlive the run"),
        ("        if self.cancellable:\n            self.cancel()\n        self.jobs.put(None)",
         "        self.jobs.put(None)",
         f"{STEP_MISSED}: an editor that closes the connection mid-turn leaves the turn running to its end"),
        ("    return 128 + turns.leaving if turns.leaving else 0", "    return turns.leaving",
         f"{FORMAT_EDGE}: a run ended by SIGTERM exits 15, not 143 as shells report a death by a signal"),
    ),
    # core
    "narnat_agent/core/goal.py": _later(
        ('text, found, until = arg.rpartition("--until")', 'text, found, until = arg.partition("--until")',
         f"{FORMAT_EDGE}: a goal whose text mentions --until takes the rest of the text for its command"),
        ("            if number < goal.max_turns:", "            if number <= goal.max_turns:",
         f"{OFF_BY_ONE}: the last round says it is going on, and the goal then ends"),
        ("last = next((r.check for r in reversed(record.rounds) if r.check), None)",
         "last = record.rounds[-1].check if record.rounds else None",
         f"{WRONG_MOMENT}: a goal stopped in a round without a check says its check was not run, though one failed"),
    ),
    # read
    "narnat_agent/tools/read/__init__.py": _later(
        ("({len(entries)} entries):", "({len(lines)} entries):",
         f"{WRONG_SETTING}: a folder of more than 500 entries is said to hold 500"),
        ("        ws.remember(path, data, whole=True)\n        return Result(f\"{note}{ws.show(path)} is empty",
         "        return Result(f\"{note}{ws.show(path)} is empty",
         f"{STEP_MISSED}: an empty file Read is not counted as read, and Edit or Write refuse it"),
        ('        note += f"(This file is not UTF-8', '        note = f"(This file is not UTF-8',
         f"{STEP_MISSED}: a file not in UTF-8 changed outside is not said to be modified externally"),
    ),
    # provider
    "narnat_agent/provider/client.py": _later(
        ("wait = retry.wait if retry.wait is not None else min(8.0, 0.5 * 2 ** (attempt - 1))",
         "wait = min(8.0, retry.wait if retry.wait is not None else 0.5 * 2 ** (attempt - 1))",
         f"{WRONG_SETTING}: the provider's Retry-After is cut to 8 s, and the request refused again"),
        ("if status in (400, 422) and self.use_stream_options", "if status == 400 and self.use_stream_options",
         f"{FORMAT_EDGE}: a server that refuses stream_options with 422 ends the turn, not asked again without it"),
        ("        if not self.send_images and isinstance(message[\"content\"], list):\n"
         "            message = _without_images(message)\n"
         "        if self.send_reasoning:\n            return message\n",
         "        if self.send_reasoning:\n            return message\n"
         "        if not self.send_images and isinstance(message[\"content\"], list):\n"
         "            message = _without_images(message)\n",
         f"{WRONG_ORDER}: once the provider refused images, they are still sent while reasoning is"),
    ),
    # conversation
    "narnat_agent/conversation/store.py": _later(
        ("(isinstance(content, str) or content is None or (isinstance(content, list)",
         "(isinstance(content, str) or (isinstance(content, list)",
         f"{FORMAT_EDGE}: a session with an answer of tool calls alone (content null) cannot be loaded"),
        ('data = {"format": FORMAT, "name": path.stem, **session,',
         'data = {"format": FORMAT, "name": name, **session,',
         f"{WRONG_SETTING}: a session saved beside another as NAME-2 records NAME inside"),
        ('if n == 1 and (role != "system"', 'if n == 0 and (role != "system"',
         f"{OFF_BY_ONE}: a session file without its system prompt first is loaded"),
    ),
    # commands
    "narnat_agent/commands/sessions.py": _later(
        ('" ".join(row["first"].split())]', 'row["first"]]',
         f"{FORMAT_EDGE}: a first question of several lines breaks /show's table across lines"),
        ("    origin = agent.save()\n    agent.switch(forked)\n",
         "    agent.switch(forked)\n    origin = agent.save()\n",
         f"{WRONG_ORDER}: /fork saves the fork as the origin, and the conversation forked from is not saved"),
        ("    if exists and not agent.ui.confirm(", "    agent.conversation.name = name\n"
         "    if exists and not agent.ui.confirm(",
         f"{WRONG_ORDER}: /save NAME answered no still renames the conversation NAME"),
    ),
    "narnat_agent/commands/custom.py": _later(
        ('" ".join(description.split())[:80]', '" ".join(description.split())',
         f"{STEP_MISSED}: a command's long first line fills its help line whole"),
        ('    if not text:\n        raise UnusableFile("it is empty")\n', "",
         f"{STEP_MISSED}: an empty command file (front matter alone) becomes a command that sends nothing"),
    ),
    # prompts
    "narnat_agent/prompts/skills.py": _later(
        ("    real = path.resolve()\n", "    real = path.absolute()\n",
         f"{STEP_MISSED}: a command file linked to a file outside the project and the home is read"),
        ("data = f.read(MAX_BYTES + 1)", "data = f.read(MAX_BYTES)",
         f"{OFF_BY_ONE}: a file over 64 KB is cut to 64 KB without a word, not refused"),
    ),
    # config
    "narnat_agent/config/settings.py": _later(
        ("lambda v: _is_number(v) and 0 < v <= 120", "lambda v: _is_number(v) and 0 < v < 120",
         f"{OFF_BY_ONE}: a web_timeout_s of 120, the documented top, is refused"),
        ('lambda v: _is_number(v) and v >= 0, N_("a number of seconds (0: every turn)")',
         'lambda v: _is_number(v) and v > 0, N_("a number of seconds (0: every turn)")',
         f"{OFF_BY_ONE}: a bell_after_s of 0 (ring at every turn, as documented) is refused"),
        ('lambda v: isinstance(v, str) and v.strip() != ""', 'lambda v: isinstance(v, str) and v != ""',
         f"{FORMAT_EDGE}: a model of spaces is accepted, and every request names no model"),
    ),
    # ui
    "narnat_agent/ui/terminal.py": _later(
        ('os.environ.get("TERM", "dumb") == "dumb"', 'os.environ.get("TERM") == "dumb"',
         f"{FORMAT_EDGE}: with TERM unset, the rich UI writes its escapes to a terminal that cannot read them"),
        ("                self.hinted = True\n", "",
         f"{STEP_MISSED}: the hint on Ctrl-C and Ctrl-D is said again at every empty Ctrl-C"),
        ("default, self.pending = self.pending + self.watcher.take_typed(), \"\"",
         "default, self.pending = self.watcher.take_typed() + self.pending, \"\"",
         f"{WRONG_ORDER}: keys typed while the agent worked come before the question given back to edit"),
    ),
    "narnat_agent/run/repl.py": _later(
        ("resumed = bool(args.latest or args.resume)", "resumed = bool(args.resume)",
         f"{WRONG_SETTING}: --continue (the latest conversation) is announced as a new one, without its recap"),
        ("            if text.strip():\n                agent.ask(text)",
         "            if text:\n                agent.ask(text)",
         f"{FORMAT_EDGE}: a line of spaces is sent to the model as a question"),
        ("if project.is_relative_to(home) else str(project)",
         "if str(project).startswith(str(home)) else str(project)",
         f"{FORMAT_EDGE}: a project in /home/ann2 with home /home/ann ends the start in a traceback"),
    ),
    # files
    "narnat_agent/tools/edit/__init__.py": _later(
        ('    ws.ask_outside("Edit", path)\n    write_atomic(path, encoded, follow_umask=True)\n',
         '    write_atomic(path, encoded, follow_umask=True)\n    ws.ask_outside("Edit", path)\n',
         f"{WRONG_ORDER}: a file outside the project is edited before the person is asked"),
        ("if not values or len(values) < len(numbers):", "if not values:",
         f"{STEP_MISSED}: old_string whose lines only partly start with a number and a tab is said to carry Read's "
         "numbers"),
        ('    if any(line.startswith("\\t") for line in window) and any(line.startswith(" ") for line in old_lines):\n'
         '        return "Likely cause: the file indents with tabs and old_string with spaces."\n'
         '    if "".join(file_text.split()) == "".join(old_text.split()):\n'
         '        return "Likely cause: whitespace differs."\n',
         '    if "".join(file_text.split()) == "".join(old_text.split()):\n'
         '        return "Likely cause: whitespace differs."\n'
         '    if any(line.startswith("\\t") for line in window) and any(line.startswith(" ") for line in old_lines):\n'
         '        return "Likely cause: the file indents with tabs and old_string with spaces."\n',
         f"{WRONG_ORDER}: tabs in the file against spaces in old_string are said only as whitespace differing"),
    ),
    "narnat_agent/tools/files/ripgrep.py": _later(
        ('(lines[-1].removeprefix("rg: ") if lines else', '(lines[0].removeprefix("rg: ") if lines else',
         f"{WRONG_SETTING}: of rg's lines without an 'error:' one, the first is said, not the last"),
        ("if done is not None and done.code > 1 and not done.out:",
         "if done is not None and done.code > 0 and not done.out:",
         f"{OFF_BY_ONE}: a folder with no file to search is said to be rg's failure"),
        ('out.append("(?:[^/]+/)*" if i + 2 < len(pattern) else ".*")', 'out.append("(?:[^/]+/)*")',
         f"{FORMAT_EDGE}: in the fallback walk a final '**' (src/**) matches nothing below"),
    ),
    "narnat_agent/tools/files/documents.py": _later(
        ("    if not any(page.strip() for page in pages):\n", "    if not pages:\n",
         f"{STEP_MISSED}: a scanned PDF shows empty page markers, not that it has no text layer"),
        ('enumerate(_version_4(data, name).get("cells", []), 1)', 'enumerate(_version_4(data, name).get("cells", []))',
         f"{OFF_BY_ONE}: Read numbers a notebook's cells from 0, where Edit numbers them from 1"),
    ),
}  # fmt: skip
