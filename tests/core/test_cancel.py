"""Cancelling a turn keeps the partial answer and leaves a history the provider accepts."""

import signal
import threading

from narnat_agent.commands.dispatch import dispatch
from narnat_agent.core.turn import Stop
from tests.fake_llm import SSE, chunk, text_reply, tool_reply
from tests.keys import press_at
from tests.web_server import Page


def test_cancel_while_streaming_keeps_partial_text_and_drops_unfinished_calls(harness, fake_llm):
    h = harness(interrupts=press_at("text", 1))
    fragment = {"index": 0, "id": "call_1", "type": "function", "function": {"name": "Read", "arguments": "{"}}
    fake_llm.add(SSE([chunk({"content": "Looking"}), chunk({"tool_calls": [fragment]}), chunk({"content": " more"})]))
    h.agent.turn("go")
    interrupted = {"role": "assistant", "content": "Looking\n\n[interrupted by the user]"}
    assert h.conversation.messages[-1] == interrupted
    assert "Cancelled" in h.err.getvalue()
    fake_llm.add(text_reply("fresh"))
    h.agent.turn("next")
    assert fake_llm.requests[-1]["messages"][-2:] == [interrupted, {"role": "user", "content": "next"}]


def test_ctrl_c_between_tools_answers_every_call(harness, fake_llm, project):
    (project / "a.txt").write_text("a\n")
    h = harness(interrupts=press_at("tool", 2))
    fake_llm.add(tool_reply(("Read", {"file_path": "a.txt"}), ("Read", {"file_path": "a.txt", "limit": 1})))
    h.agent.turn("go")
    tools = [m for m in h.conversation.messages if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in tools] == ["call_0_Read", "call_1_Read"]
    assert "1\ta" in tools[0]["content"] and tools[1]["content"].startswith("Cancelled by the user")


def test_ctrl_c_while_a_web_page_loads_ends_the_turn_as_cancelled(harness, fake_llm, web):
    main = threading.main_thread().ident
    web.route("/slow", Page("<p>late</p>", on_request=lambda: signal.pthread_kill(main, signal.SIGINT)))
    h = harness()
    fake_llm.add(tool_reply(("WebFetch", {"url": f"{web.url}/slow"})), text_reply("the turn went on"))
    outcome = h.agent.turn("go")
    [result] = [m["content"] for m in h.conversation.messages if m["role"] == "tool"]
    assert outcome.stop is Stop.CANCELLED and result.startswith("Cancelled by the user")
    assert len(fake_llm.requests) == 1 and "Cancelled." in h.err.getvalue()


def test_a_command_stopped_midway_reports_what_it_printed(harness, fake_llm, project):
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


def test_undo_gives_back_what_a_command_changed_before_it_was_stopped(harness, fake_llm, project):
    import time

    (project / "a.txt").write_text("before\n")
    (project / "gen.py").write_text("open('a.txt', 'w').write('after\\n')\n")
    h = harness()
    main = threading.main_thread().ident

    def press_escape_once_it_wrote() -> None:  # the change is made; the command has not ended
        while (project / "a.txt").read_text() != "after\n" and time.monotonic() < deadline:
            time.sleep(0.02)
        signal.pthread_kill(main, signal.SIGINT)

    deadline = time.monotonic() + 10
    threading.Thread(target=press_escape_once_it_wrote, daemon=True).start()
    fake_llm.add(tool_reply(("Bash", {"command": "python3 gen.py; sleep 30"})))
    assert h.agent.turn("go").stop is Stop.CANCELLED
    dispatch(h.agent, "/undo")
    assert (project / "a.txt").read_text() == "before\n"
