"""The equivalent mutants of tail-a's modules for bench/mutation.py: a piece of a line as the mutant writes it, and
why that change cannot alter what the code does."""

CODEC = "Python's codecs take UTF-8 in any case"
HEAD = (
    "a line's head kept longer than shown + 2 characters is cut to shown + 1 by _line all the same (its \\r is told "
    "by the text, not the head): only the memory held changes"
)

TAIL_A_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/tools/read/lines.py": {
        'getincrementaldecoder("UTF-8")': CODEC,
        "first = None": "None is false as False is: the mark is looked for in the first piece only",
        'decoder.decode(b"XXXX", final=True)': (
            "ASCII after the pending bytes of a cut character is an error as the end of the input is; after none it "
            "decodes"
        ),
        "while pos <= len(text):": "at the end of a piece no newline is found and nothing is kept: the loop breaks",
        "if n >= start or len(kept) < keep:": "a line before start is never yielded; its head is dropped at its end",
        "if n >= start and len(kept) <= keep:": HEAD,
        "min(stop, pos + keep + len(kept))": HEAD,
        "keep = shown + 3": HEAD,
    },
    "narnat_agent/tools/files/diffs.py": {
        "after.splitlines(), name, n=1, lineterm=": (
            "the names appear only in the ---/+++ header, which [2:] drops: the diff shown never names the file"
        ),
    },
}
