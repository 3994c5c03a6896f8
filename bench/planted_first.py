"""Planted defects of the modules whose mutation rows came first (the store, Edit's matcher, the command analysis),
written after their tests, as a tired developer would, without reading those tests: each is `later`."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_MOMENT, WRONG_ORDER, WRONG_SETTING, Defect

WINDOWS_TESTS = (
    "tests/safety/test_windows_corpus.py",
    "tests/safety/test_windows_blind.py",
    "tests/safety/test_bash_hidden_code.py",
)

# module -> its tests, where they are not its mutation target's
FIRST_TESTS: dict[str, tuple[str, ...]] = {
    "narnat_agent/safety/windows.py": WINDOWS_TESTS,
}


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


FIRST: dict[str, tuple[Defect, ...]] = {
    # checkpoints
    "narnat_agent/checkpoints/lock.py": _later(
        ("if now - max(began, self._last_sign()) >= self.wait:", "if now - began >= self.wait:",
         f"{WRONG_MOMENT}: a holder that shows it is alive is given up on WAIT seconds after the wait began"),
        ("                self._take(fd)\n                self._clear_stale()\n", "                self._take(fd)\n",
         f"{STEP_MISSED}: a lock a killed git left in the store is never cleared"),
        ('[*self.git_dir.glob("*.lock"), *(self.git_dir / "refs").rglob("*.lock")]', 'self.git_dir.glob("*.lock")',
         f"{FORMAT_EDGE}: the locks a killed git left under refs/ stay"),
    ),
    "narnat_agent/checkpoints/git.py": _later(
        ("if e.errno in (errno.ENOSPC, errno.EDQUOT):", "if e.errno == errno.ENOSPC:",
         f"{FORMAT_EDGE}: a full quota met writing the store's own files is said as an unwritable store"),
        ('if "No space left on device" in err or "Disk quota exceeded" in err:', 'if "No space left on device" in err:',
         f"{FORMAT_EDGE}: a full quota is said as git's raw failure, not as a full disk"),
        ('reason = next((line for line in lines if line.startswith(("fatal:", "error:"))), lines[-1])',
         "reason = lines[0]", f"{STEP_MISSED}: git's failure is said by its first line, a hint, not by its fatal line"),
    ),
    "narnat_agent/checkpoints/store.py": _later(
        ("(stat.S_ISREG(st.st_mode) and st.st_size <= CAP)", "(stat.S_ISREG(st.st_mode) and st.st_size < CAP)",
         f"{OFF_BY_ONE}: a file of exactly the size cap is not kept"),
        ("    if beyond_link(project, rel):  # the file is gone already: what the link leads to is someone else's\n"
         "        return\n", "",
         f"{STEP_MISSED}: a restore deletes through a link a person put where the agent's folder was"),
        ("if stat.S_ISLNK(st.st_mode) or (stat.S_ISREG", "if (stat.S_ISREG",
         f"{STEP_MISSED}: a symbolic link is said to be no regular file, and not kept"),
    ),
    "narnat_agent/checkpoints/plans.py": _later(
        ("            elif by_agent:\n", "            else:\n",
         f"{INVERTED}: a file only a rewind changed is counted as the agent's and restored"),
        ("conflicts = [c.path for c in todo if current[c.path] != expected[c.path]]",
         "conflicts = [c.path for c in todo if current[c.path] != target[c.path]]",
         f"{WRONG_SETTING}: a file is a conflict when it differs from what the rewind restores, not from the agent's"),
        ("doubtful = set(plan.conflicts) | set(plan.shared)", "doubtful = set(plan.conflicts)",
         f"{STEP_MISSED}: a file another run changed too is restored though the person said no"),
    ),
    "narnat_agent/checkpoints/timeline.py": _later(
        ("        self.only_calls = False\n        if not self.broken:\n            self.store.look_again()\n",
         "        if not self.broken:\n            self.store.look_again()\n",
         f"{STEP_MISSED}: a new turn's first command reuses the last turn's snapshot, missing the person's edits"),
        ("unkept = unkept if after.id != pending.before.id else said",
         "unkept = said if after.id != pending.before.id else unkept",
         f"{INVERTED}: what a command left unkept is recorded only when it changed nothing"),
        ("span = [replace(entry, steps=entry.steps[step:]), *self.entries[index + 1 :]]",
         "span = [replace(entry, steps=entry.steps[step + 1 :]), *self.entries[index + 1 :]]",
         f"{OFF_BY_ONE}: a rewind to a step keeps that step's change"),
    ),
    "narnat_agent/checkpoints/git_store.py": _later(
        ('self.git("prune", f"--expire={AGE_DAYS}.days.ago")', 'self.git("prune", "--expire=now")',
         f"{WRONG_MOMENT}: a prune deletes the young snapshots of other conversations at once"),
        ('names = [n for n in listed if not n.endswith("/") and not n.rsplit("/", 1)[-1].startswith(TMP_PREFIX)]',
         'names = [n for n in listed if not n.endswith("/")]',
         f"{STEP_MISSED}: an atomic write caught half-way is kept in the snapshot as an ignored file"),
        ('return "100755" if os.stat(name).st_mode & 0o111 else "100644"', 'return "100644"',
         f"{STEP_MISSED}: a file outside the project is kept without its execute bit, and restored so"),
    ),
    # conversation
    "narnat_agent/conversation/compressor.py": _later(
        ('if not (_leave_out(copy, "tool", ELIDED) or _leave_out(copy, "assistant", ELIDED_ANSWER)):',
         'if not (_leave_out(copy, "assistant", ELIDED_ANSWER) or _leave_out(copy, "tool", ELIDED)):',
         f"{WRONG_ORDER}: the summary request leaves out answers before tool outputs"),
        ("chosen = remaining[: max(1, len(remaining) // 4)]", "chosen = remaining[-max(1, len(remaining) // 4) :]",
         f"{WRONG_SETTING}: the newest quarter of the texts is left out of the summary request, not the oldest"),
        ("successor.checkpoints, successor.cost = old.checkpoints, old.cost", "successor.checkpoints = old.checkpoints",
         f"{STEP_MISSED}: the cost spent is forgotten at a compression, and the budget starts again"),
    ),
    # Edit
    "narnat_agent/tools/edit/matcher.py": _later(
        ("if i >= taken and form[i : i + m] == target:", "if form[i : i + m] == target:",
         f"{STEP_MISSED}: overlapping matches are counted, so a repeated block is said to be ambiguous"),
        ("if 2 * len(drift) > len(pairs):", "if len(drift) > len(pairs):",
         f"{OFF_BY_ONE}: block anchors accept a middle that drifted almost everywhere"),
        ("i = text.find(old, end)", "i = text.find(old, i + 1)",
         f"{FORMAT_EDGE}: exact matches that overlap (`aa` in `aaa`) are counted twice"),
    ),
    "narnat_agent/tools/edit/reindent.py": _later(
        ("drop = min(-shift, len(line) - len(line.lstrip(char)))", "drop = -shift",
         f"{FORMAT_EDGE}: a line of new_string less indented than the shift loses its first characters"),
        ("for unit in (4, 2, 8):", "for unit in (2, 4, 8):",
         f"{WRONG_ORDER}: spaces in fours are converted as two levels of tabs"),
        ("if votes and 2 * votes.count(votes[0]) > len(votes):",
         "if votes and 2 * votes.count(votes[0]) >= len(votes):",
         f"{OFF_BY_ONE}: a tie of new_string's lines decides the frame instead of refusing"),
    ),
    "narnat_agent/tools/edit/typography.py": _later(
        ('"\\u00a0": " ", ', "", f"{FORMAT_EDGE}: a no-break space in the file is not folded to a space"),
        ("for c in set(slip) & TYPOGRAPHIC.keys() if c not in \"\".join(block)}",
         "for c in set(slip) & TYPOGRAPHIC.keys()}",
         f"{STEP_MISSED}: new_string's curly quotes are folded even where the file uses them"),
        ('return " ".join(line.translate(TYPOGRAPHY).split())', "return line.translate(TYPOGRAPHY).strip()",
         f"{STEP_MISSED}: runs of spaces inside a line are not folded for the typography match"),
    ),
    # safety
    "narnat_agent/safety/check.py": _later(
        ("        self.targets += other.targets\n", "",
         f"{STEP_MISSED}: the paths a nested script deletes are not among the command's targets"),
        ("        self.interactive += other.interactive\n", "",
         f"{STEP_MISSED}: a nested script that waits for a person is not refused"),
    ),
    "narnat_agent/safety/downloads.py": _later(
        ('named = word == long or re.fullmatch(rf"-[a-zA-Z]*{short[1]}", word)', "named = word in (short, long)",
         f"{FORMAT_EDGE}: curl's -o in a cluster (`-sSLo x.sh`) is not read"),
        ("    if _plain(script) in downloaded:\n", "    if script in downloaded:\n",
         f"{FORMAT_EDGE}: `./x.sh` is not taken for the x.sh curl wrote"),
    ),
    "narnat_agent/safety/overwrites.py": _later(
        ('REPLACING = (">", ">|", "&>")', 'REPLACING = (">", ">|")',
         f"{FORMAT_EDGE}: `&> file` over an existing file runs unasked"),
        ("    if into is None and len(files) >= 2:\n", "    if into is None and len(files) > 2:\n",
         f"{OFF_BY_ONE}: `cp a b` over an existing b runs unasked"),
        ('if name == "tee" and not {"-a", "--append"} & set(argv):', 'if name == "tee" and "-a" not in argv:',
         f"{FORMAT_EDGE}: `tee --append` is said to replace the file"),
    ),
    "narnat_agent/safety/embedded.py": _later(
        ('        if not word.startswith("--") and "c" in word[1:]:\n', '        if word == "-c":\n',
         f"{FORMAT_EDGE}: `bash -ec 'rm -rf x'` runs its code unchecked"),
        ('        i += 2 if word in ("-o", "+o", "-O", "+O", "--rcfile", "--init-file") else 1\n', "        i += 1\n",
         f"{FORMAT_EDGE}: `bash -o errexit -c 'rm -rf x'` takes the option's value for the script"),
    ),
    "narnat_agent/safety/destroys.py": _later(
        ('if "--help" in args or args in (["-h"], ["--version"], ["-V"]):', 'if "--help" in args or "-h" in args:',
         f"{INVERTED}: a client's -h (the host: `redis-cli -h db FLUSHALL`) is taken for help"),
        ('shown = " ".join(targets[:MAX_TARGETS]) + (" …" if len(targets) > MAX_TARGETS else "")',
         'shown = " ".join(targets[:MAX_TARGETS]) + (" …" if len(targets) >= MAX_TARGETS else "")',
         f"{OFF_BY_ONE}: exactly six targets are said with a … as if there were more"),
        ("return [reason for line in text.splitlines() for reason in destroys(name, [*argv, *line.split()])]",
         "return [reason for line in text.splitlines() for reason in destroys(name, line.split())]",
         f"{STEP_MISSED}: the commands a client reads on stdin are checked without the program's name"),
    ),
    "narnat_agent/safety/deletions.py": _later(
        ("return cwd is None or os.path.commonpath([full, str(cwd)]) != str(cwd)",
         "return cwd is None or not full.startswith(str(cwd))",
         f"{FORMAT_EDGE}: a sibling folder sharing the project's prefix (/work/app2) counts as inside it"),
        ('if any(a and a.startswith(("--del", "--remove-source-files")) for a in argv):',
         'if any(a in ("--delete", "--remove-source-files") for a in argv):',
         f"{FORMAT_EDGE}: rsync's --delete-after and --delete-excluded run unasked"),
        ('    if "--force" in argv or short_option(argv[1:], "f"):\n        target = operands(argv)[-1:]',
         '    if "--force" in argv or "-f" in argv:\n        target = operands(argv)[-1:]',
         f"{FORMAT_EDGE}: `ln -sf` over an existing file runs unasked"),
    ),
    "narnat_agent/safety/git.py": _later(
        ("        i += 2 if word in GLOBAL_VALUES else 1\n", "        i += 1\n",
         f"{FORMAT_EDGE}: `git -C repo reset --hard` takes the folder for the subcommand"),
        ('mode = next((m for m in ("--hard", "--merge", "--keep") if m in words), None)',
         'mode = next((m for m in ("--hard", "--keep") if m in words), None)',
         f"{STEP_MISSED}: `git reset --merge` runs unasked"),
        ('    staged_only = ("--staged" in words or short_option(words, "S")) and not (\n'
         '        "--worktree" in words or short_option(words, "W")\n    )',
         '    staged_only = "--staged" in words or short_option(words, "S")',
         f"{INVERTED}: `git restore --staged --worktree` runs unasked"),
    ),
    "narnat_agent/safety/code.py": _later(
        ('return "c" in word[1:] and re.fullmatch(r"-[bBdEhiIOPqsSuvx]*c", word) is not None',
         'return word == "-c"', f"{FORMAT_EDGE}: python's -c in a cluster (`python -Bc '…'`) runs unchecked"),
        ('if {"exec", "eval", "Function"} & identifiers:', 'if {"exec", "eval"} & identifiers:',
         f"{STEP_MISSED}: code handed to JavaScript's Function constructor is not scanned"),
        ('and (flag != "-v" or family in SAYS_V)', "",
         f"{WRONG_SETTING}: python's -v (verbose) is taken for --version and the code runs unchecked"),
    ),
    "narnat_agent/safety/endless.py": _later(
        ("and not _fed(command) and not timed:", "and not _fed(command):",
         f"{STEP_MISSED}: `read -t 5 -p …`, which gives up after five seconds, is refused as asking the user"),
        ('PING_ENDS = re.compile(r"-[a-zA-Z]*[cw]")', 'PING_ENDS = re.compile(r"-[a-zA-Z]*c")',
         f"{FORMAT_EDGE}: ping with a deadline (-w 5) is refused as never ending"),
    ),
    "narnat_agent/safety/refusals.py": _later(
        ('any(re.fullmatch(r"-[nErsuz]*i.*", f) or f.startswith("--in-place") for f in flags)',
         'any(f == "-i" or f.startswith("--in-place") for f in flags)',
         f"{FORMAT_EDGE}: `sed -i.bak` and `sed -ni` edit files unrefused"),
        ("return None if command.background else Said(FOLLOWING, program=name)", "return Said(FOLLOWING, program=name)",
         f"{STEP_MISSED}: `tail -f log &` in the background is refused"),
    ),
    "narnat_agent/safety/runners.py": _later(
        ('i += 2 if len(word) == 2 and word[1] in "BbcDEeFIiJLlmOoPpQRSWw" else 1',
         'i += 2 if word in ("-i", "-p", "-l") else 1',
         f"{FORMAT_EDGE}: ssh's -o OPTION is taken for the host, its value for the remote command"),
        ('i += 2 if word in ("-n", "--interval") else 1', "i += 1",
         f"{FORMAT_EDGE}: `watch -n 5 rm -rf x` checks `5 rm -rf x`, which names no program"),
    ),
    "narnat_agent/safety/sql.py": _later(
        ('rest, read = rest[-16:] + chunk.decode("utf-8", "replace"), read + len(chunk)',
         'rest, read = chunk.decode("utf-8", "replace"), read + len(chunk)',
         f"{FORMAT_EDGE}: DROP cut by the end of a chunk of a long SQL file is not seen"),
        ("if command.stdin is not None or command.stdin_dynamic or command.upstream is not None:",
         "if command.stdin is not None or command.stdin_dynamic:",
         f"{STEP_MISSED}: SQL piped to the client (`echo 'DROP TABLE t' | psql`) is not read"),
    ),
    "narnat_agent/safety/rules.py": _later(
        ("    if command.background or bounded:", "    if command.background:",
         f"{STEP_MISSED}: a server under `timeout 60` is refused as never ending"),
        ("    if len(source) - script.heredocs > MAX_LENGTH:", "    if len(source) > MAX_LENGTH:",
         f"{WRONG_SETTING}: a long heredoc body makes a short command too long to check"),
    ),
    "narnat_agent/safety/wrappers.py": _later(
        ('        if flag in spec.values and "=" not in word:\n', "        if flag in spec.values:\n",
         f"{FORMAT_EDGE}: `sudo --user=root rm -rf x` takes rm for the option's value"),
        ('argv[inner] = re.sub(r"(?<=.)@[^/]*$", "", program)', 'argv[inner] = program.split("@")[0]',
         f"{FORMAT_EDGE}: a scoped package run by npx (`npx @scope/tool`) loses its name"),
    ),
    "narnat_agent/safety/syntax.py": _later(
        ('return any(word and re.fullmatch(rf"-[a-zA-Z0-9]*{letter}[a-zA-Z0-9]*", word) for word in words)',
         'return any(word and re.fullmatch(rf"-{letter}[a-zA-Z0-9]*", word) for word in words)',
         f"{FORMAT_EDGE}: a one-letter option not first in its cluster (`-xdf` has no f) is not seen"),
        ('    if node.type == "command_substitution" and DATE.fullmatch(_text(node)):\n'
         "        return False  # the date never reads as an option: `backup-$(date +%F).tar.gz`\n", "",
         f"{STEP_MISSED}: a file named by the date (`backup-$(date +%F).tar.gz`) asks as words that may be options"),
    ),
    "narnat_agent/safety/families.py": _later(
        ('N_("deletes branches or tags on the remote"), "-d --delete --prune")',
         'N_("deletes branches or tags on the remote"), "-d --delete")',
         f"{FORMAT_EDGE}: `git push --prune` runs unasked"),
        ('N_("prunes unreachable commits at once"), "--prune=now --prune=all")',
         'N_("prunes unreachable commits at once"), "--prune=now")',
         f"{FORMAT_EDGE}: `git gc --prune=all` runs unasked"),
    ),
    "narnat_agent/safety/windows.py": _later(
        ('w.lower() in ("/c", "/k", "//c", "//k")', 'w in ("/c", "/k", "//c", "//k")',
         f"{FORMAT_EDGE}: `cmd /C del …` in capitals runs its command unchecked"),
        ('            if not name.startswith("pwsh"):\n', '            if name.startswith("pwsh"):\n',
         f"{INVERTED}: Windows PowerShell's bare command text runs unchecked, pwsh's script name is checked as code"),
        ('target.lower() in ("nul", "$null", "nul:")', 'target in ("nul", "$null", "nul:")',
         f"{FORMAT_EDGE}: `> NUL` in capitals asks as replacing a file"),
    ),
}  # fmt: skip
