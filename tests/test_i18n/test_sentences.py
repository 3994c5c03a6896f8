"""Sentences said to a person follow the interface's language; the same sentence for the model stays English."""

import pytest

from narnat_agent import i18n
from narnat_agent.core.turn import Stop, TurnStopped
from narnat_agent.i18n import _, in_english, sentences


@pytest.fixture
def chinese():
    i18n.use("zh-CN")
    yield
    i18n.use("en")


def test_sentences_follow_each_other_with_a_space_in_english_and_without_one_in_chinese():
    assert sentences("Stopped.", "", "Say 'continue' to go on.") == "Stopped. Say 'continue' to go on."
    assert sentences("已停止。", "回复“继续”即可。") == "已停止。回复“继续”即可。"


def test_a_stop_is_said_in_the_interface_language_and_told_to_the_model_in_english(chinese):
    stop = TurnStopped(Stop.CUT_OFF, lambda: _("The provider stopped the answer ({finish}).").format(finish="x"))
    assert str(stop) == "服务商中止了回答（x）。"
    assert stop.for_model == "The provider stopped the answer (x)."
    assert in_english(lambda: _("Nothing rewound.")) == "Nothing rewound."
    assert _("Nothing rewound.") == "没有回退任何内容。"  # in English for that one sentence only
