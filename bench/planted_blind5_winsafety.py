"""Planted defects of package scripts and make/just targets, PowerShell's and cmd's readers, and the Windows rules: a
fifth set, written after their tests, as a tired developer would, without reading those tests, and unlike the defects
already planted there: each is `later`.

On first meeting (2026-11-28, the tests of main at the time) the suite caught 16 of these 18 (89 %). Missed were a
package.json that is valid JSON but a list, not an object (caught too narrowly, the analysis of `npm run x` failed
with a traceback), and `..` alone not said to lie where /undo does not reach (only `..\\x` was); each is caught now
by a test written for it."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_ORDER, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND5_WINSAFETY: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/safety/tasks.py": _later(
        ('current = [t for t in rule.group(1).split() if not t.startswith(".")]', "current = rule.group(1).split()",
         f"{FORMAT_EDGE}: a Makefile that begins with `.PHONY: all clean`: plain `make` is said to run clean's rm"),
        ('    rules, variables = _makefile(text or "")\n    variables.update(assigned)\n',
         '    rules, variables = _makefile(text or "")\n    variables = {**assigned, **variables}\n',
         f"{WRONG_ORDER}: `make clean DIR=/` over `DIR = build` in the Makefile: the file's wins: `rm -rf /` unsaid"),
        ("    except (ValueError, AttributeError):\n        return None\n",
         "    except ValueError:\n        return None\n",
         f"{STEP_MISSED}: a package.json that is a JSON list, not an object, breaks the analysis of `npm run x`"),
    ),
    "narnat_agent/safety/powershell.py": _later(
        ('                if token.opener == "{":  # the if\'s own block: elseif and else run when the path exists\n'
         "                    self.absent = None\n", "",
         f"{STEP_MISSED}: the else of `if (-not (Test-Path x)) {{…}} else {{Copy-Item a x}}` takes x for missing"),
        ('if len(words) == 2 and words[0].text.lower() in ("-not", "!")',
         'if len(words) == 2 and words[0].text in ("-not", "!")',
         f"{FORMAT_EDGE}: `if (-Not (Test-Path x)) {{ Copy-Item a x }}` in capitals: asked to overwrite a missing x"),
        ("            name = self._values(target)\n", "            name = [target.text]\n",
         f"{FORMAT_EDGE}: `& $tool C:\\ -Recurse`: the called program is the text `$tool`, not computed"),
    ),
    "narnat_agent/safety/cmd.py": _later(
        ('self.text = re.sub(r"\\^\\r?\\n", "", text.replace("\\r\\n", "\\n"))',
         'self.text = re.sub(r"\\^\\n", "", text).replace("\\r\\n", "\\n")',
         f"{WRONG_ORDER}: a ^ that continues a CRLF line is joined before CRLF is read: `rd /s /q ^` then `C:\\`"),
        ("            at += 3\n", "            at += 2\n",
         f"{OFF_BY_ONE}: `if /i \"%1\" == \"clean\" rd /s /q build`: the right side taken for the command"),
    ),
    "narnat_agent/safety/windows_losses.py": _later(
        ('command.name == "new-item" and not bound.on("force")', 'command.name == "new-item" and bound.on("force")',
         f"{INVERTED}: `New-Item -Force x.json` over an existing x.json replaces it unasked"),
        ('"$true" in command.argv[3:]', '"$true" in command.argv[4:]',
         f"{OFF_BY_ONE}: `[IO.File]::Copy(a, b, $true)` overwrites b unasked: the flag looked for past it"),
    ),
    "narnat_agent/safety/windows_syntax.py": _later(
        ('EXTENSIONS = (".exe", ".com", ".bat", ".cmd")', 'EXTENSIONS = (".exe", ".com", ".bat")',
         f"{FORMAT_EDGE}: `npm.cmd run clean` is not npm: its script is never read"),
        ('if relative != ".." and not relative.startswith("..\\\\"):', 'if not relative.startswith("..\\\\"):',
         f"{FORMAT_EDGE}: `Remove-Item .. -Recurse` (the parent itself) is not said to lie where /undo does not reach"),
    ),
    "narnat_agent/safety/windows_refusals.py": _later(
        ("return command.consumed or saved or after is not None", "return saved or after is not None",
         f"{STEP_MISSED}: `$text = Get-Content notes.txt` is refused as a read, though its text goes to a variable"),
        ("    if any(f in command.reads for f in files if f):\n"
         '        return Said(N_("editing files with {program}: use Edit"), program=shown)\n', "",
         f"{STEP_MISSED}: `(Get-Content a.txt) -replace 'x','y' | Set-Content a.txt` edits unrefused: Edit not named"),
    ),
    "narnat_agent/safety/powershell_lex.py": _later(
        ('            self.at += len(rest) if end < 0 else end\n            return Token("comment", "")',
         '            self.at += len(rest) if end < 0 else end + 1\n            return Token("comment", "")',
         f"{OFF_BY_ONE}: a # comment takes its newline: the next line's command read as words of the one before"),
        ('REDIRECT = re.compile(r"(?:[1-6*]?>>?(?:&[12])?|<)")', 'REDIRECT = re.compile(r"(?:[1-6*]?>>?|<)")',
         f"{FORMAT_EDGE}: `2>&1` is a redirection to a file named `&`, then a word 1"),
    ),
    "narnat_agent/safety/windows_system.py": _later(
        ('        args = [a.lower() if a else "" for a in command.argv[1:]]\n        if "/?" in args or not all(',
         '        args = [a or "" for a in command.argv[1:]]\n        if "/?" in args or not all(',
         f"{FORMAT_EDGE}: `REG DELETE HKCU\\Software\\App /f` in capitals deletes the key unasked"),
        ("for a in c.argv[1:3] if a]", "for a in c.argv[:2] if a]",
         f"{OFF_BY_ONE}: `vssadmin delete shadows /all` is compared with the program's own name first: unasked"),
    ),
}  # fmt: skip
