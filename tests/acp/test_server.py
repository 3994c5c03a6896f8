"""The protocol's server in process: `serve` on this thread (it runs the turns, as `narnat acp`'s main thread does)
over a pair of sockets, and the editor's side the protocol's own client on a loop of its own (the boundary)."""

import asyncio
import dataclasses
import json
import shlex
import signal
import socket
import sys
import threading
from argparse import Namespace
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import pytest
from acp import RequestError, connect_to_agent, image_block, resource_link_block, text_block

from narnat_agent import __version__
from narnat_agent.acp.server import serve
from narnat_agent.acp.sessions import Settings
from narnat_agent.platform.signals import ENDING
from tests.acp.editor import KEY, Editor, environment, until
from tests.fake_llm import SSE, Status, chunk, text_reply, tool_reply, usage
from tests.platforms import posix_only
from tests.processes import ended

pytestmark = posix_only("session/cancel reaches the turn as a SIGINT to this thread, as on POSIX")

Script = Callable[[Any], Awaitable[Any]]
Ours = Callable[..., Awaitable[tuple[asyncio.StreamReader, asyncio.StreamWriter]]]


@pytest.fixture(autouse=True)
def handlers() -> Iterator[None]:
    """serve takes SIGINT and the ending signals for its run: the test run gets its own back."""
    saved = {signum: signal.getsignal(signum) for signum in (signal.SIGINT, *ENDING)}
    yield
    for signum, handler in saved.items():
        signal.signal(signum, handler)


def served(project, fake_llm, script: Script, editor: Editor | None = None, initialize: bool = True,
           ours: Ours = asyncio.open_connection, **flags) -> tuple:  # fmt: skip
    """The exit code of a run that `script` drove from the editor's side until it hung up, and what it returned;
    `ours` makes Narnat's end of the connection from its socket."""
    editor = editor or Editor()
    narnats, theirs = socket.socketpair()
    results: dict[str, Any] = {}

    async def client() -> None:
        reader, writer = await asyncio.open_connection(sock=theirs)
        conn = connect_to_agent(editor, writer, reader)
        try:
            if initialize:
                results["initialized"] = await conn.initialize(
                    protocol_version=1, client_capabilities=editor.capabilities()
                )
            results["value"] = await script(conn)
        except BaseException as e:  # said in the test's own thread
            results["error"] = e
        finally:
            writer.close()

    thread = threading.Thread(target=asyncio.run, args=(client(),))
    thread.start()
    returned = threading.Event()
    threading.Thread(target=stop_if_hung, args=(thread, returned), daemon=True).start()
    args = Namespace(**({"model": None, "max_cost": None, "max_steps": None} | flags))
    settings = Settings(args, environment(project, fake_llm.base_url), project.parent / "home")
    code = serve(settings, lambda: ours(sock=narnats))
    returned.set()
    thread.join(10)  # at once, but where the editor still waits for an answer that will never come
    if "error" in results:
        raise results["error"]
    return code, results.get("value"), results.get("initialized")


def stop_if_hung(client: threading.Thread, returned: threading.Event) -> None:
    """serve returns once the editor has hung up; should it not, the signal that ends a run stops it, and the hang is
    a failure (its exit code) within seconds, not at the suite's timeout."""
    client.join()
    if not returned.wait(10):
        signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGTERM)


async def opened(conn, project) -> str:
    return (await conn.new_session(cwd=str(project), mcp_servers=[])).session_id


async def ask(conn, session_id: str, text: str) -> str:
    return (await conn.prompt(session_id=session_id, prompt=[text_block(text)])).stop_reason


def test_a_client_initializes_opens_a_session_asks_and_hangs_up(project, fake_llm):
    fake_llm.add(text_reply("Hello from Narnat."))
    editor = Editor()

    async def script(conn):
        sid = await opened(conn, project)
        return sid, await ask(conn, sid, "hi")

    code, (sid, stop), initialized = served(project, fake_llm, script, editor)
    assert code == 0 and stop == "end_turn"
    assert initialized.protocol_version == 1 and initialized.auth_methods == []
    assert (initialized.agent_info.name, initialized.agent_info.title) == ("narnat", "Narnat")
    assert initialized.agent_info.version == __version__
    capabilities = initialized.agent_capabilities
    assert capabilities.load_session is True
    prompts = capabilities.prompt_capabilities
    assert (prompts.image, prompts.audio, prompts.embedded_context) == (False, False, False)
    assert (capabilities.mcp_capabilities.http, capabilities.mcp_capabilities.sse) == (False, False)
    assert editor.text() == "Hello from Narnat."
    [commands] = editor.seen("available_commands_update")
    assert "undo" in [c.name for c in commands.available_commands]
    assert (project / ".narnat" / "sessions" / f"{sid}.json").is_file()  # saved after the turn
    assert fake_llm.requests[0]["messages"][-1]["content"] == "hi"


def test_a_newer_client_is_answered_in_the_version_narnat_speaks(project, fake_llm):
    async def script(conn):
        return await conn.initialize(protocol_version=99, client_capabilities=Editor().capabilities())

    __, answer, __ = served(project, fake_llm, script)
    assert answer.protocol_version == 1


def test_a_session_before_initialize_is_refused(project, fake_llm):
    async def script(conn):
        with pytest.raises(RequestError) as refused:
            await opened(conn, project)
        return refused.value

    __, refused, __ = served(project, fake_llm, script, initialize=False)
    assert refused.code == -32600 and str(refused) == "Initialize the connection first."


def test_a_prompt_for_a_session_not_open_says_how_to_open_it(project, fake_llm):
    async def script(conn):
        with pytest.raises(RequestError) as refused:
            await ask(conn, "nowhere", "hi")
        with pytest.raises(RequestError) as mode:
            await conn.set_session_mode(session_id="nowhere", mode_id="plan")
        await conn.cancel(session_id="nowhere")  # nothing runs there: nothing to stop
        return refused.value, mode.value

    __, (refused, mode), __ = served(project, fake_llm, script)
    said = "There is no session nowhere in this run; open it with session/load."
    assert (refused.code, str(refused)) == (-32602, said) and (mode.code, str(mode)) == (-32602, said)
    assert not fake_llm.requests


def test_commands_an_editor_does_not_offer_are_refused_and_blank_prompts_ask_nothing(project, fake_llm):
    editor = Editor()

    async def script(conn):
        sid = await opened(conn, project)
        return [await ask(conn, sid, text) for text in ("/exit", "/REWIND 2", "   ", "/help")]

    __, stops, __ = served(project, fake_llm, script, editor)
    assert stops == ["end_turn"] * 4 and not fake_llm.requests
    said = editor.text()
    assert "/exit is not offered in an editor: the editor closes the session." in said
    assert "/rewind is not offered in an editor: the questions it asks need the terminal; /undo and /redo work " in said
    assert "/compact" in said  # /help answered


def test_a_slash_command_after_blank_space_is_the_command_not_a_question(project, fake_llm):
    # an editor's prompt box keeps what a person typed before the slash: a space, an empty first line
    editor = Editor()

    async def script(conn):
        sid = await opened(conn, project)
        return [await ask(conn, sid, text) for text in (" /help", "\n/exit")]

    __, stops, __ = served(project, fake_llm, script, editor)
    assert stops == ["end_turn"] * 2 and not fake_llm.requests
    said = editor.text()
    assert "/compact" in said and "/exit is not offered in an editor: the editor closes the session." in said


def test_a_users_own_command_is_asked_as_its_question(project, fake_llm):
    (project / ".narnat" / "commands").mkdir(parents=True)
    (project / ".narnat" / "commands" / "review.md").write_text("Review $ARGUMENTS closely.\n")
    fake_llm.add(text_reply("Reviewed."))

    async def script(conn):
        return await ask(conn, await opened(conn, project), "/review app.py")

    __, stop, __ = served(project, fake_llm, script)
    assert stop == "end_turn" and fake_llm.requests[0]["messages"][-1]["content"] == "Review app.py closely."


def test_a_prompt_refused_for_what_it_carries_leaves_the_session_free_for_the_next(project, fake_llm):
    fake_llm.add(text_reply("Looked."))

    async def script(conn):
        sid = await opened(conn, project)
        with pytest.raises(RequestError) as refused:
            await conn.prompt(session_id=sid, prompt=[text_block("see"), image_block("iVBORw0KGgo=", "image/png")])
        return refused.value, await ask(conn, sid, "look again")

    __, (refused, stop), __ = served(project, fake_llm, script)
    assert (refused.code, str(refused)) == (-32602, "Narnat takes text and files in a prompt, not image.")
    assert stop == "end_turn" and fake_llm.requests[0]["messages"][-1]["content"] == "look again"


def test_how_a_turn_ended_is_the_prompts_stop_reason(project, fake_llm):
    (project / "a.txt").write_text("a\n")
    cut = SSE([chunk({"content": "partial"}), chunk(finish="length"), usage()])
    fake_llm.add(cut, text_reply("fine"))
    fake_llm.add(*(tool_reply(("Read", {"file_path": "a.txt", "offset": n})) for n in (1, 2)))

    async def script(conn):
        sid = await opened(conn, project)
        return [await ask(conn, sid, text) for text in ("one", "two", "three")]

    __, stops, __ = served(project, fake_llm, script, max_steps=2)
    assert stops == ["max_tokens", "end_turn", "max_turn_requests"]


@pytest.mark.slow
def test_a_saved_session_is_told_again_when_loaded_and_its_mode_chosen(project, fake_llm):
    fake_llm.add(text_reply("First answer."), text_reply("Second answer."))
    first, second = Editor(), Editor()

    async def save(conn):
        sid = await opened(conn, project)
        await ask(conn, sid, "first question")
        return sid

    __, sid, __ = served(project, fake_llm, save, first)

    async def load(conn):
        loaded = await conn.load_session(cwd=str(project), session_id=sid, mcp_servers=[])
        await conn.set_session_mode(session_id=sid, mode_id="plan")
        return loaded, await ask(conn, sid, "second question")

    __, (loaded, stop), __ = served(project, fake_llm, load, second)
    assert loaded.modes.current_mode_id == "default" and stop == "end_turn"
    assert second.text("user_message_chunk") == "first question"
    assert second.text().startswith("First answer.") and second.text().endswith("Second answer.")
    assert second.seen("available_commands_update")
    sent = fake_llm.requests[1]["messages"]
    assert [m["content"] for m in sent if m["role"] == "user"][0] == "first question"
    assert "plan mode" in sent[-1]["content"].lower()


def test_a_session_loaded_again_in_the_run_that_opened_it_is_told_again(project, fake_llm):
    # the editor closed the session's tab and opened it again: it shows what the session holds, as from a file
    fake_llm.add(text_reply("First answer."))
    editor = Editor()

    async def script(conn):
        sid = await opened(conn, project)
        await ask(conn, sid, "first question")
        told = len(editor.updates)
        loaded = await conn.load_session(cwd=str(project), session_id=sid, mcp_servers=[])
        # sent after the answer: hung up on before it, it is an error
        await until(lambda: len(editor.seen("available_commands_update")) >= 2)
        return told, loaded

    __, (told, loaded), __ = served(project, fake_llm, script, editor)
    again = editor.updates[told:]
    assert loaded.modes.current_mode_id == "default"
    user = [u.content.text for u in again if u.session_update == "user_message_chunk"]
    answer = [u.content.text for u in again if u.session_update == "agent_message_chunk"]
    assert user == ["first question"] and answer == ["First answer."]


def test_cancel_stops_the_running_turn_and_a_second_prompt_waits_its_turn(project, fake_llm):
    fake_llm.add(tool_reply(("Bash", {"command": "sleep 30"})), text_reply("Asked again."))
    editor = Editor()

    async def script(conn):
        sid = await opened(conn, project)
        turn = asyncio.ensure_future(ask(conn, sid, "wait"))
        while not editor.seen("tool_call"):
            await asyncio.sleep(0.02)
        with pytest.raises(RequestError) as busy:
            await ask(conn, sid, "meanwhile")
        with pytest.raises(RequestError) as mode:
            await conn.set_session_mode(session_id=sid, mode_id="plan")
        with pytest.raises(RequestError) as load:
            await conn.load_session(cwd=str(project), session_id=sid, mcp_servers=[])
        await conn.cancel(session_id=sid)
        stopped = await turn
        return busy.value, mode.value, load.value, stopped, await ask(conn, sid, "go on")

    __, (busy, mode, load, stopped, again), __ = served(project, fake_llm, script, editor)
    assert stopped == "cancelled" and again == "end_turn"
    running = f"A turn is already running (session {busy_id(busy)}): wait for it to end, or cancel it."
    assert (busy.code, str(busy)) == (-32600, running)
    assert (mode.code, str(mode)) == (
        -32600,
        "This session is answering a prompt; change the mode once the turn is over, or cancel it.",
    )
    assert (load.code, str(load)) == (-32602, "This session is answering a prompt; load it once the turn is over.")


def busy_id(error: RequestError) -> str:
    return str(error).split("(session ", 1)[1].split(")", 1)[0]


def test_the_key_never_reaches_the_editor(project, fake_llm):
    fake_llm.add(text_reply(f"The key is {KEY}."))
    editor = Editor()

    async def script(conn):
        return await ask(conn, await opened(conn, project), "what is the key?")

    served(project, fake_llm, script, editor)
    assert KEY not in editor.text() and "[API key]" in editor.text()


def test_a_signal_that_ends_the_run_stops_the_turn_and_says_so_in_the_exit_code(project, fake_llm):
    fake_llm.add(tool_reply(("Bash", {"command": "sleep 30"})))
    editor = Editor()
    main = threading.main_thread().ident or 0

    async def script(conn):
        sid = await opened(conn, project)
        turn = asyncio.ensure_future(ask(conn, sid, "wait"))
        while not editor.seen("tool_call"):
            await asyncio.sleep(0.02)
        signal.pthread_kill(main, signal.SIGTERM)
        return await turn

    code, stopped, __ = served(project, fake_llm, script, editor)
    assert code == 128 + signal.SIGTERM and stopped == "cancelled"


def test_a_second_signal_keeps_the_first_ones_exit_code(project, fake_llm):
    # closing the editor's terminal sends a SIGHUP after the SIGTERM that began the end: the run says the first
    fake_llm.add(tool_reply(("Bash", {"command": "sleep 30"})))
    editor = Editor()
    main = threading.main_thread().ident or 0

    async def script(conn):
        sid = await opened(conn, project)
        turn = asyncio.ensure_future(ask(conn, sid, "wait"))
        while not editor.seen("tool_call"):
            await asyncio.sleep(0.02)
        signal.pthread_kill(main, signal.SIGTERM)
        stopped = await turn
        signal.pthread_kill(main, signal.SIGHUP)
        return stopped

    code, stopped, __ = served(project, fake_llm, script, editor)
    assert code == 128 + signal.SIGTERM and stopped == "cancelled"


def test_the_mode_of_an_idle_session_changes_while_another_sessions_turn_runs(project, fake_llm):
    fake_llm.add(tool_reply(("Bash", {"command": "sleep 30"})))
    editor = Editor()

    async def script(conn):
        working, idle = await opened(conn, project), await opened(conn, project)
        turn = asyncio.ensure_future(ask(conn, working, "wait"))
        while not editor.seen("tool_call"):
            await asyncio.sleep(0.02)
        await conn.set_session_mode(session_id=idle, mode_id="plan")  # answered at once, not refused as busy
        await conn.cancel(session_id=working)
        return await turn

    __, stopped, __ = served(project, fake_llm, script, editor)
    assert stopped == "cancelled"


def test_a_cancel_for_an_idle_session_leaves_the_other_sessions_turn_alone(project, fake_llm):
    slow = SSE([chunk({"content": word}) for word in ("Slow ", "but ", "whole.")] + [chunk(finish="stop"), usage()])
    fake_llm.add(dataclasses.replace(slow, delay=0.05))
    editor = Editor()

    async def script(conn):
        working, idle = await opened(conn, project), await opened(conn, project)
        turn = asyncio.ensure_future(ask(conn, working, "take your time"))
        while not editor.seen("agent_message_chunk"):
            await asyncio.sleep(0.01)
        await conn.cancel(session_id=idle)
        return await turn

    __, stop, __ = served(project, fake_llm, script, editor)
    assert stop == "end_turn" and editor.text() == "Slow but whole."


def test_the_background_commands_of_the_editors_sessions_end_with_the_run(project, fake_llm):
    serving = "import os, time\nopen('server.pid', 'w').write(str(os.getpid()))\ntime.sleep(300)\n"
    (project / "serve.py").write_text(serving)
    server = {"command": f"{shlex.quote(sys.executable)} serve.py", "run_in_background": True}
    fake_llm.add(tool_reply(("Bash", server)), text_reply("Started."))
    pid = project / "server.pid"

    async def script(conn):
        stop = await ask(conn, await opened(conn, project), "start the server")
        while not pid.is_file() or not pid.read_text().strip():
            await asyncio.sleep(0.02)
        return stop

    __, stop, __ = served(project, fake_llm, script)
    assert stop == "end_turn" and ended(pid)


def test_an_editor_that_hangs_up_in_the_middle_of_a_turn_stops_it(project, fake_llm):
    fake_llm.add(tool_reply(("Bash", {"command": "sleep 10 && touch finished"})))
    editor = Editor()

    async def script(conn):
        asyncio.ensure_future(ask(conn, await opened(conn, project), "wait"))
        while not editor.seen("tool_call"):
            await asyncio.sleep(0.02)

    code, __, __ = served(project, fake_llm, script, editor)
    assert code == 0 and not (project / "finished").exists()


def test_an_editor_that_hangs_up_during_a_turn_ends_the_run_quietly_with_the_conversation_saved(project, fake_llm):
    fake_llm.add(tool_reply(("Bash", {"command": "sleep 30"})))
    editor = Editor()

    async def script(conn):
        sid = await opened(conn, project)
        asyncio.ensure_future(ask(conn, sid, "wait"))
        while not editor.seen("tool_call"):
            await asyncio.sleep(0.02)
        return sid  # and the editor hangs up, its prompt unanswered

    code, sid, __ = served(project, fake_llm, script, editor)
    assert code == 0
    saved = json.loads((project / ".narnat" / "sessions" / f"{sid}.json").read_text())
    assert [m["content"] for m in saved["messages"] if m["role"] == "user"][-1] == "wait"
    assert saved["messages"][-1]["role"] == "tool"  # the stopped call is answered: the history stays valid


class Stalling(asyncio.StreamWriter):
    """Narnat's end of a connection whose editor stops reading once it has been sent `STOP_AFTER`: the wait for that
    write to go out ends only when the write is withdrawn."""

    STOP_AFTER = b"bad name.md is not a command"

    def __init__(self, *args: Any, waiting: threading.Event):
        super().__init__(*args)
        self.waiting = waiting  # set once Narnat waits on the editor
        self.stopped = False

    def write(self, data) -> None:
        super().write(data)
        self.stopped = self.stopped or self.STOP_AFTER in data

    async def drain(self) -> None:
        if self.stopped:
            self.waiting.set()
            try:
                await asyncio.Event().wait()
            finally:
                self.stopped = False
        await super().drain()


def stalling(waiting: threading.Event) -> Ours:
    async def connect(sock: socket.socket) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader()
        protocol = asyncio.StreamReaderProtocol(reader)
        transport, __ = await loop.create_connection(lambda: protocol, sock=sock)
        return reader, Stalling(transport, protocol, reader, loop, waiting=waiting)

    return connect


def test_a_signal_that_ends_the_run_while_narnat_waits_on_the_editor_answers_the_prompt_as_cancelled(project, fake_llm):
    commands = project / ".narnat" / "commands"
    commands.mkdir(parents=True)
    (commands / "bad name.md").write_text("x\n")  # its notice waits for the first prompt, whose reply opens with it
    main = threading.main_thread().ident or 0
    waiting = threading.Event()

    async def script(conn):
        turn = asyncio.ensure_future(ask(conn, await opened(conn, project), "hi"))
        while not waiting.is_set():
            await asyncio.sleep(0.02)
        signal.pthread_kill(main, signal.SIGTERM)  # Narnat is saying the notice, outside the turn's own handling
        return await turn

    code, stop, __ = served(project, fake_llm, script, ours=stalling(waiting))
    assert code == 128 + signal.SIGTERM and stop == "cancelled" and not fake_llm.requests


def test_a_cancel_stops_the_running_command_midway_and_its_call_ends_said_so(project, fake_llm):
    fake_llm.add(tool_reply(("Bash", {"command": "touch started && sleep 25"})))
    editor = Editor()

    async def script(conn):
        sid = await opened(conn, project)
        turn = asyncio.ensure_future(ask(conn, sid, "wait"))
        while not (project / "started").exists():  # the command runs
            await asyncio.sleep(0.02)
        await conn.cancel(session_id=sid)
        return await turn

    __, stop, __ = served(project, fake_llm, script, editor)
    [end] = editor.seen("tool_call_update")
    assert stop == "cancelled" and end.status == "failed" and len(fake_llm.requests) == 1
    said = end.content[0].content.text
    assert said == "(cancelled by the user; the command and its children were stopped; no output)"


def test_an_error_no_turn_handles_is_said_and_the_session_goes_on(project, fake_llm):
    too_long = Status(400, {"error": {"message": "This model's maximum context length is 8192 tokens."}})
    fake_llm.add(too_long, text_reply("## Summary\nA greeting."), too_long, text_reply("Shorter now."))
    editor = Editor()

    async def script(conn):
        sid = await opened(conn, project)
        return [await ask(conn, sid, text) for text in ("hi", "hi again")]

    __, stops, __ = served(project, fake_llm, script, editor)
    assert stops == ["end_turn", "end_turn"] and editor.text().endswith("Shorter now.")
    failed = (
        "✗ Unexpected error (ContextTooLong: The conversation no longer fits the model's context window (This model's "
        "maximum context length is 8192 tokens.).); the conversation is kept."
    )
    assert failed in editor.text()


def test_a_conversation_that_cannot_be_saved_says_why_in_the_reply(project, fake_llm):
    fake_llm.add(text_reply("Hello."))
    editor = Editor()

    async def script(conn):
        sid = await opened(conn, project)
        (project / ".narnat" / "sessions").write_text("")  # a file where the sessions' folder goes
        return sid, await ask(conn, sid, "hi")

    __, (sid, stop), __ = served(project, fake_llm, script, editor)
    assert stop == "end_turn"
    folder = project / ".narnat" / "sessions"
    said = f"✗ Cannot save '{sid}' in {folder} (File exists); make it writable or free space, then save again."
    assert editor.text() == f"Hello.\n\n{said}\n\n"


def test_a_new_session_offers_its_modes_and_a_file_attached_is_mentioned_from_its_folder(project, fake_llm):
    (project / "app.py").write_text("print('hi')\n")
    fake_llm.add(text_reply("Read it."))

    async def script(conn):
        new = await conn.new_session(cwd=str(project), mcp_servers=[])
        blocks = [text_block("look at"), resource_link_block("app.py", (project / "app.py").as_uri())]
        await conn.prompt(session_id=new.session_id, prompt=blocks)
        return new

    __, new, __ = served(project, fake_llm, script)
    assert new.modes.current_mode_id == "default"
    assert [mode.id for mode in new.modes.available_modes] == ["default", "plan"]
    assert fake_llm.requests[0]["messages"][-1]["content"].startswith("look at @app.py ")


def test_a_prompt_while_another_sessions_turn_runs_is_refused_naming_that_session(project, fake_llm):
    fake_llm.add(tool_reply(("Bash", {"command": "touch started && sleep 25"})))

    async def script(conn):
        working, other = await opened(conn, project), await opened(conn, project)
        turn = asyncio.ensure_future(ask(conn, working, "wait"))
        while not (project / "started").exists():
            await asyncio.sleep(0.02)
        with pytest.raises(RequestError) as busy:
            await ask(conn, other, "meanwhile")
        await conn.cancel(session_id=working)
        await turn
        return working, busy.value

    __, (working, busy), __ = served(project, fake_llm, script)
    said = f"A turn is already running (session {working}): wait for it to end, or cancel it."
    assert (busy.code, str(busy)) == (-32600, said)


def test_a_command_not_offered_is_refused_by_its_name_whatever_its_arguments(project, fake_llm):
    editor = Editor()

    async def script(conn):
        return await ask(conn, await opened(conn, project), "/rewind 1 app.py")

    __, stop, __ = served(project, fake_llm, script, editor)
    said = "/rewind is not offered in an editor: the questions it asks need the terminal; /undo and /redo work here."
    assert stop == "end_turn" and editor.text() == f"\n\n✗ {said}\n\n" and not fake_llm.requests


def test_a_turn_the_provider_refused_ends_as_an_ordinary_turn_with_why(project, fake_llm):
    fake_llm.add(Status(401, {"error": {"message": "Invalid API key"}}))
    editor = Editor()

    async def script(conn):
        return await ask(conn, await opened(conn, project), "hi")

    __, stop, __ = served(project, fake_llm, script, editor)
    said = "The provider rejected the API key (401): check api_key in .narnat/narnat.json or NARNAT_API_KEY."
    assert stop == "end_turn" and editor.text() == f"\n\n✗ {said}\n\n"


def test_an_editor_that_offers_its_files_has_its_unsaved_buffer_read(project, fake_llm):
    (project / "app.py").write_text("saved = 1\n")
    fake_llm.add(tool_reply(("Read", {"file_path": "app.py"})), text_reply("Read."))
    editor = Editor(buffers={str(project / "app.py"): "unsaved = 2\n"})

    async def script(conn):
        return await ask(conn, await opened(conn, project), "read app.py")

    served(project, fake_llm, script, editor)
    read = fake_llm.requests[1]["messages"][-1]["content"]
    assert "unsaved = 2" in read and "saved = 1" not in read


def test_the_end_of_a_run_saves_its_conversations_without_a_word(project, fake_llm, capsys):
    fake_llm.add(text_reply("Hello."))

    async def script(conn):
        sid = await opened(conn, project)
        await ask(conn, sid, "hi")
        return sid

    __, sid, __ = served(project, fake_llm, script)
    assert (project / ".narnat" / "sessions" / f"{sid}.json").is_file()
    assert "Saved this conversation" not in capsys.readouterr().err
