"""Planted defects of the Bash tool, its processes, the checkpoints' journal, watcher and index, the web tools, the
workspace and the small modules under them (the key's guard, the state folder, atomic writes, inert text), written
from the modules alone, without reading their tests: each is `later`."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_MOMENT, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND_BASHWEB: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/keyguard.py": _later(
        ("text.replace(secret, mark)", "text.replace(secret, mark, 1)",
         f"{STEP_MISSED}: a text holding the key twice shows it the second time"),
        ("if not files and (namespaced := _namespace_argv()):", "if (namespaced := _namespace_argv()):",
         f"{WRONG_SETTING}: a command runs in the light namespace though a key file needs covering: it reads the key"),
        ("        text = text[len(os.path.commonprefix([text, self.shown])) :]"
         "  # from where the key began, if it did\n",
         "", f"{STEP_MISSED}: the few characters a stream let go of are shown a second time when it goes on"),
    ),
    "narnat_agent/tools/bash/__init__.py": _later(
        ("    if not ws.cwd.is_dir():\n        ws.cwd = ws.root\n", "",
         f"{STEP_MISSED}: once the folder Bash had moved into is deleted, every later command fails to start"),
        ("failed = ended and job.process.returncode != 0", "failed = job.process.returncode != 0",
         f"{STEP_MISSED}: `wait %1` on a job still running says the job failed"),
        ('_wait(waited, ws, min(args.get("timeout") or ws.bash_timeout_ms', "_wait(waited, ws, min(ws.bash_timeout_ms",
         f"{WRONG_SETTING}: `wait %1` ignores the timeout the model gave and waits the default two minutes"),
    ),
    "narnat_agent/tools/bash/execute.py": _later(
        (r'without_escapes(text).replace("\r\n", "\n")', "without_escapes(text)",
         f"{FORMAT_EDGE}: every line a command ends with CRLF is shown empty"),
        ("if k not in KEY_VARIABLES and v not in secrets}", "if k not in KEY_VARIABLES}",
         f"{STEP_MISSED}: the API key under another variable's name reaches the command's environment"),
        (r'self.last = bytearray(), 0, 0, 0, b"\n"', 'self.last = bytearray(), 0, 0, 0, b""',
         f"{FORMAT_EDGE}: a command that prints nothing is said to have printed one line"),
    ),
    "narnat_agent/tools/bash/shells.py": _later(
        ("c * 2 if c in SINGLE_QUOTES else c", "c * 2 if c == \"'\" else c",
         f"{FORMAT_EDGE}: a path holding a typographic quote (’) ends PowerShell's string early"),
        ("folder = folder.strip().strip('\"')", "folder = folder.strip()",
         f"{FORMAT_EDGE}: a PATH entry written in double quotes is never searched for bash.exe or git.exe"),
        ("return f\"{drive[1].upper()}:{reported[2:] or '/'}\"", 'return f"{drive[1].upper()}:{reported[2:]}"',
         f"{FORMAT_EDGE}: a command ending at a drive's root (/c) leaves Bash in `C:`, the drive's current folder"),
    ),
    "narnat_agent/processes/jobs.py": _later(
        ("gap = self.total - HEAD - len(data)", "gap = self.total - len(data)",
         f"{OFF_BY_ONE}: the log's gap line counts the first MB it kept as left out"),
        ("                log.truncate()\n", "",
         f"{STEP_MISSED}: a log whose tail was cut keeps the old longer tail's end after the new one"),
        ("        running = self.running()\n        for job in self.started:\n            self.stop(job)\n",
         "        for job in self.started:\n            self.stop(job)\n        running = self.running()\n",
         f"{WRONG_ORDER}: the jobs still running are counted after they were stopped: none is named at exit"),
    ),
    "narnat_agent/processes/__init__.py": _later(
        ("if self.caught and callable(self.previous):", "if self.caught:",
         f"{STEP_MISSED}: a Ctrl-C held while Ctrl-C is ignored (SIG_IGN) or default raises a TypeError"),
        ("threading.Thread(target=target, args=args, daemon=True)", "threading.Thread(target=target, args=args)",
         f"{STEP_MISSED}: a helper thread still reading a command's output keeps Narnat from exiting"),
    ),
    "narnat_agent/checkpoints/runs.py": _later(
        ("                found |= changed\n", "                continue\n",
         f"{INVERTED}: another run's step whose snapshots are gone counts as having changed nothing: no question"),
        ("            log.warning(\"the runs' journal cannot be read: %s\", e)\n            return None",
         "            log.warning(\"the runs' journal cannot be read: %s\", e)\n            return []",
         f"{WRONG_SETTING}: a journal that cannot be read is taken for no other run: a rewind restores unasked"),
        ("                os.lseek(fd, 0, os.SEEK_SET)\n", "",
         f"{STEP_MISSED}: a pruned journal begins with zero bytes, and its first kept step is lost"),
    ),
    "narnat_agent/checkpoints/watching.py": _later(
        ("                self._walk(folder)\n                self.changed, self.untaken = None, True\n",
         "                self._walk(folder)\n",
         f"{STEP_MISSED}: a file touched in a folder .gitignore names whole leaves the next snapshot trusting names"),
        ("            self._drain()\n            changed = self.changed\n",
         "            changed = self.changed\n            self._drain()\n",
         f"{WRONG_ORDER}: the changes since the last look are read after they were taken: the snapshot misses them"),
        ('if leaf in UNSEEN or leaf.startswith(TMP_PREFIX) or name == ".narnat":',
         "if leaf in UNSEEN or leaf.startswith(TMP_PREFIX):",
         f"{STEP_MISSED}: Narnat's own writes in .narnat/ count as project changes: no snapshot is ever still"),
    ),
    "narnat_agent/checkpoints/entries.py": _later(
        ("ids |= {i for i in (entry.before, entry.after) if i} | ids_of(entry.tail)",
         "ids |= {i for i in (entry.before, entry.after) if i}",
         f"{STEP_MISSED}: the snapshots of the turns a rewind took away are not counted as in use"),
        ('_is(e["messages"], int, type(None))', '_is(e["messages"], int)',
         f"{FORMAT_EDGE}: a turn whose messages compression dropped (null) makes the session read as damaged"),
        ("except (KeyError, TypeError, ValueError, AttributeError):", "except (KeyError, TypeError, ValueError):",
         f"{STEP_MISSED}: a session whose entry is a string, not an object, is a traceback, not damaged"),
    ),
    "narnat_agent/checkpoints/index.py": _later(
        ("            return fresh", "            return True",
         f"{WRONG_SETTING}: an index deleted from an existing store is taken as sound: a snapshot builds on nothing"),
        ("hashlib.sha1(data[:-TRAILER])", "hashlib.sha1(data[12:-TRAILER])",
         f"{WRONG_MOMENT}: the checksum is counted from after the header: every index git wrote reads as damaged"),
    ),
    "narnat_agent/tools/web/fetch.py": _later(
        ('"application/xhtml+xml", "") and', '"application/xhtml+xml") and',
         f"{FORMAT_EDGE}: a page served without a Content-Type comes back as raw HTML"),
        (r'text, note = text[:MAX_CHARS], f"\n\n[Cut at {MAX_CHARS:,} of {len(text):,} characters.]"',
         'text = text[:MAX_CHARS]\n        note = f"\\n\\n[Cut at {MAX_CHARS:,} of {len(text):,} characters.]"',
         f"{WRONG_ORDER}: a cut page says it was cut at 100,000 of 100,000 characters"),
        ("if response.status_code >= 400:", "if response.status_code > 400:",
         f"{OFF_BY_ONE}: an HTTP 400 page is returned as the content"),
    ),
    "narnat_agent/tools/web/search.py": _later(
        ('items = [i for i in soup.select("#links > div.web-result") if "result--ad" not in i.get("class", [])]',
         'items = soup.select("#links > div.web-result")',
         f"{STEP_MISSED}: DuckDuckGo's ads are given as results"),
        ("range(max(len(run) - 1, 1))", "range(len(run) - 1)",
         f"{OFF_BY_ONE}: a one-character Chinese query takes any results as related"),
        ('CJK.sub(" ", query.lower())', 'CJK.sub(" ", query)',
         f"{FORMAT_EDGE}: a query with a capital letter finds every engine's results unrelated"),
    ),
    "narnat_agent/tools/web/http.py": _later(
        ("    s.max_redirects = MAX_REDIRECTS\n", "",
         f"{STEP_MISSED}: a page redirecting in a loop is followed 30 times, not 10"),
        ('if "Connection refused" in text:', 'if "connection refused" in text:',
         f"{FORMAT_EDGE}: a refused connection is said as a machine that may not reach the internet"),
    ),
    "narnat_agent/tools/web/article.py": _later(
        ('key=lambda c: c["content_score"], reverse=True)[:TOP]', 'key=lambda c: c["content_score"])[:TOP]',
         f"{INVERTED}: the lowest-scored candidates are compared with the best: a page of teasers keeps one"),
        ("if sum(parent in ancestors for ancestors in close) >= ALIKE:",
         "if sum(parent in ancestors for ancestors in close) > ALIKE:",
         f"{OFF_BY_ONE}: four teasers alike under one block keep only the best one"),
    ),
    "narnat_agent/state.py": _later(
        ("spills/\njobs/\n", "jobs/\n",
         f"{STEP_MISSED}: long command output in .narnat/spills/ is not ignored, and `git add -A` commits it"),
        (r'(current.rstrip("\n") + "\n.gitignore\n")', r'(current + ".gitignore\n")',
         f"{FORMAT_EDGE}: an older .gitignore without a final newline gets `last_session_summary.md.gitignore`"),
        ("return user_folder(home) / CONFIG, project_folder(project) / CONFIG",
         "return project_folder(project) / CONFIG, user_folder(home) / CONFIG",
         f"{WRONG_ORDER}: the user's settings win over the project's"),
    ),
    "narnat_agent/tools/workspace.py": _later(
        ("native(path.strip())", "native(path)",
         f"{FORMAT_EDGE}: a path given with a trailing space or newline is said not to exist"),
        ("        self.tool_state.set_aside = {path: record for path in paths"
         " if (record := self.reads.pop(path, None))}\n"
         "        self.reads.update({path: then[path] for path in paths if path in then})\n",
         "        self.reads.update({path: then[path] for path in paths if path in then})\n"
         "        self.tool_state.set_aside = {path: record for path in paths"
         " if (record := self.reads.pop(path, None))}\n",
         f"{WRONG_ORDER}: a rewind sets aside what the model knew back then, and forgets it: Edit asks for a Read"),
        ("FileRecord(sha, whole, () if whole else seen, codec)", "FileRecord(sha, whole, () if whole else seen)",
         f"{STEP_MISSED}: a file read in Latin-1 is recorded as read in UTF-8, and written back in UTF-8"),
    ),
    "narnat_agent/atomic.py": _later(
        ("path = Path(os.path.realpath(path))", "path = Path(path)",
         f"{STEP_MISSED}: writing through a symbolic link replaces the link with a file"),
        ("        f.truncate()\n", "",
         f"{STEP_MISSED}: a hard-linked file written shorter keeps the end of its old content"),
    ),
    "narnat_agent/inert.py": _later(
        (r"\x1b\[[0-?]*[ -/]*[@-~]", r"\x1b\[[0-9;]*[@-~]",
         f"{FORMAT_EDGE}: a private-mode sequence (ESC[?25l hides the cursor) stays in the model's text"),
        (r'if chr(code) not in "\n\t"', r'if chr(code) not in "\n\t\r"',
         f"{FORMAT_EDGE}: a lone carriage return reaches the terminal, and the text after it hides the line's start"),
    ),
}  # fmt: skip
