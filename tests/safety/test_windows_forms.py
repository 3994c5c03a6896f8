"""PowerShell's and cmd's text read one form at a time: the tokens the lexer gives, and what each shell's reader makes
of them, asserted in process."""

import pytest

from narnat_agent.safety import analyze, cmd, powershell
from narnat_agent.safety.powershell import MAX_GROUPS
from narnat_agent.safety.powershell_lex import (
    Lexer,
    Token,
    names_command,
    split,
    unescaped,
    unquoted_word,
    variable_name,
)
from narnat_agent.safety.windows_syntax import WinCommand
from tests.tools.syntax_corpus import case_id


def text_id(value: object) -> str | None:
    """Ids of words alone: mutmut passes them on pytest's command line, where `::`, quotes and backslashes break."""
    return case_id(value) if isinstance(value, str) else None


def shape(tokens: list[Token]) -> list[tuple]:
    """Each token as (kind, text), a glued one marked +, a group with its opener and its own tokens, a string with
    its quote and body."""
    shown: list[tuple] = []
    for token in tokens:
        kind = "+" + token.kind if token.adjacent else token.kind
        if token.kind == "group":
            shown.append((kind, token.opener, shape(token.children)))
        elif token.kind == "string":
            shown.append((kind, token.text, token.quote, token.body))
        else:
            shown.append((kind, token.text))
    return shown


def lexed(text: str) -> list[tuple]:
    return shape(Lexer(text).tokens())


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("Remove-Item 'a b'", [("word", "Remove-Item"), ("string", "'a b'", "'", "a b")]),
        # every space PowerShell skips, a carriage return among them
        ("a\tb\fc\vd\u00a0e\rf", [("word", w) for w in "abcdef"]),
        ("a\nb;c", [("word", "a"), ("+sep", "\n"), ("word", "b"), ("+sep", ";"), ("word", "c")]),
        ("a ;b", [("word", "a"), ("sep", ";"), ("word", "b")]),
        # a backtick at a line's end continues it, with or without a carriage return
        ("a `\nb `\r\nc", [("word", "a"), ("word", "b"), ("word", "c")]),
        ("a`\nb", [("word", "ab")]),
        # comments: to the line's end, or to #>; unclosed, to the text's end
        ("a # b c\nd", [("word", "a"), ("comment", ""), ("+sep", "\n"), ("word", "d")]),
        ("a # b c", [("word", "a"), ("comment", "")]),
        ("a <# b\nc #> d", [("word", "a"), ("comment", ""), ("word", "d")]),
        ("a <# b c", [("word", "a"), ("comment", "")]),
        ("a<#b#>c", [("word", "a"), ("+comment", ""), ("+word", "c")]),
        # each bracket opens a group of its own tokens, closed by its own closer
        ("$(a b)", [("group", "$(", [("word", "a"), ("word", "b")])]),
        ("@(a)", [("group", "@(", [("word", "a")])]),
        ("@{a = 1}", [("group", "@{", [("word", "a"), ("op", "="), ("word", "1")])]),
        ("(a)", [("group", "(", [("word", "a")])]),
        ("{a}", [("group", "{", [("word", "a")])]),
        ("{ (a) }", [("group", "{", [("group", "(", [("word", "a")])])]),
        ("(a }", [("group", "(", [("word", "a"), ("word", "}")])]),
        ("(a b", [("group", "(", [("word", "a"), ("word", "b")])]),
        ("a) b", [("word", "a"), ("+word", ")"), ("word", "b")]),
        # a call's brackets are glued to its name; a word after a space is not
        ("[IO.File]::Delete('x')", [("word", "[IO.File]::Delete"), ("+group", "(", [("string", "'x'", "'", "x")])]),
        ("(a).Delete()", [("group", "(", [("word", "a")]), ("+word", ".Delete"), ("+group", "(", [])]),
        ("a (b)", [("word", "a"), ("group", "(", [("word", "b")])]),
        ("a;b|c", [("word", "a"), ("+sep", ";"), ("word", "b"), ("+op", "|"), ("word", "c")]),
        # strings: verbatim, expanding with backtick escapes, doubled quotes, typographic quotes, unclosed
        ("'it''s' x", [("string", "'it''s'", "'", "it''s"), ("word", "x")]),
        ('"a`"b" x', [("string", '"a`"b"', '"', 'a`"b'), ("word", "x")]),
        ('"a""b" x', [("string", '"a""b"', '"', 'a""b'), ("word", "x")]),
        ("'C:\\a`' x", [("string", "'C:\\a`'", "'", "C:\\a`"), ("word", "x")]),  # no escape in a verbatim string
        ("\u2018a b\u2019 x", [("string", "\u2018a b\u2019", "'", "a b"), ("word", "x")]),
        ("\u201ca b\u201d x", [("string", "\u201ca b\u201d", '"', "a b"), ("word", "x")]),
        ("'a\u2019\u2019b' x", [("string", "'a\u2019\u2019b'", "'", "a\u2019\u2019b"), ("word", "x")]),
        ("'a b", [("string", "'a b", "'", "a b")]),
        ('"a`', [("string", '"a`', '"', "a`")]),
        ("''", [("string", "''", "'", "")]),
        # here-strings end at a quote and @ that start a line
        ("@'\na 'b'@ c\n'@ x", [("string", "@'\na 'b'@ c\n'@", "'", "a 'b'@ c"), ("word", "x")]),
        ('@"\r\na\r\n"@', [("string", '@"\r\na\r\n"@', '"', "a")]),
        ("@'\na", [("string", "@'\na", "'", "a")]),
        ("@'a'", [("word", "@'a'")]),
        # redirections, with a stream's number, appending, merged
        ("a 2>&1 >> f", [("word", "a"), ("redirect", "2>&1"), ("redirect", ">>"), ("word", "f")]),
        ("a *> f < g", [("word", "a"), ("redirect", "*>"), ("word", "f"), ("redirect", "<"), ("word", "g")]),
        ("a 6>f", [("word", "a"), ("redirect", "6>"), ("+word", "f")]),
        ("a 7>f", [("word", "a"), ("word", "7"), ("+redirect", ">"), ("+word", "f")]),
        # --% passes the rest of its line as it is
        ("cmd --% /c del x\ny", [("word", "cmd"), ("stop", "/c del x"), ("+sep", "\n"), ("word", "y")]),
        ("cmd --% /c del x ", [("word", "cmd"), ("stop", "/c del x")]),
        # the longest operator first
        (
            "a && b || c & d",
            [("word", "a"), ("op", "&&"), ("word", "b"), ("op", "||"), ("word", "c"), ("op", "&"), ("word", "d")],
        ),
        ("$a += 1", [("word", "$a"), ("op", "+="), ("word", "1")]),
        (
            "$a -= 1; $a *= 2; $a /= 2",
            [
                ("word", "$a"),
                ("op", "-="),
                ("word", "1"),
                ("+sep", ";"),
                ("word", "$a"),
                ("op", "*="),
                ("word", "2"),
                ("+sep", ";"),
                ("word", "$a"),
                ("op", "/="),
                ("word", "2"),
            ],
        ),
        ("a, b", [("word", "a"), ("+op", ","), ("word", "b")]),
        # a bareword holds its escapes, quotes, types, ${ } and $( ); it ends at a space, an operator or a brace
        ("a` b c", [("word", "a` b"), ("word", "c")]),
        ("a'b c'd e", [("word", "a'b c'd"), ("word", "e")]),
        ('a"b c" e', [("word", 'a"b c"'), ("word", "e")]),
        ("a'b c", [("word", "a'b c")]),
        ("[a b]::c d", [("word", "[a b]::c"), ("word", "d")]),
        ("[a[b] c]x y", [("word", "[a[b] c]x"), ("word", "y")]),
        ("a]b c", [("word", "a]b"), ("word", "c")]),
        ("x[a b", [("word", "x[a"), ("word", "b")]),
        ("${a b}c d", [("word", "${a b}c"), ("word", "d")]),
        ("a${b c", [("word", "a${b c")]),
        ("a$(b c)d e", [("word", "a$(b c)d"), ("word", "e")]),
        ("a$(b (c) d)e f", [("word", "a$(b (c) d)e"), ("word", "f")]),
        ("a$(b {c) d", [("word", "a$(b {c) d")]),
        ("a$(b c", [("word", "a$(b c")]),
        ("a{b}", [("word", "a"), ("+group", "{", [("word", "b")])]),
        ("a|b", [("word", "a"), ("+op", "|"), ("word", "b")]),
        ("a,b", [("word", "a"), ("+op", ","), ("word", "b")]),
        ("a(b)", [("word", "a"), ("+group", "(", [("word", "b")])]),
        ("a<b", [("word", "a"), ("+redirect", "<"), ("+word", "b")]),
        ("a\rb", [("word", "a"), ("word", "b")]),
        ("a`", [("word", "a`")]),
    ],
    ids=text_id,
)
def test_powershell_text_is_read_as_its_tokens(text, tokens):
    assert lexed(text) == tokens


def test_a_string_tells_its_end_to_the_tokens_after_it():
    # the first string ends at its own quote, and the space after it separates the next token
    assert lexed("'a' 'b'") == [("string", "'a'", "'", "a"), ("string", "'b'", "'", "b")]
    assert lexed("'a''b'c") == [("string", "'a''b'", "'", "a''b"), ("+word", "c")]
    # an escape takes one character, a doubled quote two, and the string goes on after them
    assert lexed('"a``" x') == [("string", '"a``"', '"', "a``"), ("word", "x")]
    assert lexed("'a''' x") == [("string", "'a'''", "'", "a''"), ("word", "x")]
    # only quotes end a string
    assert lexed("'aXb' c") == [("string", "'aXb'", "'", "aXb"), ("word", "c")]
    assert lexed('"aXb" c') == [("string", '"aXb"', '"', "aXb"), ("word", "c")]


def test_a_here_strings_text_keeps_its_lines_spaces():
    # only the line ends around the text go: its own spaces and letters stay, and reading goes on after it
    assert lexed("a @'\nb\n'@ c") == [("word", "a"), ("string", "@'\nb\n'@", "'", "b"), ("word", "c")]
    assert lexed("@'\n  a  \n'@") == [("string", "@'\n  a  \n'@", "'", "  a  ")]
    assert lexed("@'\r\n  a\r\n'@") == [("string", "@'\r\n  a\r\n'@", "'", "  a")]
    assert lexed("@'\rXa\n'@") == [("string", "@'\rXa\n'@", "'", "Xa")]
    assert lexed("@'\naX\n'@") == [("string", "@'\naX\n'@", "'", "aX")]
    assert lexed("@'\n\r\na\n'@") == [("string", "@'\n\r\na\n'@", "'", "\r\na")]  # a first line left blank


def test_a_comment_ends_at_its_own_end():
    assert lexed("<# a #> b <# c #> d") == [("comment", ""), ("word", "b"), ("comment", ""), ("word", "d")]
    assert lexed("# a\nb\nc") == [("comment", ""), ("+sep", "\n"), ("word", "b"), ("+sep", "\n"), ("word", "c")]
    # `<#>` is read as a comment closed at once: the text after it is read, so no command hides behind it
    assert lexed("<#> a") == [("comment", ""), ("word", "a")]
    assert lexed("Xa b") == [("word", "Xa"), ("word", "b")]
    # --% passes the rest of its own line only, from the character after it
    assert lexed("cmd --% a\nb\nc") == [
        ("word", "cmd"),
        ("stop", "a"),
        ("+sep", "\n"),
        ("word", "b"),
        ("+sep", "\n"),
        ("word", "c"),
    ]
    assert lexed("cmd --%/c x") == [("word", "cmd"), ("stop", "/c x")]


def test_a_sub_expression_inside_a_word_ends_at_its_own_bracket():
    # brackets before it (in quotes) are not counted, and only brackets count
    assert lexed("a'('$(b c)d e") == [("word", "a'('$(b c)d"), ("word", "e")]
    assert lexed("a$(X d)e f") == [("word", "a$(X d)e"), ("word", "f")]
    assert lexed("${a}$(b c)d e") == [("word", "${a}$(b c)d"), ("word", "e")]
    assert lexed("a$(b) c") == [("word", "a$(b)"), ("word", "c")]


def test_a_bareword_ends_at_the_first_space_outside_its_parts():
    # an escape takes one character; a quoted part and ${ } end at their own first closer
    assert lexed("a`b c") == [("word", "a`b"), ("word", "c")]
    assert lexed("aXb c") == [("word", "aXb"), ("word", "c")]
    assert lexed("a'b' c'd'") == [("word", "a'b'"), ("word", "c'd'")]
    assert lexed("a''b c") == [("word", "a''b"), ("word", "c")]
    assert lexed("a'}'${b}c d") == [("word", "a'}'${b}c"), ("word", "d")]
    assert lexed("${a} ${b}") == [("word", "${a}"), ("word", "${b}")]


@pytest.mark.parametrize(
    ("body", "quote", "passed"),
    [
        ("it''s", "'", "it's"),
        ("it\u2019\u2019s", "'", "it\u2019s"),
        ("a``b", "'", "a``b"),
        ("a`tb`nc`rd`0e`af`bg`fh`vi`ej`$k`x", '"', "a\tb\nc\rd\0e\af\bg\fh\vi\x1bj$kx"),
        ("a`\nb", '"', "a\nb"),
        ("it''s", '"', "it''s"),
    ],
    ids=text_id,
)
def test_a_strings_text_is_what_powershell_passes(body, quote, passed):
    assert unescaped(body, quote) == passed


@pytest.mark.parametrize(
    ("word", "passed"),
    [
        ("a' b'", "a b"),
        ('a" b`t"c', "a b\tc"),
        ('""', ""),
        ("a` b", "a b"),
        ("a`\nb", "a\nb"),
        ("plain", "plain"),
    ],
    ids=text_id,
)
def test_a_barewords_text_is_what_powershell_passes(word, passed):
    assert unquoted_word(word) == passed


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("$Dir", "dir"),
        ("$env:TEMP", "env:temp"),
        ("$Global:x", "global:x"),
        ("$script:X", "script:x"),
        ("$local:X", "local:x"),
        ("${My Dir}", "my dir"),
        ("$?", "?"),
        ("$$", "$"),
        ("$^", "^"),
        ("Dir", "dir"),
        ("$Dir.Name", "dir"),
    ],
    ids=text_id,
)
def test_a_variables_name_is_read_in_any_case(text, name):
    assert variable_name(text) == name


@pytest.mark.parametrize(
    ("word", "named"),
    [
        ("Remove-Item", True),
        ("7zip.exe", True),
        ("XCOPY", True),
        ("$x", False),
        ("[IO.File]::Delete", False),
        ("@x", False),
        ("-x", False),
        ("+1", False),
        ("!x", False),
        ("42", False),
        ("1.5", False),
        ("10kb", False),
        ("1gb", False),
        ("10KB", False),
        ("1abc", True),
    ],
    ids=text_id,
)
def test_a_pipelines_first_word_names_a_command_unless_it_is_a_value(word, named):
    assert names_command(word) is named


def test_statements_drop_empty_parts_and_operators_keep_them():
    tokens = Lexer("a;;b").tokens()
    assert [[t.text for t in part] for part in split(tokens, "sep")] == [["a"], ["b"]]
    tokens = Lexer("a||b").tokens()
    assert [[t.text for t in part] for part in split(tokens, "op", ("|",))] == [["a", "||", "b"]]
    tokens = Lexer("|a|").tokens()
    assert [[t.text for t in part] for part in split(tokens, "op")] == [[], ["a"], []]
    tokens = Lexer("a&&b|c").tokens()
    assert [[t.text for t in part] for part in split(tokens, "op", ("&&", "||"))] == [["a"], ["b", "|", "c"]]


@pytest.mark.parametrize(
    "text",
    [
        "Write-Output \u2018a\u2019; Remove-Item -Recurse build",
        "Write-Output \u201ca\u201d; Remove-Item -Recurse build",
        "Write-Output \u2018a\u2018; Remove-Item -Recurse build",
    ],
    ids=text_id,
)
def test_a_command_after_a_string_in_typographic_quotes_is_found(text):
    # PowerShell ends a string at any quote of its kind, straight or typographic
    assert analyze(text, shell="powershell").deletions == ["Remove-Item deletes build with everything inside"]


def test_a_string_in_typographic_quotes_names_its_text():
    assert analyze("Remove-Item \u2018build\u2019 -Recurse", shell="powershell").deletions == [
        "Remove-Item deletes build with everything inside"
    ]


@pytest.mark.parametrize(
    "text",
    [
        "if (-not (Test-Path config.json)) { Write-Output a } else { Copy-Item new.json config.json -Force }",
        "if (!(Test-Path config.json)) { Get-Date } elseif ($force) { Copy-Item new.json config.json -Force }",
    ],
    ids=text_id,
)
def test_the_branch_that_runs_when_the_file_exists_overwrites_it(text, tmp_path):
    # only the block `if` runs when Test-Path found nothing leaves the file missing
    (tmp_path / "config.json").write_text("{}\n")
    assert analyze(text, tmp_path, "powershell").deletions == ["Copy-Item overwrites config.json, which exists"]


def test_the_branch_that_runs_when_the_file_is_missing_does_not_overwrite_it(tmp_path):
    (tmp_path / "config.json").write_text("{}\n")
    text = "if (-not (Test-Path config.json)) { Copy-Item new.json config.json } else { Get-Date }"
    assert analyze(text, tmp_path, "powershell").deletions == []


def described(commands: list[WinCommand]) -> list[dict]:
    """What a shell's reader says of each command: its words as passed (and as written, where they differ), its text
    as the question quotes it, where its output goes and what it reads, which pipeline it belongs to."""
    shown: list[dict] = []
    for command in commands:
        said: dict = {"argv": command.argv, "text": command.text}
        if command.shown != command.argv:
            said["shown"] = command.shown
        for key in ("redirects", "consumed", "background", "reads", "joined", "absent"):
            value = getattr(command, key)
            if value:
                said[key] = sorted(value) if isinstance(value, set) else value
        if command.stdin is not None:  # text known to come down the pipeline, even none
            said["stdin"] = command.stdin
        if command.upstream is not None:
            said["upstream"] = commands.index(command.upstream)
        if command.downstream is not None:
            said["downstream"] = commands.index(command.downstream)
        shown.append(said)
    return shown


POWERSHELL_FORMS = [
    (
        "Remove-Item a, b -Recurse",
        [
            {
                "argv": ["remove-item", "a", "b", "-Recurse"],
                "text": "Remove-Item a , b -Recurse",
                "shown": ["Remove-Item", "a", "b", "-Recurse"],
                "joined": [1],
            }
        ],
    ),
    (
        "$x = 'a'; $x += 'b'; Remove-Item $x",
        [
            {"argv": ["write-output", "a"], "text": "'a'", "shown": ["'a'", "'a'"], "consumed": True},
            {"argv": ["write-output", "b"], "text": "'b'", "shown": ["'b'", "'b'"], "consumed": True},
            {"argv": ["remove-item", None], "text": "Remove-Item $x", "shown": ["Remove-Item", "$x"]},
        ],
    ),
    (
        "$x = @('a'); Remove-Item \"$x\\c\"",
        [
            {"argv": ["write-output", "a"], "text": "@('a')", "shown": ["@('a')", "@('a')"], "consumed": True},
            {"argv": ["remove-item", "a\\c"], "text": 'Remove-Item "$x\\c"', "shown": ["Remove-Item", '"$x\\c"']},
        ],
    ),
    (
        "$x = 'a', 'b'; Remove-Item \"$x\\c\"",
        [
            {
                "argv": ["write-output", "a", "b"],
                "text": "'a' , 'b'",
                "shown": ["'a' , 'b'", "'a' , 'b'", "'a' , 'b'"],
                "consumed": True,
            },
            {"argv": ["remove-item", None], "text": 'Remove-Item "$x\\c"', "shown": ["Remove-Item", '"$x\\c"']},
        ],
    ),
    (
        "if (-not (Test-Path x)) { Copy-Item y x }; Copy-Item z x",
        [
            {
                "argv": ["test-path", "x"],
                "text": "Test-Path x",
                "shown": ["Test-Path", "x"],
                "consumed": True,
                "absent": ["x"],
            },
            {
                "argv": ["write-output", None],
                "text": "-not (Test-Path x)",
                "shown": ["-not (Test-Path x)", "-not (Test-Path x)"],
                "consumed": True,
            },
            {
                "argv": ["copy-item", "y", "x"],
                "text": "Copy-Item y x",
                "shown": ["Copy-Item", "y", "x"],
                "absent": ["x"],
            },
            {"argv": ["copy-item", "z", "x"], "text": "Copy-Item z x", "shown": ["Copy-Item", "z", "x"]},
        ],
    ),
    (
        "if (! (Test-Path 'a b')) { New-Item 'a b' } else { Remove-Item c }",
        [
            {
                "argv": ["test-path", "a b"],
                "text": "Test-Path 'a b'",
                "shown": ["Test-Path", "'a b'"],
                "consumed": True,
                "absent": ["a b"],
            },
            {
                "argv": ["write-output", None],
                "text": "! (Test-Path 'a b')",
                "shown": ["! (Test-Path 'a b')", "! (Test-Path 'a b')"],
                "consumed": True,
            },
            {"argv": ["new-item", "a b"], "text": "New-Item 'a b'", "shown": ["New-Item", "'a b'"], "absent": ["a b"]},
            {"argv": ["remove-item", "c"], "text": "Remove-Item c", "shown": ["Remove-Item", "c"]},
        ],
    ),
    (
        "if (-not (Test-Path x) -or $y) { Copy-Item y x }",
        [
            {"argv": ["test-path", "x"], "text": "Test-Path x", "shown": ["Test-Path", "x"], "consumed": True},
            {
                "argv": ["write-output", None],
                "text": "-not (Test-Path x) -or $y",
                "shown": ["-not (Test-Path x) -or $y", "-not (Test-Path x) -or $y"],
                "consumed": True,
            },
            {"argv": ["copy-item", "y", "x"], "text": "Copy-Item y x", "shown": ["Copy-Item", "y", "x"]},
        ],
    ),
    (
        "if (-not (Get-Item x)) { Copy-Item y x }",
        [
            {"argv": ["get-item", "x"], "text": "Get-Item x", "shown": ["Get-Item", "x"], "consumed": True},
            {
                "argv": ["write-output", None],
                "text": "-not (Get-Item x)",
                "shown": ["-not (Get-Item x)", "-not (Get-Item x)"],
                "consumed": True,
            },
            {"argv": ["copy-item", "y", "x"], "text": "Copy-Item y x", "shown": ["Copy-Item", "y", "x"]},
        ],
    ),
    (
        "if (-not (Test-Path x y)) { Copy-Item y x }",
        [
            {
                "argv": ["test-path", "x", "y"],
                "text": "Test-Path x y",
                "shown": ["Test-Path", "x", "y"],
                "consumed": True,
            },
            {
                "argv": ["write-output", None],
                "text": "-not (Test-Path x y)",
                "shown": ["-not (Test-Path x y)", "-not (Test-Path x y)"],
                "consumed": True,
            },
            {"argv": ["copy-item", "y", "x"], "text": "Copy-Item y x", "shown": ["Copy-Item", "y", "x"]},
        ],
    ),
    (
        "if (-not $x) { Copy-Item y x }",
        [
            {"argv": ["write-output", None], "text": "-not $x", "shown": ["-not $x", "-not $x"], "consumed": True},
            {"argv": ["copy-item", "y", "x"], "text": "Copy-Item y x", "shown": ["Copy-Item", "y", "x"]},
        ],
    ),
    (
        "'a', 'b' | Remove-Item",
        [
            {
                "argv": ["write-output", "a", "b"],
                "text": "'a' , 'b'",
                "shown": ["'a' , 'b'", "'a' , 'b'", "'a' , 'b'"],
                "downstream": 1,
            },
            {"argv": ["remove-item"], "text": "Remove-Item", "shown": ["Remove-Item"], "stdin": "a\nb", "upstream": 0},
        ],
    ),
    (
        "Start-Job { Remove-Item x } &",
        [
            {"argv": ["remove-item", "x"], "text": "Remove-Item x", "shown": ["Remove-Item", "x"]},
            {
                "argv": ["start-job", None],
                "text": "Start-Job { Remove-Item x }",
                "shown": ["Start-Job", "{ Remove-Item x }"],
                "background": True,
            },
        ],
    ),
    ("$null > f", [{"argv": ["write-output"], "text": "$null", "shown": ["$null"], "redirects": [(">", "f")]}]),
    (
        "'a' > f; \"y\" >> f",
        [
            {"argv": ["write-output", "a"], "text": "'a'", "shown": ["'a'", "'a'"], "redirects": [(">", "f")]},
            {"argv": ["write-output", "y"], "text": '"y"', "shown": ['"y"', '"y"'], "redirects": [(">>", "f")]},
        ],
    ),
    (
        "Get-Content -Raw a.txt | Set-Content a.txt",
        [
            {
                "argv": ["get-content", "-Raw", "a.txt"],
                "text": "Get-Content -Raw a.txt",
                "shown": ["Get-Content", "-Raw", "a.txt"],
                "reads": ["a.txt"],
                "downstream": 1,
            },
            {
                "argv": ["set-content", "a.txt"],
                "text": "Set-Content a.txt",
                "shown": ["Set-Content", "a.txt"],
                "reads": ["a.txt"],
                "upstream": 0,
            },
        ],
    ),
    (
        "gci *.log | % { Remove-Item $_ }",
        [
            {"argv": ["get-childitem", "*.log"], "text": "gci *.log", "shown": ["gci", "*.log"], "downstream": 2},
            {"argv": ["remove-item", None], "text": "Remove-Item $_", "shown": ["Remove-Item", "$_"]},
            {
                "argv": ["foreach-object", None],
                "text": "% { Remove-Item $_ }",
                "shown": ["%", "{ Remove-Item $_ }"],
                "upstream": 0,
            },
        ],
    ),
    (
        "Get-Date | ForEach-Object { $_ } | Remove-Item",
        [
            {"argv": ["get-date"], "text": "Get-Date", "shown": ["Get-Date"], "downstream": 2},
            {"argv": ["write-output", None], "text": "$_", "shown": ["$_", "$_"], "downstream": 3},
            {
                "argv": ["foreach-object", None],
                "text": "ForEach-Object { $_ }",
                "shown": ["ForEach-Object", "{ $_ }"],
                "upstream": 0,
                "downstream": 3,
            },
            {"argv": ["remove-item"], "text": "Remove-Item", "shown": ["Remove-Item"], "upstream": 2},
        ],
    ),
    (
        "(Get-ChildItem *.log) | Remove-Item",
        [
            {
                "argv": ["get-childitem", "*.log"],
                "text": "Get-ChildItem *.log",
                "shown": ["Get-ChildItem", "*.log"],
                "downstream": 2,
            },
            {
                "argv": ["write-output", None],
                "text": "(Get-ChildItem *.log)",
                "shown": ["(Get-ChildItem *.log)", "(Get-ChildItem *.log)"],
                "downstream": 2,
            },
            {"argv": ["remove-item"], "text": "Remove-Item", "shown": ["Remove-Item"], "upstream": 1},
        ],
    ),
    (
        "& 'C:\\tools\\x.exe' a",
        [{"argv": ["x", "a"], "text": "'C:\\tools\\x.exe' a", "shown": ["'C:\\tools\\x.exe'", "a"]}],
    ),
    ("& $cmd a", [{"argv": [None, "a"], "text": "$cmd a", "shown": ["$cmd", "a"]}]),
    ("& { Remove-Item x }", [{"argv": ["remove-item", "x"], "text": "Remove-Item x", "shown": ["Remove-Item", "x"]}]),
    (". .\\script.ps1", [{"argv": ["script.ps1"], "text": ".\\script.ps1", "shown": [".\\script.ps1"]}]),
    ("where.exe git", [{"argv": ["where", "git"], "text": "where.exe git", "shown": ["where.exe", "git"]}]),
    ("rm -r x", [{"argv": ["remove-item", "-r", "x"], "text": "rm -r x", "shown": ["rm", "-r", "x"]}]),
    (
        "while ($true) { Get-Date }",
        [
            {"argv": ["while", "$true"], "text": "while ($true)", "shown": ["while", "($true)"]},
            {"argv": ["write-output", "$true"], "text": "$true", "shown": ["$true", "$true"], "consumed": True},
            {"argv": ["get-date"], "text": "Get-Date", "shown": ["Get-Date"]},
        ],
    ),
    (
        "while (1) { if ($x) { break } }",
        [
            {"argv": ["write-output", None], "text": "1", "shown": ["1", "1"], "consumed": True},
            {"argv": ["write-output", None], "text": "$x", "shown": ["$x", "$x"], "consumed": True},
        ],
    ),
    (
        "while ($x) { Get-Date }",
        [
            {"argv": ["write-output", None], "text": "$x", "shown": ["$x", "$x"], "consumed": True},
            {"argv": ["get-date"], "text": "Get-Date", "shown": ["Get-Date"]},
        ],
    ),
    (
        "while ($true)",
        [{"argv": ["write-output", "$true"], "text": "$true", "shown": ["$true", "$true"], "consumed": True}],
    ),
    (
        "foreach ($d in 'a', 'b') { Remove-Item $d }",
        [
            {
                "argv": ["write-output", "a", "b"],
                "text": "'a' , 'b'",
                "shown": ["'a' , 'b'", "'a' , 'b'", "'a' , 'b'"],
                "consumed": True,
            },
            {
                "argv": ["remove-item", "a", "b"],
                "text": "Remove-Item $d",
                "shown": ["Remove-Item", "a", "b"],
                "joined": [1],
            },
        ],
    ),
    (
        "foreach ($d in Get-ChildItem) { Remove-Item $d }",
        [
            {"argv": ["get-childitem"], "text": "Get-ChildItem", "shown": ["Get-ChildItem"], "consumed": True},
            {"argv": ["remove-item", None], "text": "Remove-Item $d", "shown": ["Remove-Item", "$d"]},
        ],
    ),
    ("foreach ($d) { }", []),
    (
        "function F { param($d) Remove-Item $d }",
        [{"argv": ["remove-item", None], "text": "Remove-Item $d", "shown": ["Remove-Item", "$d"]}],
    ),
    ("return Remove-Item x", [{"argv": ["remove-item", "x"], "text": "Remove-Item x", "shown": ["Remove-Item", "x"]}]),
    ("cmd --% /c del x", [{"argv": ["cmd", "/c", "del", "x"], "text": "cmd /c del x"}]),
    (
        "[IO.File]::Delete('a')",
        [{"argv": ["[io.file]::delete", "a"], "text": "[IO.File]::Delete('a')", "shown": ["[IO.File]::Delete", "a"]}],
    ),
    (
        '[System.IO.Directory]::Delete("b", $true)',
        [
            {
                "argv": ["[io.directory]::delete", "b", "$true"],
                "text": '[System.IO.Directory]::Delete("b", $true)',
                "shown": ["[System.IO.Directory]::Delete", "b", "$true"],
            }
        ],
    ),
    (
        "[IO.File]::WriteAllText('f', (Get-Date))",
        [
            {"argv": ["get-date"], "text": "Get-Date", "shown": ["Get-Date"], "consumed": True},
            {
                "argv": ["write-output", None],
                "text": "(Get-Date)",
                "shown": ["(Get-Date)", "(Get-Date)"],
                "consumed": True,
            },
            {
                "argv": ["[io.file]::writealltext", "f", None],
                "text": "[IO.File]::WriteAllText('f', (Get-Date))",
                "shown": ["[IO.File]::WriteAllText", "f", "(Get-Date)"],
            },
        ],
    ),
    (
        "[IO.File]::Delete('a',)",
        [{"argv": ["[io.file]::delete", "a"], "text": "[IO.File]::Delete('a',)", "shown": ["[IO.File]::Delete", "a"]}],
    ),
    (
        "(Get-Item x).Delete()",
        [
            {"argv": ["get-item", "x"], "text": "Get-Item x", "shown": ["Get-Item", "x"]},
            {"argv": [".delete", None], "text": ".Delete()", "shown": [".Delete", "(Get-Item x)"]},
        ],
    ),
    (
        "$fso.DeleteFolder('c')",
        [
            {
                "argv": [".delete", None, "c"],
                "text": "$fso.DeleteFolder('c')",
                "shown": ["$fso.DeleteFolder", "$fso", "c"],
            }
        ],
    ),
    (
        "$Host.UI.RawUI.ReadKey()",
        [
            {
                "argv": [".readkey", None],
                "text": "$Host.UI.RawUI.ReadKey()",
                "shown": ["$Host.UI.RawUI.ReadKey", "$Host.UI.RawUI"],
            }
        ],
    ),
    (
        'Remove-Item "$pwd\\x" "$home\\x" $true "$true"',
        [
            {
                "argv": ["remove-item", ".\\x", None, "$true", None],
                "text": 'Remove-Item "$pwd\\x" "$home\\x" $true "$true"',
                "shown": ["Remove-Item", '"$pwd\\x"', '"$home\\x"', "$true", '"$true"'],
            }
        ],
    ),
    (
        "$t = 'p'; Remove-Item \"${t}\\x\" -Path:\"$t\" -Path:$t -Path:'a'",
        [
            {"argv": ["write-output", "p"], "text": "'p'", "shown": ["'p'", "'p'"], "consumed": True},
            {
                "argv": ["remove-item", "p\\x", "-Path:p", "-Path:p", "-Path:a"],
                "text": 'Remove-Item "${t}\\x" -Path:"$t" -Path:$t -Path:\'a\'',
                "shown": ["Remove-Item", '"${t}\\x"', '-Path:"$t"', "-Path:$t", "-Path:'a'"],
            },
        ],
    ),
    (
        "$a = 'p', $null; Remove-Item $a",
        [
            {
                "argv": ["write-output", "p"],
                "text": "'p' , $null",
                "shown": ["'p' , $null", "'p' , $null"],
                "consumed": True,
            },
            {"argv": ["remove-item", "p"], "text": "Remove-Item $a", "shown": ["Remove-Item", "$a"]},
        ],
    ),
    (
        "$a = @('p', @('q')); $b = $a; Remove-Item $b",
        [
            {
                "argv": ["write-output", "p", "q"],
                "text": "@('p', @('q'))",
                "shown": ["@('p', @('q'))", "@('p', @('q'))", "@('p', @('q'))"],
                "consumed": True,
            },
            {"argv": ["write-output", "p", "q"], "text": "$a", "shown": ["$a", "$a", "$a"], "consumed": True},
            {
                "argv": ["remove-item", "p", "q"],
                "text": "Remove-Item $b",
                "shown": ["Remove-Item", "p", "q"],
                "joined": [1],
            },
        ],
    ),
    (
        "Remove-Item @('p', (Get-Date)) ('q')",
        [
            {"argv": ["get-date"], "text": "Get-Date", "shown": ["Get-Date"], "consumed": True},
            {
                "argv": ["write-output", None],
                "text": "'p' , (Get-Date)",
                "shown": ["'p' , (Get-Date)", "'p' , (Get-Date)"],
                "consumed": True,
            },
            {
                "argv": ["remove-item", None, "q"],
                "text": "Remove-Item @('p', (Get-Date)) ('q')",
                "shown": ["Remove-Item", "@('p', (Get-Date))", "('q')"],
            },
        ],
    ),
    (
        'Write-Host "a$(Remove-Item x)"',
        [
            {"argv": ["remove-item", "x"], "text": "Remove-Item x", "shown": ["Remove-Item", "x"], "consumed": True},
            {
                "argv": ["write-host", None],
                "text": 'Write-Host "a$(Remove-Item x)"',
                "shown": ["Write-Host", '"a$(Remove-Item x)"'],
            },
        ],
    ),
    (
        "Get-Date > $f",
        [{"argv": ["get-date"], "text": "Get-Date > $f", "shown": ["Get-Date"], "redirects": [(">", None)]}],
    ),
    (
        "Remove-Item x > log.txt 2>&1 y",
        [
            {
                "argv": ["remove-item", "x", "y"],
                "text": "Remove-Item x > log.txt 2>&1 y",
                "shown": ["Remove-Item", "x", "y"],
                "redirects": [(">", "log.txt")],
            }
        ],
    ),
    (
        "'a' | (Get-Date)",
        [
            {"argv": ["write-output", "a"], "text": "'a'", "shown": ["'a'", "'a'"], "downstream": 2},
            {"argv": ["get-date"], "text": "Get-Date", "shown": ["Get-Date"]},
            {
                "argv": ["write-output", None],
                "text": "(Get-Date)",
                "shown": ["(Get-Date)", "(Get-Date)"],
                "upstream": 0,
            },
        ],
    ),
    (
        "$p = 'a', 'b'; & $p x",
        [
            {
                "argv": ["write-output", "a", "b"],
                "text": "'a' , 'b'",
                "shown": ["'a' , 'b'", "'a' , 'b'", "'a' , 'b'"],
                "consumed": True,
            },
            {"argv": [None, "x"], "text": "$p x", "shown": ["$p", "x"]},
        ],
    ),
    (
        ".\\rm x; tools/rm y; C:\\t\\ri z",
        [
            {"argv": ["rm", "x"], "text": ".\\rm x", "shown": [".\\rm", "x"]},
            {"argv": ["rm", "y"], "text": "tools/rm y", "shown": ["tools/rm", "y"]},
            {"argv": ["ri", "z"], "text": "C:\\t\\ri z", "shown": ["C:\\t\\ri", "z"]},
        ],
    ),
    (
        "if (-NOT (test-path x)) { Copy-Item y x }",
        [
            {"argv": ["test-path", "x"], "text": "test-path x", "consumed": True, "absent": ["x"]},
            {
                "argv": ["write-output", None],
                "text": "-NOT (test-path x)",
                "shown": ["-NOT (test-path x)", "-NOT (test-path x)"],
                "consumed": True,
            },
            {
                "argv": ["copy-item", "y", "x"],
                "text": "Copy-Item y x",
                "shown": ["Copy-Item", "y", "x"],
                "absent": ["x"],
            },
        ],
    ),
    (
        "if (-not (Test-Path x))",
        [
            {"argv": ["test-path", "x"], "text": "Test-Path x", "shown": ["Test-Path", "x"], "consumed": True},
            {
                "argv": ["write-output", None],
                "text": "-not (Test-Path x)",
                "shown": ["-not (Test-Path x)", "-not (Test-Path x)"],
                "consumed": True,
            },
        ],
    ),
    (
        "while ($TRUE) { Get-Date }",
        [
            {"argv": ["while", "$true"], "text": "while ($true)", "shown": ["while", "($true)"]},
            {"argv": ["write-output", "$true"], "text": "$TRUE", "shown": ["$TRUE", "$TRUE"], "consumed": True},
            {"argv": ["get-date"], "text": "Get-Date", "shown": ["Get-Date"]},
        ],
    ),
    (
        "while (1) { Get-Date }",
        [
            {"argv": ["while", "$true"], "text": "while ($true)", "shown": ["while", "($true)"]},
            {"argv": ["write-output", None], "text": "1", "shown": ["1", "1"], "consumed": True},
            {"argv": ["get-date"], "text": "Get-Date", "shown": ["Get-Date"]},
        ],
    ),
    (
        "while ($true) { return }",
        [{"argv": ["write-output", "$true"], "text": "$true", "shown": ["$true", "$true"], "consumed": True}],
    ),
    ("param($a)", [{"argv": ["write-output", None], "text": "$a", "shown": ["$a", "$a"], "consumed": True}]),
    ("Get-Date >", [{"argv": ["get-date"], "text": "Get-Date >", "shown": ["Get-Date"], "redirects": [(">", None)]}]),
    (
        "gci *.log | rm",
        [
            {"argv": ["get-childitem", "*.log"], "text": "gci *.log", "shown": ["gci", "*.log"], "downstream": 1},
            {"argv": ["remove-item"], "text": "rm", "shown": ["rm"], "upstream": 0},
        ],
    ),
    # what the if found missing is known inside the if alone
    (
        "if (-not (Test-Path x)) $y; Copy-Item z x",
        [
            {
                "argv": ["test-path", "x"],
                "text": "Test-Path x",
                "shown": ["Test-Path", "x"],
                "consumed": True,
                "absent": ["x"],
            },
            {
                "argv": ["write-output", None],
                "text": "-not (Test-Path x)",
                "shown": ["-not (Test-Path x)", "-not (Test-Path x)"],
                "consumed": True,
            },
            {"argv": ["copy-item", "z", "x"], "text": "Copy-Item z x", "shown": ["Copy-Item", "z", "x"]},
        ],
    ),
    (
        "Get-Content $f | Out-File o",
        [
            {"argv": ["get-content", None], "text": "Get-Content $f", "shown": ["Get-Content", "$f"], "downstream": 1},
            {"argv": ["out-file", "o"], "text": "Out-File o", "shown": ["Out-File", "o"], "upstream": 0},
        ],
    ),
    (
        "'while' > f",
        [
            {
                "argv": ["write-output", "while"],
                "text": "'while'",
                "shown": ["'while'", "'while'"],
                "redirects": [(">", "f")],
            }
        ],
    ),
    (
        "If (-Not (Test-Path x)) { Copy-Item y x }",
        [
            {
                "argv": ["test-path", "x"],
                "text": "Test-Path x",
                "shown": ["Test-Path", "x"],
                "consumed": True,
                "absent": ["x"],
            },
            {
                "argv": ["write-output", None],
                "text": "-Not (Test-Path x)",
                "shown": ["-Not (Test-Path x)", "-Not (Test-Path x)"],
                "consumed": True,
            },
            {
                "argv": ["copy-item", "y", "x"],
                "text": "Copy-Item y x",
                "shown": ["Copy-Item", "y", "x"],
                "absent": ["x"],
            },
        ],
    ),
    (
        'throw "failed: $(Remove-Item x)"',
        [
            {"argv": ["remove-item", "x"], "text": "Remove-Item x", "shown": ["Remove-Item", "x"], "consumed": True},
            {
                "argv": ["write-output", None],
                "text": '"failed: $(Remove-Item x)"',
                "shown": ['"failed: $(Remove-Item x)"', '"failed: $(Remove-Item x)"'],
            },
        ],
    ),
    (
        'exit "$(Remove-Item x)"',
        [
            {"argv": ["remove-item", "x"], "text": "Remove-Item x", "shown": ["Remove-Item", "x"], "consumed": True},
            {
                "argv": ["write-output", None],
                "text": '"$(Remove-Item x)"',
                "shown": ['"$(Remove-Item x)"', '"$(Remove-Item x)"'],
            },
        ],
    ),
    (
        "if (-not (Test-Path x)\n) { Copy-Item y x }",
        [
            {
                "argv": ["test-path", "x"],
                "text": "Test-Path x",
                "shown": ["Test-Path", "x"],
                "consumed": True,
                "absent": ["x"],
            },
            {
                "argv": ["write-output", None],
                "text": "-not (Test-Path x)",
                "shown": ["-not (Test-Path x)", "-not (Test-Path x)"],
                "consumed": True,
            },
            {
                "argv": ["copy-item", "y", "x"],
                "text": "Copy-Item y x",
                "shown": ["Copy-Item", "y", "x"],
                "absent": ["x"],
            },
        ],
    ),
    (
        "foreach ($d in 'a') { Remove-Item $d }",
        [
            {"argv": ["write-output", "a"], "text": "'a'", "shown": ["'a'", "'a'"], "consumed": True},
            {"argv": ["remove-item", "a"], "text": "Remove-Item $d", "shown": ["Remove-Item", "$d"]},
        ],
    ),
    ("Get-Date &&", [{"argv": ["get-date"], "text": "Get-Date", "shown": ["Get-Date"]}]),
    (
        "$a | Remove-Item",
        [
            {"argv": ["write-output", None], "text": "$a", "shown": ["$a", "$a"], "downstream": 1},
            {"argv": ["remove-item"], "text": "Remove-Item", "shown": ["Remove-Item"], "upstream": 0},
        ],
    ),
    (
        "(Get-Date | Select-Object -First 1) | Remove-Item",
        [
            {"argv": ["get-date"], "text": "Get-Date", "shown": ["Get-Date"], "downstream": 1},
            {
                "argv": ["select-object", "-First", "1"],
                "text": "Select-Object -First 1",
                "shown": ["Select-Object", "-First", "1"],
                "upstream": 0,
                "downstream": 3,
            },
            {
                "argv": ["write-output", None],
                "text": "(Get-Date | Select-Object -First 1)",
                "shown": ["(Get-Date | Select-Object -First 1)", "(Get-Date | Select-Object -First 1)"],
                "downstream": 3,
            },
            {"argv": ["remove-item"], "text": "Remove-Item", "shown": ["Remove-Item"], "upstream": 2},
        ],
    ),
    (
        "& { Get-Date } | Remove-Item",
        [
            {"argv": ["get-date"], "text": "Get-Date", "shown": ["Get-Date"]},
            {"argv": ["remove-item"], "text": "Remove-Item", "shown": ["Remove-Item"]},
        ],
    ),
    (
        "$f = 'a', 'b'; Get-Date > $f",
        [
            {
                "argv": ["write-output", "a", "b"],
                "text": "'a' , 'b'",
                "shown": ["'a' , 'b'", "'a' , 'b'", "'a' , 'b'"],
                "consumed": True,
            },
            {"argv": ["get-date"], "text": "Get-Date > $f", "shown": ["Get-Date"], "redirects": [(">", None)]},
        ],
    ),
    (
        "$l = 'a', 'b'; [IO.File]::Delete($l)",
        [
            {
                "argv": ["write-output", "a", "b"],
                "text": "'a' , 'b'",
                "shown": ["'a' , 'b'", "'a' , 'b'", "'a' , 'b'"],
                "consumed": True,
            },
            {
                "argv": ["[io.file]::delete", None],
                "text": "[IO.File]::Delete($l)",
                "shown": ["[IO.File]::Delete", "$l"],
            },
        ],
    ),
    ("Remove-Item ()", [{"argv": ["remove-item", None], "text": "Remove-Item ()", "shown": ["Remove-Item", "()"]}]),
    (
        "Remove-Item 'it''s'",
        [{"argv": ["remove-item", "it's"], "text": "Remove-Item 'it''s'", "shown": ["Remove-Item", "'it''s'"]}],
    ),
    ("foreach x", []),
    ("foreach { a b c }", [{"argv": ["a", "b", "c"], "text": "a b c"}]),
    (
        "Get-Date > f > g",
        [
            {
                "argv": ["get-date"],
                "text": "Get-Date > f > g",
                "shown": ["Get-Date"],
                "redirects": [(">", "f"), (">", "g")],
            }
        ],
    ),
    (
        "Write-Output a = b",
        [{"argv": ["write-output", "a", "b"], "text": "Write-Output a = b", "shown": ["Write-Output", "a", "b"]}],
    ),
    (
        "'a' > f 2> g",
        [
            {
                "argv": ["write-output", "a"],
                "text": "'a'",
                "shown": ["'a'", "'a'"],
                "redirects": [(">", "f"), ("2>", "g")],
            }
        ],
    ),
    (
        "[IO.File]::WriteAllText('f', $t = 'x')",
        [
            {"argv": ["write-output", "x"], "text": "'x'", "shown": ["'x'", "'x'"], "consumed": True},
            {
                "argv": ["[io.file]::writealltext", "f", None],
                "text": "[IO.File]::WriteAllText('f', $t = 'x')",
                "shown": ["[IO.File]::WriteAllText", "f", "$t = 'x'"],
            },
        ],
    ),
    (
        "[IO.File]::Delete(\n'a'\n)",
        [
            {
                "argv": ["[io.file]::delete", "a"],
                "text": "[IO.File]::Delete(\n'a'\n)",
                "shown": ["[IO.File]::Delete", "a"],
            }
        ],
    ),
    (
        "[IO.File]::Delete(, 'a')",
        [{"argv": ["[io.file]::delete", "a"], "text": "[IO.File]::Delete(, 'a')", "shown": ["[IO.File]::Delete", "a"]}],
    ),
    (
        "[IO.File]::Delete($a + 'b')",
        [
            {"argv": ["write-output", None], "text": "$a + 'b'", "shown": ["$a + 'b'", "$a + 'b'"], "consumed": True},
            {
                "argv": ["[io.file]::delete", None],
                "text": "[IO.File]::Delete($a + 'b')",
                "shown": ["[IO.File]::Delete", "$a + 'b'"],
            },
        ],
    ),
    (
        "$t = [IO.File]::ReadAllText('f')",
        [
            {
                "argv": ["[io.file]::readalltext", "f"],
                "text": "[IO.File]::ReadAllText('f')",
                "shown": ["[IO.File]::ReadAllText", "f"],
                "consumed": True,
            }
        ],
    ),
    ("'a' = 'b'", [{"argv": ["write-output", None], "text": "'a' = 'b'", "shown": ["'a' = 'b'", "'a' = 'b'"]}]),
    (
        "$x = { 'a' }; Remove-Item $x",
        [
            {"argv": ["write-output", "a"], "text": "'a'", "shown": ["'a'", "'a'"], "consumed": True},
            {"argv": ["write-output", None], "text": "{ 'a' }", "shown": ["{ 'a' }", "{ 'a' }"], "consumed": True},
            {"argv": ["remove-item", None], "text": "Remove-Item $x", "shown": ["Remove-Item", "$x"]},
        ],
    ),
    (
        "$x = @(\n'a'\n'b'\n); Remove-Item $x",
        [
            {
                "argv": ["write-output", "a", "b"],
                "text": "@(\n'a'\n'b'\n)",
                "shown": ["@(\n'a'\n'b'\n)", "@(\n'a'\n'b'\n)", "@(\n'a'\n'b'\n)"],
                "consumed": True,
            },
            {
                "argv": ["remove-item", "a", "b"],
                "text": "Remove-Item $x",
                "shown": ["Remove-Item", "a", "b"],
                "joined": [1],
            },
        ],
    ),
    (
        "Remove-Item -Path:$u",
        [{"argv": ["remove-item", "-Path:$u"], "text": "Remove-Item -Path:$u", "shown": ["Remove-Item", "-Path:$u"]}],
    ),
    (
        "[Console]::In.ReadLine()",
        [
            {
                "argv": [".readline", None],
                "text": "[Console]::In.ReadLine()",
                "shown": ["[Console]::In.ReadLine", "[Console]::In"],
            }
        ],
    ),
    (
        "$null | Remove-Item",
        [
            {"argv": ["write-output"], "text": "$null", "shown": ["$null"], "downstream": 1},
            {"argv": ["remove-item"], "text": "Remove-Item", "shown": ["Remove-Item"], "stdin": "", "upstream": 0},
        ],
    ),
    (
        'Write-Output "$(Get-Date) $(Remove-Item x)"',
        [
            {"argv": ["get-date"], "text": "Get-Date", "shown": ["Get-Date"], "consumed": True},
            {"argv": ["remove-item", "x"], "text": "Remove-Item x", "shown": ["Remove-Item", "x"], "consumed": True},
            {
                "argv": ["write-output", None],
                "text": 'Write-Output "$(Get-Date) $(Remove-Item x)"',
                "shown": ["Write-Output", '"$(Get-Date) $(Remove-Item x)"'],
            },
        ],
    ),
    (
        "$x = (return Get-Date)",
        [
            {"argv": ["get-date"], "text": "Get-Date", "shown": ["Get-Date"], "consumed": True},
            {
                "argv": ["write-output", None],
                "text": "(return Get-Date)",
                "shown": ["(return Get-Date)", "(return Get-Date)"],
                "consumed": True,
            },
        ],
    ),
    (
        "$x = (param($a) Get-Date)",
        [
            {"argv": ["get-date"], "text": "Get-Date", "shown": ["Get-Date"], "consumed": True},
            {
                "argv": ["write-output", None],
                "text": "(param($a) Get-Date)",
                "shown": ["(param($a) Get-Date)", "(param($a) Get-Date)"],
                "consumed": True,
            },
        ],
    ),
    ("$x = & $cmd a", [{"argv": [None, "a"], "text": "$cmd a", "shown": ["$cmd", "a"], "consumed": True}]),
    (
        "$x = ('a' > f)",
        [
            {
                "argv": ["write-output", "a"],
                "text": "'a'",
                "shown": ["'a'", "'a'"],
                "redirects": [(">", "f")],
                "consumed": True,
            },
            {
                "argv": ["write-output", None],
                "text": "('a' > f)",
                "shown": ["('a' > f)", "('a' > f)"],
                "consumed": True,
            },
        ],
    ),
    (
        "Get-Content a.txt; Set-Content a.txt x",
        [
            {
                "argv": ["get-content", "a.txt"],
                "text": "Get-Content a.txt",
                "shown": ["Get-Content", "a.txt"],
                "reads": ["a.txt"],
            },
            {
                "argv": ["set-content", "a.txt", "x"],
                "text": "Set-Content a.txt x",
                "shown": ["Set-Content", "a.txt", "x"],
            },
        ],
    ),
    ("Remove-Item x # c", [{"argv": ["remove-item", "x"], "text": "Remove-Item x", "shown": ["Remove-Item", "x"]}]),
    ("# only a comment", []),
    (
        "Get-Content a.txt | Set-Content b.txt",
        [
            {
                "argv": ["get-content", "a.txt"],
                "text": "Get-Content a.txt",
                "shown": ["Get-Content", "a.txt"],
                "reads": ["a.txt"],
                "downstream": 1,
            },
            {
                "argv": ["set-content", "b.txt"],
                "text": "Set-Content b.txt",
                "shown": ["Set-Content", "b.txt"],
                "reads": ["a.txt"],
                "upstream": 0,
            },
        ],
    ),
    (
        "Get-Date || Remove-Item x",
        [
            {"argv": ["get-date"], "text": "Get-Date", "shown": ["Get-Date"]},
            {"argv": ["remove-item", "x"], "text": "Remove-Item x", "shown": ["Remove-Item", "x"]},
        ],
    ),
    ("param($d) Remove-Item", [{"argv": ["remove-item"], "text": "Remove-Item", "shown": ["Remove-Item"]}]),
    ("$x =", []),
    (
        "Get-Date\n(Get-Item x) | Remove-Item",
        [
            {"argv": ["get-date"], "text": "Get-Date", "shown": ["Get-Date"]},
            {"argv": ["get-item", "x"], "text": "Get-Item x", "shown": ["Get-Item", "x"], "downstream": 3},
            {
                "argv": ["write-output", None],
                "text": "(Get-Item x)",
                "shown": ["(Get-Item x)", "(Get-Item x)"],
                "downstream": 3,
            },
            {"argv": ["remove-item"], "text": "Remove-Item", "shown": ["Remove-Item"], "upstream": 2},
        ],
    ),
    (
        "'a' | Write-Output",
        [
            {"argv": ["write-output", "a"], "text": "'a'", "shown": ["'a'", "'a'"], "downstream": 1},
            {"argv": ["write-output"], "text": "Write-Output", "shown": ["Write-Output"], "stdin": "a", "upstream": 0},
        ],
    ),
    (", 'a'", [{"argv": ["write-output", "a"], "text": ", 'a'", "shown": [", 'a'", ", 'a'"]}]),
    (".", [{"argv": ["."], "text": "."}]),
    (
        "& | Get-Date",
        [
            {"argv": [None], "text": "", "shown": [""], "downstream": 1},
            {"argv": ["get-date"], "text": "Get-Date", "shown": ["Get-Date"], "upstream": 0},
        ],
    ),
    ("& (Get-Command x) a", [{"argv": [None, "a"], "text": "(Get-Command x) a", "shown": ["(Get-Command x)", "a"]}]),
    (
        "'a', ('b')",
        [
            {
                "argv": ["write-output", "a", "b"],
                "text": "'a' , ('b')",
                "shown": ["'a' , ('b')", "'a' , ('b')", "'a' , ('b')"],
            }
        ],
    ),
    (
        "[IO.File]::Exists + $x",
        [
            {
                "argv": ["write-output", None],
                "text": "[IO.File]::Exists + $x",
                "shown": ["[IO.File]::Exists + $x", "[IO.File]::Exists + $x"],
            }
        ],
    ),
    (
        "'a'(Remove-Item x)",
        [
            {"argv": ["remove-item", "x"], "text": "Remove-Item x", "shown": ["Remove-Item", "x"]},
            {
                "argv": ["write-output", None],
                "text": "'a' (Remove-Item x)",
                "shown": ["'a' (Remove-Item x)", "'a' (Remove-Item x)"],
            },
        ],
    ),
    (
        "{ Get-Date }",
        [
            {"argv": ["get-date"], "text": "Get-Date", "shown": ["Get-Date"], "consumed": True},
            {"argv": ["write-output", None], "text": "{ Get-Date }", "shown": ["{ Get-Date }", "{ Get-Date }"]},
        ],
    ),
    (
        "$x = [string]'b'; Remove-Item $x",
        [
            {
                "argv": ["write-output", "[string]b"],
                "text": "[string]'b'",
                "shown": ["[string]'b'", "[string]'b'"],
                "consumed": True,
            },
            {"argv": ["remove-item", "[string]b"], "text": "Remove-Item $x", "shown": ["Remove-Item", "$x"]},
        ],
    ),
]


@pytest.mark.parametrize(("text", "commands"), POWERSHELL_FORMS, ids=[case_id(t) for t, _ in POWERSHELL_FORMS])
def test_powershell_text_is_read_as_the_commands_it_runs(text, commands):
    assert described(powershell.parse(text)) == commands


CMD_FORMS = [
    ("dir & del x", [{"argv": ["dir"], "text": "dir"}, {"argv": ["del", "x"], "text": "del x"}]),
    (
        "dir && del x || echo no",
        [
            {"argv": ["dir"], "text": "dir"},
            {"argv": ["del", "x"], "text": "del x"},
            {"argv": ["echo", "no"], "text": "echo no"},
        ],
    ),
    (
        'dir | find "a" | more',
        [
            {"argv": ["dir"], "text": "dir", "downstream": 1},
            {"argv": ["find", "a"], "text": 'find "a"', "shown": ["find", '"a"'], "upstream": 0, "downstream": 2},
            {"argv": ["more"], "text": "more", "upstream": 1},
        ],
    ),
    ("dir\ndel x", [{"argv": ["dir"], "text": "dir"}, {"argv": ["del", "x"], "text": "del x"}]),
    ("dir ^\n& del x", [{"argv": ["dir"], "text": "dir"}, {"argv": ["del", "x"], "text": "del x"}]),
    (
        "(dir\ndel x) > out.txt",
        [
            {"argv": ["dir"], "text": "dir", "redirects": [(">", "out.txt")]},
            {"argv": ["del", "x"], "text": "del x", "redirects": [(">", "out.txt")]},
        ],
    ),
    ("if exist x del x", [{"argv": ["del", "x"], "text": "del x"}]),
    (
        "if not exist y (copy a y) else (copy b y)",
        [
            {"argv": ["copy", "a", "y"], "text": "copy a y", "absent": ["y"]},
            {"argv": ["copy", "b", "y"], "text": "copy b y"},
        ],
    ),
    ("if not exist y copy a y", [{"argv": ["copy", "a", "y"], "text": "copy a y", "absent": ["y"]}]),
    ("if /i not exist y copy a y", [{"argv": ["copy", "a", "y"], "text": "copy a y", "absent": ["y"]}]),
    ("if defined X del x", [{"argv": ["del", "x"], "text": "del x"}]),
    ("if errorlevel 1 del x", [{"argv": ["del", "x"], "text": "del x"}]),
    ("if /i %1==a del x", [{"argv": ["del", "x"], "text": "del x"}]),
    ('if "%A%"=="" del x', [{"argv": ["del", "x"], "text": "del x"}]),
    ("if a equ b del x", [{"argv": ["del", "x"], "text": "del x"}]),
    ("if exist y (dir) else (del x)", [{"argv": ["dir"], "text": "dir"}, {"argv": ["del", "x"], "text": "del x"}]),
    ("for %f in (*.tmp) do del %f", [{"argv": ["del", None], "text": "del %f", "shown": ["del", "%f"]}]),
    ("for /f %a in ('dir /b') do @del %a", [{"argv": ["del", None], "text": "@del %a", "shown": ["del", "%a"]}]),
    ("for/r %i in (*) do del %i", [{"argv": ["del", None], "text": "del %i", "shown": ["del", "%i"]}]),
    ("for %f in (a)", []),
    # cmd's keywords in any case, as batch files write them
    ("FOR %%f IN (*.log) DO del %%f", [{"argv": ["del", None], "text": "del %%f", "shown": ["del", "%%f"]}]),
    ("For /R %%i In (*) Do Del %%i", [{"argv": ["del", None], "text": "Del %%i", "shown": ["Del", "%%i"]}]),
    ("IF EXIST y (dir) ELSE (del x)", [{"argv": ["dir"], "text": "dir"}, {"argv": ["del", "x"], "text": "del x"}]),
    ("d^el x", [{"argv": ["del", "x"], "text": "d^el x"}]),
    ("@del x", [{"argv": ["del", "x"], "text": "@del x"}]),
    ("call del x", [{"argv": ["del", "x"], "text": "del x"}]),
    ("call :label", [{"argv": ["call", ":label"], "text": "call :label"}]),
    (
        "set T=x\ndel %T%",
        [
            {"argv": ["set", "T=x"], "text": "set T=x"},
            {"argv": ["del", "x"], "text": "del %T%", "shown": ["del", "%T%"]},
        ],
    ),
    (
        'set "T=a b"\nrd /s /q "%T%"',
        [
            {"argv": ["set", "T=a b"], "text": 'set "T=a b"', "shown": ["set", '"T=a b"']},
            {"argv": ["rd", "/s", "/q", "a b"], "text": 'rd /s /q "%T%"', "shown": ["rd", "/s", "/q", '"%T%"']},
        ],
    ),
    (
        "set /a N=1+1\ndel %N%",
        [
            {"argv": ["set", "/a", "N=1+1"], "text": "set /a N=1+1"},
            {"argv": ["del", None], "text": "del %N%", "shown": ["del", "%N%"]},
        ],
    ),
    (
        "set /p N=Name? \ndel %N%",
        [
            {"argv": ["set", "/p", "N=Name?"], "text": "set /p N=Name?"},
            {"argv": ["del", None], "text": "del %N%", "shown": ["del", "%N%"]},
        ],
    ),
    ("set", [{"argv": ["set"], "text": "set"}]),
    ("del %UNSET%", [{"argv": ["del", None], "text": "del %UNSET%", "shown": ["del", "%UNSET%"]}]),
    ("del %~dp0x %1", [{"argv": ["del", None, None], "text": "del %~dp0x %1", "shown": ["del", "%~dp0x", "%1"]}]),
    ("rd/s/q build", [{"argv": ["rd", "/s/q", "build"], "text": "rd/s/q build"}]),
    ("rem del x", []),
    (":: del x", []),
    ("@REM del x", []),
    (
        "echo a > out.txt 2>&1",
        [{"argv": ["echo", "a"], "text": "echo a > out.txt 2>&1", "redirects": [(">", "out.txt")]}],
    ),
    (
        'echo a >> "out file.txt"',
        [{"argv": ["echo", "a"], "text": 'echo a >> "out file.txt"', "redirects": [(">>", "out file.txt")]}],
    ),
    ("echo a > %F%", [{"argv": ["echo", "a"], "text": "echo a > %F%", "redirects": [(">", None)]}]),
    ("type nul > x", [{"argv": ["type", "nul"], "text": "type nul > x", "redirects": [(">", "x")]}]),
    ('del "a b" c^&d', [{"argv": ["del", "a b", "c&d"], "text": 'del "a b" c^&d', "shown": ["del", '"a b"', "c^&d"]}]),
    (
        'echo "a & b" & del x',
        [
            {"argv": ["echo", "a & b"], "text": 'echo "a & b"', "shown": ["echo", '"a & b"']},
            {"argv": ["del", "x"], "text": "del x"},
        ],
    ),
    (
        "C:\\bin\\rm.exe -rf x",
        [{"argv": ["rm", "-rf", "x"], "text": "C:\\bin\\rm.exe -rf x", "shown": ["C:\\bin\\rm.exe", "-rf", "x"]}],
    ),
    ("else del x", [{"argv": ["del", "x"], "text": "del x"}]),
    ("(del x", [{"argv": ["del", "x"], "text": "del x"}]),
    (
        "set Dir=x\ndel %DIR%",
        [
            {"argv": ["set", "Dir=x"], "text": "set Dir=x"},
            {"argv": ["del", "x"], "text": "del %DIR%", "shown": ["del", "%DIR%"]},
        ],
    ),
    ("dir\r\ndel x", [{"argv": ["dir"], "text": "dir"}, {"argv": ["del", "x"], "text": "del x"}]),
    ("dir ^\r\n& del x", [{"argv": ["dir"], "text": "dir"}, {"argv": ["del", "x"], "text": "del x"}]),
    ("del ,x ;y", [{"argv": ["del", "x", "y"], "text": "del x y"}]),
    ("echo a)", [{"argv": ["echo", "a)"], "text": "echo a)"}]),
    ("(echo a) 2> err.txt", [{"argv": ["echo", "a"], "text": "echo a", "redirects": [("2>", "err.txt")]}]),
    (
        'if not exist "a b" copy c "a b"',
        [{"argv": ["copy", "c", "a b"], "text": 'copy c "a b"', "shown": ["copy", "c", '"a b"'], "absent": ["a b"]}],
    ),
    (
        "if exist x (del x) else del y",
        [{"argv": ["del", "x"], "text": "del x"}, {"argv": ["del", "y"], "text": "del y"}],
    ),
    ("type x < in.txt", [{"argv": ["type", "x"], "text": "type x < in.txt", "redirects": [("<", "in.txt")]}]),
    (
        "set T\ndel %T%",
        [{"argv": ["set", "T"], "text": "set T"}, {"argv": ["del", None], "text": "del %T%", "shown": ["del", "%T%"]}],
    ),
    (
        "SET /A x=1\ndel %x%",
        [
            {"argv": ["set", "/A", "x=1"], "text": "SET /A x=1", "shown": ["SET", "/A", "x=1"]},
            {"argv": ["del", None], "text": "del %x%", "shown": ["del", "%x%"]},
        ],
    ),
    ("for %%i in (*) do del %%i", [{"argv": ["del", None], "text": "del %%i", "shown": ["del", "%%i"]}]),
    ("del %*", [{"argv": ["del", None], "text": "del %*", "shown": ["del", "%*"]}]),
    ("rem x & del y", []),
    (
        "echo a | rem",
        [{"argv": ["echo", "a"], "text": "echo a", "downstream": 1}, {"argv": ["rem"], "text": "rem", "upstream": 0}],
    ),
    ("set T=^&x", [{"argv": ["set", "T=&x"], "text": "set T=^&x", "shown": ["set", "T=^&x"]}]),
    ("if exist x", []),
    ("if", []),
    ("call", [{"argv": ["call"], "text": "call"}]),
    ("else", [{"argv": ["else"], "text": "else"}]),
    ("for /f %a in (x) do", []),
    # a value typed at run time replaces the one set before
    (
        "set N=build\nset /P N=Which folder? \nrd /s /q %N%",
        [
            {"argv": ["set", "N=build"], "text": "set N=build"},
            {"argv": ["set", "/P", "N=Which", "folder?"], "text": "set /P N=Which folder?"},
            {"argv": ["rd", "/s", "/q", None], "text": "rd /s /q %N%", "shown": ["rd", "/s", "/q", "%N%"]},
        ],
    ),
    (
        'echo "a\ndel x',
        [{"argv": ["echo", "a"], "text": 'echo "a', "shown": ["echo", '"a']}, {"argv": ["del", "x"], "text": "del x"}],
    ),
    ("() | del x", [{"argv": ["del", "x"], "text": "del x"}]),
    ("if not exist", []),
    (
        "if exist x (del x) ELSE (del y)",
        [{"argv": ["del", "x"], "text": "del x"}, {"argv": ["del", "y"], "text": "del y"}],
    ),
    (
        "if exist x dir | more",
        [{"argv": ["dir"], "text": "dir", "downstream": 1}, {"argv": ["more"], "text": "more", "upstream": 0}],
    ),
    (
        "if exist x (dir) else () | more",
        [{"argv": ["dir"], "text": "dir", "downstream": 1}, {"argv": ["more"], "text": "more", "upstream": 0}],
    ),
    ("echo a 2>&1 b", [{"argv": ["echo", "a", "b"], "text": "echo a 2>&1 b"}]),
    ("%CMD% x", [{"argv": [None, "x"], "text": "%CMD% x", "shown": ["%CMD%", "x"]}]),
    ("echo (x)", [{"argv": ["x"], "text": "x"}, {"argv": ["echo", None], "text": "echo (", "shown": ["echo", "(…)"]}]),
    ("echo a >", [{"argv": ["echo", "a"], "text": "echo a >", "redirects": [(">", "")]}]),
    ("echo a > (x)", [{"argv": ["echo", "a"], "text": "echo a > (", "redirects": [(">", "")]}]),
    (
        'set /a "x=1"\ndel %x%',
        [
            {"argv": ["set", "/a", "x=1"], "text": 'set /a "x=1"', "shown": ["set", "/a", '"x=1"']},
            {"argv": ["del", None], "text": "del %x%", "shown": ["del", "%x%"]},
        ],
    ),
    (
        "set T=\ndel x%T%y",
        [
            {"argv": ["set", "T="], "text": "set T="},
            {"argv": ["del", "xy"], "text": "del x%T%y", "shown": ["del", "x%T%y"]},
        ],
    ),
    (
        "set T=x\nset T=y\ndel %T%",
        [
            {"argv": ["set", "T=x"], "text": "set T=x"},
            {"argv": ["set", "T=y"], "text": "set T=y"},
            {"argv": ["del", "y"], "text": "del %T%", "shown": ["del", "%T%"]},
        ],
    ),
    ("& del x", [{"argv": ["del", "x"], "text": "del x"}]),
    ("@if exist x del x", [{"argv": ["del", "x"], "text": "del x"}]),
    ("Xcall del x", [{"argv": ["xcall", "del", "x"], "text": "Xcall del x", "shown": ["Xcall", "del", "x"]}]),
    ("(echo a > x) > y", [{"argv": ["echo", "a"], "text": "echo a > x", "redirects": [(">", "x"), (">", "y")]}]),
    (
        "(dir) | more",
        [{"argv": ["dir"], "text": "dir", "downstream": 1}, {"argv": ["more"], "text": "more", "upstream": 0}],
    ),
    ("dir\n() | more", [{"argv": ["dir"], "text": "dir"}, {"argv": ["more"], "text": "more"}]),
    ("for %f in (a) do dir", [{"argv": ["dir"], "text": "dir"}]),
    ("call build.bat", [{"argv": ["build"], "text": "build.bat", "shown": ["build.bat"]}]),
    ("else dir", [{"argv": ["dir"], "text": "dir"}]),
    ("if a ==", []),
    ("if a", []),
    ("if /i a == b del x", [{"argv": ["del", "x"], "text": "del x"}]),
    (
        "dir\nif not exist y copy a y",
        [{"argv": ["dir"], "text": "dir"}, {"argv": ["copy", "a", "y"], "text": "copy a y", "absent": ["y"]}],
    ),
    ("echo a 2>&1 > b", [{"argv": ["echo", "a"], "text": "echo a 2>&1 > b", "redirects": [(">", "b")]}]),
    ("echo a > b c", [{"argv": ["echo", "a", "c"], "text": "echo a > b c", "redirects": [(">", "b")]}]),
    ("XCOPY a b", [{"argv": ["xcopy", "a", "b"], "text": "XCOPY a b", "shown": ["XCOPY", "a", "b"]}]),
    ("@%CMD% x", [{"argv": [None, "x"], "text": "@%CMD% x", "shown": ["%CMD%", "x"]}]),
    ("X%A% y", [{"argv": [None, "y"], "text": "X%A% y", "shown": ["X%A%", "y"]}]),
    (
        "set x=5\nset /a x=1\ndel %x%",
        [
            {"argv": ["set", "x=5"], "text": "set x=5"},
            {"argv": ["set", "/a", "x=1"], "text": "set /a x=1"},
            {"argv": ["del", None], "text": "del %x%", "shown": ["del", "%x%"]},
        ],
    ),
    (
        "set x=5\nset /a x=y=1\ndel %x%",
        [
            {"argv": ["set", "x=5"], "text": "set x=5"},
            {"argv": ["set", "/a", "x=y=1"], "text": "set /a x=y=1"},
            {"argv": ["del", None], "text": "del %x%", "shown": ["del", "%x%"]},
        ],
    ),
    (
        'set x=5\nset /a "x=1"\ndel %x%',
        [
            {"argv": ["set", "x=5"], "text": "set x=5"},
            {"argv": ["set", "/a", "x=1"], "text": 'set /a "x=1"', "shown": ["set", "/a", '"x=1"']},
            {"argv": ["del", None], "text": "del %x%", "shown": ["del", "%x%"]},
        ],
    ),
    (
        "set x=5\nset /ax=1\ndel %x%",
        [
            {"argv": ["set", "x=5"], "text": "set x=5"},
            {"argv": ["set", "/ax=1"], "text": "set /ax=1"},
            {"argv": ["del", None], "text": "del %x%", "shown": ["del", "%x%"]},
        ],
    ),
    (
        "set X=5\nset /a X=1\ndel %X%",
        [
            {"argv": ["set", "X=5"], "text": "set X=5"},
            {"argv": ["set", "/a", "X=1"], "text": "set /a X=1"},
            {"argv": ["del", None], "text": "del %X%", "shown": ["del", "%X%"]},
        ],
    ),
    (
        "set T=a=b\ndel %T%",
        [
            {"argv": ["set", "T=a=b"], "text": "set T=a=b"},
            {"argv": ["del", "a=b"], "text": "del %T%", "shown": ["del", "%T%"]},
        ],
    ),
    (
        "set X=1\ndel %X%",
        [
            {"argv": ["set", "X=1"], "text": "set X=1"},
            {"argv": ["del", "1"], "text": "del %X%", "shown": ["del", "%X%"]},
        ],
    ),
    ("for %F in (*) do del %F", [{"argv": ["del", None], "text": "del %F", "shown": ["del", "%F"]}]),
    ("((dir) & del x)", [{"argv": ["dir"], "text": "dir"}, {"argv": ["del", "x"], "text": "del x"}]),
    ("echo a^b c", [{"argv": ["echo", "ab", "c"], "text": "echo a^b c", "shown": ["echo", "a^b", "c"]}]),
    # inside quotes ^ is a character, and the quote after it closes them
    (
        'echo "a^" & del "x^y" z^^',
        [
            {"argv": ["echo", "a^"], "text": 'echo "a^"', "shown": ["echo", '"a^"']},
            {"argv": ["del", "x^y", "z^"], "text": 'del "x^y" z^^', "shown": ["del", '"x^y"', "z^^"]},
        ],
    ),
    ("Xrem x", [{"argv": ["xrem", "x"], "text": "Xrem x", "shown": ["Xrem", "x"]}]),
    ("(dir)&del x", [{"argv": ["dir"], "text": "dir"}, {"argv": ["del", "x"], "text": "del x"}]),
]


@pytest.mark.parametrize(("text", "commands"), CMD_FORMS, ids=[case_id(t) for t, _ in CMD_FORMS])
def test_cmd_text_is_read_as_the_commands_it_runs(text, commands):
    parsed = cmd.parse(text)
    assert described(parsed) == commands
    assert {c.shell for c in parsed} <= {"cmd"}


@pytest.mark.parametrize(
    ("shell", "opener", "closer"),
    [("powershell", "(", ")"), ("powershell", "{", "}"), ("powershell", "$(", ")"), ("cmd", "(", ")")],
)
@pytest.mark.parametrize("depth", [400, 3000])
def test_text_nested_deeper_than_can_be_read_asks(shell, opener, closer, depth):
    text = opener * depth + "dir" + closer * depth
    assert analyze(text, shell=shell).deletions == ["the command name is computed at run time"]
    parse = powershell.parse if shell == "powershell" else cmd.parse
    assert [(c.argv, c.shown, c.text, c.shell) for c in parse(text)] == [([None], ["…"], "…", shell)]


def test_past_its_limit_of_nested_parts_powershell_text_is_left_unread():
    # the text itself is one part, and each group one more
    within = powershell.parse("; ".join(["(Get-Date)"] * (MAX_GROUPS - 1)))
    past = powershell.parse("; ".join(["(Get-Date)"] * MAX_GROUPS))
    assert [c for c in within if c.argv == [None]] == []
    unread = [c for c in past if c.argv == [None]]
    assert [(c.shown, c.text) for c in unread] == [(["…"], "…")]
    assert len(past) == 2 * MAX_GROUPS  # each read part: Get-Date and its output; the last one: "…" and its output
    assert analyze("; ".join(["(Get-Date)"] * MAX_GROUPS), shell="powershell").deletions == [
        "the command name is computed at run time"
    ]


@pytest.mark.parametrize(
    "text",
    [
        'Write-Output "$(Get-Date) $(Remove-Item -Recurse build)"',
        'Write-Output "a $(Get-Date) b $(Remove-Item -Recurse build) c"',
        '$m = "done: $(Get-Date)"; Write-Output "$m $((Get-Date)) $(Remove-Item -Recurse build)"',
        'Write-Output "$(Get-Date) $(Remove-Item -Recurse build) $(Get-Date)"',
        'Write-Output "$(1)$(Remove-Item -Recurse build)"',
    ],
    ids=text_id,
)
def test_every_sub_expression_of_a_string_is_read(text):
    assert analyze(text, shell="powershell").deletions == ["Remove-Item deletes build with everything inside"]


@pytest.mark.parametrize("text", ["[Console]::In.ReadLine()", "[System.Console]::In.ReadLine()"], ids=text_id)
def test_a_method_of_a_static_property_is_read_as_that_method(text):
    assert analyze(text, shell="powershell").interactive == [
        f"{text[:-2]} waits for a person to answer: ask in your answer instead"
    ]


@pytest.mark.parametrize("text", ["robocopy/MIR a b", "ROBOCOPY/mir/r:1 a b"], ids=text_id)
def test_a_programs_name_ended_by_a_slash_runs_that_program_with_the_switch(text):
    # cmd ends a command's name at a slash for every program, as `ipconfig/all` shows
    assert analyze(text, shell="cmd").deletions == ["robocopy /MIR deletes the files in b that a does not have"]
