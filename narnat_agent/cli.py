"""`narnat`: the REPL, or one headless request with -p. Heavy modules load only after the flags are read."""

from __future__ import annotations

import argparse
import atexit
import contextlib
import io
import os
import sys
from typing import TYPE_CHECKING, BinaryIO, NoReturn

from narnat_agent import __version__, i18n
from narnat_agent.i18n import _
from narnat_agent.platform.console import system_language, utf8_output
from narnat_agent.run.headless import EXIT_CODES
from narnat_agent.run.start import USAGE_ERROR

if TYPE_CHECKING:
    from pathlib import Path

    from narnat_agent.config.settings import Config
    from narnat_agent.core.ui import UI, Reporter

SETUP_TRIES = 3  # answers checked against the provider before they are saved unchecked


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(_("must be a positive whole number, not {text!r}").format(text=text))
    return int(text)


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's own words ("usage:") in the interface's language too."""

    def add_usage(self, usage, actions, groups, prefix=None) -> None:  # type: ignore[no-untyped-def]
        super().add_usage(usage, actions, groups, prefix or _("usage: "))

    def start_section(self, heading: str | None) -> None:
        """A section's heading with its colon as the language writes it ("选项：" beside "用法："): argparse adds an
        ASCII one, taken back in format_help."""
        super().start_section(_("{heading}:").format(heading=heading).removesuffix(":") if heading else heading)

    def format_help(self) -> str:
        return super().format_help().replace("：:\n", "：\n")

    def _split_lines(self, text: str, width: int) -> list[str]:
        """Help text wrapped by the columns it takes: a Chinese line is twice as wide as its length."""
        from narnat_agent.ui import cells

        return cells.wrap(" ".join(text.split()), width)


def _positive_number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(_("must be a positive number, not {text!r}").format(text=text))
    return value


def _parser() -> argparse.ArgumentParser:
    about = _("A terminal coding agent for OpenAI-compatible models.")
    parser = argparse.ArgumentParser(prog="narnat", description=about, formatter_class=_HelpFormatter, add_help=False)
    parser._optionals.title = _("options")
    parser.add_argument("-h", "--help", action="help", help=_("show this help and exit"))
    parser.add_argument(
        "-p", "--print", dest="prompt", metavar="PROMPT", help=_("answer one request and exit; '-' reads it from stdin")
    )
    parser.add_argument("--output-format", choices=("text", "json", "stream-json"),
                        help=_("with -p: stdout is the answer (text, the default), one JSON object at the end (json) "
                               "or one JSON event per line (stream-json)"))  # fmt: skip
    resume = parser.add_mutually_exclusive_group()
    resume.add_argument("-c", "--continue", dest="latest", action="store_true",
                        help=_("continue the most recent conversation of this project"))  # fmt: skip
    resume.add_argument("--resume", metavar="NAME", help=_("continue a saved session"))
    parser.add_argument(
        "--fork",
        action="store_true",
        help=_("with -c or --resume: go on in a copy under a new name; the saved one stays"),
    )
    parser.add_argument("--model", help=_("use this model instead of the configured one"))
    parser.add_argument("--max-steps", type=_positive, metavar="N", help=_("tool steps per turn for this run"))
    parser.add_argument("--max-cost", type=_positive_number, metavar="AMOUNT",
                        help=_("stop a turn before a request that would take this run's cost over AMOUNT "
                               "(in pricing's currency)"))  # fmt: skip
    parser.add_argument("--max-turns", type=_positive, metavar="N", help=_("turns a goal may take for this run"))
    parser.add_argument("--until", metavar="COMMAND",
                        help=_("with -p: a goal; after each turn COMMAND runs, and the run ends when it passes (or at "
                               "max_turns, the budget, or a stop)"))  # fmt: skip
    parser.add_argument(
        "--plan",
        action="store_true",
        help=_("with -p: plan mode; the agent investigates, proposes, changes nothing"),
    )
    parser.add_argument("--yes", action="store_true", help=_("with -p: run commands that would ask for confirmation"))
    parser.add_argument(
        "--acp", action="store_true", help=_("serve an editor over the Agent Client Protocol (also: narnat acp)")
    )
    parser.add_argument(
        "--version", action="version", version=f"narnat {__version__}", help=_("show the version and exit")
    )
    return parser


def first_run_setup(ui: UI, project: Path, home: Path, servers: tuple = ()) -> None:
    """Ask for the endpoint, key and model, check them with one cheap request, and save them for the user (in the
    project if it keeps its own key). A server running here is offered with its models."""
    from narnat_agent.config.loader import write_setup
    from narnat_agent.config.settings import DEFAULT_BASE_URL, DEFAULTS
    from narnat_agent.provider.endpoint import LOCAL_SERVERS, check_model, local_servers

    base_url, model, key = DEFAULT_BASE_URL, str(DEFAULTS["model"]), ""
    found = local_servers(servers or LOCAL_SERVERS)
    for name, url, models in found:
        if models:
            listed = ", ".join(models[:10])
            ui.notice(_("{name} answers on {address} with: {models}").format(name=name, address=url, models=listed))
        else:
            ui.notice(_("{name} answers on {address} (no models listed)").format(name=name, address=url))
    if found:
        base_url, models = found[0][1:]
        model, key = models[0] if models else model, "local"  # servers run here take any key
    ui.notice(_("No API key configured yet; three questions, saved to ~/.narnat/narnat.json."))
    for attempt in range(1, SETUP_TRIES + 1):
        base_url = ui.ask(_("Base URL"), base_url).rstrip("/")
        key = ui.ask(_("API key (hidden)"), key, secret=True)
        model = ui.ask(_("Model"), model)
        problem = check_model(base_url, key, model)
        if problem is None:
            break
        last = attempt == SETUP_TRIES
        ui.error(_("{problem} Saved anyway; edit the file to fix it.").format(problem=problem) if last else problem)
    path = write_setup(project, home, {"base_url": base_url, "api_key": key, "model": model})
    if path.is_relative_to(project):
        ui.notice(_("Saved {path} (mode 0600; .narnat/.gitignore keeps it out of git).").format(path=path))
    else:
        ui.notice(_("Saved {path} (mode 0600).").format(path=path))


def read_prompt(arg: str | None, stdin: BinaryIO | None = None) -> str | None:
    """The -p text as text the model can be sent: UTF-16 or UTF-8 on stdin (this process's, unless given); bytes
    that are neither escaped (\\xe9)."""
    from narnat_agent.encodable import encodable

    if arg != "-":
        return None if arg is None else encodable(arg)  # argv holds undecodable bytes as surrogates
    data = (stdin or sys.stdin.buffer).read()
    for bom, codec in ((b"\xff\xfe", "utf-16"), (b"\xfe\xff", "utf-16"), (b"\xef\xbb\xbf", "utf-8-sig")):
        if data.startswith(bom):
            return data.decode(codec, errors="backslashreplace")
    return data.decode("utf-8", errors="backslashreplace")


def main(argv: list[str] | None = None) -> int:
    utf8_output()  # before anything is written: --help and its errors too
    for stream in (sys.stdout, sys.stderr):  # a terminal that cannot show a character (ASCII, Latin-1) gets its escape
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")
    # until the settings are read; --help and its errors speak it too (Windows' own language when no LANG says)
    if problem := i18n.use(i18n.from_locale({"LANG": system_language(), **os.environ})):
        sys.stderr.write(f"{problem}\n")
    parser = _parser()
    argv = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(["--acp", *argv[1:]] if argv[:1] == ["acp"] else argv)
    if args.output_format and args.prompt is None:
        parser.error(_("--output-format needs -p: the REPL writes for a person"))
    if args.acp and (args.prompt is not None or args.latest or args.resume):
        parser.error(_("--acp serves an editor, which opens and loads its own sessions: leave out -p, -c and --resume"))
    if args.until is not None and args.prompt is None:
        parser.error(_('--until needs -p; in the REPL, /goal TEXT --until "COMMAND"'))
    if args.fork and not (args.latest or args.resume):
        parser.error(_("--fork needs -c or --resume: it copies a saved conversation"))
    if args.plan and args.prompt is None:
        parser.error(_("--plan needs -p; in the REPL, /plan or Shift-Tab"))
    if args.plan and args.until is not None:
        parser.error(_("--plan and --until cannot go together: a plan changes nothing, a goal changes things"))
    if args.until is not None and not args.until.strip():
        parser.error(_("--until needs a command that checks the work, such as --until 'pytest -q'"))
    try:
        return _start(args)
    except KeyboardInterrupt:  # Ctrl-C before the conversation could take it: leave quietly, as shells report it
        return EXIT_CODES["cancelled"]


def run() -> NoReturn:
    """`narnat` and `python -m narnat_agent`: the run, then the process ends at once. Everything is written by
    then (the session saved, background commands stopped, each log line flushed as it is written), so the
    interpreter's own teardown, which frees every object one by one (0.2–1 s after the answer), is skipped; the
    exit handlers still run, and the standard streams are flushed; the exit code is kept until the process is gone."""
    from narnat_agent.run.signals import keep_exit_code

    code = main()
    keep_exit_code()
    atexit._run_exitfuncs()  # logging's shutdown and the terminal's restore among them
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # a reader that went away, a stream already closed
            stream.flush()
    os._exit(code)


def _start(args: argparse.Namespace) -> int:
    import dataclasses
    import os
    from pathlib import Path

    from narnat_agent import state
    from narnat_agent.keyguard import seal_process
    from narnat_agent.processes import start_thread
    from narnat_agent.prompts.system_prompt import build_system_prompt
    from narnat_agent.run.headless import run_headless
    from narnat_agent.run.repl import run_repl
    from narnat_agent.run.start import sweep_leftovers

    seal_process()  # before the key is read: no moment when another process could read it from this one
    if args.acp:
        from narnat_agent.acp import run_acp

        return run_acp(args)
    prompt = read_prompt(args.prompt)
    if isinstance(sys.stdin, io.TextIOWrapper):  # the plain REPL's lines: a byte that is not UTF-8 is escaped
        sys.stdin.reconfigure(errors="backslashreplace")
    headless = prompt is not None
    project, home = Path.cwd(), Path.home()
    reporter = _headless_ui(args.output_format or "text") if headless else None
    folder = None if reporter else state.choose_folder(project, home, os.environ)  # the REPL's input history is there
    ui: UI = reporter or _terminal_ui(project, folder[0] if folder else state.project_folder(project))
    if prompt is not None and not prompt.strip():
        ui.error(_("The prompt is empty: pass text after -p, or '-p -' with the prompt on stdin."))
        return USAGE_ERROR
    config = _configuration(ui, project, home, args, ask=not headless and sys.stdin.isatty())
    if config is None:
        return USAGE_ERROR
    state_dir, moved = folder or state.choose_folder(project, home, os.environ)
    config = dataclasses.replace(
        config,
        state_dir=state_dir,
        max_steps=args.max_steps or config.max_steps,
        max_turns=args.max_turns or config.max_turns,
    )
    if config.language and (problem := i18n.use(config.language)):
        ui.notice(problem)
    for notice in (*config.notices, moved) if moved else config.notices:
        ui.notice(str(notice))  # worded now, in the language the settings chose
    ui.use_interrupt_key(config.interrupt_key)
    ui.use_bell(config.bell_after_s if config.bell else None)
    system_prompt = build_system_prompt(config, ui.notice, headless, args.yes)
    sweeper = start_thread(sweep_leftovers, config)
    try:
        if reporter is not None and prompt is not None:
            return run_headless(config, reporter, args, prompt, system_prompt)
        return run_repl(config, ui, args, system_prompt)
    finally:
        sweeper.join()


def _configuration(ui: UI, project: Path, home: Path, args: argparse.Namespace, ask: bool) -> Config | None:
    """The merged settings (after the first-start questions, when `ask` and there is no key), the key then gone
    from the environment; None once a mistake is said."""
    import os

    from narnat_agent.config.loader import ConfigError, MissingApiKey, load_config
    from narnat_agent.keyguard import forget_key_variables

    try:
        try:
            config = load_config(project, home, model=args.model, max_cost=args.max_cost)
        except MissingApiKey:
            if not ask:
                raise
            first_run_setup(ui, project, home)
            config = load_config(project, home, model=args.model, max_cost=args.max_cost)
    except ConfigError as e:
        ui.error(str(e))
        return None
    forget_key_variables(os.environ)
    return config


def _terminal_ui(project: Path, state_dir: Path) -> UI:
    from narnat_agent.commands.dispatch import descriptions
    from narnat_agent.ui.terminal import make_ui

    return make_ui(project, state_dir, descriptions())


def _headless_ui(output_format: str) -> Reporter:
    if output_format == "text":
        from narnat_agent.ui.headless import HeadlessUI

        return HeadlessUI(sys.stdout, sys.stderr, sys.stdin)
    from narnat_agent.ui.events import EventUI

    return EventUI(output_format == "stream-json", sys.stdout, sys.stderr)
