"""Slash commands: /save /show /enter /delete /clear /jobs /help /exit, and /rewind /undo /redo from commands/rewind.py.

Each docstring is its help line.
"""

import difflib
from collections.abc import Callable

from narnat_agent.checkpoints import CheckpointError
from narnat_agent.commands import rewind
from narnat_agent.core import session as sessions
from narnat_agent.core import session_store
from narnat_agent.core.agent import Agent
from narnat_agent.core.session_store import SessionError


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
    table = [[row["name"], str(row["turns"]), row["updated"][:19].replace("T", " "), " ".join(row["first"].split())]
             for row in rows]  # fmt: skip
    agent.ui.table(["name", "turns", "last activity", "first question"], table)


def enter(agent: Agent, arg: str) -> None:
    """/enter <name> — continue a saved session (the current one is saved first)."""
    if not arg:
        raise SessionError("say which session: /enter <name> (see /show).")
    entered = sessions.load(agent.config.state_dir, arg)
    saved = agent.save()
    agent.switch(entered)
    kept = f"; the previous conversation was saved as '{saved}'" if saved else ""
    agent.ui.separator(f"{arg} · {entered.turns} turn{'s' if entered.turns != 1 else ''}")
    for who, text in recap(agent.conversation.messages):
        agent.ui.notice(f"{who}: {text}")
    agent.ui.notice(f"Entered '{arg}'{kept}.")


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
    agent.ui.separator("new conversation")
    if saved:
        agent.ui.notice(f"The previous one was saved as '{saved}'.")


def jobs(agent: Agent, arg: str) -> None:
    """/jobs — the background commands Bash started, and whether they still run (they stop when Narnat does)."""
    started = agent.workspace.jobs.started
    if not started:
        agent.ui.info("No background commands.")
        return
    rows = [[str(job.number), str(job.pid), job.state, agent.workspace.show(job.log), job.command] for job in started]
    agent.ui.table(["job", "pid", "state", "output", "command"], rows)


KEYS = (
    ("Enter", "send (while the agent works: queued, sent when the turn ends)"),
    ("Alt-Enter, Ctrl-J", "new line (pasted text stays one message)"),
    ("Esc", "stop the answer or the running tool (interrupt_key in the config)"),
    ("Ctrl-C", "clear the line; while the agent works, stop it"),
    ("Ctrl-D", "leave, saving the conversation (like /exit)"),
    ("Tab", "complete /commands and @paths"),
    ("Up, Down", "earlier questions"),
    ("@path", "mention a file: the model is asked to Read it"),
)


def help_(agent: Agent, arg: str) -> None:
    """/help — the commands, the keys, and where the config and the logs are."""
    state = agent.config.state_dir
    rows = [doc.split(" — ", 1) for doc in (fn.__doc__ or "" for fn in COMMANDS.values())]
    files = (
        ("config", f"~/.narnat/narnat.json, then {state / 'narnat.json'} (NARNAT_* variables win)"),
        ("instructions", f"~/.narnat/narnat.md, {state / 'narnat.md'}, AGENTS.md"),
        ("sessions", str(state / "sessions")),
        ("logs", f"{state / 'logs'} (one file per start)"),
    )
    sections = (("Commands", rows), ("Keys", KEYS), ("Files", files))
    agent.ui.info("\n".join(f"{title}\n" + "\n".join(f"  {a:<18} {b}" for a, b in lines) for title, lines in sections))


def recap(messages: list[dict], width: int = 160) -> list[tuple[str, str]]:
    """Where a conversation stopped: its last question and the start of the last answer, one line each."""
    said = [(m["role"], m["content"]) for m in messages
            if m["role"] in ("user", "assistant") and isinstance(m.get("content"), str) and m["content"]]  # fmt: skip
    last = {role: text for role, text in said}
    lines = []
    for role, who in (("user", "you"), ("assistant", "model")):
        if role in last:
            text = " ".join(last[role].split("<system-reminder>", 1)[0].split())
            lines.append((who, text if len(text) <= width else text[: width - 1] + "…"))
    return lines


def exit_(agent: Agent, arg: str) -> bool:
    """/exit — save and leave (Ctrl-D does the same)."""
    return False


COMMANDS: dict[str, Callable[[Agent, str], bool | None]] = {
    "save": save, "show": show, "enter": enter, "delete": delete, "clear": clear,
    "rewind": rewind.rewind, "undo": rewind.undo, "redo": rewind.redo, "jobs": jobs, "help": help_, "exit": exit_,
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
