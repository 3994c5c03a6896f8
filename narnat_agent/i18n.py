"""The interface's language: English, or one of the catalogs under locale/ when the locale or the `language` setting
says so.

Only what a person reads goes through here. What the model receives (the system prompt, tool schemas, tool results,
the compression instruction) stays as it is whatever the locale, so the prefix stays byte-stable for the
provider's cache. A translator adds a language with a catalog under `locale/`, without touching code.

A damaged catalog never stops the program: one that cannot be read leaves the interface in English (said once), and
a translation whose placeholders the English message does not have is not used (its English is).
"""

import contextlib
import functools
import gettext
import string
import struct
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from pathlib import Path
from unicodedata import east_asian_width

DOMAIN = "narnat"
LOCALES = Path(__file__).parent / "locale"

ENGLISH = gettext.NullTranslations()

_catalog: gettext.NullTranslations = ENGLISH
_english: ContextVar[bool] = ContextVar("english", default=False)  # per thread: the others go on in their language
_damaged: set[str] = set()  # the catalogs already said to be unreadable


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


# what gettext raises on a damaged .mo file
DAMAGED = (OSError, ValueError, LookupError, struct.error)


def use(language: str) -> str | None:
    """Speak `language` (a key of languages()) from now on; when its catalog cannot be read, English, and the first
    time, the sentence that says so."""
    global _catalog
    code, _catalog = languages().get(language), ENGLISH
    if code is None:
        return None
    try:
        _catalog = _translations(code)
    except DAMAGED as e:
        path = str(gettext.find(DOMAIN, LOCALES, [code]))
        if path in _damaged:
            return None
        _damaged.add(path)
        # in English: the catalog that would translate it is the one that cannot be read
        return f"The {language} catalog {path} cannot be read ({e}); the interface speaks English. Reinstall Narnat."
    return None


def _translations(code: str) -> gettext.NullTranslations:
    return gettext.translation(DOMAIN, LOCALES, [code], fallback=True)  # gettext keeps each file it read


@functools.cache
def answers(meaning: str) -> frozenset[str]:
    """The words that mean YES (or NO) in any language Narnat speaks (whose catalog can be read), in lower case."""
    said = [meaning]
    for code in filter(None, languages().values()):
        with contextlib.suppress(*DAMAGED):
            said.append(_translations(code).gettext(meaning))
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


def spaced(note: str, space: str = " ") -> str:
    """A note to put after a text, with the space before it: none before a full-width parenthesis (Chinese)."""
    return note if note and east_asian_width(note[0]) in "WF" else space + note


def _active() -> gettext.NullTranslations:
    return ENGLISH if _english.get() else _catalog


def _(message: str) -> str:
    """message in the interface's language."""
    translated = _active().gettext(message)
    return translated if translated is message or _fits(translated, message) else message


def N_(message: str) -> str:
    """message marked for the catalog where it is defined (a table); `_` translates it where it is shown."""
    return message


# The words that answer a question yes or no, separated by spaces; each catalog adds its language's own.
YES, NO = N_("y yes"), N_("n no")


def ngettext(singular: str, plural: str, n: int) -> str:
    translated = _active().ngettext(singular, plural, n)
    english = singular if n == 1 else plural
    return translated if translated in (singular, plural) or _fits(translated, singular, plural) else english


@functools.cache
def _fits(translated: str, *english: str) -> bool:
    """Whether a translation can be formatted as its English is: each of its placeholders (name, conversion and
    format) is one the English has, and its braces are well formed."""
    try:
        return _placeholders(translated) <= set().union(*map(_placeholders, english))
    except ValueError:
        return False


def _placeholders(text: str) -> set[tuple[str, str | None, str | None]]:
    return {(name, conversion, spec) for _text, name, spec, conversion in string.Formatter().parse(text)
            if name is not None}  # fmt: skip


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


def cleaned(text: str, clean: Callable[[str], str]) -> str:
    """text passed through clean (masking, making inert), a Said kept a Said: its values are cleaned, so that it
    can still be said in the interface's language."""
    if isinstance(text, Said):
        return Said(text.template, **{name: cleaned(value, clean) for name, value in text.values.items()})
    return clean(text)


def spoken(text: str) -> str:
    """text as the interface says it: a Said in the interface's language, any other text as it is (a path, a name)."""
    return text.spoken() if isinstance(text, Said) else text


def listed(items: list[str]) -> str:
    """Several reasons as one text, each still said in the interface's language."""
    said = items[-1]
    for item in reversed(items[:-1]):
        said = Said(N_("{first}; {rest}"), first=item, rest=said)
    return said
