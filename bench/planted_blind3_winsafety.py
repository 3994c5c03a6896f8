"""Planted defects of the package scripts, the vocabulary, plan mode's reader, the probes, the archivers, the in-place
editors, pyproject's tasks, PowerShell, cmd and the Windows rules: a third set, written after their tests, as a tired
developer would, without reading those tests, and unlike the defects already planted there: each is `later`.

On first meeting (2026-11-28, the tests of main at the time) the suite caught 30 of these 31 (97 %). The one missed,
`-WhatIf:$False` read case-sensitively by Bound.on, changed nothing: bind lowercased a `-Name:value` word whole, so
it was replaced (blind) by the home folder's `~` left unexpanded, caught; the whole-word lowercasing it showed was a
bug of its own (`-Path:Config.json` looked for config.json), fixed with its test."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND3_WINSAFETY: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/safety/tasks.py": _later(
        ('found = variables.get(name, MAKE_DEFAULTS.get(name, ""))', 'found = variables.get(name, "")',
         f"{STEP_MISSED}: make's own variables are empty: `$(RM) -r build` reads as `-r build`"),
        ('for line in text.replace("\\\\\\n", " ").splitlines():', "for line in text.splitlines():",
         f"{STEP_MISSED}: a recipe continued with a backslash is two lines: `rm -rf \\`, then `build`"),
        ("            stack += dependencies\n", "",
         f"{STEP_MISSED}: a just recipe's dependencies are not read: what they drop runs unasked"),
    ),
    "narnat_agent/safety/vocabulary.py": _later(
        ('PARTS = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\\d+")', 'PARTS = re.compile(r"[A-Z]?[a-z]+|\\d+")',
         f"{FORMAT_EDGE}: a name in capitals (`DROP_ALL`, `db:RESET`) has no parts: its words say nothing"),
        ('store = bool(STORES & every) or "" in context', "store = bool(STORES & every)",
         f"{STEP_MISSED}: a command that names a database by its URL (`dbmate rollback --url postgres://…`): no store"),
    ),
    "narnat_agent/safety/readonly.py": _later(
        ('words = words[2:] if words[0] == "-C" else words[1:]', "words = words[1:]",
         f"{OFF_BY_ONE}: `git -C sub status` reads -C's folder as the subcommand: plan mode holds a read"),
        ('if any(re.fullmatch(r"-[a-zA-Z0-9]*i\\S*", w) or w.startswith("--in-place") for w in words):',
         'if any(w == "-i" or w.startswith("--in-place") for w in words):',
         f"{FORMAT_EDGE}: `sed -i.bak` and `sed -ni` are taken for reads: plan mode lets them edit files"),
    ),
    "narnat_agent/safety/probes.py": _later(
        ('count = f"{MAX_LINES:,}+" if len(names_) > MAX_LINES else str(len(names_))',
         'count = f"{MAX_LINES:,}+" if len(names_) >= MAX_LINES else str(len(names_))',
         f"{OFF_BY_ONE}: exactly 1,000 files are said as more than 1,000"),
        ('elif word in ("-exec", "-execdir", "-ok", "-okdir"):', 'elif word in ("-exec", "-ok"):',
         f"{FORMAT_EDGE}: a find with -execdir is run by the probe itself: what it does is done before the question"),
    ),
    "narnat_agent/safety/archives.py": _later(
        ('or "k" in letters or "O" in letters:', 'or "k" in letters:',
         f"{FORMAT_EDGE}: `tar -xOf a.tgz` (to stdout) is said to overwrite the files it only prints"),
        ("replaced = [m for m in wanted if (target / m).is_file()]",
         "replaced = [m for m in wanted if (check.cwd / m).is_file()]",
         f"{WRONG_SETTING}: with -C out, the files looked at are the project's, not out's"),
    ),
    "narnat_agent/safety/edits.py": _later(
        ('script, files = ("\\n".join(codes), rest) if codes else',
         'script, files = ("\\n".join(codes), rest[1:]) if codes else',
         f"{OFF_BY_ONE}: with -e, the first file is taken for the script: `sed -i -e '/x/d' a.txt` runs unasked"),
        ("    if existing_file(path, check.cwd):", "    if existing_file(file, check.cwd):",
         f"{WRONG_SETTING}: `ssh-keygen -f ~/.ssh/id_ed25519` over an existing key: ~ not expanded, the key not found"),
    ),
    "narnat_agent/safety/pyproject.py": _later(
        ('tasks = _table(runner, tool, env or "default")', "tasks = _table(runner, tool, env)",
         f"{STEP_MISSED}: `hatch run NAME` without an environment reads no environment's scripts"),
        ('if isinstance(line, str) and line in tasks and (isinstance(body, list) or runner == "poe"):',
         "if isinstance(line, str) and line in tasks and isinstance(body, list):",
         f"{FORMAT_EDGE}: a poe task that names another (`ref`) is checked as a program of that name, unread"),
    ),
    "narnat_agent/safety/powershell.py": _later(
        ("            self._pipeline(tokens[2:], consumed=True)\n            return\n", "            return\n",
         f"{STEP_MISSED}: what an assignment runs (`$r = Remove-Item C:\\x -Recurse`) is never read"),
        ("name = (match.group(1) or match.group(2)).lower()", "name = match.group(1) or match.group(2)",
         f"{FORMAT_EDGE}: `\"$Dir\\x\"` after `$dir = 'C:\\'` is not expanded: looked up in its written case"),
        ('if token.kind == "group" and not (keyword == "foreach" and token.opener == "("):',
         'if token.kind == "group" and token.opener == "{":',
         f"{STEP_MISSED}: the commands inside an if's or a while's condition are never read"),
    ),
    "narnat_agent/safety/powershell_lex.py": _later(
        ('SPACE = " \\t\\f\\v\\u00a0"', 'SPACE = " \\t\\f\\v"',
         f"{FORMAT_EDGE}: a pasted non-breaking space joins the cmdlet to its path in one word"),
        ("if quote == '\"' and rest[i] == \"`\":", 'if rest[i] == "`":',
         f"{FORMAT_EDGE}: a backtick in a verbatim string escapes its closing quote: the next command is swallowed"),
    ),
    "narnat_agent/safety/cmd.py": _later(
        ("        if split is not None:\n            found = self.element(body[split + 1 :]) or found\n", "",
         f"{STEP_MISSED}: an if's else branch is never read: `if exist a (echo) else (rd /s /q b)` runs unasked"),
        ('elif char == "^" and not quoted:', 'elif char == "^":',
         f"{FORMAT_EDGE}: a ^ inside quotes escapes the closing quote: `echo \"a^\" & del x` hides the del"),
    ),
    "narnat_agent/safety/windows_losses.py": _later(
        ('if len(pairs) < 2 or "/-y" in switches(command):', 'if len(pairs) < 2 or "/y" in switches(command):',
         f"{WRONG_SETTING}: `copy /y a b` over an existing b runs unasked (the switch that prompts is the other)"),
        ('    if command.name == ".delete":\n        args = args[1:] or args[:1]\n', "",
         f"{STEP_MISSED}: `$fso.DeleteFolder('C:\\')` names the object, not the whole drive it deletes"),
    ),
    "narnat_agent/safety/windows_syntax.py": _later(
        ('elif name in SWITCHES or i + 1 == len(words) or words[i + 1][1].startswith("-"):',
         'elif i + 1 == len(words) or words[i + 1][1].startswith("-"):',
         f"{STEP_MISSED}: `Remove-Item -Recurse C:\\` takes the path for -Recurse's value: the drive is not named"),
        ('lowered.startswith("c:\\\\users\\\\") and lowered.count("\\\\") == 2',
         'lowered.startswith("c:\\\\users\\\\") and lowered.count("\\\\") == 3',
         f"{OFF_BY_ONE}: a folder of `C:\\Users\\bob` is not said to be in the home folder, bob's folder itself is"),
        ('    if name.startswith("~"):\n        return Path(name.replace("\\\\", "/")).expanduser()\n', "",
         f"{STEP_MISSED}: `~\\notes.txt` is looked for in the project, not the home: its overwrite runs unasked"),
    ),
    "narnat_agent/safety/windows_system.py": _later(
        ('if args[:1] not in (["cl"], ["clear-log"]):', 'if args[:1] != ["cl"]:',
         f"{FORMAT_EDGE}: `wevtutil clear-log Security` (the long form) runs unasked"),
        ("if not scope and command.argv[3:4] != [None]:", "if not scope:",
         f"{INVERTED}: a scope computed at run time (`$scope`) is taken as the process's: it runs unasked"),
    ),
    "narnat_agent/safety/windows_refusals.py": _later(
        ('name in GUI_EDITORS and {"--wait", "-w"} & set(args)', 'name in GUI_EDITORS and {"--wait"} & set(args)',
         f"{FORMAT_EDGE}: `code -w file` waits for the editor to close and is not refused"),
        ("at += 2 if switch in START_VALUES else 1", "at += 1",
         f"{OFF_BY_ONE}: `start /d C:\\app node server.js` takes the folder for the program: the server is not seen"),
    ),
}  # fmt: skip
