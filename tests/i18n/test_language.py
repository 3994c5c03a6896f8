"""The interface's language in process: which catalog the locale chooses, the words that answer yes or no, how
sentences and notes are joined, and text that stays English for the model yet is said again in the person's
language."""

import shutil

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from narnat_agent import i18n
from narnat_agent.i18n import N_, NO, YES, Said, cleaned, from_locale, in_english, listed, sentences, spaced, spoken


@pytest.fixture
def chinese():
    i18n.use("zh-CN")
    yield
    i18n.use("en")


@pytest.mark.parametrize(
    ("env", "language"),
    [
        ({}, "en"),
        ({"LANG": "zh_CN.UTF-8"}, "zh-CN"),
        ({"LANG": "zh-CN"}, "zh-CN"),
        ({"LANG": "ZH_cn.utf8"}, "zh-CN"),
        ({"LANG": "zh_TW.UTF-8"}, "zh-CN"),  # a catalog of the same language serves another region
        ({"LANG": "zh"}, "zh-CN"),
        ({"LANG": "zh.UTF-8"}, "zh-CN"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LC_ALL": "en_US.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"),
        ({"LC_ALL": "", "LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh-CN"),
        ({"LC_MESSAGES": "en_GB", "LANG": "zh_CN.UTF-8"}, "en"),
        ({"LC_ALL": "zh_CN.GB18030", "LANG": "en_US.UTF-8"}, "zh-CN"),
    ],
)
def test_the_first_locale_variable_set_chooses_the_language(env, language):
    assert from_locale(env) == language


def test_yes_and_no_are_answered_in_every_language_narnat_speaks(chinese):
    assert i18n.answers(YES) == {"y", "yes", "是", "是的"}
    assert i18n.answers(NO) == {"n", "no", "不", "否"}


def test_sentences_and_notes_are_joined_as_their_language_writes_them():
    assert sentences("One.", "", "Two.", "Three.") == "One. Two. Three."
    assert sentences("已停止。", "Two.") == "已停止。Two."
    assert sentences("OK。", "Two.") == "OK。Two." and sentences("已停止.", "Two.") == "已停止. Two."
    assert sentences("", "Alone.") == "Alone."
    assert sentences() == ""
    assert spaced("(3 files)") == " (3 files)" and spaced("(3 files)", "\n") == "\n(3 files)"
    assert spaced("（3 个文件）") == "（3 个文件）" and spaced("") == " "


def test_what_the_model_reads_stays_english_while_the_person_reads_chinese(chinese):
    stopped = N_("Cancelled.")
    assert i18n._(stopped) == "已取消。"
    assert i18n._(stopped) != stopped
    assert in_english(lambda: i18n._(stopped)) == stopped
    assert i18n._(stopped) != stopped, "English only for that sentence"
    assert i18n.ngettext("+{n} line", "+{n} lines", 3) == "+{n} 行"
    assert in_english(lambda: i18n.ngettext("+{n} line", "+{n} lines", 1)) == "+{n} line"
    assert in_english(lambda: i18n.ngettext("+{n} line", "+{n} lines", 2)) == "+{n} lines"


def test_a_said_text_is_english_where_it_goes_and_said_again_in_the_persons_language(chinese):
    said = listed([Said(N_("Cancelled.")), "a path", Said(N_("Cancelled."))])
    assert said == "Cancelled.; a path; Cancelled."
    assert spoken(said) == f"{i18n._('Cancelled.')}；a path；{i18n._('Cancelled.')}"
    assert listed(["alone"]) == "alone" and spoken("plain") == "plain"
    masked = cleaned(said, str.upper)
    assert isinstance(masked, Said) and masked == "Cancelled.; A PATH; Cancelled.", "a template is no value"
    assert spoken(masked) == f"{i18n._('Cancelled.')}；A PATH；{i18n._('Cancelled.')}"
    assert cleaned("plain", str.upper) == "PLAIN"
    assert Said(N_("Cancelled.")).spoken() == i18n._("Cancelled.")
    assert Said("braces {as} typed").spoken() == "braces {as} typed", "a text without values is said as written"


@pytest.fixture
def catalog(tmp_path, monkeypatch):
    """A Chinese catalog of the test's own, in a copy of the catalogs; English again after the test."""
    copy = tmp_path / "locale"
    shutil.copytree(i18n.LOCALES, copy)
    monkeypatch.setattr(i18n, "LOCALES", copy)
    made = Catalog(locale="zh_CN", domain="narnat")
    yield made
    i18n.use("en")


def test_a_plural_translation_may_use_the_placeholders_of_either_english_form(catalog):
    catalog.add(("{n} old line", "{count} old lines"), ("{n} 旧行",))
    catalog.add(("{n} new line", "{count} new lines"), ("{count} 新行",))
    catalog.add(("{n} bad line", "{count} bad lines"), ("{other} 坏行",))
    with (i18n.LOCALES / "zh_CN/LC_MESSAGES/narnat.mo").open("wb") as f:
        write_mo(f, catalog)
    i18n.use("zh-CN")
    assert i18n.ngettext("{n} old line", "{count} old lines", 2) == "{n} 旧行"
    assert i18n.ngettext("{n} new line", "{count} new lines", 2) == "{count} 新行"
    assert i18n.ngettext("{n} bad line", "{count} bad lines", 2) == "{count} bad lines"
