"""A text file's lines, read in pieces: a page of a 100 MB file (or of a 100 MB line) never holds the file.

A UTF-8 file (with or without its byte-order mark) is read twice through one open file: once for its digest and
its line count, once for the page. Any other encoding is decoded whole by the caller, as detecting it needs all of
the bytes.
"""

import codecs
import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

PIECE = 2**20  # bytes read at a time
UTF8_BOM = codecs.BOM_UTF8


@dataclass(frozen=True)
class Scanned:
    """What a first reading of a UTF-8 file found."""

    sha: str  # of all its bytes, as `textfile.digest` computes it
    total: int  # its lines, as `textfile.line_count` counts them
    bom: bytes


def scan(file: BinaryIO) -> Scanned | None:
    """Digest and line count of a UTF-8 file; None when it is not UTF-8 (the caller decodes it whole)."""
    sha, decoder = hashlib.sha256(), codecs.getincrementaldecoder("utf-8")()
    newlines, last, bom = 0, b"\n", b""  # no text at all is no line
    first = True
    while chunk := file.read(PIECE):
        sha.update(chunk)
        if first and chunk.startswith(UTF8_BOM):
            bom, chunk = UTF8_BOM, chunk[len(UTF8_BOM) :]
        first = False
        try:
            decoder.decode(chunk)
        except UnicodeDecodeError:
            return None
        newlines += chunk.count(b"\n")
        last = chunk[-1:] or last
    try:
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return None
    return Scanned(sha.hexdigest(), newlines + (last != b"\n"), bom)


def pieces(file: BinaryIO, bom: bytes) -> Iterator[str]:
    """The file's text in pieces (a UTF-8 file that `scan` accepted)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    file.seek(len(bom))
    while chunk := file.read(PIECE):
        yield decoder.decode(chunk)


def numbered(texts: Iterable[str], start: int, shown: int) -> Iterator[tuple[int, str, int]]:
    """From line `start` (1-based) on: each line's number, no more than its first `shown` + 1 characters, and its
    length; a line break's \\r is no part of its line. The text may come in pieces cut anywhere: no line is held
    whole, so a 100 MB line costs no second 100 MB."""
    n, kept, length, cr = 1, "", 0, False  # the line so far: its head, its length, whether it ends with \r
    keep = shown + 2  # one more than shown, and a \r that may turn out to end the line
    for text in texts:
        pos = 0
        while pos < len(text):
            end = text.find("\n", pos)
            stop = len(text) if end < 0 else end
            if stop > pos:
                if n >= start and len(kept) < keep:
                    kept += text[pos : min(stop, pos + keep - len(kept))]
                length, cr = length + stop - pos, text[stop - 1] == "\r"
            if end < 0:
                break
            if n >= start:
                yield n, _line(kept, cr, shown), length - cr
            n, kept, length, cr, pos = n + 1, "", 0, False, end + 1
    if length and n >= start:
        yield n, _line(kept, cr, shown), length - cr


def _line(kept: str, cr: bool, shown: int) -> str:
    """What is shown of a line: a head kept whole ends with its \r, a longer one has a character to spare."""
    return (kept[:-1] if cr else kept)[: shown + 1]
