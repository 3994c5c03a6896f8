"""Running a slash command: the built-in ones (those of commands/sessions.py, conversation.py, modes.py and
rewind.py, then /jobs /help /exit below, in the order /help lists them) and the user's own from commands/custom.py."""

import difflib
import shutil
from collections.abc import Mapping

from narnat_agent.checkpoints import CheckpointError
from narnat_agent.commands import REGISTRY, SlashCommand, command, conversation, modes, rewind, sessions
from narnat_agent.commands.custom import UserCommand
from narnat_agent.conversation.store import SessionError
from narnat_agent.core.agent import Agent
from narnat_agent.core.goal import GoalRefused
from narnat_agent.i18n import N_, _, ngettext, spoken
from narnat_agent.provider.errors import LLMError
from narnat_agent.state import commands_folders, skills_folders
from narnat_agent.ui import cells

# /help lists the commands by module in this order, each module's as they are defined
SHOWN_IN = [module.__name__ for module in (sessions, conversation, modes, rewind)] + [__name__]


@command("/jobs", N_("the background commands Bash started, and whether they still run (they stop when Narnat does)"),
         at_once=True)  # fmt: skip
def jobs(agent: Agent, arg: str) -> None:
    started = agent.workspace.jobs.started
    if not started:
        agent.ui.info(_("No background commands."))
        return
    rows = [[str(job.number), str(job.pid), spoken(job.state), agent.workspace.show(job.log), job.command]
            for job in started]  # fmt: skip
    agent.ui.table([_("job"), _("pid"), _("state"), _("output"), _("command")], rows)


LISTED = 20  # the user's own commands /help names; the others it counts

KEYS = (
    ("Enter", N_("send (while the agent works: delivered after its running tool call, or when the turn ends)")),
    ("Shift-Tab", N_("plan mode on or off")),
    ("Alt-Enter, Ctrl-J", N_("new line (pasted text stays one message)")),
    ("Esc", N_("stop the answer or the running tool (interrupt_key in the config)")),
    ("Ctrl-C", N_("clear the line; while the agent works, stop it")),
    ("Ctrl-D", N_("leave, saving the conversation (like /exit)")),
    ("Tab", N_("complete /commands and @paths")),
    ("Up, Down", N_("earlier questions")),
    ("@path", N_("mention a file: the model is asked to Read it")),
)


@command("/help", N_("the commands, the keys, and where the config and the logs are"), at_once=True)
def help_(agent: Agent, arg: str, user: Mapping[str, UserCommand] | None = None) -> None:
    state = agent.config.state_dir
    rows = [slash.help() for __, slash in listed()]
    mine = [(_("/{name} [arguments]").format(name=name), command.description)
            for name, command in list((user or {}).items())[:LISTED]]  # fmt: skip
    if (more := len(user or {}) - LISTED) > 0:
        counted = ngettext(
            "… {n:,} more command of your own, in the folders under Files",
            "… {n:,} more commands of your own, in the folders under Files",
            more,
        ).format(n=more)
        mine.append((counted, ""))  # a line of its own, outside the columns
    commands = ", ".join(f"{d}/NAME.md" for d in commands_folders(agent.config.project, agent.config.home))
    skills = ", ".join(f"{d}/*/SKILL.md" for d in skills_folders(agent.config.project, agent.config.home))
    files = (
        (
            _("config"),
            _("~/.narnat/narnat.json, then {path} (NARNAT_* variables win)").format(path=state / "narnat.json"),
        ),
        (_("instructions"), f"~/.narnat/narnat.md, {state / 'narnat.md'}, AGENTS.md"),
        (_("sessions"), str(state / "sessions")),
        (_("logs"), _("{path} (one file per start)").format(path=state / "logs")),
        (_("your commands"), _("{paths} ($ARGUMENTS is filled in)").format(paths=commands)),
        (_("skills"), _("{paths} (a name and a description)").format(paths=skills)),
    )
    keys = [(key, _(what)) for key, what in KEYS]
    sections = ((_("Commands"), rows), (_("Your commands"), mine), (_("Keys"), keys), (_("Files"), files))
    column = max(cells.width(usage) for __, lines in sections for usage, line in lines if line)
    room = max(shutil.get_terminal_size((100, 24)).columns - column - 3, 20)
    agent.ui.info("\n".join(f"{title}\n" + "\n".join(_row(a, b, column, room) for a, b in lines)
                            for title, lines in sections if lines))  # fmt: skip


def _row(usage: str, line: str, column: int, room: int) -> str:
    """One row of /help: the usage padded to the column, its line wrapped to the room left, under itself."""
    if not line:
        return f"  {usage}"
    first, *rest = cells.wrap(line, room) or [""]
    return "\n".join([f"  {cells.ljust(usage, column)} {first}", *(" " * (column + 3) + more for more in rest)])


def listed() -> list[tuple[str, SlashCommand]]:
    """The built-in commands by name, in /help's order."""
    return sorted(REGISTRY.items(), key=lambda item: _place(item[1].run.__module__))


def _place(module: str) -> int:
    return SHOWN_IN.index(module) if module in SHOWN_IN else len(SHOWN_IN)


def descriptions() -> dict[str, str]:
    """Each command's help line, by name, as Tab's completions show it."""
    return {name: slash.help()[1] for name, slash in listed()}


@command("/exit", N_("save and leave (Ctrl-D does the same)"))
def exit_(agent: Agent, arg: str) -> bool:
    return False


def at_once(agent: Agent, line: str) -> bool:
    """Run a command sent while the agent works, when it only shows something (/jobs, /context, /diff, /help);
    False leaves the line queued for the turn's end."""
    name = line.strip().removeprefix("/").split(" ", 1)[0].lower()
    if not line.strip().startswith("/") or name not in REGISTRY or not REGISTRY[name].at_once:
        return False
    dispatch(agent, line.strip())
    return True


def dispatch(agent: Agent, text: str, user: Mapping[str, UserCommand] | None = None) -> bool | str:
    """Run one slash command; False means the user is leaving, a text is the question a command of the user's
    own stands for."""
    name, __, arg = text.removeprefix("/").partition(" ")
    name, user = name.lower(), user or {}
    if name not in REGISTRY and name in user:
        return user[name].question(arg.strip())
    if name not in REGISTRY:
        close = difflib.get_close_matches(name, [*REGISTRY, *user], n=1, cutoff=0.5)
        unknown = (
            _("Unknown command /{name}. Did you mean /{close}? /help lists them.")
            if close
            else _("Unknown command /{name}. /help lists them.")
        )
        agent.ui.error(unknown.format(name=name, close=close[0] if close else ""))
        return True
    try:
        if name == "help":
            help_(agent, arg, user)
            return True
        return REGISTRY[name].run(agent, arg.strip()) is not False
    except (SessionError, CheckpointError, LLMError, GoalRefused) as e:
        agent.ui.error(str(e)[0].upper() + str(e)[1:])
        return True
