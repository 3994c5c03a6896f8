"""A shell command as the simple commands it runs, from tree-sitter-bash's syntax tree."""

import functools
import re
from dataclasses import dataclass, field

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
BACKSLASH = re.compile(r"\\(.)", re.DOTALL)
IN_DOUBLE_QUOTES = re.compile(r'\\([$`"\\\n])')


@dataclass
class Command:
    """One simple command: argv words are literal text, or None where the shell computes them at run time."""

    argv: list[str | None] = field(default_factory=list)
    redirects: list[tuple[str, str | None]] = field(default_factory=list)
    stdin: str | None = None  # literal heredoc or herestring text
    stdin_dynamic: bool = False
    upstream: "Command | None" = None  # the command piped into this one
    downstream: "Command | None" = None  # the command this one pipes into
    consumed: bool = False  # stdout captured by $( ) or <( )

    @property
    def name(self) -> str | None:
        return self.argv[0].rsplit("/", 1)[-1] if self.argv and self.argv[0] is not None else None


@dataclass
class Script:
    commands: list[Command]
    broken: bool  # the parser found syntax it could not read


@functools.cache
def _parser():
    import tree_sitter
    import tree_sitter_bash

    return tree_sitter.Parser(tree_sitter.Language(tree_sitter_bash.language()))


def operands(argv: list[str | None]) -> list[str | None]:
    """The words after the program name that are not options."""
    return [a for a in argv[1:] if a is None or not a.startswith("-") or a == "-"]


def value(node) -> str | None:
    """The literal text of a word after quote removal, or None when it expands at run time."""
    kind, text = node.type, node.text.decode("utf-8", "replace")
    if kind in DYNAMIC_TYPES:
        return None
    if kind == "word":
        return BACKSLASH.sub(r"\1", text)
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
        return None if None in parts else "".join(parts)
    return text


def _redirect(node) -> tuple[str, str | None]:
    operator = next((c.text.decode() for c in node.children if c.type not in WORD_TYPES | {"file_descriptor"}), ">")
    target = next((c for c in reversed(node.children) if c.type in WORD_TYPES), None)
    return operator, value(target) if target is not None else None


def _simple(node, consumed: bool) -> Command:
    command = Command(consumed=consumed)
    for child in node.children:
        if child.type == "command_name":
            command.argv.append(value(child.children[0]))
        elif child.type in WORD_TYPES:
            command.argv.append(value(child))
        elif child.type == "herestring_redirect":
            command.stdin = value(child.children[-1])
            command.stdin_dynamic = command.stdin is None
        elif child.type == "file_redirect":
            command.redirects.append(_redirect(child))
    return command


class _Walker:
    def __init__(self) -> None:
        self.commands: list[Command] = []

    def collect(self, root, consumed: bool = False) -> list[Command]:
        """Every simple command under root, in source order; iterative, so deep chains cannot overflow."""
        start = len(self.commands)
        stack = [(root, consumed)]
        while stack:
            node, inside = stack.pop()
            if node.type == "command":
                self.commands.append(_simple(node, inside))
                nested = [(c, True) for c in node.children if c.type not in ("command_name",)]
                stack.extend(reversed(nested))
            elif node.type == "pipeline":
                self._pipeline([c for c in node.named_children], inside)
            elif node.type == "redirected_statement":
                self._redirected(node, inside)
            else:
                stack.extend((c, inside or node.type in NESTING) for c in reversed(node.named_children))
        return self.commands[start:]

    def _pipeline(self, parts: list, consumed: bool, upstream: Command | None = None) -> None:
        for part in parts:
            found = [c for c in self.collect(part, consumed) if not c.consumed] or [Command(consumed=consumed)]
            if upstream is not None:
                found[0].upstream, upstream.downstream = upstream, found[0]
            upstream = found[-1]

    def _redirected(self, node, consumed: bool) -> None:
        body = [c for c in node.named_children if not c.type.endswith("_redirect")]
        found = [c for c in self.collect(body[0], consumed) if not c.consumed] if body else []
        if not found:
            found = [Command(consumed=consumed)]
            self.commands.append(found[0])
        last = found[-1]
        for redirect in (c for c in node.named_children if c.type.endswith("_redirect")):
            if redirect.type == "file_redirect":
                last.redirects.append(_redirect(redirect))
            elif redirect.type == "herestring_redirect":
                last.stdin = value(redirect.named_children[-1])
                last.stdin_dynamic = last.stdin is None
            elif redirect.type == "heredoc_redirect":
                self._heredoc(redirect, last, consumed)

    def _heredoc(self, node, owner: Command, consumed: bool) -> None:
        """tree-sitter hangs the rest of a pipeline (`cat <<EOF | sh`) and extra redirects under the heredoc."""
        for child in node.named_children:
            if child.type == "heredoc_body":
                owner.stdin = child.text.decode("utf-8", "replace")
                owner.stdin_dynamic = any(c.type in DYNAMIC_TYPES for c in child.named_children)
            elif child.type == "file_redirect":
                owner.redirects.append(_redirect(child))
            elif child.type == "pipeline":
                self._pipeline(child.named_children, consumed, upstream=owner)


def parse(source: str) -> Script:
    """The simple commands a shell would run for source."""
    tree = _parser().parse(source.encode("utf-8"))
    walker = _Walker()
    walker.collect(tree.root_node)
    return Script(walker.commands, tree.root_node.has_error)
