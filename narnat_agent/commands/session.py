"""Slash commands: /save /show /enter /delete /clear /jobs /help /exit, /model /compact /context from
commands/conversation.py, /rewind /undo /redo from commands/rewind.py, and the user's own from commands/custom.py."""

import difflib
from collections.abc import Callable, Mapping

from narnat_agent.checkpoints import CheckpointError
from narnat_agent.commands import conversation, help_line, helps, rewind
from narnat_agent.commands.custom import UserCommand
from narnat_agent.conversation import session as sessions
from narnat_agent.conversation import store
from narnat_agent.conversation.store import SessionError
from narnat_agent.core.agent import Agent
from narnat_agent.i18n import N_, _, ngettext
from narnat_agent.provider.errors import LLMError
from narnat_agent.state import commands_folders, skills_folders
from narnat_agent.ui import cells


@helps(N_("/save [name]"), N_("save this conversation (default name: the date and time)"))
def save(agent: Agent, arg: str) -> None:
    name = store.check_name(arg or store.stamp())
    if not agent.conversation.turns:
        agent.ui.notice(_("Nothing to save yet: this conversation has no turns."))
        return
    exists = store.exists(agent.config.state_dir, name) and name != agent.conversation.name
    if exists and not agent.ui.confirm(
        f"/save {name}", _("a session named '{name}' exists; overwrite it").format(name=name)
    ):
        agent.ui.notice(_("Not saved."))
        return
    if exists:
        store.claim(agent.config.state_dir, name)
    agent.conversation.name = name
    agent.ui.notice(_("Saved as '{name}'.").format(name=agent.save()))


@helps("/show", N_("list saved sessions, newest first"))
def show(agent: Agent, arg: str) -> None:
    rows = store.listing(agent.config.state_dir)
    if not rows:
        agent.ui.info(_("No saved sessions yet (/save keeps one)."))
        return
    table = [[row["name"], str(row["turns"]), row["updated"][:19].replace("T", " "), " ".join(row["first"].split())]
             for row in rows]  # fmt: skip
    agent.ui.table([_("name"), _("turns"), _("last activity"), _("first question")], table)


@helps(N_("/enter <name>"), N_("continue a saved session (the current one is saved first)"))
def enter(agent: Agent, arg: str) -> None:
    if not arg:
        raise SessionError(_("say which session: /enter <name> (see /show)."))
    entered = sessions.load(agent.config.state_dir, arg)
    saved = agent.save()
    agent.switch(entered)
    turns = entered.turns
    agent.ui.separator(ngettext("{name} · {n} turn", "{name} · {n} turns", turns).format(name=arg, n=turns))
    for who, text in recap(agent.conversation.messages):
        agent.ui.notice(_("{who}: {text}").format(who=_(who), text=text))
    if saved:
        agent.ui.notice(
            _("Entered '{name}'; the previous conversation was saved as '{saved}'.").format(name=arg, saved=saved)
        )
    else:
        agent.ui.notice(_("Entered '{name}'.").format(name=arg))


@helps(N_("/delete <name>"), N_("delete a saved session (asks first)"))
def delete(agent: Agent, arg: str) -> None:
    if not arg:
        raise SessionError(_("say which session: /delete <name> (see /show)."))
    if not store.exists(agent.config.state_dir, store.check_name(arg)):
        raise SessionError(_("there is no session named '{name}' (see /show).").format(name=arg))
    if not agent.ui.confirm(f"/delete {arg}", _("delete the saved session '{name}'").format(name=arg)):
        agent.ui.notice(_("Not deleted."))
        return
    store.delete(agent.config.state_dir, arg)
    agent.ui.notice(_("Deleted '{name}'.").format(name=arg))


@helps("/clear", N_("start a new conversation (the current one is saved first)"))
def clear(agent: Agent, arg: str) -> None:
    saved = agent.save()
    agent.switch(sessions.new_session(agent.system_prompt))
    agent.ui.separator(_("new conversation"))
    if saved:
        agent.ui.notice(_("The previous one was saved as '{name}'.").format(name=saved))


@helps("/jobs", N_("the background commands Bash started, and whether they still run (they stop when Narnat does)"))
def jobs(agent: Agent, arg: str) -> None:
    started = agent.workspace.jobs.started
    if not started:
        agent.ui.info(_("No background commands."))
        return
    rows = [[str(job.number), str(job.pid), job.state, agent.workspace.show(job.log), job.command] for job in started]
    agent.ui.table([_("job"), _("pid"), _("state"), _("output"), _("command")], rows)


LISTED = 20  # the user's own commands /help names; the others it counts

KEYS = (
    ("Enter", N_("send (while the agent works: queued, sent when the turn ends)")),
    ("Alt-Enter, Ctrl-J", N_("new line (pasted text stays one message)")),
    ("Esc", N_("stop the answer or the running tool (interrupt_key in the config)")),
    ("Ctrl-C", N_("clear the line; while the agent works, stop it")),
    ("Ctrl-D", N_("leave, saving the conversation (like /exit)")),
    ("Tab", N_("complete /commands and @paths")),
    ("Up, Down", N_("earlier questions")),
    ("@path", N_("mention a file: the model is asked to Read it")),
)


@helps("/help", N_("the commands, the keys, and where the config and the logs are"))
def help_(agent: Agent, arg: str, user: Mapping[str, UserCommand] | None = None) -> None:
    state = agent.config.state_dir
    rows = [help_line(command) for command in COMMANDS.values()]
    mine = [(_("/{name} [arguments]").format(name=name), command.description)
            for name, command in list((user or {}).items())[:LISTED]]  # fmt: skip
    if len(user or {}) > LISTED:
        more = len(user or {}) - LISTED
        mine.append(
            (
                ngettext(
                    "… {n:,} more command of your own, in the folders under Files",
                    "… {n:,} more commands of your own, in the folders under Files",
                    more,
                ).format(n=more),
                "",
            )
        )
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
    agent.ui.info("\n".join(f"{title}\n" + "\n".join(f"  {cells.ljust(a, 18)} {b}".rstrip() for a, b in lines)
                            for title, lines in sections if lines))  # fmt: skip


def descriptions() -> dict[str, str]:
    """Each command's help line, by name, as Tab's completions show it."""
    return {name: help_line(command)[1] for name, command in COMMANDS.items()}


def recap(messages: list[dict], width: int = 160) -> list[tuple[str, str]]:
    """Where a conversation stopped: its last question and the start of the last answer, one line each."""
    said = [(m["role"], m["content"]) for m in messages
            if m["role"] in ("user", "assistant") and isinstance(m.get("content"), str) and m["content"]]  # fmt: skip
    last = {role: text for role, text in said}
    lines = []
    for role, who in (("user", N_("you")), ("assistant", N_("model"))):
        if role in last:
            text = " ".join(last[role].split("<system-reminder>", 1)[0].split())
            lines.append((who, text if len(text) <= width else text[: width - 1] + "…"))
    return lines


@helps("/exit", N_("save and leave (Ctrl-D does the same)"))
def exit_(agent: Agent, arg: str) -> bool:
    return False


COMMANDS: dict[str, Callable[[Agent, str], bool | None]] = {
    "save": save, "show": show, "enter": enter, "delete": delete, "clear": clear,
    "model": conversation.model, "compact": conversation.compact, "context": conversation.context,
    "rewind": rewind.rewind, "undo": rewind.undo, "redo": rewind.redo, "jobs": jobs, "help": help_, "exit": exit_,
}  # fmt: skip


def dispatch(agent: Agent, text: str, user: Mapping[str, UserCommand] | None = None) -> bool | str:
    """Run one slash command; False means the user is leaving, a text is the question a command of the user's
    own stands for."""
    name, __, arg = text.removeprefix("/").partition(" ")
    name, user = name.lower(), user or {}
    if name not in COMMANDS and name in user:
        return user[name].question(arg.strip())
    if name not in COMMANDS:
        close = difflib.get_close_matches(name, [*COMMANDS, *user], n=1, cutoff=0.5)
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
        return COMMANDS[name](agent, arg.strip()) is not False
    except (SessionError, CheckpointError, LLMError) as e:
        agent.ui.error(str(e)[0].upper() + str(e)[1:])
        return True
