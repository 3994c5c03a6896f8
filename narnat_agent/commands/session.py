"""Slash commands: /save /show /enter /delete /clear /help /exit, and /rewind /undo /redo from commands/rewind.py.

Each docstring is its help line.
"""

import difflib
from collections.abc import Callable

from narnat_agent.commands import rewind
from narnat_agent.config import session_store
from narnat_agent.config.session_store import SessionError
from narnat_agent.core import session as sessions
from narnat_agent.core.agent import Agent
from narnat_agent.core.snapshot_store import CheckpointError


def save(agent: Agent, arg: str) -> None:
    """/save [name] — save this conversation (default name: the date and time)."""
    name = session_store.check_name(arg or session_store.stamp())
    if not agent.conversation.turns:
        agent.ui.notice("Nothing to save yet: this conversation has no turns.")
        return
    exists = session_store.exists(agent.config.state_dir, name) and name != agent.conversation.name
    if exists and not agent.ui.confirm(f"/save {name}", f"a session named '{name}' exists; overwrite it"):
        agent.ui.notice("Not saved.")
        return
    if exists:
        session_store.claim(agent.config.state_dir, name)
    agent.conversation.name = name
    agent.ui.notice(f"Saved as '{agent.save()}'.")


def show(agent: Agent, arg: str) -> None:
    """/show — list saved sessions, newest first."""
    rows = session_store.listing(agent.config.state_dir)
    if not rows:
        agent.ui.info("No saved sessions yet (/save keeps one).")
        return
    lines = [f"{'name':28} {'turns':>5}  {'last activity':19}  first question"]
    for row in rows:
        first = " ".join(row["first"].split())[:60]
        lines.append(f"{row['name'][:28]:28} {row['turns']:>5}  {row['updated'][:19].replace('T', ' '):19}  {first}")
    agent.ui.info("\n".join(lines))


def enter(agent: Agent, arg: str) -> None:
    """/enter <name> — continue a saved session (the current one is saved first)."""
    if not arg:
        raise SessionError("say which session: /enter <name> (see /show).")
    entered = sessions.load(agent.config.state_dir, arg)
    saved = agent.save()
    agent.switch(entered)
    kept = f"; the previous conversation was saved as '{saved}'" if saved else ""
    agent.ui.notice(f"Entered '{arg}' ({entered.turns} turns){kept}.")


def delete(agent: Agent, arg: str) -> None:
    """/delete <name> — delete a saved session (asks first)."""
    if not arg:
        raise SessionError("say which session: /delete <name> (see /show).")
    if not session_store.exists(agent.config.state_dir, session_store.check_name(arg)):
        raise SessionError(f"there is no session named '{arg}' (see /show).")
    if not agent.ui.confirm(f"/delete {arg}", f"delete the saved session '{arg}'"):
        agent.ui.notice("Not deleted.")
        return
    session_store.delete(agent.config.state_dir, arg)
    agent.ui.notice(f"Deleted '{arg}'.")


def clear(agent: Agent, arg: str) -> None:
    """/clear — start a new conversation (the current one is saved first)."""
    saved = agent.save()
    agent.switch(sessions.new_session(agent.system_prompt))
    agent.ui.notice("New conversation." + (f" The previous one was saved as '{saved}'." if saved else ""))


def help_(agent: Agent, arg: str) -> None:
    """/help — list the commands."""
    agent.ui.info("\n".join(f"  {fn.__doc__}" for fn in COMMANDS.values()))


def exit_(agent: Agent, arg: str) -> bool:
    """/exit — save and leave (Ctrl-D does the same)."""
    return False


COMMANDS: dict[str, Callable[[Agent, str], bool | None]] = {
    "save": save, "show": show, "enter": enter, "delete": delete, "clear": clear,
    "rewind": rewind.rewind, "undo": rewind.undo, "redo": rewind.redo, "help": help_, "exit": exit_,
}  # fmt: skip


def dispatch(agent: Agent, text: str) -> bool:
    """Run one slash command; False means the user is leaving."""
    name, _, arg = text.removeprefix("/").partition(" ")
    command = COMMANDS.get(name.lower())
    if command is None:
        close = difflib.get_close_matches(name.lower(), COMMANDS, n=1, cutoff=0.5)
        hint = f" Did you mean /{close[0]}?" if close else ""
        agent.ui.error(f"Unknown command /{name}.{hint} /help lists them.")
        return True
    try:
        return command(agent, arg.strip()) is not False
    except (SessionError, CheckpointError) as e:
        agent.ui.error(str(e)[0].upper() + str(e)[1:])
        return True
