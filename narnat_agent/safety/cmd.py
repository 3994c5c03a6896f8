"""cmd text as the commands it runs: lines, `&`, `&&`, `||`, pipelines, parenthesised blocks, the bodies of `if`
(`exist`, `defined`, `errorlevel`, comparisons, `else`) and `for … do`, with `^` escapes, quotes, redirections and
`%NAME%` replaced by a value `set` gave it earlier in the same text.

From cmd's own help (`cmd /?`, `if /?`, `for /?`, `set /?`, `rem /?`) and its documented parsing: `(` opens a block
where a command starts, `)` closes it only inside one; `^` escapes the next character outside quotes."""

import re
from dataclasses import dataclass, field

from narnat_agent.safety.syntax import names
from narnat_agent.safety.windows_syntax import WinCommand, program

OPERATORS = ("&&", "||", "&", "|")
REDIRECT = re.compile(r"(?:[0-9]?>>?|<)(?:&[0-9])?")
EXPANSION = re.compile(r"%%?~?[a-zA-Z]*[0-9*]|%%[a-zA-Z]|%([^%\s]+)%")  # %1 %~dp0 %* %%i, or %NAME%
CONDITIONS = names("exist defined errorlevel cmdextversion")
COMPARISONS = names("== equ neq lss leq gtr geq")
# cmd's built-in commands (`help`)
BUILT_INS = names(
    "assoc break call cd chdir cls color copy date del dir echo endlocal erase exit for ftype goto if md mkdir mklink "
    "move path pause popd prompt pushd rd ren rename rmdir set setlocal shift start time title type ver verify vol"
)
GLUED = re.compile(r"([a-z]+)(/.+)", re.IGNORECASE | re.DOTALL)


@dataclass
class Token:
    kind: str  # word, op, sep, redirect, group
    text: str
    children: list["Token"] = field(default_factory=list)


class _Lexer:
    def __init__(self, text: str) -> None:
        self.text = re.sub(r"\^\r?\n", "", text.replace("\r\n", "\n"))  # ^ at a line's end joins the next
        self.at = 0

    def tokens(self, depth: int = 0) -> list[Token]:
        found: list[Token] = []
        while self.at < len(self.text):
            char = self.text[self.at]
            rest = self.text[self.at :]
            if char in " \t\r,;":
                self.at += 1
            elif char == "\n":
                self.at += 1
                found.append(Token("sep", "\n"))
            elif char == ")" and depth:
                self.at += 1
                return found
            elif char == "(":
                self.at += 1
                found.append(Token("group", "(", self.tokens(depth + 1)))
            elif operator := next((o for o in OPERATORS if rest.startswith(o)), None):
                self.at += len(operator)
                found.append(Token("op", operator))
            elif redirect := REDIRECT.match(rest):
                self.at += redirect.end()
                found.append(Token("redirect", redirect.group()))
            else:
                found.append(self._word(rest, depth))
        return found

    def _word(self, rest: str, depth: int) -> Token:
        i, quoted = 0, False
        while i < len(rest):
            char = rest[i]
            if char == '"':
                quoted = not quoted
            elif char == "\n" or not quoted and (char in " \t&|<>" or char == ")" and depth):
                break
            elif char == "^" and not quoted:
                i += 1
            i += 1
        self.at += i
        return Token("word", rest[:i])


class _Builder:
    def __init__(self) -> None:
        self.commands: list[WinCommand] = []
        self.variables: dict[str, str | None] = {}

    def lines(self, tokens: list[Token]) -> None:
        line: list[Token] = []
        for token in [*tokens, Token("sep", "\n")]:
            if token.kind != "sep":
                line.append(token)
                continue
            if line and not _comment(line[0]):
                self.chain(line)
            line = []

    def chain(self, tokens: list[Token]) -> None:
        part: list[Token] = []
        upstream: WinCommand | None = None
        for token in [*tokens, Token("op", "&")]:
            if token.kind != "op":
                part.append(token)
                continue
            found = self.element(part) if part else None
            if upstream is not None and found is not None:
                found.upstream, upstream.downstream = upstream, found
            upstream = found if token.text == "|" else None
            part = []

    def element(self, tokens: list[Token]) -> WinCommand | None:
        """One command of a pipeline; an if, a for or a block runs the commands in it."""
        first = tokens[0]
        word = self.value(first.text.lstrip("@")) if first.kind == "word" else None
        glued = GLUED.fullmatch(word or "")  # `for/r %i in (…) do …`
        keyword = (glued.group(1) if glued else word or "").lower()
        if first.kind == "group":
            start = len(self.commands)
            self.lines(first.children)
            redirects = self._redirects(tokens[1:])
            for command in self.commands[start:]:
                command.redirects += redirects
            return self.commands[-1] if len(self.commands) > start else None
        if keyword == "if":
            return self._if(tokens[1:])
        if keyword == "for":
            at = next((i for i, t in enumerate(tokens) if t.kind == "word" and t.text.lower() == "do"), len(tokens))
            return self.element(tokens[at + 1 :]) if at + 1 < len(tokens) else None
        if keyword == "call" and len(tokens) > 1 and not tokens[1].text.startswith(":"):
            return self.element(tokens[1:])
        if keyword == "else" and len(tokens) > 1:
            return self.element(tokens[1:])
        return self._command(tokens)

    def _if(self, tokens: list[Token]) -> WinCommand | None:
        words = [t.text.lower() for t in tokens]
        at = 0
        absent: str | None = None
        while at < len(words) and words[at] in ("/i", "not"):
            at += 1
        if at < len(words) and words[at] in CONDITIONS:
            missing = words[at] == "exist" and "not" in words[:at] and at + 1 < len(words)
            absent = self.value(tokens[at + 1].text) if missing else None
            at += 2
        elif at + 1 < len(words) and words[at + 1] in COMPARISONS:
            at += 3
        else:
            at += 1  # `"%A%"=="b"` is one word
        body = tokens[at:]
        split = next((i for i, t in enumerate(body) if i and t.kind == "word" and t.text.lower() == "else"), None)
        start = len(self.commands)
        found = self.element(body[:split]) if body[:split] else None
        if absent is not None:  # `if not exist x copy y x`: x is not replaced
            for command in self.commands[start:]:
                command.absent.add(absent)
        if split is not None:
            found = self.element(body[split + 1 :]) or found
        return found

    def _command(self, tokens: list[Token]) -> WinCommand:
        command = WinCommand(shell="cmd", text=" ".join(t.text for t in tokens))
        for i, token in enumerate(tokens):
            if i and tokens[i - 1].kind == "redirect" and "&" not in tokens[i - 1].text:
                continue  # the redirection's target
            if token.kind == "word" and command.argv:
                command.argv.append(self.value(token.text))
                command.shown.append(token.text)
            elif token.kind == "word":
                name = self.value(token.text.lstrip("@"))
                glued = GLUED.fullmatch(name or "")
                switch = glued.group(2) if glued else None  # a slash ends any program's name: `ipconfig/all`
                name = glued.group(1) if glued and switch else name
                command.argv.append(program(name) if name else name)
                command.shown.append(name or token.text.lstrip("@"))
                command.argv += [switch] if switch else []
                command.shown += [switch] if switch else []
            elif token.kind == "group":  # `echo (x)`: a block only where a command starts
                command.argv.append(None)
                command.shown.append("(…)")
                self.lines(token.children)
        command.redirects = self._redirects(tokens)
        self.commands.append(command)
        if command.argv[:1] == ["set"]:
            self._set(command)
        return command

    def _redirects(self, tokens: list[Token]) -> list[tuple[str, str | None]]:
        found: list[tuple[str, str | None]] = []
        for i, token in enumerate(tokens):
            if token.kind == "redirect" and "&" not in token.text:
                target = tokens[i + 1].text if i + 1 < len(tokens) and tokens[i + 1].kind == "word" else ""
                found.append((token.text, self.value(target)))
        return found

    def _set(self, command: WinCommand) -> None:
        """`set NAME=value` (or `set "NAME=value"`): later `%NAME%` is that value; /a and /p compute it."""
        text = command.text.split(None, 1)[1] if " " in command.text.strip() else ""
        if text[:2].lower() in ("/a", "/p"):
            name = text[2:].strip().strip('"').split("=", 1)[0]
            self.variables[name.lower()] = None
        elif "=" in text:
            name, _, value = text.strip().strip('"').partition("=")
            self.variables[name.lower()] = self.value(value)

    def value(self, text: str) -> str | None:
        """A word as cmd passes it: %NAME% replaced, quotes and ^ taken out; None when computed at run time."""
        computed = False

        def expand(match: re.Match[str]) -> str:
            nonlocal computed
            value = self.variables.get(match.group(1).lower()) if match.group(1) else None
            computed = computed or value is None
            return value or ""

        expanded = EXPANSION.sub(expand, text)
        if computed or re.search(r"%[a-zA-Z]", expanded):  # a for loop's variable: %i
            return None
        # a quoted part passes as it is, ^ included; outside quotes ^ passes the character after it
        return re.sub(r'"([^"]*)"?|\^(.)', lambda m: m.group(1) if m.group(1) is not None else m.group(2), expanded)


def _comment(token: Token) -> bool:
    return token.kind == "word" and (token.text.lower().lstrip("@") == "rem" or token.text.startswith("::"))


def parse(text: str) -> list[WinCommand]:
    """The commands cmd would run for text."""
    builder = _Builder()
    try:
        builder.lines(_Lexer(text).tokens())
    except RecursionError:  # blocks nested deeper than the reader's stack: unread, and the analysis asks
        return [WinCommand(argv=[None], shown=["…"], shell="cmd", text="…")]
    return builder.commands
