"""The elements open at a point of an HTML page, as tree-sitter-html's scanner keeps them: what an HTML Edit's
statements are parsed inside."""

import pytest

from narnat_agent.tools.files.html_context import closing, open_elements, opening
from tests.tools.syntax_corpus import case_id as name

OPEN = [
    ("<html><body><div>", ["HTML", "BODY", "DIV"]),
    # an element that cannot hold the next start tag closes first
    ("<div><p>text<div>", ["DIV", "DIV"]),
    ("<p><span>", ["P", "SPAN"]),
    ("<ul><li>a<li>b", ["UL", "LI"]),
    ("<dl><dt>t<dd>d", ["DL", "DD"]),
    ("<dl><dd>d<dt>t", ["DL", "DT"]),
    ("<table><tr><td>a<th>b", ["TABLE", "TR", "TH"]),
    ("<tr><td><tr>", ["TR"]),
    ("<td><td>", ["TD"]),
    ("<th><td>", ["TD"]),
    ("<rb><rt><rp>", ["RP"]),
    ("<optgroup><optgroup>", ["OPTGROUP"]),
    ("<colgroup><col><col>", ["COLGROUP", "COL"]),
    ("<colgroup><col><tr>", ["TR"]),
    # a void element closes at the next tag; /> closes at once
    ("<div><br>", ["DIV", "BR"]),
    ("<div><br><span>", ["DIV", "SPAN"]),
    ("<div><img src=x><hr><i>", ["DIV", "I"]),
    ("<div/><p>", ["P"]),
    ("<a/b>", ["A"]),
    ("<a href=x/y>", ["A"]),
    # comments and declarations hold no tags; quoted attributes hold no tag's end
    ("<div><!-- <span> -->", ["DIV"]),
    ("<!DOCTYPE html><div>", ["DIV"]),
    ("<!--x--><!x><b>", ["B"]),
    ("<!--more--><div><!-- end -->", ["DIV"]),  # a comment's text next to its dashes is not read as a tag's name
    ('<div class="a>b"><span>', ["DIV", "SPAN"]),
    ("<div title='a/>b'><span>", ["DIV", "SPAN"]),
    # raw text up to its closing tag, whatever its case
    ("<script>if (a < b) { '</div>' }</script><p>", ["P"]),
    ("<STYLE>a{}</style><i>", ["I"]),
    ("<div><script>x</SCRIPT>", ["DIV"]),
    ("<script>a</script><div><script>b</script>", ["DIV"]),  # each script's own closing tag
    ("<!--<b>--><i>", ["I"]),  # a tag at a comment's end is inside it
    # an end tag closes the innermost element of its name and all inside it; one no element has is ignored
    ("<div><span></div>", []),
    ("<div><div><span></div>", ["DIV"]),
    ("<div></span>", ["DIV"]),
    ("<div></>", ["DIV"]),
    ("<b><i></B>", []),
    # a < that starts no tag
    ("a < b <div>", ["DIV"]),
    ("<my-el:x>", ["MY-EL:X"]),
]


@pytest.mark.parametrize(("page", "elements"), OPEN, ids=[name(p) for p, _ in OPEN])
def test_the_elements_open_at_the_end_of_a_page(page, elements):
    assert open_elements(page) == elements


@pytest.mark.parametrize("page", ["<div><!-- <span>", "<!DOCTYPE html", "<div class='a", "<script>x", "<div><style>"])
def test_a_page_that_ends_inside_a_comment_a_tag_or_raw_text_has_no_answer(page):
    assert open_elements(page) is None


def test_a_page_read_inside_elements_already_open_closes_and_nests_in_them():
    inside = ["DIV", "P"]
    assert open_elements("<span>", inside) == ["DIV", "P", "SPAN"]
    assert open_elements("</div>", inside) == []
    assert open_elements("<div>", inside) == ["DIV", "DIV"]  # the paragraph closes first
    assert inside == ["DIV", "P"]  # the caller's list is left as it was


def test_the_elements_are_opened_again_and_closed_innermost_first_as_tags():
    assert opening(["HTML", "BODY"]) == "<html><body>"
    assert opening([]) == ""
    assert closing(["DIV", "BR", "P"]) == "</p></div>"  # a void element has no end tag
    assert closing([]) == ""
