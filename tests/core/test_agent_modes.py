"""The agent around its turns: plan mode switched and what the next question is told of it, /model's switch and its
undoing, a goal's check shown as a call of its own."""

import io
import json

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from narnat_agent.conversation.session import new_session
from narnat_agent.core.turn import Stop
from narnat_agent.prompts.texts import PLAN_APPROVED, PLAN_OVER
from narnat_agent.tools.verification import Verification
from narnat_agent.ui.events import EventUI
from narnat_agent.ui.terminal import TerminalUI
from tests.fake_llm import SSE, Status, chunk, text_reply, tool_reply, usage


def test_leaving_plan_mode_before_any_question_tells_the_model_nothing(harness):
    h = harness()
    h.agent.plan_mode(True)
    h.agent.plan_mode(True)  # on already: nothing changes
    assert h.agent.planning and h.agent.session.notes == []
    h.agent.plan_mode(False)
    assert not h.agent.planning and h.agent.session.notes == []
    h.agent.plan_mode(True)
    h.agent.plan_mode(False, approved=True)
    assert h.agent.session.notes == []


def test_leaving_plan_mode_after_a_question_tells_the_next_one_how_it_ended(harness, fake_llm):
    h = harness()
    fake_llm.add(text_reply("the plan"), text_reply("another plan"))
    h.agent.plan_mode(True)
    h.agent.ask("what would you do?")
    h.agent.plan_mode(False)
    assert h.agent.session.notes == [PLAN_OVER] and not h.agent.told_planning
    h.agent.session.notes = ["a note of its own", PLAN_OVER]
    h.agent.plan_mode(True)  # back in plan mode: the word that it was over is stale
    assert h.agent.session.notes == ["a note of its own"]
    h.agent.ask("and now?")
    h.agent.plan_mode(False, approved=True)
    assert h.agent.session.notes == [PLAN_APPROVED]


def test_plan_mode_shows_in_the_terminals_status_line(harness, project):
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        ui = TerminalUI(Console(file=io.StringIO(), width=100), project / ".narnat", project, {})
        h = harness(ui=ui)
        h.agent.plan_mode(True)
        assert ui.mode == "plan mode · shift-tab leaves"
        h.agent.plan_mode(False)
        assert ui.mode == ""


def test_a_refused_switch_says_why_in_the_providers_words(harness, fake_llm):
    h = harness()
    h.agent.use_model("nope")
    fake_llm.add(Status(404, {"error": "Not Found"}))
    outcome = h.agent.turn("one")
    why = f"Not found (404): check the model 'nope' and base_url {h.config.base_url}"
    assert (
        outcome.message == f"The provider refused 'nope', so the switch is undone and fake-model answers again ({why})."
    )


def test_a_switch_names_the_new_model_in_the_next_conversations_prompt_only(harness, fake_llm):
    h = harness()
    before = h.agent.system_prompt
    assert "fake-model" in before and "other-model" not in before
    h.agent.use_model("other-model")
    assert h.agent.system_prompt == before.replace("fake-model", "other-model", 1)
    assert h.conversation.messages[0]["content"] == before  # the cached prefix stays
    h.agent.use_model("fake-model")
    assert h.agent.system_prompt == before


@pytest.mark.parametrize("ok", [True, False])
def test_a_goals_check_is_shown_as_narnats_own_call(harness, fake_llm, ok):
    out = io.StringIO()
    h = harness(ui=EventUI(True, out, io.StringIO()))
    h.agent.until = "true" if ok else "false"
    fake_llm.add(text_reply("done"))
    outcome = h.agent.turn("go")
    assert outcome.stop is Stop.COMPLETED and outcome.stats.check.exit_code == (0 if ok else 1)
    events = [json.loads(line) for line in out.getvalue().splitlines()]
    started = [e for e in events if e["type"] == "tool_call"]
    ended = [e for e in events if e["type"] == "tool_result"]
    command = h.agent.until
    assert [{k: e[k] for k in ("id", "name", "arguments", "header")} for e in started] == [
        {"id": "check", "name": "Check", "arguments": {"command": command}, "header": f"Check({command})"}
    ]
    assert [(e["id"], e["name"], e["is_error"]) for e in ended] == [("check", "Check", not ok)]


def test_a_check_that_could_not_run_has_failed(harness, fake_llm):
    h = harness(answers="n\n")
    h.agent.until = "rm -rf build"
    fake_llm.add(text_reply("done"))
    check = h.agent.turn("go").stats.check
    assert check == Verification("rm -rf build", 1, "rm -rf build", False)


def test_a_check_that_runs_part_of_a_suite_says_so(harness, fake_llm):
    h = harness()
    h.agent.until = "cargo test parser"
    fake_llm.add(text_reply("done"))
    check = h.agent.turn("go").stats.check
    assert (check.command, check.run, check.filtered) == ("cargo test", "cargo test parser", True)


def test_compression_keeps_the_words_asked_for_and_starts_from_the_switched_models_prompt(harness, fake_llm):
    h = harness()
    fake_llm.add(text_reply("an answer"), text_reply("the summary"))
    h.agent.ask("hi")
    h.agent.use_model("other-model")
    assert h.agent.compress("keep the API notes")
    assert "keep the API notes" in fake_llm.requests[1]["messages"][-1]["content"]
    system = h.conversation.messages[0]["content"]
    assert "other-model" in system and "fake-model" not in system and "the summary" in system


def test_a_conversation_saved_under_a_name_and_beside_another_processs(harness, fake_llm):
    h = harness()
    assert h.agent.save() is None  # nothing said yet: nothing saved
    fake_llm.add(text_reply("an answer"))
    h.agent.ask("hi")
    assert h.agent.save("mine") == "mine"
    assert json.loads((h.config.state_dir / "sessions" / "mine.json").read_text())["model"] == "fake-model"
    own = h.agent.save()
    assert own == h.conversation.name and own != "mine"
    path = h.config.state_dir / "sessions" / f"{own}.json"
    path.write_text(path.read_text().replace('"hi"', '"changed elsewhere"'))
    beside = h.agent.save()
    assert beside == f"{own}-2" == h.conversation.name
    said = f"'{own}' was changed by another process or conversation since this one last read or saved it; saved "
    assert f"{said}this conversation beside it as '{own}-2'." in h.err.getvalue()


def test_a_full_conversation_that_cannot_be_compressed_gives_the_question_back(harness, fake_llm):
    h = harness(compress_turns=1)
    fake_llm.add(text_reply("an answer"), text_reply("   "))  # the summary comes back empty
    h.agent.ask("first")
    outcome = h.agent.ask("the held question")
    assert (outcome.stop, outcome.message) == (Stop.FAILED, "The conversation is full and could not be compressed.")
    assert h.err.getvalue().endswith("Your question, to edit and send again:\nthe held question\n")


def test_a_question_the_provider_finds_too_long_compresses_and_if_that_fails_is_given_back(harness, fake_llm):
    h = harness()
    too_long = Status(400, {"error": {"message": "This model's maximum context length is 8192 tokens."}})
    fake_llm.add(text_reply("an answer"), too_long, text_reply("   "))
    h.agent.ask("first")
    outcome = h.agent.ask("the big question")
    assert (outcome.stop, outcome.message) == (
        Stop.FAILED,
        "The conversation no longer fits and could not be compressed.",
    )
    said = h.err.getvalue()
    assert "! The provider says the conversation no longer fits its context window; compressing." in said.splitlines()
    assert said.endswith("Your question, to edit and send again:\nthe big question\n")


def test_calls_that_differ_but_answer_alike_are_not_repeats(harness, fake_llm, project):
    for name in ("a.txt", "b.txt", "c.txt", "d.txt"):
        (project / name).write_text("same\n")
    h = harness()
    fake_llm.add(*(tool_reply(("Bash", {"command": f"cat {n}"})) for n in "abcd"), text_reply("all the same"))
    assert h.agent.turn("compare them").completed
    results = [r["messages"][-1]["content"] for r in fake_llm.requests[1:]]
    assert len(results) == 4 and not any("same call" in r for r in results)


def test_a_call_repeated_past_the_warnings_names_its_tool(harness, fake_llm, project):
    (project / "a.txt").write_text("alpha\n")
    h = harness()
    fake_llm.add(*(tool_reply(("Read", {"file_path": "a.txt"})) for __ in range(4)))
    outcome = h.agent.turn("loop")
    assert outcome.stop is Stop.REPEATED_CALLS
    assert outcome.message == "Read was called 4 times in a row with the same arguments, despite warnings."


def test_the_status_line_names_the_model_and_how_full_the_window_is(harness, fake_llm, project):
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        ui = TerminalUI(Console(file=io.StringIO(), width=100), project / ".narnat", project, {})
        h = harness(ui=ui, context_window=10000)
        assert ui.model == "fake-model" and ui.context.startswith("ctx ~") and ui.context.endswith("/10k")
        window = h.agent.window()
        assert window.size == 10000 and window.estimated and window.sent == sum(window.parts.values())
        assert window.parts["tool schemas"] > 1000  # the nine tools' definitions go with every request
        answered = text_reply("hi")
        answered.chunks[-1] = usage(prompt=2500)
        fake_llm.add(answered)
        h.agent.ask("q")
        assert ui.context == "ctx 2.5k/10k"  # the provider's count
        h.agent.switch(new_session(h.agent.system_prompt))
        assert ui.context.startswith("ctx ~") and h.agent.model_from == 0  # another conversation: an estimate
        h.agent.use_model("other")
        assert ui.model == "other" and h.agent.model_from == 1
        h.agent.switch(new_session(h.agent.system_prompt))
        assert ui.model == "other" and h.agent.model_from == 1  # the model chosen goes on in the next conversation


def test_a_destructive_command_asks_saying_what_undo_brings_back(harness, fake_llm, project):
    (project / "build").mkdir()
    (project / "build" / "out.o").write_text("x")
    h = harness(answers="n\n")
    fake_llm.add(tool_reply(("Bash", {"command": "find build -delete"})), text_reply("left it"))
    h.agent.turn("clean up")
    said = h.err.getvalue()
    assert "; /undo can restore files, but not those in folders .gitignore names" in said, said
    assert (project / "build" / "out.o").exists()


def test_a_question_whose_reason_names_undo_already_is_not_told_it_again(harness, fake_llm, project):
    (project / "build").mkdir()
    h = harness(answers="n\nn\n")
    fake_llm.add(
        tool_reply(("Bash", {"command": "find build -delete"})),
        tool_reply(("Bash", {"command": "rm -rf /tmp/narnat-elsewhere"})),
        text_reply("left them"),
    )
    h.agent.turn("clean up")
    said = h.err.getvalue()
    assert (
        "? find -delete deletes what find selects: 1 (build); /undo can restore files, but not those in folders "
        ".gitignore names:\n    find build -delete\n" in said
    ), said
    assert "? rm deletes files: /tmp/narnat-elsewhere — /undo restores only the project's files:\n    rm -rf" in said


def test_the_last_warning_of_a_long_conversation_advises_clear(harness, fake_llm):
    h = harness(warn_turns=[1], compress_turns=5)
    fake_llm.add(text_reply("one"), text_reply("two"))
    h.agent.ask("first")
    h.agent.ask("second")
    warnings = [line for line in h.err.getvalue().splitlines() if line.startswith("⚠")]
    assert warnings == [
        "⚠ This conversation has reached 1 turn. At 5 it will be compressed. Consider /clear to start a new "
        "conversation."
    ]


def test_two_empty_replies_say_how_many_and_what_to_do(harness, fake_llm):
    h = harness()
    h.agent.use_model("quiet-model")
    empty = SSE([chunk({"role": "assistant", "content": ""}), chunk(finish="stop"), usage()])
    fake_llm.add(empty, empty)
    outcome = h.agent.turn("hi")
    assert outcome.message == (
        "The model returned nothing (no text, no tool call) 2 times in a row; ask again, or try another model."
    )
    assert outcome.stats.requests == 2 and h.agent.untried is None  # the switch was answered: it stays


@pytest.mark.parametrize("budget", [{"max_cost": 0.05}, {"max_tokens_sent": 5000}])
def test_what_a_reply_cost_and_sent_counts_against_the_budget(harness, fake_llm, project, budget):
    (project / "a.txt").write_text("alpha\n")
    h = harness(pricing={"input": 10.0, "output": 10.0}, **budget)  # per million tokens: 3,000 cost 0.03
    costly = tool_reply(("Read", {"file_path": "a.txt"}))
    costly.chunks[-1] = usage(3000, completion=0)
    fake_llm.add(costly, text_reply("never asked"))
    outcome = h.agent.ask("read a.txt")
    assert outcome.stop is Stop.BUDGET and len(fake_llm.requests) == 1
    assert outcome.stats.cost == pytest.approx(0.03) and h.agent.session.cost == pytest.approx(0.03)
    assert "(spent 0.030" in outcome.message or "(sent 3,000)" in outcome.message


def test_the_conversations_cost_adds_up_its_turns(harness, fake_llm):
    h = harness(pricing={"input": 10.0, "output": 10.0})  # per million tokens: 1,000 cost 0.01
    first, second = text_reply("one"), text_reply("two")
    first.chunks[-1], second.chunks[-1] = usage(1000, completion=0), usage(2000, completion=0)
    fake_llm.add(first, second)
    h.agent.ask("a")
    outcome = h.agent.ask("b")
    assert outcome.stats.cost == pytest.approx(0.02)
    assert outcome.stats.session_cost == pytest.approx(0.03) and h.agent.session.cost == pytest.approx(0.03)


@pytest.mark.parametrize(("prompt", "compressed"), [(900, False), (901, True)])
def test_a_window_past_nine_tenths_full_is_compressed_before_the_next_question(harness, fake_llm, prompt, compressed):
    h = harness(context_window=1000)
    full = text_reply("long answer")
    full.chunks[-1] = usage(prompt=prompt)
    fake_llm.add(full, text_reply("the summary" if compressed else "ok"), text_reply("ok"))
    h.agent.ask("first")
    h.agent.ask("second")
    summary_asked = "summary" in json.dumps(fake_llm.requests[1]["messages"][-1]).lower()
    assert summary_asked is compressed
