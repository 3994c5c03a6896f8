"""PowerShell text as tokens, with every nested part (`( )`, `$( )`, `@( )`, `{ }`, `@{ }`) read as tokens of its own.

From about_Parsing, about_Quoting_Rules, about_Special_Characters, about_Redirection and about_Comment_Based_Help:
quotes ('…' verbatim, "…" expanding `$name` and `$( )`, here-strings), the backtick escape and line continuation,
`#` and `<# #>` comments, and `--%`, after which the rest of the line goes to the program as it is."""

import re
from dataclasses import dataclass, field

SPACE = " \t\f\v\u00a0"
SEPARATORS = "\n;"
OPERATORS = ("&&", "||", "|", "&", ",", "+=", "-=", "*=", "/=", "=")
OPENERS = {"(": ")", "$(": ")", "@(": ")", "{": "}", "@{": "}"}
REDIRECT = re.compile(r"(?:[1-6*]?>>?(?:&[12])?|<)")
ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "a": "\a", "b": "\b", "f": "\f", "v": "\v", "e": "\x1b"}
VARIABLE = re.compile(r"\$(?:\{([^}]*)\}|((?:env:|global:|script:|local:)?[\w?^$]+))", re.IGNORECASE)
WORD_END = SPACE + SEPARATORS + "|&,(){}<>\r"


@dataclass
class Token:
    kind: str  # word, string, op, sep, redirect, group, stop (the text after --%)
    text: str  # as written
    adjacent: bool = False  # no space before it: `[IO.File]::Delete(` , `).Delete`
    children: list["Token"] = field(default_factory=list)  # a group's tokens
    opener: str = ""  # a group's opening bracket
    quote: str = ""  # a string's quote: ' or " (here-strings too)
    body: str = ""  # a string's text between its quotes, escapes not yet taken out


class Lexer:
    def __init__(self, text: str) -> None:
        self.text = re.sub(r"`\r?\n", "", text)  # a backtick before a newline continues the line
        self.at = 0

    def tokens(self, closer: str = "") -> list[Token]:
        """The tokens up to closer (the end of the text when none); an unclosed bracket ends at the text's end."""
        found: list[Token] = []
        spaced = True
        while self.at < len(self.text):
            char = self.text[self.at]
            rest = self.text[self.at :]
            if char in SPACE or char == "\r":
                self.at += 1
                spaced = True
                continue
            if closer and char == closer:
                self.at += 1
                return found
            token = self._comment(rest) or self._token(rest, char)
            if token is not None:
                token.adjacent = not spaced
                found.append(token)
            spaced = token is None or token.kind in ("sep", "op")
        return found

    def _comment(self, rest: str) -> Token | None:
        if rest.startswith("<#"):
            end = rest.find("#>")
            self.at += len(rest) if end < 0 else end + 2
            return Token("comment", "")
        if rest.startswith("#"):
            end = rest.find("\n")
            self.at += len(rest) if end < 0 else end
            return Token("comment", "")
        return None

    def _token(self, rest: str, char: str) -> Token | None:
        if char in SEPARATORS:
            self.at += 1
            return Token("sep", char)
        opener = next((o for o in ("$(", "@(", "@{", "(", "{") if rest.startswith(o)), None)
        if opener is not None:
            start = self.at
            self.at += len(opener)
            children = self.tokens(OPENERS[opener])
            return Token("group", self.text[start : self.at], children=children, opener=opener)
        if char in ")}":  # a closer with no opener: unreadable, kept as a word
            self.at += 1
            return Token("word", char)
        if rest.startswith(("@'", '@"')) and rest[2:3] in ("\n", "\r"):
            return self._here_string(rest)
        if char in "'\"\u2018\u2019\u201c\u201d":
            return self._string(rest)
        if redirect := REDIRECT.match(rest):
            self.at += redirect.end()
            return Token("redirect", redirect.group())
        if rest.startswith("--%"):
            end = rest.find("\n")
            self.at += len(rest) if end < 0 else end
            return Token("stop", rest[3 : len(rest) if end < 0 else end].strip())
        operator = next((o for o in OPERATORS if rest.startswith(o)), None)
        if operator is not None:
            self.at += len(operator)
            return Token("op", operator)
        return self._word(rest)

    def _string(self, rest: str) -> Token:
        quote = "'" if rest[0] in "'\u2018\u2019" else '"'
        i = 1
        while i < len(rest):
            if quote == '"' and rest[i] == "`":
                i += 2
                continue
            if rest[i] in quote + ("\u2018\u2019" if quote == "'" else "\u201c\u201d"):  # any of its kind
                if rest[i + 1 : i + 2] == rest[i]:  # a doubled quote stands for one
                    i += 2
                    continue
                break
            i += 1
        self.at += min(i + 1, len(rest))
        return Token("string", rest[: i + 1], quote=quote, body=rest[1:i])

    def _here_string(self, rest: str) -> Token:
        quote = rest[1]
        end = re.search(rf"\n{quote}@", rest)
        stop = end.start() if end else len(rest)
        self.at += end.end() if end else len(rest)
        body = rest[2:stop].lstrip("\r").removeprefix("\n")
        return Token("string", rest[: end.end() if end else len(rest)], quote=quote, body=body.rstrip("\r"))

    def _word(self, rest: str) -> Token:
        """A bareword runs to a space or an operator; quotes, `[type]` and `$( )` inside it belong to it."""
        i, depth = 0, 0
        while i < len(rest):
            char = rest[i]
            if char == "`":
                i += 2
                continue
            if char == "[" and (i == 0 or depth):
                depth += 1
            elif char == "]" and depth:
                depth -= 1
            elif char in "'\"" and i:
                close = rest.find(char, i + 1)
                i = len(rest) if close < 0 else close + 1
                continue
            elif rest.startswith("${", i):
                close = rest.find("}", i)
                i = len(rest) if close < 0 else close + 1
                continue
            elif rest.startswith("$(", i):
                close = _closing(rest, i + 1)
                i = close + 1
                continue
            elif not depth and (char in WORD_END or char == "{" and i):
                break
            i += 1
        i = max(i, 1)
        self.at += i
        return Token("word", rest[:i])


def _closing(text: str, at: int) -> int:
    """Where the bracket opened at `at` closes (the text's end when it does not)."""
    depth = 0
    for i in range(at, len(text)):
        if text[i] in "({":
            depth += 1
        elif text[i] in ")}":
            depth -= 1
            if not depth:
                return i
    return len(text)


def unescaped(body: str, quote: str) -> str:
    """A string's text as PowerShell passes it: '' is ' in verbatim strings, `x escapes x in expanding ones."""
    if quote == "'":
        return re.sub(r"(['\u2018\u2019])\1", r"\1", body)
    return re.sub(r"`(.)", lambda m: ESCAPES.get(m.group(1), m.group(1)), body, flags=re.DOTALL)


def unquoted_word(text: str) -> str:
    """A bareword's text as passed: quoted parts without their quotes, backticks taken out (`Remove-Item a`' b`)."""
    parts = re.findall(r"'([^']*)'|\"((?:`.|[^\"`])*)\"|`(.)|([^'\"`]+)", text, re.DOTALL)
    return "".join(a or (unescaped(b, '"') if b else "") or c or d for a, b, c, d in parts)


def variable_name(text: str) -> str:
    match = VARIABLE.match(text)
    return (match.group(1) or match.group(2)).lower() if match else text.lower()


def names_command(text: str) -> bool:
    """A bareword at the start of a pipeline element names a command; a variable, a type, a number does not."""
    return not (text[0] in "$[@-+!" or text[0].isdigit() and re.fullmatch(r"[\d.]+[a-zA-Z]{0,2}", text))


def split(tokens: list[Token], kind: str, texts: tuple[str, ...] = ()) -> list[list[Token]]:
    parts: list[list[Token]] = [[]]
    for token in tokens:
        if token.kind == kind and (not texts or token.text in texts):
            parts.append([])
        else:
            parts[-1].append(token)
    return [part for part in parts if part] if kind == "sep" else parts
