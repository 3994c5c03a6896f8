"""Planted defects of the Bash tool, its processes, the checkpoints' journal, watcher and index, the web tools, the
workspace and the small modules under them, by a second writer who had not read their tests either: each is
`later`, and none repeats one of planted.py or planted_blind_bashweb.py."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND3_BASHWEB: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/keyguard.py": _later(
        ("files = [str(p) for p in hidden if p.is_file()]", "files = [str(p) for p in hidden]",
         f"{STEP_MISSED}: a key file that does not exist is covered too: its mount fails and every command exits 125"),
        ("if len(self.held) >= FEW:", "if len(self.held) > FEW:",
         f"{OFF_BY_ONE}: four held characters of the key's start are let go, and four of the key reach the screen"),
    ),
    "narnat_agent/tools/bash/__init__.py": _later(
        ("if verdict.interactive and not background:", "if verdict.interactive:",
         f"{INVERTED}: a program that wants a terminal is refused in the background too, where nothing waits for it"),
        ("    job = job or next((j for j in ws.jobs.started if not waited.group(1) and j.number == number), None)\n",
         "", f"{STEP_MISSED}: `wait 1` without the % finds no job, and the model is told there is none"),
        ('return stage[0].rsplit("/", 1)[-1] if stage and stage[0] else None',
         "return stage[0] if stage and stage[0] else None",
         f"{FORMAT_EDGE}: a stage `/usr/bin/grep` that finds nothing (exit 1) is said to have failed"),
    ),
    "narnat_agent/tools/bash/execute.py": _later(
        ("    def close(self) -> None:\n        self.file.write(self.held)\n",
         "    def close(self) -> None:\n        self.file.flush()\n",
         f"{STEP_MISSED}: the spill file loses the output's last characters that could have begun the key"),
        (r'last = lines - tail.count("\n") - (not tail.endswith("\n")) + within[1]',
         r'last = lines - tail.count("\n") - (not tail.endswith("\n"))',
         f"{OFF_BY_ONE}: when the last line is shown only in part, the omitted range ends a line too early"),
        (r'line.rsplit("\r", 1)[-1]', r'line.split("\r", 1)[-1]',
         f"{FORMAT_EDGE}: of a progress bar's redraws, the first is kept, not what was left on screen"),
    ),
    "narnat_agent/tools/bash/shells.py": _later(
        (r'__narnat_pipe="${{PIPESTATUS[*]}}" __narnat_status=$?\n{{ pwd -P;',
         r'__narnat_status=$?; __narnat_pipe="${{PIPESTATUS[*]}}"\n{{ pwd -P;',
         f"{WRONG_ORDER}: PIPESTATUS is read after $? was saved: a failed stage of a pipeline is never said"),
        ('        ("pwsh.exe", [_joined(env, "ProgramFiles", "PowerShell", "7")], POWERSHELL_7),\n'
         '        ("powershell.exe", [_joined(env, "SystemRoot", "System32", "WindowsPowerShell", "v1.0")], '
         "WINDOWS_POWERSHELL),\n",
         '        ("powershell.exe", [_joined(env, "SystemRoot", "System32", "WindowsPowerShell", "v1.0")], '
         "WINDOWS_POWERSHELL),\n"
         '        ("pwsh.exe", [_joined(env, "ProgramFiles", "PowerShell", "7")], POWERSHELL_7),\n',
         f"{WRONG_ORDER}: without Git Bash, Windows PowerShell 5.1 is taken though PowerShell 7 is installed"),
        ('            return Choice(BASH, N_("The shell setting is used on Windows only; the Bash tool runs bash '
         'here."))\n',
         "            return Choice(BASH)\n",
         f"{STEP_MISSED}: a shell setting on Linux or macOS is ignored without a word"),
    ),
    "narnat_agent/processes/jobs.py": _later(
        (r'characters before these]\n{text[-limit:]}"', r'characters before these]\n{text[:limit]}"',
         f"{WRONG_SETTING}: waiting for a job that printed much gives its oldest new output, not how it ended"),
        ('data = b"".join(self.tail)[-(TAIL // 2) :]', 'data = b"".join(self.tail)[: TAIL // 2]',
         f"{WRONG_SETTING}: a full log keeps the oldest half of its tail, not the job's newest output"),
        ("        if self.output.over:\n", "        if self.output.over and code >= 0:\n",
         f"{WRONG_ORDER}: a job Narnat stopped for its output is said to have been stopped by a signal"),
    ),
    "narnat_agent/processes/__init__.py": _later(
        ("        if threading.current_thread() is threading.main_thread():\n            self.previous",
         "        if True:\n            self.previous",
         f"{STEP_MISSED}: a command started off the main thread fails: signal only works in the main thread"),
        ("            self.previous(signal.SIGINT, None)", "            raise KeyboardInterrupt",
         f"{WRONG_SETTING}: a held Ctrl-C raises KeyboardInterrupt, though Narnat's own handler was the one set"),
    ),
    "narnat_agent/checkpoints/runs.py": _later(
        ("    except (ValueError, TypeError):\n        return None", "    except ValueError:\n        return None",
         f"{FORMAT_EDGE}: a journal line with a field a newer Narnat added is a traceback, not a line passed over"),
        ("if (w.before, w.after) not in ours and w.start < command.end", "if w.start < command.end",
         f"{INVERTED}: this conversation's own steps count as another run's: every rewind of a command asks"),
    ),
    "narnat_agent/checkpoints/watching.py": _later(
        ("            if not self._drain() <= covered:\n", "            if not covered <= self._drain():\n",
         f"{WRONG_ORDER}: a change beside the touched files during their snapshot counts as taken: the next "
         "snapshot trusts the old one"),
        ("if event.went or not name or name.rsplit", "if not name or name.rsplit",
         f"{STEP_MISSED}: a folder removed is updated by its name alone: its files stay in the next snapshot"),
    ),
    "narnat_agent/checkpoints/entries.py": _later(
        ("if isinstance(entry, Turn) else unkept_of(entry.tail)", "if isinstance(entry, Turn) else []",
         f"{STEP_MISSED}: the files a rewound turn could not keep go unnamed once a rewind holds that turn"),
        ('tuple(_is(u, str) for u in s.get("unkept", ()))', 'tuple(_is(u, str) for u in s["unkept"])',
         f"{FORMAT_EDGE}: a session saved before `unkept` existed reads as damaged, and its checkpoints are lost"),
    ),
    "narnat_agent/checkpoints/index.py": _later(
        ("if len(data) < 12 + TRAILER or not data.startswith(SIGNATURE):", "if len(data) < 12 + TRAILER:",
         f"{STEP_MISSED}: an index a crash left zero-filled has a zero checksum, and is taken as sound"),
        ("if (st.st_size, st.st_mtime_ns, st.st_ino) == self.known or",
         "if self.known is not None and st.st_size == self.known[0] or",
         f"{WRONG_SETTING}: an index rewritten or damaged at the same size is not checked again"),
    ),
    "narnat_agent/tools/web/fetch.py": _later(
        ('if not re.match(r"https?://", url, re.IGNORECASE):', 'if not re.match(r"https?://", url):',
         f"{FORMAT_EDGE}: HTTPS://host/page is fetched as https://HTTPS://host/page"),
        ('title = html.unescape(match.group(1)).strip() if match else ""',
         'title = match.group(1).strip() if match else ""',
         f"{STEP_MISSED}: a page's title is given with its entities (Tom &amp; Jerry)"),
    ),
    "narnat_agent/tools/web/search.py": _later(
        ("if len(unreached) == len(ENGINES):", "if unreached:",
         f"{INVERTED}: one engine out of reach, the others blocking, is said as a machine without the internet"),
        ('{"mkt": "zh-CN" if lr == "lang_zh-CN" else "en-US"}', '{"mkt": "zh-CN" if lr == "zh-CN" else "en-US"}',
         f"{FORMAT_EDGE}: a search in Chinese asks Bing's US market"),
        ("if response.status_code >= 300:", "if response.status_code >= 400:",
         f"{OFF_BY_ONE}: an engine answering with a redirect is parsed as a page: a changed layout, not its status"),
    ),
    "narnat_agent/tools/web/http.py": _later(
        ('return {"Accept-Language": LANGUAGES[lr]} if lr in LANGUAGES else {}',
         'return {"Accept-Language": LANGUAGES[lr]} if lr else {}',
         f"{INVERTED}: a language the list does not hold (lang_fr) ends the search in a KeyError"),
        ('NO_NETWORK = ("Network is unreachable", "No route to host")', 'NO_NETWORK = ("Network is unreachable",)',
         f"{FORMAT_EDGE}: `No route to host` is said as a failed connection, not as a machine without the network"),
    ),
    "narnat_agent/tools/web/article.py": _later(
        ('if c is not best and c["content_score"] >= CLOSE * best["content_score"]]',
         'if c is not best and c["content_score"] >= CLOSE]',
         f"{WRONG_SETTING}: a candidate scoring 0.75 counts as alike: an article's comments make the page its content"),
        ("if sum(parent in ancestors for ancestors in close) >= ALIKE:",
         "if any(parent in ancestors for ancestors in close):",
         f"{OFF_BY_ONE}: the nearest block holding one teaser alike is taken for the block of them all"),
    ),
    "narnat_agent/tools/workspace.py": _later(
        ("p = p if p.is_absolute() else self.root / p", "p = p if p.is_absolute() else self.cwd / p",
         f"{WRONG_SETTING}: relative paths start where Bash's cd went, not at the project root"),
        ("if all(any(a <= n <= b for a, b in seen) for n in range(first, first + old)):",
         "if any(any(a <= n <= b for a, b in seen) for n in range(first, first + old)):",
         f"{INVERTED}: lines an Edit inserted count as unseen, and those it wrote over a part seen count as seen"),
        ("real = os.path.realpath(path)\n", "real = os.path.abspath(path)\n",
         f"{STEP_MISSED}: a link in the project leading outside it is written through without asking"),
    ),
    "narnat_agent/state.py": _later(
        ('return user_folder(home) / "skills", project_folder(project) / "skills"',
         'return project_folder(project) / "skills", user_folder(home) / "skills"',
         f"{WRONG_ORDER}: the user's skill wins over the project's of the same name"),
        ("        if not current:\n", "        if not gitignore.exists():\n",
         f"{FORMAT_EDGE}: an empty .narnat/.gitignore (a full disk's leftover) stays empty: git sees the API key"),
    ),
    "narnat_agent/atomic.py": _later(
        ("    except BaseException:\n        Path(tmp).unlink", "    except Exception:\n        Path(tmp).unlink",
         f"{STEP_MISSED}: a Ctrl-C during a write leaves the temporary file beside the target"),
        ("        _overwrite(path, data)\n        if mode is not None:\n            set_mode(path, mode)\n",
         "        _overwrite(path, data)\n",
         f"{STEP_MISSED}: the mode asked for a file with other hard links is not given to it"),
    ),
    "narnat_agent/inert.py": _later(
        ("BIDI = (*range(0x202A, 0x202F),", "BIDI = (*range(0x202A, 0x202E),",
         f"{OFF_BY_ONE}: U+202E, the right-to-left override, reorders what follows on the screen"),
        ("(*range(0x7F, 0xA0), 0x2028, 0x2029, *BIDI)", "(*range(0x7F, 0xA0), *BIDI)",
         f"{STEP_MISSED}: JSON output keeps raw line separators, and a reader splitting lines cuts a record"),
    ),
}  # fmt: skip
