"""Planted defects of the slash commands, the runs and the command line (narnat_agent/commands/, run/start.py,
run/repl.py, run/headless.py, cli.py), by a fifth writer, written after their tests, as a tired developer would,
without reading those tests, and unlike the defects already planted there: each is `later`.

On first meeting (2026-11-28, the tests of main at the time) the suite caught 20 of these 24 (83 %): missed were
/enter's recap showing the key (only a whole REPL run held it, not sessions.py's own tests), a command file named as a
built-in in capitals (Help.md) taken as a command, a command sent without arguments sending $ARGUMENTS as written, and
the settings' other keys not handed to the workspace that masks them. Each is caught now by a test written for it."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND5_COMMANDS: dict[str, tuple[Defect, ...]] = {
    # commands
    "narnat_agent/commands/rewind.py": _later(
        ('lines = list(difflib.unified_diff(old, new, lineterm=""))[2:]',
         'lines = list(difflib.unified_diff(old, new, lineterm=""))',
         f"{FORMAT_EDGE}: /diff counts the ---/+++ header lines as a line removed and one added, and shows them"),
        ("if restored and not conversation:  # the history", "if restored and not code:  # the history",
         f"{WRONG_SETTING}: a code-only rewind never tells the model the files it restored, which it still trusts"),
        ('lines += [f"{\'\':13}{n}.{s}  {_one_line(call)}" for s, call in enumerate(turn.calls, 1)]',
         'lines += [f"{\'\':13}{n}.{s}  {_one_line(call)}" for s, call in enumerate(turn.calls)]',
         f"{OFF_BY_ONE}: /rewind's listing numbers a turn's steps from 0, and N.S typed from it goes one step off"),
    ),
    "narnat_agent/commands/dispatch.py": _later(
        ("agent.ui.error(str(e)[0].upper() + str(e)[1:])", "agent.ui.error(str(e).capitalize())",
         f"{FORMAT_EDGE}: a command's error sentence loses the capitals of the paths and names it quotes"),
        ('        if name == "help":\n            help_(agent, arg, user)\n            return True\n', "",
         f"{STEP_MISSED}: /help lists none of the person's own commands"),
    ),
    "narnat_agent/commands/sessions.py": _later(
        ('_("{who}: {text}").format(who=_(who), text=redact(text, agent.workspace.secret))',
         '_("{who}: {text}").format(who=_(who), text=text)',
         f"{STEP_MISSED}: a key in the last question or answer is shown by /enter's recap"),
        ("forked = sessions.fork(agent.session, agent.config.state_dir, arg)",
         "forked = sessions.fork(agent.session, agent.config.state_dir)",
         f"{STEP_MISSED}: /fork NAME ignores the name, and the fork is saved as NAME-fork"),
    ),
    "narnat_agent/commands/conversation.py": _later(
        ("if names is not None and arg not in names:", "if arg not in (names or []):",
         f"{INVERTED}: a server that does not list its models refuses every /model NAME as no such model"),
        ("    agent.compress(arg)\n", '    agent.compress("")\n',
         f"{STEP_MISSED}: /compact WHAT TO KEEP drops the person's words: the summary is not guided by them"),
    ),
    "narnat_agent/commands/custom.py": _later(
        ("                if name in builtins:\n", "                if path.stem in builtins:\n",
         f"{FORMAT_EDGE}: Help.md is taken silently as a command /help, never run, no word that the built-in wins"),
        ("        if ARGUMENTS in self.text:\n", "        if ARGUMENTS in self.text and arguments:\n",
         f"{FORMAT_EDGE}: a command sent without arguments sends '$ARGUMENTS' as written to the model"),
    ),
    "narnat_agent/commands/modes.py": _later(
        ("        agent.plan_mode(False)\n", "",
         f"{STEP_MISSED}: /plan while planning says plan mode is off, and it stays on"),
        ("pursue(agent, Goal(text, until, agent.config.max_turns))",
         "pursue(agent, Goal(arg, until, agent.config.max_turns))",
         f"{WRONG_SETTING}: /goal sends the model its --until \"COMMAND\" as part of the goal's text"),
    ),
    "narnat_agent/commands/__init__.py": _later(
        ("        return function\n", "",
         f"{STEP_MISSED}: the decorator hands back nothing: /help, whose function dispatch calls by name, fails"),
        ("def command(usage: str, line: str, at_once: bool = False)",
         "def command(usage: str, line: str, at_once: bool = True)",
         f"{WRONG_SETTING}: every command runs at once when sent while the agent works, /clear and /undo mid-turn"),
    ),
    # run
    "narnat_agent/run/start.py": _later(
        ("    except FileNotFoundError:\n        pass\n", "",
         f"{STEP_MISSED}: -c in a project that never saved a conversation says its sessions folder cannot be read"),
        ("other_keys=config.other_keys, hidden=config.files", "hidden=config.files",
         f"{STEP_MISSED}: the other keys the settings name are not masked in what the tools give the model"),
    ),
    "narnat_agent/run/repl.py": _later(
        ("            warned = False\n", "",
         f"{STEP_MISSED}: once warned of running background commands, a later Ctrl-D leaves and stops them unwarned"),
        ("question, answer = (redact(text, agent.workspace.secret) for text in (question, answer))",
         "question = redact(question, agent.workspace.secret)",
         f"{STEP_MISSED}: a key in the last answer is shown by a resumed conversation's recap"),
    ),
    "narnat_agent/run/headless.py": _later(
        ("    ui.secret = config.api_key  # stdout quotes", "    # stdout quotes",
         f"{STEP_MISSED}: the key the model repeats is printed on stdout unmasked"),
        ("        ui.notice(judged.message)\n        return judged\n", "        ui.notice(judged.message)\n",
         f"{STEP_MISSED}: a run refused a command for want of anybody to ask exits 0 as completed, not 3"),
    ),
    "narnat_agent/cli.py": _later(
        ("for attempt in range(1, SETUP_TRIES + 1):", "for attempt in range(SETUP_TRIES):",
         f"{OFF_BY_ONE}: the setup's third failed check never says the answers are saved anyway"),
        ("ask=not headless and sys.stdin.isatty()", "ask=not headless",
         f"{WRONG_SETTING}: a REPL fed from a pipe without a key asks the setup's questions of the pipe"),
        ("    if config.language and (problem := i18n.use(config.language)):\n        ui.notice(problem)\n"
         "    for notice in (*config.notices, moved) if moved else config.notices:\n"
         "        ui.notice(str(notice))  # worded now, in the language the settings chose\n",
         "    for notice in (*config.notices, moved) if moved else config.notices:\n"
         "        ui.notice(str(notice))  # worded now, in the language the settings chose\n"
         "    if config.language and (problem := i18n.use(config.language)):\n        ui.notice(problem)\n",
         f"{WRONG_ORDER}: the settings' notices are said before their language is taken up, in the system's"),
    ),
}  # fmt: skip
