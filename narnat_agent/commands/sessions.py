"""The saved conversations: /save /show /enter /delete /fork /clear."""

from narnat_agent.commands import command
from narnat_agent.conversation import session as sessions
from narnat_agent.conversation import store
from narnat_agent.conversation.store import SessionError
from narnat_agent.core.agent import Agent
from narnat_agent.i18n import N_, _, ngettext
from narnat_agent.keyguard import redact


@command(N_("/save [name]"), N_("save this conversation (default name: the date and time)"))
def save(agent: Agent, arg: str) -> None:
    name = store.check_name(arg or store.stamp())
    if not agent.conversation.worth_saving:
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


@command("/show", N_("list saved sessions, newest first"))
def show(agent: Agent, arg: str) -> None:
    rows = store.listing(agent.config.state_dir)
    if not rows:
        agent.ui.info(_("No saved sessions yet (/save keeps one)."))
        return
    table = [
        [row["name"], str(row["turns"]), row["updated"][:19].replace("T", " "), " ".join(row["first"].split())]
        for row in rows
    ]
    agent.ui.table([_("name"), _("turns"), _("last activity"), _("first question")], table)


@command(N_("/enter <name>"), N_("continue a saved session (the current one is saved first)"))
def enter(agent: Agent, arg: str) -> None:
    if not arg:
        raise SessionError(_("say which session: /enter <name> (see /show)."))
    entered, note = sessions.resumed(agent.config.state_dir, arg)
    saved = agent.save()
    agent.switch(entered)
    turns = entered.turns
    agent.ui.separator(ngettext("{name} · {n} turn", "{name} · {n} turns", turns).format(name=arg, n=turns))
    for who, text in recap(agent.conversation.messages):
        agent.ui.notice(_("{who}: {text}").format(who=_(who), text=redact(text, agent.workspace.secret)))
    if saved:
        agent.ui.notice(
            _("Entered '{name}'; the previous conversation was saved as '{saved}'.").format(name=arg, saved=saved)
        )
    else:
        agent.ui.notice(_("Entered '{name}'.").format(name=arg))
    if note:
        agent.ui.notice(note)


@command(N_("/delete <name>"), N_("delete a saved session (asks first)"))
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


@command("/clear", N_("start a new conversation (the current one is saved first)"))
def clear(agent: Agent, arg: str) -> None:
    saved = agent.save()
    agent.switch(sessions.new_session(agent.system_prompt))
    agent.ui.separator(_("new conversation"))
    if saved:
        agent.ui.notice(_("The previous one was saved as '{name}'.").format(name=saved))


@command(
    N_("/fork [name]"), N_("go on from here in a new saved conversation; this one stays as it is (/undo works in both)")
)
def fork(agent: Agent, arg: str) -> None:
    if not agent.conversation.turns:
        agent.ui.notice(_("Nothing to fork yet: this conversation has no turns."))
        return
    forked = sessions.fork(agent.session, agent.config.state_dir, arg)
    origin = agent.save()
    agent.switch(forked)
    name = agent.save()
    agent.ui.separator(_("fork {name}").format(name=name))
    agent.ui.notice(_("This conversation goes on as '{name}'; '{origin}' stays as it was (/enter {origin}).")
                    .format(name=name, origin=origin))  # fmt: skip


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
