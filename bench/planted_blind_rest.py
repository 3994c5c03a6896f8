"""Planted defects of the rest (the slash commands, the editor protocol, the prompts, the settings, the platform seams,
the language, the log and the encodable text), written after their tests, as a tired developer would, without reading
those tests: each is `later`."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_MOMENT, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND_REST: dict[str, tuple[Defect, ...]] = {
    # commands
    "narnat_agent/commands/rewind.py": _later(
        ('if not path.strip() and (lines.count("\\n") >= LONG_DIFF or change.path.rsplit("/", 1)[-1] in LOCKFILES):',
         'if lines.count("\\n") >= LONG_DIFF or change.path.rsplit("/", 1)[-1] in LOCKFILES:',
         f"{STEP_MISSED}: /diff N package-lock.json, the file asked for by name, still says it is not shown"),
        ("if len(paths) > SHOWN else shown", "if len(paths) >= SHOWN else shown",
         f"{OFF_BY_ONE}: a restore of exactly six files says 'and 0 more'"),
        ('agent.ui.give_back(turn.question.split("\\n\\n<system-reminder>", 1)[0])',
         "agent.ui.give_back(turn.question)",
         f"{STEP_MISSED}: the question a rewind gives back to edit carries the reminders Narnat added to it"),
    ),
    "narnat_agent/commands/dispatch.py": _later(
        ("except (SessionError, CheckpointError, LLMError, GoalRefused) as e:",
         "except (SessionError, CheckpointError, LLMError) as e:",
         f"{STEP_MISSED}: a /goal refused (no --until, plan mode on) escapes the command, not said in its sentence"),
        ("difflib.get_close_matches(name, [*REGISTRY, *user], n=1, cutoff=0.5)",
         "difflib.get_close_matches(name, list(REGISTRY), n=1, cutoff=0.5)",
         f"{WRONG_SETTING}: a misspelt command of one's own (/reveiw) is not offered as /review"),
        ("return user[name].question(arg.strip())", "return user[name].question(arg)",
         f"{FORMAT_EDGE}: the spaces typed around a command's arguments stay in the question"),
    ),
    "narnat_agent/commands/sessions.py": _later(
        ("last = {role: text for role, text in said}", "last = {role: text for role, text in reversed(said)}",
         f"{WRONG_MOMENT}: /enter's recap shows the conversation's first question and answer, not where it stopped"),
        ('text = " ".join(last[role].split("<system-reminder>", 1)[0].split())', 'text = " ".join(last[role].split())',
         f"{STEP_MISSED}: /enter's recap of the last question shows the reminders Narnat added to it"),
        ("    if exists:\n        store.claim(agent.config.state_dir, name)\n", "",
         f"{STEP_MISSED}: /save over another session, overwrite confirmed, saves beside it as NAME-2"),
    ),
    "narnat_agent/commands/conversation.py": _later(
        ("agent.ui.notice(switched.format(name=arg, turn=agent.model_from, current=current))",
         "agent.ui.notice(switched.format(name=arg, turn=agent.model_from, current=agent.client.model))",
         f"{WRONG_MOMENT}: /model says the model it was is the one it switched to"),
        ("sorted(window.items, reverse=True)[:LARGEST]", "sorted(window.items)[-LARGEST:]",
         f"{WRONG_ORDER}: /context lists its largest items smallest first"),
        ("total = max(1, sum(window.parts.values()))", "total = max(1, window.sent)",
         f"{WRONG_SETTING}: /context's shares are of the last request, not of what the window holds now"),
    ),
    "narnat_agent/commands/custom.py": _later(
        ("text = redact(body.strip(), secret)", "text = body.strip()",
         f"{STEP_MISSED}: the key written in a command file is sent to the model in the question"),
        ("if not isinstance(description, str) or not description.strip():", "if not description:",
         f"{FORMAT_EDGE}: a description of spaces gives a blank help line, a number one ends the start in a traceback"),
        ('return f"{self.text}\\n\\n{arguments}" if arguments else self.text', 'return f"{self.text}\\n\\n{arguments}"',
         f"{FORMAT_EDGE}: a command sent without arguments ends its question with two empty lines"),
    ),
    "narnat_agent/commands/modes.py": _later(
        ("    if not agent.planning:\n        agent.plan_mode(True)\n"
         '        agent.ui.notice(_("Plan mode on: Edit, Write and commands that would change something are refused. '
         '/go "\n                          "carries the plan out; Shift-Tab or /plan leaves."))  # fmt: skip\n'
         "    if arg:\n        agent.ask(arg)\n",
         "    if arg:\n        agent.ask(arg)\n    if not agent.planning:\n        agent.plan_mode(True)\n"
         '        agent.ui.notice(_("Plan mode on: Edit, Write and commands that would change something are refused. '
         '/go "\n                          "carries the plan out; Shift-Tab or /plan leaves."))  # fmt: skip\n',
         f"{WRONG_ORDER}: /plan QUESTION asks before plan mode is on, so the question may change files"),
        ('    agent.plan_mode(False, approved=True)\n    agent.ask(arg or "Go ahead: carry out the plan.")\n',
         '    agent.ask(arg or "Go ahead: carry out the plan.")\n    agent.plan_mode(False, approved=True)\n',
         f"{WRONG_ORDER}: /go carries the plan out still in plan mode, where its edits are refused"),
    ),
    # acp
    # written blind and dropped: leaving out _answer's answer_open_calls() after a cancel changes nothing a run can
    # reach (a turn answers its own open calls in its finally; a cancel that reaches _answer lands outside a turn)
    "narnat_agent/acp/server.py": _later(
        ('Stop.STEP_LIMIT: "max_turn_requests",\n                Stop.CUT_OFF: "max_tokens"}',
         'Stop.STEP_LIMIT: "max_turn_requests"}',
         f"{STEP_MISSED}: an answer cut off at the provider's token limit is reported to the editor as a turn ended"),
        ("        text = question(prompt, opened.agent.workspace.root)\n        self.busy = opened\n",
         "        self.busy = opened\n        text = question(prompt, opened.agent.workspace.root)\n",
         f"{WRONG_ORDER}: after a prompt refused for its content (a picture), every prompt is refused as one running"),
    ),
    "narnat_agent/acp/sessions.py": _later(
        ('return f" @{path.relative_to(root) if path.is_relative_to(root) else path} "',
         'return f" @{path.relative_to(root)} "',
         f"{STEP_MISSED}: a file attached from outside the project fails the whole prompt"),
        ("    settings.secrets.add(config.api_key)\n", "",
         f"{STEP_MISSED}: the key of a session's settings is not masked in what the protocol writes"),
        ('f"{agent.session.name}-{len(taken) + 1}"', 'f"{agent.session.name}-{len(taken)}"',
         f"{OFF_BY_ONE}: the third session opened in the same second takes the second's name"),
    ),
    "narnat_agent/acp/ui.py": _later(
        ('cell.replace("|", "\\\\|")', "cell",
         f"{FORMAT_EDGE}: a '|' in a cell (a command with a pipe in /jobs) splits the editor's table"),
        ("return bool(fs and fs.read_text_file and fs.write_text_file)", "return bool(fs and fs.read_text_file)",
         f"{WRONG_SETTING}: an editor that gives its buffers but cannot take them back is used to write files"),
        ("return isinstance(outcome, AllowedOutcome) and outcome.option_id == ALLOW",
         "return isinstance(outcome, AllowedOutcome)",
         f"{INVERTED}: choosing 'Do not run it' in the editor runs the command"),
    ),
    "narnat_agent/acp/calls.py": _later(
        ("bool(changes and path and path.exists())", "bool(changes and path)",
         f"{STEP_MISSED}: a file Write creates is shown as the tool's text, not as a diff from nothing"),
        ('return data.decode("utf-8", "replace")', 'return data.decode("utf-8")',
         f"{FORMAT_EDGE}: an Edit of a Latin-1 file ends in an error instead of its diff"),
    ),
    "narnat_agent/acp/wire.py": _later(
        ('line.encode("utf-8", "backslashreplace")', 'line.encode("utf-8")',
         f"{FORMAT_EDGE}: a file name that is not UTF-8 in a message ends the connection"),
        ('await self._refuse(message.get("id") if isinstance(message, dict) else None, problem)',
         "await self._refuse(None, problem)",
         f"{STEP_MISSED}: a request refused as no JSON-RPC 2.0 is answered without its id, and its client waits"),
        ("                line = end.partial\n                if not line.strip():\n                    return None\n",
         "                return None\n",
         f"{FORMAT_EDGE}: a last message without its newline is dropped at the end of input"),
    ),
    "narnat_agent/acp/replay.py": _later(
        ('r"\\n\\n<system-reminder>\\n.*?\\n</system-reminder>$", re.DOTALL)',
         'r"\\n\\n<system-reminder>\\n.*?\\n</system-reminder>$")',
         f"{FORMAT_EDGE}: a reminder of several lines is shown again as typed by the person"),
        ("return args if isinstance(args, dict) else {}", "return args",
         f"{STEP_MISSED}: a call whose saved arguments are a JSON list ends the session's load in an error"),
    ),
    # prompts
    "narnat_agent/prompts/skills.py": _later(
        ('return data.decode("utf-8-sig")', 'return data.decode("utf-8")',
         f"{FORMAT_EDGE}: a file saved with a BOM has no front matter: a skill is left out, a command shows its YAML"),
        ("if os.path.samestat(found, settings.stat()):", "if path.resolve() == settings.resolve():",
         f"{STEP_MISSED}: a hard link to narnat.json is read as a command, the key in it sent to the model"),
        ("            found[skill.name] = skill\n", "            found.setdefault(skill.name, skill)\n",
         f"{WRONG_ORDER}: the user's skill wins over the project's of the same name"),
    ),
    "narnat_agent/prompts/system_prompt.py": _later(
        ('if len(scripts) > MAX_SCRIPTS else ""', 'if len(scripts) >= MAX_SCRIPTS else ""',
         f"{OFF_BY_ONE}: exactly twenty package.json scripts are said to be twenty and 0 more"),
        ("data = f.read(MAX_INSTRUCTIONS * 4 + 4)", "data = f.read(MAX_INSTRUCTIONS + 1)",
         f"{WRONG_SETTING}: the limit counted in bytes: Chinese instructions far under it in characters are cut"),
        ('return redact(encodable("\\n".join(parts)), config.api_key)', 'return encodable("\\n".join(parts))',
         f"{STEP_MISSED}: the key written in AGENTS.md enters the system prompt unmasked"),
    ),
    # config
    "narnat_agent/config/loader.py": _later(
        ("    key = key.strip()\n    for i, char", "    for i, char",
         f"{STEP_MISSED}: a key pasted with its newline is refused as holding a control character"),
        ('base_url = str(merged["base_url"]).rstrip("/")', 'base_url = str(merged["base_url"])',
         f"{FORMAT_EDGE}: a base_url ending in /anthropic/ or / is kept as written"),
        ('path = local if "api_key" in _read_file(local, []) else state.user_folder(home) / state.CONFIG',
         "path = state.user_folder(home) / state.CONFIG",
         f"{WRONG_SETTING}: the setup writes a new key to ~/.narnat while the project's own old key goes on winning"),
    ),
    "narnat_agent/config/settings.py": _later(
        ("0 < v <= 600000", "0 < v < 600000",
         f"{OFF_BY_ONE}: a bash_timeout_ms of 600000, the documented top, is refused"),
        ('if not value.startswith(("http://", "https://")) or', 'if not value.startswith("https://") or',
         f"{FORMAT_EDGE}: a local server's http:// base_url is refused"),
        ('        and set(value) <= {"input", "output", "cached_input"}\n', "",
         f"{STEP_MISSED}: a misspelt price (\"ouput\") is accepted, and the cost counted without it"),
    ),
    # platform
    "narnat_agent/platform/processes.py": _later(
        ("        except PermissionError:  # someone else's process: alive\n            pass\n",
         "        except PermissionError:  # someone else's process: alive\n            return False\n",
         f"{INVERTED}: another user's live process is said to be gone"),
        ("for stop, wait in ((ask_to_stop, grace), (kill_tree, last)):",
         "for stop, wait in ((ask_to_stop, grace), (kill_tree, grace)):",
         f"{WRONG_SETTING}: the wait after the forced stop is the polite stop's, not its own"),
        ('return {"start_new_session": True, "umask": umask, "pass_fds": hold}',
         'return {"start_new_session": True, "pass_fds": hold}',
         f"{STEP_MISSED}: a helper (the checkpoint store's git) writes with Narnat's umask, not the one asked"),
    ),
    "narnat_agent/platform/files.py": _later(
        ("os.open(folder, os.O_RDONLY | os.O_DIRECTORY)", "os.open(folder, os.O_RDONLY)",
         f"{STEP_MISSED}: a named pipe where a folder was is opened, and the listing hangs"),
        ("        try:\n            yield lambda name: os.stat(name, dir_fd=base)\n        finally:\n"
         "            os.close(base)\n",
         "        yield lambda name: os.stat(name, dir_fd=base)\n        os.close(base)\n",
         f"{STEP_MISSED}: a listing that fails half-way leaves its folder's descriptor open"),
    ),
    "narnat_agent/platform/locks.py": _later(
        ("        except BlockingIOError:\n", "        except OSError:\n",
         f"{INVERTED}: a descriptor that cannot be locked at all (closed, a file system without locks) is said to be "
         "held by another"),
        ("        except BlockingIOError:\n", "        except PermissionError:\n",
         f"{STEP_MISSED}: a lock another holds raises instead of answering no"),
    ),
    "narnat_agent/platform/signals.py": _later(
        ("ENDING = (signal.SIGTERM, signal.SIGHUP)", "ENDING = (signal.SIGTERM,)",
         f"{STEP_MISSED}: a hangup (the terminal closed) does not end the run as a SIGTERM does"),
        ("previous = signal.pthread_sigmask(signal.SIG_BLOCK, _TAKEN)",
         "previous = signal.pthread_sigmask(signal.SIG_SETMASK, _TAKEN)",
         f"{WRONG_SETTING}: the signals already blocked are unblocked in the helper threads"),
    ),
    "narnat_agent/platform/console.py": _later(
        ("        if not os.isatty(0):\n            return None\n", "",
         f"{STEP_MISSED}: with standard input no terminal (a pipe), the start ends in termios' error"),
        ("        for fd in fds:\n            poller = select.poll()\n",
         "        poller = select.poll()\n        for fd in fds:\n",
         f"{WRONG_ORDER}: once one stream hung up, every stream looked at after it is taken for hung up"),
    ),
    "narnat_agent/platform/watch.py": _later(
        ("return ctypes.get_errno() in (errno.ENOENT, errno.ENOTDIR)", "return ctypes.get_errno() == errno.ENOENT",
         f"{FORMAT_EDGE}: a folder replaced by a file meanwhile is a failure, and the watcher is given up"),
        ("if inside and len(point) >= len(best):", "if inside and len(point) > len(best):",
         f"{OFF_BY_ONE}: of two mounts on the same point, the one underneath decides the file system"),
        (r'for code in ("\\040", "\\011", "\\012", "\\134"):', r'for code in ("\\134", "\\040", "\\011", "\\012"):',
         f"{WRONG_ORDER}: a mount point whose name holds a backslash before 040 is read with a space"),
    ),
    # base
    "narnat_agent/i18n.py": _later(
        ("code, _catalog = languages().get(language), ENGLISH", "code = languages().get(language)",
         f"{STEP_MISSED}: switching back to English keeps the Chinese catalog"),
        ('east_asian_width(text[-1]) in "WF" else " " + sentence',
         'east_asian_width(sentence[0]) in "WF" else " " + sentence',
         f"{WRONG_SETTING}: the space is decided by the next sentence's start, not the last one's full stop"),
        ('return note if note and east_asian_width(note[0]) in "WF" else space + note',
         'return note if east_asian_width(note[0]) in "WF" else space + note',
         f"{FORMAT_EDGE}: an empty note ends in an IndexError"),
    ),
    "narnat_agent/logger.py": _later(
        (r"(bearer\s+)?", "",
         f"{FORMAT_EDGE}: an 'Authorization: Bearer KEY' header is logged as 'Bearer' masked and the key whole"),
        ("record.msg, record.args = message, None", "record.msg = message",
         f"{STEP_MISSED}: a line logged with values is formatted a second time, fails, and turns the log off"),
    ),
    "narnat_agent/encodable.py": _later(
        ("return [encodable_data(item) for item in value]", "return value",
         f"{STEP_MISSED}: no text inside a list is made encodable: a file name not UTF-8 in a message makes the "
         "session unsavable"),
        ("if 0xDC80 <= point <= 0xDCFF", "if 0xDC80 <= point < 0xDCFF",
         f"{OFF_BY_ONE}: a name's byte 0xFF is shown as \\udcff, not as \\xff"),
    ),
}  # fmt: skip
