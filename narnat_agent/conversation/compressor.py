"""The 120-turn compression: the model summarises the conversation into .narnat/last_session_summary.md, and a new
conversation goes on from it while the old one is archived."""

from pathlib import Path
from typing import Protocol

from narnat_agent import state
from narnat_agent.atomic import write_atomic
from narnat_agent.config.settings import Config
from narnat_agent.conversation import session as sessions
from narnat_agent.conversation import store
from narnat_agent.conversation.session import Session
from narnat_agent.i18n import _
from narnat_agent.logger import get_logger
from narnat_agent.prompts.texts import COMPRESSION_PROMPT, KEEP, LEFT_OUT
from narnat_agent.provider.client import Client, Sink
from narnat_agent.provider.errors import ContextTooLong, LLMError
from narnat_agent.provider.reply import Ending, Reply
from narnat_agent.tools import registry

ELIDED = "[tool output left out of the summary request]"
ELIDED_ANSWER = "[answer left out of the summary request]"
log = get_logger("compressor")


class Progress(Protocol):
    """What compressing shows: the summary as it streams, then how it ended (every UI is one)."""

    def begin_compressing(self) -> Sink: ...
    def end_compressing(self) -> None: ...
    def notice(self, text: str) -> None: ...
    def error(self, text: str) -> None: ...


def read_summary(state_dir: Path) -> str:
    try:
        return state.summary(state_dir).read_bytes().decode(errors="backslashreplace").strip()  # UTF-8
    except OSError:
        return ""


def clear_summary(state_dir: Path) -> None:
    write_atomic(state.summary(state_dir), b"")


def _leave_out(copy: list[dict], role: str, marker: str) -> int:
    """Replace the oldest quarter (at least one) of the role's remaining texts; calls and results stay paired."""
    remaining = [m for m in copy if m["role"] == role and m.get("content") and m["content"] != marker]
    chosen = remaining[: max(1, len(remaining) // 4)]
    for m in chosen:
        m["content"] = marker
    return len(chosen)


def _request(client: Client, messages: list[dict], instruction: str, sink: Sink) -> tuple[Reply, str]:
    """The summary's reply, and what its request left out to fit the window: the oldest tool outputs, then the
    oldest answers; never the user's questions."""
    copy = [dict(m) for m in messages]
    while True:
        try:
            # the turns' tools too, though none may be called: the request then shares their prefix, which the
            # provider has cached
            reply = client.stream([*copy, {"role": "user", "content": instruction}], registry.schemas(), sink)
            break
        except ContextTooLong:
            if not (_leave_out(copy, "tool", ELIDED) or _leave_out(copy, "assistant", ELIDED_ANSWER)):
                raise
            log.info("summary request too long; leaving out more of the oldest tool outputs and answers")
    counts = (
        (sum(m["content"] == marker for m in copy), what)
        for marker, what in ((ELIDED, "tool outputs"), (ELIDED_ANSWER, "answers"))
    )
    parts = [f"{n} oldest {what}" for n, what in counts if n]
    return reply, LEFT_OUT.format(what=" and the ".join(parts)) if parts else ""


def summarise(client: Client, messages: list[dict], state_dir: Path, sink: Sink, keep: str) -> str:
    """Ask for the summary (no tool may be called), write it to the summary file and read it back; "" means it failed.

    `keep` is the user's own words on what the summary must keep (/compact's argument)."""
    instruction = f"{COMPRESSION_PROMPT}\n\n{KEEP.format(keep=keep)}" if keep else COMPRESSION_PROMPT
    reply, note = _request(client, messages, instruction, sink)
    if reply.ending is not Ending.COMPLETE:  # a cut-off summary would destroy what it left out
        log.warning("summary request did not finish: %s (%s)", reply.ending.value, reply.error or reply.finish_reason)
        return ""
    text = f"{note}\n\n{reply.content}" if note and reply.content.strip() else reply.content
    write_atomic(state.summary(state_dir), text.encode())
    summary = read_summary(state_dir)
    log.info("summary written: %d characters", len(summary))
    return summary


def inherit_summary(state_dir: Path) -> str:
    """A summary left by a run that died between writing and inheriting it; the file is emptied once taken."""
    summary = read_summary(state_dir)
    if summary:
        clear_summary(state_dir)
    return summary


def compressed(
    old: Session, client: Client, ui: Progress, config: Config, system_prompt: str, keep: str
) -> Session | None:
    """The conversation that goes on from a summary of `old` (keeping what the user asks to), with `old` archived;
    None, and why said to the user, when there is none."""
    log.info("compression started: turns=%d, prompt_tokens=%d", old.turns, old.conversation.last_prompt_tokens)
    failure = _("Compression failed: no complete summary came back; the conversation is unchanged.")
    sink = ui.begin_compressing()
    try:
        summary = summarise(client, old.conversation.messages, config.state_dir, sink, keep)
    except LLMError as e:
        log.warning("compression request failed: %s", e)
        summary = ""
    except KeyboardInterrupt:
        log.info("compression cancelled by the user")
        summary = ""
    except OSError as e:  # the summary file could not be written (a full disk)
        summary = ""
        failure = _(
            "Compression failed: the summary could not be saved ({why}); free some space. "
            "The conversation is unchanged."
        ).format(why=e.strerror)
    finally:
        ui.end_compressing()  # before any failure is said, so that it is the last line
    if not summary:
        ui.error(failure)
        return None
    archive = f"{store.ARCHIVE}{store.stamp()}"
    try:
        sessions.save(config.state_dir, old, config.model, archive)
    except store.SessionError as e:
        ui.error(_("Compression failed: {why} The conversation is unchanged.").format(why=e))
        return None
    successor = sessions.new_session(system_prompt, summary, name=old.name)
    successor.checkpoints, successor.cost = old.checkpoints, old.cost
    # what the model had read it may still edit: Edit checks old_string against the file, and a file changed since
    # is caught as before (its hash)
    successor.tool_state.reads = dict(old.tool_state.reads)
    clear_summary(config.state_dir)
    log.info("compression done: archived as %s, summary %d characters", archive, len(summary))
    ui.notice(_("Compressed: the old conversation is saved as '{name}'; this one starts from its summary.")
              .format(name=archive))  # fmt: skip
    return successor
