"""A shell command as the simple commands it runs, from tree-sitter-bash's syntax tree."""

import functools
import re
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from tree_sitter import Node, Parser

DYNAMIC_TYPES = {
    "simple_expansion",
    "expansion",
    "command_substitution",
    "process_substitution",
    "arithmetic_expansion",
}
WORD_TYPES = DYNAMIC_TYPES | {"word", "string", "raw_string", "concatenation", "number", "ansi_c_string",
                              "translated_string"}  # fmt: skip
NESTING = {"command_substitution", "process_substitution"}
LEAVES = {"word", "raw_string", "number", "ansi_c_string", "command_name", "file_descriptor", "variable_name",
          "special_variable_name", "heredoc_start", "heredoc_end", "regex", "test_operator", "comment"}  # fmt: skip
BACKSLASH = re.compile(r"\\(.)", re.DOTALL)
IN_DOUBLE_QUOTES = re.compile(r'\\([$`"\\\n])')
ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
Word = TypeVar("Word", str, str | None)  # a literal word, or one that may be computed at run time (None)
EXPANDS = re.compile(r"[?*[{]")  # globs and braces: bash rewrites the word before running it
COMPUTED = "\0"  # stands in an assignment word for the value computed at run time: NAME=\0
CONTINUATION = re.compile(r"(?<!\\)((?:\\\\)*)\\\n")  # backslash-newline: bash joins the lines, even mid-word
DATE = re.compile(r"\$\(\s*date(\s+[-+][^\s()'\"`]*)*\s*\)|`\s*date(\s+[-+][^\s()'\"`]*)*\s*`")
BACKQUOTED = re.compile(r"(?<!\\)`((?:\\.|[^`\\])*)`")
HEREDOC = re.compile(r"<<-?\s*(['\"]?)([^\s'\"<>|&;()]+)\1")


@dataclass
class Command:
    """One simple command: argv words are literal text, or None where the shell computes them at run time."""

    argv: list[str | None] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)  # each word of argv as written (`"$BUILD_DIR/"*`)
    redirects: list[tuple[str, str | None]] = field(default_factory=list)
    stdin: str | None = None  # literal heredoc or herestring text
    stdin_dynamic: bool = False  # stdin is text computed at run time (a process, an expanding heredoc)
    stdin_file: str | None = None  # the file redirected into stdin
    splits: int = 0  # unquoted expansions: each may become several words, options among them
    upstream: "Command | None" = None  # the command piped into this one
    downstream: "Command | None" = None  # the command this one pipes into
    consumed: bool = False  # stdout captured by $( ) or <( )
    assignments: list[str] = field(default_factory=list)  # the environment given it in front: `GIT_EDITOR=true git …`
    plumbing: bool | None = None  # output feeds a program or a file (worked out once, by shell_refusals)
    background: bool = False  # started with `&`: the shell goes on without waiting for it

    @property
    def name(self) -> str | None:
        return self.argv[0].rsplit("/", 1)[-1] if self.argv and self.argv[0] is not None else None


@dataclass
class Script:
    commands: list[Command]
    broken: str  # the text the parser could not read ("" when it read everything)
    heredocs: int  # characters of heredoc bodies


@functools.cache
def _parser() -> "Parser":
    import tree_sitter
    import tree_sitter_bash

    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))


def _text(node: "Node") -> str:
    return (node.text or b"").decode("utf-8", "replace")


def names(text: str) -> frozenset[str]:
    """A set of names written as one string, so long tables stay readable."""
    return frozenset(text.split())


def operands(argv: list[str | None]) -> list[str | None]:
    """The words after the program name that are not options."""
    return positionals(argv[1:])


def short_option(words: Collection[Word], letter: str) -> bool:
    """One of words is a cluster of one-letter options holding letter (`-avn` has `n`; `zip -9m` has `m`)."""
    return any(word and re.fullmatch(rf"-[a-zA-Z0-9]*{letter}[a-zA-Z0-9]*", word) for word in words)


def positionals(words: list[Word], values: Collection[str] = ()) -> list[Word]:
    """The words that are neither options nor the value of one of `values` (options that take the next word)."""
    found: list[Word] = []
    skip = False
    for word in words:
        if skip:
            skip = False
        elif word is None or not word.startswith("-") or word == "-":
            found.append(word)
        else:
            skip = word in values
    return found


def value(node: "Node", text: str | None = None) -> str | None:
    """The literal text of a word after quote removal, or None when it expands at run time."""
    kind = node.type
    if kind in DYNAMIC_TYPES:
        return None
    text = text if text is not None else _text(node)
    if kind == "word":
        return BACKSLASH.sub(r"\1", text.replace("\\\n", "")) if "\\" in text else text
    if kind == "raw_string":
        return text[1:-1]
    if kind == "ansi_c_string":
        return text[2:-1].encode("latin-1", "backslashreplace").decode("unicode_escape", "replace")
    if kind in ("string", "translated_string"):
        if any(child.type in DYNAMIC_TYPES for child in node.children):
            return None
        return IN_DOUBLE_QUOTES.sub(r"\1", text[text.index('"') + 1 : -1])
    if kind == "concatenation":
        parts = [value(child) for child in node.children]
        literal = [part for part in parts if part is not None]
        return "".join(literal) if len(literal) == len(parts) else None
    return text


def _argument(node: "Node") -> str | None:
    """value(), except that an assignment keeps its literal name (`PATH="$PATH"` is PATH=\\0, not unknown)."""
    word = value(node)
    if word is None and (name := ASSIGNMENT.match(_text(node))):
        return name.group() + COMPUTED
    return word


def _name(node: "Node") -> str | None:
    """The program: unknown when bash would rewrite it first (`/bin/r?`, `r{m,}`, `$CMD`)."""
    if node.type not in ("word", "concatenation"):
        return value(node)
    text = _text(node)
    return None if EXPANDS.search(text.strip("[")) else value(node, text)


def fed_code(command: Command) -> str | None:
    """The literal code a program reads on stdin: a heredoc, or echo/printf/cat-heredoc upstream; else None."""
    if command.stdin is not None or command.stdin_dynamic:
        return None if command.stdin_dynamic else command.stdin
    source = command.upstream
    if source is None:
        return ""
    words = [a for a in source.argv if a is not None]
    if len(words) < len(source.argv):  # a word computed at run time: the text cannot be known
        return None
    if words[:1] == ["echo"] and not source.redirects:
        return " ".join(a for a in words[1:] if a not in ("-n", "-e"))
    if words[:1] == ["printf"] and len(words) > 1 and "%" not in words[1]:
        return words[1].encode("latin-1", "backslashreplace").decode("unicode_escape", "replace")
    if words == ["cat"] and source.stdin is not None and not source.stdin_dynamic:
        return source.stdin
    return None


def _redirect(node: "Node", command: Command) -> None:
    operator = next((_text(c) for c in node.children if c.type not in WORD_TYPES | {"file_descriptor"}), ">")
    target = next((c for c in reversed(node.children) if c.type in WORD_TYPES), None)
    if target is not None and target.type == "process_substitution":  # bash passes a pipe: /dev/fd/N
        command.stdin_dynamic |= operator == "<"
        command.redirects.append((operator, "/dev/fd"))
    elif operator == "<":
        command.stdin_file = value(target) if target is not None else None
        command.stdin_dynamic |= command.stdin_file is None
    else:
        command.redirects.append((operator, value(target) if target is not None else None))


def _splits(node: "Node") -> bool:
    if node.type == "command_substitution" and DATE.fullmatch(_text(node)):
        return False  # the date never reads as an option: `backup-$(date +%F).tar.gz`
    if node.type in ("simple_expansion", "expansion", "command_substitution"):
        return True
    return node.type == "concatenation" and any(_splits(c) for c in node.children)


def _simple(children: list["Node"], consumed: bool) -> Command:
    command = Command(consumed=consumed)
    for child in children:
        if child.type == "command_name":
            command.argv.append(_name(child.children[0]))
            command.raw.append(_text(child))
        elif child.type in WORD_TYPES:
            command.argv.append(_argument(child))
            command.raw.append(_text(child))
            command.splits += _splits(child)
        elif child.type == "herestring_redirect":
            command.stdin = value(child.children[-1])
            command.stdin_dynamic = command.stdin is None
        elif child.type == "file_redirect":
            _redirect(child, command)
        elif child.type == "variable_assignment":
            command.assignments.append(_text(child))
    return command


class _Walker:
    def __init__(self) -> None:
        self.commands: list[Command] = []
        self.heredocs = 0

    def collect(self, root: "Node", consumed: bool = False, background: bool = False) -> list[Command]:
        """Every simple command under root, in source order; iterative, so deep chains cannot overflow."""
        start = len(self.commands)
        stack = [(root, consumed, background)]
        while stack:
            node, inside, behind = stack.pop()
            if node.type == "command":
                children = node.children
                self.commands.append(_simple(children, inside))
                self.commands[-1].background = behind
                stack.extend((c, True, False) for c in reversed(children) if c.is_named and c.type not in LEAVES)
            elif node.type == "pipeline":
                self._pipeline([c for c in node.named_children], inside, behind)
            elif node.type == "redirected_statement":
                self._redirected(node, inside, behind)
            elif node.type not in LEAVES:
                nested = inside or node.type in NESTING
                stack.extend((c, nested, behind or after) for c, after in reversed(_statements(node)))
        return self.commands[start:]

    def _pipeline(self, parts: list["Node"], consumed: bool, background: bool, upstream: Command | None = None) -> None:
        for part in parts:
            found = [c for c in self.collect(part, consumed, background) if not c.consumed]
            found = found or [Command(consumed=consumed)]
            if upstream is not None:
                found[0].upstream, upstream.downstream = upstream, found[0]
            upstream = found[-1]

    def _redirected(self, node: "Node", consumed: bool, background: bool) -> None:
        body = [c for c in node.named_children if not c.type.endswith("_redirect")]
        found = [c for c in self.collect(body[0], consumed, background) if not c.consumed] if body else []
        if not found:
            found = [Command(consumed=consumed)]
            self.commands.append(found[0])
        last = found[-1]
        for redirect in node.named_children[1:] if body else node.named_children:
            if redirect.type == "file_redirect":
                _redirect(redirect, last)
            elif redirect.type == "herestring_redirect":
                last.stdin = value(redirect.named_children[-1])
                last.stdin_dynamic = last.stdin is None
            if redirect.type == "heredoc_redirect":
                self._heredoc(redirect, last, consumed)
            else:  # commands in redirect targets run too: `> "$(…)"`, `> >(…)`
                self.collect(redirect, True)

    def _heredoc(self, node: "Node", owner: Command, consumed: bool) -> None:
        """tree-sitter hangs the rest of a pipeline (`cat <<EOF | sh`) and extra redirects under the heredoc."""
        quoted = any(c.type == "heredoc_start" and _text(c)[:1] in "'\"\\" for c in node.children)
        for child in node.named_children:
            if child.type == "heredoc_body":
                owner.stdin = _text(child)
                owner.stdin_dynamic = any(c.type in DYNAMIC_TYPES for c in child.named_children)
                self.heredocs += len(owner.stdin)
                self.collect(child, True)
                if not quoted:
                    self._backquotes(owner)
            elif child.type == "file_redirect":
                _redirect(child, owner)
                self.collect(child, True)
            elif child.type == "pipeline":
                self._pipeline(child.named_children, consumed, owner.background, upstream=owner)

    def _backquotes(self, owner: Command) -> None:
        """Backquotes in an unquoted heredoc body run before the command, as `$( )` does; tree-sitter leaves
        them as text."""
        assert owner.stdin is not None
        for code in BACKQUOTED.findall(owner.stdin):
            owner.stdin_dynamic = True
            self.collect(_parser().parse(code.replace("\\`", "`").encode("utf-8", "surrogatepass")).root_node, True)


def _statements(node: "Node") -> list[tuple["Node", bool]]:
    """The named children of node, each with whether `&` follows it (the shell starts it and goes on)."""
    children = node.children
    return [(c, i + 1 < len(children) and children[i + 1].type == "&") for i, c in enumerate(children) if c.is_named]


def _unreadable(root: "Node") -> str:
    """The text of the parts tree-sitter could not read."""
    texts, stack = [], [root]
    while stack:
        node = stack.pop()
        if node.type == "ERROR":
            texts.append(_text(node))
        elif node.has_error:
            stack.extend(node.children)
    return " ".join(texts).strip()


def and_parts(source: str) -> list[str]:
    """The statements the script ends with that `&&` joins, as text (`a; b && c` → b, c): each ran only if those
    before it succeeded, so the exit code is that of the first that failed."""
    tree = _parser().parse(CONTINUATION.sub(r"\1", source).encode("utf-8", "surrogatepass"))
    statements = [c for c in tree.root_node.named_children if c.type != "comment"]
    if not statements:
        return []
    node, parts = statements[-1], list[str]()
    while node.type == "list" and len(node.children) == 3 and node.children[1].type == "&&":
        parts.insert(0, _text(node.children[2]))
        node = node.children[0]
    return [_text(node), *parts]


def syntax_length(source: str) -> int:
    """Characters outside heredoc bodies, found before parsing (bodies cost tree-sitter next to nothing)."""
    length, lines = 0, iter(source.split("\n"))
    inside: list[str] = []
    for line in lines:
        if inside:
            if line.lstrip("\t") == inside[0]:
                inside.pop(0)
            continue
        length += len(line) + 1
        inside = [m.group(2) for m in HEREDOC.finditer(line)]
    return length - 1  # no newline after the last line


def parse(source: str) -> Script:
    """The simple commands a shell would run for source."""
    tree = _parser().parse(
        CONTINUATION.sub(r"\1", source).encode("utf-8", "surrogatepass")
    )  # a lone surrogate from JSON
    walker = _Walker()
    walker.collect(tree.root_node)
    return Script(walker.commands, _unreadable(tree.root_node) if tree.root_node.has_error else "", walker.heredocs)
