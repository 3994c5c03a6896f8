"""The compression flow of the design (§3) against the fake provider."""

import json

from narnat_agent.commands.dispatch import dispatch
from narnat_agent.conversation.compressor import compressed, inherit_summary, read_summary
from narnat_agent.prompts.texts import COMPRESSION_PROMPT, KEEP, LEFT_OUT, SUMMARY_HEADING
from narnat_agent.provider.client import Client
from narnat_agent.ui.plain import PlainUI
from tests.fake_llm import SSE, Status, chunk, text_reply, tool_reply, usage
from tests.keys import press_at

SUMMARY = "## Summary\nWe fixed the parser; tests pass."


def chat(h, fake_llm, turns):
    fake_llm.add(*[text_reply(f"answer {n}") for n in range(turns)])
    for n in range(turns):
        h.agent.ask(f"question {n}")


def test_the_summary_request_speaks_english_and_asks_for_the_users_language():
    assert all(ord(c) < 0x2E80 for c in COMPRESSION_PROMPT), "a CJK sentence pulls the summary into that language"
    assert "language" in COMPRESSION_PROMPT and "call no tools" in COMPRESSION_PROMPT


def test_the_question_after_the_limit_compresses_then_continues_in_a_new_session(harness, fake_llm, project):
    h = harness(compress_turns=2)
    chat(h, fake_llm, 2)
    old_messages = list(h.agent.conversation.messages)
    fake_llm.add(text_reply(SUMMARY), text_reply("fresh answer"))
    h.agent.ask("question 2")
    summary_request, first_new = fake_llm.requests[2], fake_llm.requests[3]
    assert summary_request["tools"] == fake_llm.requests[1]["tools"]  # the same prefix: the provider's cache holds
    assert summary_request["messages"] == old_messages + [{"role": "user", "content": COMPRESSION_PROMPT}]
    system = first_new["messages"][0]["content"]
    assert system.endswith(f"{SUMMARY_HEADING}\n{SUMMARY}\n")
    assert first_new["messages"][1:] == [{"role": "user", "content": "question 2"}]
    assert h.agent.conversation.turns == 1
    assert (project / ".narnat" / "last_session_summary.md").read_text() == ""
    [archive] = (project / ".narnat" / "sessions").glob("compressed-*.json")
    assert json.loads(archive.read_text())["messages"] == old_messages
    assert "Compressing" in h.err.getvalue() and "fresh answer" in h.out.getvalue()


def test_an_empty_summary_keeps_everything_and_gives_the_question_back(harness, fake_llm, project):
    h = harness(compress_turns=1)
    chat(h, fake_llm, 1)
    before = list(h.agent.conversation.messages)
    fake_llm.add(text_reply("   "))
    h.agent.ask("the held question")
    assert h.agent.conversation.messages == before and h.agent.conversation.turns == 1
    assert "Compression failed" in h.err.getvalue()
    assert "the held question" in h.err.getvalue().split("to edit and send again")[1]
    assert not (project / ".narnat" / "sessions").exists()
    assert len(fake_llm.requests) == 2


def test_a_context_length_error_compresses_and_retries_the_question(harness, fake_llm):
    h = harness()
    chat(h, fake_llm, 1)
    too_long = Status(400, {"error": {"message": "This model's maximum context length is 8192 tokens."}})
    fake_llm.add(too_long, text_reply(SUMMARY), text_reply("answered after compression"))
    h.agent.ask("big question")
    assert fake_llm.requests[2]["messages"][-1]["content"] == COMPRESSION_PROMPT
    assert fake_llm.requests[3]["messages"][-1] == {"role": "user", "content": "big question"}
    assert "answered after compression" in h.out.getvalue()


def test_a_nearly_full_context_compresses_before_the_next_question(harness, fake_llm):
    h = harness(context_window=1000)
    full = text_reply("long answer")
    full.chunks[-1] = usage(prompt=950)
    fake_llm.add(full, text_reply(SUMMARY), text_reply("ok"))
    h.agent.ask("first")
    h.agent.ask("second")
    assert fake_llm.requests[1]["messages"][-1]["content"] == COMPRESSION_PROMPT
    assert SUMMARY in fake_llm.requests[2]["messages"][0]["content"]


def test_an_oversized_summary_request_leaves_out_the_oldest_tool_outputs(harness, fake_llm, project):
    (project / "big.txt").write_text("data\n" * 100)
    h = harness(compress_turns=1)
    fake_llm.add(tool_reply(("Read", {"file_path": "big.txt"})), text_reply("read it"))
    h.agent.ask("read big.txt")
    too_long = Status(400, {"error": {"message": "maximum context length exceeded"}})
    fake_llm.add(too_long, text_reply(SUMMARY), text_reply("ok"))
    h.agent.ask("next")
    first, second = fake_llm.requests[2]["messages"], fake_llm.requests[3]["messages"]
    tool = [m for m in second if m["role"] == "tool"]
    assert "data" in next(m for m in first if m["role"] == "tool")["content"]
    assert tool[0]["content"] == "[tool output left out of the summary request]"
    assert [m["role"] for m in first] == [m["role"] for m in second]  # pairs stay valid
    [archive] = (project / ".narnat" / "sessions").glob("compressed-*.json")
    archived = json.loads(archive.read_text())["messages"]
    assert "data" in next(m for m in archived if m["role"] == "tool")["content"]  # nothing is lost
    heading = f"{SUMMARY_HEADING}\n(Written without the 1 oldest tool outputs of the conversation: the request"
    assert heading in fake_llm.requests[4]["messages"][0]["content"]  # the summary says what it did not see


def test_a_summary_request_that_still_does_not_fit_leaves_out_old_answers_but_never_questions(harness, fake_llm):
    h = harness(compress_turns=3)
    chat(h, fake_llm, 3)
    too_long = Status(400, {"error": {"message": "maximum context length exceeded"}})
    fake_llm.add(too_long, too_long, text_reply(SUMMARY), text_reply("ok"))
    h.agent.ask("next")
    sent = fake_llm.requests[-2]["messages"]
    assert [m["content"] for m in sent if m["role"] == "user"][:3] == ["question 0", "question 1", "question 2"]
    elided = "[answer left out of the summary request]"
    assert [m["content"] for m in sent if m["role"] == "assistant"] == [elided, elided, "answer 2"]
    system = fake_llm.requests[-1]["messages"][0]["content"]
    assert "(Written without the 2 oldest answers of the conversation" in system


class EscDuringTheSummary(PlainUI):
    """A user who presses Esc once the summary has begun to arrive."""

    def begin_compressing(self):
        sink = super().begin_compressing()

        class Pressed(type(sink)):
            def feed(self, text: str) -> None:
                self.cancelled = True

        return Pressed()


def test_a_summary_cut_short_by_the_user_is_never_taken_as_the_summary(harness, fake_llm, project):
    h = harness(compress_turns=1)
    h.agent.ui = EscDuringTheSummary(h.out, h.err)
    chat(h, fake_llm, 1)
    before = list(h.agent.conversation.messages)
    fake_llm.add(SSE([chunk({"content": "## Summary\nWe fix"}), chunk({"content": "ed the parser."}),
                      chunk(finish="stop"), usage()]))  # fmt: skip
    h.agent.ask("the held question")
    assert h.agent.conversation.messages == before and "Compression failed" in h.err.getvalue()
    assert not read_summary(project / ".narnat") and not (project / ".narnat" / "sessions").exists()


def test_a_cancelled_or_broken_summary_counts_as_failed(harness, fake_llm):
    h = harness(compress_turns=1)
    chat(h, fake_llm, 1)
    fake_llm.add(SSE([chunk({"content": "partial summ"})], drop=True))
    h.agent.ask("again")
    assert "Compression failed" in h.err.getvalue() and h.agent.conversation.turns == 1


def test_a_summary_cut_off_at_the_length_limit_is_a_failed_compression(harness, fake_llm, project):
    h = harness(compress_turns=1)
    chat(h, fake_llm, 1)
    before = list(h.agent.conversation.messages)
    fake_llm.add(SSE([chunk({"content": "## Summary\nWe fixed the"}), chunk(finish="length"), usage()]))
    h.agent.ask("the held question")
    assert h.agent.conversation.messages == before
    assert "Compression failed" in h.err.getvalue()
    assert not read_summary(project / ".narnat")
    assert not (project / ".narnat" / "sessions").exists()


def test_a_summary_stopped_by_the_interrupt_key_is_a_failed_compression(harness, fake_llm, project):
    h = harness(compress_turns=1, interrupts=press_at("summary", 1))
    chat(h, fake_llm, 1)
    before = list(h.agent.conversation.messages)
    fake_llm.add(text_reply(SUMMARY), text_reply("not asked"))
    h.agent.ask("the held question")
    assert h.agent.conversation.messages == before and len(fake_llm.requests) == 2
    assert "Compression failed" in h.err.getvalue()
    assert not read_summary(project / ".narnat") and not (project / ".narnat" / "sessions").exists()


def test_a_summary_ended_by_an_error_event_is_a_failed_compression(harness, fake_llm, project):
    h = harness(compress_turns=1)
    chat(h, fake_llm, 1)
    before = list(h.agent.conversation.messages)
    fake_llm.add(SSE([chunk({"content": "## Summary\nWe fixed the"}), {"error": {"message": "overloaded"}}]))
    h.agent.ask("the held question")
    assert h.agent.conversation.messages == before and "Compression failed" in h.err.getvalue()
    assert not read_summary(project / ".narnat") and not (project / ".narnat" / "sessions").exists()


def test_each_too_long_summary_request_leaves_out_a_quarter_of_the_remaining_tool_outputs(harness, fake_llm, project):
    (project / "a.txt").write_text("data\n" * 10)
    h = harness(compress_turns=1)
    reads = [("Read", {"file_path": "a.txt", "limit": n}) for n in range(1, 9)]
    fake_llm.add(tool_reply(*reads), text_reply("read it"))
    h.agent.ask("read a.txt eight ways")
    too_long = Status(400, {"error": {"message": "maximum context length exceeded"}})
    fake_llm.add(too_long, too_long, text_reply(SUMMARY), text_reply("ok"))
    h.agent.ask("next")
    left_out = [
        [
            m["content"] == "[tool output left out of the summary request]"
            for m in request["messages"]
            if m["role"] == "tool"
        ]
        for request in fake_llm.requests[2:5]
    ]
    assert left_out == [[False] * 8, [True] * 2 + [False] * 6, [True] * 3 + [False] * 5]  # 8 // 4, then 6 // 4


def test_a_summary_left_by_a_run_that_died_is_taken_once(project):
    state = project / ".narnat"
    state.mkdir()
    (state / "last_session_summary.md").write_bytes(b"## Summary\ncaf\xe9 was renamed\n")
    assert inherit_summary(state) == "## Summary\ncaf\\xe9 was renamed"  # bytes that are not UTF-8 stay visible
    assert (state / "last_session_summary.md").read_bytes() == b""
    assert inherit_summary(state) == ""


# compressed() as the 120th turn and /compact call it: what it gives back, and what the user reads


def compress(h, keep: str = "", client=None):
    return compressed(h.agent.session, client or h.agent.client, h.ui, h.config, "THE SYSTEM PROMPT", keep)


def test_compact_sends_the_users_words_and_the_successor_keeps_the_name_on_a_fresh_system_prompt(
    harness, fake_llm, project
):
    h = harness()
    chat(h, fake_llm, 1)
    h.agent.session.conversation.name = "work"
    fake_llm.add(text_reply(SUMMARY))
    successor = compress(h, keep="the list of failing tests")
    instruction = fake_llm.requests[-1]["messages"][-1]["content"]
    assert instruction == f"{COMPRESSION_PROMPT}\n\n{KEEP.format(keep='the list of failing tests')}"
    assert successor.name == "work" and successor.conversation.turns == 0
    assert successor.conversation.messages[0]["content"].startswith("THE SYSTEM PROMPT\n")
    assert SUMMARY in successor.conversation.messages[0]["content"]
    [archive] = (project / ".narnat" / "sessions").glob("compressed-*.json")
    assert json.loads(archive.read_text())["model"] == "fake-model"
    said = f"Compressed: the old conversation is saved as '{archive.stem}'; this one starts from its summary.\n"
    assert h.err.getvalue().endswith(said)


def test_the_successor_keeps_the_cost_so_far_and_the_checkpoints(harness, fake_llm):
    h = harness()
    chat(h, fake_llm, 1)
    old = h.agent.session
    old.cost = 0.42
    fake_llm.add(text_reply(SUMMARY))
    successor = compress(h)
    assert successor.cost == 0.42 and successor.checkpoints is old.checkpoints  # a budget does not start again


def test_without_the_users_words_the_instruction_is_the_prompt_alone(harness, fake_llm):
    h = harness()
    chat(h, fake_llm, 1)
    fake_llm.add(text_reply(SUMMARY))
    assert compress(h) is not None
    assert fake_llm.requests[-1]["messages"][-1]["content"] == COMPRESSION_PROMPT


NO_SUMMARY = "✗ Compression failed: no complete summary came back; the conversation is unchanged.\n"


def test_a_provider_error_is_a_failed_compression_said_in_one_sentence(harness, fake_llm, project):
    h = harness()
    chat(h, fake_llm, 1)
    fake_llm.add(Status(401, {"error": {"message": "invalid key"}}))
    assert compress(h) is None
    assert h.err.getvalue().endswith(NO_SUMMARY) and not (project / ".narnat" / "sessions").exists()


def test_ctrl_c_while_the_summary_request_waits_to_retry_is_a_failed_compression(harness, fake_llm, project):
    def pressed_during_the_wait(notice: str) -> None:
        raise KeyboardInterrupt

    h = harness()
    chat(h, fake_llm, 1)
    fake_llm.add(Status(503, {"error": {"message": "overloaded"}}), text_reply(SUMMARY))
    assert compress(h, client=Client(h.config, pressed_during_the_wait)) is None
    assert h.err.getvalue().endswith(NO_SUMMARY) and not (project / ".narnat" / "sessions").exists()


def test_a_summary_that_cannot_be_written_says_why_and_changes_nothing(harness, fake_llm, project):
    h = harness()
    chat(h, fake_llm, 1)
    (project / ".narnat" / "last_session_summary.md").mkdir(parents=True)
    fake_llm.add(text_reply(SUMMARY))
    assert compress(h) is None
    assert h.err.getvalue().endswith(
        "✗ Compression failed: the summary could not be saved (Is a directory); free some space. "
        "The conversation is unchanged.\n"
    )
    assert not (project / ".narnat" / "sessions").exists()


def test_an_archive_that_cannot_be_saved_says_why_and_keeps_the_summary(harness, fake_llm, project):
    h = harness()
    chat(h, fake_llm, 1)
    (project / ".narnat").mkdir(exist_ok=True)
    (project / ".narnat" / "sessions").write_text("not a folder")
    fake_llm.add(text_reply(SUMMARY))
    assert compress(h) is None
    said = h.err.getvalue().rsplit("\n", 2)[-2]
    assert said.startswith("✗ Compression failed: Cannot save 'compressed-") and said.endswith(
        " The conversation is unchanged."
    )
    assert read_summary(project / ".narnat") == SUMMARY.strip()  # a later run inherits it


def test_an_empty_summary_after_leaving_out_is_still_a_failure(harness, fake_llm, project):
    (project / "a.txt").write_text("data\n")
    h = harness()
    fake_llm.add(tool_reply(("Read", {"file_path": "a.txt"})), text_reply("read it"))
    h.agent.ask("read a.txt")
    fake_llm.add(Status(400, {"error": {"message": "maximum context length exceeded"}}), text_reply("  \n"))
    assert compress(h) is None and h.err.getvalue().endswith(NO_SUMMARY)


def test_the_note_names_both_what_was_left_out(harness, fake_llm):
    h = harness()
    chat(h, fake_llm, 1)
    fake_llm.add(tool_reply(("Glob", {"pattern": "*"})), text_reply("looked"))
    h.agent.ask("look")
    too_long = Status(400, {"error": {"message": "maximum context length exceeded"}})
    fake_llm.add(too_long, too_long, text_reply(SUMMARY))
    successor = compress(h)
    note = LEFT_OUT.format(what="1 oldest tool outputs and the 1 oldest answers")
    assert f"{note}\n\n{SUMMARY}" in successor.conversation.messages[0]["content"]


def test_a_summary_request_answered_with_a_tool_call_runs_nothing_and_changes_nothing(harness, fake_llm, project):
    h = harness()
    chat(h, fake_llm, 1)
    before = list(h.agent.conversation.messages)
    fake_llm.add(tool_reply(("Bash", {"command": "touch ran.txt"})))
    dispatch(h.agent, "/compact")
    assert not (project / "ran.txt").exists() and h.agent.conversation.messages == before
    assert "Compression failed" in h.err.getvalue()


def test_the_files_read_before_a_compaction_can_be_edited_after_it(harness, fake_llm, project):
    (project / "app.py").write_text("x = 1\n")
    h = harness()
    fake_llm.add(tool_reply(("Read", {"file_path": "app.py"})), text_reply("read it"))
    h.agent.ask("read app.py")
    fake_llm.add(text_reply(SUMMARY))
    dispatch(h.agent, "/compact")
    edit = ("Edit", {"file_path": "app.py", "old_string": "x = 1", "new_string": "x = 2"})
    fake_llm.add(tool_reply(edit), text_reply("edited"))
    h.agent.ask("now change it")
    assert (project / "app.py").read_text() == "x = 2\n"
    assert "has not been read" not in json.dumps(fake_llm.requests[-1]["messages"])
