"""The equivalent mutants of the terminal and plain UIs and the ways Narnat is run (bench/mutation.py): a piece of a
line as the mutant writes it, and why that change cannot alter what the code does."""

FALSY = "the flag is read only as true or false, and None is false"
ZIP_SHORTER = (
    "a row has one cell more than there are widths (the last is not padded): strict=False lets zip stop at the "
    "shorter, and None or no strict is False"
)

UI_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/ui/plain.py": {
        "self.cancelled = None": FALSY,
        "self.reasoning = None": FALSY,
        'self.stream: PlainStream | None = ""': "the stream is read only as there or not, and the empty text is not",
        "zip(row, widths, strict=None)": ZIP_SHORTER,
        "zip(row, widths, )": ZIP_SHORTER,
    },
}
