"""What the checkpoints of a conversation say and do around a rewind: why snapshots are gone, a redo that overwrites
or has nothing to take back, and a compression that drops the conversation but keeps the code."""

import os
import shutil
import time

import pytest

from narnat_agent.checkpoints.store import AGE_DAYS, CAP, CheckpointError
from tests.test_core.test_checkpoints import Agent, write

MINE = ("Edit", ["gen.py"], write("gen.py", "agent\n"))


def test_snapshots_pruned_from_a_store_older_than_the_conversation_are_said_to_be_pruned(no_git):
    agent, other = Agent(no_git), Agent(no_git)
    agent.turn("mine", MINE)
    root = no_git / ".narnat/checkpoints/files"
    week_ago = time.time() - (AGE_DAYS + 1) * 86400
    for path in [root, *root.rglob("*")]:
        os.utime(path, (week_ago, week_ago))
    other.checkpoints.prune()
    with pytest.raises(CheckpointError, match=r"\(they were pruned: the store keeps this conversation's and those of"):
        agent.checkpoints.plan(0)


def test_a_redo_after_the_store_was_deleted_says_so_when_no_turn_is_left(tree):
    agent = Agent(tree)
    agent.turn("mine", MINE)
    agent.rewind(0)
    shutil.rmtree(tree / ".narnat/checkpoints")
    with pytest.raises(CheckpointError, match=r"no longer in the store \(the checkpoint store was deleted"):
        agent.checkpoints.plan_redo()


def test_a_new_conversation_has_nothing_to_redo(tree):
    with pytest.raises(CheckpointError, match="there is nothing to redo"):
        Agent(tree).checkpoints.plan_redo()


def test_a_redo_told_to_overwrite_takes_back_a_file_the_user_changed_since(tree):
    agent = Agent(tree)
    agent.turn("mine", MINE)
    agent.rewind(0, conversation=False)
    (tree / "gen.py").write_text("the user's\n")
    plan = agent.checkpoints.plan_redo()
    assert plan is not None and plan.conflicts == ["gen.py"]
    _, restored = agent.checkpoints.redo(plan, overwrite=True)
    assert restored == ["gen.py"] and (tree / "gen.py").read_text() == "agent\n"


def test_after_compression_a_redo_gives_back_the_code_but_not_the_dropped_conversation(tree):
    agent = Agent(tree)
    agent.turn("first", ("Edit", ["out.txt"], write("out.txt", "first\n")))
    agent.turn("second", MINE)
    agent.rewind(1)
    agent.checkpoints.forget_conversation()
    record, restored = agent.checkpoints.redo(agent.checkpoints.plan_redo(), overwrite=False)
    assert record.taken is None and restored == ["gen.py"] and (tree / "gen.py").read_text() == "agent\n"
    assert [(t.question, t.conversation, t.code) for t in agent.checkpoints.turns()] == [
        ("first", False, True), ("second", False, True)]  # fmt: skip


def test_a_step_that_changed_only_a_file_too_big_to_keep_does_not_hide_the_steps_after_it(tree):
    (tree / ".gitignore").write_text("*.bin\n")
    (tree / "big.bin").write_bytes(b"b" * (CAP + 1))
    agent = Agent(tree)
    agent.turn("two calls", ("Write", ["big.bin"], write("big.bin", "c" * (CAP + 1))), MINE)
    assert agent.rewind(0) == ["gen.py"] and (tree / "gen.py").read_text().startswith("open(")


def test_a_broken_store_rewinds_only_the_conversation_in_one_sentence(tree):
    agent = Agent(tree)
    agent.turn("mine", MINE)
    shutil.rmtree(tree / ".narnat/checkpoints")
    (tree / ".narnat/checkpoints").write_text("not a folder")
    agent.turn("again", ("Edit", ["out.txt"], write("out.txt", "x\n")))
    with pytest.raises(CheckpointError) as refused:
        agent.checkpoints.plan(0)
    assert str(refused.value) == "checkpoints are off for this run, so only the conversation can be rewound."
