"""The equivalent mutants of safety/powershell_lex.py, safety/powershell.py and safety/cmd.py for bench/mutation.py:
a piece of a line as the mutant writes it, or a pattern of mutant names (starting with *), and why the change cannot
alter what the code does."""

QUOTE_FIRST = "a string is read only from a quote: its first character is one of the quotes either way, never X"
CLOSER_AFTER = (
    "the closer is looked for after the opener, which is never the word's first character: find never gives 0"
)
CONTINUED = (
    "a backtick before a newline continues the line and is taken out before any word is read: no escape in a word "
    "meets a newline"
)
EMPTY_PART = "a part that is not there is the empty text, escaped or not"
BRACE_ENDS = "{ is in WORD_END already: a brace ends a bareword wherever it stands"
LINE_AFTER = "the end is looked for in text that starts with #, <# or --%: find never gives 0 there"
TOP_LEVEL = "a closer of four characters never equals one: the text's top level is read to its end either way"
EXPANDING = "every quote but ' reads the text as an expanding string, as \" does"

FALSY = "the value is only tested for truth, and the empty text and None are false alike"
NOT_KEYWORD = "a statement that starts with no word names no keyword: the empty text and XXXX are neither keywords"
NESTED_READS = (
    "a statement's commands include those of every statement nested in it, so its reads hold theirs: the nested "
    "statement's reads are replaced by a set holding them"
)
INSIDE_SET = "inside is read only once a command came before in the pipeline, and every command sets it first"
NO_NAME = (
    "a call's target that is not a word passes None, as the empty word names no program: the call's name is None "
    "either way"
)
POPPED = "the command built to read the redirections is popped at once: only its redirections are kept"
NO_OWN_REDIRECT = "the expression before the first redirection holds no redirection of its own to keep"
OWNER_FIRST = (
    "a method named first (.Delete()) starts a pipeline element, read as a command: a call's owner is looked for only "
    "after another token, and a static call's owner is never used"
)
BLOCK_LITERAL = "_literals gives None for a script block, as for anything but a list of values"
WORD_QUOTE = "a word never starts with a quote: the lexer reads a quote there as a string's start"
STATIC_CALL = (
    "a call is read only when its name holds ]:: or one of METHODS: one without a method of METHODS holds ]:: and is "
    "static"
)
ONLY_WORDS = "only a word's text can be a keyword: a string keeps its quotes, a group its brackets"
COMPUTED_GONE = "a computed variable makes the whole text None: what stands in for it is never seen"

SENTINEL = "the closing sentinel only ends the last part: its text matters only if it were |"
FIRST_NOT_WORD = (
    "a first token that is not a word names no keyword: a group is read as a block before, and a redirection's text "
    "is none of if, for, call, else"
)
NO_GLUE = "a text without / is not glued to a switch: the empty text and XXXX alike"
NO_BODY = "an if without a command after its path runs nothing for the path to be kept from"
SET_ALONE = "`set` alone names no variable: XXXX holds no = and is not /a or /p either"
SEPARATOR_KIND = "a separator is known by its kind alone: its text is never read"
DEPTH_TRUTH = (
    "the depth is only tested for truth: counted from 0 by 2 or by -1, a block's depth is never 0, as counted by 1"
)
GLUED_SWITCH = "a name glued to a switch always has one (a slash and more after it): glued alone decides"
LOWERED = "the text is lowered first: no uppercase X is left to strip"
FIRST_PIECE = "the name before the first = is the same however many pieces follow it"

PSWIN_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/safety/powershell_lex.py": {
        'rest[0] in "XX\'\\u2018\\u2019XX"': QUOTE_FIRST,
        "if close <= 0 else close + 1": CLOSER_AFTER,
        "if close < 1 else close + 1": CLOSER_AFTER,
        "text, )": CONTINUED,
        "unescaped(b, '\"') if (b) or True else": EMPTY_PART,
        "unescaped(b, None)": EXPANDING,
        'char == "XX{XX" and i': BRACE_ENDS,
        'closer: str = "XXXX"': TOP_LEVEL,
        "self.at += len(rest) if end <= 0 else end": LINE_AFTER,
        "self.at += len(rest) if end < 1 else end": LINE_AFTER,
        "rest[3 : len(rest) if end <= 0 else end]": LINE_AFTER,
        "rest[3 : len(rest) if end < 1 else end]": LINE_AFTER,
        "unescaped(b, 'XX\"XX')": EXPANDING,
    },
    "narnat_agent/safety/powershell.py": {
        'self.absent: str | None = ""': FALSY,
        'self.absent = ""': FALSY,
        'if tokens[0].kind == "word" else "XXXX"': NOT_KEYWORD,
        "command.reads = reads": NESTED_READS,
        "inside: list[WinCommand] = None": INSIDE_SET,
        'else Token(None, "")': NO_NAME,
        'else Token("XXwordXX", "")': NO_NAME,
        'else Token("WORD", "")': NO_NAME,
        'self._command(None, "", tokens[redirects[0] :], None)': POPPED,
        'self._command(None, "XXXX", tokens[redirects[0] :], consumed)': POPPED,
        "command.redirects = self._redirects(tokens[redirects[0] :])": NO_OWN_REDIRECT,
        'tokens[i - 1].text if (i) or True else ""': OWNER_FIRST,
        'tokens[i - 1].text if i else "XXXX"': OWNER_FIRST,
        'token.opener != "XX{XX" else None': BLOCK_LITERAL,
        'startswith(("$", "XX\'XX"': WORD_QUOTE,
        '"\'", \'XX"XX\', "["))': WORD_QUOTE,
        "computed = None": FALSY,
        'return "XXXX"': COMPUTED_GONE,
        "if static and not member else member.group(1).lower()": STATIC_CALL,
        'if (tokens[0].kind == "word") or True else ""': ONLY_WORDS,
    },
    "narnat_agent/safety/cmd.py": {
        'for token in [*tokens, Token("op", None)]': SENTINEL,
        'for token in [*tokens, Token("op", "XX&XX")]': SENTINEL,
        'if (first.kind == "word") or True else None': FIRST_NOT_WORD,
        'GLUED.fullmatch(word or "XXXX")': NO_GLUE,
        'GLUED.fullmatch(name or "XXXX")': NO_GLUE,
        'else word or "XXXX").lower()': NOT_KEYWORD,
        '"not" in words[:at] and at + 2 < len(words)': NO_BODY,
        'command.text.strip() else "XXXX"': SET_ALONE,
        'split("=", )[0]': FIRST_PIECE,
        'split("=", 2)[0]': FIRST_PIECE,
        "computed = None": FALSY,
        'found.append(Token("sep", None))': SEPARATOR_KIND,
        'found.append(Token("sep", "XX\\nXX"))': SEPARATOR_KIND,
        'for token in [*tokens, Token("sep", None)]': SEPARATOR_KIND,
        'for token in [*tokens, Token("sep", "XX\\nXX")]': SEPARATOR_KIND,
        "self.tokens(depth + 2)": DEPTH_TRUTH,
        "self.tokens(depth - 1)": DEPTH_TRUTH,
        'lower().lstrip("XX@XX")': LOWERED,
        "name = glued.group(1) if glued or switch else name": GLUED_SWITCH,
    },
}
