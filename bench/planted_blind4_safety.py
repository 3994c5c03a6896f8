"""Planted defects of the command analysis (narnat_agent/safety/), a fourth set written after their tests, as a tired
developer would, without reading those tests, and unlike the defects already planted there: each is `later`.

On first meeting (2026-11-28, the tests of main at the time) the suite caught 36 of these 46 (78 %): missed were
"$HOME/" not named as the home folder, a computed word in find -exec's command failing the analysis, the command
under wrappers losing its own -c (`npx jest -c …`), `git worktree remove -f`, SQL whose quote is never closed
failing the analysis, a script fed to ssh that cannot be opened failing it, `powershell -exec bypass -c …`, a copy
into a folder looked up by the source's path, a nested script's reasons put first, and `curl -LO`. Each is caught
now by a test written for it. Four were first judged to change nothing and replaced, blind, before their results
were in; three of them were caught all the same and are kept beside their replacements (foreach --recursive, the
captured command, ssh's script past its limit); the fourth (`cd "$DIR" && rm -rf ~/x` placing ~ under $DIR, which
only a Bash without HOME meets) was missed and is left out."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND4_SAFETY: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/safety/deletions.py": _later(
        ('if path.rstrip("/") == check.env.get("HOME", "").rstrip("/") and path:',
         'if path == check.env.get("HOME", "") and path:',
         f"{FORMAT_EDGE}: `rm -rf \"$HOME/\"` (a trailing slash) is not said to be the home folder"),
        ('if out and out != "/dev/null" and (check.cwd is None', "if out and (check.cwd is None",
         f"{STEP_MISSED}: `dd if=disk.img of=/dev/null`, a read, is said to overwrite /dev/null"),
        ("aligned = offset >= 0 and command.argv[offset:] == argv and len(command.raw) == len(command.argv)",
         "aligned = offset >= 0 and command.argv[offset:] == argv",
         f"{STEP_MISSED}: a word computed at run time in find -exec's command (`-exec rm \"$f\" {{}} ;`) is looked up "
         "among words the inner command does not have: the analysis fails"),
    ),
    "narnat_agent/safety/families.py": _later(
        ('"-f --force --force-with-lease --mirror"', '"-f --force --mirror"',
         f"{STEP_MISSED}: `git push --force-with-lease` runs unasked"),
        ('"-destroy --destroy"', '"--destroy"',
         f"{FORMAT_EDGE}: `terraform apply -destroy`, with Terraform's one dash, runs unasked"),
        ('values="-h -p -n -a -u --user --pass --pattern --scan-pattern -c --cert --key"',
         'values="-h -p -a -u --user --pass --pattern --scan-pattern -c --cert --key"',
         f"{STEP_MISSED}: `redis-cli -n 1 FLUSHDB` takes the database number for the command and runs unasked"),
    ),
    "narnat_agent/safety/rules.py": _later(
        ('if empties and operator != ">>" and operator != "&>>":', 'if empties and operator != ">>":',
         f"{FORMAT_EDGE}: `: &>> log.txt`, which only appends, is said to empty log.txt"),
        ('argv[:1] in (["cat"], ["tee"]) and command.stdin is not None:', 'argv[:1] in (["cat"], ["tee"]):',
         f"{STEP_MISSED}: `cat a.txt b.txt > all.txt` is refused as writing a file with cat: use Write"),
        ("                if NOT_UNDOABLE in r\n", "                if NOT_UNDOABLE not in r\n",
         f"{INVERTED}: `ssh host rm -rf /srv/x` is asked without saying /undo cannot restore it on the other machine"),
    ),
    "narnat_agent/safety/wrappers.py": _later(
        ('check.script(word.split("=", 1)[1] if "=" in word else argv[script + 1] if script + 1 < len(argv) else "", '
         "name)",
         'check.script(argv[script + 1] if script + 1 < len(argv) else "", name)',
         f"{FORMAT_EDGE}: `su root --command='rm -rf /x'` checks the word after it, not its text: runs unasked"),
        ("for j in range(start, min(start + 4, len(argv))):", "for j in range(start, min(start + 2, len(argv))):",
         f"{OFF_BY_ONE}: `su - postgres -c 'dropdb app'` (the -c third after the options) runs its text unchecked"),
        ("if start is None or script is not None and script < start:", "if start is None or script is not None:",
         f"{INVERTED}: `npx jest -c jest.config.js` (the command's own -c) is read as shell text: no command is seen"),
    ),
    "narnat_agent/safety/git.py": _later(
        ('if {"-f", "--force", "--discard-changes"} & set(w)', 'if {"-f", "--force"} & set(w)',
         f"{STEP_MISSED}: `git switch --discard-changes main` runs unasked"),
        ('if "remove" in w and ({"--force"} & set(w) or short_option(w, "f"))',
         'if "remove" in w and {"--force"} & set(w)',
         f"{FORMAT_EDGE}: `git worktree remove -f ../wt`, with the short -f, runs unasked"),
        ('rest = [w for w in words[words.index("foreach") + 1 :] if w not in ("--recursive", "-q", "--quiet")]',
         'rest = words[words.index("foreach") + 1 :]',
         f"{STEP_MISSED}: `git submodule foreach --recursive 'git reset --hard'` checks `--recursive` as the program"),
        ('elif word.startswith(option + "=") or len(option) == 2 and word.startswith(option) and word != option:',
         "elif len(option) == 2 and word.startswith(option) and word != option:",
         f"{FORMAT_EDGE}: `git rebase --exec='rm -rf x' main` runs its command unchecked"),
    ),
    "narnat_agent/safety/sql.py": _later(
        ("if client.operand and len(plain) >= client.operand:", "if client.operand and len(plain) > client.operand:",
         f"{OFF_BY_ONE}: `sqlite3 app.db 'DROP TABLE users'` (the SQL the last word) runs unasked"),
        ("file = Path(path) if cwd is None or Path(path).is_absolute() else cwd / path", "file = Path(path)",
         f"{WRONG_SETTING}: `psql -f drop.sql` looks for the file from Narnat's folder, not the command's"),
        ("except (sqlglot.errors.ParseError, sqlglot.errors.TokenError):", "except sqlglot.errors.ParseError:",
         f"{STEP_MISSED}: SQL with an unclosed quote (`psql -c \"DELETE FROM t WHERE a='x\"`) fails the analysis"),
    ),
    "narnat_agent/safety/code.py": _later(
        ('re.fullmatch(r"-[a-zA-Z0-9]*[eE]", word) is not None and len(word) > 2',
         're.fullmatch(r"-[a-zA-Z0-9]*[eE]", word) is not None and len(word) > 3',
         f"{OFF_BY_ONE}: perl's -le (`perl -le 'unlink glob \"*\"'`) is not read as code: its code runs unchecked"),
        ("(?:writeFileSync|writeFile|file_put_contents|File", "(?:writeFile|file_put_contents|File",
         f"{STEP_MISSED}: `node -e \"fs.writeFileSync('package.json', '{{}}')\"` over an existing file runs unasked"),
        ('i += 2 if flag in VALUES.get(family, ()) and "=" not in word else 1',
         "i += 2 if flag in VALUES.get(family, ()) else 1",
         f"{FORMAT_EDGE}: `node --require=dotenv/config -e '…'` skips -e: its code is taken for a script, unchecked"),
    ),
    "narnat_agent/safety/refusals.py": _later(
        ('COMMIT_MESSAGE = re.compile(r"-[a-zA-Z]*[mFC]|', 'COMMIT_MESSAGE = re.compile(r"-[mFC]|',
         f"{FORMAT_EDGE}: `git commit -am 'fix'` is refused as opening an editor"),
        ('"-L", "-R", "-D"})) <= 1', '"-L", "-R", "-D"})) < 1',
         f"{OFF_BY_ONE}: `ssh host`, a login shell that waits for a person, is not refused: the turn hangs"),
        ("feeds = node.downstream is not None and (node.downstream.name not in FILTERS or known)",
         "feeds = node.downstream is not None and node.downstream.name not in FILTERS",
         f"{STEP_MISSED}: `cat data.csv | sort | python load.py` is refused as reading a file"),
    ),
    "narnat_agent/safety/syntax.py": _later(
        ("        command.stdin_file = value(target) if target is not None else None\n"
         "        command.stdin_dynamic |= command.stdin_file is None\n",
         "        command.stdin_file = value(target) if target is not None else None\n",
         f"{STEP_MISSED}: `psql < \"$FILE\"` has no input at all: the SQL it runs is never asked about"),
        ('if node.type in ("simple_expansion", "expansion", "command_substitution"):',
         'if node.type in ("simple_expansion", "command_substitution"):',
         f"{FORMAT_EDGE}: `${{FLAGS}}` in braces is not counted as a word that may split into options"),
        ("stack.extend((c, True, False) for c in reversed(children) if c.is_named and c.type not in LEAVES)",
         "stack.extend((c, inside, False) for c in reversed(children) if c.is_named and c.type not in LEAVES)",
         f"{WRONG_SETTING}: the commands inside a command's words are not marked as captured there"),
        ("""_text(c)[:1] in "'\\"\\\\" for c in node.children)""", """_text(c)[:1] == "'" for c in node.children)""",
         f"{FORMAT_EDGE}: a heredoc quoted with double quotes (`<<\"EOF\"`) is read as unquoted: its backquotes ask as "
         "commands"),
    ),
    "narnat_agent/safety/endless.py": _later(
        ('"vite": frozenset({"", "dev", "serve", "preview"}),', '"vite": names("dev serve preview"),',
         f"{STEP_MISSED}: a bare `vite`, which serves until stopped, is not refused: the turn hangs"),
        ('args[:1] == ["-m"] and len(args) > 1)', 'args[:1] == ["-m"] and len(args) > 2)',
         f"{OFF_BY_ONE}: `python3 -m http.server` without a port is not refused: the turn hangs"),
    ),
    "narnat_agent/safety/runners.py": _later(
        ('if len(words) > 1 and words[0] not in ("-", "-p", "-l"):',
         'if len(words) > 2 and words[0] not in ("-", "-p", "-l"):',
         f"{OFF_BY_ONE}: `trap 'rm -rf /srv/x' EXIT` (the code and one signal) runs its code unchecked"),
        ('return text.decode("utf-8", "replace") if len(text) <= MAX_SCRIPT else None',
         'return text.decode("utf-8", "replace")',
         f"{STEP_MISSED}: a script fed to ssh longer than the limit is checked by its first part only"),
        ("    except OSError:\n", "    except FileNotFoundError:\n",
         f"{STEP_MISSED}: `ssh host bash < deploy.sh` with deploy.sh unreadable fails the analysis"),
    ),
    "narnat_agent/safety/windows.py": _later(
        ("skip = option in PS_VALUES or len(option) > 2 and any(p.startswith(option) for p in PS_VALUES)",
         "skip = option in PS_VALUES",
         f"{FORMAT_EDGE}: `powershell -exec bypass -c \"Remove-Item …\"` runs `bypass …` as its text: unchecked"),
        ("words = command.argv[1:] if len(command.argv) > 1 else [command.stdin]", "words = command.argv[1:]",
         f"{STEP_MISSED}: code piped to Invoke-Expression (`irm URL | iex`) runs unasked"),
    ),
    "narnat_agent/safety/destroys.py": _later(
        ('if first is not None and first.rsplit("/", 1)[-1] in SCRIPTS:', "if first is not None and first in SCRIPTS:",
         f"{FORMAT_EDGE}: `python ./manage.py flush` (a path to the script) runs unasked"),
        ('return re.split(r"[-.]", argv[2].rsplit("/", 1)[-1])[0], argv[2:]',
         'return re.split(r"\\.", argv[2].rsplit("/", 1)[-1])[0], argv[2:]',
         f"{FORMAT_EDGE}: `java -jar bfg-1.14.0.jar --delete-files x` (a versioned jar) runs unasked"),
    ),
    "narnat_agent/safety/overwrites.py": _later(
        ("    except OSError:\n        return False\n", "    except OSError:\n        return True\n",
         f"{INVERTED}: `cp build/app bin/app` whose source is not there yet is taken for the same file: runs unasked"),
        ("os.path.join(into, os.path.basename(source))", "os.path.join(into, source)",
         f"{WRONG_SETTING}: `cp src/a.txt dist/` looks at dist/src/a.txt, not dist/a.txt: runs unasked"),
    ),
    "narnat_agent/safety/check.py": _later(
        ("        self.deletions += other.deletions\n", "        self.deletions[:0] = other.deletions\n",
         f"{WRONG_ORDER}: a nested script's reasons come before those of the commands before it"),
        ("        self.file_ops += other.file_ops\n", "        self.file_ops += other.deletions\n",
         f"{WRONG_SETTING}: `bash -c 'rm -rf build'` is refused as a file tool's job instead of asked"),
    ),
    "narnat_agent/safety/embedded.py": _later(
        ('        stdin |= not word.startswith("--") and "s" in word[1:]\n', "",
         f"{STEP_MISSED}: `curl URL | bash -s -- --yes` runs the downloaded script unasked"),
        ('argv[1] in (None, "/dev/stdin", "-")', 'argv[1] in ("/dev/stdin", "-")',
         f"{STEP_MISSED}: `source <(curl -s URL)` runs code computed at run time unasked"),
    ),
    "narnat_agent/safety/downloads.py": _later(
        ('remote_name = any(re.fullmatch(r"-[a-zA-Z]*O|--remote-name", w) for w in words)',
         'remote_name = any(w in ("-O", "--remote-name") for w in words)',
         f"{FORMAT_EDGE}: `curl -LO URL/install.sh && bash install.sh` runs the download unasked"),
        ("    if name in SHELLS or INTERPRETERS.match(name):\n", "    if name in SHELLS:\n",
         f"{STEP_MISSED}: `curl -o get.py URL && python get.py` runs the download unasked"),
    ),
}  # fmt: skip
