"""The watcher on a keyboard of its own (a pipe standing for the terminal): what it does with the keys while the agent
works, what it hands the next prompt, and what it leaves when the keyboard is given back."""

import time
from collections.abc import Callable, Iterator

import pytest
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.input.typeahead import get_typeahead
from prompt_toolkit.keys import Keys

from narnat_agent.ui.keys import Watcher
from tests.platforms import posix_only

pytestmark = posix_only("the console's keys are read through its handle: a pipe cannot stand for it")


@pytest.fixture
def pipe() -> Iterator[PipeInput]:
    with create_pipe_input() as keys:
        yield keys
        get_typeahead(keys)  # nothing left for another test's input of the same pipe number


def until(condition: Callable[[], object]) -> None:
    """Wait for the watcher's thread to have read what was sent (it wakes every POLL seconds)."""
    deadline = time.monotonic() + 5
    while not condition():
        assert time.monotonic() < deadline, "the watcher did not take the keys"
        time.sleep(0.01)


def given_back(pipe: PipeInput) -> list:
    return [k.key for k in get_typeahead(pipe)]


def handed(pipe: PipeInput, keys: list) -> None:
    """Wait for these keys to be handed to the next prompt (the watcher may hand them over in more than one go)."""
    got: list = []
    until(lambda: got.extend(given_back(pipe)) or got == keys)


def test_without_a_terminal_there_is_nothing_to_watch():
    w = Watcher(keyboard=lambda: None)
    w.start()
    assert w.stop() is False
    w.hold()
    w.start()
    assert w.stop() is False


def test_keys_typed_while_the_agent_works_are_queued_kept_and_held_for_the_next_prompt(pipe):
    queued: list[str] = []
    w = Watcher(on_queued=queued.append, keyboard=lambda: pipe)
    w.start()
    w.working(True)
    pipe.send_text("fix it\rnext")
    until(lambda: queued)
    pipe.send_text("\x04")  # Ctrl-D while busy: it leaves at the next prompt
    until(lambda: w.held)
    assert w.stop() is True and w.stop() is False
    assert w.queued == ["fix it"] and queued == ["fix it"] and w.take_typed() == "next"
    assert given_back(pipe) == [Keys.ControlD] and w.held == []


def test_keys_typed_while_nothing_works_go_to_the_next_prompt_as_typed(pipe):
    w = Watcher(keyboard=lambda: pipe)
    w.start()
    w.start()  # already watching: nothing more starts
    pipe.send_text("ls\r")
    handed(pipe, ["l", "s", Keys.ControlM])
    assert w.stop() is True and w.queued == [] and w.take_typed() == ""


def test_ctrl_c_while_the_agent_works_cancels_the_turn(pipe):
    cancelled: list[bool] = []
    w = Watcher(on_cancel=lambda: cancelled.append(True), keyboard=lambda: pipe)
    w.start()
    w.working(True)
    with pytest.raises(KeyboardInterrupt):
        pipe.send_text("\x03")
        until(lambda: False)
    w.stop()
    assert cancelled == [True]


def test_what_was_typed_before_the_watcher_waits_for_the_first_prompt_with_its_enters(pipe):
    pipe.send_text("make\n")  # typed through the line mode, which turned its Enter into a newline
    w = Watcher(keyboard=lambda: pipe)
    w.hold()
    assert given_back(pipe) == ["m", "a", "k", "e", Keys.ControlM]
    other = Watcher(keyboard=lambda: pytest.fail("held already: the keyboard is not taken again"))
    other._input = pipe
    other.hold()


def test_a_lone_escape_cancels_once_the_keyboard_has_nothing_more(pipe):
    cancelled: list[bool] = []
    w = Watcher(on_cancel=lambda: cancelled.append(True), keyboard=lambda: pipe)
    w.start()
    w.working(True)
    with pytest.raises(KeyboardInterrupt):
        pipe.send_text("\x1b")  # it could begin an Alt+key: read as ESC when no key follows it
        until(lambda: False)
    assert w.stop() is True and cancelled == [True]


def test_each_ctrl_d_typed_as_a_turn_ends_reaches_its_prompt(pipe):
    w = Watcher(keyboard=lambda: pipe)
    w.start()
    for __ in range(2):
        w.working(True)
        pipe.send_text("\x04")
        until(lambda: w.held)
        w.working(False)  # the turn is over: the Ctrl-D goes to the prompt
        handed(pipe, [Keys.ControlD])
    assert w.stop() is True


def test_a_watcher_started_again_cancels_again(pipe):
    cancelled: list[bool] = []
    w = Watcher(on_cancel=lambda: cancelled.append(True), keyboard=lambda: pipe)
    w.start()
    w.working(True)
    with pytest.raises(KeyboardInterrupt):
        pipe.send_text("\x03")
        until(lambda: False)
    w.stop()
    w.start()
    with pytest.raises(KeyboardInterrupt):
        pipe.send_text("\x03")
        until(lambda: False)
    w.stop()
    assert cancelled == [True, True]
