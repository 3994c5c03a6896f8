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
}
