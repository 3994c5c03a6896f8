"""Text files: how bytes become text and back, and how to tell a binary file."""

import hashlib
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


def size_text(n: int) -> str:
    for unit in ("bytes", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    raise AssertionError


def binary_kind(head: bytes, path: Path) -> str | None:
    """What binary file this is, or None for text: a NUL byte or >30% control bytes in the first 4 KB."""
    for magic, kind in MAGIC:
        if head.startswith(magic):
            return kind
    if not head:
        return None
    controls = sum(1 for b in head if b < 32 and b not in TEXT_CONTROLS)
    if b"\x00" in head or controls / len(head) > 0.3:
        return f"binary {path.suffix} file" if path.suffix else "binary file"
    return None


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def decode(data: bytes) -> tuple[str, str]:
    """Text and encoding of a file's bytes; UTF-8 first, then a detected legacy encoding."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace"), "utf-8-sig"
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes

    best = from_bytes(data).best()
    encoding = best.encoding if best else "latin-1"
    return data.decode(encoding, errors="replace"), encoding
