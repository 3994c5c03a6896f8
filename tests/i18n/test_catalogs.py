"""The catalogs: every message the code marks has a translation, with the same placeholders, and the compiled
catalog Narnat ships is the one its source compiles to."""

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from narnat_agent import i18n

PACKAGE = Path(i18n.__file__).parent
CATALOGS = sorted(i18n.LOCALES.glob("*/LC_MESSAGES/narnat.po"))
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}


def _marked() -> set[str]:
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(PACKAGE, keywords=KEYWORDS):
        found.update(message if isinstance(message, tuple) else (message,))
    return found


def _catalog(path: Path):
    with path.open("rb") as po:
        return read_po(po)


def _placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{[^{}]*\}", text))


def _translations(messages) -> dict[str, tuple[str, ...]]:
    """Each message id (both of a plural's) with its translated forms."""
    found = {}
    for message in messages:
        ids = tuple(message.id) if isinstance(message.id, (tuple, list)) else (message.id,)
        forms = tuple(message.string) if isinstance(message.string, (tuple, list)) else (message.string,)
        found.update({id_: forms for id_ in ids if id_})
    return found


def test_there_is_a_simplified_chinese_catalog():
    assert [path.parts[-3] for path in CATALOGS] == ["zh_CN"]


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.parts[-3])
def test_every_marked_message_is_translated_with_the_same_placeholders(path):
    translated = _translations(_catalog(path))
    missing = _marked() - {m for m, forms in translated.items() if all(forms)}
    assert not missing, f"translate in {path.name}: {sorted(missing)[:5]}"
    stale = set(translated) - _marked()
    assert not stale, f"no longer in the code, remove from {path.name}: {sorted(stale)[:5]}"
    for message, forms in translated.items():
        assert all(_placeholders(form) == _placeholders(message) for form in forms), message


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: p.parts[-3])
def test_the_shipped_catalog_is_compiled_from_its_source(path):
    with path.with_suffix(".mo").open("rb") as mo:
        shipped = _translations(read_mo(mo))
    assert shipped == _translations(_catalog(path)), "run: pybabel compile -d narnat_agent/locale -D narnat"


@pytest.mark.parametrize(
    ("env", "language"),
    [
        ({"LANG": "zh_CN.UTF-8"}, "zh-CN"),
        ({"LC_ALL": "zh_TW.UTF-8", "LANG": "C.UTF-8"}, "zh-CN"),
        ({"LC_ALL": "C.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"),
        ({"LC_MESSAGES": "zh_CN.UTF-8"}, "zh-CN"),
        ({"LANG": "en_US.UTF-8"}, "en"),
        ({}, "en"),
    ],
)
def test_the_first_locale_variable_set_decides_the_language(env, language):
    assert i18n.from_locale(env) == language


def test_the_interface_speaks_the_language_chosen_and_english_otherwise():
    try:
        i18n.use("zh-CN")
        assert i18n._("Cancelled.") == "已取消。"
        i18n.use("en")
        assert i18n._("Cancelled.") == "Cancelled."
    finally:
        i18n.use("en")


def test_the_languages_are_the_catalogs_under_locale():
    assert i18n.languages() == {"en": None, **{p.parts[-3].replace("_", "-"): p.parts[-3] for p in CATALOGS}}


def test_the_words_for_yes_and_no_come_from_every_catalog():
    assert i18n.answers(i18n.YES) == {"y", "yes", "是", "是的"}
    assert i18n.answers(i18n.NO) == {"n", "no", "否", "不"}
