"""PDFs and Jupyter notebooks as text a model reads like any file: page by page, cell by cell."""

import json
import logging
import warnings
from pathlib import Path

from narnat_agent.inert import without_escapes


class DocumentError(ValueError):
    """A document that cannot be read, in one sentence naming it."""


OUTPUT_CHARS = 2000  # of one cell output; the rest is said, not shown
# pypdf's notes on a damaged file ("EOF marker not found") would reach the terminal through Python's last-resort
# handler: the sentence a DocumentError gives says what Read met
logging.getLogger("pypdf").addHandler(logging.NullHandler())


def pdf_text(path: Path, name: str) -> str:
    """The text of each page under a page marker; "" when no page has any (a scanned document)."""
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    try:
        reader = PdfReader(path)
        locked = reader.is_encrypted and not reader.decrypt("")
        pages = [] if locked else [page.extract_text() or "" for page in reader.pages]
    # pypdf's way of meeting a damaged file; NotImplementedError: an encryption it does not open (a certificate's)
    except (PyPdfError, ValueError, KeyError, TypeError, NotImplementedError) as e:
        raise DocumentError(f"{name} is not a readable PDF ({type(e).__name__}: {e}).") from None
    if locked:  # said apart from a damaged file: DocumentError is a ValueError, which the handler above rewords
        raise DocumentError(f"{name} is an encrypted PDF; Read cannot open it without its password.")
    if not any(page.strip() for page in pages):
        return ""
    return "\n".join(f"--- page {n} of {len(pages)} ---\n{page.strip()}" for n, page in enumerate(pages, 1))


def notebook_json(data: bytes, name: str) -> dict:
    """A notebook's JSON as it is in the file, parsed once and checked for a list of cells. A large one is never
    copied whole: outputs of hundreds of megabytes are read, not rebuilt."""
    try:
        parsed = json.loads(data.decode("utf-8"))
    except ValueError as e:  # not UTF-8, or not JSON
        raise DocumentError(f"{name} is not a valid notebook: {e}") from None
    cells = parsed.get("cells", []) if isinstance(parsed, dict) else None
    if not isinstance(cells, list) or not all(isinstance(cell, dict) for cell in cells):
        raise DocumentError(f"{name} is not a valid notebook: it is not a JSON object with a list of cells.")
    return parsed


def _version_4(data: bytes, name: str) -> dict:
    """The notebook in version 4; an older one is converted by nbformat (they are rare, and small)."""
    parsed = notebook_json(data, name)
    if parsed.get("nbformat", 4) == 4:
        return parsed
    import nbformat

    try:
        with warnings.catch_warnings():  # nbformat's notes on older notebooks go nowhere
            warnings.simplefilter("ignore")
            return nbformat.reads(data.decode("utf-8"), as_version=4)
    # the older formats are read by nbformat, which meets a damaged one with any of these
    except (ValueError, TypeError, KeyError, AttributeError, nbformat.ValidationError) as e:
        raise DocumentError(f"{name} is not a valid notebook ({type(e).__name__}: {e}).") from None


def notebook_text(data: bytes, name: str) -> str:
    """The cells in order: number, kind and execution count, source, then text outputs (others summarised)."""
    parts = []
    for n, cell in enumerate(_version_4(data, name).get("cells", []), 1):
        count = cell.get("execution_count")
        parts.append(f"[cell {n}: {cell.get('cell_type')}{f', execution {count}' if count else ''}]")
        parts.append(joined(cell.get("source", "")))
        parts.extend(_output(output) for output in cell.get("outputs", []) if isinstance(output, dict))
    return "\n".join(parts) if parts else "(a notebook with no cells)"


def _output(output: dict) -> str:
    kind = output.get("output_type")
    if kind == "stream":
        text, total = _first(output.get("text", ""))
    elif kind == "error":
        text = without_escapes("\n".join(output.get("traceback") or [f"{output.get('ename')}: {output.get('evalue')}"]))
        text, total = _first(text)
    else:  # execute_result, display_data: the plain text, and what it cannot show said in a line each
        data = output.get("data", {})
        shown = [f"[{mime} output, {_length(value):,} characters]" for mime, value in data.items()
                 if mime.startswith("image/") or "text/plain" not in data]  # fmt: skip
        plain, total = _first(data.get("text/plain", ""))
        text, total = "\n".join([*shown, plain]), total + sum(len(line) + 1 for line in shown)
    if total > OUTPUT_CHARS:
        text = f"{text[:OUTPUT_CHARS]}\n[… output cut: {total:,} characters in all]"
    return f"[output: {kind}]\n{text.rstrip()}"


def _first(value: object) -> tuple[str, int]:
    """The first OUTPUT_CHARS (and a little more) of a text or list of lines, and its whole length: an output of
    millions of lines is never joined only to be cut."""
    if not isinstance(value, list):
        return str(value), len(str(value))
    head, size = [], 0
    for line in value:
        if size > OUTPUT_CHARS:
            break
        head.append(str(line))
        size += len(head[-1])
    return "".join(head), _length(value)


def _length(value: object) -> int:
    return sum(len(str(line)) for line in value) if isinstance(value, list) else len(str(value))


def joined(value: object) -> str:
    """Notebook text is a string or a list of lines."""
    return "".join(value) if isinstance(value, list) else str(value)
