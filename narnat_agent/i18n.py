"""The interface's language: English, or Simplified Chinese when the locale or the `language` setting says so.

Only what a person reads goes through here. What the model receives (the system prompt, tool schemas, tool results,
the compression instruction) stays as it is whatever the locale, so the prefix stays byte-stable for the
provider's cache. A translator adds a language with a catalog under `locale/`, without touching code.
"""

import gettext
from collections.abc import Mapping
from pathlib import Path

DOMAIN = "narnat"
LOCALES = Path(__file__).parent / "locale"
LANGUAGES = {"en": None, "zh-CN": "zh_CN"}  # the `language` setting's values, and the catalog each one reads

_catalog: gettext.NullTranslations = gettext.NullTranslations()


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
    _catalog = gettext.translation(DOMAIN, LOCALES, [code], fallback=True) if code else gettext.NullTranslations()


def _(message: str) -> str:
    """message in the interface's language."""
    return _catalog.gettext(message)


def N_(message: str) -> str:
    """message marked for the catalog where it is defined (a table); `_` translates it where it is shown."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    return _catalog.ngettext(singular, plural, n)
