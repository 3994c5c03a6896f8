"""Plan mode through the real agent: the model investigates and proposes; nothing changes until /go."""

import pytest

from narnat_agent.commands.dispatch import dispatch
from narnat_agent.prompts.texts import PLAN_APPROVED, PLANNING
from tests.fake_llm import text_reply, tool_reply

TODOS = [{"content": "Rename x to y", "activeForm": "Renaming", "status": "pending"}]


@pytest.mark.slow
def test_plan_mode_refuses_what_would_change_files_and_go_carries_the_plan_out(harness, fake_llm, project):
    (project / "app.py").write_text("x = 1\n")
    fake_llm.add(
        tool_reply(("Read", {"file_path": "app.py"}), ("Bash", {"command": "git status; ls"})),
        tool_reply(("Edit", {"file_path": "app.py", "old_string": "x", "new_string": "y"}),
                   ("Write", {"file_path": "new.py", "content": "z\n"}),
                   ("Bash", {"command": "date > stamp.txt"}), ("Bash", {"command": "pytest -q"}),
                   ("TodoWrite", {"todos": TODOS})),
        text_reply("The plan: rename x to y in app.py."),
        tool_reply(("Edit", {"file_path": "app.py", "old_string": "x", "new_string": "y"})),
        text_reply("Renamed."),
    )  # fmt: skip
    h = harness()
    assert dispatch(h.agent, "/plan rename x") is True
    assert (project / "app.py").read_text() == "x = 1\n" and not (project / "new.py").exists()
    results = [m["content"] for m in fake_llm.requests[2]["messages"] if m["role"] == "tool"]
    assert "x = 1" in results[0] and "(exit code" in results[1]  # reading ran
    assert results[2].startswith("Error: plan mode: this would change app.py, so Edit was not run.")
    assert results[3].startswith("Error: plan mode: this would change new.py, so Write was not run.")
    assert results[4].startswith("Error: plan mode: this would change the project (the redirection writes stamp.txt)")
    assert "pytest may change files" in results[5] and results[6].startswith("Todo list updated")
    question = fake_llm.requests[0]["messages"][-1]["content"]
    assert question.startswith("rename x\n\n<system-reminder>") and PLANNING in question
    assert "plan mode" not in fake_llm.requests[0]["messages"][0]["content"].lower()  # the cached prefix stays
    err = h.err.getvalue()
    assert "Plan mode on:" in err and "plan mode: this would change app.py" in err

    assert dispatch(h.agent, "/go") is True
    assert (project / "app.py").read_text() == "y = 1\n" and not h.agent.planning
    go = fake_llm.requests[3]["messages"]
    assert go[-1]["content"].startswith("Go ahead: carry out the plan.") and PLAN_APPROVED in go[-1]["content"]
    assert (
        PLANNING not in go[-1]["content"]
        and go[: len(fake_llm.requests[2]["messages"])] == (fake_llm.requests[2]["messages"])
    )  # the same conversation, appended to


def test_the_toggle_tells_the_next_question_that_plan_mode_is_over(harness, fake_llm):
    fake_llm.add(text_reply("plan"), text_reply("ok"))
    h = harness()
    dispatch(h.agent, "/plan")
    assert h.agent.planning and h.agent.workspace.planning
    dispatch(h.agent, "/plan")
    dispatch(h.agent, "/plan what would you do?")
    dispatch(h.agent, "/plan")
    assert not h.agent.planning and "Plan mode off" in h.err.getvalue()
    h.agent.ask("go on")
    asked, sent = (r["messages"][-1]["content"] for r in fake_llm.requests)
    assert PLANNING in asked and "Plan mode is over" not in asked  # the first toggle told the model nothing
    assert "Plan mode is over" in sent and PLANNING not in sent
    dispatch(h.agent, "/go")
    assert "Not in plan mode" in h.err.getvalue() and len(fake_llm.requests) == 2


def test_a_goal_cannot_start_in_plan_mode(harness, fake_llm):
    h = harness()
    dispatch(h.agent, "/plan")
    dispatch(h.agent, "/goal fix it --until 'make test'")
    assert "Plan mode is on, and a goal changes things" in h.err.getvalue() and not fake_llm.requests


def test_plan_with_a_question_while_planning_asks_it_and_stays_in_plan_mode(harness, fake_llm):
    fake_llm.add(text_reply("first"), text_reply("second"))
    h = harness()
    dispatch(h.agent, "/plan what first?")
    dispatch(h.agent, "/plan and then?")
    assert h.agent.planning and h.err.getvalue().count("Plan mode on:") == 1 and "Plan mode off" not in h.err.getvalue()
    asked = fake_llm.requests[1]["messages"][-1]["content"]
    assert asked.startswith("and then?\n\n<system-reminder>") and PLANNING in asked


def test_go_with_words_sends_them_with_the_approval(harness, fake_llm):
    fake_llm.add(text_reply("The plan: rename x."), text_reply("Done."))
    h = harness()
    dispatch(h.agent, "/plan rename x")
    dispatch(h.agent, "/go but keep the old name as an alias")
    sent = fake_llm.requests[1]["messages"][-1]["content"]
    assert sent.startswith("but keep the old name as an alias\n\n<system-reminder>") and PLAN_APPROVED in sent
    assert "Go ahead" not in sent and not h.agent.planning
