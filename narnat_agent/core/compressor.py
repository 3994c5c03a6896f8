"""The 120-turn compression: the model summarises the conversation into .narnat/last_session_summary.md."""

from pathlib import Path

from narnat_agent import state
from narnat_agent.atomic import write_atomic
from narnat_agent.core.llm import Client, ContextTooLong, Sink
from narnat_agent.core.reply import Ending
from narnat_agent.logger import get_logger
from narnat_agent.prompts.texts import COMPRESSION_PROMPT

ELIDED = "[tool output left out of the summary request]"
log = get_logger("compressor")


def read_summary(state_dir: Path) -> str:
    try:
        return state.summary(state_dir).read_bytes().decode(errors="backslashreplace").strip()  # UTF-8
    except OSError:
        return ""


def clear_summary(state_dir: Path) -> None:
    write_atomic(state.summary(state_dir), b"")


def summarise(client: Client, messages: list[dict], state_dir: Path, sink: Sink) -> str:
    """Ask for the summary (no tools), write it to the summary file and read it back; "" means it failed."""
    copy = [dict(m) for m in messages]
    tool_outputs = [m for m in copy if m["role"] == "tool"]
    while True:
        try:
            reply = client.stream([*copy, {"role": "user", "content": COMPRESSION_PROMPT}], [], sink)
            break
        except ContextTooLong:
            remaining = [m for m in tool_outputs if m["content"] != ELIDED]
            if not remaining:
                raise
            for m in remaining[: max(1, len(remaining) // 4)]:  # the oldest first; pairs stay valid
                m["content"] = ELIDED
            log.info("summary request too long; left out %d old tool outputs", max(1, len(remaining) // 4))
    if reply.ending is not Ending.COMPLETE:  # a cut-off summary would destroy what it left out
        log.warning("summary request did not finish: %s (%s)", reply.ending.value, reply.error or reply.finish_reason)
        return ""
    write_atomic(state.summary(state_dir), reply.content.encode())
    summary = read_summary(state_dir)
    log.info("summary written: %d characters", len(summary))
    return summary


def inherit_summary(state_dir: Path) -> str:
    """A summary left by a run that died between writing and inheriting it; the file is emptied once taken."""
    summary = read_summary(state_dir)
    if summary:
        clear_summary(state_dir)
    return summary
