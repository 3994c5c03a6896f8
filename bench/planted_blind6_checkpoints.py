"""Planted defects of the checkpoints (the timeline, the stores, git), the rewind commands, the workspace, Bash and
WebFetch, written as a tired developer would, by a sixth someone who had not read their tests: each is `later`."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND6_CHECKPOINTS: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/checkpoints/timeline.py": _later(
        ("if before[c.path] is not None or after[c.path] is not None]",
         "if before[c.path] is not None and after[c.path] is not None]",
         f"{INVERTED}: /diff leaves out the files a turn created or deleted"),
        ("        self.entries.extend(record.tail)\n", "",
         f"{STEP_MISSED}: /redo of an /undo gives the messages back but not the turns: /rewind no longer lists them"),
        ("cut(entry.messages, entry.turn - 1)", "cut(entry.messages, entry.turn)",
         f"{OFF_BY_ONE}: a rewind of the conversation counts the turn it took away as still held"),
    ),
    "narnat_agent/checkpoints/store.py": _later(
        ('            if tag != "equal":\n', '            if tag == "replace":\n',
         f"{FORMAT_EDGE}: without git, lines only added or only removed are not counted in a turn's +N -M"),
        ("            if blob.name not in used and blob.stat().st_mtime <= old:\n",
         "            if blob.stat().st_mtime <= old:\n",
         f"{STEP_MISSED}: without git, a prune deletes the old file copies this conversation's snapshots still name"),
        ("    if path.is_symlink() or path.is_file():\n", "    if path.is_file():\n",
         f"{FORMAT_EDGE}: a rewind leaves in place a symbolic link the turn made (to a folder, or dangling)"),
    ),
    "narnat_agent/checkpoints/git_store.py": _later(
        ("return path[len(OUTSIDE) :] if", "return path[len(OUTSIDE) + 1 :] if",
         f"{OFF_BY_ONE}: a file outside the project is named without its leading slash, as if a project file"),
        ("            kept = sorted(self.existing(keep))\n", "            kept = sorted(keep)\n",
         f"{STEP_MISSED}: a conversation naming a snapshot already pruned makes every prune fail: the store grows"),
        ('                meta, path = record.split("\\t", 1)\n', '                meta, path = record.split("\\t")\n',
         f"{FORMAT_EDGE}: a snapshot holding a file with a tab in its name cannot be listed: rewind and /diff fail"),
    ),
    "narnat_agent/commands/rewind.py": _later(
        ("    if change.before is None:\n", "    if not change.before:\n",
         f"{FORMAT_EDGE}: /diff says an empty file that a turn filled was created"),
        ("    agent.workspace.restored([agent.workspace.root / path for path in restored])\n"
         "    if restored and not conversation:",
         "    if restored and not conversation:",
         f"{STEP_MISSED}: after a rewind the model's earlier Read of a restored file still counts: Edit goes on stale"),
        ("    if len(line) <= LONG_LINE:\n", "    if len(line) < LONG_LINE:\n",
         f"{OFF_BY_ONE}: /diff cuts a line of exactly the limit and says '… 0 more characters'"),
    ),
    "narnat_agent/tools/workspace.py": _later(
        ("            close = [p for p in near if p.exists()] + close", "            close = near + close",
         f"{STEP_MISSED}: a path through a mistyped folder is offered near names that do not exist either"),
        ("(beside := self.cwd / path.relative_to(self.root))", "(beside := self.root / path.relative_to(self.root))",
         f"{WRONG_SETTING}: a file beside Bash's directory is not offered for a path missing at the root"),
        ("(p for p in (path, *path.parents) if p.is_symlink()", "(p for p in path.parents if p.is_symlink()",
         f"{OFF_BY_ONE}: a path that is itself a link to nothing is said not to exist, the link not named"),
    ),
    "narnat_agent/tools/bash/execute.py": _later(
        ('os.pathsep.join([str(programs), env["PATH"]])', 'os.pathsep.join([env["PATH"], str(programs)])',
         f"{WRONG_ORDER}: the project's virtualenv goes last on PATH: python and pip are the system's"),
        ("env=env, stdin=subprocess.DEVNULL,", "env=env,",
         f"{STEP_MISSED}: a command that reads its input (cat, read) waits on Narnat's own until the timeout"),
        ("    elif not partial:\n        spill.unlink(missing_ok=True)\n",
         "    else:\n        spill.unlink(missing_ok=True)\n",
         f"{INVERTED}: a short output whose middle was left out names a spill file for Read that was deleted"),
    ),
    "narnat_agent/tools/bash/__init__.py": _later(
        ("targets = [ws.cwd / os.path.expanduser(path)", "targets = [ws.root / os.path.expanduser(path)",
         f"{WRONG_SETTING}: after a cd, the question before a deletion says what /undo keeps of the wrong files"),
        ("benign = code == 1 and bool(stages)", "benign = bool(stages)",
         f"{STEP_MISSED}: grep failing with exit 2 (a missing file, a bad pattern) is said to be no match, no error"),
        ("zip(stages[:-1], pipeline, strict=False), 1)", "zip(stages[:-1], pipeline, strict=False))",
         f"{OFF_BY_ONE}: a failed pipeline stage is named by a number one too low (stage 0)"),
    ),
    "narnat_agent/tools/web/fetch.py": _later(
        ("len(best) >= min(500, len(whole) // 4)", "len(best) >= max(500, len(whole) // 4)",
         f"{WRONG_SETTING}: a short article on a page full of menus comes back as the whole page"),
        ('if kind in ("text/html", "application/xhtml+xml", "")', 'if kind in ("text/html", "")',
         f"{FORMAT_EDGE}: an XHTML page comes back as raw markup, without its title"),
    ),
}  # fmt: skip
