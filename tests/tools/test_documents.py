"""Read on real PDFs and notebooks, and Edit on a notebook's cells."""

import io
import json
import subprocess
import sys

import nbformat
import pytest
from PIL import Image

from narnat_agent.tools.base import ToolError
from narnat_agent.tools.edit.notebook import edit_cell
from narnat_agent.tools.files.documents import OUTPUT_CHARS, DocumentError, notebook_text
from narnat_agent.tools.registry import execute


def text_pdf(pages: list[str]) -> bytes:
    """A real PDF with one line of Helvetica text on each page, written object by object."""
    n = len(pages)
    kids = " ".join(f"{3 + 2 * i} 0 R" for i in range(n))
    objects = ["<< /Type /Catalog /Pages 2 0 R >>", f"<< /Type /Pages /Kids [{kids}] /Count {n} >>"]
    for i, line in enumerate(pages):
        stream = f"BT /F1 12 Tf 72 720 Td ({line}) Tj ET"
        objects.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents {4 + 2 * i} 0 R "
                       f"/Resources << /Font << /F1 {3 + 2 * n} 0 R >> >> >>")  # fmt: skip
        objects.append(f"<< /Length {len(stream)} >>\nstream\n{stream}\nendstream")
    objects.append("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
    out, offsets = bytearray(b"%PDF-1.4\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n{body}\nendobj\n".encode()
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{o:010d} 00000 n \n" for o in offsets).encode()
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def read(ws, path, **args):
    return execute("Read", {"file_path": path, **args}, ws)


def test_a_pdf_reads_page_by_page_with_markers_and_pages_like_a_long_file(project, workspace):
    (project / "report.pdf").write_bytes(text_pdf(["Revenue grew", "Costs fell", "Outlook stable"]))
    whole = read(workspace, "report.pdf")
    assert not whole.is_error, whole.text
    assert whole.text.splitlines()[:2] == ["1\t--- page 1 of 3 ---", "2\tRevenue grew"]
    assert "5\t--- page 3 of 3 ---" in whole.text and "(End of file - 6 lines)" in whole.text
    part = read(workspace, "report.pdf", offset=3, limit=2)
    assert part.text.splitlines()[:2] == ["3\t--- page 2 of 3 ---", "4\tCosts fell"]
    assert "use offset=5 to continue" in part.text


def test_a_scanned_pdf_says_it_has_no_text(project, workspace):
    Image.new("RGB", (200, 100), "white").save(project / "scan.pdf")
    result = read(workspace, "scan.pdf")
    assert not result.is_error and "no text layer" in result.text and result.summary == "PDF without text"


def test_a_pdf_with_a_blank_page_among_pages_of_text_is_read_not_said_to_be_scanned(project, workspace):
    (project / "cover.pdf").write_bytes(text_pdf(["", "Revenue grew"]))  # a cover page, an image alone
    result = read(workspace, "cover.pdf")
    assert result.text.splitlines()[-3:] == ["3\t--- page 2 of 2 ---", "4\tRevenue grew", "(End of file - 4 lines)"]
    assert result.text.startswith("1\t--- page 1 of 2 ---\n")


def test_a_damaged_pdf_is_one_sentence(project, workspace):
    (project / "broken.pdf").write_bytes(b"%PDF-1.4\nnot really\n")
    result = read(workspace, "broken.pdf")
    assert result.is_error and "is not a readable PDF" in result.text and "Traceback" not in result.text
    assert "not a readable PDF (PdfStreamError: " in result.text  # what pypdf met, named


def test_a_pdf_damaged_inside_a_page_is_one_sentence_naming_what_pypdf_met(project, workspace):
    # the file opens; its font's widths are text where numbers belong, which pypdf meets with a ValueError
    widths = b"/BaseFont /Helvetica /FirstChar 32 /LastChar 40 /Widths [ (a) (b) ]"
    (project / "widths.pdf").write_bytes(text_pdf(["Revenue grew"]).replace(b"/BaseFont /Helvetica", widths))
    result = read(workspace, "widths.pdf")
    assert result.is_error
    assert result.text == (
        "Error: widths.pdf is not a readable PDF (ValueError: invalid literal for int() with base 10: 'a')."
    )


@pytest.mark.slow  # another Python: the test run's own log handlers would take what reaches the terminal
def test_a_damaged_pdf_writes_nothing_on_the_terminal(tmp_path):
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.4\nnot really\n")
    code = (
        "import sys; from pathlib import Path\n"
        "from narnat_agent.tools.files.documents import DocumentError, pdf_text\n"
        "try:\n    pdf_text(Path(sys.argv[1]), 'broken.pdf')\nexcept DocumentError as e:\n    print(e)\n"
    )
    done = subprocess.run([sys.executable, "-c", code, str(tmp_path / "broken.pdf")], capture_output=True, text=True)
    assert done.stdout.startswith("broken.pdf is not a readable PDF") and done.stderr == ""


def encrypted_pdf(user_password: str) -> bytes:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(text_pdf(["Quarterly figures"]))))
    writer.encrypt(user_password=user_password, owner_password="owner", algorithm="RC4-128")
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_a_pdf_locked_only_against_changes_is_read_and_one_that_needs_a_password_says_so(project, workspace):
    (project / "open.pdf").write_bytes(encrypted_pdf(""))  # anyone may open it: only the owner may change it
    assert read(workspace, "open.pdf").text.splitlines()[:2] == ["1\t--- page 1 of 1 ---", "2\tQuarterly figures"]
    (project / "locked.pdf").write_bytes(encrypted_pdf("secret"))
    locked = read(workspace, "locked.pdf")
    assert locked.is_error
    assert locked.text == "Error: locked.pdf is an encrypted PDF; Read cannot open it without its password."


def test_a_pdf_under_an_encryption_pypdf_does_not_open_is_one_sentence(project, workspace):
    # a certificate's (Adobe.PubSec) or a rights server's encryption, not the standard one of a password
    for handler in (b"/Filter /Adobe.PubSec /V 1", b"/Filter /Standard /V 9 /R 9 /O (o) /U (u) /P -4"):
        encrypted = text_pdf(["Quarterly figures"]).replace(
            b"/Root 1 0 R", b"/Root 1 0 R /Encrypt << " + handler + b" >>"
        )
        (project / "sealed.pdf").write_bytes(encrypted)
        result = read(workspace, "sealed.pdf")
        assert result.is_error and result.text.startswith(
            "Error: sealed.pdf is not a readable PDF (NotImplementedError: "
        )
        assert "unexpectedly" not in result.text and result.text.count("\n") == 0


def notebook(project):
    nb = nbformat.v4.new_notebook(metadata={"kernelspec": {"name": "python3", "display_name": "Python 3"}})
    nb.cells = [
        nbformat.v4.new_markdown_cell("# Analysis"),
        nbformat.v4.new_code_cell("total = 1 + 1\nprint(total)", execution_count=1, outputs=[
            nbformat.v4.new_output("stream", name="stdout", text="2\n")]),
        nbformat.v4.new_code_cell("plot(total)", execution_count=2, outputs=[
            nbformat.v4.new_output("display_data", data={"image/png": "iVBORw0KGgo=" * 100, "text/plain": "<Figure>"}),
            nbformat.v4.new_output("error", ename="NameError", evalue="name 'plot' is not defined",
                                   traceback=["\x1b[31mNameError\x1b[0m: name 'plot' is not defined"])]),
    ]  # fmt: skip
    nbformat.write(nb, project / "analysis.ipynb")
    return project / "analysis.ipynb"


def test_a_notebook_reads_as_cells_with_numbers_kinds_sources_and_outputs(project, workspace):
    notebook(project)
    lines = [line.split("\t", 1)[1] for line in read(workspace, "analysis.ipynb").text.splitlines()[:-1]]
    assert lines == [
        "[cell 1: markdown]", "# Analysis",
        "[cell 2: code, execution 1]", "total = 1 + 1", "print(total)", "[output: stream]", "2",
        "[cell 3: code, execution 2]", "plot(total)",
        "[output: display_data]", "[image/png output, 1,200 characters]", "<Figure>",
        "[output: error]", "NameError: name 'plot' is not defined",
    ]  # fmt: skip


def test_edit_changes_one_cells_source_and_keeps_every_other_byte(project, workspace):
    path = notebook(project)
    before = path.read_text()
    read(workspace, "analysis.ipynb")
    result = execute("Edit", {"file_path": "analysis.ipynb", "old_string": "1 + 1", "new_string": "2 + 2"}, workspace)
    assert not result.is_error, result.text
    assert "Edited cell 2 of analysis.ipynb" in result.text and "+total = 2 + 2" in result.text
    after = path.read_text()
    assert after == before.replace('"total = 1 + 1\\n"', '"total = 2 + 2\\n"')  # nothing else moved
    nbformat.validate(nbformat.reads(after, as_version=4))
    again = execute("Edit", {"file_path": "analysis.ipynb", "old_string": "plot", "new_string": "show"}, workspace)
    assert not again.is_error and "cell 3" in again.text and "print(total)" in path.read_text()


def test_a_long_cell_edit_says_the_notebook_to_read_for_the_rest_of_its_diff(project, workspace):
    notebook(project)
    read(workspace, "analysis.ipynb")
    longer = "\n".join(f"line_{n} = {n}" for n in range(80))
    result = execute("Edit", {"file_path": "analysis.ipynb", "old_string": "print(total)", "new_string": longer},
                     workspace)  # fmt: skip
    assert result.text.endswith("the whole change was made (Read analysis.ipynb to see it)"), result.text[-200:]


def test_a_notebook_outside_the_project_is_edited_only_with_the_users_yes(project, workspace, tmp_path):
    outside = notebook(tmp_path)  # tmp_path holds the project: the notebook is beside it, not in it
    before = outside.read_bytes()
    asked = []
    workspace.confirm = lambda action, reason: asked.append((action, str(reason))) or False
    read(workspace, str(outside))
    result = execute("Edit", {"file_path": str(outside), "old_string": "1 + 1", "new_string": "2 + 2"}, workspace)
    real = str(outside.resolve())
    assert asked == [(f"Edit {real}", f"it changes {real}, outside the project")]
    assert result.is_error and outside.read_bytes() == before


def test_a_notebook_named_in_capitals_is_edited_cell_by_cell(project, workspace):
    path = notebook(project).rename(project / "ANALYSIS.IPYNB")
    before = path.read_text()
    read(workspace, "ANALYSIS.IPYNB")
    result = execute("Edit", {"file_path": "ANALYSIS.IPYNB", "old_string": "1 + 1", "new_string": "2 + 2"}, workspace)
    assert result.text.startswith("Edited cell 2 of ANALYSIS.IPYNB (")
    assert path.read_text() == before.replace('"total = 1 + 1\\n"', '"total = 2 + 2\\n"')


def test_edit_on_a_notebook_refuses_what_spans_cells_or_is_in_several(project, workspace):
    path = notebook(project)
    read(workspace, "analysis.ipynb")
    both = execute("Edit", {"file_path": "analysis.ipynb", "old_string": "(total)", "new_string": "(t)"}, workspace)
    assert both.is_error and "cells 2, 3" in both.text
    output = execute("Edit", {"file_path": "analysis.ipynb", "old_string": "<Figure>", "new_string": "x"}, workspace)
    assert output.is_error and "not found in any cell" in output.text
    assert json.loads(path.read_text())["cells"][1]["source"] == ["total = 1 + 1\n", "print(total)"]


@pytest.mark.parametrize("end", ["", "\n"])
def test_a_notebook_in_another_tools_layout_keeps_it(project, workspace, end):
    path = notebook(project)
    path.write_text(json.dumps(json.loads(path.read_text()), indent=2) + end)  # unsorted keys, two spaces
    before = path.read_text()
    read(workspace, "analysis.ipynb")
    result = execute(
        "Edit", {"file_path": "analysis.ipynb", "old_string": "# Analysis", "new_string": "# Study"}, workspace
    )
    assert not result.is_error and "layout" not in result.text
    assert path.read_text() == before.replace('"# Analysis"', '"# Study"')


def test_write_of_a_notebook_that_is_not_json_says_where(project, workspace):
    result = execute(
        "Write", {"file_path": "new.ipynb", "content": '{"cells": [\n  {"cell_type": "code"\n}\n'}, workspace
    )
    assert "Syntax check (json): this change introduced" in result.text


def test_an_older_notebook_without_cell_ids_is_read_and_edited_without_library_warnings(project, workspace):
    import warnings

    old = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                      "source": ["print('a')"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}  # fmt: skip
    (project / "old.ipynb").write_text(json.dumps(old))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        read = execute("Read", {"file_path": "old.ipynb"}, workspace)
        edited = execute("Edit", {"file_path": "old.ipynb", "old_string": "'a'", "new_string": "'b'"}, workspace)
    assert not read.is_error and not edited.is_error, edited.text
    assert not caught, [str(w.message) for w in caught]


def test_an_edit_in_many_cells_names_the_first_few(project, workspace):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("x = 1") for _ in range(1000)]
    nbformat.write(nb, project / "many.ipynb")
    read(workspace, "many.ipynb")
    result = execute("Edit", {"file_path": "many.ipynb", "old_string": "x = 1", "new_string": "x = 2"}, workspace)
    assert result.is_error and "cells 1, 2, 3, 4, 5 and 995 more" in result.text and len(result.text) < 300


def test_a_large_output_of_many_lines_is_cut_and_its_size_said(project, workspace):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("for i in range(N): print(i)", outputs=[
        nbformat.v4.new_output("stream", name="stdout", text=[f"{i}\n" for i in range(100_000)])])]  # fmt: skip
    nbformat.write(nb, project / "loop.ipynb")
    result = read(workspace, "loop.ipynb")
    assert not result.is_error and "[… output cut: 588,890 characters in all]" in result.text
    assert "\t0\n" in result.text and "\t99999\n" not in result.text and len(result.text) < 5000


def test_a_version_3_notebook_is_read_as_cells(project, workspace):
    old = {"nbformat": 3, "nbformat_minor": 0, "metadata": {}, "worksheets": [{"cells": [
        {"cell_type": "code", "input": ["x = 1\n", "x"], "language": "python", "prompt_number": 3, "metadata": {},
         "outputs": [{"output_type": "pyout", "prompt_number": 3, "text": ["1"], "metadata": {}}]}]}]}  # fmt: skip
    (project / "v3.ipynb").write_text(json.dumps(old))
    lines = [line.split("\t", 1)[1] for line in read(workspace, "v3.ipynb").text.splitlines()[:-1]]
    assert lines == ["[cell 1: code, execution 3]", "x = 1", "x", "[output: execute_result]", "1"]


@pytest.mark.parametrize(
    ("worksheets", "why"),
    [
        (5, "TypeError: 'int' object is not iterable"),
        (
            [{"cells": [{"cell_type": "code", "input": "x"}]}],
            "ValidationError: The notebook is invalid and is missing an expected key",
        ),
    ],
)
def test_a_damaged_older_notebook_is_one_sentence(project, workspace, worksheets, why):
    (project / "old.ipynb").write_text(json.dumps({"nbformat": 3, "nbformat_minor": 0, "worksheets": worksheets}))
    result = read(workspace, "old.ipynb")
    assert result.is_error and result.text.startswith(f"Error: old.ipynb is not a valid notebook ({why}"), result.text


def test_a_notebook_that_is_no_json_object_is_one_sentence(project, workspace):
    for name, content in (("list.ipynb", "[1, 2]"), ("cells.ipynb", '{"nbformat": 4, "cells": [3]}')):
        (project / name).write_text(content)
        result = read(workspace, name)
        assert result.is_error and f"{name} is not a valid notebook" in result.text and "Traceback" not in result.text


def small_notebook(**style) -> tuple[dict, bytes]:
    """A notebook whose keys are not in sorted order (another tool wrote it), with text beyond ASCII in two cells."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("Café"), nbformat.v4.new_code_cell("x = 1\ny = 2  # é")]
    data = dict(reversed(json.loads(nbformat.writes(nb)).items()))
    return data, json.dumps(data, **style).encode()


@pytest.mark.parametrize(
    "style",
    [{"indent": 1, "sort_keys": True, "ensure_ascii": True}, {"indent": 4, "sort_keys": False},
     {"indent": None, "sort_keys": True}, {"indent": 2, "ensure_ascii": False}],
)  # fmt: skip
def test_a_cell_edit_rewrites_the_notebook_in_the_layout_it_had(style):
    data, raw = small_notebook(**style)
    done = edit_cell(raw, "n.ipynb", "y = 2", "y = 3", False)
    assert (done.cell, done.before, done.note) == (2, "x = 1\ny = 2  # é", "")
    assert raw.count(b"y = 2") == 1 and done.data == raw.replace(b"y = 2", b"y = 3")


def test_a_layout_no_style_gives_back_becomes_nbformats_and_says_so():
    data, _ = small_notebook()
    raw = json.dumps(data, indent=3).encode()
    done = edit_cell(raw, "n.ipynb", "Café", "Tea", False)
    assert done.note == " The notebook's JSON layout was not the standard one; it is now nbformat's."
    expected = json.loads(raw)
    expected["cells"][0]["source"] = ["Tea"]
    assert done.data == (json.dumps(expected, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode()


def test_a_lone_surrogate_the_file_kept_escaped_stays_escaped():
    data, raw = small_notebook(indent=1, sort_keys=True, ensure_ascii=False)
    raw = raw.replace("Café".encode(), b"Caf\\udce9").replace("é".encode(), b"e")
    done = edit_cell(raw, "n.ipynb", "x = 1", "x = 0", False)
    assert done.note == "" and done.data == raw.replace(b'"x = 1\\n"', b'"x = 0\\n"')


def test_a_source_written_as_one_string_stays_one_and_every_copy_in_the_cell_is_replaced():
    data, _ = small_notebook()
    data["cells"][1]["source"] = "x = 1\ny = 2"
    done = edit_cell(json.dumps(data).encode(), "n.ipynb", "= ", "=", True)
    assert json.loads(done.data)["cells"][1]["source"] == "x =1\ny =2"
    lines = json.loads(nbformat.writes(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("a\nb")])))
    lines["cells"][0]["source"] = ["a\n", "b"]
    edited = edit_cell(json.dumps(lines).encode(), "n.ipynb", "b", "c\nd", False)
    assert json.loads(edited.data)["cells"][0]["source"] == ["a\n", "c\n", "d"]


def test_an_edit_that_would_leave_the_notebook_invalid_changes_nothing():
    data, _ = small_notebook()
    del data["cells"][1]["outputs"]  # a code cell must have its outputs
    with pytest.raises(
        ToolError, match=r"the notebook would not be valid after this edit \(.*outputs.*\); it is unchanged"
    ):
        edit_cell(json.dumps(data).encode(), "n.ipynb", "x = 1", "x = 0", False)


def test_what_no_cell_holds_or_several_hold_is_refused_saying_so():
    data, raw = small_notebook()
    data["cells"].append({"cell_type": "markdown", "metadata": {}})  # no source at all
    raw = json.dumps(data).encode()
    for absent in ("None", "XXXX", "output"):
        with pytest.raises(ToolError) as refused:
            edit_cell(raw, "n.ipynb", absent, "x", False)
        assert str(refused.value) == (
            "old_string was not found in any cell's source (outputs cannot be edited); Read the notebook again and "
            "copy the text from one cell."
        )
        assert refused.value.shown == "old_string was not found in any cell of the notebook"
    with pytest.raises(ToolError) as both:
        edit_cell(raw, "n.ipynb", "é", "e", False)
    assert str(both.value) == "ambiguous: old_string is in cells 1, 2; include more of one cell, or edit each in turn."
    assert both.value.shown == "old_string is in several cells (1, 2)"
    with pytest.raises(ToolError, match="not found in any cell"):
        edit_cell(json.dumps({"metadata": {}, "nbformat": 4, "nbformat_minor": 5}).encode(), "n.ipynb", "a", "b", False)
    with pytest.raises(DocumentError, match="n.ipynb is not a valid notebook"):
        edit_cell(b"{", "n.ipynb", "a", "b", False)


def notebook_of(cells: list[dict], **top) -> bytes:
    return json.dumps({"cells": cells, "metadata": {}, **top}).encode()


def test_a_notebook_without_a_version_is_read_as_version_4_and_missing_fields_show_as_nothing():
    cells = [
        {"cell_type": "markdown", "metadata": {}},  # no source
        {"cell_type": "code", "source": ["a = 1\n", "a"], "execution_count": None, "outputs": [
            {"output_type": "stream", "name": "stdout"},  # no text
            {"output_type": "display_data", "metadata": {}},  # no data
            {"output_type": "execute_result", "data": {"image/png": "iVBO"}, "metadata": {}},  # no text/plain
        ]},
    ]  # fmt: skip
    assert notebook_text(notebook_of(cells), "n.ipynb") == (
        "[cell 1: markdown]\n\n[cell 2: code]\na = 1\na\n[output: stream]\n\n[output: display_data]\n\n"
        "[output: execute_result]\n[image/png output, 4 characters]"
    )
    assert notebook_text(notebook_of([]), "n.ipynb") == notebook_text(b'{"nbformat": 4}', "n.ipynb")
    assert notebook_text(b'{"nbformat": 4}', "n.ipynb") == "(a notebook with no cells)"


def test_an_error_output_is_its_traceback_without_colours_or_its_name_and_value():
    traceback = ["\x1b[0;31mNameError\x1b[0m  Traceback", "\x1b[0;31mNameError\x1b[0m: name 'x' is not defined"]
    outputs = [{"output_type": "error", "ename": "NameError", "evalue": "name 'x' is not defined", "traceback": t}
               for t in (traceback, [])]  # fmt: skip
    cells = [{"cell_type": "code", "source": "x", "outputs": outputs, "metadata": {}, "execution_count": 1}]
    assert notebook_text(notebook_of(cells, nbformat=4, nbformat_minor=5), "n.ipynb") == (
        "[cell 1: code, execution 1]\nx\n[output: error]\nNameError  Traceback\nNameError: name 'x' is not defined\n"
        "[output: error]\nNameError: name 'x' is not defined"
    )


def test_an_output_is_cut_past_its_limit_and_the_whole_size_said_counting_what_is_summarised():
    lines = [f"{n:04}\n" for n in range(1000)]  # 5,000 characters in lines of 5
    plain = {"image/png": "iVBO", "text/plain": lines}
    exact = "x" * OUTPUT_CHARS  # as long as the limit: shown whole
    outputs = [{"output_type": "stream", "name": "stdout", "text": lines},
               {"output_type": "stream", "name": "stdout", "text": exact},
               {"output_type": "execute_result", "data": plain, "metadata": {}, "execution_count": 1}]  # fmt: skip
    cells = [{"cell_type": "code", "source": "", "outputs": outputs, "metadata": {}, "execution_count": 1}]
    text = notebook_text(notebook_of(cells, nbformat=4), "n.ipynb")
    shown = "".join(lines)[:OUTPUT_CHARS]
    summary = "[image/png output, 4 characters]"
    assert text == (
        f"[cell 1: code, execution 1]\n\n[output: stream]\n{shown}\n[… output cut: 5,000 characters in all]\n"
        f"[output: stream]\n{exact}\n"
        f"[output: execute_result]\n{(summary + chr(10) + ''.join(lines))[:OUTPUT_CHARS]}\n"
        f"[… output cut: {5000 + len(summary) + 1:,} characters in all]"
    )


def test_an_output_without_plain_text_names_each_of_its_kinds_and_one_with_it_shows_the_text():
    html = "<table><tr><td>1</td></tr></table>"
    outputs = [{"output_type": "display_data", "data": {"text/html": html, "application/json": ["a", "b"]},
                "metadata": {}},
               {"output_type": "execute_result", "data": {"text/html": html, "text/plain": "   a\n0  1"},
                "metadata": {}, "execution_count": 1}]  # fmt: skip
    cells = [{"cell_type": "code", "source": "df", "outputs": outputs, "metadata": {}, "execution_count": 1}]
    assert notebook_text(notebook_of(cells, nbformat=4), "n.ipynb") == (
        "[cell 1: code, execution 1]\ndf\n[output: display_data]\n[text/html output, 34 characters]\n"
        "[application/json output, 2 characters]\n[output: execute_result]\n   a\n0  1"
    )
