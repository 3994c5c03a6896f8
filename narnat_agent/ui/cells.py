"""How many terminal columns text takes: East Asian wide and full-width characters take two, combining marks none."""

import unicodedata


def width(text: str) -> int:
    return sum(_columns(char) for char in text)


def _columns(char: str) -> int:
    if unicodedata.combining(char):
        return 0
    return 2 if unicodedata.east_asian_width(char) in "WF" else 1


def ljust(text: str, columns: int) -> str:
    """text padded with spaces to fill `columns` terminal columns."""
    return text + " " * max(columns - width(text), 0)


def wrap(text: str, columns: int) -> list[str]:
    """Lines of at most `columns` columns, broken at spaces or between wide characters (never inside one)."""
    lines: list[str] = []
    line = ""
    for word in _words(text):
        if line and width((line + word).rstrip()) > columns:  # the space a line would break at needs no column
            lines.append(line.rstrip())
            line = word.lstrip()
        else:
            line += word
    return [*lines, line.rstrip()] if line.strip() else lines


OPENING = "（《“‘【「『〈"  # never at the end of a line
CLOSING = "，。）；：、！？》”’】」』〉"  # never at the start of one


def _words(text: str) -> list[str]:
    """Pieces a line may break after: a run of narrow characters with its trailing space, or one wide character
    (with the punctuation that must not be parted from it)."""
    words: list[str] = []
    word = ""
    for char in text:
        if char in CLOSING and (word or words):
            word = word + char if word else words.pop() + char
            words.append(word)
            word = ""
        elif char in OPENING:
            if word:
                words.append(word)
            word = char
        elif _columns(char) == 2 and word[-1:] not in tuple(OPENING):
            words += [word, char] if word else [char]
            word = ""
        elif _columns(char) == 2:
            words.append(word + char)
            word = ""
        else:
            word += char
            if char == " ":
                words.append(word)
                word = ""
    return [*words, word] if word else words
