"""The syntax check's parsing (tools/files/) and the safety files it shares a round with: their equivalent mutants for
bench/mutation.py, a piece of a line as the mutant writes it, or a pattern of mutant names (starting with *), and why
the change cannot alter what the code does."""

INHERIT = "the module imports nothing from __future__: the compiler has no flags of its to inherit"
CODEC = "Python's codecs take UTF-8 in any case"
ROWS = "the text split at its newlines has a line for every row of its tree (an empty one after a final newline)"
COMPILER_LINE = (
    "the compiler names a line of the text (no input tried names one past it), and its own copy of the line (e.text) "
    "is the line the text split at its line ends gives: whichever the condition picks, the same text"
)
FROM_ZERO = "None as the start of a search is the start of the text"
SHARED_PREFIX = (
    "the middle stays above low and at most high: the search still finds the longest shared prefix, in other steps"
)

SYNTAX_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/tools/files/parsers.py": {
        'compile(text, name, "exec", )': INHERIT,
        'compile(text, name, "exec", dont_inherit=False)': INHERIT,
        "line = e.lineno or 2": "the compiler gives every SyntaxError of a source text its line",
        "SyntaxProblem(line, e.offset or 2, e.msg, source)": "the compiler gives every SyntaxError of a source text "
        "its column",
        "source = lines[line - 1] if": COMPILER_LINE,
        'text.encode("UTF-8", "surrogateescape")': CODEC,
        'decode("UTF-8", "replace")': CODEC,
        "if (row < len(lines)) or True else": ROWS,
        "if row <= len(lines) else": ROWS,
        'if row < len(lines) else "XXXX"': ROWS,
        'data.count(b"\\n", None, offset)': FROM_ZERO,
        'data.rfind(b"\\n", None, offset)': FROM_ZERO,
        "middle = (low + high + 2) // 2": SHARED_PREFIX,
    },
}
