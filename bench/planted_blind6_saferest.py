"""Planted defects of the deleters, the command analysis's rules, the vocabulary, the archivers, plan mode's reader,
the in-place editors, the probes and git's rules: a sixth set, written after their tests, as a tired developer would,
without reading those tests, and unlike the defects already planted there: each is `later`.

On first meeting (2026-11-28, the tests of main at the time) the suite caught 16 of these 19 (84 %): all of the
deleters', the vocabulary's, the archivers', plan mode's reader's and the in-place editors'; not the probes' listing
run with the person's own locale over the C locale (a German git's dry run read as deleting nothing), nor
`python -m django` checked as a program named django (asked by its words only), nor `git checkout src` of a folder
taken for a branch. Each is caught now by a test written for it. Closing them found bugs the code had too, fixed with
their tests: find's selection listed in the C locale (`-name '?.log'` missed `é.log`), sed's `--expression=` and
`-eSCRIPT`, tar's `--wildcards` and `./` members, git's listings in the folder of `git -C`, plan mode's git listings
given a name. The probes' defect is written on the line that fix changed (`quiet`, no longer `QUIET`)."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND6_SAFEREST: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/safety/deletions.py": _later(
        ('a is None or a[:1] != "-" and argv[i - 1] not in ("-o", "--output")', 'a is None or a[:1] != "-"',
         f"{STEP_MISSED}: sort's output file is taken for one of its inputs: `sort -o sorted.txt data.txt` asks "
         "whether to replace sorted.txt"),
        ("full = os.path.normpath(os.path.join(cwd or \"\", os.path.expanduser(path)))",
         "full = os.path.normpath(os.path.join(cwd or \"\", path))",
         f"{STEP_MISSED}: `~` is not expanded: `rm ~/notes.txt` is said to be under the project, without the "
         "warning that /undo restores only the project's files"),
        ("listing = given or command.stdin_file", "listing = given",
         f"{WRONG_SETTING}: `xargs rm < list.txt` does not name the files list.txt holds"),
    ),
    "narnat_agent/safety/rules.py": _later(
        ("    _redirects(command, argv, check)\n    if not argv:\n        return\n",
         "    if not argv:\n        return\n    _redirects(command, argv, check)\n",
         f"{WRONG_ORDER}: a redirection without a command (`> notes.txt`) empties the file unasked"),
        ("argv=[MODULES.get(module, module), *argv[at + 2 :]]", "argv=[module, *argv[at + 2 :]]",
         f"{STEP_MISSED}: `python -m django flush` is checked as a program named django, not django-admin: it "
         "asks only by its words, without saying that every row of the database goes"),
        ("stages.insert(0, [*(stage.assignments if given else []), *stage.argv])",
         "stages.append([*(stage.assignments if given else []), *stage.argv])",
         f"{WRONG_ORDER}: the last pipeline's stages come last first: `pytest | tail` is read as tail's pipeline"),
    ),
    "narnat_agent/safety/vocabulary.py": _later(
        ('return [a for a in args if a in ALL or a.startswith("-") and a.partition("=")[2] in ALL - {"--all"}]',
         'return [a for a in args if a.startswith("-") and a.partition("=")[2] in ALL - {"--all"}]',
         f"{STEP_MISSED}: only `--opt=all` counts as every step: `mix ecto.rollback --all` and `rollback -t 0` "
         "run unasked"),
        ("for word in [*(w for w in argv[1:] if w is not None), *raw[1:]]:",
         "for word in (w for w in argv[1:] if w is not None):",
         f"{WRONG_SETTING}: a database named only by a variable (`-u \"$DATABASE_URL\"`) is not seen: the "
         "migration tool's command after its options is not read"),
    ),
    "narnat_agent/safety/archives.py": _later(
        ("rest = args[1:] if cluster else args", "rest = args",
         f"{FORMAT_EDGE}: in the old form (`tar xzf a.tgz`) the cluster is taken for the archive: an extraction "
         "over existing files runs unasked"),
        ('return re.fullmatch(r"-([A-BD-Za-eg-z]*[fC])(.+)", word)',
         'return re.fullmatch(r"-([A-BD-Za-eg-z]*f)(.+)", word)',
         f"{FORMAT_EDGE}: a folder attached to -C (`-Cout`) is missed: the files replaced there are looked for "
         "in the working folder"),
    ),
    "narnat_agent/safety/readonly.py": _later(
        ('cluster = re.compile(rf"-[{FLAGS[name]}]+{WRITING_OPTIONS[name][0][1]}.*")',
         'cluster = re.compile(rf"-[{FLAGS[name]}]+{WRITING_OPTIONS[name][0][1]}.+")',
         f"{OFF_BY_ONE}: `sort -uo out.txt in.txt` (the value in the next word) is taken to only read in plan mode"),
        ('return all(\n            w is not None and "=" in w', 'return any(\n            w is not None and "=" in w',
         f"{INVERTED}: `env X=1 make` is taken to only list the environment: it runs in plan mode"),
    ),
    "narnat_agent/safety/edits.py": _later(
        ('script, files = ("\\n".join(codes), rest) if codes else', 'script, files = (codes[0], rest) if codes else',
         f"{STEP_MISSED}: only the first -e script is read: `sed -i -e 's/a/b/' -e '/^KEY/d' .env` deletes "
         "lines unasked"),
        ("if module in RUNS_COMMANDS and (given is not None or None in args):",
         "if module in RUNS_COMMANDS and given is not None:",
         f"{STEP_MISSED}: `ansible all -a \"$CMD\"` (a command computed at run time) runs on every host unasked"),
    ),
    "narnat_agent/safety/probes.py": _later(
        ("env={**os.environ, **quiet}", "env={**quiet, **os.environ}",
         f"{WRONG_ORDER}: the user's own LC_ALL or GIT_PAGER win over the quiet settings: a translated or paged "
         "listing is read as nothing"),
        ("        if skip:\n            skip -= 1\n", "        if skip:\n            skip = 0\n",
         f"{OFF_BY_ONE}: -fprintf's second value is kept as an expression word: find fails and its selection "
         "is not listed"),
    ),
    "narnat_agent/safety/git.py": _later(
        ('target = (positionals(words)[:1] or ["HEAD"])[0]', 'target = (words[:1] or ["HEAD"])[0]',
         f"{FORMAT_EDGE}: `git reset --hard HEAD~3` takes --hard for its target: the commits that leave the "
         "branch are not listed"),
        ("if check.cwd is not None and os.path.lexists(check.cwd / plain[0]):",
         "if check.cwd is not None and os.path.isfile(check.cwd / plain[0]):",
         f"{FORMAT_EDGE}: `git checkout src` (a folder) is taken for a branch: its uncommitted changes are "
         "thrown away unasked"),
        ("    if len(plain) >= 2:\n        _setting(", "    if len(plain) > 2:\n        _setting(",
         f"{OFF_BY_ONE}: `git config alias.x '!rm -rf ~'` stores shell text unchecked"),
    ),
}  # fmt: skip
