"""WebFetch extraction quality on the saved Readability test pages: token F1 against the expected article.

Run: python bench/webfetch_quality.py   (prints a table; the chosen pipeline is Narnat's main_content)
"""

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from narnat_agent.tools.web.fetch import _markdown, main_content  # noqa: E402
from tests.web_quality import expected_text, plain, token_f1  # noqa: E402

PAGES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "web" / "readability"
BASE = "http://fakehost/test/page.html"


def readability(page: str) -> str:
    from readability import Document

    return _markdown(Document(page).summary(html_partial=True), BASE)


def trafilatura_only(page: str) -> str:
    """trafilatura, no longer a dependency: measured where it is installed."""
    try:
        import trafilatura
    except ImportError:
        return ""

    return trafilatura.extract(page, url=BASE, output_format="markdown", include_links=True, include_tables=True,
                               include_formatting=True, include_images=False) or ""  # fmt: skip


PIPELINES = {
    "html2text whole page (baseline)": lambda page: _markdown(page, BASE),
    "readability + html2text": readability,
    "trafilatura": trafilatura_only,
    "narnat (readability, teasers; else whole page)": lambda page: main_content(page, BASE),
}


def main() -> None:
    names = sorted(p.name for p in PAGES.iterdir())
    pages = {n: (PAGES / n / "source.html").read_bytes().decode("utf-8", "replace") for n in names}
    wanted = {n: expected_text((PAGES / n / "expected.html").read_text()) for n in names}
    print(f"{'pipeline':44} {'mean F1':>7} {'min len':>7} {'ms/page':>7}  " + " ".join(f"{n[:9]:>9}" for n in names))
    baseline = None
    for label, extract in PIPELINES.items():
        started = time.perf_counter()
        outputs = {n: plain(extract(pages[n])) for n in names}
        per_page = (time.perf_counter() - started) * 1000 / len(names)
        scores = {n: token_f1(outputs[n], wanted[n]) for n in names}
        mean = sum(scores.values()) / len(scores)
        baseline = baseline or mean
        shortest = min(len(outputs[n]) / len(wanted[n]) for n in names)
        cells = " ".join(f"{scores[n]:9.2f}" for n in names)
        print(f"{label:44} {mean:7.3f} {shortest:7.2f} {per_page:7.0f}  {cells}   ({mean / baseline:.2f}x baseline)")


if __name__ == "__main__":
    main()
