"""Planted defects of the checkpoints (the stores, the timeline, the plans, git and the lock), the compression and
Edit's matching (the matcher, typography, re-indentation), written as a tired developer would, by a second someone
who had not read their tests: each is `later`."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_ORDER, WRONG_SETTING, Defect

BLIND2_STORE: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/checkpoints/store.py": (
        Defect("for n in range(1, len(folders) + 1)", "for n in range(1, len(folders))",
               f"{OFF_BY_ONE}: a file's own folder made a symbolic link is not seen: a restore deletes through it",
               later=True),
        Defect("for root in (os.path.abspath(project), os.path.realpath(project)):",
               "for root in (os.path.abspath(project),):",
               f"{WRONG_SETTING}: a project reached through a symbolic link names its files as outside ones",
               later=True),
        Defect("write_atomic(self.project / rel, self._bytes(content), int(content.split()[0], 8))",
               "write_atomic(self.project / rel, self._bytes(content))",
               f"{STEP_MISSED}: without git, a restored file loses the mode it was kept with (a script not executable)",
               later=True),
    ),
    "narnat_agent/checkpoints/git_store.py": (
        Defect('present = [p for p in paths if p in listing and not p.startswith("/")]',
               "present = [p for p in paths if p in listing]",
               f"{STEP_MISSED}: a rewind of a file outside the project asks git to check it out, and fails",
               later=True),
        Defect('if not (self.git_dir / "HEAD").exists() or self.git.run("rev-parse", "--git-dir")[0] == 0:',
               'if not (self.git_dir / "HEAD").exists() or self.git.run("rev-parse", "--git-dir")[0] != 0:',
               f"{INVERTED}: a damaged store is not set aside (checkpoints go off), and a sound one that failed is",
               later=True),
        # in place of one found equivalent on inspection (a folder that went makes the next snapshot a whole one)
        Defect("            shutil.rmtree(self.git_dir)\n", "",
               f"{STEP_MISSED}: a project refused as too large keeps the store begun: the next snapshot copies it all",
               later=True),
    ),
    "narnat_agent/checkpoints/timeline.py": (
        Defect("touched = [Path(os.path.realpath(p)) for p in touched]",
               "touched = [Path(os.path.abspath(p)) for p in touched]",
               f"{FORMAT_EDGE}: a file written through a symbolic link is kept as the link, not as the file changed",
               later=True),
        Defect("number = self.turn_count(index + 1)", "number = self.turn_count(index)",
               f"{OFF_BY_ONE}: a rewind is recorded as to the turn before the one chosen", later=True),
        # in place of one found equivalent on inspection (the touched files' snapshot holds what other runs took)
        Defect('        unless the store saw that nothing changed."""\n        self.only_calls = False\n',
               '        unless the store saw that nothing changed."""\n',
               f"{STEP_MISSED}: a command after the model's answer reuses the snapshot taken before it: the person's "
               "edits meanwhile are taken for the agent's", later=True),
    ),
    "narnat_agent/checkpoints/plans.py": (
        Defect("            if path in changes:\n"
               "                changes[path] = replace(changes[path], expected=after)\n"
               "            elif by_agent:\n"
               "                changes[path] = Change(path, before, after)\n",
               "            if by_agent:\n"
               "                changes[path] = Change(path, before, after)\n"
               "            elif path in changes:\n"
               "                changes[path] = replace(changes[path], expected=after)\n",
               f"{WRONG_ORDER}: a file the agent changed twice is rewound to its middle version, not its first",
               later=True),
        Defect("todo = [c for c in changes if current[c.path] != target[c.path]]", "todo = list(changes)",
               f"{STEP_MISSED}: a file the person already put back is restored again, and asked about as a conflict",
               later=True),
    ),
    "narnat_agent/checkpoints/git.py": (
        Defect('lines = err.strip().splitlines() or [f"exit status {code}"]', "lines = err.strip().splitlines()",
               f"{FORMAT_EDGE}: a git that fails saying nothing (killed) raises an IndexError, not one sentence",
               later=True),
        Defect("env=self.env | (env or {})", "env=env or self.env",
               f"{WRONG_SETTING}: a git given an extra variable loses the store's environment and runs on the "
               "project's own repository", later=True),
    ),
    "narnat_agent/checkpoints/lock.py": (
        Defect("                self._take(fd)\n                self._clear_stale()\n",
               "                self._clear_stale()\n                self._take(fd)\n",
               f"{WRONG_ORDER}: git's locks are cleared before the store's lock is taken: a running git's are removed",
               later=True),
        Defect("while not stop.wait(self.beat) and", "while not stop.wait(self.wait) and",
               f"{WRONG_SETTING}: a holder shows it is alive every WAIT seconds, so a waiter gives up on a live one",
               later=True),
    ),
    "narnat_agent/conversation/compressor.py": (
        Defect(' and m.get("content") and m["content"] != marker]', ' and m.get("content")]',
               f"{STEP_MISSED}: texts already left out are counted again: a request that stays too long is retried "
               "for ever", later=True),
        Defect("    successor.tool_state.reads = dict(old.tool_state.reads)\n", "",
               f"{STEP_MISSED}: after a compression the model must read again every file before it may edit it",
               later=True),
    ),
    "narnat_agent/tools/edit/matcher.py": (
        Defect("i, last = 0, len(form) - count + 1", "i, last = 0, len(form) - count",
               f"{OFF_BY_ONE}: a block on the last lines of a file without a final newline is not found when "
               "whitespace differs",
               later=True),
        Defect('if not line_end or end == len(text) or text[end] == "\\n":',
               'if not line_end or text[end] == "\\n":',
               f"{FORMAT_EDGE}: old_string at the end of a file without a final newline raises an IndexError",
               later=True),
        Defect("if all(o not in rewritten and _similarity(f, o) >= SIMILAR for f, o in drift):",
               "if all(_similarity(f, o) >= SIMILAR for f, o in drift):",
               f"{STEP_MISSED}: block anchors accept a drifted line new_string keeps: the file's own change is undone",
               later=True),
    ),
    "narnat_agent/tools/edit/typography.py": (
        Defect("if k > n_done:", "if k >= n_done:",
               f"{OFF_BY_ONE}: a new `…` or `—` on a changed line is written once per character it folds to",
               later=True),
        Defect("if _whole(f_origin, start, end) and _whole(n_origin, q1, q2):", "if _whole(f_origin, start, end):",
               f"{STEP_MISSED}: a file's `.` that new_string makes part of `…` stays: the new ellipsis is lost",
               later=True),
    ),
    "narnat_agent/tools/edit/reindent.py": (
        Defect("    def apply(line: str) -> str:\n        if not line.strip():\n            return line\n"
               "        if shift >= 0:\n",
               "    def apply(line: str) -> str:\n        if shift >= 0:\n",
               f"{STEP_MISSED}: a blank line of a re-indented new_string is given trailing spaces", later=True),
        Defect("return mapping if in_old else KEEP", "return KEEP if in_old else mapping",
               f"{INVERTED}: new_string of only new lines, indented as old_string is, is left at old_string's "
               "indentation", later=True),
    ),
}  # fmt: skip
