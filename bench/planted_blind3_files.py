"""Planted defects of the file tools and their helpers, verification, TodoWrite and the tool contract, written by a
third writer from the modules alone, as a tired developer would, without reading their tests: each is `later`."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND3_FILES: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/tools/registry.py": _later(
        ("    if unknown:\n", "    if unknown and not prefix:\n",
         f"{INVERTED}: an unknown key inside an object (a task's 'priority') is passed on, not refused"),
        ('    if kind == "integer" and isinstance(value, float) and value.is_integer():\n        value = int(value)\n',
         "",
         f"{STEP_MISSED}: an integer sent as 100.0 is refused as no integer"),
        ('    header = _safe(f"{bash.TOOL.name}({command})", workspace.secret)',
         '    header = f"{bash.TOOL.name}({command})"',
         f"{STEP_MISSED}: a goal's check command holding the API key shows it in its header line"),
    ),
    "narnat_agent/tools/write.py": _later(
        ("    if path.exists() and not path.is_file():\n"
         "        raise ToolError(f\"{ws.show(path)} is not a regular file (a device, pipe or socket); Write writes "
         "files only.\")\n", "",
         f"{STEP_MISSED}: Write to a named pipe reads it first, and waits for a writer that never comes"),
        ("diff = compact_diff(before, content, ws.show(path))[0]", 'diff = compact_diff("", content, ws.show(path))[0]',
         f"{WRONG_SETTING}: a replaced file's diff shows every line as added, none removed"),
    ),
    "narnat_agent/tools/edit/notebook.py": _later(
        ("product((1, 2, 4, None), (True, False), (False, True))", "product((1, 2, 4, None), (True, False), (False,))",
         f"{FORMAT_EDGE}: a notebook saved with its non-ASCII text escaped (\\u00e9) is rewritten whole"),
        ("    _validate(notebook, cell)\n    if style is None:",
         "    _validate(notebook, cell)\n    style = _style(notebook, data)\n    if style is None:",
         f"{WRONG_ORDER}: the layout is looked for after the edit, which no layout gives back: every edit rewrites "
         "the notebook whole"),
    ),
    "narnat_agent/tools/read/lines.py": _later(
        ("    for text in texts:\n        pos = 0\n", "    for text in texts:\n        pos, cr = 0, False\n",
         f"{FORMAT_EDGE}: a CRLF line whose \\n starts the next 1 MB piece keeps its \\r and is one too long"),
        ("    if length and n >= start:\n", "    if n >= start:\n",
         f"{OFF_BY_ONE}: a file ending with its newline is paged with an empty line after its last"),
    ),
    "narnat_agent/tools/read/images.py": _later(
        ("if max(size) <= MAX_SIDE and image.format in KEPT:", "if max(size) < MAX_SIDE and image.format in KEPT:",
         f"{OFF_BY_ONE}: a PNG of exactly 1568 pixels is sent re-encoded as a JPEG"),
        ('image.convert("RGB" if jpeg else "RGBA")', 'image.convert("RGB")',
         f"{STEP_MISSED}: a large transparent PNG scaled is sent without its transparency"),
    ),
    "narnat_agent/tools/grep.py": _later(
        ("        if grouped and lines:\n", "        if lines:\n",
         f"{WRONG_SETTING}: without context lines, a '--' is put between every two files' lines"),
        ('flags = re.IGNORECASE if args.get("-i") else 0', "flags = 0",
         f"{WRONG_SETTING}: -i is ignored where Python's re searches (no rg; a match past a long line's preview)"),
        ("body = body[len(root.as_posix()) :]", "body = body[len(root.as_posix()) + 1 :]",
         f"{OFF_BY_ONE}: a glob given as the root's absolute path loses its '/': a top-level name matches at any "
         "depth"),
    ),
    "narnat_agent/tools/glob.py": _later(
        ('if by_name and pattern.count("/") == 1 and pattern.startswith("**/"):',
         'if by_name and pattern.startswith("**/"):',
         f"{STEP_MISSED}: '**/tests/*.py' lists every .py file at any depth, in or out of a tests folder"),
        ("    if unread:  # ", "    if unread and not found:  # ",
         f"{INVERTED}: a list short of a folder that could not be read does not say so"),
    ),
    "narnat_agent/tools/files/textfile.py": _later(
        (r'''    (b"\xff\xfe\x00\x00", "utf-32-le", "UTF-32 LE with BOM"),
    (b"\x00\x00\xfe\xff", "utf-32-be", "UTF-32 BE with BOM"),
    (b"\xff\xfe", "utf-16-le", "UTF-16 LE with BOM"),
''', r'''    (b"\xff\xfe", "utf-16-le", "UTF-16 LE with BOM"),
    (b"\xff\xfe\x00\x00", "utf-32-le", "UTF-32 LE with BOM"),
    (b"\x00\x00\xfe\xff", "utf-32-be", "UTF-32 BE with BOM"),
''', f"{WRONG_ORDER}: a UTF-32 LE file is read as UTF-16 LE: its text full of NUL characters"),
        ("decode(head[len(mark) :], final=False)", "decode(head[len(mark) :], final=True)",
         f"{FORMAT_EDGE}: a UTF-16 file whose first 4 KB cut a character in two is taken for binary"),
    ),
    "narnat_agent/tools/files/syntax_check.py": _later(
        ("path.name.startswith(COMMENTED_JSON)", "path.name in COMMENTED_JSON",
         f"{FORMAT_EDGE}: tsconfig.json with comments is said to have syntax errors"),
        ("        return None if document else []  # the JSON reader", "        return []  # the JSON reader",
         f"{STEP_MISSED}: a JSON edit that breaks the document outside the statements around it says nothing"),
        ("    for line in reversed(lines[:-1]):\n", "    for line in lines[:-1]:\n",
         f"{WRONG_ORDER}: three errors are listed second, first, third"),
    ),
    "narnat_agent/tools/files/parsers.py": _later(
        ('lines = re.split(r"\\r\\n|\\r|\\n", text)', 'lines = text.split("\\n")',
         f"{FORMAT_EDGE}: in a file with CR line ends, the line quoted under a Python error is the whole file"),
        ("pending.extend(child for child in reversed(node.children) if child.has_error)",
         "pending.extend(child for child in node.children if child.has_error)",
         f"{WRONG_ORDER}: the last errors of the file are listed, not the first ones"),
    ),
    "narnat_agent/tools/files/stopping.py": _later(
        ("    if at >= len(data):\n", "    if at > len(data):\n",
         f"{OFF_BY_ONE}: a file that ends inside a block is said to stop on an unexpected '', not at its end"),
        ('return node.type == "(" and node is not token and before is not None and before.type in CALLEES',
         'return node.type == "(" and node is not token',
         f"{STEP_MISSED}: a parenthesis left open around an expression is named as a call's argument list, on the "
         "token before"),
        ("found = given_back + mismatched if given_back else mismatched + unclosed", "found = mismatched + unclosed",
         f"{STEP_MISSED}: an <li> left open inside a <ul> is not named; an outer tag is"),
    ),
    "narnat_agent/tools/files/statements.py": _later(
        ("    start, end = min(changed[0], high) - 1, changed[1]\n",
         "    start, end = min(changed[0], high), changed[1]\n",
         f"{OFF_BY_ONE}: the statements start after the first changed line: a broken one-line change is not checked"),
        ("return indices[min(n, len(indices)) - 1] + 1 + max(0, n - len(indices))",
         "return indices[min(n, len(indices)) - 1] + max(0, n - len(indices))",
         f"{OFF_BY_ONE}: an error in the statements around an Edit is named a line too early"),
    ),
    "narnat_agent/tools/files/html_context.py": _later(
        ('"-->" if kind == "!--" else ">", found.start(2))',
         '">", found.start(2))',
         f"{FORMAT_EDGE}: a comment holding '>' ends there, and the tags in the rest of it are counted open"),
        ("stack[-1] in VOID or _cannot_hold", "_cannot_hold",
         f"{STEP_MISSED}: a void element (<br>, <img>) stays open, and the page's elements after it are misread"),
    ),
    "narnat_agent/tools/files/yaml_syntax.py": _later(
        ('        if "maximum nesting depth" in (e.problem or ""):  # libyaml\'s own limit (1,000 levels): valid YAML '
         "may pass it\n            raise RecursionError(e.problem) from e\n", "",
         f"{STEP_MISSED}: a valid YAML document nested past libyaml's limit is said to have a syntax error"),
        ("e.position - (text.rfind(\"\\n\", 0, e.position) + 1) + 1, e.reason",
         "e.position - (text.rfind(\"\\n\", 0, e.position) + 1), e.reason",
         f"{OFF_BY_ONE}: a character YAML does not allow is placed a column to the left, counted from 0"),
    ),
    "narnat_agent/tools/files/diffs.py": _later(
        ("_hunks(before.splitlines(), after.splitlines(),",
         '_hunks(before.split("\\n"), after.split("\\n"),',
         f"{FORMAT_EDGE}: a CRLF file's diff lines end with a \\r"),
        ("after.splitlines(), CONTEXT)", "after.splitlines(), 3)",
         f"{STEP_MISSED}: the diff keeps difflib's three lines of context, not one"),
    ),
    "narnat_agent/tools/verification.py": _later(
        ("            skip = word in VALUED\n", '            skip = word.split("=")[0] in VALUED\n',
         f"{FORMAT_EDGE}: an option with its value joined (--tb=short) takes the next word: `pytest --tb=short "
         "tests/test_a.py` is said to run the suite"),
        ('word in PYTHONS or word.startswith("python3.") or word == "coverage"',
         'word in PYTHONS or word == "coverage"',
         f"{FORMAT_EDGE}: `python3.12 -m pytest` is no verification"),
        ('return "/" in path or "." in path', 'return "/" in path',
         f"{FORMAT_EDGE}: `pytest test_app.py` is said to run the whole suite"),
    ),
    "narnat_agent/tools/todo_write.py": _later(
        ('done = sum(t["status"] == "completed" for t in todos)', 'done = sum(t["status"] != "pending" for t in todos)',
         f"{WRONG_SETTING}: the task in progress is counted as done"),
        ("    started = not ws.planning and _start_first(todos)  # a plan's list is a proposal: nothing has begun\n"
         "    ws.todos = todos\n"
         "    done = sum(t[\"status\"] == \"completed\" for t in todos)\n"
         "    current = next((t[\"activeForm\"] for t in todos if t[\"status\"] == \"in_progress\"), None)\n",
         "    current = next((t[\"activeForm\"] for t in todos if t[\"status\"] == \"in_progress\"), None)\n"
         "    started = not ws.planning and _start_first(todos)  # a plan's list is a proposal: nothing has begun\n"
         "    ws.todos = todos\n"
         "    done = sum(t[\"status\"] == \"completed\" for t in todos)\n",
         f"{WRONG_ORDER}: the task just started is not named as the one in progress"),
    ),
    "narnat_agent/tools/base.py": _later(
        ("        return replace(self, tail=tuple(clean(line) for line in self.tail))", "        return self",
         f"{STEP_MISSED}: a command's output on the screen shows the API key it printed"),
        ("return Diff(clean(self.text), cleaned(self.syntax, clean))",
         "return Diff(self.text, cleaned(self.syntax, clean))",
         f"{STEP_MISSED}: the diff of a file holding the API key shows it"),
    ),
    "narnat_agent/tools/tool.py": _later(
        ('"parameters": self.parameters}', '"parameters": self.parameters["properties"]}',
         f"{FORMAT_EDGE}: the parameters are sent without their schema's frame (type, required): a provider "
         "refuses them"),
        ('"parameters": self.parameters}',
         '"parameters": {"type": "object", "properties": self.parameters["properties"]}}',
         f"{STEP_MISSED}: the model is not told which parameters are required"),
    ),
}  # fmt: skip
