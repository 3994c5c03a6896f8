"""Planted defects of Read, Edit and its matching, rg, Grep, Glob, Write and the documents, written by a sixth writer
from the modules alone, as a tired developer would, without reading their tests: each is `later`."""

from defects import INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND6_TOOLS: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/tools/read/__init__.py": _later(
        ("    if not path.exists():\n        raise ws.missing(path)\n    if not path.is_file():  # a device",
         "    if not path.is_file():  # a device",
         f"{STEP_MISSED}: a file that does not exist is said to be a device, pipe or socket, not missing"),
        ("    text = without_escapes(result.text)  # a command's colours",
         "    text = result.text  # a command's colours",
         f"{STEP_MISSED}: a background job's log is shown with the colour codes its command wrote"),
    ),
    "narnat_agent/tools/edit/__init__.py": _later(
        ("    write_atomic(path, encoded, follow_umask=True)\n    ws.written(path, encoded)\n",
         "    write_atomic(path, encoded, follow_umask=True)\n",
         f"{STEP_MISSED}: the editor's unsaved text of a file Edit changed keeps the old text"),
        ("    if not path.is_file():\n        raise ws.missing(path)\n    ws.require_read(path)\n",
         "    ws.require_read(path)\n    if not path.is_file():\n        raise ws.missing(path)\n",
         f"{WRONG_ORDER}: an Edit of a file that does not exist is told to Read it first, not that it is missing"),
    ),
    "narnat_agent/tools/edit/matcher.py": _later(
        # written in place of `m < 3` for `m < 4`, which changed nothing: a drifted middle of one line is never taken
        ('        if not new:\n            return old[:-1].split("\\n"), []\n', "",
         f"{STEP_MISSED}: whole lines deleted through a whitespace match leave a blank line in their place"),
        ('    ("typography", fold, True),', '    ("typography", fold, False),',
         f"{WRONG_SETTING}: a line changed through a typography match takes the model's straight quotes, not the "
         "file's curly ones"),
        ("(_strong(target[0]) or _strong(target[-1]))", "(_strong(target[0]) and _strong(target[-1]))",
         f"{WRONG_SETTING}: a block ending in a lone '}}' or ')' is never matched by its anchors"),
    ),
    "narnat_agent/tools/files/ripgrep.py": _later(
        ("        if process.returncode > 1:\n            errors.seek(0)",
         "        if process.returncode >= 1:\n            errors.seek(0)",
         f"{OFF_BY_ONE}: a folder with no file in it makes Glob fail, where it finds nothing"),
        ('["--glob", f"!{STATE}", "--glob", f"!{WRITING}"]', '["--glob", f"!{STATE}"]',
         f"{STEP_MISSED}: a file Edit or Write is replacing this moment (.narnat-tmp-…) is found by Glob and Grep"),
        ("        return -stat(path).st_mtime, path", "        return stat(path).st_mtime, path",
         f"{INVERTED}: files are listed oldest first, and a file gone meanwhile first of all"),
    ),
    "narnat_agent/tools/grep.py": _later(
        ("not _holds_key(ws.root / os.fsdecode(path), ws, settings)",
         "not _holds_key(top / os.fsdecode(path), ws, settings)",
         f"{WRONG_SETTING}: a settings file holding the key is searched when path names a subfolder holding it"),
        ('if done.code > 1 and not done.out and "No files were searched" not in done.err:',
         "if done.code > 1 and not done.out:",
         f"{STEP_MISSED}: a search of a folder with nothing to search (empty, or all ignored) fails, not 'No matches'"),
        ("matched, binary = sum(sep == \":\" for _, sep, _ in rows), sum(not sep for _, sep, _ in rows)",
         "matched, binary = len(rows), sum(not sep for _, sep, _ in rows)",
         f"{WRONG_SETTING}: the summary counts the context lines and gaps as lines found"),
    ),
    "narnat_agent/tools/glob.py": _later(
        ('summary = ngettext("Found {n} file", "Found {n} files", len(files)).format(n=len(files))',
         'summary = ngettext("Found {n} file", "Found {n} files", len(found)).format(n=len(found))',
         f"{WRONG_SETTING}: a name pattern's summary counts the files in subfolders it does not list"),
        ('    if top.is_file():\n        raise ToolError(f"{name} is a file, not a folder; Glob searches folders.")\n',
         "",
         f"{STEP_MISSED}: a file given as path is said to be a FIFO, socket or device"),
    ),
    "narnat_agent/tools/write.py": _later(
        # in place of leaving out `encoding = UTF8` after the fallback, which changed nothing (a file that is UTF-8
        # is read as UTF-8 whatever encoding it was remembered in); this one written after reading the tests
        ('encoded, note = content.encode("utf-8"), f" It was',
         'encoded, note = args["content"].encode("utf-8"), f" It was',
         f"{WRONG_SETTING}: a CRLF file whose encoding cannot hold the new text is written as UTF-8 with LF"),
        ("ws.remember(path, encoded, whole=True, codec=encoding.codec)",
         'ws.remember(path, args["content"].encode("utf-8"), whole=True, codec=encoding.codec)',
         f"{WRONG_SETTING}: what the model sent is remembered, not what was written: a CRLF or Latin-1 file is then "
         "said to be changed since it was read"),
    ),
    "narnat_agent/tools/files/documents.py": _later(
        ("    if not any(page.strip() for page in pages):", "    if not all(page.strip() for page in pages):",
         f"{INVERTED}: a PDF with one blank page (a cover, a figure) is said to have no text layer"),
        ('if mime.startswith("image/") or "text/plain" not in data]', 'if "text/plain" not in data]',
         f"{STEP_MISSED}: a plot's image output beside its text is not mentioned"),
    ),
}  # fmt: skip
