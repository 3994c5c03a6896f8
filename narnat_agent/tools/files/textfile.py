"""Text files: how bytes become text and back, and how to tell a binary file."""

import codecs
import contextlib
import hashlib
from dataclasses import dataclass
from pathlib import Path

MAGIC = (
    (b"\x89PNG", "PNG image"),
    (b"\xff\xd8\xff", "JPEG image"),
    (b"GIF8", "GIF image"),
    (b"%PDF", "PDF document"),
    (b"PK\x03\x04", "ZIP archive"),
    (b"\x7fELF", "ELF executable"),
    (b"\x1f\x8b", "gzip archive"),
    (b"RIFF", "RIFF media file"),
    (b"\x00asm", "WebAssembly module"),
    (b"SQLite format 3", "SQLite database"),
)
TEXT_CONTROLS = set(b"\t\n\r\f\b\x1b")
# UTF-32 first: its little-endian mark begins like UTF-16's
BOMS = (
    (b"\xef\xbb\xbf", "utf-8", "UTF-8 with BOM"),
    (b"\xff\xfe\x00\x00", "utf-32-le", "UTF-32 LE with BOM"),
    (b"\x00\x00\xfe\xff", "utf-32-be", "UTF-32 BE with BOM"),
    (b"\xff\xfe", "utf-16-le", "UTF-16 LE with BOM"),
    (b"\xfe\xff", "utf-16-be", "UTF-16 BE with BOM"),
)
FALLBACKS = ("cp1252", "latin-1")  # when detection is not sure: predictable, and latin-1 decodes any bytes
# Chinese text in a legacy code page (Chinese Windows' cp936): read and written back as GB18030, which decodes
# GB2312 and GBK bytes to the same text and holds every character the model may add
CHINESE = ("gb2312", "gbk", "gb18030")


@dataclass(frozen=True)
class Encoding:
    """How a file's text is stored: a codec, the byte-order mark in front, and what to call it."""

    codec: str = "utf-8"
    bom: bytes = b""
    label: str = "UTF-8"

    def encode(self, text: str) -> bytes:
        """The file's bytes for text; raises UnicodeEncodeError if the codec cannot hold it."""
        return self.bom + text.encode(self.codec)


UTF8 = Encoding()


def size_text(n: int) -> str:
    size = float(n)
    for unit in ("bytes", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{n} {unit}" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1024
    raise AssertionError


def _bom(data: bytes) -> tuple[bytes, str, str] | None:
    return next((entry for entry in BOMS if data.startswith(entry[0])), None)


def _units(head: bytes) -> bytes | str:
    """The first 4 KB as bytes, or as text when a BOM says how (UTF-16 and UTF-32 text is full of NUL bytes)."""
    if bom := _bom(head):
        mark, codec, _ = bom
        with contextlib.suppress(UnicodeDecodeError):
            return codecs.getincrementaldecoder(codec)().decode(head[len(mark) :], final=False)
    return head


def binary_kind(head: bytes, path: Path) -> str | None:
    """What binary file this is, or None for text: a NUL or >30% control characters in the first 4 KB."""
    for magic, kind in MAGIC:
        if head.startswith(magic):
            return kind
    units = _units(head)
    if not units:
        return None
    codes = [ord(c) for c in units] if isinstance(units, str) else units
    controls = sum(1 for b in codes if b < 32 and b not in TEXT_CONTROLS)
    if 0 in codes or controls / len(codes) > 0.3:
        return f"binary {path.suffix} file" if path.suffix else "binary file"
    return None


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _exact(data: bytes, codec: str) -> str | None:
    """data as text only if the text encodes back to the same bytes (so an edit changes no other byte)."""
    try:
        text = data.decode(codec)
        # strict UTF-8 decodes only what encodes back byte for byte: its check would be a second copy of the file
        return text if codec == "utf-8" or text.encode(codec) == data else None
    except (UnicodeError, LookupError):
        return None


def _detected(data: bytes) -> str | None:
    """The detector's encoding when it has a clear winner; on short text several codecs tie."""
    from charset_normalizer import from_bytes

    results = list(from_bytes(data))
    if not results:
        return None
    best = results[0]
    if any((r.chaos, r.coherence) == (best.chaos, best.coherence) for r in results[1:]):
        return None
    # UTF-16/32 without a BOM would be full of NUL bytes, which make a file binary: such a guess is noise
    return None if best.encoding.startswith(("utf_16", "utf_32")) else best.encoding


def decode(data: bytes, seen_as: str | None = None) -> tuple[str, Encoding]:
    """Text and encoding of a file's bytes: a BOM, else UTF-8, else the codec the model has seen the file in
    (so a later guess cannot change it under the model), else a confident detection, else cp1252, latin-1."""
    if bom := _bom(data):
        mark, codec, label = bom
        text = _exact(data[len(mark) :], codec)
        if text is not None:
            return text, Encoding(codec, mark, label)
    if (text := _exact(data, "utf-8")) is not None:
        return text, UTF8
    if seen_as and (text := _exact(data, seen_as)) is not None:
        return text, Encoding(seen_as, label=seen_as)
    detected = _detected(data)
    if detected in CHINESE:
        detected = "gb18030"
    for codec in (detected, *FALLBACKS) if detected else _guesses(data):
        if (text := _exact(data, codec)) is not None:
            sure = "" if codec == detected else ", a guess: the encoding could not be detected with confidence"
            return text, Encoding(codec, label=f"{codec}{sure}")
    raise AssertionError("latin-1 decodes any bytes")


def _guesses(data: bytes) -> tuple[str, ...]:
    """The codecs to try when detection is not sure. Short Chinese text (a comment, a string) is not detected with
    confidence, and cp1252 would show it garbled; text whose every non-ASCII byte pairs into a GB2312 character is
    taken for Chinese (a Latin text rarely pairs so: "café au lait" does not, "Größe" does)."""
    return ("gb18030", *FALLBACKS) if _exact(data, "gb2312") is not None else FALLBACKS


def line_count(text: str) -> int:
    """Lines as Read numbers them: a final line break ends the last line, it does not start another."""
    return text.count("\n") + (0 if text.endswith("\n") or not text else 1)


def line_ending(text: str) -> str | None:
    """The file's line ending: "\\r\\n" if every line ends so, "\\n" if none does, None for a mix."""
    crlf = text.count("\r\n")
    if crlf == 0:
        return "\n"
    return "\r\n" if crlf == text.count("\n") else None


def with_ending(text: str, ending: str | None) -> str:
    """text from the model (any line endings) in the file's own line ending; a mixed file gets it as sent."""
    if ending is None:
        return text
    text = text.replace("\r\n", "\n")
    return text.replace("\n", "\r\n") if ending == "\r\n" else text
