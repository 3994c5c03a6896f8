"""How close an extraction is to the expected main content: token F1 (CJK counted per character)."""

import re
from collections import Counter

CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


def tokens(text: str) -> list[str]:
    out: list[str] = []
    for word in re.findall(r"[^\W_]+", text.lower()):
        out.extend(word) if CJK.search(word) else out.append(word)
    return out


def plain(markdown: str) -> str:
    """The text a reader sees: link targets dropped."""
    return re.sub(r"\]\([^)]*\)", "]", markdown)


def token_f1(got: str, want: str) -> float:
    g, w = Counter(tokens(got)), Counter(tokens(want))
    common = sum((g & w).values())
    if not common:
        return 0.0
    precision, recall = common / sum(g.values()), common / sum(w.values())
    return 2 * precision * recall / (precision + recall)


def expected_text(expected_html: str) -> str:
    from bs4 import BeautifulSoup

    return BeautifulSoup(expected_html, "lxml").get_text(" ")
