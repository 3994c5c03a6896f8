"""Planted defects of the file tools and their helpers, verification, TodoWrite and the tool contract, written by a
fourth writer from the modules alone, as a tired developer would, without reading their tests: each is `later`."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND4_FILES: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/tools/write.py": _later(
        # in place of `encoding = UTF8` left out after the fallback to UTF-8, which changes nothing: the codec
        # remembered is only asked for bytes that are not UTF-8, and these are
        ("    ws.written(path, encoded)\n", "",
         f"{STEP_MISSED}: the editor's unsaved text of the file is not given what Write wrote: its buffer keeps the "
         "old text"),
        ("        encoded = encoding.encode(content)\n", "        encoded = encoding.encode(args[\"content\"])\n",
         f"{WRONG_SETTING}: the text is written with the model's line endings, not the file's, while the result says "
         "the file's"),
    ),
    "narnat_agent/tools/edit/notebook.py": _later(
        ("return CellEdit(written, n, source, done, note)", "return CellEdit(written, n, done.text, done, note)",
         f"{WRONG_SETTING}: the cell's diff compares the new source with itself: an edit shows no change"),
        ('if isinstance(cell["source"], list) else done.text', 'if isinstance(cell["source"], str) else done.text',
         f"{INVERTED}: a cell kept as a list of lines is written back as one string, and a string as a list"),
    ),
    "narnat_agent/tools/read/lines.py": _later(
        ("        sha.update(chunk)\n        if first and chunk.startswith(UTF8_BOM):\n"
         "            bom, chunk = UTF8_BOM, chunk[len(UTF8_BOM) :]\n",
         "        if first and chunk.startswith(UTF8_BOM):\n"
         "            bom, chunk = UTF8_BOM, chunk[len(UTF8_BOM) :]\n        sha.update(chunk)\n",
         f"{WRONG_ORDER}: a file with a byte-order mark is digested without it: an Edit after Read says the file "
         "changed since"),
        ("        last = chunk[-1:] or last\n", "        last = chunk[-1:]\n",
         f"{FORMAT_EDGE}: a file holding only its byte-order mark is said to have one line"),
    ),
    "narnat_agent/tools/read/images.py": _later(
        ('    return Picture(name, "image/jpeg" if jpeg else "image/png", encoded), image.size',
         '    return Picture(name, "image/jpeg" if jpeg else "image/png", encoded), size',
         f"{WRONG_SETTING}: a scaled image is given its original size: the result never says it was scaled"),
        ("    except OSError as e:\n        raise ToolError(f\"{name} is not a readable image ({e}).\") from None\n"
         "    note",
         "    except ValueError as e:\n        raise ToolError(f\"{name} is not a readable image ({e}).\") from None\n"
         "    note",
         f"{FORMAT_EDGE}: an image cut short after its header fails with Pillow's raw error, not a sentence"),
    ),
    "narnat_agent/tools/grep.py": _later(
        ('text += f"\\n(showing {noun} {offset + 1}-{last} of', 'text += f"\\n(showing {noun} {offset}-{last} of',
         f"{OFF_BY_ONE}: a page's range is said from 0: 'showing lines 0-250'"),
        ("names = [ripgrep.shown_name(path) for path in ripgrep.newest_first(list(found), ws.root)]",
         "names = [ripgrep.shown_name(path) for path in sorted(found)]",
         f"{STEP_MISSED}: files with matches are listed by name, not newest first as the description promises"),
        ("[… {max(len(line) - end, 0):,} more]", "[… {len(line) - end:,} more]",
         f"{FORMAT_EDGE}: a match near the end of a long line says '[… -120 more]'"),
    ),
    "narnat_agent/tools/glob.py": _later(
        ("        rest = len(files) - LIMIT\n", "        rest = len(found) - LIMIT\n",
         f"{WRONG_SETTING}: a name pattern's 'more' counts the files in subfolders too"),
        ('base = Path(os.path.normpath(top / "/".join(segments[:literal]))) if literal else top',
         'base = top / "/".join(segments[:literal]) if literal else top',
         f"{FORMAT_EDGE}: '../other/*.py' is taken as inside the folder searched: nothing found"),
    ),
    "narnat_agent/tools/files/textfile.py": _later(
        ("for r in results[1:])", "for r in results)",
         f"{OFF_BY_ONE}: the detector's winner ties with itself: no encoding is ever detected, Shift-JIS is read "
         "as cp1252"),
        ('    if detected in CHINESE:\n        detected = "gb18030"\n', "",
         f"{STEP_MISSED}: a file detected as GB2312 keeps that codec: a character beyond it turns the file to UTF-8"),
    ),
    "narnat_agent/tools/files/syntax_check.py": _later(
        ("        json.loads(text, parse_constant=refuse)\n", "        json.loads(text)\n",
         f"{FORMAT_EDGE}: a JSON file given NaN or Infinity passes as valid"),
        ("        shift += new - old\n", "        shift += old - new\n",
         f"{WRONG_SETTING}: with several changes (replace_all), the later ones are looked for where lines moved the "
         "wrong way"),
    ),
    "narnat_agent/tools/files/parsers.py": _later(
        ('text = node.text.decode("utf-8", "replace").strip().split("\\n")[0]',
         'text = node.text.decode("utf-8", "replace").strip()',
         f"{STEP_MISSED}: an error node over several lines is quoted across them: 'unexpected \\'foo(\\\\n  bar\\''"),
        # in place of `except ValueError` narrowed, which changes nothing here (this Python's compiler raises
        # SyntaxError for a NUL byte, and a lone surrogate cannot be written)
        ("        return self.message, self.text.strip()\n", "        return self.message, self.text\n",
         f"{FORMAT_EDGE}: an error the file had before, on a line the change re-indented, is said to be new"),
    ),
    "narnat_agent/tools/files/stopping.py": _later(
        ('        offset = data.index(b"\\n", offset) + 1\n', '        offset = data.index(b"\\n", offset)\n',
         f"{OFF_BY_ONE}: the place the parse log names is counted from the first line break again and again: an "
         "error past line 2 is named on line 2"),
        # in place of the place taken where the parser resumed (`self.position`), not where it paused: they were
        # the same in each of 1,530 resumes of broken texts tried; this one was noted with the others, before the
        # tests were read, but planted after a part of them had been
        ('braces += (piece.type == "{") - (piece.type == "}")', 'braces += (piece.type == "}") - (piece.type == "{")',
         f"{INVERTED}: read backwards, a brace closed before the element is taken for one opened around it"),
    ),
    "narnat_agent/tools/files/statements.py": _later(
        ("(?:end|fi|done|esac|else|elif|except|finally)", "(?:end|fi|done|esac|except|finally)",
         f"{FORMAT_EDGE}: a line starting with else starts a statement: an Edit that leaves an else without its if "
         "is not named"),
        ("        return [*self.head, *range(self.start, self.end), *self.tail]",
         "        return [*range(self.start, self.end), *self.head, *self.tail]",
         f"{WRONG_ORDER}: inside a large block, an error's line is counted with the block's opening lines after the "
         "statements: it is named on the wrong line"),
    ),
    "narnat_agent/tools/files/html_context.py": _later(
        ('    if parent == "P":\n', '    if parent == "p":\n',
         f"{FORMAT_EDGE}: the names are upper case: a <p> is never closed by the <div> that follows it"),
        ("                del stack[len(stack) - 1 - stack[::-1].index(name) :]\n",
         "                stack.pop()\n",
         f"{STEP_MISSED}: an end tag closes only the innermost element, not the ones left open inside its own"),
    ),
    "narnat_agent/tools/files/yaml_syntax.py": _later(
        ("return (mark.line + 1, mark.column + 1, words)", "return (mark.line, mark.column + 1, words)",
         f"{OFF_BY_ONE}: libyaml's line is said counted from 0: the error is named on the line above"),
        ('words = ", ".join(w for w in (e.problem, e.context) if w) or "not YAML"',
         'words = e.problem or "not YAML"',
         f"{STEP_MISSED}: what libyaml was reading (while parsing a block mapping) is left out of the error"),
    ),
    "narnat_agent/tools/files/diffs.py": _later(
        ("[line cut: {len(line) - 1:,} characters]", "[line cut: {len(line):,} characters]",
         f"{OFF_BY_ONE}: a cut line's length counts its '+' or '-' mark"),
        ("_hunks(before.splitlines(), after.splitlines(),",
         "_hunks(after.splitlines(), before.splitlines(),",
         f"{WRONG_ORDER}: the diff runs from the new text to the old: added lines shown as removed"),
    ),
    "narnat_agent/tools/verification.py": _later(
        ('self.run if len(self.run) <= 40 else self.run[:39] + "…"',
         'self.run if len(self.run) <= 40 else self.run[:40] + "…"',
         f"{OFF_BY_ONE}: a long filtered run is shown 41 characters long in the footer"),
        ('rest = [w for w in words[1:] if not w.startswith("-") or w == "--build"]',
         'rest = [w for w in words[1:] if not w.startswith("-")]',
         f"{FORMAT_EDGE}: `cmake --build build` is no verification"),
    ),
    "narnat_agent/tools/todo_write.py": _later(
        ('first = next((t for t in todos if t["status"] == "pending"), None)',
         'first = next((t for t in todos if t["status"] != "in_progress"), None)',
         f"{WRONG_SETTING}: with nothing in progress, a completed task at the top is started again"),
        ('note = " (marked in_progress: the first unfinished task)" if started else ""',
         'note = " (marked in_progress: the first unfinished task)" if current else ""',
         f"{WRONG_SETTING}: a list the model sent with a task in progress is said to have had one started for it"),
    ),
    "narnat_agent/tools/registry.py": _later(
        ("    except Exception as e:  # a bug in a tool must not end the conversation\n",
         "    except (ValueError, TypeError, KeyError) as e:  # a bug in a tool must not end the conversation\n",
         f"{FORMAT_EDGE}: a tool's crash other than the usual three (an AttributeError) ends the turn with a "
         "traceback"),
        ('return Result(f"Error: {e}", spoken(e.shown).split("\\n", 1)[0], True)',
         'return Result(f"Error: {e}", spoken(e.shown), True)',
         f"{STEP_MISSED}: the person's one line for a failed call holds the whole error, over several lines"),
    ),
    "narnat_agent/tools/base.py": _later(
        ("        super().__init__(text)\n        self.shown",
         "        super().__init__(shown or text)\n        self.shown",
         f"{WRONG_SETTING}: the model is told the person's short words for a failure, not the sentence naming the "
         "fix"),
        ('path = args.get("file_path")', 'path = args.get("path")',
         f"{WRONG_SETTING}: Write's and Edit's file is looked for under 'path': plan mode lets them change files"),
    ),
}  # fmt: skip
