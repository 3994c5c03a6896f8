"""What the screen shows in a real pseudo-terminal, at several widths: keys in, the terminal's rows out."""

import io
import os
import re
import sys
import threading

import pexpect
import pyte
import pytest
from rich.cells import cell_len

if os.name == "nt":
    pytest.skip(
        "pseudo-terminals (pexpect.spawn) are POSIX's; the Windows console under Wine is not one",
        allow_module_level=True,
    )

from narnat_agent.commands.dispatch import dispatch
from tests.fake_llm import SSE, Status, chunk, counted_as, raw_reply, text_reply, tool_reply, usage
from tests.launch import NARNAT, scrubbed_environment
from tests.ui.test_pty import prompt, screen, slow_answer, text

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")


class LiveScreen(io.StringIO):
    """The child's terminal drawn as output arrives, answering its cursor-position queries as a terminal does
    (prompt_toolkit draws the status line under the prompt only when it knows where the cursor is)."""

    def __init__(self, child: pexpect.spawn, width: int):
        super().__init__()
        self.screen = pyte.Screen(width, 30)
        self.screen.write_process_input = child.send
        self.stream = pyte.Stream(self.screen)

    def write(self, data: str) -> int:
        self.stream.feed(data)
        return super().write(data)

    def status_line(self) -> str:
        return next(row.rstrip() for row in reversed(self.screen.display) if row.rstrip().endswith("/help"))


def spawn(
    project, fake_llm, width: int = 100, cpr: bool = False, args: tuple[str, ...] = (), **environment: str
) -> pexpect.spawn:
    env = scrubbed_environment()
    env.update(
        HOME=str(project.parent / "home"), NARNAT_API_KEY="k", NARNAT_BASE_URL=fake_llm.base_url, TERM="xterm-256color"
    )
    env.update(environment)
    if not cpr:  # nothing answers the terminal's cursor-position queries
        env["PROMPT_TOOLKIT_NO_CPR"] = "1"
    child = pexpect.spawn(
        NARNAT[0], [*NARNAT[1:], *args], cwd=str(project), env=env, dimensions=(30, width), encoding="utf-8", timeout=20
    )
    child.logfile_read = io.StringIO()
    return child


@pytest.mark.slow
@pytest.mark.parametrize("width", [80, 120])
def test_show_keeps_names_turns_and_dates_whole_and_cuts_the_question(project, fake_llm, width):
    question = "get_real_name() can't get the name of db.schema.tbl.col " * 6
    fake_llm.add(text_reply("Looked."))
    child = spawn(project, fake_llm, width)
    try:
        prompt(child)
        child.send(question.strip() + "\r")
        child.expect("Looked")
        prompt(child)
        child.send("/save a-rather-long-session-name-2026\r")
        child.expect("Saved as")
        prompt(child)
        child.send("/show\r")
        child.expect("a-rather-long")
        prompt(child)
        lines = [text(row) for row in screen(child.logfile_read.getvalue(), width)]
    finally:
        child.close(force=True)
    header = next(line for line in lines if line.startswith("name"))
    assert header.split() == ["name", "turns", "last", "activity", "first", "question"]
    row = next(line for line in lines if line.startswith("a-rather-long-session-name-2026 "))
    assert row.split()[1] == "1" and len(row.split()[2]) == 10 and len(row.split()[3]) == 8  # the date and time whole
    assert row.endswith("…") and "get_real_name()" in row


@pytest.mark.slow
def test_an_empty_enter_then_a_question_typed_at_once_sends_the_question(project, fake_llm):
    fake_llm.add(text_reply("Hello back."))
    child = spawn(project, fake_llm)
    try:
        prompt(child)
        child.send("\rhello\r")  # one burst, as a fast typist or a terminal multiplexer delivers it
        child.expect("Hello back")
        assert fake_llm.requests[0]["messages"][-1]["content"] == "hello"
    finally:
        child.close(force=True)


@pytest.mark.slow
def test_a_question_typed_while_narnat_starts_is_sent_at_the_first_prompt(project, fake_llm):
    """Typed before the terminal is raw, the question met the line mode, which turned its Enter into a newline: it
    sat at the prompt, never sent (as after an empty Enter, when the line mode came back between two prompts)."""
    fake_llm.add(text_reply("Hello back."))
    child = spawn(project, fake_llm)
    try:
        child.send("hello\r")  # before the prompt is there
        child.expect("Hello back")
        assert fake_llm.requests[0]["messages"][-1]["content"] == "hello"
    finally:
        child.close(force=True)


@pytest.mark.slow
def test_questions_typed_while_the_agent_works_are_queued_shown_and_sent_one_by_one(project, fake_llm):
    answer = slow_answer(40, 0.03)
    answer.gate = threading.Event()  # the model answers once the question is queued
    fake_llm.add(tool_reply(("Glob", {"pattern": "*"})), answer, text_reply("Answer two."), text_reply("Answer three."))
    child = spawn(project, fake_llm)
    try:
        prompt(child)
        child.send("one\r")
        child.expect("⎿")
        child.expect("Thinking")  # the tool is done: the agent waits for the model
        child.send("two\r")
        child.expect("Queued")
        answer.gate.set()
        child.expect("word3")
        child.send("three\rdraft")  # the last line has no Enter: it waits on the input line
        child.expect("Answer three")
        prompt(child)
        child.expect("draft")
        asked = [[m["content"] for m in r["messages"] if m["role"] == "user"] for r in fake_llm.requests]
        assert asked == [["one"], ["one"], ["one", "two"], ["one", "two", "three"]]
        lines = [text(row) for row in screen(child.logfile_read.getvalue())]
        assert "❯ two" in lines and "❯ three" in lines  # shown as sent, each in its turn
        queued = [
            line.strip().rsplit(" ", 1)[1]
            for line in lines
            if "Queued, to be delivered at the next tool result or when this turn ends" in line
        ]
        assert queued == ["two", "three"]  # and as queued, until then
    finally:
        child.close(force=True)


@pytest.mark.slow
def test_text_cleared_with_ctrl_c_does_not_look_sent(project, fake_llm):
    child = spawn(project, fake_llm)
    try:
        prompt(child)
        child.send("first line\nsecond line")  # Ctrl-J: a question of two lines
        child.expect("second line")
        child.send("\x03")
        prompt(child)
        prompt(child)
        rows = screen(child.logfile_read.getvalue())
    finally:
        child.close(force=True)
    for line in ("first line", "second line"):
        row = next(row for row in rows if text(row).endswith(line))
        start = len(text(row)) - len(line)
        assert all(c.strikethrough for c in row[start : len(text(row))] if c.data != " "), line
    lines = [text(row) for row in rows]
    below = lines[next(n for n, line in enumerate(lines) if line.endswith("second line")) + 1]
    assert below.strip() == "cleared, not sent"  # also where the terminal draws no strikethrough (tmux, screen)


@pytest.mark.slow
def test_the_status_line_measures_again_the_conversation_undo_kept(project, fake_llm):
    fake_llm.add(counted_as(text_reply("Answered."), 40_000))
    child = spawn(project, fake_llm, cpr=True)
    child.logfile_read = live = LiveScreen(child, 100)
    try:
        prompt(child)
        child.send("a question\r")
        child.expect("Answered")
        child.expect("/help")  # the status line under the next prompt
        before = live.status_line()
        child.send("/undo\r")
        child.expect("Rewound to before turn 1")
        child.expect("/help")
        after = live.status_line()
    finally:
        child.close(force=True)
    assert before.endswith("ctx 40k/128k · /help")
    assert re.search(r" · ctx ~\d+(\.\d)?k/128k · /help$", after) and "ctx ~40k" not in after  # estimated, shorter


@pytest.mark.slow
def test_notices_about_waiting_for_the_provider_go_once_the_answer_comes(project, fake_llm):
    busy = Status(503, {"error": {"message": "overloaded"}}, {"retry-after-ms": "400"})
    fake_llm.add(busy, text_reply("Here at last."))
    child = spawn(project, fake_llm)
    try:
        prompt(child)
        child.send("a question\r")
        child.expect("retrying in")  # shown while it waits
        child.expect("Here at last")
        prompt(child)
        lines = [text(row) for row in screen(child.logfile_read.getvalue())]
    finally:
        child.close(force=True)
    assert "Here at last." in lines and not any("retrying" in line for line in lines)


@pytest.mark.slow
def test_a_paragraph_that_grows_past_the_plain_text_threshold_is_in_the_scrollback_once(project, fake_llm):
    words = [f"w{n}" for n in range(4500)]  # one paragraph of about 25,000 characters, every line of it different
    pieces = [" ".join(words[n : n + 50]) + " " for n in range(0, len(words), 50)]
    fake_llm.add(SSE([chunk({"content": piece}) for piece in pieces] + [chunk(finish="stop"), usage()], delay=0.02))
    child = spawn(project, fake_llm)
    child.searchwindowsize = 4000
    try:
        prompt(child)
        child.send("a long one\r")
        child.expect("w4499")
        prompt(child)
        lines = [text(row) for row in screen(child.logfile_read.getvalue())]
    finally:
        child.close(force=True)
    footer = next(n for n, line in enumerate(lines) if line.startswith("── ctx"))
    answer = lines[lines.index("❯ a long one") + 1 : footer]
    assert sum(line.startswith("w0 w1 w2 w3 ") for line in answer) == 1  # its first line, once
    width = sum(len(line) for line in answer) + len(answer)  # what the answer's rows hold, with the breaks
    assert width < len(" ".join(words)) * 1.1  # nothing drawn twice


@pytest.mark.slow
def test_resume_counts_the_turns_as_rewind_does_and_recalls_the_last_exchange(project, fake_llm, harness):
    h = harness()
    for n in (1, 2):
        fake_llm.add(text_reply(f"Answer {n}."))
        h.agent.ask(f"question {n}")
    fake_llm.add(text_reply("## Summary\nTwo questions answered."))
    assert h.agent.compress()
    fake_llm.add(text_reply("The range was empty because the step's sign was lost.\n\nFixed in `more.py`."))
    h.agent.ask("why was numeric_range(0, 10, 2)[::-1] empty?")
    dispatch(h.agent, "/save work")
    child = spawn(project, fake_llm, args=("--resume", "work"))
    try:
        prompt(child)
        child.send("/rewind\r")
        child.expect("Rewind to before turn")
        child.send("\r")
        child.expect("Nothing rewound")
        prompt(child)
        lines = [text(row) for row in screen(child.logfile_read.getvalue())]
    finally:
        child.close(force=True)
    assert "resumed 'work' (3 turns)" in lines[1]
    assert [line for line in lines if line.startswith("   3  ")]  # /rewind numbers three turns too
    start = lines.index(next(line for line in lines if line.startswith("❯ why was numeric_range")))
    assert start < lines.index(next(line for line in lines if line.startswith("❯ /rewind")))  # the recap, at start
    assert lines[start + 1].startswith("  The range was empty because the step's sign was lost.")


@pytest.mark.slow
def test_a_tool_line_is_cut_to_the_terminals_width_in_cells(project, fake_llm):
    """COLUMNS left from a wider terminal does not widen the lines; a call recovered from text keeps its note on the
    line; Chinese characters count two columns each."""
    ascii_command = "echo " + " ".join(f"word{n:02}" for n in range(40))
    chinese = "echo " + "文件" * 60
    recovered = f'<tool_call>\n{{"name": "Bash", "arguments": {{"command": "{chinese}"}}}}\n</tool_call>'
    fake_llm.add(tool_reply(("Bash", {"command": ascii_command})), raw_reply(recovered, (40,)), text_reply("Done."))
    child = spawn(project, fake_llm, COLUMNS="140")
    try:
        prompt(child)
        child.send("echo them\r")
        child.expect("Done")
        prompt(child)
        lines = [text(row) for row in screen(child.logfile_read.getvalue())]
    finally:
        child.close(force=True)
    for start in ("● Bash(echo word00", "● Bash(echo 文件"):
        at = next(n for n, line in enumerate(lines) if line.startswith(start))
        assert cell_len(lines[at]) <= 100 and lines[at + 1].startswith("  ⎿"), lines[at : at + 2]
        assert lines[at].endswith("chars)") or "recovered from <tool_call> text" in lines[at], lines[at]
    assert cell_len(lines[at]) >= 96  # the width is used, not a fixed cut


@pytest.mark.slow
def test_a_long_diff_line_wraps_right_of_the_gutter(project, fake_llm):
    (project / "app.py").write_text("def total():\n    return 0\n")
    long_line = "    return " + " + ".join(f"amount_{n}" for n in range(30))
    fake_llm.add(tool_reply(("Read", {"file_path": "app.py"})),
                 tool_reply(("Edit", {"file_path": "app.py", "old_string": "    return 0", "new_string": long_line})),
                 text_reply("Summed."))  # fmt: skip
    child = spawn(project, fake_llm, width=120)
    try:
        prompt(child)
        child.send("sum them\r")
        child.expect("Summed")
        prompt(child)
        lines = [text(row) for row in screen(child.logfile_read.getvalue(), 120)]
    finally:
        child.close(force=True)
    at = next(n for n, line in enumerate(lines) if line.startswith("         2 +    return amount_0 + "))
    assert all(line[:12] == " " * 12 and line[12] != " " for line in lines[at + 1 : at + 4]), lines[at : at + 4]
    assert lines[at + 4] == "Summed."


@pytest.mark.slow
def test_a_command_typed_while_the_agent_works_is_queued_to_run_not_to_be_sent(project, fake_llm):
    answer = slow_answer(40, 0.03)
    answer.gate = threading.Event()
    fake_llm.add(answer)
    child = spawn(project, fake_llm)
    try:
        prompt(child)
        child.send("one\r")
        child.expect("Thinking")
        child.send("/save later\r")
        child.expect("Queued")
        answer.gate.set()
        child.expect("Saved as 'later'")
        prompt(child)
        lines = [text(row) for row in screen(child.logfile_read.getvalue())]
    finally:
        child.close(force=True)
    assert "  Queued, to run when this turn ends: /save later" in lines, [line for line in lines if "Queued" in line]
