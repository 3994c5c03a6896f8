"""Planted defects of the rest (the slash commands, the editor protocol, the prompt, the settings, the language, the
log and the encodable text), by a third writer, written after their tests, as a tired developer would, without reading
those tests: each is `later`."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND3_REST: dict[str, tuple[Defect, ...]] = {
    # commands
    "narnat_agent/commands/rewind.py": _later(
        ("not 1 <= int(number) <= len(turns)", "not 1 <= int(number) < len(turns)",
         f"{OFF_BY_ONE}: /rewind N and /diff N of the last turn say it is not a turn"),
        ("    if not (plan.conflicts or plan.shared):\n        return False",
         "    if not plan.conflicts:\n        return False",
         f"{WRONG_SETTING}: files another narnat run changed too are kept without asking or a warning"),
        ("    except (KeyboardInterrupt, EOFError):\n        return \"\"",
         "    except KeyboardInterrupt:\n        return \"\"",
         f"{STEP_MISSED}: Ctrl-D at /rewind's question is no answer no more: it escapes the command"),
    ),
    "narnat_agent/commands/dispatch.py": _later(
        ('name = line.strip().removeprefix("/").split(" ", 1)[0].lower()',
         'name = line.strip().removeprefix("/").split(" ", 1)[0]',
         f"{FORMAT_EDGE}: /JOBS or /Help sent while the agent works waits for the turn's end"),
        ('" " * (column + 3) + more', '" " * (column + 2) + more',
         f"{OFF_BY_ONE}: /help's wrapped lines start one column left of their first line"),
    ),
    "narnat_agent/commands/conversation.py": _later(
        ("tokens(window.size), approx + tokens(window.left)", "tokens(window.size), tokens(window.left)",
         f"{STEP_MISSED}: /context says what is left as counted when it is only estimated"),
        ("sorted(window.items, reverse=True)[:LARGEST]", "sorted(window.items, reverse=True)[: LARGEST - 1]",
         f"{OFF_BY_ONE}: /context names the four largest items, not five"),
    ),
    "narnat_agent/commands/modes.py": _later(
        ('    agent.ask(arg or "Go ahead: carry out the plan.")', '    agent.ask("Go ahead: carry out the plan.")',
         f"{STEP_MISSED}: the words typed after /go are dropped, the model hears only 'Go ahead'"),
        ('        agent.ui.notice(_("Not in plan mode: /plan starts it; a question goes on as it is."))\n'
         "        return\n",
         '        agent.ui.notice(_("Not in plan mode: /plan starts it; a question goes on as it is."))\n',
         f"{STEP_MISSED}: /go outside plan mode says so, then asks the model to carry out a plan it never made"),
    ),
    "narnat_agent/commands/__init__.py": _later(
        ("return _(self.usage), _(self.line)", "return _(self.usage), self.line",
         f"{STEP_MISSED}: /help's line of each command stays English whatever the interface's language"),
        ("SlashCommand(function, usage, line, at_once)", "SlashCommand(function, line, usage, at_once)",
         f"{WRONG_ORDER}: a command's usage and its help line are swapped in /help and in Tab's completions"),
    ),
    # the editor protocol
    "narnat_agent/acp/sessions.py": _later(
        ("    if config.language:\n        i18n.use(config.language)\n", "",
         f"{STEP_MISSED}: the language setting is ignored by a session an editor opens"),
        ('elif kind in ("resource_link", "resource"):', 'elif kind == "resource_link":',
         f"{FORMAT_EDGE}: a file the editor embeds in the prompt (with its text) refuses the whole prompt"),
    ),
    "narnat_agent/acp/ui.py": _later(
        ("            self.update(update)\n        self.running = None\n", "            self.update(update)\n",
         f"{STEP_MISSED}: a question asked after a call ended is attached to that call, its end sent again"),
        ("except (ConnectionError, concurrent.futures.CancelledError, RuntimeError, ValueError, RequestError) as e:",
         "except (ConnectionError, RuntimeError, ValueError, RequestError) as e:",
         f"{STEP_MISSED}: a permission request cancelled under way escapes the confirmation instead of being a no"),
        ("return link.call(asked, self.wait).content", "return link.call(asked).content",
         f"{WRONG_SETTING}: an editor that never answers fs/read_text_file hangs the tool for good"),
    ),
    "narnat_agent/acp/calls.py": _later(
        ('    if path is None and call.name in ("Glob", "Grep"):\n        path = workspace.root\n', "",
         f"{STEP_MISSED}: a Glob or Grep without a path has no location in the editor"),
        ("update_tool_call(running.call.id, title=running.title, status=status,",
         "update_tool_call(running.call.id, status=status,",
         f"{STEP_MISSED}: a call a question retitled keeps the question as its title when it ends"),
    ),
    "narnat_agent/acp/wire.py": _later(
        ("        for secret in self.secrets:\n            line = redact(line, secret)\n"
         '        self.writer.write(line.encode("utf-8", "backslashreplace") + b"\\n")\n',
         '        self.writer.write(line.encode("utf-8", "backslashreplace") + b"\\n")\n'
         "        for secret in self.secrets:\n            line = redact(line, secret)\n",
         f"{WRONG_ORDER}: a line is written before it is masked: the key reaches the editor"),
        ("            if not line.strip():\n                continue\n",
         "            if not line.strip():\n                return None\n",
         f"{INVERTED}: a blank line between messages ends the connection"),
    ),
    "narnat_agent/acp/replay.py": _later(
        ("            if isinstance(reasoning, str) and reasoning:\n"
         "                yield update_agent_thought_text(reasoning)\n            if content:\n"
         "                yield update_agent_message_text(content)\n",
         "            if content:\n                yield update_agent_message_text(content)\n"
         "            if isinstance(reasoning, str) and reasoning:\n"
         "                yield update_agent_thought_text(reasoning)\n",
         f"{WRONG_ORDER}: a loaded session shows each answer before the reasoning that led to it"),
        ('if role == "user" and isinstance(content, str):', 'if role == "user":',
         f"{FORMAT_EDGE}: a saved conversation where Read showed a picture fails to load in the editor"),
    ),
    # the prompt, the settings
    "narnat_agent/prompts/system_prompt.py": _later(
        ("block = ENVIRONMENT.findall(system_prompt)[0]", "block = ENVIRONMENT.findall(saved_prompt)[0]",
         f"{WRONG_SETTING}: a resumed conversation keeps its old date and mode in its environment block"),
        ("HEADLESS + CONFIRMATION[yes] if headless", "HEADLESS + CONFIRMATION[headless] if headless",
         f"{WRONG_SETTING}: every headless prompt says commands needing a confirmation are allowed, without --yes too"),
    ),
    "narnat_agent/config/loader.py": _later(
        ('        if env.get("OPENAI_BASE_URL") and "base_url" not in settings:\n'
         '            settings["base_url"] = env["OPENAI_BASE_URL"]\n',
         '    if env.get("OPENAI_BASE_URL") and "base_url" not in settings:\n'
         '        settings["base_url"] = env["OPENAI_BASE_URL"]\n',
         f"{WRONG_SETTING}: OPENAI_BASE_URL sends the key of narnat.json to another provider's server"),
        ('context_window_set="context_window" in named', 'context_window_set="context_window" in merged',
         f"{WRONG_SETTING}: the default context window counts as one the person set"),
        ("write_atomic(path, data.encode(), mode=0o600)", "write_atomic(path, data.encode(), mode=0o644)",
         f"{WRONG_SETTING}: the setup saves the key readable by every user of the machine"),
    ),
    # the language, the log, the encodable text
    "narnat_agent/i18n.py": _later(
        ("translated.format(**{k: spoken(v) for k, v in self.values.items()})", "translated.format(**self.values)",
         f"{STEP_MISSED}: the reasons inside a translated sentence stay English"),
        ("return Said(text.template, **{name: cleaned(value, clean) for name, value in text.values.items()})",
         "return Said(text.template, **text.values)",
         f"{STEP_MISSED}: a translatable sentence is not masked: the key in its values is shown"),
    ),
    "narnat_agent/logger.py": _later(
        ("    for old in list(root.handlers):\n        root.removeHandler(old)\n        old.close()\n", "",
         f"{STEP_MISSED}: a log started again writes every line into the old log file too"),
        ('AUTH_HEADER.sub(r"\\1***", encodable(record.getMessage()))',
         'AUTH_HEADER.sub(r"\\1***", record.getMessage())',
         f"{STEP_MISSED}: a file name that is not UTF-8 in a log line turns the log off"),
    ),
    "narnat_agent/encodable.py": _later(
        ("if 0xDC80 <= point <= 0xDCFF", "if 0xDC00 <= point <= 0xDCFF",
         f"{OFF_BY_ONE}: a JSON \\udc41 from the provider is shown as \\x41, an A that was never a byte"),
        ('f"\\\\x{point - 0xDC00:02x}"', 'f"\\\\x{point - 0xDC00:02X}"',
         f"{FORMAT_EDGE}: a byte not UTF-8 is shown as \\xE9, not as Python's \\xe9"),
    ),
}  # fmt: skip
