"""Checkpoints: snapshots of the project before each change, and the restores behind /rewind, /undo and /redo.

`Checkpoints` keeps a conversation's entries (`timeline.Entry`, typed, converted at the session file by
`timeline.load`/`timeline.dump`) over a store from `open_store` and the journal of the runs that share it
(`open_checkpoints` opens both); a rewind returns a `Plan` to confirm, and takes
the conversation back only through the `Cut` its caller hands it, as the messages are not the store's business.
"""

from narnat_agent.checkpoints.entries import Entry, Rewind, Taken, Turn
from narnat_agent.checkpoints.plans import Plan
from narnat_agent.checkpoints.store import CheckpointError, FileChange
from narnat_agent.checkpoints.timeline import (
    NO_COMMANDS,
    Checkpoints,
    Cut,
    FileDiff,
    TurnSummary,
    open_checkpoints,
    open_store,
)  # fmt: skip

__all__ = ["NO_COMMANDS", "CheckpointError", "Checkpoints", "Cut", "Entry", "FileChange", "FileDiff", "Plan", "Rewind",
           "Taken", "Turn", "TurnSummary", "open_checkpoints", "open_store"]  # fmt: skip
