"""Text that always encodes as UTF-8, decided once for every edge where text enters the program.

A byte that is not UTF-8 arrives as a surrogate escape (file names, argv) and is shown as Python's backslash escape
(`caf\\xe9.py`); any other lone surrogate (e.g. a JSON `\\ud800`) is shown as `\\ud800`. Nothing else changes.
"""

import re
from typing import Any

SURROGATE = re.compile("[\ud800-\udfff]")


def _escape(match: re.Match) -> str:
    point = ord(match.group())
    return f"\\x{point - 0xDC00:02x}" if 0xDC80 <= point <= 0xDCFF else f"\\u{point:04x}"


def encodable(text: str) -> str:
    """text, with every lone surrogate replaced by its backslash escape."""
    return SURROGATE.sub(_escape, text) if SURROGATE.search(text) else text


def encodable_data(value: Any) -> Any:
    """A JSON-like value of the same shape, with every string (keys too) made encodable."""
    if isinstance(value, str):
        return encodable(value)
    if isinstance(value, list):
        return [encodable_data(item) for item in value]
    if isinstance(value, dict):
        return {encodable_data(key): encodable_data(item) for key, item in value.items()}
    return value
