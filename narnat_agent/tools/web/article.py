"""A page's main content as HTML: readability's choice, and on a page of teasers (a section front) the block that
holds them all rather than the one teaser that scored best.

Imported when a page is fetched (readability and lxml take a while to load).
"""

from readability import Document

TOP = 5  # candidates compared with the best one, as Readability.js does
CLOSE = 0.75  # a candidate scoring this share of the best one's score is as likely the content
ALIKE = 3  # so many such candidates under one ancestor make that ancestor the content


class _Teasers(Document):
    def select_best_candidate(self, candidates: dict) -> dict | None:
        """The best-scored block; when several others score nearly as well, the nearest ancestor holding them."""
        best = super().select_best_candidate(candidates)
        if not best:
            return best
        ranked = sorted(candidates.values(), key=lambda c: c["content_score"], reverse=True)[:TOP]
        close = [set(c["elem"].iterancestors()) for c in ranked
                 if c is not best and c["content_score"] >= CLOSE * best["content_score"]]  # fmt: skip
        if len(close) < ALIKE:
            return best
        for parent in best["elem"].iterancestors():
            if parent.tag == "body":
                break
            if sum(parent in ancestors for ancestors in close) >= ALIKE:
                candidates.setdefault(parent, self.score_node(parent))
                return candidates[parent]
        return best


def main_html(page: str) -> str:
    """The main content's HTML; raises readability's error on a page it cannot read."""
    return _Teasers(page).summary(html_partial=True)
