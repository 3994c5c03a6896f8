"""Planted defects of keyguard, the Bash tool and its shells, the web tools, the workspace and the small modules under
them (state, atomic writes, inert text, encodable text, the log, the settings' loader, i18n), by a fourth writer who
had not read their tests either: each is `later`, and none repeats one of planted.py or the earlier blind files."""

from defects import FORMAT_EDGE, OFF_BY_ONE, STEP_MISSED, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND4_BASHWEB: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/keyguard.py": _later(
        ("        text = text[len(os.path.commonprefix([text, self.shown])) :]",
         "        text = text[len(self.shown) :]",
         f"{STEP_MISSED}: when the few characters let go began the key, the marker is shown cut (`I key]`)"),
        ('        self.shown, self.held = self.held, ""\n        return self.shown\n',
         '        held, self.held = self.held, ""\n        return held\n',
         f"{STEP_MISSED}: what was let go is not remembered: the rest of the key, streamed after it, reaches the "
         "screen"),
    ),
    "narnat_agent/tools/bash/__init__.py": _later(
        ("    if verdict.file_ops and by_model:\n", "    if verdict.file_ops:\n",
         f"{WRONG_SETTING}: a goal's check the person named (`cat out.txt`) is refused as the model's file operation"),
        ("    return _result(command, finished, timeout_ms, notes + ws.jobs.news())",
         "    return _result(command, finished, timeout_ms, notes)",
         f"{STEP_MISSED}: a background job that ended is never said in the next Bash result"),
    ),
    "narnat_agent/tools/bash/execute.py": _later(
        ("        self.path.unlink(missing_ok=True)\n", "",
         f"{STEP_MISSED}: a disk that fills during a command leaves a spill file holding part of the output, "
         "named nowhere"),
        ('if os.path.normcase(os.path.realpath(d)) != scripts]', "if d != scripts]",
         f"{FORMAT_EDGE}: Narnat's own bin/ on PATH with a final slash stays: a command runs Narnat's python and pip"),
        ("        if output.thread.is_alive():  # a background child still holds the pipe\n"
         "            _stop(process, output)\n", "",
         f"{STEP_MISSED}: a child a command left running (`server &`) outlives the call, holding its output"),
    ),
    "narnat_agent/tools/bash/shells.py": _later(
        ('    names = [setting] if setting.lower().endswith(".exe") else [setting, setting + ".exe"]',
         "    names = [setting]",
         f"{FORMAT_EDGE}: a shell setting `pwsh`, without .exe, is not found on PATH"),
        ("WINDOWS_BASH_TRAILER.format(after=shlex.quote(after.as_posix()))",
         "WINDOWS_BASH_TRAILER.format(after=after.as_posix())",
         f"{FORMAT_EDGE}: on Windows, a temporary folder with a space (C:/Users/Ann Lee) loses where Git Bash's "
         "command ended and its pipeline's statuses"),
        ('        old = "; it has no && or ||" if self.name == WINDOWS_POWERSHELL else ""',
         '        old = "; it has no && or ||" if self.name == POWERSHELL_7 else ""',
         f"{WRONG_SETTING}: the model is told PowerShell 7 has no && and Windows PowerShell 5.1 has it"),
    ),
    "narnat_agent/tools/web/fetch.py": _later(
        ("            except (LookupError, UnicodeDecodeError):\n", "            except LookupError:\n",
         f"{FORMAT_EDGE}: a page whose header says UTF-8 but holds Latin-1 is an error, not read"),
        ("    except requests.exceptions.Timeout:\n", "    except requests.exceptions.ReadTimeout:\n",
         f"{FORMAT_EDGE}: a server that never accepts the connection (a connect timeout) is said as a machine "
         "without the internet"),
    ),
    "narnat_agent/tools/web/search.py": _later(
        ('hits.append(Hit(_text(link), item.get("mu") or link["href"], _text(snippet)))',
         'hits.append(Hit(_text(link), link["href"], _text(snippet)))',
         f"{STEP_MISSED}: Baidu's own address of a result (mu) is ignored: its /link redirect is given instead"),
        ('        if link is None or link.get("href", "").startswith("https://www.bing.com/aclick"):\n',
         "        if link is None:\n",
         f"{STEP_MISSED}: Bing's ads are given as results"),
    ),
    "narnat_agent/tools/web/http.py": _later(
        ("error, (requests.exceptions.SSLError, requests.exceptions.ProxyError)",
         "error, requests.exceptions.SSLError",
         f"{STEP_MISSED}: a proxy that fails is said as a machine without the internet"),
        ("if not isinstance(error, requests.exceptions.ConnectionError)",
         "if not isinstance(error, requests.exceptions.RequestException)",
         f"{WRONG_SETTING}: engines that all answer too slowly are said as a machine without the internet"),
    ),
    "narnat_agent/tools/web/article.py": _later(
        ('        close = [set(c["elem"].iterancestors()) for c in ranked',
         '        close = [{c["elem"].getparent()} for c in ranked',
         f"{FORMAT_EDGE}: teasers two levels under their common block are never grouped: a section front keeps one"),
        ("                candidates.setdefault(parent, self.score_node(parent))",
         "                candidates[parent] = self.score_node(parent)",
         f"{WRONG_SETTING}: the block of teasers loses the score its teasers gave it: weak siblings join the content"),
    ),
    "narnat_agent/tools/workspace.py": _later(
        ("        p = Path(os.path.expanduser(native(path.strip())))",
         "        p = Path(native(path.strip()))",
         f"{STEP_MISSED}: ~/notes.md is taken as a folder named ~ in the project"),
        ("            out.append((first + shift, first + shift + new - 1))",
         "            out.append((first + shift, first + shift + new))",
         f"{OFF_BY_ONE}: after an Edit of lines seen, the line after what it wrote counts as seen"),
        ("lambda m: chr(0xDC00 + int(m[1], 16))", "lambda m: chr(int(m[1], 16))",
         f"{FORMAT_EDGE}: caf\\xe9.py, as Narnat showed a name that is not UTF-8, is not found again"),
    ),
    "narnat_agent/state.py": _later(
        ("        folder.mkdir(parents=True, exist_ok=True)\n        with tempfile",
         "        folder.mkdir(exist_ok=True)\n        with tempfile",
         f"{STEP_MISSED}: a per-user folder whose parents do not exist yet (a new home) is said to be unwritable"),
        ('        elif current.startswith(GITIGNORE_HEADER) and ".gitignore" not in current.split():',
         '        elif ".gitignore" not in current.split():',
         f"{STEP_MISSED}: a .narnat/.gitignore the person wrote gets Narnat's line added to it"),
    ),
    "narnat_agent/atomic.py": _later(
        ("    path.parent.mkdir(parents=True, exist_ok=True)\n", "    path.parent.mkdir(exist_ok=True)\n",
         f"{STEP_MISSED}: a file written two new folders deep fails"),
        ('pid = name[len(TMP_PREFIX) :].split("-", 1)[0]', 'pid = name[len(TMP_PREFIX) :].split("-", 1)[-1]',
         f"{OFF_BY_ONE}: a killed writer's temporary file is never removed: its random part is read as the pid"),
    ),
    "narnat_agent/inert.py": _later(
        (r"\x1b\][^\x07\x1b]*(?:", r"\x1b\][^\x07]*(?:",
         f"{FORMAT_EDGE}: the text between two title sequences ended by ST is removed with them"),
        (r"[ -/]*[@-~]|", r"[ -/]*[A-Za-z]|",
         f"{FORMAT_EDGE}: a sequence ending in ~ (ESC[200~, a pasted text's mark) stays in the model's text"),
    ),
    "narnat_agent/encodable.py": _later(
        ("        return {encodable_data(key): encodable_data(item) for key, item in value.items()}",
         "        return {encodable_data(key): item for key, item in value.items()}",
         f"{STEP_MISSED}: a message's content holding a name not UTF-8 is kept raw: the session cannot be saved"),
        ("        return [encodable_data(item) for item in value]",
         "        return [encodable(item) if isinstance(item, str) else item for item in value]",
         f"{STEP_MISSED}: the strings of the dicts inside a list (the messages) are not made encodable"),
    ),
    "narnat_agent/logger.py": _later(
        ("    root.setLevel(logging.INFO)\n", "",
         f"{STEP_MISSED}: the log keeps only warnings: what was logged as information is lost"),
        ("    with contextlib.suppress(OSError):  # then the first line fails to open the file, and says so once\n"
         "        path.parent.mkdir(parents=True, exist_ok=True)\n",
         "    path.parent.mkdir(parents=True, exist_ok=True)\n",
         f"{STEP_MISSED}: a logs folder that cannot be made stops Narnat at start with a traceback"),
    ),
    "narnat_agent/config/loader.py": _later(
        ("        if value:\n            settings[key] = value\n",
         "        if value is not None:\n            settings[key] = value\n",
         f"{FORMAT_EDGE}: an empty NARNAT_MODEL= in the environment overrides the settings file's model"),
        ("    existing = _object(path)  # every key kept", "    existing = _read_file(path, [])  # every key kept",
         f"{WRONG_SETTING}: the setup's save drops the keys it does not know (a misspelt one the person would fix)"),
    ),
    "narnat_agent/i18n.py": _later(
        ("        if value := env.get(name):\n", "        if (value := env.get(name)) is not None:\n",
         f"{FORMAT_EDGE}: an empty LC_ALL decides: LANG=zh_CN.UTF-8 beside it speaks English"),
        ("    for item in reversed(items[:-1]):\n", "    for item in items[:-1]:\n",
         f"{WRONG_ORDER}: three reasons are listed out of order (the second first)"),
    ),
}  # fmt: skip
