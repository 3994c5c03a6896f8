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
