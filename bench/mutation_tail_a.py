"""The equivalent mutants of tail-a's modules for bench/mutation.py: a piece of a line as the mutant writes it, and
why that change cannot alter what the code does."""

CODEC = "Python's codecs take UTF-8 in any case"
HEAD = (
    "a line's head kept longer than shown + 2 characters is cut to shown + 1 by _line all the same (its \\r is told "
    "by the text, not the head): only the memory held changes"
)
NOT_TRANSPARENT = "a JPEG's modes (L, RGB, CMYK) are none of RGBA, LA and P: the mode alone makes it a JPEG again"
FORMAT = "Pillow names the format of every image it opens: the suffix is never read"
DRAFT = (
    "draft's mode only picks how a JPEG's colours are decoded (it changes no size); the picture is converted to RGB "
    "before it is sent, and an image of another format ignores draft"
)
NO_UTF32 = (
    "text the detector takes for UTF-32 without a mark is valid UTF-8 (its NULs and ASCII) or fails to decode as "
    "UTF-32: it never reaches the detector's answer unread"
)
ROUND_TRIP = (
    "strict UTF-8 decodes only bytes its text encodes back to: the check of the round trip is true for it anyway, "
    "and codec names ignore case"
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
    "narnat_agent/tools/read/images.py": {
        'decode("ASCII")': "codec names ignore case",
        'image.format == "XXJPEGXX" or': NOT_TRANSPARENT,
        'image.format == "jpeg" or': NOT_TRANSPARENT,
        '"jpeg" if jpeg else "PNG"': "Pillow takes the name of the format to save in any case",
        '"JPEG" if jpeg else "png"': "Pillow takes the name of the format to save in any case",
        "path.suffix[2:].upper()": FORMAT,
        "path.suffix[1:].lower()": FORMAT,
        "image.draft(None,": DRAFT,
        'image.draft("XXRGBXX",': DRAFT,
        'image.draft("rgb",': DRAFT,
    },
    "narnat_agent/tools/files/textfile.py": {
        '"utf_16", "XXutf_32XX"': NO_UTF32,
        '"utf_16", "UTF_32"': NO_UTF32,
        'codec != "utf-8" or text.encode(codec) == data': ROUND_TRIP,
        'codec == "XXutf-8XX" or text.encode(codec) == data': ROUND_TRIP,
        'codec == "UTF-8" or text.encode(codec) == data': ROUND_TRIP,
        '_exact(data, "UTF-8")': ROUND_TRIP,
        '_exact(data, "GB2312")': "codec names ignore case",
        "decode(head[len(mark) :], )": "an incremental decoder's final is False unless asked",
        "raise AssertionError(": "never raised: latin-1 decodes any bytes, so the loop always returns",
    },
}
