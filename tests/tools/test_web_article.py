"""The main content WebFetch keeps of a page, in process: readability's best block, and on a section front (several
teasers that score nearly as well) the block that holds them all."""

from narnat_agent.tools.web.article import main_html


def teaser(number: int, paragraphs: int = 6) -> str:
    line = f"<p>Story {number} tells, at some length and with commas, what happened, where, and why it matters.</p>"
    return f'<div class="teaser"><section><h2>Story {number}</h2>{line * paragraphs}</section></div>'


def front(*teasers: str) -> str:
    return f"<html><body><div id='front'>{''.join(teasers)}</div></body></html>"


def told(html: str, count: int) -> list[bool]:
    return [f"Story {number} tells" in html for number in range(count)]


def test_a_section_front_keeps_every_teaser() -> None:
    assert told(main_html(front(*(teaser(n) for n in range(4)))), 4) == [True] * 4
    assert told(main_html(front(*(teaser(n) for n in range(7)))), 7) == [True] * 7


def test_three_teasers_alike_are_not_yet_a_section_front() -> None:
    assert told(main_html(front(*(teaser(n) for n in range(3)))), 3) == [True, False, False]


def test_a_teaser_scoring_well_below_the_best_is_not_counted_alike() -> None:
    page = front(teaser(0), teaser(1), teaser(2), teaser(3, paragraphs=1))
    assert told(main_html(page), 4) == [True, False, False, False]


def test_teasers_grouped_in_pairs_make_one_front_with_the_block_holding_them_all() -> None:
    # the nearest block around the best teaser (the longest) holds one other alike: not yet the block of them all
    page = front(*(f"<div>{pair}</div>" for pair in (teaser(0, paragraphs=7) + teaser(1), teaser(2) + teaser(3))))
    assert told(main_html(page), 4) == [True] * 4


def test_teasers_held_by_the_body_alone_keep_the_best_one() -> None:
    page = f"<html><body>{''.join(teaser(n) for n in range(5))}</body></html>"
    assert told(main_html(page), 5) == [True, False, False, False, False]


def test_an_article_with_its_asides_keeps_the_article() -> None:
    article = "<article>" + "<p>The article says a great deal, at length, about its subject and more.</p>" * 10
    page = f"<html><body>{article}</article><aside>{teaser(1, 1)}{teaser(2, 1)}</aside></body></html>"
    html = main_html(page)
    assert "The article says" in html and "Story 1 tells" not in html


def test_a_page_of_nothing_readable_is_empty() -> None:
    assert "Story" not in main_html("<html><body></body></html>")


def test_a_teaser_scoring_exactly_three_quarters_of_the_best_counts_alike() -> None:
    # each paragraph scores the same: three of them are exactly three quarters of four
    line = "<p>Story {}, a, b, c tells at some length what happened where and why it matters to the readers.</p>"
    stories = [line.format(number) * count for number, count in ((0, 4), (1, 4), (2, 4), (3, 3))]
    page = front(*(f'<div class="teaser"><section>{story}</section></div>' for story in stories))
    assert [f"Story {number}," in main_html(page) for number in range(4)] == [True] * 4


def test_the_content_is_a_fragment_not_a_whole_document() -> None:
    html = main_html(front(teaser(0)))
    assert html.startswith("<div") and "<html" not in html


def test_a_section_front_in_a_block_whose_class_counts_against_it_keeps_the_score_its_teasers_gave_it() -> None:
    # readability weighs a block by its class ("media" counts against it) and by what its paragraphs gave it: taken
    # for the content with its class alone, the block of teasers would be dropped as clutter, and every teaser with it
    aside = " to the readers of the site" * 6
    line = "<p>Story {} tells, in brief, what happened, where, when, to whom, how, and why it matters" + aside + ".</p>"
    teasers = (f'<div class="teaser"><h2>Story {number}</h2>{line.format(number) * 2}</div>' for number in range(4))
    page = f"<html><body><div class='media'>{''.join(teasers)}</div></body></html>"
    assert told(main_html(page), 4) == [True] * 4
