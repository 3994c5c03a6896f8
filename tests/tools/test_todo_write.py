import json

import pytest

from narnat_agent.tools.registry import execute


def todo(content, status):
    return {"content": content, "activeForm": content + "ing", "status": status}


def test_replaces_the_whole_list_and_recaps(workspace):
    first = execute("TodoWrite", {"todos": [todo("Read", "in_progress"), todo("Fix", "pending")]}, workspace)
    assert first.text == "Todo list updated: 0/2 done; now: Reading." and not first.is_error
    second = execute("TodoWrite", {"todos": [todo("Read", "completed"), todo("Fix", "in_progress")]}, workspace)
    assert second.summary == "1/2 done; now: Fixing"
    assert [t["status"] for t in workspace.todos] == ["completed", "in_progress"]
    assert list(second.detail.items) == workspace.todos


def test_all_completed_needs_no_task_in_progress(workspace):
    result = execute("TodoWrite", {"todos": [todo("A", "completed"), todo("B", "completed")]}, workspace)
    assert result.summary == "2/2 done" and len(workspace.todos) == 2


def test_empty_list_clears(workspace):
    execute("TodoWrite", {"todos": [todo("A", "in_progress")]}, workspace)
    assert not execute("TodoWrite", {"todos": []}, workspace).is_error
    assert workspace.todos == []


@pytest.mark.parametrize(
    ("todos", "message"),
    [
        ([todo("A", "in_progress"), todo("B", "in_progress")], "but 2 are (A, B)"),
        ([todo("A", "in_progress"), todo("A", "pending")], "appears twice"),
        ([{"content": " ", "activeForm": "x", "status": "in_progress"}], "todos[0].content is empty"),
        ([{"content": "A", "activeForm": "x", "status": "done"}], "must be one of pending, in_progress, completed"),
        ([{"content": "A", "status": "pending"}], "missing required parameter 'todos[0].activeForm'"),
    ],
)
def test_invalid_lists_are_refused_with_a_fixable_message(workspace, todos, message):
    result = execute("TodoWrite", {"todos": todos}, workspace)
    assert result.is_error and message in result.text
    assert workspace.todos == []


def test_a_list_sent_as_a_json_string_is_accepted(workspace):
    result = execute("TodoWrite", {"todos": json.dumps([todo("A", "in_progress")])}, workspace)
    assert not result.is_error and workspace.todos[0]["content"] == "A"


def test_a_plan_with_nothing_in_progress_starts_its_first_unfinished_task(workspace):
    result = execute("TodoWrite", {"todos": [todo("Read", "pending"), todo("Fix", "pending")]}, workspace)
    assert not result.is_error and [t["status"] for t in workspace.todos] == ["in_progress", "pending"]
    assert result.text == "Todo list updated: 0/2 done; now: Reading (marked in_progress: the first unfinished task)."
    later = [todo("Read", "completed"), todo("Fix", "pending")]
    assert execute("TodoWrite", {"todos": later}, workspace).summary.startswith("1/2 done; now: Fixing")


def test_a_list_made_in_plan_mode_starts_nothing(workspace):
    workspace.planning = True
    result = execute("TodoWrite", {"todos": [todo("Read", "pending"), todo("Fix", "pending")]}, workspace)
    assert result.text == "Todo list updated: 0/2 done." and [t["status"] for t in workspace.todos] == ["pending"] * 2


@pytest.mark.parametrize(
    ("todos", "said"),
    [
        ([todo("A", "completed"), {"content": "B", "activeForm": "\t", "status": "pending"}],
         "todos[1].activeForm is empty; give every task a short text."),
        ([todo("A", "pending"), todo("B", "pending"), todo("A", "completed")],
         "the task 'A' appears twice; list each task once."),
        ([todo("A", "in_progress"), todo("B", "pending"), todo("C", "in_progress"), todo("D", "in_progress")],
         "only one task may be in_progress, but 3 are (A, C, D). Send the whole list again with one task in_progress."),
    ],
)  # fmt: skip
def test_a_refusal_says_which_task_and_how_to_fix_the_list(workspace, todos, said):
    result = execute("TodoWrite", {"todos": todos}, workspace)
    assert result.text == f"Error: {said}"


def test_a_list_with_its_task_in_progress_or_all_done_is_kept_as_sent(workspace):
    sent = [todo("A", "completed"), todo("B", "pending"), todo("C", "in_progress")]
    result = execute("TodoWrite", {"todos": sent}, workspace)
    assert result.text == "Todo list updated: 1/3 done; now: Cing." and workspace.todos == sent
    done = [todo("A", "completed"), todo("B", "completed")]
    assert execute("TodoWrite", {"todos": done}, workspace).text == "Todo list updated: 2/2 done."
    assert workspace.todos == done


def test_the_first_pending_task_starts_after_those_done(workspace):
    result = execute("TodoWrite", {"todos": [todo("A", "completed"), todo("B", "pending")]}, workspace)
    assert [t["status"] for t in workspace.todos] == ["completed", "in_progress"]
    assert result.summary == "1/2 done; now: Bing" and tuple(result.detail.items) == tuple(workspace.todos)
