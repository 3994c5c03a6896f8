"""Plan mode as the session's mode: offered when a session opens, switched by the editor's mode picker
(session/set_mode), and the picker told when /plan or /go switches it from inside the session."""

import asyncio

import pytest
from acp import RequestError, text_block

from tests.acp.editor import Editor, narnat_acp
from tests.fake_llm import text_reply, tool_reply

BUGGY = "def add(a, b):\n    return a - b\n"
FIXED = "def add(a, b):\n    return a + b\n"
EDIT = ("Edit", {"file_path": "calc.py", "old_string": "return a - b", "new_string": "return a + b"})


@pytest.mark.slow
def test_the_editor_s_mode_picker_switches_plan_mode(project, fake_llm):
    (project / "calc.py").write_text(BUGGY)
    fake_llm.add(tool_reply(("Read", {"file_path": "calc.py"})), tool_reply(EDIT), text_reply("Planned."),
                 tool_reply(EDIT), text_reply("Fixed."))  # fmt: skip
    editor = Editor()

    async def session():
        async with narnat_acp(project, fake_llm.base_url, editor) as (conn, __):
            opened = await conn.new_session(cwd=str(project), mcp_servers=[])
            sid = opened.session_id
            await conn.set_session_mode(session_id=sid, mode_id="plan")
            with pytest.raises(RequestError) as unknown:
                await conn.set_session_mode(session_id=sid, mode_id="yolo")
            await conn.prompt(session_id=sid, prompt=[text_block("fix add")])
            planned = (project / "calc.py").read_text()
            await conn.set_session_mode(session_id=sid, mode_id="default")
            await conn.prompt(session_id=sid, prompt=[text_block("go ahead")])
            return opened.modes, unknown.value, planned

    modes, unknown, planned = asyncio.run(session())
    assert modes.current_mode_id == "default"
    assert [(m.id, m.description) for m in modes.available_modes] == [
        ("default", "Ask before destructive actions"), ("plan", "Investigate and propose; change nothing"),
    ]  # fmt: skip
    assert unknown.code == -32602 and "default, plan" in str(unknown)
    # plan mode, still on after the unknown mode: the Edit refused, the file as it was
    refused = fake_llm.requests[2]["messages"][-1]["content"]
    assert refused.startswith("Error: plan mode: this would change calc.py, so Edit was not run.")
    assert planned == BUGGY
    done = fake_llm.requests[4]["messages"][-1]["content"]
    assert done.startswith("Edited calc.py") and (project / "calc.py").read_text() == FIXED
    assert not editor.seen("current_mode_update")  # the editor chose each mode: it needs no word of it


@pytest.mark.slow
def test_plan_and_go_typed_in_the_session_move_the_mode_picker(project, fake_llm):
    fake_llm.add(text_reply("Carried out."))
    editor = Editor()

    async def session():
        async with narnat_acp(project, fake_llm.base_url, editor) as (conn, __):
            opened = await conn.new_session(cwd=str(project), mcp_servers=[])
            sid = opened.session_id
            await conn.prompt(session_id=sid, prompt=[text_block("/plan")])
            shown = [u.current_mode_id for u in editor.seen("current_mode_update")]
            loaded = await conn.load_session(cwd=str(project), session_id=sid, mcp_servers=[])
            await conn.prompt(session_id=sid, prompt=[text_block("/go")])
            return shown, loaded.modes.current_mode_id

    shown, loaded = asyncio.run(session())
    assert shown == ["plan"] and loaded == "plan"
    assert [u.current_mode_id for u in editor.seen("current_mode_update")] == ["plan", "default"]
    assert "Carried out." in editor.text()
