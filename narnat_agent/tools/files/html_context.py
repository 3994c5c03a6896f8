"""The elements open at a point of an HTML page, as tree-sitter-html's scanner keeps them: what an HTML Edit's
statements are parsed inside, so that they read as they do in the whole page without parsing the page.

The scanner's rules: a start tag opens an element (a void one, `<br>`, closes at the next tag; `/>` closes at once;
`<script>` and `<style>` hold raw text up to their closing tag); an element that cannot hold the next start tag
closes first (`<p>` before a `<div>`, `<li>` before an `<li>`); an end tag closes the innermost element of its name
and all inside it, and is ignored when no open element has its name; comments and `<!...>` declarations hold no tags.
"""

import re

TAG = re.compile(r"<(!--|!|/?)([A-Za-z0-9:-]*)")
START_END = re.compile(r"""(?:[^>"'/]|"[^"]*"|'[^']*'|/(?!>))*(/?)>""")  # a start tag's attributes, and its end
VOID = {"AREA", "BASE", "BASEFONT", "BGSOUND", "BR", "COL", "COMMAND", "EMBED", "FRAME", "HR", "IMAGE", "IMG", "INPUT",
        "ISINDEX", "KEYGEN", "LINK", "MENUITEM", "META", "NEXTID", "PARAM", "SOURCE", "TRACK", "WBR"}  # fmt: skip
RAW = {"SCRIPT", "STYLE"}
NOT_IN_PARAGRAPH = {"ADDRESS", "ARTICLE", "ASIDE", "BLOCKQUOTE", "DETAILS", "DIV", "DL", "FIELDSET", "FIGCAPTION",
                    "FIGURE", "FOOTER", "FORM", "H1", "H2", "H3", "H4", "H5", "H6", "HEADER", "HR", "MAIN", "NAV", "OL",
                    "P", "PRE", "SECTION"}  # fmt: skip
# an element: the start tags that close it (None: any in NOT_IN_PARAGRAPH)
CLOSED_BY = {"LI": {"LI"}, "DT": {"DT", "DD"}, "DD": {"DT", "DD"}, "RB": {"RB", "RT", "RP"}, "RT": {"RB", "RT", "RP"},
             "RP": {"RB", "RT", "RP"}, "OPTGROUP": {"OPTGROUP"}, "TR": {"TR"}, "TD": {"TD", "TH", "TR"},
             "TH": {"TD", "TH", "TR"}}  # fmt: skip


def open_elements(page: str, inside: list[str] | None = None) -> list[str] | None:
    """The names (upper case) of the elements open at the end of `page` (read inside the elements `inside`, none by
    default), outermost first; None when it ends inside a comment, a tag or raw text, where the scanner's state is
    more than its open elements."""
    stack = list(inside or [])
    at, upper = 0, ""
    while (found := TAG.search(page, at)) is not None:
        kind, name = found[1], found[2].upper()
        if kind == "!--" or kind == "!":
            end = page.find("-->" if kind == "!--" else ">", found.start(2))  # a comment's text is no tag name
            if end < 0:
                return None
            at = end + (3 if kind == "!--" else 1)
        elif kind == "/" and name:
            if stack and name in stack:
                del stack[len(stack) - 1 - stack[::-1].index(name) :]
            at = found.end()
        elif kind == "" and name:
            rest = START_END.match(page, found.end())
            if rest is None:
                return None
            _close_for(stack, name)
            stack.append(name)
            at = rest.end()
            if rest[1]:  # />
                stack.pop()
            elif name in RAW:
                upper = upper or page.upper()
                end = upper.find(f"</{name}", at)
                if end < 0:
                    return None
                at = end
        else:
            at = found.end()
    return stack


def _close_for(stack: list[str], name: str) -> None:
    """The elements a start tag of `name` closes first: a void one, one that cannot hold it."""
    while stack and (stack[-1] in VOID or _cannot_hold(stack[-1], name)):
        stack.pop()


def _cannot_hold(parent: str, child: str) -> bool:
    if parent == "P":
        return child in NOT_IN_PARAGRAPH
    if parent == "COLGROUP":
        return child != "COL"
    return child in CLOSED_BY.get(parent, ())


def opening(elements: list[str]) -> str:
    """Start tags that open these elements again, on one line."""
    return "".join(f"<{name.lower()}>" for name in elements)


def closing(elements: list[str]) -> str:
    """End tags that close these elements, innermost first, on one line (the grammar wants each closed)."""
    return "".join(f"</{name.lower()}>" for name in reversed(elements) if name not in VOID)
