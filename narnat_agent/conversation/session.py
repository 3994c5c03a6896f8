"""One conversation and everything that belongs to it, saved and loaded as one value.

What the model has read, its todo list and the checkpoints of its changes go with the conversation: a
/clear drops them, /enter and --resume bring back those of the conversation entered.
"""

import contextlib
import copy
import dataclasses
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from narnat_agent.checkpoints import entries
from narnat_agent.conversation import store
from narnat_agent.conversation.context import Conversation
from narnat_agent.i18n import _
from narnat_agent.tools.workspace import FileRecord, ToolState


@dataclass
class Session:
    conversation: Conversation
    tool_state: ToolState = field(default_factory=ToolState)
    checkpoints: list[entries.Entry] = field(default_factory=list)
    checkpoints_damaged: bool = False  # the session file's were, and were dropped
    cost: float | None = None
    notes: list[str] = field(default_factory=list)  # told to the model with the next question (e.g. files rewound)

    @property
    def name(self) -> str:
        return self.conversation.name

    @property
    def turns(self) -> int:
        return self.conversation.turns


def new_session(system_prompt: str, summary: str = "", name: str | None = None) -> Session:
    return Session(Conversation(system_prompt, name=name, summary=summary))


def fork(session: Session, state_dir: Path, name: str = "") -> Session:
    """A copy that goes on on its own under a new name (by default NAME-fork, -fork-2, …): the messages, what the
    model has read, the todos, the cost so far and the checkpoints, whose snapshots the two share in the store, so
    /undo works in both."""
    name = store.check_name(name) if name else _fork_name(state_dir, session.name)
    if store.exists(state_dir, name):
        raise store.SessionError(
            _("a session named '{name}' exists already; fork under another name.").format(name=name)
        )
    copied = copy.deepcopy(session)
    copied.conversation.name, copied.conversation.created = name, datetime.now()
    return copied


def _fork_name(state_dir: Path, origin: str) -> str:
    base = f"{origin}-fork"[:94]
    return next(n for n in (base, *(f"{base}-{i}" for i in range(2, 1000))) if not store.exists(state_dir, n))


def to_dict(session: Session, model: str) -> dict:
    conversation = session.conversation
    reads = {str(path): dataclasses.asdict(record) for path, record in session.tool_state.reads.items()}
    return {"model": model, "created": conversation.created.isoformat(), "turns": conversation.turns,
            "todos": session.tool_state.todos, "reads": reads, "checkpoints": entries.dump(session.checkpoints),
            "cost": session.cost, "notes": session.notes, "messages": conversation.messages}  # fmt: skip


def from_dict(name: str, data: dict) -> Session:
    """A session from its saved form; records that no longer fit are dropped (the model reads those files again)."""
    conversation = Conversation(data["messages"][0]["content"], name)
    conversation.messages = data["messages"]
    conversation.turns = data["turns"]
    with contextlib.suppress(ValueError, TypeError):
        conversation.created = datetime.fromisoformat(data.get("created", ""))
    reads = {}
    for path, record in (data.get("reads") or {}).items():
        with contextlib.suppress(TypeError):
            reads[Path(path)] = FileRecord(**record)
    cost = data.get("cost")
    try:
        checkpoints, damaged = entries.load(data.get("checkpoints")), False
    except entries.Damaged:
        checkpoints, damaged = [], True
    return Session(conversation, ToolState(reads, list(data.get("todos") or [])), checkpoints, damaged,
                   cost if isinstance(cost, (int, float)) else None, list(data.get("notes") or []))  # fmt: skip


def save(state_dir: Path, session: Session, model: str, name: str | None = None) -> store.Saved:
    """Write the session under its own name (or `name`); saved beside another process's, it goes on there."""
    saved = store.save(state_dir, name or session.name, to_dict(session, model))
    if saved.note and not name:
        session.conversation.name = saved.name
    return saved


def load(state_dir: Path, name: str) -> Session:
    return from_dict(name, store.load(state_dir, store.check_name(name)))


def resumed(state_dir: Path, name: str) -> tuple[Session, str]:
    """A saved conversation to go on with, and what to tell the person: an archive of a compacted conversation goes
    on under a new name, since saved under its own it would be an archive no more."""
    session = load(state_dir, name)
    if not store.is_archive(name):
        return session, ""
    session.conversation.name = store.stamp()
    note = _("'{archive}' is the archive of a compacted conversation: it stays as it is, and this goes on as '{name}'.")
    return session, note.format(archive=name, name=session.name)
