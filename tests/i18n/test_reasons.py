"""Why a command asks or is refused reaches a person in the interface's language: every reason the analysis gives
for the commands of the corpora is a catalog message (with its values) that the Chinese catalog translates."""

from pathlib import Path

import pytest

from narnat_agent import i18n
from narnat_agent.i18n import Said
from narnat_agent.safety import analyze
from narnat_agent.safety.families import FAMILIES
from tests.safety import bash_corpus, bash_corpus_blind, bash_corpus_categories, bash_corpus_irreversible

CORPORA = (bash_corpus, bash_corpus_blind, bash_corpus_categories, bash_corpus_irreversible)


def _commands() -> list[str]:
    """Every command of the corpora: lists of commands, or of (command, category) pairs."""
    found = []
    for corpus in CORPORA:
        for value in vars(corpus).values():
            if isinstance(value, list):
                found += [item[0] if isinstance(item, tuple) else item for item in value]
    return sorted({command for command in found if isinstance(command, str)})


def untranslated(text: str) -> list[str]:
    """The parts of a reason the catalog does not say: the text itself when it is not a Said, or a message of it
    (its own or a nested one's) without a translation."""
    if not isinstance(text, Said):
        return [text]
    own = [text.template] if i18n._(text.template) == text.template else []
    return own + [part for value in text.values.values() if isinstance(value, Said) for part in untranslated(value)]


@pytest.fixture
def chinese():
    i18n.use("zh-CN")
    yield
    i18n.use("en")


def test_the_check_sees_an_english_reason(chinese):
    assert untranslated("rm deletes files: x") == ["rm deletes files: x"]
    assert untranslated(Said("{program} {lost}", program="rm", lost=Said("loses everything"))) == [
        "{program} {lost}",
        "loses everything",
    ]
    assert not untranslated(Said("{program} deletes files: {targets}", program="rm", targets="a b"))


def test_every_reason_to_ask_or_refuse_is_said_from_the_catalog(chinese):
    english = {}
    for command in _commands():
        verdict = analyze(command, Path("/tmp"))
        for reason in verdict.deletions + verdict.file_ops + verdict.interactive:
            english.update(dict.fromkeys(untranslated(reason), command))
    assert not english, f"mark with Said(N_(…)) and translate: {list(english.items())[:5]}"


def test_what_each_family_destroys_is_translated(chinese):
    forms = [form for family in FAMILIES for form in family.forms]
    assert not [text for text in {form.lost for form in forms} | {form.undo for form in forms} if untranslated(text)]
