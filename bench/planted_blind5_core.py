"""Planted defects of the client, the session store, rg, Read, Edit, goals, the documents and the tool contract,
written by a fifth writer from the modules alone, as a tired developer would, without reading their tests: each is
`later`. core/ui.py has none: it holds only the Protocols the UIs are typed against, nothing that runs."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_MOMENT, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


# the session store's two ways a read fails, in the order they are caught
NOT_FOUND = "    except FileNotFoundError:\n        raise SessionError(_no_session(path.stem)) from None\n"
UNREADABLE = (
    "    except OSError as e:\n"
    '        raise SessionError(_("{path} cannot be read ({error}).").format(path=path, error=e.strerror))'
    " from None\n"
)

BLIND5_CORE: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/provider/client.py": _later(
        (' \\\n                and not re.search(r"must be passed|missing", message, re.I):', ":",
         f"{STEP_MISSED}: a provider that asks for its reasoning to be passed back is sent none from then on"),
        ("            self.doubted = True\n", "",
         f"{STEP_MISSED}: the provider's impossible token counts are said at every reply, not once"),
        ("                if sink.cancelled:\n                    builder.reply.cancelled = True\n"
         "                    break\n",
         "                if sink.cancelled:\n                    break\n",
         f"{STEP_MISSED}: an answer the person interrupted is kept as if it had ended, its tool calls run"),
    ),
    "narnat_agent/conversation/store.py": _later(
        (f"{NOT_FOUND}{UNREADABLE}", f"{UNREADABLE}{NOT_FOUND}",
         f"{WRONG_ORDER}: a session that does not exist is said as a file that cannot be read, not as no session of "
         "that name (see /show)"),
        ('rows.append(({"name": path.stem, "turns": 0, "updated": "", "first": unreadable}, when))',
         'rows.append(({"name": path.stem, "turns": 0, "updated": "", "first": unreadable}, ""))',
         f"{STEP_MISSED}: a damaged session is listed last whatever its time: `-c` continues an older one and never "
         "says why the newest cannot be read"),
        ('"first": first if isinstance(first, str) else ""}, updated))', '"first": first}, updated))',
         f"{FORMAT_EDGE}: a first question that carried an image is listed as its list of parts, not as text"),
    ),
    "narnat_agent/tools/files/ripgrep.py": _later(
        ('["--glob", f"!{STATE}", "--glob", f"!{WRITING}"]', '["--glob", f"!{WRITING}"]',
         f"{STEP_MISSED}: Glob and Grep search Narnat's own folder (its commands, its ignored logs) with the project"),
        ('raw.decode("utf-8", "backslashreplace")', 'raw.decode("utf-8", "replace")',
         f"{FORMAT_EDGE}: a name that is not UTF-8 is shown with '?' marks, and the model cannot name it back"),
        ('out.append("[^/]*")', 'out.append(".*")',
         f"{FORMAT_EDGE}: '*' crosses folders: 'src/*.py' also finds src/deep/a.py"),
    ),
    "narnat_agent/tools/read/__init__.py": _later(
        ('start = max(total + args["offset"] + 1 if args["offset"] < 0', 'start = max(total + args["offset"] if '
         'args["offset"] < 0',
         f"{OFF_BY_ONE}: offset=-20 shows the last 21 lines"),
        ("ws.jobs.read_through(path, last)", "ws.jobs.read_through(path, total)",
         f"{WRONG_SETTING}: a job's log Read in part counts as read to its end: waiting for the job skips the lines "
         "not shown"),
    ),
    "narnat_agent/tools/edit/__init__.py": _later(
        ("    ws.require_fresh(path, data, whole=False)\n", "",
         f"{STEP_MISSED}: a file changed outside since the model read it is edited without its being Read again"),
        ("syntax = introduced(path, text, done.text, changed_lines(done.changes))",
         "syntax = introduced(path, done.text, text, changed_lines(done.changes))",
         f"{WRONG_ORDER}: a syntax error an edit brings goes unnamed, and one it mends is named as brought"),
    ),
    "narnat_agent/core/goal.py": _later(
        ('if check.status == "passed":', 'if check.status != "failed":',
         f"{INVERTED}: a check that timed out counts as passed, and the goal is said to be met"),
        ("cost=sum(costs) if costs else None", "cost=costs[-1] if costs else None",
         f"{WRONG_MOMENT}: a goal's cost is counted from its last round, not from its first"),
    ),
    "narnat_agent/tools/files/documents.py": _later(
        ("except (PyPdfError, ValueError, KeyError, TypeError, NotImplementedError) as e:",
         "except (PyPdfError, NotImplementedError) as e:",
         f"{FORMAT_EDGE}: a damaged PDF that pypdf meets with a ValueError or KeyError is not said as unreadable"),
        ('return "".join(value) if isinstance(value, list) else str(value)',
         'return "\\n".join(value) if isinstance(value, list) else str(value)',
         f"{FORMAT_EDGE}: a cell's source kept as lines is shown with a blank line between each, and Edit's "
         "old_string no longer matches it"),
    ),
    "narnat_agent/tools/tool.py": _later(
        ('"description": self.description,', '"description": self.description.split(". ")[0],',
         f"{STEP_MISSED}: each tool is described to the model by its first sentence only: its rules are lost"),
        ('"parameters": self.parameters}',
         '"parameters": {**self.parameters, "properties": {k: {"type": v.get("type")} '
         'for k, v in self.parameters["properties"].items()}}}',
         f"{STEP_MISSED}: the parameters are sent with their types alone: no descriptions, defaults, enums or "
         "item shapes"),
    ),
}  # fmt: skip
