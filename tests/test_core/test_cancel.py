"""Cancelling a turn keeps the partial answer and leaves a history the provider accepts."""

from narnat_agent.ui.plain import PlainStream
from tests.fake_llm import SSE, chunk, text_reply, tool_reply


class CancelAfter(PlainStream):
    """The user presses ESC after `n` pieces of text have been shown."""

    def __init__(self, ui, n):
        super().__init__(ui)
        self.left = n

    def feed(self, text):
        super().feed(text)
        self.left -= 1
        if self.left == 0:
            self.cancelled = True


def test_cancel_while_streaming_keeps_partial_text_and_drops_unfinished_calls(harness, fake_llm):
    h = harness()
    h.ui.turn_view = lambda: CancelAfter(h.ui, 1)
    fragment = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "Read", "arguments": "{"}}
    fake_llm.add(SSE([chunk({"content": "Looking"}), chunk({"tool_calls": [fragment]}), chunk({"content": " more"})]))
    h.agent.turn("go")
    interrupted = {"role": "assistant", "content": "Looking\n\n[interrupted by the user]"}
    assert h.conversation.messages[-1] == interrupted
    assert "Cancelled" in h.err.getvalue()
    fake_llm.add(text_reply("fresh"))
    h.ui.turn_view = lambda: PlainStream(h.ui)
    h.agent.turn("next")
    assert fake_llm.requests[-1]["messages"][-2:] == [interrupted, {"role": "user", "content": "next"}]


def test_ctrl_c_during_a_tool_answers_every_call(harness, fake_llm, project):
    (project / "a.txt").write_text("a\n")
    h = harness()
    starts = []
    original = h.ui.tool_start

    def tool_start(header, call):
        starts.append(header)
        if len(starts) == 2:
            raise KeyboardInterrupt
        original(header, call)

    h.ui.tool_start = tool_start
    fake_llm.add(tool_reply(("Read", {"file_path": "a.txt"}), ("Read", {"file_path": "a.txt", "limit": 1})))
    h.agent.turn("go")
    tools = [m for m in h.conversation.messages if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tools] == ["call_0_Read", "call_1_Read"]
    assert "1\ta" in tools[0]["content"] and tools[1]["content"].startswith("Cancelled by the user")


def test_a_command_stopped_midway_reports_what_it_printed(harness, fake_llm, project):
    import signal
    import threading
    import time

    h = harness()
    mark = project / "started.mark"
    main = threading.main_thread().ident

    def press_escape_once_it_printed() -> None:  # what the interrupt watcher does on Esc
        while not mark.exists():
            time.sleep(0.02)
        signal.pthread_kill(main, signal.SIGINT)

    threading.Thread(target=press_escape_once_it_printed, daemon=True).start()
    fake_llm.add(tool_reply(("Bash", {"command": "echo started; touch started.mark; sleep 30; echo done"})))
    outcome = h.agent.turn("go")
    [result] = [m["content"] for m in h.conversation.messages if m["role"] == "tool"]
    assert outcome.stop.value == "cancelled"
    assert result.startswith("started\n") and "cancelled by the user" in result and "done" not in result
