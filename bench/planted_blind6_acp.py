"""Planted defects of the editor protocol (acp's server, UI, sessions, wire and calls), the settings, their loader and
the skills, written by a sixth writer from the modules alone, as a tired developer would, without reading their
tests: each is `later`."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND6_ACP: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/acp/server.py": _later(
        ('Stop.STEP_LIMIT: "max_turn_requests",', "",
         f"{STEP_MISSED}: a turn stopped at max_steps is reported to the editor as ended, not as max_turn_requests"),
        ("        opened = await self._open(cwd, None)\n        self._offer_commands(opened)\n",
         "        opened = await self._open(cwd, None)\n",
         f"{STEP_MISSED}: a new session is never told its slash commands: the editor offers none until a load"),
        ("dispatch(agent, text.strip(), opened.user)", "dispatch(agent, text.strip())",
         f"{WRONG_SETTING}: a command of the user's own, offered by the editor, is answered as an unknown command"),
    ),
    "narnat_agent/acp/ui.py": _later(
        ("            link.call(given, self.wait)\n", "            link.call(given)\n",
         f"{WRONG_SETTING}: an editor that never answers fs/write_text_file hangs the Write or Edit for good"),
        ("except (ConnectionError, concurrent.futures.CancelledError, RuntimeError, ValueError, RequestError) as e:",
         "except (ConnectionError, concurrent.futures.CancelledError, RuntimeError, ValueError) as e:",
         f"{STEP_MISSED}: an editor that answers a permission request with an error fails the turn instead of the "
         "command being refused"),
        ('self.say(f"{title}\\n```diff\\n{diff}\\n```" if diff else title)',
         'self.say(f"{title}\\n```diff\\n{diff}\\n```")',
         f"{FORMAT_EDGE}: /diff with nothing changed draws an empty diff block under its title"),
    ),
    "narnat_agent/acp/sessions.py": _later(
        ("    for notice in (*config.notices, moved) if moved else config.notices:\n",
         "    for notice in config.notices:\n",
         f"{STEP_MISSED}: a project whose .narnat cannot be written moves its state elsewhere without a word in the "
         "editor"),
        ("    for name, command in opened.user.items():\n"
         "        arguments = AvailableCommandInput(UnstructuredCommandInput(hint=_(\"arguments\")))\n"
         "        commands.append(AvailableCommand(name=name, description=command.description, input=arguments))\n",
         "",
         f"{STEP_MISSED}: the user's own slash commands are not offered in the editor, only the built-in ones"),
    ),
    "narnat_agent/acp/wire.py": _later(
        ('line = json.dumps(message, ensure_ascii=False, separators=(",", ":")).translate(JSON_ESCAPES)',
         'line = json.dumps(message, ensure_ascii=False, separators=(",", ":"))',
         f"{STEP_MISSED}: a U+2028, a C1 control or a bidi override in a file's text leaves raw in the protocol's "
         "lines"),
        ("    reader = asyncio.StreamReader(limit=LIMIT)\n", "    reader = asyncio.StreamReader()\n",
         f"{WRONG_SETTING}: stdin's lines are held to asyncio's 64 KB: a prompt with a file in it is refused as too "
         "large"),
    ),
    "narnat_agent/acp/calls.py": _later(
        ('if b"\\0" in data[:4096]:', 'if data[:4096].find(b"\\0") > 0:',
         f"{OFF_BY_ONE}: a file whose first byte is NUL (UTF-16, many binaries) is shown as a diff of garbage"),
        ('plan_entry(todo["content"], status=todo["status"])', 'plan_entry(todo["content"])',
         f"{STEP_MISSED}: the editor's plan shows every todo as pending, whatever TodoWrite set"),
    ),
    "narnat_agent/config/settings.py": _later(
        ("        parts.port  # noqa: B018 - reading it checks it\n", "",
         f"{STEP_MISSED}: a base_url whose port is not a number (http://localhost:80a/v1) is accepted, and the first "
         "request fails"),
        ("        return _(self.message).format(**self.values)\n",
         "        return self.message.format(**self.values)\n",
         f"{STEP_MISSED}: a notice about the settings is said in English whatever the language"),
    ),
    "narnat_agent/config/loader.py": _later(
        ("    except (FileNotFoundError, NotADirectoryError):\n        return None\n",
         "    except FileNotFoundError:\n        return None\n",
         f"{FORMAT_EDGE}: a project whose .narnat is a file, not a folder, cannot start: its settings 'cannot be "
         "read'"),
        ("    if path == local:\n        state.ignore_runtime_files(local.parent)\n",
         "    if path != local:\n        state.ignore_runtime_files(local.parent)\n",
         f"{INVERTED}: a key the setup saves in the project's .narnat is not ignored by git, and may be committed"),
    ),
    "narnat_agent/prompts/skills.py": _later(
        ("    if len(skills) > MAX_SKILLS:\n", "    if len(skills) >= MAX_SKILLS:\n",
         f"{OFF_BY_ONE}: exactly 100 skills end the start in an IndexError"),
        ('    if first.strip() != "---" or not found:\n', '    if first.strip() != "---" and not found:\n',
         f"{INVERTED}: a command file without front matter but with a horizontal rule (---) loses all its text "
         "above the rule"),
    ),
}  # fmt: skip
