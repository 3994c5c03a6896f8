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
they must pass, or no catch would mean anything. A module whose code runs on Windows alone (WINE_TESTS) has its
tests run under Wine by .ci/windows/test from the scratch copy (the tests marked `windows` among those named, then the
REPL in Wine's console); where Wine cannot be prepared, the run stops and says so.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from common import ROOT, table
from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_MOMENT, WRONG_ORDER, WRONG_SETTING, Defect
from mutation import TARGETS
from mutation_provider import CLIENT_TESTS
from planted_blind2_safety import BLIND2_SAFETY
from planted_blind2_store import BLIND2_STORE
from planted_blind2_weak import BLIND2_WEAK
from planted_blind3_bashweb import BLIND3_BASHWEB
from planted_blind3_files import BLIND3_FILES
from planted_blind3_platform import BLIND3_PLATFORM
from planted_blind3_provider import BLIND3_PROVIDER
from planted_blind3_rest import BLIND3_REST
from planted_blind3_ui import BLIND3_UI
from planted_blind3_winsafety import BLIND3_WINSAFETY
from planted_blind4_bashweb import BLIND4_BASHWEB
from planted_blind4_checkpoints import BLIND4_CHECKPOINTS
from planted_blind4_files import BLIND4_FILES
from planted_blind4_platform import BLIND4_PLATFORM
from planted_blind4_provider import BLIND4_PROVIDER
from planted_blind4_safety import BLIND4_SAFETY
from planted_blind5_acp import BLIND5_ACP
from planted_blind5_commands import BLIND5_COMMANDS
from planted_blind5_core import BLIND5_CORE
from planted_blind5_safety import BLIND5_SAFETY
from planted_blind5_ui import BLIND5_UI
from planted_blind5_winsafety import BLIND5_WINSAFETY
from planted_blind6_acp import BLIND6_ACP
from planted_blind6_checkpoints import BLIND6_CHECKPOINTS
from planted_blind6_core import BLIND6_CORE
from planted_blind6_platform import BLIND6_PLATFORM
from planted_blind6_saferest import BLIND6_SAFEREST
from planted_blind6_tools import BLIND6_TOOLS
from planted_blind_bashweb import BLIND_BASHWEB
from planted_blind_files import BLIND_FILES
from planted_blind_provider import BLIND_PROVIDER
from planted_blind_rest import BLIND_REST
from planted_blind_safety import BLIND_SAFETY
from planted_blind_ui import BLIND_UI
from planted_first import FIRST, FIRST_TESTS

# the spill file a full disk cut short is removed: only a whole Narnat run under a file size limit shows it
FULL_DISK_SPILL = (
    "tests/run/test_cli_faults.py::test_a_command_whose_output_the_full_disk_cannot_spill_still_gives_its_ends"
)

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
    # the fixed texts: the prompt's wording, the system prompt that carries them, the compression that fills them in
    "narnat_agent/prompts/texts.py": (
        "tests/config/test_prompt_wording.py",
        "tests/prompts/test_system_prompt.py",
        "tests/conversation/test_compressor.py",
    ),
    "narnat_agent/commands/custom.py": ("tests/commands/test_custom_files.py", "tests/commands/test_custom.py"),
    # provider: with the slow tests, in process (the limits on a real clock) and not (headless runs)
    "narnat_agent/provider/client.py": (
        *CLIENT_TESTS[:-2], "tests/provider/test_llm_shapes.py", "tests/run/test_headless_stall.py"
    ),
    "narnat_agent/core/headless.py": (
        "tests/core/test_turn.py", "tests/run/test_cli.py", "-k", "test_turn or finished_around_a_refused_command"
    ),
    "narnat_agent/core/goal.py": ("tests/core/test_goal.py",),
    "narnat_agent/provider/errors.py": ("tests/provider/test_errors.py", "tests/provider/test_llm.py"),
    "narnat_agent/provider/tokens.py": ("tests/provider/test_counts.py", "tests/provider/test_llm.py"),
    "narnat_agent/provider/pricing.py": ("tests/provider/test_counts.py", "tests/provider/test_llm.py"),
    # web
    "narnat_agent/tools/verification.py": ("tests/tools/test_verification.py", "tests/core/test_goal.py"),
    # bash: with the slow tests (timeouts, Ctrl-C, the background jobs Narnat stops at its exit)
    "narnat_agent/tools/bash/__init__.py": ("tests/tools/test_bash.py", "tests/tools/test_shells.py",
                                            "tests/tools/test_background.py"),
    "narnat_agent/tools/bash/execute.py": ("tests/tools/test_bash.py", "tests/tools/test_shells.py",
                                           "tests/tools/test_bash_environment.py", FULL_DISK_SPILL),
    "narnat_agent/tools/bash/shells.py": ("tests/tools/test_shells.py", "tests/tools/test_bash.py"),
    "narnat_agent/tools/workspace.py": ("tests/tools/test_workspace.py", "tests/tools/test_read.py",
                                        "tests/tools/test_read_pieces.py", "tests/tools/test_edit.py",
                                        "tests/tools/test_write.py", "tests/tools/test_editor_files.py"),
    # platform: mutmut mutates no function defined inside `if sys.platform` (no target): these defects alone
    "narnat_agent/platform/watch.py": ("tests/platform/test_watch.py", "tests/checkpoints/test_watching.py"),
    "narnat_agent/platform/files.py": ("tests/platform/test_files.py",),
    "narnat_agent/platform/locks.py": ("tests/platform/test_locks.py",),
    "narnat_agent/platform/console.py": ("tests/platform/test_console.py", "tests/ui/test_watcher.py"),
    "narnat_agent/platform/signals.py": (
        "tests/platform/test_signals.py",
        "tests/run/test_signals.py",
        "tests/run/test_leaving.py",  # HANGUP: which signal lets the dead terminal go
    ),
    "narnat_agent/platform/processes.py": ("tests/platform/test_processes.py", "tests/tools/test_background.py"),
    "narnat_agent/run/signals.py": ("tests/run/test_leaving.py", "tests/run/test_signals.py"),
    # with the one pty test of the width make_ui gives the console (in process, stdin and stdout are no terminal)
    "narnat_agent/ui/terminal.py": (
        *TARGETS["narnat_agent/ui/terminal.py"].tests,
        "tests/ui/test_screen.py::test_a_tool_line_is_cut_to_the_terminals_width_in_cells",
    ),
    # with the one pty test of a setting cli.py hands the terminal UI (in process, the UI is plain and has no bell)
    "narnat_agent/cli.py": (
        *TARGETS["narnat_agent/cli.py"].tests,
        "tests/ui/test_pty.py::test_with_the_bell_turned_off_a_turn_ends_without_the_bell_or_a_window_title",
    ),
    "narnat_agent/logger.py": ("tests/base/test_logger.py",),
    # `narnat acp` started as an editor starts it: its sessions in another process, its refusal of a file
    "narnat_agent/acp/__init__.py": (
        "tests/acp/test_session.py", "tests/acp/test_wire.py", "tests/run/test_cli_faults.py"
    ),
    # tail-b
    "narnat_agent/tools/tool.py": ("tests/tools/test_tool_contract.py",),
    # commands: with the slow tests (whole turns' diffs, a restart, another run), and the REPLs in another process
    "narnat_agent/commands/rewind.py": ("tests/commands/test_rewind_parts.py", "tests/commands/test_rewind.py",
                                        "tests/commands/test_rewind_after.py", "tests/commands/test_undo_bounds.py",
                                        "tests/commands/test_diff.py"),
    "narnat_agent/commands/sessions.py": ("tests/commands/test_recap.py", "tests/commands/test_session.py",
                                          "tests/commands/test_fork.py", "tests/commands/test_session_runs.py"),
    "narnat_agent/commands/conversation.py": ("tests/commands/test_context_lines.py",
                                              "tests/commands/test_conversation.py", "tests/commands/test_registry.py"),
    # no mutation target: every function of modes.py is a decorated command, which mutmut does not mutate
    "narnat_agent/commands/modes.py": ("tests/core/test_plan.py", "tests/core/test_goal.py"),
    # pswin: with the Windows corpora, the held-out one too, read through every rule
    **{f"narnat_agent/safety/{name}.py": ("tests/safety/test_windows_forms.py", "tests/safety/test_windows_corpus.py",
                                          "tests/safety/test_windows_blind.py")
       for name in ("powershell_lex", "powershell", "cmd")},
}  # fmt: skip

# run/headless.py's lines from the exit code to the report
REPORT = (
    "    code = EXIT_CODES[outcome.stop.kind] if saved or not resumed else 1  # a resumed session must not be lost\n"
    """    code = 128 + agent.leaving if agent.leaving else code
    ui.report(outcome, agent.session.name if saved else None, code)
"""
)

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
        Defect("sorted(rows, key=lambda r: r[1], reverse=True)", "sorted(rows, key=lambda r: r[1])",
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
        Defect('held, self.held, self.shown = self.held, "", ""', 'held, self.shown = self.held, ""',
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
        # core: the prompt's keys, completions and history
        Defect('if not text.startswith("/") or " " in text:', 'if not text.startswith("/"):',
               f"{FORMAT_EDGE}: the commands are offered again once a command's argument is being typed"),
        Defect('discarded = "class:aborting" if _blank() else "class:discarded"',
               'discarded = "class:discarded" if _blank() else "class:aborting"',
               f"{INVERTED}: a line given up with Ctrl-C is left looking sent"),
        Defect("path.parent.mkdir(parents=True, exist_ok=True)", "path.parent.mkdir(exist_ok=True)",
               f"{STEP_MISSED}: the first run, whose state folder's parent is new, keeps no input history"),
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
    # provider
    "narnat_agent/provider/client.py": (
        Defect("                if attempt == MAX_TRIES:\n", "                if attempt == MAX_TRIES - 1:\n",
               f"{OFF_BY_ONE}: a request the provider keeps failing is given up after three tries, said as four"),
        Defect("        if builder.unshown:\n            sink.feed(builder.unshown)\n", "",
               f"{STEP_MISSED}: text held back as a possible tool call that was none never reaches the screen"),
        Defect("self._stalled(builder, lambda: self._limit(which), retry=which == IDLE)",
               "self._stalled(builder, lambda: self._limit(which), retry=which != IDLE)",
               f"{INVERTED}: a request past request_timeout_s is sent again, one only sending keep-alives is not"),
        Defect("            idle = self.config.stream_idle_timeout_s\n",
               "            idle = self.config.request_timeout_s\n",
               f"{WRONG_SETTING}: a provider that sent nothing is said to have been silent for request_timeout_s"),
    ),
    "narnat_agent/provider/errors.py": (
        Defect("if status in RETRYABLE or status >= 500:", "if status in RETRYABLE or status > 500:",
               f"{OFF_BY_ONE}: a 500 (the provider's own failure) ends the turn instead of being asked again"),
        Defect('(("retry-after-ms", 0.001), ("retry-after", 1.0))', '(("retry-after", 1.0), ("retry-after-ms", 0.001))',
               f"{WRONG_ORDER}: the coarse Retry-After wins over the exact retry-after-ms"),
        Defect("    if status == 429 and NO_QUOTA.search(message):", "    if NO_QUOTA.search(message):",
               f"{WRONG_SETTING}: any refusal mentioning billing is said to be out of quota"),
    ),
    "narnat_agent/provider/transport.py": (
        Defect('                if data.startswith("[DONE]"):\n                    return\n', "",
               f"{STEP_MISSED}: the [DONE] line is read as JSON and ends the stream as malformed"),
        Defect("        if pending.endswith(b\"\\r\"):  # maybe", "        if False:  # maybe",
               f"{FORMAT_EDGE}: a CRLF cut between its two bytes ends the event early and loses the next"),
        Defect("if response.status_code >= 400:", "if response.status_code > 400:",
               f"{OFF_BY_ONE}: a 400 is read as a stream of events, and its refusal is never named"),
    ),
    "narnat_agent/provider/fit.py": (
        Defect("counted = usage.prompt + usage.cached", "counted = usage.prompt",
               f"{WRONG_SETTING}: a server that cached most of the prompt is said to have cut it"),
        Defect("        if sent > server.context:\n", "        if sent >= server.context:\n",
               f"{OFF_BY_ONE}: a prompt that fills the context exactly is said not to fit"),
        Defect("        self.said = True\n", "",
               f"{STEP_MISSED}: the advice is said again at every request"),
    ),
    "narnat_agent/provider/tokens.py": (
        Defect("        if value.get(\"type\") == \"image_url\":", "        if value.get(\"type\") == \"image\":",
               f"{FORMAT_EDGE}: a picture is counted as its base64 text, thousands of tokens too many"),
        Defect("return len(item) // CHARS_PER_TOKEN\n", "return len(item.encode()) // CHARS_PER_TOKEN\n",
               f"{FORMAT_EDGE}: text is counted in bytes, CJK and accents twice and thrice over"),
    ),
    "narnat_agent/provider/pricing.py": (
        Defect('pricing.get("cached_input", pricing.get("input", 0))', 'pricing.get("cached_input", 0)',
               f"{WRONG_SETTING}: without a cached price, cached tokens cost nothing"),
        Defect("fresh = max(usage.prompt - usage.cached, 0)", "fresh = usage.prompt",
               f"{STEP_MISSED}: cached tokens are paid twice, at both prices"),
    ),
    "narnat_agent/provider/body.py": (
        Defect("        for message in remaining:\n            self._add(message, dumps(outgoing(message)))\n", "",
               f"{STEP_MISSED}: after a rewind, the messages kept of the last block are no longer sent"),
        Defect("        if form != self.form:\n", "        if form is None:\n",
               f"{WRONG_SETTING}: once the provider refused reasoning or images, the messages sent before still carry "
               "them"),
        Defect('(b"," if rest != b"}" else b"")', 'b","',
               f"{FORMAT_EDGE}: a body with no field after the messages ends in a comma, and is not JSON"),
    ),
    "narnat_agent/provider/endpoint.py": (
        Defect("quote(model, safe='')", "quote(model)",
               f"{FORMAT_EDGE}: an LM Studio model named with its publisher (org/name) is not found"),
        Defect("and not isinstance(value, bool) and value > 0 else None", "and value >= 0 else None",
               f"{OFF_BY_ONE}: a server that says a context of 0 has every request said not to fit"),
        Defect("        if e.code in (401, 403):\n", "        if e.code == 401:\n",
               f"{WRONG_SETTING}: a key refused with 403 is said to be an unknown model"),
    ),
    "narnat_agent/core/turn.py": (
        Defect("if self in (Stop.COMPLETED, Stop.CANCELLED):", "if self is Stop.COMPLETED:",
               f"{STEP_MISSED}: a cancelled turn is reported as stopped, and a script cannot tell Esc from a limit"),
        Defect("last = self.check or (self.verifications[-1] if self.verifications else None)",
               "last = (self.verifications[-1] if self.verifications else None) or self.check",
               f"{WRONG_ORDER}: the model's own last test run is judged before the goal's check"),
        Defect("answer[max(0, m.start() - 30) : m.start()]", "answer[m.start() - 30 : m.start()]",
               f"{FORMAT_EDGE}: a negation at the very start of a long answer is missed ('Not fixed' read as a claim)"),
    ),
    "narnat_agent/core/headless.py": (
        Defect("if not self.refused or not outcome.completed:", "if not self.refused:",
               f"{INVERTED}: a turn cut off or stopped by a limit is reported as a confirmation refused"),
        Defect('commands = "; ".join(self.refused)', "commands = self.refused[-1]",
               f"{STEP_MISSED}: of several refused commands, only the last is named"),
        Defect("refused=tuple(self.refused))", "refused=())",
               f"{STEP_MISSED}: the JSON report names no refused command"),
    ),
    "narnat_agent/core/goal.py": (
        Defect("range(1, goal.max_turns + 1)", "range(1, goal.max_turns)",
               f"{OFF_BY_ONE}: a goal gets one turn fewer than max_turns"),
        Defect("    finally:\n        agent.until = None\n", "    finally:\n        pass\n",
               f"{STEP_MISSED}: after the goal, every question of the conversation runs its check again"),
        Defect("tail = output[-TAIL:]", "tail = output[:TAIL]",
               f"{FORMAT_EDGE}: a long check's output is cut to its start, and the errors at its end are lost"),
    ),
    # read
    "narnat_agent/tools/grep.py": (
        Defect("        last, apart = path, False\n", "        last = path\n",
               f"{STEP_MISSED}: after one gap in a file's context, every later line of it is shown after a '--'"),
        Defect('"/" in glob or bool(args.get("type")) or not', '"/" in glob or not',
               f"{WRONG_SETTING}: a name glob with a type goes to the name filter, and rg finds files of either"),
        Defect("if offset >= len(entries):", "if offset > len(entries):",
               f"{OFF_BY_ONE}: an offset exactly at the end shows an empty page whose range runs backwards"),
    ),
    "narnat_agent/tools/files/ripgrep.py": (
        Defect("            i += 3\n", "            i += 2\n",
               f"{OFF_BY_ONE}: the slash after a '**' is kept, so '**/*.py' misses the files at the top"),
        Defect("folder = posixpath.dirname(names[0]) if n == 1 else posixpath.commonpath(names)",
               "folder = posixpath.commonpath(names)",
               f"{FORMAT_EDGE}: one ignored file is named as the folder to search, not the folder holding it"),
        Defect('range(start + 1 + (pattern[start] == "["), len(pattern))', "range(start + 1, len(pattern))",
               f"{FORMAT_EDGE}: a ']' first in a class ('[]a]') closes it"),
    ),
    "narnat_agent/tools/read/__init__.py": (
        Defect("if n >= start + count:", "if n > start + count:",
               f"{OFF_BY_ONE}: a page holds one line more than limit asked"),
        Defect("min(limit or MAX_LINES, MAX_LINES)", "limit or MAX_LINES",
               f"{WRONG_SETTING}: a limit beyond one Read's 2000 lines is taken as asked"),
        Defect("    previous = None if growing else ws.reads.get(path)\n", "    previous = ws.reads.get(path)\n",
               f"{STEP_MISSED}: a background job's growing log is said to be modified externally at each Read"),
        Defect('    if path.suffix.lower() in (".pdf", ".ipynb"):', '    if path.suffix in (".pdf", ".ipynb"):',
               f"{FORMAT_EDGE}: a notebook or PDF named in capitals (.PDF) is refused as binary"),
    ),
    # web
    "narnat_agent/tools/verification.py": (
        Defect("    if len(every) == 1 and code != 0:\n        return None\n", "",
               f"{STEP_MISSED}: `pytest && git commit` failing is recorded as the tests failing"),
        Defect("code if code is None or not statuses else statuses[n]", "statuses[n] if statuses else code",
               f"{WRONG_SETTING}: a pipeline stopped at its timeout is said to have exited with its stage's status"),
        Defect('if script.split(":")[0] not in SCRIPTS:', "if script not in SCRIPTS:",
               f"{FORMAT_EDGE}: `npm run test:unit` is no verification"),
    ),
    "narnat_agent/tools/edit/__init__.py": (
        Defect("ws.remember(path, encoded, whole=record.whole,", "ws.remember(path, encoded, whole=True,",
               f"{WRONG_SETTING}: a file read in part counts as read whole once edited, and Write may replace it"),
        Defect('found.end() + 1] in ("", "\\n", "\\r")', 'found.end() + 1] == "\\n"',
               f"{FORMAT_EDGE}: an edit already made on the file's last line, without a final newline, is not named"),
        Defect('if any(line.startswith("\\t") for line in window) and any(',
               'if not any(line.startswith("\\t") for line in window) and any(',
               f"{INVERTED}: tabs in the file against spaces in old_string go unnamed, and the reverse is named"),
    ),
    "narnat_agent/tools/web/fetch.py": (
        Defect("if len(data) > MAX_BYTES:", "if len(data) >= MAX_BYTES:",
               f"{OFF_BY_ONE}: a body of exactly 10 MB is refused as too large"),
        Defect('for charset in (declared and declared.group(1), meta and meta.group(1).decode("ascii", "ignore")):',
               'for charset in (meta and meta.group(1).decode("ascii", "ignore"), declared and declared.group(1)):',
               f"{WRONG_ORDER}: a page's meta tag wins over the charset its header declares"),
        Defect('url = "https://" + url.removeprefix("//")', 'url = "https://" + url',
               f"{FORMAT_EDGE}: a scheme-relative address (//host/page) becomes https:////host/page"),
        Defect("(len(text) < 3000 and _challenge(data))", "_challenge(data)",
               f"{STEP_MISSED}: a long article that mentions a captcha is refused as a bot-check page"),
    ),
    "narnat_agent/tools/web/http.py": (
        Defect("(requests.exceptions.SSLError, requests.exceptions.ProxyError)", "requests.exceptions.ProxyError",
               f"{STEP_MISSED}: a certificate refused is said to be a machine without the internet"),
        Defect('return self.urls.get(engine, default).rstrip("/")', "return self.urls.get(engine, default)",
               f"{FORMAT_EDGE}: a search address configured with a final slash asks for //search"),
        Defect("if self._session is None:", "if True:",
               f"{STEP_MISSED}: every request starts a new session, and Baidu's cookie is lost"),
    ),
    "narnat_agent/tools/web/search.py": (
        Defect('num = min(max(args["num"], 1), 20)', 'num = min(args["num"], 20)',
               f"{STEP_MISSED}: num=0 asks for no result, and every engine's answer is taken for a changed layout"),
        Defect("""        if not hits:
            failures.append(f"{NAMES[engine]}: layout changed (a page with no results parsed)")
        elif not relevant(query, hits):
            failures.append(f"{NAMES[engine]}: results unrelated to the query")""",
               """        if not relevant(query, hits):
            failures.append(f"{NAMES[engine]}: results unrelated to the query")
        elif not hits:
            failures.append(f"{NAMES[engine]}: layout changed (a page with no results parsed)")""",
               f"{WRONG_ORDER}: a page whose layout changed is said to hold unrelated results"),
        Defect('wrapped[2:] + "=" * (-len(wrapped[2:]) % 4)', "wrapped[2:]",
               f"{FORMAT_EDGE}: Bing's links whose base64 lost its padding stay wrapped"),
    ),
    "narnat_agent/tools/todo_write.py": (
        Defect('        seen.add(todo["content"])\n', "",
               f"{STEP_MISSED}: a task listed twice is accepted"),
        Defect('if any(t["status"] == "in_progress" for t in todos):',
               'if all(t["status"] == "in_progress" for t in todos):',
               f"{INVERTED}: a list with a task in progress has its first pending one started too"),
        Defect('current = next((t["activeForm"]', 'current = next((t["content"]',
               f"{WRONG_SETTING}: the task in progress is said in its imperative form (now: Run tests)"),
    ),
    # bash
    "narnat_agent/tools/bash/__init__.py": (
        Defect("if status not in (0, 141) and", "if status != 0 and",
               f"{INVERTED}: a stage stopped by SIGPIPE (its reader had enough) is said to have failed"),
        Defect('notes = [f"timeout {asked} ms is above the maximum; it ran with {MAX_TIMEOUT_MS} ms"] if asked > '
               'timeout_ms else []',
               'notes = [f"timeout {asked} ms is above the maximum; it ran with {MAX_TIMEOUT_MS} ms"] if asked >= '
               'MAX_TIMEOUT_MS else []',
               f"{OFF_BY_ONE}: a timeout of exactly the maximum is said to be above it"),
        Defect("benign = code == 1 and bool(stages) and _name(stages[-1]) in NOT_FAILURES",
               "benign = code == 1 and bool(stages) and _name(stages[0]) in NOT_FAILURES",
               f"{WRONG_SETTING}: the first stage decides whether exit 1 means no, not the one whose code it is"),
        Defect("    job.told = job.told or ended\n", "",
               f"{STEP_MISSED}: a job waited for to its end is told as news again in the next result"),
    ),
    "narnat_agent/tools/bash/execute.py": (
        Defect('first = head.count("\\n") + (1 if within[0] else 2)', 'first = head.count("\\n") + 1',
               f"{OFF_BY_ONE}: the Read call for the omitted lines starts at the last line shown"),
        Defect("return {**kept, **QUIET}", "return {**QUIET, **kept}",
               f"{WRONG_ORDER}: the user's own EDITOR or PAGER wins over the quiet ones, and a command waits on it"),
        Defect('activated = os.path.realpath(env.get("VIRTUAL_ENV", "")) == own',
               'activated = os.path.realpath(env.get("VIRTUAL_ENV", "")) != own',
               f"{INVERTED}: the project's activated virtualenv is left out of the command's environment"),
        Defect("    elif not partial:\n        spill.unlink(missing_ok=True)\n", "",
               f"{STEP_MISSED}: every command's output is kept in a spill file, though none is named for Read"),
    ),
    "narnat_agent/tools/bash/shells.py": (
        Defect("stem = PureWindowsPath(path).stem.lower()", "stem = PureWindowsPath(path).stem",
               f"{FORMAT_EDGE}: a setting naming PowerShell.exe in capitals is taken for a bash"),
        Defect('for inside in (("bin", "bash.exe"), ("usr", "bin", "bash.exe")):',
               'for inside in (("usr", "bin", "bash.exe"), ("bin", "bash.exe")):',
               f"{WRONG_ORDER}: Git's usr\\bin\\bash.exe is taken before bin\\bash.exe, which sets up Git's PATH"),
        Defect('r"/([A-Za-z])(?=/|$)"', 'r"/([A-Za-z])/"',
               f"{FORMAT_EDGE}: a command ending at a drive's root (/c) leaves Bash in a folder that is not there"),
        Defect("if os.path.isabs(folder) and os.path.isfile(path := os.path.join(folder, name)):",
               "if folder and os.path.isfile(path := os.path.join(folder, name)):",
               f"{STEP_MISSED}: a relative PATH entry finds a bash.exe the cloned project holds"),
        Defect("if Path(path).parent.name.lower() not in WSL_FOLDERS", "if Path(path).parent.name not in WSL_FOLDERS",
               f"{FORMAT_EDGE}: WSL's bash.exe in System32, spelt as Windows spells it, is taken for Git Bash"),
        Defect("for up in list(Path(git).parents)[:3]]", "for up in list(Path(git).parents)[:2]]",
               f"{OFF_BY_ONE}: Git's folder above mingw64\\bin\\git.exe is never reached, and PowerShell runs"),
    ),
    "narnat_agent/tools/workspace.py": (
        Defect("if out and first <= out[-1][1] + 1:", "if out and first <= out[-1][1]:",
               f"{OFF_BY_ONE}: a file read in two pages that meet is never counted as read whole"),
        Defect("if whole and not record.whole:", "if not record.whole:",
               f"{WRONG_SETTING}: Edit is refused on a file read only in part, as Write is"),
        Defect("before = previous if previous is not None and previous.sha == sha else None",
               "before = previous if previous is not None else None",
               f"{STEP_MISSED}: the pages read of a file's older content count as seen of the new"),
        Defect("if record and not self.knows(path):", "if record:",
               f"{STEP_MISSED}: a file a rewind put back as the model read it is said to be restored: Edit refused"),
        Defect("self.tool_state.at_turn[message] = dict(self.reads)", "self.tool_state.at_turn[message] = self.reads",
               f"{WRONG_MOMENT}: what the model knew as a turn began is what it knows now, and /undo forgets nothing"),
        Defect("if os.path.commonpath([real, os.path.realpath(self.root)]) != os.path.realpath(self.root):",
               "if not real.startswith(os.path.realpath(self.root)):",
               f"{FORMAT_EDGE}: a file in a folder beside the project whose name begins alike is written unasked"),
    ),
    # platform
    "narnat_agent/checkpoints/watching.py": (
        Defect('or name.rsplit("/", 1)[-1] == ".gitignore"', 'or name == ".gitignore"',
               f"{FORMAT_EDGE}: a .gitignore in a subfolder changed leaves the snapshot updating the names alone"),
        Defect('                self.lost = False\n                self._walk("")\n',
               "                self.lost = False\n",
               f"{STEP_MISSED}: after events were lost, the folders made meanwhile are never watched"),
        Defect("kept = sorted(self.ignored - ignored)", "kept = sorted(ignored - self.ignored)",
               f"{WRONG_SETTING}: the folders .gitignore newly names are walked, not those it no longer names"),
    ),
    "narnat_agent/checkpoints/runs.py": (
        Defect('os.write(fd, b"\\n" + line if cut else line)', "os.write(fd, line)",
               f"{STEP_MISSED}: a step noted after a line a crash cut short is glued to it, and both are lost"),
        Defect("and command.start < w.end]", "and command.start < w.start]",
               f"{WRONG_MOMENT}: another run's step that began before the command and ended during it is missed"),
        Defect("and w.end >= ended_before)", "and w.start >= ended_before)",
               f"{WRONG_MOMENT}: a prune forgets a step that began before the limit but ended after it"),
    ),
    "narnat_agent/checkpoints/index.py": (
        Defect("return trailer == bytes(TRAILER) or hashlib", "return hashlib",
               f"{FORMAT_EDGE}: an index git wrote without its checksum is taken for damaged at every snapshot"),
        Defect('        self.path.unlink(missing_ok=True)\n        return False', "        return False",
               f"{STEP_MISSED}: a damaged index stays, and git stages the whole project on top of its garbage"),
        Defect("if len(data) < 12 + TRAILER", "if len(data) <= 12 + TRAILER",
               f"{OFF_BY_ONE}: an index without entries is taken for damaged"),
    ),
    "narnat_agent/platform/watch.py": (
        Defect("[f for f in self.watches if f == folder or f.startswith(below)]",
               "[f for f in self.watches if f.startswith(folder)]",
               f"{FORMAT_EDGE}: forgetting a folder forgets those whose names begin with its name (src2 with src)"),
        Defect('inside = path == point or path.startswith(point.rstrip("/") + "/")', "inside = path.startswith(point)",
               f"{FORMAT_EDGE}: a mount point whose name begins the project's (/home/a, /home/ab) is taken for its"),
        Defect("folder_event and bool(mask & (_CREATE | _MOVED_TO))", "folder_event and bool(mask & _CREATE)",
               f"{STEP_MISSED}: a folder moved into the project is not watched"),
    ),
    "narnat_agent/platform/files.py": (
        Defect("        finally:\n            os.close(base)", "        finally:\n            pass",
               f"{STEP_MISSED}: each folder listed leaves a descriptor open"),
        Defect("yield lambda name: os.stat(name, dir_fd=base)",
               "yield lambda name: os.stat(name, dir_fd=base, follow_symlinks=False)",
               f"{WRONG_SETTING}: a link is stat'ed itself, not the file it names"),
    ),
    "narnat_agent/platform/locks.py": (
        Defect("fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)", "fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)",
               f"{WRONG_SETTING}: the lock taken shared, so two runs hold it at once"),
        Defect("fcntl.flock(fd, fcntl.LOCK_EX)\n", "fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\n",
               f"{WRONG_SETTING}: waiting for the lock fails at once when another holds it"),
    ),
    "narnat_agent/platform/console.py": (
        Defect("if any(event & select.POLLHUP for _, event in poller.poll(0)):", "if poller.poll(0):",
               f"{INVERTED}: a terminal with keys waiting is taken for one that hung up"),
        Defect("select.select([keyboard.fileno()], [], [], timeout)", "select.select([keyboard.fileno()], [], [], 0)",
               f"{WRONG_SETTING}: the key watcher's wait for a key returns at once"),
    ),
    "narnat_agent/platform/signals.py": (
        Defect("_TAKEN = {signal.SIGINT, *ENDING}", "_TAKEN = set(ENDING)",
               f"{STEP_MISSED}: a helper thread can take the Ctrl-C meant to interrupt the main thread"),
        Defect("signal.pthread_sigmask(signal.SIG_SETMASK, previous)",
               "signal.pthread_sigmask(signal.SIG_UNBLOCK, previous)",
               f"{WRONG_SETTING}: after its helper threads started, the main thread keeps the signals blocked"),
        Defect("signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGINT)",
               "signal.pthread_kill(threading.get_ident(), signal.SIGINT)",
               f"{WRONG_SETTING}: the interrupt goes to the thread that asks for it, not the main one"),
    ),
    "narnat_agent/platform/processes.py": (
        Defect('if wanted.intersection((entry / "environ").read_bytes().split(b"\\0")):',
               'if any(tag in (entry / "environ").read_bytes() for tag in wanted):',
               f"{FORMAT_EDGE}: a job whose tag begins another's is killed with the other's leftovers"),
        Defect("        if not stop(process):\n            return\n", "        stop(process)\n",
               f"{STEP_MISSED}: a tree gone at the first signal is waited for and signalled again"),
        Defect("return spawn(argv, start_new_session=True, **options)", "return spawn(argv, **options)",
               f"{STEP_MISSED}: a command is started in Narnat's own process group, so stopping its tree misses it"),
    ),
    "narnat_agent/run/signals.py": (
        Defect("        if signum == HANGUP:\n            _mute_hung_up_terminal()\n        if agent.leaving:\n"
               "            return\n",
               "        if agent.leaving:\n            return\n        if signum == HANGUP:\n"
               "            _mute_hung_up_terminal()\n",
               f"{WRONG_ORDER}: a hangup after a SIGTERM leaves the dead terminal in place, and each write fails"),
        Defect("    for signum in ENDING:\n        signal.signal(signum, signal.SIG_IGN)",
               "    for signum in ENDING[:1]:\n        signal.signal(signum, signal.SIG_IGN)",
               f"{WRONG_SETTING}: a hangup while the interpreter shuts down still kills the run"),
        Defect("    for fd in hung_up():\n", "    for fd in (0, 1, 2):\n",
               f"{FORMAT_EDGE}: a stream redirected to a file goes to /dev/null at a hangup"),
    ),
    "narnat_agent/encodable.py": (
        Defect("if 0xDC80 <= point <= 0xDCFF", "if 0xDC80 < point <= 0xDCFF",
               f"{OFF_BY_ONE}: a name's byte 0x80 is shown as a surrogate, not as \\x80"),
        Defect("{encodable_data(key): encodable_data(item)", "{key: encodable_data(item)",
               f"{STEP_MISSED}: a key holding a file name that is not UTF-8 makes the session unsavable"),
        Defect('SURROGATE = re.compile("[\\ud800-\\udfff]")', 'SURROGATE = re.compile("[\\udc80-\\udcff]")',
               f"{FORMAT_EDGE}: a JSON \\ud800 from the provider is kept, and every later request fails to encode"),
    ),
    "narnat_agent/logger.py": (
        Defect("        root.addHandler(logging.NullHandler())  #", "        #",
               f"{STEP_MISSED}: once the log fails, every later warning is printed on the terminal"),
        Defect('+", re.IGNORECASE)', '+")',
               f"{FORMAT_EDGE}: an Authorization header written with its capital is logged whole"),
        Defect('%H-%M-%S}-{os.getpid()}.log"', '%H-%M-%S}.log"',
               f"{STEP_MISSED}: two runs started in the same second write into one log"),
    ),
    "narnat_agent/config/loader.py": (
        Defect('if not have_key and "api_key" not in settings and env.get("OPENAI_API_KEY"):',
               'if "api_key" not in settings and env.get("OPENAI_API_KEY"):',
               f"{WRONG_SETTING}: OPENAI_API_KEY wins over the key of the user's own settings file"),
        Defect("if len(keys) > NAMED_KEYS:", "if len(keys) >= NAMED_KEYS:",
               f"{OFF_BY_ONE}: exactly five unknown keys are said to be five and 0 more"),
        Defect('    merged.update(_from_environment(env, have_key=bool(merged["api_key"])))\n    if model:\n'
               '        merged["model"] = model\n',
               '    if model:\n        merged["model"] = model\n'
               '    merged.update(_from_environment(env, have_key=bool(merged["api_key"])))\n',
               f"{WRONG_ORDER}: NARNAT_MODEL wins over the --model flag"),
    ),
    "narnat_agent/config/settings.py": (
        Defect("return _is_int(value) and value > 0", "return _is_int(value) and value >= 0",
               f"{OFF_BY_ONE}: a max_steps or context_window of 0 is accepted"),
        Defect("return isinstance(value, (int, float)) and not isinstance(value, bool)",
               "return isinstance(value, (int, float))",
               f"{FORMAT_EDGE}: true is taken for the number 1 as a timeout or a price"),
        Defect("all(_is_number(x) and x >= 0 for x", "all(_is_number(x) and x > 0 for x",
               f"{OFF_BY_ONE}: a price of 0 (cached input that costs nothing) is refused"),
    ),
    "narnat_agent/i18n.py": (
        Defect('for name in ("LC_ALL", "LC_MESSAGES", "LANG"):', 'for name in ("LANG", "LC_MESSAGES", "LC_ALL"):',
               f"{WRONG_ORDER}: LANG wins over LC_ALL"),
        Defect('asked = value.split(".")[0].replace("-", "_").lower()', 'asked = value.replace("-", "_").lower()',
               f"{FORMAT_EDGE}: a locale with its encoding (zh_CN.UTF-8) is not recognised, and the interface speaks "
               "English"),
        Defect("        if path in _damaged:\n            return None\n", "",
               f"{STEP_MISSED}: a damaged catalog is said to be damaged at every language switch"),
    ),
    # syntax
    "narnat_agent/tools/files/parsers.py": (
        Defect("or node.start_byte > first.offset:", "or node.start_byte >= first.offset:",
               f"{OFF_BY_ONE}: the token the compiler stops on is listed a second time, as tree-sitter's error node"),
        Defect('    column = len(lines[row][:column].decode("utf-8", "replace")) if row < len(lines) else column\n', "",
               f"{FORMAT_EDGE}: a column after a character of several bytes is counted in bytes"),
        Defect("memoryview(new)[::-1], limit - start)", "memoryview(new)[::-1], limit)",
               f"{WRONG_MOMENT}: the shared end counted over the whole text, into the shared start: a text repeated "
               "is marked changed in the wrong place"),
    ),
    "narnat_agent/tools/files/stopping.py": (
        Defect("    at = padding.end() if padding else after\n", "    at = after\n",
               f"{STEP_MISSED}: the error is placed on the spaces and blank lines before the token, not on it"),
        Defect('if grammar == "javascript" and previous is not None and _ends_argument(previous):',
               "if previous is not None and _ends_argument(previous):",
               f"{WRONG_SETTING}: TypeScript's error is named by node's rule for an argument list left open"),
        Defect("while node is not None and (node.is_extra or node.end_byte > offset):",
               "while node is not None and (node.is_extra or node.end_byte >= offset):",
               f"{OFF_BY_ONE}: the token that ends where the parser stopped is skipped for the one before it"),
    ),
    "narnat_agent/tools/files/html_context.py": (
        Defect('end = upper.find(f"</{name}", at)', 'end = page.find(f"</{name.lower()}", at)',
               f"{FORMAT_EDGE}: a </SCRIPT> in capitals does not end the script's raw text"),
        Defect("del stack[len(stack) - 1 - stack[::-1].index(name) :]", "del stack[stack.index(name) :]",
               f"{WRONG_SETTING}: an end tag closes the outermost element of its name, not the innermost"),
        Defect("    while stack and (stack[-1] in VOID", "    if stack and (stack[-1] in VOID",
               f"{STEP_MISSED}: a start tag closes one element it cannot be in, not all of them (<p><br><div>)"),
    ),
    "narnat_agent/tools/files/statements.py": (
        Defect("while end - start > BLOCK and", "while end - start >= BLOCK and",
               f"{OFF_BY_ONE}: a block of exactly two hundred lines is narrowed"),
        Defect("|</)[^\\s)\\]}]", ")[^\\s)\\]}]",
               f"{FORMAT_EDGE}: an HTML closing tag is taken for the start of a statement"),
        Defect("        tail[:0] = range(last, end)\n", "        tail += range(last, end)\n",
               f"{WRONG_ORDER}: an inner block's closing lines are put after the outer block's"),
    ),
    "narnat_agent/tools/files/yaml_syntax.py": (
        Defect("return (mark.line + 1, mark.column + 1, words)", "return (mark.line + 1, mark.column, words)",
               f"{OFF_BY_ONE}: the column libyaml names is said counted from 0"),
        Defect("mark = e.problem_mark or e.context_mark", "mark = e.context_mark or e.problem_mark",
               f"{WRONG_SETTING}: the place of the construct the error is in is named, not the error's"),
        Defect('e.position - (text.rfind("\\n", 0, e.position) + 1) + 1', "e.position + 1",
               f"{FORMAT_EDGE}: a character YAML does not allow is placed by its offset in the text, not in its line"),
    ),
    "narnat_agent/safety/edits.py": (
        Defect("existing = [f for f in files if f and existing_file(os.path.expanduser(f), check.cwd)]",
               "existing = [f for f in files if f]",
               f"{STEP_MISSED}: sed -i on a file that does not exist is said to delete its lines"),
        Defect('path = home + file[1:] if home and file.startswith("~/") else os.path.expanduser(file)',
               "path = os.path.expanduser(file)",
               f"{WRONG_SETTING}: a key under ~ is looked for in Narnat's home, not the command's"),
        Defect('kept = re.sub(r"\\.\\*\\$?$", "", pattern)', 'kept = re.sub(r"\\.\\*$", "", pattern)',
               f"{FORMAT_EDGE}: s/^KEY=.*$/KEY=/ (the pattern anchored at the end) is not seen to blank the value"),
    ),
    "narnat_agent/safety/archives.py": (
        Defect("                if len(found) > MAX_LINES:", "                if len(found) >= MAX_LINES:",
               f"{OFF_BY_ONE}: an archive of exactly as many files as a question lists is asked about unnamed"),
        Defect("found.append(os.path.normpath(member.name))", "found.append(member.name)",
               f"{FORMAT_EDGE}: a member stored as ./src/app.ts is not seen to replace src/app.ts"),
        Defect("target = Path(os.path.expanduser(folder)) if folder else check.cwd", "target = check.cwd",
               f"{WRONG_SETTING}: -C is ignored: an extraction elsewhere is said to replace the project's files"),
    ),
    "narnat_agent/safety/pyproject.py": (
        Defect("if name in seen or len(seen) >= MAX_TARGETS:", "if name in seen or len(seen) > MAX_TARGETS:",
               f"{OFF_BY_ONE}: one task more than the bound is followed"),
        Defect('words[0].rpartition(":")', 'words[0].partition(":")',
               f"{FORMAT_EDGE}: hatch run NAME, without an environment, is not read as the default one's script"),
        Defect("extra if task == name else []", "extra",
               f"{STEP_MISSED}: the arguments after the task's name are given to its pre_ and post_ scripts too"),
    ),
    # safety
    "narnat_agent/safety/readonly.py": (
        Defect('if ">" in operator and not', 'if operator == ">" and not',
               f"{FORMAT_EDGE}: an appending redirection (>>) is taken for one that writes nothing"),
        Defect("if name is None or (name not in READERS and any(word is None for word in argv)):",
               "if name is None or any(word is None for word in argv):",
               f"{STEP_MISSED}: a reader of a file named at run time (cat \"$f\") waits for the plan"),
        Defect("return len(operands([name, *words])) < 2", "return len(operands([name, *words])) <= 2",
               f"{OFF_BY_ONE}: uniq with an output file is taken for a reader"),
    ),
    "narnat_agent/safety/tasks.py": (
        Defect("stack += [(p, False) for p in reversed(rules[name][0])]",
               "stack += [(p, False) for p in rules[name][0]]",
               f"{WRONG_ORDER}: a target's prerequisites are said last to first, not in the order make runs them"),
        Defect('[f"pre{script}", script, f"post{script}"]', '[script, f"post{script}"]',
               f"{STEP_MISSED}: npm's pre script (prereset: rm -rf …) runs unread before the script"),
        Defect(r'MAKE_REF.sub(value, line.replace("$$", "\0")).replace("\0", "$")', "MAKE_REF.sub(value, line)",
               f"{FORMAT_EDGE}: make's $$ (a dollar for the shell) is read as a make variable"),
    ),
    "narnat_agent/safety/probes.py": (
        Defect("if line][: MAX_LINES + 1]", "if line][:MAX_LINES]",
               f"{OFF_BY_ONE}: a listing cut at the limit is never said to hold more"),
        Defect('(", …" if len(names_) > 3 else "")', '(", …" if len(names_) >= 3 else "")',
               f"{OFF_BY_ONE}: three names all shown are said to go on"),
        Defect('skip = 1 if word in ("-fls", "-fprint", "-fprint0", "-printf") else',
               'skip = 1 if word in ("-fls", "-fprint", "-fprint0") else',
               f"{FORMAT_EDGE}: -printf's format is left as a word of find's, whose listing then fails"),
    ),
    "narnat_agent/safety/vocabulary.py": (
        Defect("if word is None or len(found) == MAX_SUBCOMMANDS:", "if word is None or len(found) > MAX_SUBCOMMANDS:",
               f"{OFF_BY_ONE}: a fourth word after three subcommands is read as one"),
        Defect("not (VERBS - SHORT) & split", "not VERBS & split",
               f"{STEP_MISSED}: a target named rm or del alone (make rm) is taken to say it destroys"),
        Defect('if a.startswith("--") and not a.startswith("--no-")]', 'if a.startswith("--")]',
               f"{INVERTED}: an option that declines to delete (--no-delete, --no-prune) is read as one that deletes"),
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
    # acp
    "narnat_agent/acp/wire.py": (
        Defect('if message.get("jsonrpc") != "2.0":', 'if "jsonrpc" not in message:',
               f"{FORMAT_EDGE}: a message of JSON-RPC 1.0 is taken as one of 2.0"),
        Defect('if "method" not in message and "id" not in message:',
               'if "method" not in message or "id" not in message:',
               f"{INVERTED}: a notification (a method without an id) is refused as no message"),
        Defect("                await self._skip(over.consumed)\n", "",
               f"{STEP_MISSED}: the rest of a line over the limit is read as lines of its own"),
    ),
    "narnat_agent/acp/calls.py": (
        Defect("path.stat().st_size > MAX_DIFF", "path.stat().st_size >= MAX_DIFF",
               f"{OFF_BY_ONE}: a file of exactly 2 MB is shown as text, not as a diff"),
        Defect("(running.before is not None or not running.existed)", "(running.before is not None or running.existed)",
               f"{INVERTED}: a binary file written over is shown as a diff from nothing"),
        Defect("and running.path and not result.is_error else None", "and running.path else None",
               f"{STEP_MISSED}: a failed Edit is shown as a diff of the unchanged file, not as its error"),
    ),
    "narnat_agent/acp/replay.py": (
        Defect("for message in messages[1:]:", "for message in messages[2:]:",
               f"{OFF_BY_ONE}: the conversation's first question is not told again"),
        Defect('message.get("reasoning_content") or message.get("reasoning")', 'message.get("reasoning")',
               f"{WRONG_SETTING}: reasoning saved as reasoning_content is not told again"),
        Defect('REMINDER.sub("", content)', "content",
               f"{STEP_MISSED}: the reminders Narnat added to a question are shown as typed by the person"),
    ),
    "narnat_agent/acp/sessions.py": (
        Defect("path = Path(unquote(parsed.path))", "path = Path(parsed.path)",
               f"{FORMAT_EDGE}: an attached file whose name has a space is mentioned as my%20app.py"),
        Defect("if name not in NOT_OFFERED:", "if name in NOT_OFFERED:",
               f"{INVERTED}: the editor is offered only /exit and /rewind"),
        Defect('hint = usage.partition(" ")[2]', 'hint = usage.split(" ")[1] if " " in usage else ""',
               f"{FORMAT_EDGE}: a command's hint of several words keeps only its first"),
        # core: the session opened, its modes
        Defect("max_steps=args.max_steps or config.max_steps", "max_steps=config.max_steps",
               f"{WRONG_SETTING}: --max-steps is left out of every session an editor opens"),
        Defect("    opened.ui.mode = mode  # what the editor shows", "    # what the editor shows",
               f"{STEP_MISSED}: the editor is told again of the mode it has just chosen"),
        Defect("if name is None and agent.session.name in taken:", "if agent.session.name in taken:",
               f"{INVERTED}: a saved conversation loaded is renamed when a session of its name is open"),
    ),
    "narnat_agent/acp/ui.py": (
        Defect("        if not self.answering:\n            self.errors.append(text)",
               "        self.errors.append(text)",
               f"{STEP_MISSED}: an error said in a prompt's reply is kept as why the session could not open"),
        Defect("        self.answering = True\n        held, self.held = self.held, []\n        for text in held:\n"
               "            self.say(text)",
               "        held, self.held = self.held, []\n        for text in held:\n            self.say(text)\n"
               "        self.answering = True",
               f"{WRONG_ORDER}: what was said before a prompt is held again, and said a prompt late"),
        Defect("        if mode != self.mode:\n            self.mode = mode\n            self.update(",
               "        if mode != DEFAULT:\n            self.mode = mode\n            self.update(",
               f"{WRONG_SETTING}: the editor is told plan mode again at each /plan, and never that it ended"),
    ),
    # tail-a
    "narnat_agent/tools/read/lines.py": (
        Defect("newlines + (last != b\"\\n\")", "newlines + 1",
               f"{FORMAT_EDGE}: a file ending with its newline is counted a line too many"),
        Defect("            if n >= start:\n                yield", "            if n > start:\n                yield",
               f"{OFF_BY_ONE}: the page starts a line after the offset asked"),
        Defect("length - cr\n            n, kept", "length\n            n, kept",
               f"{STEP_MISSED}: a line's \\r is counted in its length, and a cut line's count is one too many"),
    ),
    "narnat_agent/tools/files/diffs.py": (
        Defect("if len(line) <= DIFF_LINE_CHARS:", "if len(line) < DIFF_LINE_CHARS:",
               f"{OFF_BY_ONE}: a line of exactly the limit is cut"),
        Defect("    removed = sum(1 for line in lines if line.startswith(\"-\"))\n"
               "    added = sum(1 for line in lines if line.startswith(\"+\"))\n",
               "    removed = sum(1 for line in lines[:DIFF_LINES] if line.startswith(\"-\"))\n"
               "    added = sum(1 for line in lines[:DIFF_LINES] if line.startswith(\"+\"))\n",
               f"{WRONG_ORDER}: the lines are counted after the diff is cut, so a long change says too few"),
        # (the diff's hunks are written by Narnat now, without unified_diff's header: the slip of the same place)
        Defect("lo = max(0, head - n)", "lo = head",
               f"{FORMAT_EDGE}: the line of context before the first change is left out of the diff"),
    ),
    "narnat_agent/tools/read/images.py": (
        Defect("(pixels := image.size[0] * image.size[1])", "(pixels := size[0] * size[1])",
               f"{WRONG_MOMENT}: the pixels counted before the JPEG's draft, so a large photo is refused, not shown"),
        Defect("if max(size) <= MAX_SIDE and image.format in KEPT:", "if max(size) <= MAX_SIDE:",
               f"{STEP_MISSED}: a small BMP or TIFF is sent as it is, with no media type a model takes"),
        Defect('image.mode not in ("RGBA", "LA", "P")', 'image.mode != "RGBA"',
               f"{FORMAT_EDGE}: a palette or grey-and-alpha image is scaled to a JPEG that loses its transparency"),
    ),
    "narnat_agent/tools/files/textfile.py": (
        Defect("controls / len(codes) > 0.3", "controls / len(codes) >= 0.3",
               f"{OFF_BY_ONE}: text of exactly 30% control characters is taken for binary"),
        Defect("    if seen_as and (text := _exact(data, seen_as)) is not None:\n"
               "        return text, Encoding(seen_as, label=seen_as)\n"
               "    detected = _detected(data)\n",
               "    detected = _detected(data)\n",
               f"{STEP_MISSED}: the encoding the model has seen is not kept, so a new guess changes the file under it"),
        Defect("if crlf == 0:", "if crlf < 2:",
               f"{FORMAT_EDGE}: a file with a single CRLF line is taken for LF"),
    ),
    # tail-b
    "narnat_agent/tools/tool.py": (
        Defect('{"name": self.name, "description": self.description, "parameters": self.parameters}',
               '{"name": self.name, "parameters": self.parameters}',
               f"{STEP_MISSED}: the model is offered the tools without what each one does"),
        Defect('"description": self.description,', '"description": self.name,',
               f"{WRONG_SETTING}: each tool is described to the model by its name alone"),
    ),
    "narnat_agent/tools/base.py": (
        Defect("self.shown = text if shown is None else shown", "self.shown = shown or text",
               f"{INVERTED}: an error told to show nothing shows the model's whole text to the person"),
        Defect("summary=clean(self.summary)", "summary=self.summary",
               f"{STEP_MISSED}: a key in a result's one line reaches the screen unmasked"),
        Defect("if isinstance(path, str) and path.strip()", "if isinstance(path, str)",
               f"{FORMAT_EDGE}: a blank file_path is declared as a file the call changes"),
    ),
    "narnat_agent/tools/web/article.py": (
        Defect("if len(close) < ALIKE:", "if len(close) <= ALIKE:",
               f"{OFF_BY_ONE}: a section front of four teasers keeps only the best one"),
        Defect("if c is not best and c", "if c",
               f"{STEP_MISSED}: the best block counts itself as one of the teasers alike"),
        Defect('            if parent.tag == "body":\n                break\n', "",
               f"{STEP_MISSED}: teasers straight under the body make the whole page, menus included, the content"),
    ),
    "narnat_agent/state.py": (
        Defect("        ignore_runtime_files(own)\n", "",
               f"{STEP_MISSED}: a new .narnat/ gets no .gitignore, and `git add -A` commits the API key"),
        Defect('Path(env.get("XDG_STATE_HOME") or home / ".local" / "state")',
               'Path(env.get("XDG_STATE_HOME", home / ".local" / "state"))',
               f"{FORMAT_EDGE}: an empty XDG_STATE_HOME puts the per-user folder under the current folder"),
        Defect("hashlib.sha256(os.fsencode(project))", "hashlib.sha256(os.fsencode(project.name))",
               f"{WRONG_SETTING}: two projects of the same name share one per-user folder, and its sessions"),
    ),
    "narnat_agent/processes/__init__.py": (
        Defect("        if self.previous is not None:\n", "        if self.previous:\n",
               f"{FORMAT_EDGE}: a default Ctrl-C handler (SIG_DFL, 0) is never put back, and Ctrl-C stays held"),
        Defect("            self.caught = False\n            self.previous(signal.SIGINT, None)",
               "            self.previous(signal.SIGINT, None)\n            self.caught = False",
               f"{WRONG_ORDER}: a held Ctrl-C that raises stays caught, and the next release interrupts again"),
        Defect("        thread.start()\n    return thread", "    thread.start()\n    return thread",
               f"{WRONG_ORDER}: the helper thread starts after the signals are let through again, and takes them"),
    ),
    # context
    "narnat_agent/conversation/context.py": (
        Defect("self.prompt_messages = len(self.messages)", "self.prompt_messages = len(self.messages) + 1",
               f"{OFF_BY_ONE}: the reply itself is counted among the messages its request carried"),
        Defect("calls = [] if reply.cut_off else reply.tool_calls",
               "calls = [] if reply.cancelled else reply.tool_calls",
               f"{WRONG_SETTING}: the calls of a reply cut off by the length limit are kept, half-written"),
        Defect('answered = {m["tool_call_id"] for m in self.messages[i + 1 :] if m["role"] == "tool"}',
               'answered = {m["tool_call_id"] for m in self.messages if m["role"] == "tool"}',
               f"{WRONG_MOMENT}: a call whose id an earlier turn's call had is taken as answered, and none answers it"),
    ),
    "narnat_agent/prompts/system_prompt.py": (
        Defect('+ (HEADLESS + CONFIRMATION[yes] if headless else "")',
               '+ (HEADLESS if headless else "")\n        + CONFIRMATION[yes]',
               f"{WRONG_ORDER}: the REPL's prompt too says commands needing a confirmation will be refused"),
        Defect("if len(text) <= MAX_INSTRUCTIONS:", "if len(text) < MAX_INSTRUCTIONS:",
               f"{OFF_BY_ONE}: an instruction file of exactly the limit is said to be cut"),
        Defect('git = any(_found(d / ".git") for d in (project, *project.parents))', 'git = _found(project / ".git")',
               f"{STEP_MISSED}: a project in a subfolder of a repository is said to be no git repository"),
    ),
    # commands
    "narnat_agent/commands/dispatch.py": (
        Defect("name not in REGISTRY or not REGISTRY[name].at_once:", "name not in REGISTRY:",
               f"{STEP_MISSED}: every command sent while the agent works runs at once, /save and /clear mid-turn"),
        Defect("if name not in REGISTRY and name in user:", "if name in user:",
               f"{WRONG_ORDER}: a command file named like a built-in wins over it"),
        Defect("name, user = name.lower(), user or {}", "user = user or {}",
               f"{FORMAT_EDGE}: /HELP and /Exit are unknown commands"),
        Defect("if (more := len(user or {}) - LISTED) > 0:", "if (more := len(user or {}) - LISTED) >= 0:",
               f"{OFF_BY_ONE}: with exactly twenty commands of one's own, /help says '… 0 more commands'"),
    ),
    # leaving the key variables in the process's environment was planted too and changes nothing a command sees:
    # Bash builds each command's environment without them (tests/acp/test_session.py holds that for an editor's run)
    "narnat_agent/acp/__init__.py": (
        Defect("    os.dup2(2, 1)\n", "",
               f"{STEP_MISSED}: whatever else writes to stdout lands among the protocol's lines and breaks them"),
        Defect("stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode)", "stat.S_ISFIFO(mode)",
               f"{FORMAT_EDGE}: an editor that talks over a socket is refused as a file"),
    ),
    "narnat_agent/commands/__init__.py": (
        Defect('REGISTRY[usage.split()[0].removeprefix("/")]', "REGISTRY[usage.split()[0]]",
               f"{FORMAT_EDGE}: commands are registered under '/save', which no typed name matches"),
        Defect("return _(self.usage), _(self.line)", "return self.usage, _(self.line)",
               f"{STEP_MISSED}: /help shows each command's usage in English whatever the interface's language"),
        Defect("SlashCommand(function, usage, line, at_once)", "SlashCommand(function, usage, line)",
               f"{STEP_MISSED}: /help and /jobs sent while the agent works wait for the turn's end"),
    ),
    "narnat_agent/commands/rewind.py": (
        Defect("max(int(step or 1) - 1, 0)", "int(step or 0)",
               f"{OFF_BY_ONE}: /rewind 1.2 goes back to before step 3, keeping the step the person named"),
        Defect("    changed = {f.path for t in checkpoints.turns() if t.index >= turn.index for f in t.files}\n"
               "    restored = checkpoints.rewind(turn.index, plan, overwrite, "
               "_cutter(agent) if conversation else None)\n",
               "    restored = checkpoints.rewind(turn.index, plan, overwrite, "
               "_cutter(agent) if conversation else None)\n"
               "    changed = {f.path for t in checkpoints.turns() if t.index >= turn.index for f in t.files}\n",
               f"{WRONG_ORDER}: the files the rewound turns changed are listed after the rewind took those turns away, "
               "and what the model read of them still counts"),
        Defect("if kept := [] if overwrite else plan.conflicts:", "if kept := plan.conflicts:",
               f"{WRONG_SETTING}: files the person agreed to overwrite are said to be kept as they were changed"),
        Defect('change.path.rsplit("/", 1)[-1] in LOCKFILES', "change.path in LOCKFILES",
               f"{FORMAT_EDGE}: a lockfile in a subfolder (web/package-lock.json) buries a whole turn's /diff"),
    ),
    "narnat_agent/commands/sessions.py": (
        Defect('text[: width - 1] + "…"', 'text[:width] + "…"',
               f"{OFF_BY_ONE}: /enter's recap of a long question is a character wider than its line"),
        Defect("exists = store.exists(agent.config.state_dir, name) and name != agent.conversation.name",
               "exists = store.exists(agent.config.state_dir, name)",
               f"{STEP_MISSED}: /save under the conversation's own name asks whether to overwrite itself"),
        Defect("    saved = agent.save()\n    agent.switch(entered)\n",
               "    agent.switch(entered)\n    saved = agent.save()\n",
               f"{WRONG_ORDER}: /enter saves the entered conversation, and the one left is lost"),
    ),
    "narnat_agent/commands/conversation.py": (
        Defect("left = approx + tokens(window.sent), tokens(window.size), approx + tokens(window.left)",
               "left = approx + tokens(window.sent), tokens(window.size), approx + tokens(window.size - window.sent)",
               f"{WRONG_MOMENT}: what is left is counted from the last request, not with what was added since"),
        Defect("key=lambda p: -window.parts[p]", "key=lambda p: window.parts[p]",
               f"{INVERTED}: /context lists the smallest tool results first"),
        Defect("listed if current in names else", "listed if True else",
               f"{STEP_MISSED}: a model the server does not list is not shown as the one answering"),
    ),
    "narnat_agent/commands/modes.py": (
        Defect("if agent.planning and not arg:", "if agent.planning:",
               f"{INVERTED}: /plan with a question while planning leaves plan mode and drops the question"),
        Defect("agent.plan_mode(False, approved=True)", "agent.plan_mode(False)",
               f"{STEP_MISSED}: /go leaves plan mode without telling the model the plan is approved"),
        Defect("Goal(text, until, agent.config.max_turns)", "Goal(text, until, agent.config.max_steps)",
               f"{WRONG_SETTING}: /goal runs up to max_steps turns (200) instead of max_turns"),
    ),
    # syntax
    "narnat_agent/tools/files/documents.py": (
        Defect("for n, page in enumerate(pages, 1))", "for n, page in enumerate(pages))",
               f"{OFF_BY_ONE}: a PDF's pages are numbered from 0, and the last is `page 2 of 3`"),
        Defect('text = without_escapes("\\n".join(', 'text = ("\\n".join(',
               f"{STEP_MISSED}: a cell's traceback reaches the model with its colour codes"),
        Defect('locked = reader.is_encrypted and not reader.decrypt("")', "locked = reader.is_encrypted",
               f"{INVERTED}: a PDF locked only against editing (no password to open it) is refused as encrypted"),
    ),
    "narnat_agent/checkpoints/entries.py": (
        Defect("    if not isinstance(value, kinds) or isinstance(value, bool):",
               "    if not isinstance(value, kinds):",
               f"{FORMAT_EDGE}: a session file's `true` is read as turn 1"),
        Defect('kept = e.get("taken", {"messages": e.get("messages"), "turns": e.get("turns")})',
               'kept = e.get("taken")',
               f"{STEP_MISSED}: a rewind saved before `taken` existed loses what it took, and /redo has nothing"),
        Defect("        found += [u for u in parts if u not in found]", "        found += parts",
               f"{STEP_MISSED}: a file two calls could not keep is named twice in a rewind's warning"),
    ),
    # winsafe
    "narnat_agent/safety/windows_losses.py": (
        Defect('if bound.on("whatif") or bound.on("append") or command.name == "new-item"',
               'if bound.on("whatif") or command.name == "new-item"',
               f"{STEP_MISSED}: Out-File -Append and Add-Content's kin are asked as replacing the file they add to"),
        Defect("target = ntpath.join(into, ntpath.basename(source)) if", "target = into if",
               f"{STEP_MISSED}: a copy into a folder looks for the folder as the file: src\\a.txt replaced unasked"),
        Defect("""    if shown.lower().startswith(("$profile", "'$profile", '"$profile')):
        return [replaces(command.shown[0], shown)]
    if file is None or file in command.absent or not existing(file, check.cwd):
        return []
""", """    if file is None or file in command.absent or not existing(file, check.cwd):
        return []
    if shown.lower().startswith(("$profile", "'$profile", '"$profile')):
        return [replaces(command.shown[0], shown)]
""", f"{WRONG_ORDER}: the profile is looked for on disk first, and Set-Content $PROFILE replaces it unasked"),
    ),
    "narnat_agent/safety/windows_syntax.py": (
        Defect('{s.lower() for a in command.argv[1:] if a and a[:1] == "/" for s in re.findall(r"/[^/]*", a)}',
               '{a.lower() for a in command.argv[1:] if a and a[:1] == "/"}',
               f"{FORMAT_EDGE}: cmd's switches written together (rd /s/q) are one word: rd /s/q is not recursive",
               later=True),
        Defect('str(there).lower().startswith(str(here).lower().rstrip("\\\\") + "\\\\")',
               "str(there).lower().startswith(str(here).lower())",
               f"{FORMAT_EDGE}: a folder beside the project, its name starting alike (C:\\p-old), taken for inside"),
        Defect("""                while at < len(positional) and positional[at] in bound.values:
                    at += 1
""", "", f"{STEP_MISSED}: a word after a named parameter fills it again, not the next (Copy-Item -Path a b)"),
    ),
    # core
    "narnat_agent/core/agent.py": (
        Defect("turns >= self.config.compress_turns", "turns > self.config.compress_turns",
               f"{OFF_BY_ONE}: a conversation is compressed a turn after compress_turns, not as it reaches it"),
        Defect("told = not on and self.told_planning", "told = not on",
               f"{INVERTED}: leaving plan mode before any question tells the model a plan it never made is over"),
        Defect("repeated = bool(recent) and recent[-1] == (made, result.text)",
               "repeated = bool(recent) and recent[-1][0] == made",
               f"{WRONG_SETTING}: a call made again whose result changed is warned about as a repeat"),
        Defect("self.untried, self.model_from = None, since", "self.untried = None",
               f"{STEP_MISSED}: a refused switch undone still says the old model answers from the switch's turn"),
    ),
    "narnat_agent/tools/registry.py": (
        Defect('(kind != "boolean" and isinstance(value, bool))', "False",
               f"{FORMAT_EDGE}: true is taken for the integer 1 (a limit of one line)"),
        Defect('if "default" in spec and k not in checked}', 'if "default" in spec and k not in args}',
               f"{WRONG_SETTING}: a parameter sent as null gets no default, and the tool meets None"),
        Defect('if args.get(k) is None]', "if k not in args]",
               f"{FORMAT_EDGE}: a required parameter sent as null passes the check, and the tool meets None"),
    ),
    "narnat_agent/acp/server.py": (
        Defect("version = min(protocol_version, PROTOCOL_VERSION)", "version = protocol_version",
               f"{FORMAT_EDGE}: a newer client is answered in its version, which Narnat does not speak"),
        Defect("        try:\n"
               "            stop = await asyncio.wrap_future(self.turns.submit(lambda: self._answer(opened, text)))\n"
               "        except KeyboardInterrupt:  # a signal ending the run, landed outside the turn's own handling\n"
               '            stop = "cancelled"  # raised here, it would end this loop, the prompt unanswered\n'
               "        finally:\n"
               "            self.busy = None\n",
               "        stop = await asyncio.wrap_future(self.turns.submit(lambda: self._answer(opened, text)))\n"
               "        self.busy = None\n",
               f"{STEP_MISSED}: a prompt a signal stopped outside its turn is never answered (the connection's loop "
               "ends), and after any prompt that failed, a later one would be refused as a turn already running"),
        Defect("if opened is not None and opened is self.busy:", "if opened is not None:",
               f"{INVERTED}: a cancel for an idle session stops the turn another session runs"),
        Defect('.split(" ", 1)[0].lower()', '.split(" ", 1)[0]',
               f"{FORMAT_EDGE}: /EXIT typed in capitals is not refused, and reaches the command itself"),
    ),
    # vocab
    "narnat_agent/safety/windows_system.py": (
        Defect('a.lower().startswith("/w:")', 'a.startswith("/w:")',
               f"{FORMAT_EDGE}: cipher /W:C: in upper case wipes the drive's deleted files without a question"),
        Defect('scope = "Machine" if any((a or "").lower() == "/m" for a in command.argv) else "User"',
               'scope = "Machine" if "/m" in command.argv else "User"',
               f"{WRONG_SETTING}: setx NAME value /M is said to change the user's variable, not the machine's"),
        Defect('if bound.on("whatif") or command.name in SESSION_ONLY:', "if command.name in SESSION_ONLY:",
               f"{STEP_MISSED}: Remove-Service -WhatIf, which only says what it would do, asks"),
    ),
    "narnat_agent/safety/windows_refusals.py": (
        Defect("if len(files) > (0 if given else 1)", "if len(files) > 1",
               f"{OFF_BY_ONE}: findstr /c:\"TODO\" app.py searches a file unrefused: /c: is taken for a file"),
        Defect('if name in ASKS and not (name == "choice" and "/t" in args)', "if name in ASKS",
               f"{INVERTED}: choice /t 5 /d y, which answers itself after five seconds, is refused as waiting"),
        Defect("at = 1 if words and words[0][1].startswith('\"') else 0",
               "at = 1 if words and words[0][0].startswith('\"') else 0",
               f"{WRONG_SETTING}: start \"\" rd /s /q build: the title, unquoted, is taken for the program"),
    ),
    # run
    "narnat_agent/run/headless.py": (
        Defect("if turn.index >= first]", "if turn.index > first]",
               f"{OFF_BY_ONE}: the files a run's first turn changed are left out of its changed_files"),
        Defect("bool(args.latest or args.resume)", "bool(args.latest)",
               f"{WRONG_SETTING}: a session resumed by name and not saved again exits with the turn's code, not 1"),
        Defect("        stop_jobs(agent)  # before the report: stream-json's last line is the result\n" + REPORT,
               REPORT + "    stop_jobs(agent)\n",
               f"{WRONG_ORDER}: background commands are stopped after the report, and the result is not the last line"),
    ),
    "narnat_agent/run/start.py": (
        Defect("if len(jobs) > SHOWN_JOBS:", "if len(jobs) >= SHOWN_JOBS:",
               f"{OFF_BY_ONE}: three background commands stopped are said as three, 'and 0 more'"),
        Defect("if server and server.context and not config.context_window_set:", "if server and server.context:",
               f"{WRONG_SETTING}: a local server's context replaces the context_window the settings name"),
        Defect(' if not store.is_archive(row["name"])]', "]",
               f"{STEP_MISSED}: -c takes up a compacted conversation's archive when it is the latest saved"),
    ),
    "narnat_agent/run/repl.py": (
        Defect("if saved or last_chance or agent.leaving:", "if saved or agent.leaving:",
               f"{STEP_MISSED}: a second failed autosave says again that leaving once more quits without it"),
        Defect('paragraph = answer.strip().split("\\n\\n", 1)[0]', 'paragraph = answer.split("\\n\\n", 1)[0]',
               f"{FORMAT_EDGE}: an answer that starts with a blank line is recalled as nothing"),
        Defect("turns = max(agent.checkpoints.turn_count(), agent.conversation.turns)",
               "turns = agent.conversation.turns",
               f"{WRONG_SETTING}: a resumed conversation's turns are counted from its last compression"),
        Defect('if text is not None and text.strip().startswith("/"):', 'if text is not None and text.startswith("/"):',
               f"{FORMAT_EDGE}: a command typed after a space is sent to the model as a question"),
    ),
    "narnat_agent/cli.py": (
        Defect("if args.fork and not (args.latest or args.resume):", "if args.fork and not args.resume:",
               f"{WRONG_SETTING}: -c --fork is refused as if it named no saved conversation"),
        Defect("max_steps=args.max_steps or config.max_steps", "max_steps=config.max_steps or args.max_steps",
               f"{WRONG_ORDER}: the settings' max_steps wins over --max-steps"),
        Defect('(b"\\xfe\\xff", "utf-16"), ', "",
               f"{FORMAT_EDGE}: a big-endian UTF-16 prompt on stdin is read as UTF-8 and sent as escapes"),
        Defect('if not 0 < value < float("inf"):', 'if not 0 <= value < float("inf"):',
               f"{OFF_BY_ONE}: --max-cost 0 is taken, and every turn stops before its first request"),
    ),
    # pswin
    "narnat_agent/safety/powershell_lex.py": (
        Defect('OPERATORS = ("&&", "||", "|", "&", ",",', 'OPERATORS = ("|", "&", "&&", "||", ",",',
               f"{WRONG_ORDER}: `a && b` is read as a background `a` and a second `&`, before the longer operators"),
        Defect("                if rest[i + 1 : i + 2] == rest[i]:  # a doubled quote stands for one\n"
               "                    i += 2\n                    continue\n", "",
               f"{FORMAT_EDGE}: 'it''s' ends at its doubled quote, and the rest of the string is read as words"),
        Defect('end = re.search(rf"\\n{quote}@", rest)', 'end = re.search(rf"{quote}@", rest)',
               f"{FORMAT_EDGE}: a here-string ends at a quote and @ inside a line, not at the start of one"),
    ),
    "narnat_agent/safety/powershell.py": (
        Defect("        self.absent = None\n\n    def _absent(", "\n    def _absent(",
               f"{STEP_MISSED}: a path an `if` found missing stays missing for the statements after the `if`"),
        Defect('self.variables[name] = self._literals(tokens[2:]) if tokens[1].text == "=" else None',
               "self.variables[name] = self._literals(tokens[2:])",
               f"{WRONG_SETTING}: `$d += 'x'` is taken to set $d to 'x' alone"),
        Defect("if name in CONSTANTS or not known or len(known) != 1:", "if name in CONSTANTS or not known:",
               f"{FORMAT_EDGE}: a variable holding a list, inside a string, is taken as its first value alone"),
    ),
    "narnat_agent/safety/cmd.py": (
        Defect('missing = words[at] == "exist" and "not" in words[:at] and at + 1 < len(words)',
               'missing = words[at] == "exist" and at + 1 < len(words)',
               f"{INVERTED}: `if exist x copy y x` is taken to copy onto a missing x: it overwrites unasked"),
        Defect('if text[:2].lower() in ("/a", "/p"):', 'if text[:2].lower() == "/a":',
               f"{STEP_MISSED}: `set /p NAME=` (typed at run time) is taken to set a literal value"),
        Defect('upstream = found if token.text == "|" else None', "upstream = found",
               f"{WRONG_SETTING}: `a & b` is taken as a pipeline, a feeding b its output"),
    ),
}  # fmt: skip
# winref: the Windows refusals' defects written with their mutation round, beside those written with the target
PLANTED["narnat_agent/safety/windows_refusals.py"] += (
    Defect("after is not None and (after.name not in FILTERS or _plumbing(after))",
           "after is not None and after.name not in FILTERS",
           f"{STEP_MISSED}: Get-Content package.json | Select-Object -First 5 | ConvertFrom-Json is refused as a read: "
           "the filter's own output feeding a program is not followed"),
    Defect('args[args.index("/t") + 1 : args.index("/t") + 2] == ["-1"]',
           'args[args.index("/t") : args.index("/t") + 1] == ["-1"]',
           f"{OFF_BY_ONE}: timeout /t -1, which waits for a key, runs: the word compared is /t itself"),
    Defect('waits = waits or switch == "/wait"', 'waits = switch == "/wait"',
           f"{WRONG_ORDER}: start /wait /min notepad x.txt is not refused: the switch after /wait forgets it"),
)  # fmt: skip
PLANTED["narnat_agent/safety/windows_system.py"] += (
    Defect("args.index(option) + 1 < len(shown)", "args.index(option) < len(shown)",
           f"{OFF_BY_ONE}: schtasks /delete /f /tn, its task's name missing, breaks the analysis"),
    Defect("drive = letter[0][1].strip(\"'\\\"\").rstrip", "drive = letter[0][1].rstrip",
           f"{FORMAT_EDGE}: Format-Volume -DriveLetter 'E' is said to erase the drive 'E':, quotes and all"),
    Defect("or command.stdin is not None or fed(command):", "or command.stdin is not None:",
           f"{STEP_MISSED}: diskpart < wipe.txt is said to run the disk commands in …, not those it is given"),
)  # fmt: skip
TESTS |= FIRST_TESTS
PLANTED |= FIRST  # the modules of the first mutation rows, planted once their tests were written

# acpserver: more of the acp modules' defects, added to those their first rows planted
ACPSERVER: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/acp/server.py": (
        Defect("        if self.cancellable:\n            self.cancel()\n        self.jobs.put(None)",
               "        self.jobs.put(None)",
               f"{STEP_MISSED}: an editor that hangs up mid-command leaves the command running to its end"),
        Defect("if opened is self.busy and opened is not None:", "if opened is self.busy:",
               f"{INVERTED}: a saved session loaded while no turn runs is refused as answering a prompt"),
        Defect("            save(opened.agent, ui, quiet=True)\n            ui.end()",
               "            save(opened.agent, ui)\n            ui.end()",
               f"{WRONG_SETTING}: every reply ends with 'Saved this conversation as …', as /exit says it"),
    ),
    "narnat_agent/acp/sessions.py": (
        Defect("state.choose_folder(project, settings.home, os.environ)",
               "state.choose_folder(project, Path.home(), os.environ)",
               f"{WRONG_SETTING}: a project whose .narnat cannot be written keeps its state under the process's home, "
               "not the run's"),
        Defect("    settings.secrets.add(config.api_key)\n", "",
               f"{STEP_MISSED}: the key a session's settings name is not masked on the wire"),
        Defect("if not project.is_absolute() or not project.is_dir():",
               "if not project.is_absolute() and not project.is_dir():",
               f"{INVERTED}: a relative working folder is taken from wherever narnat acp was started"),
    ),
}  # fmt: skip
for module, defects in ACPSERVER.items():
    PLANTED[module] = PLANTED.get(module, ()) + defects

# defects written for a group of modules by someone who had not read their tests (all `later`), added to theirs
BLIND: tuple[dict[str, tuple[Defect, ...]], ...] = (
    BLIND_UI,  # the UIs, the keys, the renderers, the runs and the command line
    BLIND_BASHWEB,  # keyguard, Bash, jobs, the checkpoints' journal and watcher, the web tools, the workspace
    BLIND_FILES,  # the file tools and their helpers, verification, TodoWrite, the tool contract
    BLIND_PROVIDER,  # the provider, the conversation and the core
    BLIND_REST,  # the commands, the editor protocol, the prompts, the settings, the platform seams, i18n, the log
    BLIND_SAFETY,  # package scripts, the vocabulary, plan mode's reader, archives, PowerShell, cmd, the Windows rules
    BLIND2_SAFETY,  # the command analysis, a second time
    BLIND2_STORE,  # the checkpoints, the compression and Edit's matching, by a second writer
    BLIND2_WEAK,  # a second writer's: the platform seams, acp's server, goals, Read, the client, sessions, Edit, rg
    BLIND3_BASHWEB,  # a third writer's: keyguard, Bash, jobs, the checkpoints' journal and watcher, the web tools
    BLIND3_PROVIDER,  # a third writer's: the provider, the conversation and the core
    BLIND3_UI,  # a third writer's: the UIs, the keys, the renderers, the runs and the command line
    BLIND3_WINSAFETY,  # a third writer's: package scripts to the Windows rules
    BLIND3_REST,  # a third writer's: the commands, the editor protocol, the prompt, the settings, i18n, the log
    BLIND3_FILES,  # the file tools and their helpers, verification, TodoWrite, the tool contract, by a third writer
    BLIND3_PLATFORM,  # a third writer's: the platform seams, acp's server, a run's signals, the background jobs
    BLIND4_PROVIDER,  # a fourth writer's: the provider, the conversation and the core
    BLIND4_FILES,  # a fourth writer's: the file tools and their helpers, verification, TodoWrite, the tool contract
    BLIND4_CHECKPOINTS,  # a fourth writer's: the checkpoints, the compression and Edit's matching
    BLIND4_PLATFORM,  # a fourth writer's: the platform seams, a run's signals, the jobs, the store's lock, acp's entry
    BLIND4_BASHWEB,  # a fourth writer's: keyguard, Bash, the web tools, the workspace, state, i18n, the log
    BLIND4_SAFETY,  # a fourth writer's: the command analysis
    BLIND5_COMMANDS,  # a fifth writer's: the commands, the runs and the command line
    BLIND5_WINSAFETY,  # a fifth writer's: package scripts, PowerShell, cmd and the Windows rules
    BLIND5_ACP,  # a fifth writer's: the editor protocol, the settings, the prompts
    BLIND5_CORE,  # a fifth writer's: the client, sessions, rg, Read, Edit, goals, documents, the tool contract
    BLIND5_SAFETY,  # a fifth writer's: the vocabulary to pyproject's tasks, and the Windows API calls
    BLIND5_UI,  # a fifth writer's: the keys, the UIs, the renderers, the JSON events, the cells, -p's text
    BLIND6_PLATFORM,  # a sixth writer's: the platform seams, the background jobs, a run's signals
    BLIND6_ACP,  # a sixth writer's: the editor protocol, the settings, their loader, the skills
    BLIND6_TOOLS,  # a sixth writer's: Read, Edit and its matching, rg, Grep, Glob, Write, the documents
    BLIND6_CORE,  # a sixth writer's: the core, the client, the transport, the session store, the compression
    BLIND6_CHECKPOINTS,  # a sixth writer's: the checkpoints, the rewind commands, the workspace, Bash and WebFetch
    BLIND6_SAFEREST,  # a sixth writer's: the deleters, the rules, the vocabulary to git's rules
)
for blind in BLIND:
    for module, defects in blind.items():
        PLANTED[module] = PLANTED.get(module, ()) + defects

TIMEOUT = 900  # seconds for one module's tests against one defect: a hang is caught, as in the suite


# modules imported on Windows alone: their tests run under Wine (.ci/windows/test), the only place they can fail
WINE_TESTS: dict[str, tuple[str, ...]] = {
    "narnat_agent/platform/win32.py": ("tests/platform/test_console.py", "tests/platform/test_processes.py"),
}


def tests_of(module: str) -> tuple[str, ...]:
    return WINE_TESTS.get(module) or TESTS.get(module) or TARGETS[module].tests


PARTS = ("narnat_agent", "tests", "README.md", "pyproject.toml")  # the code, the tests and their configuration


def copy_repository(scratch: Path, revision: str | None) -> None:
    """The code, the tests and the test configuration as they are now, or as they were at a git revision."""
    shutil.copytree(ROOT / ".ci", scratch / ".ci")  # today's Windows step, for the modules of WINE_TESTS
    if revision is not None:
        archive = subprocess.run(["git", "archive", revision, *PARTS], cwd=ROOT, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(scratch)], input=archive.stdout, check=True)
        return
    for part in PARTS[:2]:
        shutil.copytree(ROOT / part, scratch / part, ignore=shutil.ignore_patterns("__pycache__"))
    for name in PARTS[2:]:
        shutil.copy(ROOT / name, scratch)


def run_tests(scratch: Path, tests: tuple[str, ...], wine: bool = False) -> int:
    """pytest's exit code for the module's tests in the copy; Narnat processes the tests start import it too. A test
    file an earlier revision does not have yet is left out. Under Wine, the Windows step's exit code (3: Wine could
    not be prepared); it installs the copy into the prefix, and drives Wine's console with this Python."""
    there = [test for test in tests if not test.startswith("tests/") or (scratch / test.split("::")[0]).exists()]
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *there]
    environment = os.environ | {"PYTHONPATH": str(scratch)}
    if wine:
        command = [str(scratch / ".ci" / "windows" / "test"), "-x", *there]
        environment = os.environ | {"NARNAT_WINE_HOST_PYTHON": sys.executable}
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
    tests, wine = tests_of(module), module in WINE_TESTS
    code = run_tests(scratch, tests, wine)
    if wine and code == 3:
        sys.exit(f"{module}: its tests run under Wine, which could not be prepared here (.ci/windows/README.md).")
    if code != 0:
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
            code = run_tests(scratch, tests, wine)
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
