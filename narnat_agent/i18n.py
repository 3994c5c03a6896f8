"""The interface's language: English, or Simplified Chinese when the locale or the `language` setting says so.

Only what a person reads goes through here. What the model receives (the system prompt, tool schemas, tool results,
the compression instruction) stays as it is whatever the locale, so the prefix stays byte-stable for the
provider's cache. A translator adds a language with a catalog under `locale/`, without touching code.
"""

import gettext
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from pathlib import Path
from unicodedata import east_asian_width

DOMAIN = "narnat"
LOCALES = Path(__file__).parent / "locale"
LANGUAGES = {"en": None, "zh-CN": "zh_CN"}  # the `language` setting's values, and the catalog each one reads

ENGLISH = gettext.NullTranslations()

_catalog: gettext.NullTranslations = ENGLISH
_english: ContextVar[bool] = ContextVar("english", default=False)  # per thread: the others go on in their language


def from_locale(env: Mapping[str, str]) -> str:
    """The language the locale asks for: the first of LC_ALL, LC_MESSAGES, LANG that is set decides."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if value := env.get(name):
            return "zh-CN" if value.lower().startswith("zh") else "en"
    return "en"


def use(language: str) -> None:
    """Speak `language` (a key of LANGUAGES) from now on."""
    global _catalog
    code = LANGUAGES.get(language)
    _catalog = gettext.translation(DOMAIN, LOCALES, [code], fallback=True) if code else ENGLISH


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


def ngettext(singular: str, plural: str, n: int) -> str:
    return _active().ngettext(singular, plural, n)
