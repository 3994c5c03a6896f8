"""PDFs and Jupyter notebooks as text a model reads like any file: page by page, cell by cell."""

import warnings
from pathlib import Path

from narnat_agent.inert import without_escapes


class DocumentError(ValueError):
    """A document that cannot be read, in one sentence naming it."""


OUTPUT_CHARS = 2000  # of one cell output; the rest is said, not shown


def pdf_text(path: Path, name: str) -> str:
    """The text of each page under a page marker; "" when no page has any (a scanned document)."""
    from pypdf import PdfReader
    from pypdf.errors import PyPdfError

    try:
        reader = PdfReader(path)
        if reader.is_encrypted and not reader.decrypt(""):
            raise DocumentError(f"{name} is an encrypted PDF; Read cannot open it without its password.")
        pages = [page.extract_text() or "" for page in reader.pages]
    except (PyPdfError, ValueError, KeyError, TypeError) as e:  # pypdf's way of meeting a damaged file
        raise DocumentError(f"{name} is not a readable PDF ({type(e).__name__}: {e}).") from None
    if not any(page.strip() for page in pages):
        return ""
    return "\n".join(f"--- page {n} of {len(pages)} ---\n{page.strip()}" for n, page in enumerate(pages, 1))


def notebook_text(data: bytes, name: str) -> str:
    """The cells in order: number, kind and execution count, source, then text outputs (others summarised)."""
    import nbformat

    try:
        with warnings.catch_warnings():  # nbformat's notes on older notebooks (cells without ids) go nowhere
            warnings.simplefilter("ignore")
            notebook = nbformat.reads(data.decode("utf-8"), as_version=4)
    except (ValueError, UnicodeDecodeError, nbformat.reader.NotJSONError) as e:
        raise DocumentError(f"{name} is not a valid notebook: {e}") from None
    parts = []
    for n, cell in enumerate(notebook.cells, 1):
        count = cell.get("execution_count")
        parts.append(f"[cell {n}: {cell.cell_type}{f', execution {count}' if count else ''}]")
        parts.append(cell.source)
        parts.extend(_output(output) for output in cell.get("outputs", []))
    return "\n".join(parts) if parts else "(a notebook with no cells)"


def _output(output: dict) -> str:
    kind = output.get("output_type")
    if kind == "stream":
        text = output.get("text", "")
    elif kind == "error":
        text = without_escapes("\n".join(output.get("traceback") or [f"{output.get('ename')}: {output.get('evalue')}"]))
    else:  # execute_result, display_data: the plain text, and what it cannot show said in a line each
        data = output.get("data", {})
        shown = [f"[{mime} output, {len(joined(value)):,} characters]" for mime, value in data.items()
                 if mime.startswith("image/") or "text/plain" not in data]  # fmt: skip
        text = "\n".join([*shown, joined(data.get("text/plain", ""))])
    text = joined(text)
    if len(text) > OUTPUT_CHARS:
        text = f"{text[:OUTPUT_CHARS]}\n[… output cut: {len(text):,} characters in all]"
    return f"[output: {kind}]\n{text.rstrip()}"


def joined(value: object) -> str:
    """Notebook text is a string or a list of lines."""
    return "".join(value) if isinstance(value, list) else str(value)
