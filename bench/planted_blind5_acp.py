"""Planted defects of the editor protocol (acp's server, UI, sessions, wire, calls and replay), the settings and the
prompts (skills, the system prompt, the fixed texts), written by a fifth writer from the modules alone, as a tired
developer would, without reading their tests: each is `later`."""

from defects import FORMAT_EDGE, OFF_BY_ONE, STEP_MISSED, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND5_ACP: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/acp/server.py": _later(
        ('        if text.strip().startswith("/"):\n', '        if text.startswith("/"):\n',
         f"{FORMAT_EDGE}: a slash command the editor sends after a space or a blank line goes to the model as a "
         "question"),
        ("        first = not self.leaving\n        self.leaving = self.leaving or signum\n",
         "        self.leaving = self.leaving or signum\n        first = not self.leaving\n",
         f"{WRONG_ORDER}: SIGTERM or SIGHUP never stops anything: a run waiting for the editor's next prompt does not "
         "end, and a running turn goes on"),
        ("            opened = await self._open(cwd, session_id)\n"
         "        for update in replayed(opened.agent.conversation.messages):\n"
         "            await self._client().session_update(session_id=session_id, update=update)\n",
         "            opened = await self._open(cwd, session_id)\n"
         "            for update in replayed(opened.agent.conversation.messages):\n"
         "                await self._client().session_update(session_id=session_id, update=update)\n",
         f"{STEP_MISSED}: loading again a session already open in this run (a tab reopened) shows none of its "
         "conversation"),
    ),
    "narnat_agent/acp/ui.py": _later(
        ("        held, self.held = self.held, []\n", "        held = self.held\n",
         f"{STEP_MISSED}: what was said before the first prompt (a notice of the settings) opens every reply again"),
        ('lines = [columns, ["---"] * len(columns), *rows]', 'lines = [columns, ["---"] * len(rows), *rows]',
         f"{WRONG_SETTING}: a table's separator row has a cell per row, not per column: the editor draws no table"),
        ("        except Exception as e:  # no buffer, a client error",
         "        except RequestError as e:  # no buffer, a client error",
         f"{STEP_MISSED}: an editor that does not give a buffer's text in time (or hangs up) fails the tool instead "
         "of the disk's text being read"),
    ),
    "narnat_agent/acp/sessions.py": _later(
        ("settings.environment, model=args.model, max_cost=args.max_cost)",
         "settings.environment, max_cost=args.max_cost)",
         f"{WRONG_SETTING}: `narnat acp --model X` is ignored: every session answers with the settings' model"),
        ("    for notice in notices:\n        ui.notice(notice)\n    return Opened(", "    return Opened(",
         f"{STEP_MISSED}: a command file of the user's that is left out (too large, binary) is never said in the "
         "editor"),
    ),
    "narnat_agent/acp/wire.py": _later(
        ('            except ValueError as e:\n                log.warning("a line that is not JSON',
         '            except json.JSONDecodeError as e:\n                log.warning("a line that is not JSON',
         f"{FORMAT_EDGE}: a line that is not UTF-8 ends the connection instead of being answered with a parse error"),
        ('    if "method" in message and not isinstance(message["method"], str):\n'
         '        return RequestError.invalid_request({"reason": "a method is a string"})\n', "",
         f"{STEP_MISSED}: a message whose method is a number or null is passed on to the protocol's library, not "
         "refused as an invalid request"),
    ),
    "narnat_agent/acp/calls.py": _later(
        ("path = workspace.resolve(target) if isinstance(target, str)",
         "path = Path(target) if isinstance(target, str)",
         f"{WRONG_SETTING}: a relative file path is taken from the process's folder, not the project's: the editor's "
         "location and diff name the wrong file"),
        ("tool_diff_content(str(running.path), after, running.before)",
         "tool_diff_content(str(running.path), running.before, after)",
         f"{WRONG_ORDER}: a change is shown reversed: the new text as the old, the old as the new"),
    ),
    "narnat_agent/acp/replay.py": _later(
        ('kind=KINDS.get(name, "other")', "kind=KINDS[name]",
         f"{FORMAT_EDGE}: a saved call to a tool that does not exist (a name the model made up) fails the session's "
         "load"),
        ("header = plain_title(registry.prepare(name, args).header)", "header = registry.prepare(name, args).header",
         f"{STEP_MISSED}: a loaded session's multi-line command keeps all its lines in its call's title"),
    ),
    "narnat_agent/config/settings.py": _later(
        ("    return bool(parts.hostname)\n", "    return bool(parts.netloc)\n",
         f"{FORMAT_EDGE}: a base_url with a port and no host (http://:8080/v1) is accepted, and the first request "
         "fails"),
        ("lambda v: v is None or _is_number(v) and v > 0", "lambda v: v is None or _is_number(v) and v >= 0",
         f"{OFF_BY_ONE}: a max_cost of 0 is accepted: every turn stops before its first request"),
    ),
    "narnat_agent/prompts/skills.py": _later(
        ("if not any(real.is_relative_to(root.resolve()) for root", "if not any(real.is_relative_to(root) for root",
         f"{WRONG_SETTING}: in a project or home reached through a symbolic link, every command and skill is refused "
         "as leading outside them"),
        ("    except yaml.YAMLError as e:\n", "    except yaml.scanner.ScannerError as e:\n",
         f"{STEP_MISSED}: front matter with a bracket left open (a parser's error, not a scanner's) ends the start in "
         "a traceback instead of leaving the file out"),
    ),
    "narnat_agent/prompts/system_prompt.py": _later(
        ('        manager = "npm"\n', "",
         f"{STEP_MISSED}: with pnpm's lockfile and no pnpm, the prompt says pnpm is not installed, then to run the "
         "scripts with `pnpm run NAME`"),
        ('text = data.decode("utf-8", errors="backslashreplace").strip()', 'text = data.decode("utf-8").strip()',
         f"{FORMAT_EDGE}: an AGENTS.md in Latin-1, or one cut in the middle of a character, ends the start in a "
         "UnicodeDecodeError"),
    ),
    "narnat_agent/prompts/texts.py": _later(
        ("Max timeout 600000ms.", "Max timeout 60000ms.",
         f"{OFF_BY_ONE}: a zero dropped: the model is told Bash's longest timeout is one minute, not ten"),
        ('"(Written without the {what} of the conversation:', '"(Written without the {parts} of the conversation:',
         f"{FORMAT_EDGE}: a placeholder renamed in the text only: a compression whose request could not keep every "
         "part ends in a KeyError instead of its summary"),
    ),
}  # fmt: skip
