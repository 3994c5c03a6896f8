"""Planted defects of the safety group's modules (package scripts and targets, the vocabulary, plan mode's reader,
the probes, the archivers and in-place editors, pyproject's tasks, PowerShell's and cmd's parses and the Windows
rules), written from the modules alone, as a tired developer would, before their tests were read: each is `later`."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND_SAFETY: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/safety/tasks.py": _later(
        ("if (text := read_small(folder / name)) is not None:",
         "if (text := read_small(check.cwd / name)) is not None:",
         f"{WRONG_SETTING}: `make -C sub clean` reads the project's own Makefile, not sub's"),
        ('rules[target][1].append(line[1:].lstrip("@-+ "))', 'rules[target][1].append(line[1:].lstrip("@ "))',
         f"{FORMAT_EDGE}: a recipe line `-rm -rf build` (errors ignored) is read as a program named -rm"),
        ('if line[:1] in (" ", "\\t") and current is not None:', 'if line.startswith(" ") and current is not None:',
         f"{FORMAT_EDGE}: a justfile's recipe indented with tabs has no lines: `just clean` runs its rm unread"),
    ),
    "narnat_agent/safety/vocabulary.py": _later(
        ("if len(split) > 1 and split[0] in DECLINES", "if len(split) > 2 and split[0] in DECLINES",
         f"{OFF_BY_ONE}: `--no-backup` (two parts) is not seen to decline the backup"),
        ("CACHES & {p for w in [*named, *flagged] for p in parts(w)}", "CACHES & {p for w in named for p in parts(w)}",
         f"{WRONG_SETTING}: `--clear-cache` is said to lose what cannot be undone, not what its tool makes again"),
    ),
    "narnat_agent/safety/readonly.py": _later(
        ('sub not in ("stash", "worktree") or bool(rest)', 'sub != "worktree" or bool(rest)',
         f"{STEP_MISSED}: `git stash` alone (which stashes the changes) runs in plan mode as a listing"),
        ('return not any(w.startswith("--output") for w in rest)', 'return not any(w == "--output" for w in rest)',
         f"{FORMAT_EDGE}: `git diff --output=patch.txt` writes its file in plan mode"),
    ),
    "narnat_agent/safety/probes.py": _later(
        ("    if done.returncode != 0:\n        return None\n", "",
         f"{STEP_MISSED}: a listing that fails (find in a missing folder) is said to select nothing"),
        ("return list(dict.fromkeys(found)) if found is not None else None", "return found",
         f"{STEP_MISSED}: `find … -print -delete` names each file twice and counts it twice"),
    ),
    "narnat_agent/safety/archives.py": _later(
        ('letters = cluster + "".join(', 'letters = "".join(',
         f"{FORMAT_EDGE}: the old form `tar xzf a.tgz` is not seen to extract: it replaces files unasked"),
        ('any(m == w or m.startswith(w.rstrip("/") + "/") for w in members)', "any(m == w for w in members)",
         f"{FORMAT_EDGE}: `tar -xf a.tar src/` (a folder named) is taken to replace none of the files under it"),
    ),
    "narnat_agent/safety/edits.py": _later(
        ('kept = re.sub(r"\\.\\*\\$?$", "", pattern).lstrip("^")', 'kept = re.sub(r"\\.\\*\\$?$", "", pattern)',
         f"{STEP_MISSED}: `sed -i 's/^KEY=.*/KEY=/' .env` (anchored) is not seen to blank the value"),
        ('module, given = "command", None', 'module, given = "", None',
         f"{STEP_MISSED}: `ansible all -a 'rm -rf /srv/app'` (the default command module) runs its text unread"),
    ),
    "narnat_agent/safety/pyproject.py": _later(
        ('for key in ("cmd", "shell", "sequence", "composite", "ref")',
         'for key in ("cmd", "sequence", "composite", "ref")',
         f"{STEP_MISSED}: a poe task `{{shell = \"rm -rf data\"}}` is not read"),
        ('hooks = runner in ("pdm", "task")', 'hooks = runner == "pdm"',
         f"{WRONG_SETTING}: taskipy's pre_ task runs unread before the task"),
    ),
    "narnat_agent/safety/powershell.py": _later(
        ("            while start >= 0:", "            if start >= 0:",
         f"{STEP_MISSED}: in \"$(Get-Date) $(Remove-Item x)\" only the first sub-expression is read"),
        ("if len(groups) < 2 or [t.text.lower() for t in groups[0].children]",
         "if len(groups) < 2 or [t.text for t in groups[0].children]",
         f"{FORMAT_EDGE}: `while ($True) {{ … }}` with a capital is not seen to never end"),
        ('re.sub(r"\\[(system\\.)?", "[", method.text.lower())', "method.text.lower()",
         f"{FORMAT_EDGE}: [System.IO.File]::WriteAllText, written in full, is not the call the rules know"),
    ),
    "narnat_agent/safety/powershell_lex.py": _later(
        ('re.sub(r"`\\r?\\n", "", text)', 're.sub(r"`\\n", "", text)',
         f"{FORMAT_EDGE}: a backtick continuing a CRLF line splits the command: the rest is a statement of its own"),
        ("self.at += len(rest) if end < 0 else end + 2", "self.at += len(rest) if end < 0 else end + 1",
         f"{OFF_BY_ONE}: after `<# … #>` the `>` left is read as a redirection, and the command after it is lost"),
    ),
    "narnat_agent/safety/cmd.py": _later(
        ('t.kind == "word" and t.text.lower() == "do"', 't.kind == "word" and t.text == "do"',
         f"{FORMAT_EDGE}: `FOR %%f IN (*.log) DO del %%f` in capitals: the del is never read"),
        ("self.variables[name.lower()] = self.value(value)", "self.variables[name] = self.value(value)",
         f"{FORMAT_EDGE}: `set DIR=C:\\` then `rd /s /q %DIR%`: the name in capitals is never found again"),
    ),
    "narnat_agent/safety/windows_losses.py": _later(
        ("target, outside = place(pairs[1][0], pairs[1][1], check.cwd)",
         "target, outside = place(pairs[0][0], pairs[0][1], check.cwd)",
         f"{WRONG_SETTING}: robocopy /MIR is said to delete in its source, not in the folder it mirrors into"),
        ("if written and all(w.startswith(PROVIDERS) for w in written):",
         "if written and any(w.startswith(PROVIDERS) for w in written):",
         f"{INVERTED}: `Remove-Item env:X, C:\\proj -Recurse` is taken as a session variable's removal alone"),
    ),
    "narnat_agent/safety/windows_syntax.py": _later(
        ("name = next((p for p in full if p.startswith(given)), given) if given else given", "name = given",
         f"{FORMAT_EDGE}: an abbreviated parameter (`Remove-Item x -r`) is not the one it abbreviates"),
        # in place of `v.lower()` left out in Bound.on, which changed nothing: bind lowers a switch's value already
        ('str(windows).rstrip("\\\\/*.")', 'str(windows).rstrip("\\\\/")',
         f"{FORMAT_EDGE}: `Remove-Item C:\\* -Recurse` is not said to empty the whole drive"),
    ),
    "narnat_agent/safety/windows_system.py": _later(
        ("command.upstream is not None or command.stdin is not None or fed(command)",
         "command.upstream is not None or command.stdin is not None",
         f"{STEP_MISSED}: `diskpart < wipe.txt` runs the disk commands of its file unasked"),
        ('if target.lower().rstrip("\'\\")").endswith(s.lower())', 'if target.rstrip("\'\\")").endswith(s)',
         f"{FORMAT_EDGE}: SetEnvironmentVariable(…, 'user') in lower case is taken for the process's own"),
    ),
    "narnat_agent/safety/windows_refusals.py": _later(
        ("    check.verdict.deletions += started.deletions\n", "",
         f"{STEP_MISSED}: what a program Start-Process starts would delete is forgotten with its verdict"),
        (" and not (i and args[i - 1] in WSL_VALUES)", "",
         f"{STEP_MISSED}: `wsl -d Ubuntu` takes the distribution for a command: the shell it opens is not refused"),
    ),
}  # fmt: skip
