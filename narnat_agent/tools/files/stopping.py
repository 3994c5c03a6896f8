"""Where a compiler stops on a broken JavaScript or TypeScript file: the first token the parser could not take.

Tree-sitter's recovery wraps an error in a node that can start far above it (the enclosing function, line 1), while
node and tsc name the token where parsing stopped. Where recovery put a token the parser missed, that is the place;
otherwise the place is in tree-sitter's own log: the tree is parsed again from its first error node with the log on,
and the parse is stopped as soon as the log names it, so the cost is what lies between that node and the error.
Then the places the compilers name differently: node names the token before for an argument list left open, both
name the line of a string left open, and tsc names a JSX element's opening tag when its closing tag is missing."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # only its objects are handled here: the module loads with the first check
    from tree_sitter import Node, Parser, Tree

PROCESS = re.compile(r"process version:(\d+), version_count:\d+, state:\d+, row:(\d+), col:(\d+)")
SPACE = re.compile(rb"\s*")
CHUNK = 1 << 16
# node's "missing ) after argument list" names the argument list's last token; a parenthesis after anything else,
# a bracket or a brace left open, the token that did not fit
OPENING = {"(", "[", "{", "${"}
CLOSING = {")", "]", "}"}
CALLEES = {"identifier", "property_identifier", "private_property_identifier", ")", "]", "this", "super"}
LOOKBACK = 2000  # tokens read back for the bracket left open
QUOTES = {"'", '"'}


@dataclass(frozen=True)
class Stop:
    offset: int  # bytes into the text (its length: the end of the file)
    message: str


def stop(parser: Parser, data: bytes, tree: Tree, grammar: str) -> Stop | None:
    """Where the compiler would name the first error of a tree that has one; None when the log does not say."""
    first = _first_error(tree.root_node)
    after = _stopped_after(parser, data, tree, first)
    if after is None:
        return None
    padding = SPACE.match(data, after)  # tree-sitter's padding before a token is whitespace only
    at = padding.end() if padding else after
    previous = _token_before(tree.root_node, after)
    if previous is not None and (string := _open_string(previous)):  # the scanner's error: before the parser's
        return Stop(string.start_byte, "string not closed on its line")
    found = _named(data, tree, previous, at, grammar)
    if grammar in ("tsx", "javascript") and (tag := _unclosed_tag(tree.root_node)) and tag.offset < found.offset:
        return tag
    return found


def _named(data: bytes, tree: Tree, previous: Node | None, at: int, grammar: str) -> Stop:
    if at >= len(data):
        return Stop(len(data), "unexpected end of file")
    if grammar == "javascript" and previous is not None and _ends_argument(previous):
        return Stop(previous.start_byte, "missing ')' after the argument list")
    token = tree.root_node.descendant_for_byte_range(at, at + 1)
    text = data[at : token.end_byte if token is not None else at + 1].decode("utf-8", "replace").split("\n")[0]
    return Stop(at, f"unexpected {text[:40]!r}")


def _first_error(root: Node) -> Node:
    """The innermost node that holds the first error: a token recovery put in, or an error node."""
    node = root
    while not node.is_missing and (inner := next((c for c in node.children if c.has_error), None)):
        node = inner
    return node


def _stopped_after(parser: Parser, data: bytes, tree: Tree, first: Node) -> int | None:
    """The offset after the last token the parser took before its first error, from its log while it parses again
    from `first` on (the rest of the tree is reused where it can be); None when the log does not name one."""
    if first.is_missing:
        return first.start_byte  # recovery put the token it missed where it stopped, after the last one it took
    seen = _Log()
    again = tree.copy()
    start, point = first.start_byte, first.start_point
    again.edit(start, start, start, point, point, point)
    parser.logger = seen
    try:
        parser.parse(lambda offset, _: data[offset : offset + CHUNK], again, progress_callback=lambda *_: seen.done)
    except ValueError:  # stopped on purpose, once the log had what is needed
        pass
    finally:
        parser.logger = None  # type: ignore[assignment]  # None turns the log off; the stubs leave it out
        parser.reset()  # a stopped parse would otherwise resume on the next call
    return _offset(data, *seen.stopped) if seen.stopped else None


class _Log:
    """Reads tree-sitter's parse log: each stack version's position, and which paused version it resumes from
    (all versions failing: an error, not an ambiguity dropped)."""

    def __init__(self) -> None:
        self.version = 0
        self.position = (0, 0)
        self.paused: dict[int, tuple[int, int]] = {}
        self.stopped: tuple[int, int] | None = None

    @property
    def done(self) -> bool:
        return self.stopped is not None

    def __call__(self, _kind: object, message: str) -> None:
        if self.stopped is not None:
            return
        if message.startswith("process version"):
            found = PROCESS.match(message)
            if found:
                self.version, self.position = int(found[1]), (int(found[2]), int(found[3]))
        elif message.startswith("detect_error"):
            self.paused[self.version] = self.position
        elif message.startswith("resume version:"):
            self.stopped = self.paused.get(int(message.split(":")[1]))


def _offset(data: bytes, row: int, column: int) -> int:
    offset = 0
    for _ in range(row):
        offset = data.index(b"\n", offset) + 1
    return offset + column


def _token_before(root: Node, offset: int) -> Node | None:
    """The last token (not a comment) that ends at or before the offset."""
    node: Node | None = root.descendant_for_byte_range(max(offset - 1, 0), offset)
    while node is not None and node.child_count:
        node = node.children[-1]
    while node is not None and (node.is_extra or node.end_byte > offset):
        node = _leaf_before(node)
    return node


def _leaf_before(node: Node) -> Node | None:
    current: Node | None = node
    while current is not None and current.prev_sibling is None:
        current = current.parent
    if current is None or current.prev_sibling is None:
        return None
    current = current.prev_sibling
    while current.child_count:
        current = current.children[-1]
    return current


def _open_string(token: Node) -> Node | None:
    """The string the last token taken is in when that string was not closed on its line: its text or opening
    quote, or any token of a string that runs over a line break (tree-sitter closes it at the next quote)."""
    parent = token.parent
    if parent is not None and parent.type == "template_string":
        return None  # a template runs on over lines: the compiler stops where the text after it no longer fits
    if parent is not None and parent.type == "string":
        return parent if token.type == "string_fragment" or parent.start_point.row != parent.end_point.row else None
    return token if token.type in QUOTES or token.type == "string_fragment" else None


def _ends_argument(token: Node) -> bool:
    """Whether the token ends an argument of a call: the nearest bracket left open before it is a `(` that follows
    a callee. Read from the tokens, since recovery may have taken the call apart."""
    depth, node = 0, token
    for _ in range(LOOKBACK):
        if node.type in CLOSING:
            depth += 1
        elif node.type in OPENING:
            if depth == 0:
                before = _leaf_before(node)
                return node.type == "(" and node is not token and before is not None and before.type in CALLEES
            depth -= 1
        previous = _leaf_before(node)
        if previous is None:
            return False
        node = previous
    return False


def _unclosed_tag(root: Node) -> Stop | None:
    """tsc's first complaint about JSX tags. An element closed by its parent's closing tag names its own opening
    tag, and tsc gives that closing tag back to the parent (tree-sitter pairs every tag after it one level off, which
    leaves an outer tag open that tsc closes); another closing tag that does not match is named itself, and the
    opening tags that stay open then are named too."""
    given_back, mismatched, unclosed = [], [], []
    for node in _jsx(root):
        if node.type == "jsx_opening_element" and (node.parent is None or node.parent.type != "jsx_element"):
            unclosed.append(Stop(node.start_byte, f"<{_tag(node)}> has no closing tag"))
        elif node.type == "jsx_element" and node.child_count >= 2:
            opening, closing = node.children[0], node.children[-1]
            if closing.type != "jsx_closing_element" or _tag(opening) == _tag(closing):
                continue
            if _tag(closing) == _enclosing_tag(node):
                given_back.append(Stop(opening.start_byte, f"<{_tag(opening)}> has no closing tag"))
            else:
                mismatched.append(Stop(closing.start_byte, f"expected </{_tag(opening)}>"))
    found = given_back + mismatched if given_back else mismatched + unclosed
    return min(found, key=lambda s: s.offset, default=None)


def _jsx(root: Node) -> Iterator[Node]:
    pending = [root]
    while pending:
        node = pending.pop()
        if node.type.startswith("jsx_"):
            yield node
        if node.has_error or node.type.startswith("jsx_"):  # an element closed by the wrong tag is beside an error
            pending.extend(node.children)


def _tag(element: Node) -> str:
    name = element.child_by_field_name("name")
    return name.text.decode("utf-8", "replace") if name is not None and name.text is not None else ""


def _enclosing_tag(element: Node) -> str | None:
    """The name of the nearest opening tag around the element: a parent element's, or one left in an error node."""
    node = element.parent
    while node is not None and node.type != "jsx_expression":  # JSX inside braces starts a tree of its own
        if node.type == "jsx_element":
            return _tag(node.children[0])
        if node.is_error:
            return _tag_left_open(node, element)
        node = node.parent
    return None


def _tag_left_open(error: Node, element: Node) -> str | None:
    """The last opening tag among an error node's pieces before the element, unless a brace opened after it (the
    element is then inside an expression: a tree of its own)."""
    braces = 0
    for piece in reversed([c for c in error.children if c.end_byte <= element.start_byte]):
        braces += (piece.type == "{") - (piece.type == "}")
        if braces > 0:
            return None
        if piece.type == "jsx_opening_element":
            return _tag(piece)
        before = piece.prev_sibling
        if piece.type in ("identifier", "member_expression") and before is not None and before.type == "<":
            return piece.text.decode("utf-8", "replace") if piece.text is not None else None
    return None
