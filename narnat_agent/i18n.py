"""The interface's language: English, or Simplified Chinese when the locale or the `language` setting says so.

Only what a person reads goes through here. What the model receives (the system prompt, tool schemas, tool results,
the compression instruction) stays as it is whatever the locale, so the prefix stays byte-stable for the
provider's cache. A translator adds a language with a catalog under `locale/`, without touching code.
"""

import functools
import gettext
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from pathlib import Path
from unicodedata import east_asian_width

DOMAIN = "narnat"
LOCALES = Path(__file__).parent / "locale"

ENGLISH = gettext.NullTranslations()

_catalog: gettext.NullTranslations = ENGLISH
_english: ContextVar[bool] = ContextVar("english", default=False)  # per thread: the others go on in their language


@functools.cache
def languages() -> dict[str, str | None]:
    """The `language` setting's values (`zh-CN`) and the catalog each one reads (`zh_CN`): English, and every
    compiled catalog under locale/."""
    found = sorted(path.parents[1].name for path in LOCALES.glob(f"*/LC_MESSAGES/{DOMAIN}.mo"))
    return {"en": None, **{code.replace("_", "-"): code for code in found}}


def from_locale(env: Mapping[str, str]) -> str:
    """The language the locale asks for: the first of LC_ALL, LC_MESSAGES, LANG that is set decides; a catalog of
    the same language serves another region (zh_TW reads zh_CN)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if value := env.get(name):
            asked = value.split(".")[0].replace("-", "_").lower()
            codes = {language: code.lower() for language, code in languages().items() if code}
            same = [language for language, code in codes.items() if code == asked]
            kin = [language for language, code in codes.items() if code.split("_")[0] == asked.split("_")[0]]
            return (same or kin or ["en"])[0]
    return "en"


def use(language: str) -> None:
    """Speak `language` (a key of languages()) from now on."""
    global _catalog
    code = languages().get(language)
    _catalog = _translations(code) if code else ENGLISH


@functools.cache
def _translations(code: str) -> gettext.NullTranslations:
    return gettext.translation(DOMAIN, LOCALES, [code], fallback=True)


@functools.cache
def answers(meaning: str) -> frozenset[str]:
    """The words that mean YES (or NO) in any language Narnat speaks, in lower case."""
    said = [meaning] + [_translations(code).gettext(meaning) for code in languages().values() if code]
    return frozenset(word.lower() for words in said for word in words.split())


def in_english(say: Callable[[], str]) -> str:
    """What `say` says, in English whatever the interface's language: for a sentence the model reads too."""
    token = _english.set(True)
    try:
        return say()
    finally:
        _english.reset(token)


def sentences(*said: str) -> str:
    """Whole sentences one after another: a space after an English full stop, none after a Chinese one (full width)."""
    text = ""
    for sentence in filter(None, said):
        text += sentence if not text or east_asian_width(text[-1]) in "WF" else " " + sentence
    return text


def _active() -> gettext.NullTranslations:
    return ENGLISH if _english.get() else _catalog


def _(message: str) -> str:
    """message in the interface's language."""
    return _active().gettext(message)


def N_(message: str) -> str:
    """message marked for the catalog where it is defined (a table); `_` translates it where it is shown."""
    return message


# The words that answer a question yes or no, separated by spaces; each catalog adds its language's own.
YES, NO = N_("y yes"), N_("n no")


def ngettext(singular: str, plural: str, n: int) -> str:
    return _active().ngettext(singular, plural, n)


class Said(str):
    """Text that stays English where it goes (the model's tool results, logs) and that the interface can say again
    in its own language: a catalog message (marked with N_) and its values, themselves plain or Said."""

    template: str
    values: dict[str, str]

    def __new__(cls, template: str, **values: str) -> "Said":
        text = super().__new__(cls, template.format(**values) if values else template)
        text.template, text.values = template, values
        return text

    def spoken(self) -> str:
        translated = _(self.template)
        return translated.format(**{k: spoken(v) for k, v in self.values.items()}) if self.values else translated


def spoken(text: str) -> str:
    """text as the interface says it: a Said in the interface's language, any other text as it is (a path, a name)."""
    return text.spoken() if isinstance(text, Said) else text


def listed(items: list[str]) -> str:
    """Several reasons as one text, each still said in the interface's language."""
    said = items[-1]
    for item in reversed(items[:-1]):
        said = Said(N_("{first}; {rest}"), first=item, rest=said)
    return said
