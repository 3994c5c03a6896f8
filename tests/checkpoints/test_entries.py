"""The checkpoints a session file keeps: read back exactly, in today's shape and the one before "taken"; any
other shape is Damaged, never half-read; and what a span of entries changed, and could not keep."""

import pytest

from narnat_agent.checkpoints import entries
from narnat_agent.checkpoints.entries import Damaged, Rewind, Step, Taken, Turn, load

FIRST = Turn(
    1, "2026-11-24T10:00:00", "first", 1, (Step("Edit(a)", "s0", "s1", ("big.bin",)), Step("Bash()", "s1", "s2"))
)
SECOND = Turn(2, "10:05", "second", None, (Step("Write(b)", "s2", "s3", ("big.bin", "dump.sql")),))
CODE_ONLY = Rewind("turn 2", "10:06", "s3", "s4", (SECOND,), None)
TALK_ONLY = Rewind("turn 1", "10:07", None, None, (FIRST,), Taken([{"role": "user"}], 0))


def test_every_kind_of_entry_survives_the_session_file():
    kept = [FIRST, SECOND, CODE_ONLY, TALK_ONLY, Rewind("turn 1", "t", None, None, (), None)]
    assert load(entries.dump(kept)) == kept


def test_a_rewind_saved_before_taken_existed_is_read_with_what_it_took():
    old = {"rewind": "turn 1", "time": "t", "before": None, "after": None, "tail": [],
           "messages": [{"role": "user", "content": "q"}], "turns": 0}  # fmt: skip
    assert load([old]) == [Rewind("turn 1", "t", None, None, (), Taken([{"role": "user", "content": "q"}], 0))]
    assert load([old | {"messages": None}]) == [Rewind("turn 1", "t", None, None, (), None)]


def test_a_step_saved_before_unkept_existed_kept_everything():
    old = {
        "turn": 1,
        "time": "t",
        "question": "q",
        "messages": 1,
        "steps": [{"call": "Edit(a)", "before": "s0", "after": "s1"}],
    }
    assert load([old]) == [Turn(1, "t", "q", 1, (Step("Edit(a)", "s0", "s1", ()),))]


def test_a_session_without_checkpoints_has_none():
    assert load(None) == [] and load([]) == []


@pytest.mark.parametrize(
    "change",
    [
        {"turn": True},  # a bool is an int to Python, not to the file's shape
        {"turn": "1"},
        {"time": 0},
        {"question": None},
        {"messages": "1"},
        {"steps": [{"call": "Edit(a)", "before": "s0", "after": 1}]},
        {"steps": [{"call": "Edit(a)", "before": 0, "after": "s1"}]},
        {"steps": [{"call": 0, "before": "s0", "after": "s1"}]},
        {"steps": [{"call": "Edit(a)", "before": "s0", "after": "s1", "unkept": [1]}]},
        {"steps": [{"call": "Edit(a)", "after": "s1"}]},
        {"steps": None},
    ],
)
def test_a_turn_of_another_shape_is_damaged(change):
    with pytest.raises(Damaged):
        load([entries.dump([FIRST])[0] | change])


@pytest.mark.parametrize(
    "change",
    [
        {"rewind": 2},
        {"time": None},
        {"before": 1},
        {"after": 1},
        {"tail": [{"turn": "x"}]},
        {"taken": {"messages": "not a list", "turns": 0}},
        {"taken": {"messages": [], "turns": "0"}},
        {"taken": {"turns": 0}},
    ],
)
def test_a_rewind_of_another_shape_is_damaged(change):
    with pytest.raises(Damaged):
        load([entries.dump([TALK_ONLY])[0] | change])


@pytest.mark.parametrize("entry", [["turn"], ["rewind"], "a rewind", 3, None])  # a list, a text, a number: no object
def test_entries_that_are_not_objects_are_damaged(entry):
    with pytest.raises(Damaged):
        load([entry])


def test_a_span_gives_the_agents_steps_a_rewinds_restore_and_the_code_a_conversation_rewind_left():
    ours = [(True, "s0", "s1"), (True, "s1", "s2")]
    assert entries.steps_of([FIRST, CODE_ONLY, TALK_ONLY]) == [*ours, (False, "s3", "s4"), *ours]
    assert entries.ids_of([CODE_ONLY, TALK_ONLY]) == {"s0", "s1", "s2", "s3", "s4"}
    assert entries.unkept_of([FIRST, SECOND, CODE_ONLY]) == ["big.bin", "dump.sql"]
    assert entries.unkept_of([CODE_ONLY]) == ["big.bin", "dump.sql"]  # what the turns a rewind took could not keep
    assert entries.unkept_of([TALK_ONLY, CODE_ONLY]) == ["big.bin", "dump.sql"]


def test_the_steps_and_snapshots_of_several_turns_are_all_of_them():
    assert entries.steps_of([FIRST, SECOND]) == [(True, "s0", "s1"), (True, "s1", "s2"), (True, "s2", "s3")]
    assert entries.ids_of([FIRST, SECOND]) == {"s0", "s1", "s2", "s3"}


def test_the_pairs_of_a_span_are_every_step_and_restore_those_a_rewind_took_away_too():
    assert entries.pairs_of([]) == set()
    assert entries.pairs_of([FIRST, SECOND]) == {("s0", "s1"), ("s1", "s2"), ("s2", "s3")}
    assert entries.pairs_of([FIRST, CODE_ONLY]) == {("s0", "s1"), ("s1", "s2"), ("s3", "s4"), ("s2", "s3")}
    assert entries.pairs_of([TALK_ONLY]) == {("s0", "s1"), ("s1", "s2")}  # the conversation alone: no restore
