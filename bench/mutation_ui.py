"""The equivalent mutants of the terminal and plain UIs and the ways Narnat is run (bench/mutation.py): a piece of a
line as the mutant writes it, and why that change cannot alter what the code does."""

FALSY = "the flag is read only as true or false, and None is false"
ZIP_SHORTER = (
    "a row has one cell more than there are widths (the last is not padded): strict=False lets zip stop at the "
    "shorter, and None or no strict is False"
)
UPPER = "rich reads a style's words in any case: RED is red"
UNKNOWN_STYLE = "rich draws a style it cannot read as no style, as it draws the empty one"
FIRST_HUNK = (
    "every diff the UI is given starts with its hunk header (compact_diff and /diff drop the --- and +++ lines), "
    "which sets both line numbers before a line is shown"
)

UI_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/ui/plain.py": {
        "self.cancelled = None": FALSY,
        "self.reasoning = None": FALSY,
        'self.stream: PlainStream | None = ""': "the stream is read only as there or not, and the empty text is not",
        "zip(row, widths, strict=None)": ZIP_SHORTER,
        "zip(row, widths, )": ZIP_SHORTER,
    },
    "narnat_agent/ui/render.py": {
        **{f'style="{name}"': UPPER for name in ("DIM", "RED", "BLUE", "GREEN", "BOLD", "MAGENTA", "RED DIM")},
        '"RED DIM" if failed': UPPER,
        'if failed else "DIM"': UPPER,
        'style="red" if error else "XXXX"': UNKNOWN_STYLE,
        "old, new, lines = 1, 0,": FIRST_HUNK,
        "old, new, lines = 0, 1,": FIRST_HUNK,
        '"     {new:>5}  ", "DIM"': UPPER,
        '"     {new:>5} +", "BLUE"': UPPER,
        '"     {old:>5} -", "RED"': UPPER,
        "self.body.wrap(None,": "Text.wrap hands the console only to a justification, which for the left one it "
        "does not read",
    },
}
