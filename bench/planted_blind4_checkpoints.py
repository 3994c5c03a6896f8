"""Planted defects of the checkpoints (the stores, the timeline, git, the plans, the runs' journal, the watcher, the
entries and the index), the compression and Edit's matching (the matcher, re-indentation, typography), written as a
tired developer would, by a fourth someone who had not read their tests: each is `later`. The package's __init__ only
names what the modules export: it has no behaviour to plant a defect in."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_MOMENT, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND4_CHECKPOINTS: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/checkpoints/store.py": _later(
        ('return None if rel == "." or rel.split("/", 1)[0] == ".narnat" else rel',
         'return None if rel == "." or rel.startswith(".narnat") else rel',
         f"{FORMAT_EDGE}: a project file whose name starts with .narnat (.narnatrc) is never kept in a checkpoint"),
        ("            if path.stem in keep or path.stat().st_mtime > old:\n",
         "            if path.stat().st_mtime > old:\n",
         f"{STEP_MISSED}: without git, a prune deletes this conversation's snapshots older than a week: no rewind"),
        ("return _entries(after) < _entries(before)", "return _entries(after) <= _entries(before)",
         f"{OFF_BY_ONE}: an ignored folder a command left as it was is said to have lost entries: /undo warns"),
    ),
    "narnat_agent/checkpoints/git_store.py": _later(
        ("counts = (None, None) if added == \"-\" else (int(added), int(removed))",
         "counts = (None, None) if added == \"-\" else (int(removed), int(added))",
         f"{WRONG_ORDER}: a turn's files show their added lines as removed and their removed lines as added"),
        ('"--directory", "--", *names,', '"--", *names,',
         f"{STEP_MISSED}: a question about deleting an ignored folder names every file in it, not the folder"),
        ("            everything, changed = True, None\n", "            everything = True\n",
         f"{STEP_MISSED}: a lost index is rebuilt from the files changed since alone: the snapshot lacks the rest"),
    ),
    "narnat_agent/checkpoints/timeline.py": _later(
        ("start = self.whole_began if reused and not standing else now", "start = now",
         f"{WRONG_MOMENT}: a command's step reusing the last snapshot begins at the command, not when the project "
         "was looked at: another run's work meanwhile is taken for its own"),
        ("        except (CheckpointError, OSError) as e:\n            self.broken = True\n",
         "        except CheckpointError as e:\n            self.broken = True\n",
         f"{STEP_MISSED}: a snapshot that meets a file-system error (a full disk) ends the turn with a traceback"),
        ("if began is None or (first and began > datetime.fromisoformat(first).timestamp()):",
         "if began is None or (first and began < datetime.fromisoformat(first).timestamp()):",
         f"{INVERTED}: checkpoints pruned from an old store are said to be gone with a deleted store, and the "
         "other way round"),
    ),
    "narnat_agent/checkpoints/git.py": _later(
        ('"add.ignoreErrors": "true",', '"add.ignoreErrors": "false",',
         f"{WRONG_SETTING}: one unreadable file in the project turns checkpoints off for the run"),
        ("env=self.env | (env or {}),", "env=(env or {}) | self.env,",
         f"{WRONG_ORDER}: a caller's variables lose to the store's: a nested repository's files are staged from the "
         "project's top"),
    ),
    "narnat_agent/checkpoints/plans.py": _later(
        ("    changes = [c for c in changes if c.path not in taken.unkept]\n", "",
         f"{STEP_MISSED}: a file the person made a folder, or too large to keep, is restored over all the same"),
        ("if c.path in others and c.path not in conflicts)", "if c.path in others)",
         f"{STEP_MISSED}: a file someone changed since is named twice, as changed and as another run's"),
    ),
    "narnat_agent/checkpoints/runs.py": _later(
        ("for command in (w for w in windows if w.command and (w.before, w.after) in wanted):",
         "for command in (w for w in windows if (w.before, w.after) in wanted):",
         f"{STEP_MISSED}: an Edit that ran beside another run's step is doubted as a command is: the rewind asks"),
        ("found |= changed & set(store.changed(other.before, other.after))",
         "found |= changed",
         f"{STEP_MISSED}: every file of a command is taken for another run's when that run changed any file "
         "meanwhile"),
    ),
    "narnat_agent/checkpoints/watching.py": _later(
        ("if not entry.is_dir(follow_symlinks=False):", "if not entry.is_dir():",
         f"{FORMAT_EDGE}: a symbolic link to a folder is walked into and watched: one to a folder above loops"),
        ('            self.lost, self.changed = True, None\n', "            self.lost = True\n",
         f"{STEP_MISSED}: after events were lost, a whole snapshot updates only the names seen before: it misses "
         "the rest"),
    ),
    "narnat_agent/checkpoints/entries.py": _later(
        ("        else:  # a rewind of the conversation alone left the code of its turns in place\n"
         "            steps += steps_of(entry.tail)\n", "",
         f"{STEP_MISSED}: after a rewind of the conversation alone, its turns' code changes are forgotten: a "
         "later /rewind leaves them"),
        ("ids |= {i for s in entry.steps for i in (s.before, s.after)}",
         "ids |= {s.before for s in entry.steps}",
         f"{STEP_MISSED}: a prune keeps only the snapshots before each step: a week later the turns cannot be "
         "rewound"),
    ),
    "narnat_agent/checkpoints/index.py": _later(
        ("if (st.st_size, st.st_mtime_ns, st.st_ino) == self.known or _intact(self.path):",
         "if self.known is not None or _intact(self.path):",
         f"{WRONG_MOMENT}: an index found sound once is never checked again: one another run cut short is built on"),
    ),
    "narnat_agent/conversation/compressor.py": _later(
        ("chosen = remaining[: max(1, len(remaining) // 4)]", "chosen = remaining[: len(remaining) // 4]",
         f"{OFF_BY_ONE}: with fewer than four tool outputs, none is left out: a summary request too long fails"),
        ("successor.checkpoints, successor.cost = old.checkpoints, old.cost",
         "successor.cost = old.cost",
         f"{STEP_MISSED}: after a compression, the turns before it can no longer be rewound"),
    ),
    "narnat_agent/tools/edit/matcher.py": _later(
        ('if old.endswith("\\n") and new.endswith("\\n"):', 'if old.endswith("\\n") or new.endswith("\\n"):',
         f"{WRONG_SETTING}: new_string without a final newline loses its last character in the trailing newline "
         "step"),
        ("plain_old, plain_new = (ESCAPE.sub(lambda m: UNESCAPED[m.group(1)], s) for s in (old, new))",
         "plain_old, plain_new = ESCAPE.sub(lambda m: UNESCAPED[m.group(1)], old), new",
         f"{STEP_MISSED}: after an escapes match, new_string's \\n is written into the file as two characters"),
        ('_lines_in(replacement, gone.endswith("\\n"))', "_lines_in(replacement)",
         f"{FORMAT_EDGE}: whole lines deleted are said to leave one line in their place"),
    ),
    "narnat_agent/tools/edit/reindent.py": _later(
        ("for unit in (4, 2, 8):", "for unit in (2, 4, 8):",
         f"{WRONG_ORDER}: a block one level deep, four spaces to a tab, is converted as two spaces to a tab"),
        ("        body = line.lstrip(src)\n", "        body = line.lstrip()\n",
         f"{FORMAT_EDGE}: a tab-indented line with aligning spaces after its tabs gets a whole level per space"),
    ),
    "narnat_agent/tools/edit/typography.py": _later(
        ('"‘": "\'", "’": "\'", ', '"‘": "\'", ',
         f"{FORMAT_EDGE}: a file's typographic apostrophe (don’t) is not matched by a typed one"),
        ("    cut_after = end < len(origin) and origin[end - 1] == origin[end]\n"
         "    return not (cut_before or cut_after)",
         "    return not cut_before",
         f"{STEP_MISSED}: a `—` new_string shortens to `-` stays `—` in the file"),
    ),
}  # fmt: skip
