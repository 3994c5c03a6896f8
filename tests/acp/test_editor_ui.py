"""What the core says, said to an editor, in process: the connection's loop in a thread of its own, as in `narnat acp`,
and the editor's side a client that records what it is sent (the protocol is the boundary)."""

import asyncio
import threading
from pathlib import Path

import pytest
from acp import RequestError
from acp.schema import (
    AllowedOutcome,
    ClientCapabilities,
    DeniedOutcome,
    FileSystemCapabilities,
    ReadTextFileResponse,
    RequestPermissionResponse,
)

from narnat_agent.acp.ui import PLAN, Buffers, EditorUI, Link
from narnat_agent.provider.reply import ToolCall
from narnat_agent.tools.base import Result
from narnat_agent.tools.workspace import Workspace


class Client:
    def __init__(self) -> None:
        self.updates: list[tuple[str, dict]] = []
        self.asked: list[dict] = []
        self.answer: object = "allow"
        self.buffers: dict[str, str] = {}
        self.written: dict[str, str] = {}
        self.files: list[tuple[str, str]] = []  # (session, path) of each file call
        self.hang = asyncio.Event()  # never set: a call on a path ending in "slow" waits for it

    async def session_update(self, session_id, update, **kwargs):
        self.updates.append((session_id, update.model_dump(by_alias=True, exclude_none=True)))

    async def request_permission(self, options, session_id, tool_call, **kwargs):
        self.asked.append({"session": session_id, "call": tool_call.model_dump(by_alias=True, exclude_none=True),
                           "options": [(o.option_id, o.name, o.kind) for o in options]})  # fmt: skip
        if isinstance(self.answer, BaseException):
            raise self.answer
        if self.answer == "cancelled":
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(outcome=AllowedOutcome(outcome="selected", option_id=str(self.answer)))

    async def read_text_file(self, session_id, path, **kwargs):
        self.files.append((session_id, path))
        if path.endswith("slow"):
            await self.hang.wait()
        if path not in self.buffers:
            raise ConnectionError("no buffer")
        return ReadTextFileResponse(content=self.buffers[path])

    async def write_text_file(self, session_id, path, content, **kwargs):
        self.files.append((session_id, path))
        if path.endswith("slow"):
            await self.hang.wait()
        if path.endswith("refused"):
            raise ConnectionError("read-only")
        self.written[path] = content


@pytest.fixture
def link():
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    fs = ClientCapabilities(fs=FileSystemCapabilities(read_text_file=True, write_text_file=True))
    yield Link(loop, Client(), fs)  # type: ignore[arg-type]
    loop.call_soon_threadsafe(loop.stop)
    thread.join(5)
    loop.close()


def _texts(client: Client) -> list[str]:
    return [u["content"]["text"] for _, u in client.updates if u["sessionUpdate"] == "agent_message_chunk"]


def test_what_is_said_to_the_editors_log_before_a_prompt_is_inert(link, capsys):
    # stderr is the editor's log, and a terminal when narnat acp is run by hand: a command file's name is anybody's
    EditorUI(link, "s1").notice(".narnat/commands/e\x1b]0;pwned\x07\u202e.md is not a command")
    assert capsys.readouterr().err == "! .narnat/commands/e␛]0;pwned␇\\u202e.md is not a command\n"


def test_what_is_said_before_a_prompt_is_held_and_opens_its_reply(link, capsys):
    ui = EditorUI(link, "s1")
    ui.notice("the settings file moved")
    ui.error("no key")
    assert link.client.updates == [] and ui.errors == ["no key"]
    assert capsys.readouterr().err == "! the settings file moved\n✗ no key\n"
    ui.begin()
    ui.warning("careful")
    ui.error("the provider failed")
    ui.info("plain")
    assert ui.errors == ["no key"]  # an error said in a reply is not why the session could not open
    assert _texts(link.client) == ["\n\n! the settings file moved\n\n", "\n\n✗ no key\n\n", "\n\n⚠ careful\n\n",
                                   "\n\n✗ the provider failed\n\n", "\n\nplain\n\n"]  # fmt: skip
    assert {session for session, _ in link.client.updates} == {"s1"}
    ui.end()
    assert not ui.answering and ui.stream is None
    ui.info("after")
    assert ui.held == ["after"]


def test_a_turns_answer_and_reasoning_stream_as_they_come(link):
    ui = EditorUI(link, "s1")
    ui.begin()
    turn = ui.turn_view()
    assert ui.stream is turn and turn.cancelled is False
    turn.feed_reasoning("thinking")
    turn.feed("Answer")
    assert [(u["sessionUpdate"], u["content"]["text"]) for _, u in link.client.updates] == [
        ("agent_thought_chunk", "thinking"),
        ("agent_message_chunk", "Answer"),
    ]
    compressing = ui.begin_compressing()
    ui.cancel()
    assert turn.cancelled and compressing.cancelled
    ui.end_compressing()
    assert ui.compressing is None
    assert _texts(link.client)[-2:] == ["\n\n… Compressing the conversation (summarising it for a fresh context)…\n\n",
                                        "\n\n… Compression finished.\n\n"]  # fmt: skip


def test_cancel_without_a_turn_stops_nothing(link):
    ui = EditorUI(link, "s1")
    ui.cancel()
    compressing = ui.begin_compressing()
    ui.cancel()
    assert compressing.cancelled and ui.stream is None


def test_a_question_is_a_permission_request_and_only_allow_is_a_yes(link, tmp_path):
    ui = EditorUI(link, "s1")
    assert ui.confirm("rm -rf build", "deletes files") is True
    asked = link.client.asked[-1]
    assert asked["session"] == "s1"
    assert asked["call"] == {"toolCallId": "question-1", "title": "deletes files",
                             "content": [{"content": {"text": "deletes files:\n\n    rm -rf build", "type": "text"},
                                          "type": "content"}]}  # fmt: skip
    assert asked["options"] == [("allow", "Run it", "allow_once"), ("reject", "Do not run it", "reject_once")]
    link.client.answer = "reject"
    assert ui.confirm("rm x", "deletes") is False
    assert link.client.asked[-1]["call"]["toolCallId"] == "question-2"
    link.client.answer = "cancelled"
    assert ui.confirm("rm x", "deletes") is False
    assert "not offered" not in "".join(ui.held)  # the editor's own answers say nothing
    link.client.answer = "allow_always"  # an option the editor made up
    assert ui.confirm("rm x", "deletes") is False
    assert ui.held[-1] == "! The editor answered with an option that was not offered (allow_always): taken as no."
    link.client.answer = ConnectionError("gone")
    assert ui.confirm("rm x", "deletes") is False
    link.client.answer = ValueError("bad answer")
    assert ui.confirm("rm x", "deletes") is False
    link.client.answer = asyncio.CancelledError()  # the request withdrawn while the editor showed it
    assert ui.confirm("rm x", "deletes") is False
    ui.workspace = Workspace(tmp_path, tmp_path / ".narnat", confirm=None)
    link.client.answer = "allow"
    ui.tool_start("Bash(rm x)", ToolCall("call-7", "Bash", "{}", {"command": "rm x"}))
    assert ui.confirm("rm x", "deletes") is True
    assert link.client.asked[-1]["call"]["toolCallId"] == "call-7"  # the question is about the call shown


def test_a_tool_call_starts_and_ends_once(link, tmp_path):
    ui = EditorUI(link, "s1")
    ui.workspace = Workspace(tmp_path, tmp_path / ".narnat", confirm=None)
    ui.tool_end(Result("nothing", "nothing"))  # no call runs yet: nothing is said
    ui.tool_start("Read(a.py)", ToolCall("call-1", "Read", "{}", {"file_path": "a.py"}))
    ui.tool_end(Result("a.py", "1 line"))
    ui.tool_end(Result("again", "again"))  # no call runs: nothing is said
    kinds = [(u["sessionUpdate"], u.get("status")) for _, u in link.client.updates]
    assert kinds == [("tool_call", "in_progress"), ("tool_call_update", "completed")]
    assert link.client.updates[0][1]["locations"] == [{"path": str(tmp_path / "a.py")}]
    assert ui.running is None


def test_plan_mode_switched_by_a_command_is_told_once(link):
    ui = EditorUI(link, "s1")
    ui.planning(False)
    assert link.client.updates == []
    ui.planning(True)
    ui.planning(True)
    assert [u for _, u in link.client.updates] == [{"currentModeId": "plan", "sessionUpdate": "current_mode_update"}]
    assert ui.mode == PLAN
    ui.planning(False)
    assert [u for _, u in link.client.updates][-1]["currentModeId"] == "default"


def test_tables_diffs_separators_and_a_question_given_back(link):
    ui = EditorUI(link, "s1")
    ui.begin()
    ui.table(["name", "a|b"], [["x", "1"]])
    ui.review("turn 1", "-a\n+b")
    ui.review("nothing changed", "")
    ui.separator("Session")
    ui.give_back("what was it?")
    assert _texts(link.client) == [
        "\n\n| name | a\\|b |\n| --- | --- |\n| x | 1 |\n\n",
        "\n\nturn 1\n```diff\n-a\n+b\n```\n\n",
        "\n\nnothing changed\n\n",
        "\n\n── Session ──\n\n",
        "\n\n! Your question, to edit and send again:\nwhat was it?\n\n",
    ]
    assert ui.read_input() is None and ui.ask("Key?", "none") == "none" and ui.take_sent(lambda t: True) == []
    assert ui.stop_reading() is False


def test_an_update_said_on_the_connections_own_thread_is_sent_without_waiting(link):
    ui = EditorUI(link, "s1")
    ui.begin()

    async def on_the_loop() -> None:
        ui.info("from the loop")
        await asyncio.sleep(0.01)

    asyncio.run_coroutine_threadsafe(on_the_loop(), link.loop).result(5)
    assert _texts(link.client) == ["\n\nfrom the loop\n\n"] and link.client.updates[0][0] == "s1"


@pytest.mark.filterwarnings("ignore:coroutine .* was never awaited")  # the closed loop refused it
def test_an_update_on_a_closed_connection_is_dropped():
    loop = asyncio.new_event_loop()
    loop.close()  # the connection is gone: its loop takes nothing more
    client = Client()
    ui = EditorUI(Link(loop, client, None), "s1")  # type: ignore[arg-type]
    ui.begin()
    ui.info("lost")
    assert client.updates == [] and ui.confirm("rm x", "deletes") is False


def test_the_editors_buffers_are_read_and_written(link):
    ui = EditorUI(link, "s9")
    assert link.edits_files()
    buffers = Buffers(ui)
    link.client.buffers["/p/a.py"] = "unsaved"
    assert buffers.text(Path("/p/a.py")) == "unsaved"
    assert buffers.text(Path("/p/b.py")) is None  # no buffer: the disk's text
    buffers.wrote(Path("/p/a.py"), "new")
    buffers.wrote(Path("/p/refused"), "lost")
    assert link.client.written == {"/p/a.py": "new"}
    assert {session for session, _ in link.client.files} == {"s9"}


def test_an_editor_that_does_not_answer_in_time_leaves_the_disk(link):
    buffers = Buffers(EditorUI(link, "s9"), wait=0.05)
    assert buffers.text(Path("/p/slow")) is None
    buffers.wrote(Path("/p/slow"), "text")
    assert link.client.written == {} and len(link.client.files) == 2


def test_an_editor_without_both_file_calls_keeps_the_disk(link):
    read_only = ClientCapabilities(fs=FileSystemCapabilities(read_text_file=True, write_text_file=False))
    assert not Link(link.loop, link.client, read_only).edits_files()
    write_only = ClientCapabilities(fs=FileSystemCapabilities(read_text_file=False, write_text_file=True))
    assert not Link(link.loop, link.client, write_only).edits_files()
    assert not Link(link.loop, link.client, None).edits_files()


def test_an_editor_that_answers_a_question_with_an_error_is_a_no(link):
    """An editor without permission requests answers "method not found"; one whose dialog failed, an internal error."""
    ui = EditorUI(link, "s1")
    for error in (RequestError.method_not_found("session/request_permission"), RequestError.internal_error()):
        link.client.answer = error
        assert ui.confirm("rm -rf build", "deletes files") is False
