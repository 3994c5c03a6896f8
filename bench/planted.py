"""Planted defects: the mistakes a tired developer really makes, each planted alone and the tests that cover its
module run against it.

Run: python bench/planted.py [--list] [--at REV] [--later] [MODULE ...]
     (default: every module of the table; MODULE as written in it; --at: the code and tests of a git revision,
     to measure the suite before the tests written against these defects)

Mutants (bench/mutation.py) change one operator or constant at a time; these are the defects that get past a
review: a limit counted from the wrong moment, the wrong one of two settings checked, an edge of a format missed, a
step done in the wrong order, an off-by-one at a boundary, a condition inverted on the rare path. Each is written
into a scratch copy of the repository (the working tree is never touched) and the module's covering tests run
against it, the slow ones too, stopping at the first failure: a test that fails (or hangs) has caught it; a defect
that leaves every test passing is missed. Before its defects, each module's tests run once on the code as it is:
they must pass, or no catch would mean anything.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from common import ROOT, table
from mutation import TARGETS


@dataclass(frozen=True)
class Defect:
    original: str  # the exact text, found once in the module
    replacement: str
    what: str  # the kind of defect, then what it does
    later: bool = False  # planted after the module's tests were written against the others: none was aimed at it


WRONG_MOMENT = "a limit counted from the wrong moment"
WRONG_SETTING = "the wrong one of two settings checked"
FORMAT_EDGE = "an edge of a format missed"
WRONG_ORDER = "a step done in the wrong order"
STEP_MISSED = "a step left out"
OFF_BY_ONE = "off-by-one at a boundary"
INVERTED = "a condition inverted on the rare path"

# module -> the tests that cover it (pytest's arguments); a module with a mutation target has its tests by default
TESTS: dict[str, tuple[str, ...]] = {
    "narnat_agent/core/budget.py": ("tests/core/test_budget.py",),
    "narnat_agent/provider/usage.py": ("tests/core/test_budget.py",),
    "narnat_agent/provider/silence.py": ("tests/run/test_headless_stall.py",),
    "narnat_agent/conversation/window.py": (
        "tests/ui/test_status_line.py", "tests/commands/test_conversation.py", "tests/conversation/test_window.py"
    ),
    # with the tests that start Narnat: the REPLs' and -p's outputs, the files read at start
    "narnat_agent/inert.py": ("tests/ui/test_escapes.py",),
    "narnat_agent/prompts/skills.py": ("tests/commands/test_custom_files.py", "tests/commands/test_custom.py"),
    "narnat_agent/commands/custom.py": ("tests/commands/test_custom_files.py", "tests/commands/test_custom.py"),
}  # fmt: skip

# module -> its defects, each as a tired developer would write it
PLANTED: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/provider/text_calls.py": (
        Defect(r"\n```\s*\Z", r"\n```\Z", f"{FORMAT_EDGE}: a fenced call followed by a newline stays text"),
        Defect("if calls and len(calls) == len(typed):", "if calls:",
               f"{STEP_MISSED}: of several calls, the valid ones run and the invalid one is dropped unsaid"),
        Defect('.removesuffix("<｜end▁of▁sentence｜>").strip().removesuffix(DS[4])',
               '.removesuffix(DS[4]).strip().removesuffix("<｜end▁of▁sentence｜>")',
               f"{WRONG_ORDER}: DeepSeek's end-of-calls marker is looked for before the end of the sentence"),
        Defect('(marker != "{" or _opens(text, at))', '(marker != "{" or at == 0 or text[at - 1] == "\\n")',
               f"{INVERTED}: bare JSON on a line of its own after prose is taken for a call"),
        Defect("tool_calls?_section_end", "tool_calls_section_end",
               f"{FORMAT_EDGE}: Kimi's singular section end is left on the call, which then stays text", later=True),
    ),
    "narnat_agent/core/budget.py": (
        Defect("if self.spent + price > self.max_cost:", "if self.spent > self.max_cost:",
               f"{WRONG_MOMENT}: the cost checked after the request that goes over, not before it"),
        Defect("self.sent + prompt > self.max_tokens_sent", "self.sent + prompt >= self.max_tokens_sent",
               f"{OFF_BY_ONE}: a request that reaches max_tokens_sent exactly is refused"),
        Defect("self.spent, self.sent, self.reached = 0.0, 0, False", "self.spent, self.reached = 0.0, False",
               f"{STEP_MISSED}: going on past the limit renews the cost but not the tokens sent"),
        Defect("return self.max_cost is not None or self.max_tokens_sent is not None",
               "return self.max_cost is not None",
               f"{WRONG_SETTING}: a token budget alone is never checked"),
        Defect('self.sent += usage.prompt', 'self.sent += usage.prompt - usage.cached',
               f"{WRONG_SETTING}: cached tokens are not counted as sent", later=True),
    ),
    "narnat_agent/provider/usage.py": (
        Defect("if usage.cached > usage.prompt:", "if usage.cached > usage.prompt + usage.completion:",
               f"{WRONG_SETTING}: cached tokens compared with the whole request, not its prompt"),
        Defect("if not local and usage.prompt * FAR_BELOW < floor:", "if usage.prompt * FAR_BELOW < floor:",
               f"{INVERTED}: a server run locally, counting only what it had not cached, is doubted"),
        Defect('message.get("tool_calls") or [])', 'message.get("tool_calls") or [] if False)',
               f"{STEP_MISSED}: the calls' arguments are left out of the floor", later=True),
    ),
    "narnat_agent/provider/silence.py": (
        Defect("IDLE if now - self.last > self.idle", "IDLE if now - self.started > self.idle",
               f"{WRONG_MOMENT}: the idle limit counted from the request's start, not from the last progress"),
        Defect("OVERALL if now - self.started > self.overall", "OVERALL if now - self.started > self.idle",
               f"{WRONG_SETTING}: the overall limit read from the idle setting"),
        Defect("                said, stretch = 0, self.last\n", "                stretch = self.last\n",
               f"{STEP_MISSED}: a new stretch of silence after progress keeps the old stretch's count of notices"),
        Defect("OVERALL if now - self.started > self.overall else IDLE if now - self.last > self.idle else",
               "IDLE if now - self.last > self.idle else OVERALL if now - self.started > self.overall else",
               f"{WRONG_ORDER}: when both limits pass, the idle one is named", later=True),
    ),
    "narnat_agent/conversation/window.py": (
        Defect("if n < carried) if known else 0", "if n <= carried) if known else 0",
               f"{OFF_BY_ONE}: the first message after the latest request is counted in its prompt"),
        Defect("return max(0, self.size - self.next_request)", "return max(0, self.size - self.sent)",
               f"{WRONG_SETTING}: the room left ignores what was added since the latest request"),
        Defect("estimated=conversation.prompt_estimated or not known", "estimated=conversation.prompt_estimated",
               f"{INVERTED}: before any request, an estimate is shown as the provider's count"),
        Defect('(text or "").split("<system-reminder>", 1)[0].split()', '(text or "").split()',
               f"{STEP_MISSED}: Narnat's reminders show in /context's labels of the questions", later=True),
    ),
    "narnat_agent/processes/jobs.py": (
        Defect("if self.total > self.limit:", "if self.kept > self.limit:",
               f"{WRONG_SETTING}: the output limit compared with the log's tail, not all the job printed"),
        Defect("        head = max(0, HEAD - self.total)\n        self.total += len(chunk)\n",
               "        self.total += len(chunk)\n        head = max(0, HEAD - self.total)\n",
               f"{WRONG_ORDER}: the head's room reckoned after counting the chunk"),
        Defect("        job.given += len(data)\n", "",
               f"{STEP_MISSED}: waiting for a job gives the model its whole log again each time"),
        Defect("if not job.told and job.process.poll() is not None]", "if not job.told]",
               f"{INVERTED}: a job still running is told as ended"),
        Defect("        if code >= 0:\n", "        if code > 0:\n",
               f"{OFF_BY_ONE}: a job that ended well is said to have been stopped by signal 0", later=True),
    ),
    "narnat_agent/tools/files/syntax_check.py": (
        Defect("        if known[problem.key]:\n            known[problem.key] -= 1\n",
               "        if known[problem.key]:\n            pass\n",
               f"{STEP_MISSED}: a second copy of an error already there is taken for the old one"),
        Defect("max(first + shift - (new == 0), 1)", "max(first + shift, 1)",
               f"{FORMAT_EDGE}: lines only removed leave the line before the gap unchecked"),
        Defect("except (RecursionError, MemoryError) as e:", "except RecursionError as e:",
               f"{FORMAT_EDGE}: a check that runs out of memory reports the written file as failed"),
        Defect('grammar = GRAMMARS.get(path.suffix.lower())', 'grammar = GRAMMARS.get(path.suffix)',
               f"{FORMAT_EDGE}: an upper-case extension (.JSON, .TS) is not checked"),
        Defect("if grammar in GUESSING and (known or not before):",
               "if grammar in GUESSING and (known and not before):",
               f"{INVERTED}: a C file the grammar misread before is judged on the whole", later=True),
    ),
    "narnat_agent/tools/edit/notebook.py": (
        Defect('return data[at:] in (b"", b"\\n")', 'return data[at:] == b""',
               f"{FORMAT_EDGE}: a notebook ending in a newline is taken for a foreign layout and rewritten whole"),
        Defect("if len(found) > 1:", "if len(found) > 2:",
               f"{OFF_BY_ONE}: text in two cells edits the first one without a word"),
        Defect("written, note = _encoded(notebook, style, data.endswith(b\"\\n\"))",
               "written, note = _encoded(notebook, style, True)",
               f"{FORMAT_EDGE}: a notebook without a final newline gains one"),
        Defect('enumerate(notebook.get("cells", []), 1)', 'enumerate(notebook.get("cells", []))',
               f"{OFF_BY_ONE}: cells are numbered from 0, where Read numbers them from 1", later=True),
    ),
    "narnat_agent/conversation/store.py": (
        Defect("        while path_of(state_dir, f\"{name}-{n}\").exists():\n            n += 1\n",
               "        if path_of(state_dir, f\"{name}-{n}\").exists():\n            n += 1\n",
               f"{OFF_BY_ONE}: a third save beside another process's replaces the second"),
        Defect("    _known[path] = _identity(path.stat())\n    return Saved(path.stem, note)",
               "    return Saved(path.stem, note)",
               f"{STEP_MISSED}: after its own save, the next save takes the file for another process's"),
        Defect("isinstance(v, int) and not isinstance(v, bool) and v >= 0", "isinstance(v, int) and v > 0",
               f"{OFF_BY_ONE}: a session saved before its first turn cannot be loaded"),
        Defect('sorted(rows, key=lambda r: r["updated"], reverse=True)', 'sorted(rows, key=lambda r: r["updated"])',
               f"{INVERTED}: /show lists the oldest session first"),
        Defect("if it does\n        return False", "if it does\n        return True",
               f"{INVERTED}: a session whose file was deleted is saved beside it under another name", later=True),
    ),
    "narnat_agent/conversation/session.py": (
        Defect("copied = copy.deepcopy(session)", "copied = copy.copy(session)",
               f"{STEP_MISSED}: a fork shares its messages with the conversation it came from"),
        Defect("if saved.note and not name:", "if saved.note:",
               f"{WRONG_SETTING}: a save under another name renames the conversation that goes on"),
        Defect('"todos": session.tool_state.todos, "reads": reads,', '"todos": session.tool_state.todos,',
               f"{STEP_MISSED}: what the model read is not saved with the conversation"),
        Defect('conversation.turns = data["turns"]', "conversation.turns = 0",
               f"{STEP_MISSED}: a resumed conversation counts its turns from zero", later=True),
    ),
    "narnat_agent/keyguard.py": (
        Defect("len(text)), 0, -1)", "len(text)), 1, -1)",
               f"{OFF_BY_ONE}: a stream cut just after the key's first character shows the key"),
        Defect("return len(secret) >= MIN_KEY", "return len(secret) > MIN_KEY",
               f"{OFF_BY_ONE}: a key of exactly eight characters is never masked"),
        Defect("    for name in KEY_VARIABLES:\n        environ.pop",
               "    for name in KEY_VARIABLES[:1]:\n        environ.pop",
               f"{WRONG_SETTING}: OPENAI_API_KEY stays in the environment commands inherit"),
        Defect('held, self.held = self.held, ""', 'held = self.held',
               f"{STEP_MISSED}: what the mask held back is shown again at the next stream's end", later=True),
    ),
    "narnat_agent/ui/keys.py": (
        Defect("self.busy, self.fired = busy, False", "self.busy = busy",
               f"{STEP_MISSED}: after one cancel, the interrupt key does nothing in later turns"),
        Defect("and keys[i + 1] != Keys.Escape", "",
               f"{FORMAT_EDGE}: ESC, ESC and a key in one batch are read as Alt+ESC and Alt+key: nothing cancels"),
        Defect("        if question.strip():\n            self.queued", "        if question:\n            self.queued",
               f"{INVERTED}: an Enter after only spaces queues an empty question"),
        Defect("twice, self.last_escape = now - self.last_escape <= TWICE, now",
               "twice = now - self.last_escape <= TWICE",
               f"{WRONG_MOMENT}: with escape-twice, the second press is timed from the start, not the first press"),
        Defect('question = self.take_typed()', 'question = "".join(self.typed)',
               f"{STEP_MISSED}: a question queued with Enter is typed again at the next prompt", later=True),
    ),
    "narnat_agent/inert.py": (
        Defect("for code in range(0x80, 0xA0)}", "for code in range(0x80, 0x9B)}",
               f"{OFF_BY_ONE}: the 8-bit CSI (U+009B) and the C1 controls after it reach the terminal"),
        Defect('text.replace("\\r\\n", "\\n").translate(VISIBLE)', "text.translate(VISIBLE)",
               f"{STEP_MISSED}: the lines of a CRLF file end in a visible ␍"),
        Defect("(?:\\x07|\\x1b\\\\)", "\\x07",
               f"{FORMAT_EDGE}: a title or clipboard sequence ended by ST instead of BEL stays in the model's text"),
        Defect("| {0x7F: 0x2421}", "| {}", f"{STEP_MISSED}: DEL reaches the terminal", later=True),
    ),
    "narnat_agent/atomic.py": (
        Defect("old.st_nlink > 1", "old.st_nlink > 2",
               f"{OFF_BY_ONE}: a file with one other name is replaced, and the other name keeps the old content"),
        Defect("    if mode is None and old is not None:\n        mode = old.st_mode & 0o7777\n", "",
               f"{STEP_MISSED}: a file written again loses its mode (a script its x bit)"),
        Defect("0o666 if follow_umask else 0o600", "0o600 if follow_umask else 0o666",
               f"{INVERTED}: Narnat's own files follow the umask and the project's files are private"),
        Defect('int(pid) != os.getpid() and not alive(int(pid))', 'int(pid) != os.getpid()',
               f"{INVERTED}: a temporary file another running writer is still writing is removed", later=True),
    ),
    "narnat_agent/prompts/skills.py": (
        Defect("for root in (project, home)", "for root in (project,)",
               f"{WRONG_SETTING}: only the project is trusted, and the user's own commands are refused"),
        Defect("if len(data) > MAX_BYTES:", "if len(data) >= MAX_BYTES:",
               f"{OFF_BY_ONE}: a file of exactly 64 KB is refused"),
        Defect('if first.strip() != "---" or not found:', 'if first != "---" or not found:',
               f"{FORMAT_EDGE}: a file with CRLF line ends has no front matter, and its YAML becomes the text"),
        Defect("if not stat.S_ISREG(found.st_mode):", "if False:",
               f"{STEP_MISSED}: a folder or a named pipe named like a command is opened"),
        Defect('" ".join(description.split())[:MAX_DESCRIPTION]', '" ".join(description.split())',
               f"{STEP_MISSED}: a skill's long description enters every request whole", later=True),
    ),
    "narnat_agent/commands/custom.py": (
        Defect("self.text.replace(ARGUMENTS, arguments)", "self.text.replace(ARGUMENTS, arguments, 1)",
               f"{FORMAT_EDGE}: a second $ARGUMENTS stays as written"),
        Defect("name = path.stem.lower()", "name = path.stem",
               f"{FORMAT_EDGE}: Review.md is refused for its capital instead of becoming /review"),
        Defect('description = text.split("\\n", 1)[0].lstrip("# ")', 'description = text.split("\\n", 1)[0]',
               f"{STEP_MISSED}: a command's help line starts with the heading's #"),
        Defect("for root in state.commands_folders(project, home):",
               "for root in reversed(state.commands_folders(project, home)):",
               f"{WRONG_ORDER}: the user's command wins over the project's of the same name", later=True),
    ),
    "narnat_agent/provider/content.py": (
        Defect("range(min(len(tag) - 1, len(text)), 0, -1)", "range(min(len(tag) - 1, len(text)), 1, -1)",
               f"{OFF_BY_ONE}: a piece ending in the '<' of </think> shows the '<' in the answer"),
        Defect("""if OPEN in before or before[-1:] in ("`", "'", '"'):""", "if OPEN in before:",
               f"{FORMAT_EDGE}: an answer that quotes `</think>` is taken for thinking"),
        Defect("self.pending = self.pending.lstrip()  # the blank lines after </think>", "pass",
               f"{STEP_MISSED}: the answer after thinking starts with blank lines"),
        Defect('            if OPEN.startswith(start):', '            if start and OPEN.startswith(start):',
               f"{FORMAT_EDGE}: an empty first piece decides there is no thinking", later=True),
    ),
    "narnat_agent/tools/write.py": (
        Defect("        ending = line_ending(before)\n", "",
               f"{STEP_MISSED}: a CRLF file written again gets LF line ends"),
        Defect("ws.require_fresh(path, data, whole=True)", "ws.require_fresh(path, data, whole=False)",
               f"{WRONG_SETTING}: a file the model read only in part is replaced whole"),
        Defect('verb, lines = "Updated" if existed else "Created"', 'verb, lines = "Created" if existed else "Updated"',
               f"{INVERTED}: a new file is said to be updated, and a replaced one created"),
    ),
    "narnat_agent/provider/reply.py": (
        Defect("if slot is None or reused:", "if slot is None:",
               f"{STEP_MISSED}: Ollama's second call at index 0 is glued onto the first"),
        Defect("and not self.content.strip() and not self.tool_calls", "and not self.content and not self.tool_calls",
               f"{FORMAT_EDGE}: a reply of blank lines only is taken for an answer, and not asked for again"),
        Defect("if name and not slot.name:\n            slot.name = name", "if name:\n            slot.name += name",
               f"{FORMAT_EDGE}: the name taken as streamed in pieces: a server repeating it names the call twice over"),
    ),
    "narnat_agent/tools/glob.py": (
        Defect("if len(files) > LIMIT:", "if len(files) >= LIMIT:",
               f"{OFF_BY_ONE}: exactly a hundred files are said to be the newest hundred of a hundred, none more"),
        Defect('wide = "/" not in pattern and pattern != "**"', 'wide = "/" not in pattern',
               f"{FORMAT_EDGE}: '**' alone is taken for a name and finds the top level only"),
        Defect("while literal < len(segments) - 1 and", "while literal < len(segments) and",
               f"{FORMAT_EDGE}: a pattern naming one file exactly is taken for a folder"),
    ),
    # ui
    "narnat_agent/ui/plain.py": (
        Defect("if stats.requests > 1:", "if stats.requests:",
               f"{OFF_BY_ONE}: a turn of one request says '1 requests' in its footer"),
        Defect("self.end_reasoning()\n        stream = stream or self.err", "stream = stream or self.err",
               f"{STEP_MISSED}: a notice after reasoning continues the reasoning's line"),
        Defect("detail.shown_lines < detail.lines", "detail.shown_lines <= detail.lines",
               f"{INVERTED}: every command's result says how much the model was shown, cut or not"),
    ),
    "narnat_agent/ui/render.py": (
        Defect("lines[-(TAIL_FAILED if failed else TAIL_OK) :]", "lines[-(TAIL_OK if failed else TAIL_FAILED) :]",
               f"{WRONG_SETTING}: a failed command shows its last 3 lines, one that passed its last 6"),
        Defect('"dim", old + 1, new + 1', '"dim", old, new + 1',
               f"{STEP_MISSED}: past a line of context, removed lines are numbered from the wrong line"),
        Defect("hidden = max(len(shown) - limit, 0) + folded", "hidden = max(len(shown) - limit, 0)",
               f"{STEP_MISSED}: a diff already cut for the model does not say how many lines it hides"),
    ),
    "narnat_agent/ui/markdown_stream.py": (
        Defect("if cancelled and waiting > HUGE:", "if waiting > HUGE:",
               f"{INVERTED}: a flood nobody interrupted is only counted, never drawn"),
        Defect("window = max(1, min(LIVE_LINES, self.console.height - 3))", "window = LIVE_LINES",
               f"{FORMAT_EDGE}: on a short terminal the live region is taller than the screen leaves it"),
        Defect("self.committed = self.anchor = end + (cut > 0)", "self.committed = self.anchor = end",
               f"{OFF_BY_ONE}: the line end where the markdown stopped starts the plain text again"),
    ),
    "narnat_agent/ui/terminal_stream.py": (
        Defect("outcome.stats.seconds >= self.ui.bell_after", "outcome.stats.seconds > self.ui.bell_after",
               f"{OFF_BY_ONE}: a turn of exactly bell_after_s seconds ends without the bell"),
        Defect('self.waiting = spinner if label == _("Thinking") else None', "self.waiting = spinner",
               f"{WRONG_SETTING}: a notice while a tool runs goes under its spinner and vanishes with it"),
        Defect("        self._end_thinking()\n        self.markdown.feed(text)", "        self.markdown.feed(text)",
               f"{STEP_MISSED}: the reasoning's unfinished last line is printed after the answer"),
    ),
    "narnat_agent/ui/events.py": (
        Defect('self.tool_calls += call_id != "check"', "self.tool_calls += 1",
               f"{STEP_MISSED}: a goal's check is counted among the model's tool calls"),
        Defect('"is_error": code != 0', '"is_error": code == 1',
               f"{WRONG_SETTING}: a run stopped at its step limit (exit 3) is not said to be an error"),
        Defect('codecs.lookup(getattr(out, "encoding", None) or "utf-8").name != "utf-8"',
               'getattr(out, "encoding", None) != "utf-8"',
               f"{FORMAT_EDGE}: an output whose encoding is not named exactly utf-8 gets ASCII escapes"),
    ),
    "narnat_agent/ui/headless.py": (
        Defect("if self.text.strip():", "if self.text:",
               f"{FORMAT_EDGE}: blank narration before a tool call prints an empty line"),
        Defect('self.out.write(answer if answer.endswith("\\n") else f"{answer}\\n")', 'self.out.write(f"{answer}\\n")',
               f"{FORMAT_EDGE}: an answer that ends its line is followed by a blank line"),
        Defect("if answer := inert(redact(outcome.answer, self.secret)):", "if answer := inert(outcome.answer):",
               f"{STEP_MISSED}: the key, quoted in the answer, is printed on stdout"),
    ),
    "narnat_agent/ui/cells.py": (
        Defect('east_asian_width(char) in "WF"', 'east_asian_width(char) == "W"',
               f"{FORMAT_EDGE}: full-width punctuation (，) is measured as one column"),
        Defect("width((line + word).rstrip()) > columns", "width((line + word).rstrip()) >= columns",
               f"{OFF_BY_ONE}: a line that fills the width exactly is broken a word early"),
        Defect("lines.append(line.rstrip())", "lines.append(line)",
               f"{STEP_MISSED}: a wrapped line keeps the space it broke at"),
    ),
    "narnat_agent/ui/terminal.py": (
        Defect("if self.bell_after is None or not self.console.is_terminal:", "if self.bell_after is None:",
               f"{STEP_MISSED}: the bell and the window title are written into a pipe or a file"),
        Defect('if question.strip().startswith("/"):', 'if question.startswith("/"):',
               f"{FORMAT_EDGE}: a command typed after a space is said to be delivered to the model"),
        Defect("room = self.console.width - sum(widths) - 2 * len(widths)", "room = self.console.width - sum(widths)",
               f"{OFF_BY_ONE}: a table's last column is not cut for the spaces between columns, and overflows"),
    ),
}  # fmt: skip

TIMEOUT = 900  # seconds for one module's tests against one defect: a hang is caught, as in the suite


def tests_of(module: str) -> tuple[str, ...]:
    return TESTS.get(module) or TARGETS[module].tests


PARTS = ("narnat_agent", "tests", "README.md", "pyproject.toml")  # the code, the tests and their configuration


def copy_repository(scratch: Path, revision: str | None) -> None:
    """The code, the tests and the test configuration as they are now, or as they were at a git revision."""
    if revision is not None:
        archive = subprocess.run(["git", "archive", revision, *PARTS], cwd=ROOT, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(scratch)], input=archive.stdout, check=True)
        return
    for part in PARTS[:2]:
        shutil.copytree(ROOT / part, scratch / part, ignore=shutil.ignore_patterns("__pycache__"))
    for name in PARTS[2:]:
        shutil.copy(ROOT / name, scratch)


def run_tests(scratch: Path, tests: tuple[str, ...]) -> int:
    """pytest's exit code for the module's tests in the copy; Narnat processes the tests start import it too. A test
    file an earlier revision does not have yet is left out."""
    there = [test for test in tests if not test.startswith("tests/") or (scratch / test.split("::")[0]).exists()]
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *there]
    environment = os.environ | {"PYTHONPATH": str(scratch)}
    try:
        return subprocess.run(command, cwd=scratch, env=environment, capture_output=True, timeout=TIMEOUT).returncode
    except subprocess.TimeoutExpired:
        return 1  # a hang is a failure in the suite (pytest-timeout)


def plant(scratch: Path, module: str, defect: Defect) -> str | None:
    """The module's text before the defect, the copy holding the defect; None when the text to change is not
    there once (code of another revision)."""
    path = scratch / module
    text = path.read_text(encoding="utf-8")
    if text.count(defect.original) != 1:
        return None
    path.write_text(text.replace(defect.original, defect.replacement), encoding="utf-8")
    return text


def check(module: str, scratch: Path, later: bool) -> list[tuple[Defect, str]]:
    """Each of the module's defects and what became of it: caught, missed, absent (the code it changes is not
    there once), or broken (the copy no longer imports or collects: not a defect the tests could judge)."""
    tests = tests_of(module)
    if run_tests(scratch, tests) != 0:
        sys.exit(f"{module}: its tests fail on the code as it is ({' '.join(tests)}); fix them first.")
    results = []
    for defect in PLANTED[module]:
        if later and not defect.later:
            continue
        text = plant(scratch, module, defect)
        if text is None:
            results.append((defect, "absent"))
            continue
        try:
            code = run_tests(scratch, tests)
        finally:
            (scratch / module).write_text(text, encoding="utf-8")
        results.append((defect, {0: "MISSED", 1: "caught"}.get(code, f"broken (pytest exit {code})")))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", metavar="MODULE")
    parser.add_argument("--list", action="store_true", help="print the defects without running anything")
    parser.add_argument("--at", metavar="REV", help="the code and tests of this git revision, not the working tree")
    parser.add_argument("--later", action="store_true", help="only the defects planted after the tests were written")
    args = parser.parse_args()
    unknown = [m for m in args.modules if m not in PLANTED]
    if unknown:
        sys.exit(f"Unknown module {unknown[0]}: name one of {', '.join(PLANTED)}.")
    modules = args.modules or list(PLANTED)
    if args.list:
        for module in modules:
            print("\n".join(f"{module}: {d.what}{' (later)' * d.later}" for d in PLANTED[module]))
        return
    rows, caught, total = [], 0, 0
    with tempfile.TemporaryDirectory(prefix="narnat-planted-") as folder:
        scratch = Path(folder)
        copy_repository(scratch, args.at)
        for module in modules:
            results = check(module, scratch, args.later)
            for defect, verdict in results:
                print(f"{verdict:8} {module}: {defect.what}{' (later)' * defect.later}", flush=True)
            planted = sum(verdict != "absent" for _, verdict in results)
            found = sum(verdict == "caught" for _, verdict in results)
            rows.append((module, planted, found, planted - found))
            caught, total = caught + found, total + planted
    rows.append(("total", total, caught, total - caught))
    table(f"Planted defects caught by the covering tests: {caught} of {total} ({caught / max(total, 1):.0%})", rows,
          ("module", "planted", "caught", "missed"))  # fmt: skip


if __name__ == "__main__":
    main()
