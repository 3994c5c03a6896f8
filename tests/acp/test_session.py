"""`narnat acp` driven by the protocol's own client through a whole bug fix: the prompt, the streamed answer and
reasoning, a Read, the plan, an Edit shown as a diff, a deletion asked about and answered both ways, /undo, a command
cancelled midway, and the conversation loaded again in another run."""

import asyncio
from pathlib import Path

import pytest
from acp import text_block

from tests.acp.editor import KEY, Editor, narnat_acp, until
from tests.fake_llm import chunk, text_reply, tool_reply

BUGGY = "def add(a, b):\n    return a - b\n"
FIXED = "def add(a, b):\n    return a + b\n"
REASON = "rm deletes files: junk.log; /undo can restore it"


def _fix_script(fake_llm) -> None:
    look = tool_reply(("Read", {"file_path": "calc.py"}), text="Let me look.")
    look.chunks[:0] = [chunk({"role": "assistant", "reasoning_content": "The bug is "}),
                       chunk({"reasoning_content": "in add."})]  # fmt: skip
    todos = [{"content": "Fix add", "activeForm": "Fixing add", "status": "in_progress"},
             {"content": "Remove junk.log", "activeForm": "Removing junk.log", "status": "pending"}]  # fmt: skip
    fake_llm.add(
        look,
        tool_reply(("TodoWrite", {"todos": todos})),
        tool_reply(("Edit", {"file_path": "calc.py", "old_string": "return a - b", "new_string": "return a + b"})),
        tool_reply(("Grep", {"pattern": KEY})),
        tool_reply(("Bash", {"command": "rm junk.log"})),
        tool_reply(("Bash", {"command": "rm -f junk.log"})),
        text_reply("Fixed: add adds."),
    )


@pytest.mark.slow
def test_a_bug_fixed_from_the_editor(project, fake_llm):
    (project / "calc.py").write_text(BUGGY)
    (project / "junk.log").write_text("old\n")
    _fix_script(fake_llm)
    editor = Editor(answers=["reject", "allow"])

    async def session():
        async with narnat_acp(project, fake_llm.base_url, editor) as (conn, __):
            opened = await conn.new_session(cwd=str(project), mcp_servers=[])
            answered = await conn.prompt(session_id=opened.session_id, prompt=[text_block("add() subtracts; fix it")])
            assert answered.stop_reason == "end_turn"
            assert (project / "calc.py").read_text() == FIXED and not (project / "junk.log").exists()
            undone = await conn.prompt(session_id=opened.session_id, prompt=[text_block("/undo")])
            return opened.session_id, undone.stop_reason

    session_id, undone = asyncio.run(session())
    assert editor.text("agent_thought_chunk") == "The bug is in add."
    assert editor.text().startswith("Let me look.") and "Fixed: add adds." in editor.text()
    calls = editor.seen("tool_call")
    assert [(c.kind, c.title) for c in calls] == [
        ("read", "Read(calc.py)"), ("think", calls[1].title), ("edit", "Edit(calc.py)"),
        ("search", 'Grep("[API key]")'), ("execute", "Bash(rm junk.log)"), ("execute", "Bash(rm -f junk.log)"),
    ]  # fmt: skip
    assert calls[0].locations[0].path == str(project / "calc.py") and calls[0].status == "in_progress"
    ends = [u for u in editor.seen("tool_call_update") if u.status]  # one for each call, in order
    assert [e.tool_call_id for e in ends] == [c.tool_call_id for c in calls]
    [diff] = ends[2].content
    assert (diff.type, diff.path, diff.old_text, diff.new_text) == ("diff", str(project / "calc.py"), BUGGY, FIXED)
    assert "1\tdef add(a, b):" in ends[0].content[0].content.text
    [plan] = editor.seen("plan")
    assert [(e.content, e.status) for e in plan.entries] == [("Fix add", "in_progress"), ("Remove junk.log", "pending")]
    # the same one-line reason the terminal shows; the answer honoured both ways
    assert [a.title for a in editor.asked] == [REASON, REASON]
    assert [a.tool_call_id for a in editor.asked] == [calls[4].tool_call_id, calls[5].tool_call_id]
    declined = fake_llm.requests[5]["messages"][-1]["content"]
    assert declined.startswith("Error: the user declined to run it (rm deletes files: junk.log")
    assert [e.status for e in ends] == ["completed"] * 3 + ["failed", "failed", "completed"]
    # /undo, as in the REPL
    assert undone == "end_turn" and (project / "calc.py").read_text() == BUGGY and (project / "junk.log").exists()
    [commands] = editor.seen("available_commands_update")
    names = [c.name for c in commands.available_commands]
    assert {"undo", "redo", "compact", "model", "save"} <= set(names) and not {"exit", "rewind"} & set(names)
    assert KEY not in editor.transcript() and "[API key]" in editor.transcript()
    assert (project / ".narnat" / "sessions" / f"{session_id}.json").is_file()


@pytest.mark.slow
def test_cancel_stops_the_turn_and_the_running_command_at_once(project, fake_llm):
    fake_llm.add(tool_reply(("Bash", {"command": "sleep 30"})), text_reply("Asked again."))
    editor = Editor()

    async def session():
        async with narnat_acp(project, fake_llm.base_url, editor) as (conn, narnat):
            opened = await conn.new_session(cwd=str(project), mcp_servers=[])
            turn = asyncio.ensure_future(conn.prompt(session_id=opened.session_id, prompt=[text_block("wait")]))
            await until(lambda: bool(_sleeping(narnat.pid)))
            [sleeper] = _sleeping(narnat.pid)
            await conn.cancel(session_id=opened.session_id)
            stopped = await turn
            gone = _dead(sleeper)
            again = await conn.prompt(session_id=opened.session_id, prompt=[text_block("go on")])
            return stopped.stop_reason, gone, again.stop_reason

    assert asyncio.run(session()) == ("cancelled", True, "end_turn")
    [call] = editor.seen("tool_call")
    end = [u for u in editor.seen("tool_call_update") if u.tool_call_id == call.tool_call_id][-1]
    assert "cancelled by the user" in end.content[0].content.text
    result = [m for m in fake_llm.requests[1]["messages"] if m["role"] == "tool"][-1]  # the history stayed valid
    assert result["tool_call_id"] == call.tool_call_id and "cancelled by the user" in result["content"]


@pytest.mark.slow
def test_the_commands_of_an_editors_session_never_see_the_key(project, fake_llm):
    fake_llm.add(tool_reply(("Bash", {"command": "printenv > seen.txt"})), text_reply("Listed."))

    async def session():
        async with narnat_acp(project, fake_llm.base_url, Editor()) as (conn, __):
            opened = await conn.new_session(cwd=str(project), mcp_servers=[])
            return (await conn.prompt(session_id=opened.session_id, prompt=[text_block("list")])).stop_reason

    assert asyncio.run(session()) == "end_turn"
    seen = (project / "seen.txt").read_text()
    assert "PATH=" in seen and KEY not in seen and "NARNAT_API_KEY" not in seen


def _dead(pid: int) -> bool:
    """Ended: no such process, or a zombie (killed; its parent bash died with it, and init reaps it when it will)."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    except (OSError, IndexError):
        return True


def _sleeping(ancestor: int) -> list[int]:
    """The `sleep 30` processes running below `ancestor`."""
    parents, commands = {}, {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                commands[int(entry.name)] = (entry / "cmdline").read_bytes()
            except (OSError, IndexError):
                continue

    def below(pid: int) -> bool:
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == ancestor:
                return True
        return False

    return [pid for pid, command in commands.items() if command == b"sleep\x0030\x00" and below(pid)]


@pytest.mark.slow
def test_a_conversation_loaded_again_in_another_run(project, fake_llm):
    (project / "notes.txt").write_text("remember the milk\n")
    fake_llm.add(tool_reply(("Read", {"file_path": "notes.txt"}), text="Reading."), text_reply("The milk."),
                 text_reply("Still the milk."))  # fmt: skip
    first, second = Editor(), Editor()

    async def ask_once():
        async with narnat_acp(project, fake_llm.base_url, first) as (conn, __):
            opened = await conn.new_session(cwd=str(project), mcp_servers=[])
            await conn.prompt(session_id=opened.session_id, prompt=[text_block("what do @notes.txt say?")])
            return opened.session_id

    async def load_and_ask(session_id):
        async with narnat_acp(project, fake_llm.base_url, second) as (conn, __):
            await conn.load_session(cwd=str(project), session_id=session_id, mcp_servers=[])
            replayed = list(second.updates)
            await conn.prompt(session_id=session_id, prompt=[text_block("and now?")])
            return replayed

    session_id = asyncio.run(ask_once())
    replayed = asyncio.run(load_and_ask(session_id))
    kinds = [u.session_update for u in replayed]
    assert kinds == ["user_message_chunk", "agent_message_chunk", "tool_call", "tool_call_update",
                     "agent_message_chunk"]  # fmt: skip
    assert replayed[0].content.text == "what do @notes.txt say?"  # the reminder Narnat added is not shown
    assert (replayed[2].title, replayed[2].kind) == ("Read(notes.txt)", "read")
    assert "remember the milk" in replayed[3].content[0].content.text
    assert second.text() == "Reading.The milk.Still the milk."
    assert second.seen("available_commands_update")  # after the replay
    before, after = fake_llm.requests[1]["messages"], fake_llm.requests[2]["messages"]
    assert after[1 : len(before)] == before[1:] and after[-1]["content"] == "and now?"
