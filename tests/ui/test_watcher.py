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


def test_a_lone_escape_or_ctrl_c_cancels():
    for keys in ([Keys.Escape], [Keys.ControlC], [Keys.Escape, Keys.Escape]):
        with pytest.raises(KeyboardInterrupt):
            watcher().handle(keys)
    assert len(cancelled) == 3


def test_arrows_function_keys_and_alt_combinations_never_cancel():
    w = watcher()
    w.handle([Keys.Up, Keys.Down, Keys.F5, Keys.Escape, "x"])
    assert cancelled == [] and w.take_typed() == "x"


def test_lines_sent_while_busy_are_queued_apart_and_the_rest_kept_for_the_next_prompt():
    w = watcher()
    w.handle(["h", "i", Keys.ControlM, Keys.ControlM, "a", Keys.ControlJ, "b", Keys.ControlM, "!"])
    assert w.queued == ["hi", "a\nb"]  # an empty Enter sends nothing; Ctrl-J is a newline inside a question
    assert w.take_typed() == "!" and w.take_typed() == ""


def test_escape_twice_needs_a_second_press():
    w = watcher("escape-twice")
    w.handle([Keys.Escape])
    assert cancelled == []
    with pytest.raises(KeyboardInterrupt):
        w.handle([Keys.Escape])


def test_ctrl_c_setting_ignores_escape():
    w = watcher("ctrl-c")
    w.handle([Keys.Escape])
    w.handle([Keys.Escape])
    assert cancelled == []
    with pytest.raises(KeyboardInterrupt):
        w.handle([Keys.ControlC])
