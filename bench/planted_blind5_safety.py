"""Planted defects of the vocabulary, the archivers, plan mode's reader, the in-place editors, the probes, pyproject's
tasks and the Windows API calls: a fifth set, written after their tests, as a tired developer would, without reading
those tests, and unlike the defects already planted there: each is `later`.

checkpoints/__init__.py has none: it only gathers the package's names, so a change there either breaks the import
(nothing the tests could judge) or changes nothing.

On first meeting (2026-11-28, the tests of main at the time) the suite caught 7 of these 15 (47 %): all of the
vocabulary's and pyproject's, none of the archivers' (`--directory=` read one letter short, a .tgz cut short raising
EOFError out of the check), `npm version patch` in plan mode, `sed -Ei`, a listing past its timeout raising out of
the check, and none of win32.py's, whose tests run under Wine alone (planted.py's WINE_TESTS; measured there with the
tests of its callers, the console's and the processes'). Each is caught now by a test written for it."""

from defects import FORMAT_EDGE, OFF_BY_ONE, STEP_MISSED, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND5_SAFETY: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/safety/vocabulary.py": _later(
        ('value = word.split("=", 1)[-1].strip("\\"\'")', 'value = word.split("=", 1)[0].strip("\\"\'")',
         f"{FORMAT_EDGE}: a database URL given as an option's value (`--url=postgres://…`) is not seen: "
         "`dbmate --url=postgres://h/app drop` runs unasked"),
        ("if parts(w)[:1] and parts(w)[0] in VERBS | EMPTIES", "if parts(w)[:1] and parts(w)[0] in VERBS",
         f"{WRONG_SETTING}: after a database's URL, a verb that empties only a store (`goose … postgres \"$DB\" down`) "
         "is no command: it runs unasked"),
    ),
    "narnat_agent/safety/archives.py": _later(
        ("else (archive, word[12:])", "else (archive, word[13:])",
         f"{OFF_BY_ONE}: `tar -xf a.tar --directory=out` looks in `ut`: the files it replaces in out are not named"),
        ("    except (tarfile.TarError, OSError, EOFError):\n", "    except (tarfile.TarError, OSError):\n",
         f"{STEP_MISSED}: a .tgz cut short (a download interrupted) raises out of the check instead of asking"),
    ),
    "narnat_agent/safety/readonly.py": _later(
        ('for part in (">", "|", "system"))', 'for part in (">", "system"))',
         f"{STEP_MISSED}: awk's `print | \"sh\"` (a pipe to a command) runs in plan mode as a read"),
        ("and len(words) == 1 and words[0] in VERSION_WORDS", "and len(words) >= 1 and words[0] in VERSION_WORDS",
         f"{OFF_BY_ONE}: `npm version patch` (which bumps package.json and tags) runs in plan mode as a version query"),
    ),
    "narnat_agent/safety/edits.py": _later(
        (r'SUBSTITUTE = re.compile(r"(?:^|[;\n])\s*s([/|#,:])', r'SUBSTITUTE = re.compile(r"(?:^|[;\n])\s*s([/|])',
         f"{FORMAT_EDGE}: `sed -i 's#^TOKEN=.*#TOKEN=#' .env` (another delimiter) is not seen to blank the value"),
        ('if not any(re.fullmatch(r"-[nErsuz]*i\\S*", a) or a.startswith("--in-place") for a in words):',
         'if not any(a.startswith("-i") or a.startswith("--in-place") for a in words):',
         f"{FORMAT_EDGE}: `sed -Ei '/^SECRET/d' .env` (-i after another option in one word) deletes lines unasked"),
    ),
    "narnat_agent/safety/probes.py": _later(
        ("    except (OSError, subprocess.SubprocessError):\n        return None\n",
         "    except OSError:\n        return None\n",
         f"{STEP_MISSED}: a listing that outlasts its timeout (find over a huge tree) raises out of the check"),
        ('return [line for line in text.split("\\0" if nul else "\\n") if line][: MAX_LINES + 1]',
         'return text.split("\\0" if nul else "\\n")[: MAX_LINES + 1]',
         f"{FORMAT_EDGE}: the listing's last newline is a name: a find that selects nothing is said to select one"),
    ),
    "narnat_agent/safety/pyproject.py": _later(
        ("words = words[1:] if runner in OWN else words", 'words = words[1:] if runner == "pdm" else words',
         f"{WRONG_SETTING}: `hatch run clean` looks for a script named run: clean's commands run unread"),
        ('[f"pre_{name}", name, f"post_{name}"] if hooks', '[f"pre_{name}", name] if hooks',
         f"{STEP_MISSED}: pdm's and taskipy's post_ script runs unread after the task"),
    ),
    "narnat_agent/platform/win32.py": _later(
        ("return ctypes.get_last_error() == ERROR_ACCESS_DENIED", "return False",
         f"{STEP_MISSED}: a process Narnat may not open (another user's, an elevated one) is taken for dead"),
        ("if record.EventType == KEY_EVENT and record.KeyEvent.bKeyDown\n", "if record.EventType == KEY_EVENT\n",
         f"{STEP_MISSED}: an ESC key's release is counted as a second press"),
        ("if not handle or not kernel32.GetConsoleMode(handle, ctypes.byref(mode)):",
         "kernel32.GetConsoleMode(handle, ctypes.byref(mode))\n    if not handle:",
         f"{STEP_MISSED}: standard input from a pipe or a file is taken for a console whose mode is 0"),
    ),
}  # fmt: skip
