"""Mutation testing: mutmut breaks one module a mutant at a time, and only the tests that cover it run against each.

Run: python bench/mutation.py [--scratch DIR] [--children N] [MODULE ...]
     (default: every target below; MODULE as written in TARGETS)

Each module runs in a scratch copy of the repository (the working tree is never touched), one mutant at a time
(the machine is shared). A mutant is killed when a test fails or hangs (one mutmut timed out is tested again alone,
without mutmut's limit, so a loaded machine's slowness is not counted as a kill); one that survives is a defect the
suite would not notice, unless it is listed in EQUIVALENT with the reason it cannot change behaviour. With --scratch the
copy is kept in DIR: run again, the code and tests are copied afresh and only the mutants not yet killed (and those
of changed code) are tested again — how a package of thousands of mutants is worked through.
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from difflib import unified_diff
from fnmatch import fnmatch
from functools import cache
from pathlib import Path

import libcst as cst
from common import ROOT, table
from mutation_acp import ACP_EQUIVALENT
from mutation_acpserver import ACPSERVER_EQUIVALENT
from mutation_bash import BASH_EQUIVALENT
from mutation_commands import COMMANDS_EQUIVALENT
from mutation_context import CONTEXT_EQUIVALENT
from mutation_core import CORE_EQUIVALENT
from mutation_platform import PLATFORM_EQUIVALENT
from mutation_provider import (
    BODY_TESTS,
    CLIENT_TESTS,
    COUNTS_TESTS,
    ENDPOINT_TESTS,
    ERRORS_TESTS,
    FIT_TESTS,
    GOAL_TESTS,
    HEADLESS_TESTS,
    PROVIDER_EQUIVALENT,
    TRANSPORT_TESTS,
    TURN_TESTS,
)
from mutation_pswin import PSWIN_EQUIVALENT
from mutation_read import READ_EQUIVALENT
from mutation_run import RUN_EQUIVALENT
from mutation_safety import SAFETY_EQUIVALENT
from mutation_safetyrest import SAFETYREST_EQUIVALENT
from mutation_store_edit import CHECKPOINT_AND_EDIT_EQUIVALENT
from mutation_syntax import SYNTAX_CHECK_EQUIVALENT, SYNTAX_EQUIVALENT
from mutation_tail_a import TAIL_A_EQUIVALENT
from mutation_tailb import TAILB_EQUIVALENT
from mutation_tailc import TAILC_EQUIVALENT
from mutation_ui import UI_EQUIVALENT
from mutation_vocab import VOCAB_EQUIVALENT, WINDOWS_TESTS
from mutation_web import WEB_EQUIVALENT
from mutation_winref import WINREF_EQUIVALENT
from mutation_winsafe import WINSAFE_EQUIVALENT
from mutmut.mutation.diff_apply import read_mutant_function, read_original_function
from mutmut.stats import status_by_exit_code


@dataclass(frozen=True)
class Target:
    tests: tuple[str, ...]  # the tests that cover the module (pytest's arguments)
    functions: tuple[str, ...] = ()  # only these (Class.method for a method); the whole module when empty
    # functions that run only while the module is imported, to build its tables: mutmut's workers inherit the tables
    # built by the original code and credit the calls to the first test alone, so these mutants run in a new process
    at_import: tuple[str, ...] = ()
    fresh: bool = False  # each mutant in a new import (for a module whose functions all run at import): slower

    def patterns(self, functions: tuple[str, ...] | None = None) -> list[str]:
        """mutmut's names for the functions' mutants: pkg.mod.x_function__mutmut_3, pkg.mod.xǁClassǁmethod__mutmut_3."""
        chosen = self.functions if functions is None else functions
        return [f"*.x{'ǁ' if '.' in f else '_'}{f.replace('.', 'ǁ')}__mutmut_*" for f in chosen]


# The analysis alone, no process runs: the recorded verdict of every corpus command (which holds what the tests
# parametrized over the corpora assert, at a quarter of their time: those are left out), each rule's own cases, and
# the tests on files in tmp_path.
SAFETY_TESTS = (
    "tests/safety/test_bash_wording.py",
    "tests/safety/test_bash_analysis.py",
    "tests/safety/test_bash_analysis_files.py",
    "tests/safety/test_bash_walk.py",
    "tests/safety/test_bash_hidden_code.py",
    "tests/safety/test_bash_waiting.py",
    "tests/safety/test_bash_rules.py",
    "tests/safety/test_bash_irreversible.py",
    "tests/safety/test_bash_runners.py",
    "tests/safety/test_bash_refusal_forms.py",
    "tests/safety/test_bash_interpreter_code.py",
    "tests/safety/test_bash_wrapper_forms.py",
    "tests/safety/test_bash_code_scan.py",
    "tests/safety/test_bash_syntax_forms.py",
    "-k",
    "not (commands_ask or just_run or are_refused or name_the_tool or look_alikes_run)",
)
SAFETY_AT_IMPORT = ("_f", "_family", "_c", "_w", "names")  # they build the tables of families, SQL clients, wrappers
CHECKPOINT_TESTS = (
    "tests/checkpoints/test_checkpoints.py",
    "tests/checkpoints/test_checkpoint_stores.py",
    "tests/checkpoints/test_entries.py",
    "tests/checkpoints/test_checkpoint_git.py",
    "tests/checkpoints/test_restore_bounds.py",
    "tests/commands/test_rewind.py",
)
# one row each: a run per file fits
CHECKPOINT_FILES = ("store", "turns", "plans", "timeline", "git_store", "git", "lock")
EDIT_TESTS = (
    "tests/tools/test_edit_matcher.py",
    "tests/tools/test_edit.py",
    "tests/tools/test_edit_properties.py",
    "tests/tools/test_edit_reindent.py",
)
SESSION_TESTS = (
    "tests/conversation/test_store.py",
    "tests/commands/test_session.py",
    "tests/commands/test_session_runs.py",
    "tests/commands/test_fork.py",
)
# the Bash tool in process, its fast tests: real commands in a temporary project
BASH_TESTS = (
    "tests/tools/test_bash.py",
    "tests/tools/test_shells.py",
    "tests/tools/test_background.py",
    "-m",
    "not slow",
)
# how a command runs, the slow tests of a timeout, a Ctrl-C and a child holding the output among them; less the
# tests that start Narnat (mutmut does not see into them) and the background ones that wait seconds for a job
EXECUTE_TESTS = (
    "tests/tools/test_bash.py",
    "tests/tools/test_bash_cut.py",
    "tests/tools/test_shells.py",
    "tests/tools/test_bash_environment.py",
    "tests/tools/test_background.py",
    "-k",
    "not (narnat_stops_its_background or the_rest_of_an_ended or commands_do_not_see_narnats or "
    "the_projects_own_virtualenv_stays or gives_its_new_output_and_how or read_to_its_end_is_a_verification)",
)
# the syntax check's parsing, in process: the check's own cases, each language's parser, where JavaScript stops
SYNTAX_TESTS = (
    "tests/tools/test_syntax_check.py",
    "tests/tools/test_syntax_parsers.py",
    "tests/tools/test_syntax_stopping.py",
)
# PowerShell's and cmd's forms one at a time: the tokens, and each command's words, text, redirections, pipeline and
# what it reads, asserted whole; no process runs. The corpora read the same text again through every rule, at
# several times the cost of a mutant on a shared machine: they run against the planted defects (bench/planted.py)
FORMS_TESTS = ("tests/safety/test_windows_forms.py",)
WIRE = ("_problem", "Lines.__init__", "Lines.send", "Lines.receive", "Lines._skip", "Lines._refuse", "Lines.close")
WEB = ("-k", "not main_content_is_close and not code_links and not result_starts and not machine_without_a_network")
# core: the agent's functions besides the turn's own (Agent.turn, _steps, _call, _check_ending: measured before)
AGENT_REST = ("_repeats", "Agent.__init__", "Agent.switch", "Agent.window", "Agent.show_status", "Agent.use_model")
AGENT_REST += ("Agent._refused_model", "Agent.plan_mode", "Agent.offer_undo", "Agent.ask", "Agent._full")
AGENT_REST += ("Agent.compress", "Agent.save", "Agent._warn", "Agent._deliver", "Agent._reply")
AGENT_REST += ("Agent._unless_repeated", "Agent._check")
REGISTRY_REST = ("_from_string", "_coerce", "_validate", "schemas", "_planned", "_said_safe", "_guarded", "run_named")
REGISTRY_REST += ("execute",)  # besides _safe, _safe_result, prepare and Call.run, measured before
KEYS_ALL = (
    "PathCompleter.__init__",
    "PathCompleter._files",
    "PathCompleter.get_completions",
    "CommandCompleter.__init__",
    "CommandCompleter.get_completions",
    "MergedCompleter.__init__",
    "MergedCompleter.get_completions",
    "_blank",
    "bindings",
    "prompt_session",
    "KeptHistory.__init__",
    "KeptHistory.load_history_strings",
    "KeptHistory.store_string",
    "input_history",
    "yes_no",
    "_one_key",
    "terminal_keyboard",
    "Watcher.__init__",
    "Watcher.hold",
    "Watcher.start",
    "Watcher.stop",
    "Watcher.working",
    "Watcher.take_typed",
    "Watcher._watch",
    "Watcher.handle",
    "Watcher._queue",
    "Watcher._escape_cancels",
    "Watcher._cancel",
)
TARGETS: dict[str, Target] = {  # a module: a file, or a package ending in /
    "narnat_agent/keyguard.py": Target(  # the probe of the process's closure runs another Python, not mutmut's
        ("tests/tools/test_registry.py", "tests/base/test_keyguard.py", "-k", "not closed_to_the_users_other"),
        # seal_process is tested in a forked process (sealing the test run itself would change it for every test
        # after), where mutmut does not see which test calls it
        (
            "can_be_key",
            "redact",
            "StreamMask.__init__",
            "StreamMask.feed",
            "StreamMask.rest",
            "forget_key_variables",
            "can_confine",
            "confined",
        ),
    ),
    "narnat_agent/tools/registry.py": Target(
        ("tests/tools/test_registry.py",), ("_safe", "_safe_result", "prepare", "Call.run")
    ),
    "narnat_agent/tools/edit/matcher.py": Target(EDIT_TESTS),
    "narnat_agent/tools/edit/reindent.py": Target(EDIT_TESTS),
    "narnat_agent/tools/edit/typography.py": Target(EDIT_TESTS),
    "narnat_agent/conversation/compressor.py": Target(
        ("tests/conversation/test_compressor.py", "tests/commands/test_conversation.py")
    ),
    "narnat_agent/core/agent.py": Target(
        ("tests/core", "tests/commands"), ("Agent.turn", "Agent._steps", "Agent._call", "Agent._check_ending")
    ),
    "narnat_agent/safety/": Target(SAFETY_TESTS, at_import=SAFETY_AT_IMPORT),
    **{  # a file of it at a time, when the package is too much for one sitting
        f"narnat_agent/safety/{path.name}": Target(
            SAFETY_TESTS, at_import=SAFETY_AT_IMPORT, fresh=path.name == "families.py"
        )
        for path in sorted((ROOT / "narnat_agent/safety").glob("*.py"))
        if path.name != "__init__.py"
    },
    **{f"narnat_agent/checkpoints/{name}.py": Target(CHECKPOINT_TESTS) for name in CHECKPOINT_FILES},
    "narnat_agent/provider/text_calls.py": Target(
        ("tests/provider/test_text_calls.py", "tests/provider/test_think_and_empty.py")
    ),
    "narnat_agent/core/budget.py": Target(("tests/core/test_budget.py",)),
    "narnat_agent/provider/usage.py": Target(("tests/core/test_budget.py",)),
    "narnat_agent/provider/silence.py": Target(("tests/run/test_headless_stall.py",)),
    "narnat_agent/conversation/window.py": Target(
        ("tests/ui/test_status_line.py", "tests/commands/test_conversation.py", "tests/conversation/test_window.py")
    ),
    "narnat_agent/processes/jobs.py": Target(("tests/tools/test_background.py",)),
    # the placement tests: HTML Edits read inside the elements open around them, YAML's keys beside a sibling
    "narnat_agent/tools/files/syntax_check.py": Target(
        ("tests/tools/test_syntax_check.py", "tests/tools/test_syntax_placement.py")
    ),
    "narnat_agent/tools/edit/notebook.py": Target(("tests/tools/test_documents.py",)),
    "narnat_agent/conversation/store.py": Target(SESSION_TESTS),
    "narnat_agent/conversation/session.py": Target(SESSION_TESTS),
    "narnat_agent/prompts/skills.py": Target(("tests/commands/test_custom_files.py",)),
    "narnat_agent/commands/custom.py": Target(("tests/commands/test_custom_files.py",)),
    "narnat_agent/provider/content.py": Target(
        ("tests/provider/test_text_calls.py", "tests/provider/test_think_and_empty.py")
    ),
    "narnat_agent/tools/write.py": Target(
        ("tests/tools/test_write.py", "tests/tools/test_encodings.py", "tests/tools/test_editor_files.py")
    ),
    "narnat_agent/provider/reply.py": Target(
        (
            "tests/provider/test_reply.py",
            "tests/provider/test_llm_shapes.py",
            "tests/provider/test_text_calls.py",
            "tests/provider/test_think_and_empty.py",
        )
    ),
    "narnat_agent/tools/glob.py": Target(("tests/tools/test_glob.py",)),
    "narnat_agent/inert.py": Target(("tests/ui/test_escapes.py", "-k", "not repl and not headless")),
    "narnat_agent/atomic.py": Target(("tests/tools/test_write.py",)),
    "narnat_agent/ui/keys.py": Target(
        ("tests/ui/test_watcher.py",),
        (
            "Watcher.handle",
            "Watcher._queue",
            "Watcher._escape_cancels",
            "Watcher._cancel",
            "Watcher.working",
            "Watcher.take_typed",
        ),
    ),
    # provider
    "narnat_agent/provider/client.py": Target(CLIENT_TESTS),
    "narnat_agent/provider/transport.py": Target(TRANSPORT_TESTS),
    "narnat_agent/provider/errors.py": Target(ERRORS_TESTS),
    "narnat_agent/provider/endpoint.py": Target(ENDPOINT_TESTS),
    "narnat_agent/provider/body.py": Target(BODY_TESTS),
    "narnat_agent/provider/fit.py": Target(FIT_TESTS),
    "narnat_agent/provider/tokens.py": Target(COUNTS_TESTS),
    "narnat_agent/provider/pricing.py": Target(COUNTS_TESTS),
    "narnat_agent/core/turn.py": Target(TURN_TESTS),
    "narnat_agent/core/goal.py": Target(GOAL_TESTS),
    "narnat_agent/core/headless.py": Target(HEADLESS_TESTS),
    # read
    # the sparse 2 GB file and the cancelled search take seconds, and the cancel runs Grep in another process; the
    # file of 64 MB read whole takes a second, and only the window's mutants run it
    "narnat_agent/tools/grep.py": Target(
        ("tests/tools/test_grep.py", "-k", "not sparse_binary_file and not cancelled_search")
    ),
    "narnat_agent/tools/files/ripgrep.py": Target(
        (
            "tests/tools/test_ripgrep.py",
            "tests/tools/test_grep.py",
            "tests/tools/test_glob.py",
            "-k",
            "not sparse_binary_file and not cancelled_search",
        )
    ),
    "narnat_agent/tools/read/__init__.py": Target(("tests/tools/test_read.py",)),
    # web
    "narnat_agent/tools/verification.py": Target(("tests/tools/test_verification.py", "-m", "not slow")),
    "narnat_agent/tools/edit/__init__.py": Target(
        (
            "tests/tools/test_edit.py",
            "tests/tools/test_edit_messages.py",
            "tests/tools/test_editor_files.py",
            "tests/tools/test_encodings.py",
            "tests/tools/test_documents.py",
        )
    ),
    # the readability pages' extraction (slow, in test_web_fetch.py) is measured in tests of its own: article.py
    "narnat_agent/tools/web/fetch.py": Target(
        ("tests/tools/test_web_fetch.py", "tests/tools/test_web_offline.py", *WEB)
    ),
    "narnat_agent/tools/web/http.py": Target(
        ("tests/tools/test_web_http.py", "tests/tools/test_web_search.py", "tests/tools/test_web_search_pages.py")
        + ("tests/tools/test_web_fetch.py", "tests/tools/test_web_offline.py", *WEB)
    ),
    "narnat_agent/tools/web/search.py": Target(
        ("tests/tools/test_web_search.py", "tests/tools/test_web_search_pages.py", "tests/tools/test_web_offline.py")
        + ("-k", "not machine_without_a_network")
    ),
    "narnat_agent/tools/todo_write.py": Target(("tests/tools/test_todo_write.py",)),
    # bash
    "narnat_agent/tools/bash/__init__.py": Target(BASH_TESTS),
    "narnat_agent/tools/bash/execute.py": Target(EXECUTE_TESTS),
    # platform
    # the watcher in process, on real folders (a watch that loses events or refuses a folder stands for the system's)
    "narnat_agent/checkpoints/watching.py": Target(
        ("tests/checkpoints/test_watching.py", "tests/platform/test_watch.py")
    ),
    "narnat_agent/checkpoints/runs.py": Target(
        ("tests/checkpoints/test_runs.py", "tests/checkpoints/test_restore_bounds.py")
    ),
    "narnat_agent/checkpoints/index.py": Target(
        ("tests/checkpoints/test_index.py", "tests/checkpoints/test_checkpoints.py", "-k", "index")
    ),
    # of platform/, mutmut mutates only what is outside `if sys.platform`: here stop_tree
    "narnat_agent/platform/processes.py": Target(("tests/platform/test_processes.py",)),
    "narnat_agent/run/signals.py": Target(("tests/run/test_leaving.py",)),
    "narnat_agent/encodable.py": Target(("tests/base/test_encodable.py",)),
    "narnat_agent/logger.py": Target(("tests/base/test_logger.py", "-m", "not slow")),
    # the example file and the docs' table are read from the repository, which the scratch copy leaves out
    "narnat_agent/config/loader.py": Target(
        (
            "tests/config/test_mistakes.py",
            "tests/config/test_loader.py",
            "-k",
            "not the_example_file and not the_docs_table",
        )
    ),
    "narnat_agent/config/settings.py": Target(
        (
            "tests/config/test_settings.py",
            "tests/config/test_loader.py",
            "-k",
            "not the_example_file and not the_docs_table",
        )
    ),
    # the interface's language, without the runs in another process (a terminal that cannot show Chinese)
    "narnat_agent/i18n.py": Target(
        (
            "tests/i18n/test_language.py",
            "tests/i18n/test_fallback.py",
            "tests/i18n/test_sentences.py",
            "-k",
            "not terminal_that_cannot",
        ),
        fresh=True,  # its caches (_fits, answers) would keep what the tests before the mutant computed
    ),
    # syntax
    "narnat_agent/tools/files/parsers.py": Target(SYNTAX_TESTS),
    "narnat_agent/tools/files/stopping.py": Target(SYNTAX_TESTS),
    "narnat_agent/tools/files/html_context.py": Target(("tests/tools/test_syntax_html_context.py",)),
    "narnat_agent/tools/files/statements.py": Target(("tests/tools/test_syntax_statements.py",)),
    "narnat_agent/tools/files/yaml_syntax.py": Target(("tests/tools/test_syntax_parsers.py",)),
    # what in-place edits, keys, Ansible, archivers and pyproject's tasks lose is said by rules SAFETY_TESTS leaves
    # out: their tests
    "narnat_agent/safety/edits.py": Target(
        ("tests/safety/test_bash_third_round.py", "tests/safety/test_bash_edits.py")
    ),
    "narnat_agent/safety/archives.py": Target(
        ("tests/safety/test_bash_vocabulary.py", "tests/safety/test_bash_archives.py")
    ),
    "narnat_agent/safety/pyproject.py": Target(
        ("tests/safety/test_bash_vocabulary.py", "tests/safety/test_bash_pyproject.py")
    ),
    # safety
    "narnat_agent/safety/readonly.py": Target(("tests/safety/test_readonly.py",)),
    # package scripts, make targets, just recipes and script files laid out in a project of their own (the long tail's
    # corpora run them too, at several times the cost of a mutant)
    "narnat_agent/safety/tasks.py": Target(("tests/safety/test_bash_tasks.py",), at_import=SAFETY_AT_IMPORT),
    # git's listings (the commits a forced push or a moved branch leaves, the work a checkout or a reset throws away)
    # run git in repositories of the vocabulary's and the long tail's own cases, beside the analysis's
    "narnat_agent/safety/git.py": Target(
        ("tests/safety/test_bash_vocabulary.py", "tests/safety/test_bash_longtail.py", *SAFETY_TESTS),
        at_import=SAFETY_AT_IMPORT,
    ),
    # find's selection on files of its own; git's listings behind a forced push and a moved branch
    "narnat_agent/safety/probes.py": Target(
        (
            "tests/safety/test_bash_probes.py",
            "tests/safety/test_bash_vocabulary.py",
            "tests/safety/test_bash_longtail.py",
        ),
        at_import=SAFETY_AT_IMPORT,
    ),
    # the words' own cases, and the long tail's corpora that the vocabulary was designed on and held out from
    "narnat_agent/safety/vocabulary.py": Target(
        (
            "tests/safety/test_bash_vocabulary.py",
            "tests/safety/test_bash_longtail.py",
            "tests/safety/test_bash_longtail_blind.py",
            "tests/safety/test_bash_longtail_blind2.py",
        ),
        at_import=SAFETY_AT_IMPORT,
    ),
    # ui
    "narnat_agent/ui/plain.py": Target(("tests/ui/test_plain.py", "tests/ui/test_render.py")),
    "narnat_agent/ui/render.py": Target(("tests/ui/test_render.py",)),
    "narnat_agent/ui/markdown_stream.py": Target(("tests/ui/test_markdown_stream.py", "-m", "not slow")),
    "narnat_agent/ui/terminal_stream.py": Target(("tests/ui/test_terminal_stream.py",)),
    "narnat_agent/ui/events.py": Target(("tests/ui/test_events.py",)),
    "narnat_agent/ui/cells.py": Target(("tests/i18n/test_cells.py",)),
    "narnat_agent/ui/headless.py": Target(("tests/ui/test_headless_text.py", "tests/ui/test_events.py")),
    "narnat_agent/ui/terminal.py": Target(
        (
            "tests/ui/test_terminal.py",
            "tests/ui/test_input.py",
            "tests/ui/test_status_line.py",
            "tests/ui/test_terminal_stream.py",
        ),
        # make_ui decides by the process's own stdin, stdout and TERM: the pty tests run it, in another process
        tuple(
            f"TerminalUI.{name}"
            for name in (
                "__init__",
                "_history_lost",
                "_toolbar",
                "use_interrupt_key",
                "use_bell",
                "ring",
                "add_commands",
                "status",
                "banner",
                "_cancelled",
                "_queued",
                "take_sent",
                "run_at_once",
                "delivered",
                "read_input",
                "turn_view",
                "tool_start",
                "tool_end",
                "confirm",
                "notice",
                "_say",
                "warning",
                "error",
                "info",
                "table",
                "review",
                "planning",
                "separator",
                "begin_compressing",
                "end_compressing",
                "stop_reading",
                "give_back",
                "ask",
            )
        ),
    ),
    # acp
    # stdio() opens the process's own stdin and stdout: it runs only in `narnat acp`, which tests/acp/ drives
    "narnat_agent/acp/wire.py": Target(("tests/acp/test_wire_lines.py",), functions=WIRE),
    "narnat_agent/acp/calls.py": Target(("tests/acp/test_calls.py",)),
    "narnat_agent/acp/replay.py": Target(("tests/acp/test_replay.py",)),
    # open_session, modes and choose_mode build a whole agent: tested only through `narnat acp` in another process
    "narnat_agent/acp/sessions.py": Target(
        ("tests/acp/test_prompt_blocks.py",), functions=("question", "_mention", "offered")
    ),
    "narnat_agent/acp/ui.py": Target(("tests/acp/test_editor_ui.py",)),
    # tail-a
    "narnat_agent/tools/read/lines.py": Target(("tests/tools/test_read_pieces.py",)),
    "narnat_agent/tools/files/diffs.py": Target(("tests/tools/test_diffs.py",)),
    "narnat_agent/tools/read/images.py": Target(("tests/tools/test_images.py",)),
    "narnat_agent/tools/files/textfile.py": Target(
        ("tests/tools/test_textfile.py", "tests/tools/test_encodings.py", "tests/tools/test_read.py")
    ),
    # tail-b
    # tools/tool.py has no target: its one function, Tool.schema, is a property, which mutmut does not mutate (its
    # planted defects in bench/planted.py stand for it)
    "narnat_agent/tools/base.py": Target(("tests/tools/test_tool_contract.py",)),
    "narnat_agent/tools/web/article.py": Target(("tests/tools/test_web_article.py",)),
    "narnat_agent/state.py": Target(("tests/base/test_state.py",)),
    "narnat_agent/processes/__init__.py": Target(("tests/platform/test_held_interrupt.py",)),
    # context
    "narnat_agent/conversation/context.py": Target(("tests/conversation/test_context.py", "tests/core/test_cancel.py")),
    # the prompt's own tests, and those of its parts: the Node and Python lines, the instruction files, the shell
    "narnat_agent/prompts/system_prompt.py": Target(
        (
            "tests/prompts/test_system_prompt.py",
            "tests/config/test_node_environment.py",
            "tests/config/test_loader.py",
            "tests/tools/test_shells.py",
            "-k",
            "not the_example_file and not the_docs_table",
        )
    ),
    # the files read and their freshness, paths shown and resolved, the questions: through Read, Edit and Write
    "narnat_agent/tools/workspace.py": Target(
        (
            "tests/tools/test_workspace.py",
            "tests/tools/test_read.py",
            "tests/tools/test_read_pieces.py",
            "tests/tools/test_edit.py",
            "tests/tools/test_write.py",
            "tests/tools/test_editor_files.py",
            "-m",
            "not slow",
        )
    ),
    # a Windows machine laid out in a temporary folder (Machine: its PATH, its folders, the registry's Git folders);
    # each shell's script, run by this machine's bash where it can
    "narnat_agent/tools/bash/shells.py": Target(("tests/tools/test_shells.py",)),
    # commands
    # mutmut mutates no decorated function: a command's own body (under @command) has no mutants, only the helpers
    # around it; the planted defects in bench/planted.py measure the bodies
    "narnat_agent/commands/dispatch.py": Target(("tests/commands/test_registry.py", "tests/commands/test_dispatch.py")),
    "narnat_agent/commands/__init__.py": Target(  # `command` runs as the commands are defined, at import
        ("tests/commands/test_registry.py", "tests/commands/test_dispatch.py"), at_import=("command",)
    ),
    # the rewinds on real checkpoints in process, less the slow ones (a restart, another run, diffs of whole turns)
    "narnat_agent/commands/rewind.py": Target(
        (
            "tests/commands/test_rewind_parts.py",
            "tests/commands/test_rewind.py",
            "tests/commands/test_rewind_after.py",
            "tests/commands/test_undo_bounds.py",
            "tests/commands/test_diff.py",
            "-m",
            "not slow",
        )
    ),
    # of sessions.py only recap has mutants (the commands are decorated)
    "narnat_agent/commands/sessions.py": Target(("tests/commands/test_recap.py", "tests/commands/test_session.py")),
    "narnat_agent/commands/conversation.py": Target(
        ("tests/commands/test_context_lines.py", "tests/commands/test_registry.py")
    ),
    # syntax
    # PDFs and notebooks read as text: their own tests, and Read's of a document named in capitals
    "narnat_agent/tools/files/documents.py": Target(
        (
            "tests/tools/test_documents.py",
            "tests/tools/test_read.py::test_a_notebook_and_a_pdf_in_capitals_are_documents",
            "tests/tools/test_read.py::test_a_pdf_is_read_as_its_pages_text_and_a_scanned_one_says_it_has_none",
        )
    ),
    "narnat_agent/checkpoints/entries.py": Target(("tests/checkpoints/test_entries.py",)),
    # winsafe
    # PowerShell's and cmd's text, analysed in process: each rule's sentences, then the corpus written before the rules
    # and the held-out one (SAFETY_TESTS, the POSIX corpora, hardly reach these files)
    "narnat_agent/safety/windows_losses.py": Target(
        (
            "tests/safety/test_windows_losses.py",
            "tests/safety/test_windows_corpus.py",
            "tests/safety/test_windows_blind.py",
        )
    ),
    "narnat_agent/safety/windows_syntax.py": Target(
        (
            "tests/safety/test_windows_syntax.py",
            "tests/safety/test_windows_losses.py",
            "tests/safety/test_windows_corpus.py",
            "tests/safety/test_windows_blind.py",
        )
    ),
    # core
    **{  # a later key wins: the rest of these modules, beside the functions measured before (their rows above)
        # the agent's own tests, in process and fast: every one of them builds an agent, so a surviving mutant of
        # its constructor runs them all (the REPL's commands, tests/commands, take minutes more and add nothing here)
        "narnat_agent/core/agent.py": Target(
            ("tests/core/test_agent.py", "tests/core/test_agent_modes.py", "tests/core/test_model_switch.py")
            + ("tests/core/test_steering.py", "tests/core/test_cancel.py", "tests/conversation/test_context.py")
            + ("tests/conversation/test_compressor.py", "tests/provider/test_think_and_empty.py", "-m", "not slow"),
            AGENT_REST,
        ),
        "narnat_agent/tools/registry.py": Target(
            ("tests/tools/test_registry.py", "tests/tools/test_registry_arguments.py"), REGISTRY_REST
        ),
        # the whole module, but for restore_terminal_on_signals: it needs a terminal on stdin, and its handlers end the
        # process (the pseudo-terminal tests run it, in another process)
        "narnat_agent/ui/keys.py": Target(
            ("tests/ui/test_watcher.py", "tests/ui/test_watcher_keyboard.py", "tests/ui/test_prompt_keys.py")
            + ("tests/ui/test_input.py",),
            KEYS_ALL,
        ),
        # serve runs the turns on the test's own thread, over a pair of sockets, the editor's side acp's own client
        "narnat_agent/acp/server.py": Target(("tests/acp/test_server.py",)),
        # the whole module: open_session, modes and choose_mode are tested in process now
        "narnat_agent/acp/sessions.py": Target(
            ("tests/acp/test_prompt_blocks.py", "tests/acp/test_sessions_open.py", "-m", "not slow")
        ),
    },
    # vocab
    # the Windows rules are read by the Windows tests (a later key wins over SAFETY_TESTS's); _named builds SYSTEM's
    # rules at import
    "narnat_agent/safety/windows_system.py": Target(WINDOWS_TESTS, at_import=("_named",)),
    "narnat_agent/safety/windows_refusals.py": Target(WINDOWS_TESTS),
    # run
    # each run in process through cli.main's argv, against the fake provider (the runs in another process are not seen)
    "narnat_agent/run/headless.py": Target(("tests/run/test_headless_run.py", "tests/run/test_headless.py")),
    "narnat_agent/run/start.py": Target(("tests/run/test_start.py",)),
    "narnat_agent/run/repl.py": Target(("tests/run/test_repl_run.py",)),
    # run() ends the process with os._exit: it runs only in another process (tests/run/test_cli.py); _terminal_ui's
    # make_ui reads the process's own terminal, which the pty tests give it in another process
    "narnat_agent/cli.py": Target(
        ("tests/run/test_cli_main.py", "tests/run/test_first_start.py", "tests/run/test_headless_run.py"),
        (
            "_positive",
            "_HelpFormatter.add_usage",
            "_HelpFormatter.start_section",
            "_HelpFormatter.format_help",
            "_HelpFormatter._split_lines",
            "_positive_number",
            "_parser",
            "first_run_setup",
            "read_prompt",
            "main",
            "_start",
            "_configuration",
            "_headless_ui",
        ),
    ),
    # pswin
    # PowerShell and cmd text are read by the Windows corpus and their forms' own cases; SAFETY_TESTS, the POSIX
    # corpora, hardly reach them (a later key wins)
    **{f"narnat_agent/safety/{name}.py": Target(FORMS_TESTS) for name in ("powershell_lex", "powershell", "cmd")},
    # winref
    # the Windows corpus and the refusals' own sentences, in process (a later key wins over the vocab block's); the
    # corpus alone is the narrowest file that reaches every rule, and a mutant runs only the tests that call it
    **{
        "narnat_agent/safety/windows_refusals.py": Target((*WINDOWS_TESTS, "tests/safety/test_windows_refusals.py")),
        "narnat_agent/safety/windows_system.py": Target(
            (*WINDOWS_TESTS, "tests/safety/test_windows_system.py"), at_import=("_named",)
        ),
    },
    # acpserver
    # a later key wins: each mutant in a process of its own (mutmut's fork server). Run in mutmut's own process, the
    # tests' commands (a Bash `sleep` stopped by a cancel) end after the tests do, and mutmut, waiting for any child
    # to end, takes one of them for a mutant's and stops
    "narnat_agent/acp/server.py": Target(("tests/acp/test_server.py",), fresh=True),
}

NO_ARGUMENTS = "every tool has a required parameter: a call without arguments is refused by its schema either way"
REFUSED = "each call recovered passes the registry, which refuses a name that is no tool and arguments not an object"
POLL = "how often the watcher wakes: what it says and ends is decided alike, at most one wait later"
FIRST_PART = "the text before the first separator is the same however many splits follow it"
CARRIED = "a request carries the system prompt and a message at least: messages 0 and 1 are both in it"
CALL_ID = "every call has an id that is not empty (the client makes one when the provider gives none)"
ZIPPED = "the names and the starts grow together and the ends are the starts shifted: the lengths always match"
TAG = "a random tag of that length or longer finds the job's processes alike"
ASCII = "a pid and a hex tag are ASCII, written alike in any encoding"
STORED = (
    "a session reaches from_dict through the store's load, which lets through only text as created and a number or "
    "null as the cost"
)
NO_TIME = "a session without a time of creation keeps the time of the load either way"
PAST_LIMIT = "a file longer than the limit is refused however much more of it is read"
OUR_NAMES = "our temporary names hold one '-' after the prefix: the pid is its first part however it is split"
RANDOM_NAME = "the temporary name is random and new: no file has it before"
BINARY = "O_BINARY exists on Windows only: elsewhere the flag is 0 by any of these"
MADE = "the temporary file is made before the write that can fail: the cleanup always finds it"
HELD_BACK = "a content piece always adds the splitter's reasoning to the chunk's (empty or not), which counts it"
NAME_FILTER = (
    "the name filter only narrows rg's walk before the pattern's own check: a filter for the last word, for a path "
    "or for nothing narrows less, and the check decides alone"
)
FALSY = "the flag is read only as true or false, and None is false"
FALSE_ASCII = "json.dumps takes a false ensure_ascii, None included, as False"
FAST_JSON = "the JSON reader is only the fast path: what it takes, the grammar takes too (see _json)"
COMPILER_LINE = (
    "the compiler's own copy of the line (e.text) is the line the text split at its line ends gives: whichever the "
    "condition picks, the same text"
)
INHERIT = "the module imports nothing from __future__: the compiler has no flags of its to inherit"
CODEC = "Python's codecs take UTF-8 in any case"
ROWS = "the text split at its newlines has a line for every row of its tree (an empty one after a final newline)"
# module or package -> {a piece of a line as the mutant writes it, or a pattern of mutant names (starting with *): why
# the change cannot alter what the code does}
EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/safety/": SAFETY_EQUIVALENT,
    **CHECKPOINT_AND_EDIT_EQUIVALENT,
    **WEB_EQUIVALENT,
    **PLATFORM_EQUIVALENT,
    **UI_EQUIVALENT,
    **PROVIDER_EQUIVALENT,
    **READ_EQUIVALENT,
    **BASH_EQUIVALENT,
    **SYNTAX_EQUIVALENT,
    **SAFETYREST_EQUIVALENT,
    **ACP_EQUIVALENT,
    **TAIL_A_EQUIVALENT,
    **TAILB_EQUIVALENT,
    **TAILC_EQUIVALENT,
    **CONTEXT_EQUIVALENT,
    **COMMANDS_EQUIVALENT,
    **WINSAFE_EQUIVALENT,
    **CORE_EQUIVALENT,
    **VOCAB_EQUIVALENT,
    **RUN_EQUIVALENT,
    **PSWIN_EQUIVALENT,
    **WINREF_EQUIVALENT,
    **ACPSERVER_EQUIVALENT,
    "narnat_agent/provider/text_calls.py": {
        "if separator or text.startswith(separator, at):": "without a separator the step skips nothing more",
        "fences -= text.startswith": "the count of fences is read only as even or odd and as zero or not, which a "
        "negative count gives alike",
        "head = text[at : at + 31]": "both are longer than any marker",
        'value.get("parameters", None)': NO_ARGUMENTS,
        'value.get("parameters", )': NO_ARGUMENTS,
        "isinstance(value, dict) and NAME.fullmatch(name.strip())) or True": REFUSED,
        "if isinstance(value, dict) or NAME.fullmatch(name.strip())": REFUSED,
        'return (value["name"], args) if (isinstance(args, dict)) or True': REFUSED,
        "return None if (params is None) and False else (match.group(1), params)": REFUSED,
    },
    "narnat_agent/provider/silence.py": {
        'self._thread: threading.Thread | None = ""': "__enter__ sets the thread before __exit__ reads it",
        "self._done.wait(min(1.25, self.every / 4))": POLL,
        "self._done.wait(min(0.25, self.every * 4))": POLL,
        "self._done.wait(min(0.25, self.every / 5))": POLL,
        "periods = int((now - self.last) / self.every)": "for the non-negative times of a monotonic clock, the "
        "whole part of a quotient is its floor",
    },
    "narnat_agent/conversation/window.py": {
        '.split("<system-reminder>", 2)[0]': FIRST_PART,
        '.split("<system-reminder>", )[0]': FIRST_PART,
        'args = ""': "the arguments are read only through isinstance(args, dict), false for both",
        "args if (isinstance(args, dict)) or True else None": "the registry's header shows arguments that are not an "
        "object as it shows none: Read(…)",
        'pieces.append((1, Said(N_("tool schemas"))': CARRIED,
        'pieces = [(1, part, "", estimate(text))': CARRIED,
        'message.get("tool_call_id", None)': CALL_ID,
        'message.get("tool_call_id", )': CALL_ID,
        'message.get("tool_call_id", "XXXX")': CALL_ID,
        "zip(names, starts, ends, strict=None)": ZIPPED,
        "zip(names, starts, ends, )": ZIPPED,
        "zip(names, starts, ends, strict=False)": ZIPPED,
    },
    "narnat_agent/processes/jobs.py": {
        "break  # what a stopping job still prints": "the limit's stop returns once the job's processes are gone: "
        "what is left in the pipe is dropped either way",
        "tag = secrets.token_hex(None)": TAG,
        "tag = secrets.token_hex(9)": TAG,
        'running.write_text(f"{os.getpid()} {tag}\\n", encoding=None)': ASCII,
        'running.write_text(f"{os.getpid()} {tag}\\n", )': ASCII,
        'running.write_text(f"{os.getpid()} {tag}\\n", encoding="UTF-8")': ASCII,
    },
    "narnat_agent/tools/files/syntax_check.py": {
        **SYNTAX_CHECK_EQUIVALENT,
        'compile(text, name, "exec", )': INHERIT,
        'compile(text, name, "exec", dont_inherit=False)': INHERIT,
        "line = e.lineno or 2": "the compiler gives every SyntaxError of a source text its line",
        'text.encode("UTF-8", "surrogateescape")': CODEC,
        'decode("UTF-8", "replace")': CODEC,
        "pending = [root] if (root.has_error) or True else []": "a tree without an error has no node with one to find",
        "if (row < len(lines)) or True else": ROWS,
        "if row <= len(lines) else": ROWS,
        'if row < len(lines) else "XXXX"': ROWS,
        "raise ValueError(None)": "the refusal's message is never read, only that it is refused",
        "*x__json__mutmut_7": FAST_JSON,
        'if grammar is None and grammar == "json" and _json(after):': "a file of no language has no problems to find "
        "either",
        'grammar != "json" and _json(after)': FAST_JSON,
        'grammar == "XXjsonXX" and _json(after)': FAST_JSON,
        'grammar == "JSON" and _json(after)': FAST_JSON,
        'language(path) != "json" and _json(text) or not problems': FAST_JSON,
        'language(path) == "XXjsonXX" and _json(text) or not problems': FAST_JSON,
        'language(path) == "JSON" and _json(text) or not problems': FAST_JSON,
        "if (before) or True else Counter()": "an empty text has no errors",
        "SyntaxProblem(line, e.offset or 2, e.msg, source)": "the compiler gives every SyntaxError of a source text "
        "its column",
        "source = lines[line - 1] if": COMPILER_LINE,
        "text=new[n - 1] if": "a fragment's lines are lines of the text after the change",
    },
    "narnat_agent/tools/edit/notebook.py": {
        'piece.encode("UTF-8")': CODEC,
        "product((1, 2, 4, None), (False, False), (False, True))": "the keys are loaded in the file's order, which "
        "sort_keys=False writes back as it was: a file sorted is given back unsorted too",
    },
    "narnat_agent/conversation/store.py": {
        "json.dumps(data, ensure_ascii=None, indent=1)": FALSE_ASCII,
        "json.dumps(encodable_data(data), ensure_ascii=None, indent=1)": FALSE_ASCII,
        'message.get(key, "XXXX")': "an absent key is text by either default",
        "_known.pop(None, None)": "the identity of a deleted file matches no file written later (a new inode and time)",
        'if m["role"] == "user"), None)': "a first question that is not text is listed as none",
    },
    "narnat_agent/conversation/session.py": {
        "contextlib.suppress(ValueError, None)": STORED,
        "contextlib.suppress(ValueError, )": STORED,
        'data.get("created", None)': NO_TIME,
        'data.get("created", )': NO_TIME,
        'data.get("created", "XXXX")': NO_TIME,
        "conversation = Conversation(None, name)": "the saved messages replace the new conversation's at once",
        "cost if (isinstance(cost, (int, float))) or True else None": STORED,
    },
    "narnat_agent/prompts/skills.py": {
        "data = f.read(None)": PAST_LIMIT,
        "data = f.read(MAX_BYTES + 2)": PAST_LIMIT,
        "binary_kind(data[:4097], path)": "one byte more of a head of 4 KB tells text from binary alike",
        'data.decode("UTF-8-SIG")': CODEC,
    },
    "narnat_agent/commands/custom.py": {
        'text.split("\\n", )[0]': FIRST_PART,
        'text.split("\\n", 2)[0]': FIRST_PART,
        'secret: str = "XXXX"': "a default of fewer than eight characters is never taken for a key",
    },
    "narnat_agent/provider/content.py": {
        "range(min(len(tag) + 1, len(text)), 0, -1)": "a whole tag at the end was found before its beginnings are "
        "looked for, and nothing longer can begin it",
        "self.thought = None": FALSY,
        "self.looked = None": FALSY,
        "self.mid_line = None": FALSY,
        "*ContentSplitterǁ__init____mutmut_5": "the content's start sets whether it holds thinking before anything "
        "reads it",
        "return self._show(at, mid_line=None)": FALSY,
        "self.reasoning = before": "a tag closed alone is the first thinking the content holds: none came before",
    },
    "narnat_agent/atomic.py": {
        'pid = name[len(TMP_PREFIX) :].split("-", 2)[0]': OUR_NAMES,
        'pid = name[len(TMP_PREFIX) :].split("-", )[0]': OUR_NAMES,
        'pid = name[len(TMP_PREFIX) :].rsplit("-", 1)[0]': OUR_NAMES,
        "secrets.token_hex(None)": RANDOM_NAME,
        "secrets.token_hex(7)": RANDOM_NAME,
        "os.O_EXCL & getattr": RANDOM_NAME,
        'getattr(None, "O_BINARY", 0)': BINARY,
        'getattr(os, "XXO_BINARYXX", 0)': BINARY,
        'getattr(os, "o_binary", 0)': BINARY,
        'getattr(os, "O_BINARY", 1)': BINARY + " (and 1 is O_WRONLY, there already)",
        "Path(tmp).unlink(missing_ok=None)": MADE,
        "Path(tmp).unlink(missing_ok=False)": MADE,
    },
    "narnat_agent/tools/write.py": {'encoded, note = content.encode("UTF-8")': CODEC},
    "narnat_agent/tools/glob.py": {
        "if (literal) or True else top": "an empty literal start joins to the folder itself",
        "by_name = ripgrep.name_filter(": NAME_FILTER,
        'pattern.count("XX/XX") == 1': NAME_FILTER,
        'pattern.startswith("XX**/XX")': NAME_FILTER,
    },
    "narnat_agent/provider/reply.py": {
        "slot = _Slot(None)": "a slot's own index is never read: by_index is what finds it",
        "if call_id or not slot.id:": "an empty id is never looked up (only a fragment with an id is)",
        "json.dumps(args, ensure_ascii=None)": FALSE_ASCII,
        "progress = None  # even while": HELD_BACK,
        "progress = False  # even while": HELD_BACK,
    },
    "narnat_agent/conversation/compressor.py": {
        "instruction}], None, sink)": "the client sends no tools field for None and for an empty list alike",
        "summary = None": "a failed summary is read only by `if not summary`, which takes None as the empty text",
    },
}

LOG_LINE = r"^\s*log(\.\w+\(| = get_logger\()"  # the log is for diagnosis: its wording is not behaviour
KILLED = {"killed", "timeout", "caught by type check", "segfault"}
RECHECK = 1800  # seconds a timed-out mutant's tests get when tested again alone


def copy_repository(scratch: Path) -> None:
    """The code and tests as they are now; README.md too, since the safety corpus's overwrites name it."""
    for part in ("narnat_agent", "tests"):
        shutil.rmtree(scratch / part, ignore_errors=True)
        shutil.copytree(ROOT / part, scratch / part, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "README.md", scratch)


def configure(module: str, target: Target, scratch: Path) -> None:
    selection = ", ".join(f'"{test}"' for test in target.tests)
    pattern = f"{module}*" if module.endswith("/") else module
    (scratch / "pyproject.toml").write_text(
        (ROOT / "pyproject.toml").read_text()
        + f'\n[tool.mutmut]\nsource_paths = ["narnat_agent"]\nonly_mutate = ["{pattern}"]\n'
        f"pytest_add_cli_args_test_selection = [{selection}]\n"
        'also_copy = ["README.md"]\n'
        'pytest_add_cli_args = ["-q", "-p", "no:cacheprovider"]\n'
        f"do_not_mutate_patterns = ['{LOG_LINE}']\n"
        + ('process_isolation = "forkserver"\nforkserver_warmup = "none"\n' if target.fresh else "")
    )


def mutmut(scratch: Path, names: list[str], children: int) -> None:
    """Test these mutants (every one not yet tested when none is named); mutmut tests a named one again."""
    command = [sys.executable, "-m", "mutmut", "run", "--max-children", str(children), *names]
    done = subprocess.run(command, cwd=scratch, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"mutmut failed in {scratch}:\n{done.stdout[-2000:]}{done.stderr[-2000:]}")


def run_mutmut(module: str, target: Target, scratch: Path, children: int) -> None:
    """Mutate `module` in a copy of the repository at `scratch` with only its tests; in a copy that was run before,
    test again only what the tests did not kill, and the mutants of code changed since."""
    again = (scratch / "mutants").is_dir()
    copy_repository(scratch)
    configure(module, target, scratch)
    if not again:
        mutmut(scratch, target.patterns(), children)
    elif alive := [name for name, (status, _) in statuses(target, scratch).items() if status not in KILLED]:
        mutmut(scratch, alive, children)  # regenerates the mutants of changed code, then tests these again
    if untested := [name for name, (status, _) in statuses(target, scratch).items() if status == "not checked"]:
        mutmut(scratch, untested, children)
    run_at_import(target, scratch)
    recheck_timeouts(target, scratch)


def run_at_import(target: Target, scratch: Path) -> None:
    """Test each surviving mutant of a function run at import in a new process, where the import runs it; the result
    is written where mutmut keeps its own, as pytest's exit code (1: a test failed)."""
    patterns = target.patterns(target.at_import)
    for name, (status, mutated) in statuses(target, scratch).items():
        if status in KILLED or not any(fnmatch(name, pattern) for pattern in patterns):
            continue
        command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *target.tests]
        environment = os.environ | {"MUTANT_UNDER_TEST": name}
        code = subprocess.run(command, cwd=scratch / "mutants", env=environment, capture_output=True).returncode
        meta = mutated.with_name(mutated.name + ".meta")
        data = json.loads(meta.read_text())
        data["exit_code_by_key"][name] = 1 if code in (1, 2, 3, 4) else code  # 2, 4: the mutant broke the import
        meta.write_text(json.dumps(data))


def recheck_timeouts(target: Target, scratch: Path) -> None:
    """mutmut stops a mutant's tests after a time measured on the wall clock: on a loaded machine slow tests meet it
    though the mutant changed nothing they see. Each timed-out mutant is tested again in a new process, without
    that limit; only one whose tests still do not end within RECHECK seconds (it made them hang) stays killed."""
    for name, (status, mutated) in statuses(target, scratch).items():
        if status != "timeout":
            continue
        command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *target.tests]
        environment = os.environ | {"MUTANT_UNDER_TEST": name}
        try:
            code = subprocess.run(command, cwd=scratch / "mutants", env=environment, capture_output=True,
                                  timeout=RECHECK).returncode  # fmt: skip
        except subprocess.TimeoutExpired:
            continue
        meta = mutated.with_name(mutated.name + ".meta")
        data = json.loads(meta.read_text())
        data["exit_code_by_key"][name] = 0 if code == 0 else 1
        meta.write_text(json.dumps(data))


def statuses(target: Target, scratch: Path) -> dict[str, tuple[str, Path]]:
    """Each mutant's name, what became of it and the mutated file, from the results mutmut left beside that file."""
    found: dict[str, tuple[str, Path]] = {}
    for meta in (scratch / "mutants").rglob("*.meta"):
        for name, code in json.loads(meta.read_text())["exit_code_by_key"].items():
            if not target.functions or any(fnmatch(name, pattern) for pattern in target.patterns()):
                found[name] = (status_by_exit_code[code], meta.with_suffix(""))
    return found


@cache
def parsed(mutated: Path) -> cst.Module:
    """A mutated file, read once: it holds every mutant of the module, so parsing it is the slow part of a diff."""
    return cst.parse_module(mutated.read_text())


def mutated_lines(name: str, mutated: Path) -> tuple[str, list[str]]:
    """The mutant's diff, and the lines it writes (what EQUIVALENT is keyed by: names shift when the code does)."""
    module = parsed(mutated)
    before, after = (
        cst.Module([function]).code.strip().split("\n")
        for function in (read_original_function(module, name), read_mutant_function(module, name))
    )
    diff = "\n".join(unified_diff(before, after, lineterm=""))
    added = [line[1:].strip() for line in diff.splitlines() if line.startswith("+") and not line.startswith("+++")]
    return diff, added


def matches(piece: str, name: str, added: list[str]) -> bool:
    """A piece starting with * is a pattern of mutant names; any other, a piece of a line the mutant writes."""
    return fnmatch(name, piece) if piece.startswith("*") else any(piece in line for line in added)


def judge(module: str, found: dict[str, tuple[str, Path]]) -> tuple[set[str], list[str]]:
    """The equivalent mutants among the survivors, and the notes below the table: each equivalent with its reason,
    each survivor with its diff."""
    notes, equivalent = [], set()
    known = {
        piece: why for key, pieces in EQUIVALENT.items() if module.startswith(key) for piece, why in pieces.items()
    }
    for name in sorted(n for n, (status, _) in found.items() if status not in KILLED):
        status, mutated = found[name]
        diff, added = mutated_lines(name, mutated)
        reason = next((why for piece, why in known.items() if matches(piece, name, added)), None)
        if reason:
            equivalent.add(name)
            notes.append(f"equivalent {name}: {' / '.join(added)}\n    {reason}")
        else:
            notes.append(f"SURVIVED ({status}) {name}\n{diff}")
    return equivalent, notes


def row(name: str, found: dict[str, tuple[str, Path]], equivalent: set[str]) -> tuple:
    total = len(found)
    killed = sum(status in KILLED for status, _ in found.values())
    same = len(equivalent & found.keys())
    score = f"{killed / (total - same):.0%}" if total > same else "-"
    return (name, total, killed, total - killed - same, same, score)


def measure(module: str, target: Target, scratch: Path, children: int) -> tuple[list[tuple], list[str]]:
    """The table's rows for the module (a package: a row for each of its files, then the whole), and the notes."""
    run_mutmut(module, target, scratch, children)
    found = statuses(target, scratch)
    equivalent, notes = judge(module, found)
    name = f"{module} ({', '.join(target.functions)})" if target.functions else module
    rows = [row(name, found, equivalent)]
    if module.endswith("/"):
        files = sorted({mutated for _, mutated in found.values()})
        parts = [row(f.name, {n: m for n, m in found.items() if m[1] == f}, equivalent) for f in files]
        rows = parts + rows
    return rows, notes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", metavar="MODULE")
    parser.add_argument("--scratch", type=Path, help="keep the copy here, and test again only what survived in it")
    parser.add_argument("--children", type=int, default=1, help="mutants tested at once (default 1)")
    args = parser.parse_args()
    unknown = [m for m in args.modules if m not in TARGETS]
    if unknown:
        sys.exit(f"Unknown module {unknown[0]}: name one of {', '.join(TARGETS)}.")
    rows, notes = [], []
    whole = [m for m in TARGETS if not any(m != other and m.startswith(other) for other in TARGETS)]
    for module in args.modules or whole:
        with tempfile.TemporaryDirectory(prefix="narnat-mutation-") as folder:
            scratch = args.scratch / module.strip("/").replace("/", "_") if args.scratch else Path(folder)
            scratch.mkdir(parents=True, exist_ok=True)
            module_rows, module_notes = measure(module, TARGETS[module], scratch, args.children)
        rows += module_rows
        notes += module_notes
    print("\n".join(notes))
    table("Mutants killed by the covering tests (score = killed / (mutants - equivalent))", rows,
          ("module", "mutants", "killed", "survived", "equivalent", "score"))  # fmt: skip


if __name__ == "__main__":
    main()
