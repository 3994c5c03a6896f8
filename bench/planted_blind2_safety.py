"""Planted defects of the command analysis (narnat_agent/safety/), a second set written after their tests, as a tired
developer would, without reading those tests, and unlike the defects already planted there: each is `later`.

On first meeting (2026-11-28, the tests of main at the time) the suite caught 35 of these 43 (81 %): missed were the
variable the command sets itself, the commits a reset leaves behind, sed's s///ge, `mytool server stop`, a flush
sent through nc, `docker volume remove`, and both of windows.py's. Each is caught now by a test written for it."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND2_SAFETY: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/safety/deletions.py": _later(
        ('if check.env is None or "$(" in text or "`" in text or not names_ or set(names_) & check.assigned:',
         'if check.env is None or "$(" in text or "`" in text or not names_:',
         f"{WRONG_SETTING}: a variable the command sets itself (`D=tmp; rm -rf \"$D\"`) is said with Bash's value"),
        ('if word is not None and word.startswith("-") and word != "-" and not ended:',
         'if word is not None and word.startswith("-") and word != "-":',
         f"{FORMAT_EDGE}: `rm -- -x` says it deletes no operands: the names after -- are taken for options"),
        ('empty = command.stdin_file == "/dev/null" or upstream is not None and silent(upstream.argv, upstream)',
         "empty = upstream is not None and silent(upstream.argv, upstream)",
         f"{STEP_MISSED}: `tee f < /dev/null` empties f unasked"),
    ),
    "narnat_agent/safety/rules.py": _later(
        ("        _check(command, self)\n        self.nesting -= 1\n", "        _check(command, self)\n",
         f"{STEP_MISSED}: nested commands are counted and never uncounted: ten sibling find -exec say too deep"),
        ("check.command(replace(command, argv=[MODULES.get(module, module), *argv[at + 2 :]]))",
         "check.command(replace(command, argv=[MODULES.get(module, module), *argv[at + 1 :]]))",
         f"{OFF_BY_ONE}: `python -m alembic downgrade base` is checked as `alembic alembic downgrade base`"),
        ('if operator not in (">", ">|", "&>", ">>", "&>>") or (target or "").startswith("/dev/"):',
         'if operator not in (">", "&>", ">>", "&>>") or (target or "").startswith("/dev/"):',
         f"{FORMAT_EDGE}: `>| file` (past noclobber) over an existing file runs unasked"),
    ),
    "narnat_agent/safety/wrappers.py": _later(
        ('        if word == "--":\n            i += 1\n            break\n',
         '        if word == "--":\n            break\n',
         f"{OFF_BY_ONE}: `sudo -- rm -rf x` takes -- for the program and rm runs unchecked"),
        ("for j in range(at + 1, min(at + 5, len(argv)) if name in RUNNING_TOOLS else 0):",
         "for j in range(at + 1, min(at + 3, len(argv)) if name in RUNNING_TOOLS else 0):",
         f"{OFF_BY_ONE}: `pnpm -r --filter web exec rimraf dist` is not read as a runner"),
        ('script = flag in spec.scripts or not word.startswith("--") and "-c" in spec.scripts and word.endswith("c")',
         "script = flag in spec.scripts",
         f"{FORMAT_EDGE}: `su -lc 'rm -rf x'` runs its shell text unchecked"),
    ),
    "narnat_agent/safety/git.py": _later(
        ("    key = key.lower()\n", "",
         f"{FORMAT_EDGE}: `git -c core.sshCommand='rm -rf x'` in git's own camel case runs its text unchecked"),
        ('subjects = git_lines(["log", "--format=%s", f"{target}..{tip}", "--"], check.cwd)',
         'subjects = git_lines(["log", "--format=%s", f"{tip}..{target}", "--"], check.cwd)',
         f"{WRONG_ORDER}: the commits a reset leaves behind are looked up the wrong way round, and never said"),
        ("if len(plain) > 1:",
         "if len(plain) > 2:",
         f"{OFF_BY_ONE}: `git checkout main Makefile`, a file from a branch over the work, runs unasked"),
    ),
    "narnat_agent/safety/refusals.py": _later(
        ('saved = any(op in (">", ">>") and not (t or "").startswith("/dev/") for op, t in node.redirects)',
         'saved = any(op == ">" and not (t or "").startswith("/dev/") for op, t in node.redirects)',
         f"{FORMAT_EDGE}: `cat part.txt >> all.txt` is refused as reading a file"),
        ("return [w for w in words[0 if given else 1 :] if w is not None]",
         "return [w for w in words[1:] if w is not None]",
         f"{STEP_MISSED}: `grep -e TODO notes.txt` (the pattern given by -e) is not sent to Grep"),
        ('terminal = _flag(own, "t", "--tty") and _flag(own, "i", "--interactive", "--stdin")',
         'terminal = _flag(own, "t", "--tty") or _flag(own, "i", "--interactive", "--stdin")',
         f"{INVERTED}: `docker run -i img cmd` (input, no terminal) is refused as waiting for a terminal"),
    ),
    "narnat_agent/safety/code.py": _later(
        ("""return '"API"' if literal in API_NAMES else '"_"' if literal else '""'""",
         """return '"_"' if literal else '""'""",
         f"{STEP_MISSED}: `getattr(os, 'remove')(p)` calls a deletion by name unasked"),
        ('if any("e" in f for f in flags) or SED_EXECUTE', 'if "e" in flags or SED_EXECUTE',
         f"{FORMAT_EDGE}: sed's s///ge (e with another flag) runs shell text unchecked"),
        ('    if not present and "`" not in code and "%x" not in code:\n',
         '    if not present and "%x" not in code:\n',
         f"{STEP_MISSED}: perl's backticks `rm -rf x`, with no trigger word beside them, run unchecked"),
    ),
    "narnat_agent/safety/sql.py": _later(
        ('DESTRUCTIVE = re.compile(r"\\b(drop|truncate|delete|update|alter)\\b", re.IGNORECASE)',
         'DESTRUCTIVE = re.compile(r"\\b(drop|truncate|delete|update|alter)\\b")',
         f"{FORMAT_EDGE}: SQL written in capitals (`psql -c 'DROP TABLE t'`) is passed over as harmless"),
        ("        if isinstance(statement, exp.Command) and DESTRUCTIVE.search(statement.sql()):\n"
         "            return None\n",
         "        if isinstance(statement, exp.Command) and DESTRUCTIVE.search(statement.sql()):\n"
         "            continue\n",
         f"{INVERTED}: a destructive statement the parser passes through as text runs unasked"),
        ('cluster = "-" + word[-1] if re.fullmatch(r"-[a-zA-Z]{2,4}", word) else ""',
         'cluster = "-" + word[1] if re.fullmatch(r"-[a-zA-Z]{2,4}", word) else ""',
         f"{FORMAT_EDGE}: `psql -Atc 'DROP TABLE t'` reads the cluster's first letter, not its -c"),
    ),
    "narnat_agent/safety/overwrites.py": _later(
        ("target = os.path.join(into, os.path.basename(source)) if _path(into, cwd).is_dir() else into",
         "target = os.path.join(into, os.path.basename(source)) if os.path.isdir(into) else into",
         f"{WRONG_SETTING}: `cp a.txt dir/` is looked at from Narnat's folder, not the command's: dir/a.txt lost"),
        ('return Path(os.path.expanduser(name)) if name.startswith(("/", "~")) else cwd / name',
         'return Path(name) if name.startswith("/") else cwd / name',
         f"{FORMAT_EDGE}: `cp x ~/.bashrc` over the home folder's file runs unasked"),
    ),
    "narnat_agent/safety/downloads.py": _later(
        ('files |= {url.rstrip("/").rsplit("/", 1)[-1].split("?")[0] for url in words if "://" in url}',
         'files |= {url.rstrip("/").rsplit("/", 1)[-1] for url in words if "://" in url}',
         f"{FORMAT_EDGE}: `wget https://x/install.sh?v=2 && sh install.sh` runs the download unasked"),
        ('script = next((a for a in argv[1:] if a is None or not a.startswith("-")), None) or ""',
         'script = (argv[1] if len(argv) > 1 else None) or ""',
         f"{FORMAT_EDGE}: `bash -x install.sh` after curl wrote it takes -x for the script and runs it unasked"),
    ),
    "narnat_agent/safety/embedded.py": _later(
        ('            i += 1 + (argv[i + 1 : i + 2] == ["--"])  # `bash -c -- \'code\'`: the code follows the --\n',
         "            i += 1\n",
         f"{FORMAT_EDGE}: `bash -c -- 'rm -rf x'` checks `--` as its code"),
        ('if rest and not stdin and rest[0] not in ("-", "/dev/stdin"):',
         'if rest and not stdin and rest[0] != "-":',
         f"{FORMAT_EDGE}: `curl URL | bash /dev/stdin` runs the downloaded script unasked"),
    ),
    "narnat_agent/safety/check.py": _later(
        ("        self.file_ops += other.file_ops\n", "",
         f"{STEP_MISSED}: `bash -c 'cat notes.txt'` is not refused as a file read"),
        ("        self.deletions += other.deletions\n", "        self.deletions = other.deletions\n",
         f"{WRONG_ORDER}: a nested script's reasons replace those before it: `rm -rf x; bash -c ls` runs unasked"),
    ),
    "narnat_agent/safety/endless.py": _later(
        ('first = words[:2] or [""]', 'first = words[:1] or [""]',
         f"{OFF_BY_ONE}: `flask --app app.py run` is not refused as serving until stopped"),
        ("if any(ENDING & set(parts(w)) for w in words[:2]):", "if any(ENDING & set(parts(w)) for w in words[:1]):",
         f"{OFF_BY_ONE}: `mytool server stop` is refused as a server that never ends"),
    ),
    "narnat_agent/safety/runners.py": _later(
        ('rest = argv[i + 1 + (word == "--") :]', "rest = argv[i + 1 :]",
         f"{FORMAT_EDGE}: `ssh -- host rm -rf x` takes the host for the remote command's program"),
        ('if fed and (not words or words[0] in SHELLS and "-c" not in words):', "if fed and not words:",
         f"{STEP_MISSED}: `ssh host bash < wipe.sh` runs the script on the remote machine unread"),
    ),
    "narnat_agent/safety/destroys.py": _later(
        ("if family.reads_stdin and positionals([a for a in argv[1:] if a], family.values):",
         "if positionals([a for a in argv[1:] if a], family.values):",
         f"{WRONG_SETTING}: `echo flush_all | nc cache 11211` is passed over: nc's address taken for its commands"),
        ("return [word for word in positionals(args, values)[after:] if word is not None]",
         "return [word for word in positionals(args, values)[after + 1 :] if word is not None]",
         f"{OFF_BY_ONE}: the first thing a form destroys is left out of the question"),
    ),
    "narnat_agent/safety/windows.py": _later(
        ('elif option == "-ec" or len(option) > 1 and "-encodedcommand".startswith(option):',
         'elif option == "-ec" or len(option) > 2 and "-encodedcommand".startswith(option):',
         f"{OFF_BY_ONE}: `powershell -e <base64>` runs encoded code unasked"),
        ('        option = (word or "").lower()\n        if option in FORFILES_VALUES',
         '        option = word or ""\n        if option in FORFILES_VALUES',
         f"{FORMAT_EDGE}: `forfiles /P logs /C \"cmd /c del @file\"` in capitals runs its default echo, unasked"),
    ),
    "narnat_agent/safety/syntax.py": _later(
        ("    if len(words) < len(source.argv):  # a word computed at run time: the text cannot be known\n"
         "        return None\n", "",
         f"{STEP_MISSED}: `echo \"$CMD\" | sh` is read as the empty script and runs unasked"),
        ("            else:  # commands in redirect targets run too: `> \"$(…)\"`, `> >(…)`\n"
         "                self.collect(redirect, True)\n", "",
         f"{STEP_MISSED}: `echo hi > \"$(rm -rf x)\"` runs the command in the target unchecked"),
        ("                self.commands[-1].background = behind\n", "",
         f"{STEP_MISSED}: `npm run dev &` is refused as never ending though the shell goes on"),
    ),
    "narnat_agent/safety/families.py": _later(
        ('values="-n --namespace --context --cluster --kubeconfig',
         'values="--namespace --context --cluster --kubeconfig',
         f"{STEP_MISSED}: `kubectl -n prod delete pod x` takes prod for the verb and runs unasked"),
        ('_f(r"volume (rm|remove|prune)\\b"', '_f(r"volume (rm|prune)\\b"',
         f"{FORMAT_EDGE}: `docker volume remove data`, rm's long alias, runs unasked"),
        ('_f(ANY + r"delete\\b", N_("deletes cloud resources")),',
         '_f(r"\\S+ delete\\b", N_("deletes cloud resources")),',
         f"{FORMAT_EDGE}: `gcloud compute instances delete vm` (delete third) runs unasked"),
    ),
}  # fmt: skip
