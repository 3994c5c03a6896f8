"""The interrupt watcher's key decisions (the keys as prompt_toolkit's parser delivers them)."""

import pytest
from prompt_toolkit.keys import Keys

from narnat_agent.ui.keys import Watcher

cancelled: list = []


def watcher(key="escape"):
    w = Watcher(on_cancel=lambda: cancelled.append(True))
    w.key = key
    w.working(True)
    return w


@pytest.fixture(autouse=True)
def fresh():
    cancelled.clear()


def calm(w: Watcher, keys: list) -> None:
    """Keys that must not cancel: a cancel fails the test (its KeyboardInterrupt would end the whole run)."""
    try:
        w.handle(keys)
    except KeyboardInterrupt:
        pytest.fail(f"{keys} cancelled")


def test_a_lone_escape_or_ctrl_c_cancels():
    for keys in ([Keys.Escape], [Keys.ControlC], [Keys.Escape, Keys.Escape], [Keys.Escape, Keys.Escape, "x"]):
        with pytest.raises(KeyboardInterrupt):
            watcher().handle(keys)
    assert len(cancelled) == 4
    w = watcher()
    with pytest.raises(KeyboardInterrupt):
        w.handle([Keys.Escape, "x", Keys.Escape])  # Alt+x, then a lone ESC
    assert w.take_typed() == "x" and len(cancelled) == 5


def test_arrows_function_keys_and_alt_combinations_never_cancel():
    w = watcher()
    calm(w, [Keys.Up, Keys.Down, Keys.F5, Keys.Escape, "x"])
    assert cancelled == [] and w.take_typed() == "x"


def test_lines_sent_while_busy_are_queued_apart_and_the_rest_kept_for_the_next_prompt():
    w = watcher()
    calm(w, ["h", "i", Keys.ControlM, Keys.ControlM, "a", Keys.ControlJ, "b", Keys.ControlM, "!"])
    assert w.queued == ["hi", "a\nb"]  # an empty Enter sends nothing; Ctrl-J is a newline inside a question
    assert w.take_typed() == "!" and w.take_typed() == ""


def test_escape_twice_needs_a_second_press():
    w = watcher("escape-twice")
    calm(w, [Keys.Escape])
    assert cancelled == []
    with pytest.raises(KeyboardInterrupt):
        w.handle([Keys.Escape])


def test_ctrl_c_setting_ignores_escape():
    w = watcher("ctrl-c")
    calm(w, [Keys.Escape])
    calm(w, [Keys.Escape])
    assert cancelled == []
    with pytest.raises(KeyboardInterrupt):
        w.handle([Keys.ControlC])


def test_the_key_cancels_once_a_turn_and_again_in_the_next_turn():
    w = watcher()
    with pytest.raises(KeyboardInterrupt):
        w.handle([Keys.Escape])
    calm(w, [Keys.Escape])  # the same turn: the cancel is under way, a second one could land in its cleanup
    calm(w, [Keys.ControlC])
    assert len(cancelled) == 1
    w.working(False)
    w.working(True)
    with pytest.raises(KeyboardInterrupt):
        w.handle([Keys.ControlC])
    assert len(cancelled) == 2


def test_an_enter_after_only_spaces_queues_nothing_and_a_question_is_said_when_queued():
    queued: list[str] = []
    w = Watcher(on_queued=queued.append)
    w.working(True)
    calm(w, [" ", " ", Keys.ControlM, "g", "o", Keys.ControlM])
    assert w.queued == ["go"] and queued == ["go"] and w.take_typed() == ""


def test_a_question_is_queued_before_it_is_said_so_a_command_run_at_once_can_take_itself_out():
    w = Watcher()

    def at_once(question: str) -> None:  # as the terminal UI does with /help: it runs now, not after the turn
        if question == "/help":
            w.queued.remove(question)

    w.on_queued = at_once
    w.working(True)
    calm(w, ["/", "h", "e", "l", "p", Keys.ControlM, "g", "o", Keys.ControlM])
    assert w.queued == ["go"]


def test_escape_twice_wants_the_second_press_soon_after_the_first():
    w = watcher("escape-twice")
    calm(w, [Keys.Escape])
    w.last_escape -= 2  # the first press, two seconds ago
    calm(w, [Keys.Escape])
    assert cancelled == []
    with pytest.raises(KeyboardInterrupt):
        w.handle([Keys.Escape])


def test_ctrl_c_cancels_whatever_the_escape_setting_and_without_a_callback():
    w = watcher("escape-twice")
    with pytest.raises(KeyboardInterrupt):
        w.handle([Keys.ControlC])
    bare = Watcher()
    bare.working(True)
    with pytest.raises(KeyboardInterrupt):
        bare.handle([Keys.ControlC])
    bare.working(True)
    calm(bare, ["o", "k", Keys.ControlM])
    assert bare.queued == ["ok"] and bare.take_typed() == ""


def test_only_printable_characters_are_typed():
    w = watcher()
    calm(w, ["é", "\x00", Keys.Tab, Keys.ControlA, "中", Keys.ControlJ])
    assert w.take_typed() == "é中\n" and cancelled == []


def test_escape_cancels_unless_told_otherwise():
    w = Watcher(on_cancel=lambda: cancelled.append(True))
    w.working(True)
    with pytest.raises(KeyboardInterrupt):
        w.handle([Keys.Escape])
    assert cancelled == [True]
