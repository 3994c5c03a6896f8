"""The editor's own file contents win where it offers fs/read_text_file and fs/write_text_file: the model reads and
edits the text of a buffer not saved yet, and the buffer takes what Narnat wrote."""

import asyncio

import pytest
from acp import text_block

from tests.acp.editor import Editor, narnat_acp
from tests.fake_llm import text_reply, tool_reply

ON_DISK = "def add(a, b):\n    return a - b\n"
UNSAVED = "def add(a, b):\n    # add, not subtract\n    return a - b\n"
FIXED = "def add(a, b):\n    # add, not subtract\n    return a + b\n"


def _run(project, fake_llm, editor: Editor) -> None:
    note = "    # add, not subtract\n"
    edit = {"file_path": "calc.py", "old_string": f"{note}    return a - b", "new_string": f"{note}    return a + b"}
    fake_llm.add(
        tool_reply(("Read", {"file_path": "calc.py"})),
        tool_reply(("Edit", edit)),
        tool_reply(("Read", {"file_path": "calc.py"})),
        text_reply("Fixed."),
    )

    async def session():
        async with narnat_acp(project, fake_llm.base_url, editor) as (conn, __):
            opened = await conn.new_session(cwd=str(project), mcp_servers=[])
            await conn.prompt(session_id=opened.session_id, prompt=[text_block("fix add")])

    asyncio.run(session())


@pytest.mark.slow
def test_an_unsaved_buffer_is_what_the_model_reads_and_edits(project, fake_llm):
    (project / "calc.py").write_text(ON_DISK)
    path = str(project / "calc.py")
    editor = Editor(buffers={path: UNSAVED})
    _run(project, fake_llm, editor)
    results = [m["content"] for m in fake_llm.requests[-1]["messages"] if m["role"] == "tool"]
    assert "2\t    # add, not subtract" in results[0]
    assert results[1].startswith("Edited calc.py at line 2")
    assert (project / "calc.py").read_text() == FIXED and editor.written == {path: FIXED}
    assert "Note:" not in results[2] and "3\t    return a + b" in results[2]  # buffer and disk agree again
    [diff] = [u for u in editor.seen("tool_call_update") if u.status == "completed"][1].content
    assert (diff.old_text, diff.new_text) == (ON_DISK, FIXED)  # the file on disk, before and after


@pytest.mark.slow
def test_without_the_editor_s_files_the_disk_is_the_file(project, fake_llm):
    (project / "calc.py").write_text(ON_DISK)
    editor = Editor()  # no fs capability: the buffer it may hold is not asked for
    _run(project, fake_llm, editor)
    results = [m["content"] for m in fake_llm.requests[-1]["messages"] if m["role"] == "tool"]
    assert "2\t    return a - b" in results[0] and results[1].startswith("Error: old_string was not found")
    assert (project / "calc.py").read_text() == ON_DISK and editor.written == {}
