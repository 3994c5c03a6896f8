"""Edit on a Jupyter notebook: old_string is matched within the cells' sources, and the notebook is written back
valid, every other cell and all metadata byte for byte as they were."""

import io
import json
import warnings
from dataclasses import dataclass
from itertools import product

from narnat_agent.i18n import N_, Said
from narnat_agent.tools.base import ToolError
from narnat_agent.tools.edit.matcher import Edited, NotFound, apply_edit, few, first_few
from narnat_agent.tools.files.documents import joined, notebook_json


@dataclass(frozen=True)
class CellEdit:
    data: bytes  # the whole notebook, written back
    cell: int  # 1-based, as Read numbers cells
    before: str  # the cell's source
    done: Edited
    note: str  # "" when every byte outside the cell is as it was


def edit_cell(data: bytes, name: str, old: str, new: str, replace_all: bool) -> CellEdit:
    notebook = notebook_json(data, name)
    style = _style(notebook, data)  # before the edit: what gives back the file as it is
    found = []
    for n, cell in enumerate(notebook.get("cells", []), 1):
        source = joined(cell.get("source", ""))
        try:
            found.append((n, cell, source, apply_edit(source, old, new, replace_all)))
        except NotFound:
            continue
    if not found:
        raise ToolError(
            "old_string was not found in any cell's source (outputs cannot be edited); Read the notebook "
            "again and copy the text from one cell.",
            Said(N_("old_string was not found in any cell of the notebook")),
        )
    if len(found) > 1:
        cells = [f[0] for f in found]
        raise ToolError(f"ambiguous: old_string is in cells {first_few(cells)}; include more of one cell, or edit "
                        "each in turn.",
                        Said(N_("old_string is in several cells ({cells})"), cells=few(cells)))  # fmt: skip
    n, cell, source, done = found[0]
    cell["source"] = done.text.splitlines(keepends=True) if isinstance(cell["source"], list) else done.text
    _validate(notebook, cell)
    if style is None:  # written by a tool with a layout of its own: nbformat's is the standard one
        written = _encoded(notebook, {"indent": 1, "sort_keys": True, "ensure_ascii": False}, True)
        note = " The notebook's JSON layout was not the standard one; it is now nbformat's."
    else:
        written, note = _encoded(notebook, style, data.endswith(b"\n")), ""
    return CellEdit(written, n, source, done, note)


def _validate(notebook: dict, cell: dict) -> None:
    """The edited cell, in the notebook's frame: the other cells are as they were."""
    import nbformat

    try:
        with warnings.catch_warnings():  # nbformat's notes on older notebooks (cells without ids) go nowhere
            warnings.simplefilter("ignore")
            nbformat.validate(nbformat.from_dict({**notebook, "cells": [cell]}))
    except nbformat.ValidationError as e:
        raise ToolError(f"the notebook would not be valid after this edit ({e.message}); it is unchanged.") from None


def _style(notebook: dict, data: bytes) -> dict | None:
    """The json.dumps arguments that give back the file exactly, so the rewrite changes only the edited cell."""
    for indent, sort_keys, ensure_ascii in product((1, 2, 4, None), (True, False), (False, True)):
        style = {"indent": indent, "sort_keys": sort_keys, "ensure_ascii": ensure_ascii}
        if _gives_back(notebook, style, data):
            return style
    return None


def _gives_back(notebook: dict, style: dict, data: bytes) -> bool:
    """Whether the style encodes the notebook as the file's bytes, compared piece by piece as they are made: a
    notebook of hundreds of megabytes is not written out whole for each style tried."""
    view, at = memoryview(data), 0
    try:
        for piece in json.JSONEncoder(**style).iterencode(notebook):
            encoded = piece.encode("utf-8")
            if view[at : at + len(encoded)] != encoded:
                return False
            at += len(encoded)
    except UnicodeEncodeError:  # a lone surrogate the file kept escaped
        return False
    return data[at:] in (b"", b"\n")


def _encoded(notebook: dict, style: dict, newline: bool) -> bytes:
    out = io.BytesIO()
    for piece in json.JSONEncoder(**style).iterencode(notebook):
        out.write(piece.encode("utf-8"))
    out.write(b"\n" if newline else b"")
    return out.getvalue()
