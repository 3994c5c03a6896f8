"""PowerShell text as the commands it runs: statements (newlines, `;`), chains (`&&`, `||`), pipelines, and the
commands inside script blocks, conditions, loops and sub-expressions; .NET calls (`[IO.File]::Delete(…)`) as
commands named after their type and method; variables given literal values earlier in the same text resolved.

A part of a pipeline that is an expression (`"text" | Out-File f`, `$null > f`) becomes `write-output` with the
values it writes (none for $null, one None for a value computed at run time), as PowerShell outputs it."""

import re

from narnat_agent.safety.powershell_lex import (
    VARIABLE,
    Lexer,
    Token,
    names_command,
    split,
    unescaped,
    unquoted_word,
    variable_name,
)
from narnat_agent.safety.syntax import names
from narnat_agent.safety.windows_syntax import WinCommand, cmdlet, program

KEYWORDS = names(
    "if elseif else while for foreach do until switch try catch finally function filter trap param begin process "
    "end return throw exit break continue class data dynamicparam"
)
CONSTANTS = {"true": "$true", "false": "$false", "null": "$null"}
LOOP_ENDS = re.compile(r"\b(break|return|exit|throw)\b", re.IGNORECASE)
METHODS = re.compile(r"(\.delete|\.readkey|\.readline)\w*$", re.IGNORECASE)  # methods called on an object
MAX_GROUPS = 200  # nested parts read in one text; past that the rest is not read, and the analysis asks


class _Builder:
    def __init__(self) -> None:
        self.commands: list[WinCommand] = []
        self.variables: dict[str, list[str] | None] = {}
        self.groups = 0
        self.absent: str | None = None  # a path the enclosing `if` found missing

    def statements(self, tokens: list[Token], consumed: bool = False) -> None:
        self.groups += 1
        if self.groups > MAX_GROUPS:
            self.commands.append(WinCommand(argv=[None], shown=["…"], text="…"))
            return
        for statement in split(tokens, "sep"):
            start = len(self.commands)
            self._statement([t for t in statement if t.kind != "comment"], consumed)
            found = self.commands[start:]
            reads = {w for c in found if c.name == "get-content" for w in c.argv[1:] if w and w[0] != "-"}
            for command in found:
                command.reads |= reads

    def _statement(self, tokens: list[Token], consumed: bool) -> None:
        if not tokens:
            return
        keyword = tokens[0].text.lower() if tokens[0].kind == "word" else ""
        if keyword not in KEYWORDS:
            for part in split(tokens, "op", ("&&", "||")):
                self._pipeline(part, consumed)
            return
        if keyword in ("return", "throw", "exit"):
            self._pipeline(tokens[1:], consumed)
            return
        if keyword == "param" and len(tokens) > 2 and tokens[1].kind == "group":  # `{ param($d) Remove-Item $d }`
            self._statement(tokens[2:], consumed)
            return
        if keyword == "if":
            self._absent(tokens)
        if keyword == "foreach":
            self._foreach(tokens)
        elif keyword == "while":
            self._while(tokens)
        for token in tokens[1:]:
            if token.kind == "group" and not (keyword == "foreach" and token.opener == "("):
                self.statements(token.children, consumed or token.opener != "{")
                if token.opener == "{":  # the if's own block: elseif and else run when the path exists
                    self.absent = None
        self.absent = None

    def _absent(self, tokens: list[Token]) -> None:
        """`if (-not (Test-Path x)) { … }`: what the block does to x does not overwrite it."""
        head = tokens[1] if len(tokens) > 2 and tokens[1].kind == "group" else None
        words = [t for t in head.children if t.kind != "sep"] if head else []
        if len(words) == 2 and words[0].text.lower() in ("-not", "!") and words[1].kind == "group":
            test = words[1].children
            if len(test) == 2 and test[0].text.lower() == "test-path":
                self.absent = self._values(test[1])[0]

    def _foreach(self, tokens: list[Token]) -> None:
        head = next((t for t in tokens if t.kind == "group" and t.opener == "("), None)
        if head is None or len(head.children) < 3:
            return
        self.variables[variable_name(head.children[0].text)] = self._literals(head.children[2:])
        self.statements(head.children[2:], consumed=True)

    def _while(self, tokens: list[Token]) -> None:
        groups = [t for t in tokens if t.kind == "group"]
        if len(groups) < 2 or [t.text.lower() for t in groups[0].children] not in (["$true"], ["1"]):
            return
        if not LOOP_ENDS.search(groups[1].text):
            self.commands.append(WinCommand(argv=["while", "$true"], shown=["while", "($true)"], text="while ($true)"))

    def _pipeline(self, tokens: list[Token], consumed: bool) -> None:
        background = bool(tokens) and tokens[-1].kind == "op" and tokens[-1].text == "&"
        tokens = tokens[:-1] if background else tokens
        if len(tokens) > 1 and tokens[0].text.startswith("$") and tokens[1].kind == "op" and "=" in tokens[1].text:
            name = variable_name(tokens[0].text)
            self.variables[name] = self._literals(tokens[2:]) if tokens[1].text == "=" else None
            self._pipeline(tokens[2:], consumed=True)
            return
        upstream: WinCommand | None = None
        inside: list[WinCommand] = []  # what runs inside the last expression: its output flows on with it
        for element in split(tokens, "op", ("|",)):
            start = len(self.commands)
            command = self._element(element, consumed)
            if command is None:
                continue
            command.background = background
            if upstream is not None:
                command.upstream, upstream.downstream = upstream, command
                if command.argv[:1] != ["write-output"] or command.argv[1:] != [None]:
                    command.stdin = _literal_output(upstream)
                for inner in inside:
                    inner.downstream = command
            inside = [c for c in self.commands[start:] if not c.consumed and c is not command and c.downstream is None]
            upstream = command

    def _element(self, tokens: list[Token], consumed: bool) -> WinCommand | None:
        if not tokens:
            return None
        first = tokens[0]
        if first.kind == "op" and first.text == "&" or first.kind == "word" and first.text == "." and len(tokens) > 1:
            target = tokens[1] if len(tokens) > 1 else Token("word", "")
            if target.kind == "group" and target.opener == "{":
                self.statements(target.children)
                return None
            name = self._values(target)
            return self._command(name[0] if len(name) == 1 else None, target.text, tokens[2:], consumed)
        if first.kind == "word" and names_command(first.text):
            return self._command(first.text, first.text, tokens[1:], consumed)
        return self._expression(tokens, consumed)

    def _command(self, word: str | None, shown: str, tokens: list[Token], consumed: bool) -> WinCommand:
        name = program(word) if word else None
        if word and name and "." not in word and "\\" not in word and "/" not in word:
            name = cmdlet(name)  # an alias, unless a file is named: `where.exe` is not Where-Object
        command = WinCommand(argv=[name], shown=[shown], consumed=consumed)
        if self.absent:
            command.absent.add(self.absent)
        i = 0
        while i < len(tokens):
            token = tokens[i]
            if token.kind == "redirect":
                command.redirects += self._redirects(tokens[i : i + 2])
                i += "&" not in token.text
            elif token.kind == "op" and token.text == ",":
                command.joined.add(len(command.argv) - 1)
            elif token.kind == "stop":
                command.argv += token.text.split()
                command.shown += token.text.split()
            elif token.kind in ("word", "string", "group"):
                self._argument(token, command)
            i += 1
        command.text = " ".join([shown, *(t.text for t in tokens)])
        self.commands.append(command)
        return command

    def _redirects(self, tokens: list[Token]) -> list[tuple[str, str | None]]:
        """Each redirect among tokens with its target's text (None when computed; `2>&1` has none)."""
        found: list[tuple[str, str | None]] = []
        for i, token in enumerate(tokens):
            if token.kind == "redirect" and "&" not in token.text:
                values = self._values(tokens[i + 1]) if i + 1 < len(tokens) else [None]
                found.append((token.text, values[0] if len(values) == 1 else None))
        return found

    def _argument(self, token: Token, command: WinCommand) -> None:
        literal = self._literals([token]) if token.kind == "group" and token.opener != "{" else None
        if token.kind == "group" and literal is None:
            self.statements(token.children, consumed=token.opener != "{")
        values = literal if literal is not None else self._values(token)
        for n, value in enumerate(values):
            if n:
                command.joined.add(len(command.argv) - 1)
            command.argv.append(value)
            command.shown.append(value if len(values) > 1 and value is not None else token.text)

    def _expression(self, tokens: list[Token], consumed: bool) -> WinCommand:
        redirects = [i for i, t in enumerate(tokens) if t.kind == "redirect"]
        if redirects:  # `$null > f`: the expression's output goes to the file, as a command's does
            command = self._expression(tokens[: redirects[0]], consumed)
            self._command(None, "", tokens[redirects[0] :], consumed)
            self.commands.pop()  # only its redirects were wanted
            command.redirects += self._redirects(tokens[redirects[0] :])
            return command
        calls = any(t.kind == "group" and t.adjacent and t.opener == "(" for t in tokens[1:])
        literal = None if calls else self._literals(tokens)
        found: WinCommand | None = None
        for i, token in enumerate(tokens if literal is None else []):
            after = tokens[i + 1] if i + 1 < len(tokens) else None
            call = after is not None and after.kind == "group" and after.opener == "(" and after.adjacent
            if token.kind == "word" and call and ("]::" in token.text or METHODS.search(token.text)):
                assert after is not None
                found = self._call(token, tokens[i - 1].text if i else "", after, consumed)
            elif token.kind == "group" and not (i and tokens[i - 1] is not token and found and token.adjacent):
                self.statements(token.children, consumed or token.opener == "{")
        if found is not None:
            return found
        argv: list[str | None] = ["write-output", *literal] if literal is not None else ["write-output", None]
        text = " ".join(t.text for t in tokens)
        command = WinCommand(argv=argv, shown=[text] * len(argv), consumed=consumed, text=text)
        self.commands.append(command)
        return command

    def _call(self, method: Token, owner: str, arguments: Token, consumed: bool) -> WinCommand:
        """`[System.IO.File]::Delete(x)` as the command `[io.file]::delete x`; `(…).Delete()`, `$fso.DeleteFolder(x)`
        as `.delete` of what it is called on and its arguments; `$Host.UI.RawUI.ReadKey()` as `.readkey`."""
        member = METHODS.search(method.text)
        static = "]::" in method.text and member is None  # `[Console]::In.ReadLine()` calls ReadLine on In
        name = re.sub(r"\[(system\.)?", "[", method.text.lower()) if static or not member else member.group(1).lower()
        owner = method.text[: member.start()] if member is not None and member.start() else owner
        argv: list[str | None] = [name] if static else [name, None]
        shown = [method.text] if static else [method.text, owner]
        for part in split([t for t in arguments.children if t.kind != "sep"], "op", (",",)):
            if not part:
                continue
            values = self._literals(part)
            argv.append(values[0] if values is not None and len(values) == 1 else None)
            shown.append(argv[-1] or " ".join(t.text for t in part))
            if values is None:
                self.statements(part, consumed=True)
        command = WinCommand(argv=argv, shown=shown, consumed=consumed, text=method.text + arguments.text)
        self.commands.append(command)
        return command

    def _literals(self, tokens: list[Token]) -> list[str] | None:
        """The values of a list of literals (`'a', 'b'`, `@("a")`, a variable holding them); None if one is computed."""
        found: list[str] = []
        for token in tokens:
            if token.kind == "op" and token.text == ",":
                continue
            if token.kind == "group" and token.opener in ("(", "@("):
                inner = self._literals([t for t in token.children if t.kind != "sep"])
                if inner is None:
                    return None
                found += inner
            elif token.kind in ("word", "string"):
                values = self._values(token)
                if None in values or token.kind == "word" and not token.text.startswith(("$", "'", '"', "[")):
                    return None  # a bareword here is a command or an operator: not a literal
                found += [v for v in values if v is not None and v != "$null"]  # $null writes nothing
            else:
                return None
        return found if tokens else None

    def _values(self, token: Token) -> list[str | None]:
        """What a word or string passes: its literal text, each value of a variable holding a list, or None."""
        if token.kind == "string":
            return [unescaped(token.body, "'")] if token.quote == "'" else [self._expand(token.body)]
        if token.kind != "word":
            return [None]
        text = token.text
        whole = VARIABLE.fullmatch(text)
        if whole is not None:
            name = variable_name(text)
            if name in CONSTANTS:
                return [CONSTANTS[name]]
            known = self.variables.get(name)
            return list(known) if known else [None]
        if parameter := re.match(r"-[\w-]+:", text):  # -Name:value keeps its value's text when it is computed
            value = self._expand(unquoted_word(text[parameter.end() :]))
            return [parameter.group() + (value if value is not None else text[parameter.end() :])]
        return [self._expand(unquoted_word(text))]

    def _expand(self, text: str) -> str | None:
        """Text with the variables it names replaced by their values; None when one is computed at run time."""
        if "$(" in text:
            start = text.index("$(")
            while start >= 0:  # each sub-expression runs: "$(Get-Date) $(Remove-Item x)"
                lexer = Lexer(text[start + 2 :])
                self.statements(lexer.tokens(")"), consumed=True)
                start = text.find("$(", start + 2 + lexer.at)
            return None
        computed = False

        def value(match: re.Match[str]) -> str:
            nonlocal computed
            name = (match.group(1) or match.group(2)).lower()
            known = self.variables.get(name, ["."] if name == "pwd" else None)  # where the command runs
            if name in CONSTANTS or not known or len(known) != 1:
                computed = True
                return ""
            return known[0]

        expanded = VARIABLE.sub(value, text)
        return None if computed else expanded


def _literal_output(command: WinCommand) -> str | None:
    """The text a command writes down the pipeline when it is literal (write-output of literals), else None."""
    if command.name == "write-output" and None not in command.argv[1:]:
        return "\n".join(a for a in command.argv[1:] if a is not None)
    return None


def parse(text: str) -> list[WinCommand]:
    """The commands PowerShell would run for text, each set to the shell it runs in."""
    builder = _Builder()
    try:
        builder.statements(Lexer(text).tokens())
    except RecursionError:  # brackets nested deeper than the reader's stack: unread, and the analysis asks
        return [WinCommand(argv=[None], shown=["…"], text="…")]
    return builder.commands
