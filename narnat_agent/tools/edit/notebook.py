"""Edit on a Jupyter notebook: old_string is matched within the cells' sources, and the notebook is written back
valid, every other cell and all metadata byte for byte as they were."""

import json
import warnings
from dataclasses import dataclass
from itertools import product

from narnat_agent.i18n import N_, Said
from narnat_agent.tools.base import ToolError
from narnat_agent.tools.edit.matcher import Edited, NotFound, apply_edit, few, first_few
from narnat_agent.tools.files.documents import joined


@dataclass(frozen=True)
class CellEdit:
    data: bytes  # the whole notebook, written back
    cell: int  # 1-based, as Read numbers cells
    before: str  # the cell's source
    done: Edited
    note: str  # "" when every byte outside the cell is as it was


def edit_cell(data: bytes, old: str, new: str, replace_all: bool) -> CellEdit:
    text = data.decode("utf-8")
    notebook = json.loads(text)
    found = []
    for n, cell in enumerate(notebook.get("cells", []), 1):
        source = joined(cell.get("source", ""))
        try:
            found.append((n, cell, source, apply_edit(source, old, new, replace_all)))
        except NotFound:
            continue
    if not found:
        raise ToolError("old_string was not found in any cell's source (outputs cannot be edited); Read the notebook "
                        "again and copy the text from one cell.",
                        Said(N_("old_string was not found in any cell of the notebook")))  # fmt: skip
    if len(found) > 1:
        cells = [f[0] for f in found]
        raise ToolError(f"ambiguous: old_string is in cells {first_few(cells)}; include more of one cell, or edit "
                        "each in turn.",
                        Said(N_("old_string is in several cells ({cells})"), cells=few(cells)))  # fmt: skip
    n, cell, source, done = found[0]
    cell["source"] = done.text.splitlines(keepends=True) if isinstance(cell["source"], list) else done.text
    _validate(notebook)
    style = _style(json.loads(text), text)
    if style is None:  # written by a tool with a layout of its own: nbformat's is the standard one
        written, note = (
            _dumps(notebook, {"indent": 1, "sort_keys": True, "ensure_ascii": False}, True),
            (" The notebook's JSON layout was not the standard one; it is now nbformat's."),
        )
    else:
        written, note = _dumps(notebook, style, text.endswith("\n")), ""
    return CellEdit(written.encode("utf-8"), n, source, done, note)


def _validate(notebook: dict) -> None:
    import nbformat

    try:
        with warnings.catch_warnings():  # nbformat's notes on older notebooks (cells without ids) go nowhere
            warnings.simplefilter("ignore")
            nbformat.validate(nbformat.from_dict(notebook))
    except nbformat.ValidationError as e:
        raise ToolError(f"the notebook would not be valid after this edit ({e.message}); it is unchanged.") from None


def _style(notebook: dict, text: str) -> dict | None:
    """The json.dumps arguments that give back the file exactly, so the rewrite changes only the edited cell."""
    for indent, sort_keys, ensure_ascii in product((1, 2, 4, None), (True, False), (False, True)):
        style = {"indent": indent, "sort_keys": sort_keys, "ensure_ascii": ensure_ascii}
        if _dumps(notebook, style, text.endswith("\n")) == text:
            return style
    return None


def _dumps(notebook: dict, style: dict, newline: bool) -> str:
    return json.dumps(notebook, **style) + ("\n" if newline else "")
