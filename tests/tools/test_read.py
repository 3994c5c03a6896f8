import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from narnat_agent.tools.registry import execute
from tests.platforms import NO_BYTE_NAMES, NO_FIFOS, NO_SYMLINKS, shown

pytestmark = pytest.mark.windows  # these must pass on Windows too (docs/windows.md)
PYTHON = Path(sys.executable).as_posix()  # as Bash takes it on Windows too: its backslashes are escapes
# a job's command runs in Bash: on Windows without Git Bash, Narnat's shell is PowerShell, which Wine only stubs
WITH_BASH = pytest.mark.skipif(os.name == "nt" and shutil.which("bash") is None, reason="no Git Bash here")


def read(ws, path, **args):
    return execute("Read", {"file_path": str(path), **args}, ws)


def test_reads_a_whole_file_as_numbered_lines(workspace, project):
    (project / "app.py").write_text("import os\n\nprint(os.name)\n")
    result = read(workspace, "app.py")
    assert result.text == "1\timport os\n2\t\n3\tprint(os.name)\n(End of file - 3 lines)"
    assert result.summary == "Read 3 lines" and not result.is_error
    assert workspace.reads[project / "app.py"].whole


def test_absolute_paths_work_too(workspace, project):
    (project / "a.txt").write_text("x\n")
    assert "1\tx" in read(workspace, project / "a.txt").text


def test_large_file_stops_at_2000_lines_with_a_continuation_hint(workspace, project):
    (project / "big.txt").write_text("".join(f"line {n}\n" for n in range(1, 9121)))
    result = read(workspace, "big.txt")
    tail = "(Showing lines 1-2000 of 9120: the 2000-line limit of one Read; use offset=2001 to continue.)"
    assert result.text.endswith(tail)
    assert "2000\tline 2000" in result.text and "2001\t" not in result.text
    assert not workspace.reads[project / "big.txt"].whole
    following = read(workspace, "big.txt", offset=2001, limit=10)
    assert following.text.splitlines()[0] == "2001\tline 2001"
    assert following.text.endswith("(Showing lines 2001-2010 of 9120, as limit=10 asked; use offset=2011 to continue.)")
    assert read(workspace, "big.txt", offset=9000).text.endswith("(End of file - 9120 lines)")


def test_long_lines_are_cut_and_a_character_budget_keeps_the_page_small(workspace, project):
    (project / "wide.txt").write_text(("x" * 5000 + "\n") * 300)
    result = read(workspace, "wide.txt")
    assert "[line cut: 5000 characters]" in result.text
    assert len(result.text) < 110_000 and "use offset=" in result.text


def test_numbers_and_strings_for_offset_and_limit(workspace, project):
    (project / "n.txt").write_text("a\nb\nc\n")
    assert read(workspace, "n.txt", offset="2", limit="1").text.startswith("2\tb\n(Showing lines 2-2 of 3")


def test_missing_file_suggests_the_closest_names(workspace, project):
    (project / "src").mkdir()
    (project / "src" / "config.py").write_text("")
    result = read(workspace, "src/confg.py")
    assert result.is_error and "does not exist" in result.text and shown("src/config.py") in result.text


def test_a_missing_file_in_a_near_named_folder_suggests_the_file_in_the_folder_that_exists(workspace, project):
    (project / "tests").mkdir()
    (project / "tests" / "__init__.py").write_text("")
    (project / "tests" / "deep").mkdir()
    (project / "tests" / "deep" / "x.py").write_text("")
    result = read(workspace, "test/__init__.py")
    assert result.is_error and result.text.endswith(f"Did you mean: {shown('tests/__init__.py')}?")
    assert read(workspace, "test/deep/x.py").text.endswith(f"Did you mean: {shown('tests/deep/x.py')}?")
    assert "Did you mean" not in read(workspace, "test/other.py").text  # the folder is near, the file is not there


@pytest.mark.skipif(
    sys.platform != "linux" or not os.access("/proc/kmsg", os.R_OK), reason="only root reads /proc/kmsg, on Linux"
)
def test_a_file_whose_read_waits_for_news_is_said_instead_of_waited_for(workspace):
    # a regular file of size 0 whose read waits for the kernel's next message: a headless run hung for ever
    result = read(workspace, "/proc/kmsg")
    assert result.text == "Error: /proc/kmsg cannot be read: it has nothing now and its read would wait for more."


@NO_SYMLINKS
def test_a_loop_of_symbolic_links_is_said_to_be_one_not_missing(workspace, project):
    # it was "loop1 does not exist; did you mean loop1, loop2?"
    (project / "loop1").symlink_to("loop2")
    (project / "loop2").symlink_to("loop1")
    for path in ("loop1", "loop1/x.txt"):
        result = read(workspace, path)
        assert result.text == f"Error: {path} cannot be used: Too many levels of symbolic links."
        assert result.summary == f"{path} cannot be used: Too many levels of symbolic links."


@pytest.mark.skipif(os.name == "nt", reason="Windows has no POSIX file modes to deny a read")
@pytest.mark.skipif(os.name != "nt" and os.geteuid() == 0, reason="root reads files whatever their mode")
def test_permission_denied(workspace, project):
    secret = project / "secret.txt"
    secret.write_text("x")
    secret.chmod(0)
    assert "permission denied" in read(workspace, secret).text


def test_binary_files_are_refused_with_type_and_size(workspace, project):
    (project / "bundle.zip").write_bytes(b"PK\x03\x04" + bytes(3000))
    (project / "blob.bin").write_bytes(bytes(range(256)) * 8)
    archive = read(workspace, "bundle.zip")
    assert archive.is_error and "ZIP archive (2.9 KB)" in archive.text
    (project / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(3000))  # images go to Read's image path
    assert "logo.png is not a readable image" in read(workspace, "logo.png").text
    assert "binary .bin file (2.0 KB)" in read(workspace, "blob.bin").text


def test_utf8_and_legacy_encodings_are_text(workspace, project):
    (project / "zh.txt").write_bytes("你好，世界。这是一个用GBK编码的中文文件。\n".encode("gbk"))
    (project / "u.txt").write_text("naïve café ✓\n", encoding="utf-8")
    assert "你好，世界" in read(workspace, "zh.txt").text
    assert "naïve café ✓" in read(workspace, "u.txt").text


def test_empty_file_says_so(workspace, project):
    (project / "empty.py").write_text("")
    result = read(workspace, "empty.py")
    assert "is empty" in result.text and not result.is_error


def test_offset_past_the_end_says_how_long_the_file_is(workspace, project):
    (project / "short.txt").write_text("a\nb\n")
    result = read(workspace, "short.txt", offset=10)
    assert result.is_error and "has 2 lines; offset=10 is past the end" in result.text


def test_crlf_lines_show_without_carriage_returns(workspace, project):
    (project / "win.txt").write_bytes(b"one\r\ntwo\r\n")
    assert read(workspace, "win.txt").text.startswith("1\tone\n2\ttwo\n")


def test_tab_indented_files_say_so(workspace, project):
    (project / "Makefile").write_text("all:\n\tcc main.c\n")
    result = read(workspace, "Makefile")
    assert "indents with tabs" in result.text and "2\t\tcc main.c" in result.text


def test_external_modification_is_noted_on_the_next_read(workspace, project):
    path = project / "m.txt"
    path.write_text("before\n")
    read(workspace, "m.txt")
    assert "modified externally" not in read(workspace, "m.txt").text
    path.write_text("after\n")
    assert read(workspace, "m.txt").text.startswith("Note: m.txt was modified externally.")


def test_directories_are_listed(workspace, project):
    (project / "pkg").mkdir()
    (project / "pkg" / "sub").mkdir()
    (project / "pkg" / "mod.py").write_text("")
    result = read(workspace, "pkg")
    assert result.text == "Directory pkg/ (2 entries):\nsub/\nmod.py"


@NO_FIFOS
def test_devices_and_pipes_are_refused_instead_of_blocking(workspace, project):
    os.mkfifo(project / "pipe")
    assert "not a regular file" in read(workspace, "pipe").text
    assert "not a regular file" in read(workspace, "/dev/zero").text


def test_huge_files_point_to_grep(workspace, project):
    with open(project / "huge.log", "wb") as f:
        f.truncate(300 * 1024 * 1024)  # sparse: no disk used
    result = read(workspace, "huge.log")
    assert result.is_error and "too large to Read" in result.text and "Grep" in result.text


def test_a_big_file_read_in_consecutive_pages_counts_as_read_whole(workspace, project):
    (project / "big.py").write_text("".join(f"value_{n} = {'x' * 50}\n" for n in range(3000)))
    page = read(workspace, "big.py")
    assert "the 100,000-character limit of one Read" in page.text
    while "use offset=" in page.text:
        assert not workspace.reads[project / "big.py"].whole
        page = read(workspace, "big.py", offset=int(page.text.rsplit("use offset=", 1)[1].split(" ")[0]))
    assert page.text.endswith("(End of file - 3000 lines)")
    assert workspace.reads[project / "big.py"].whole
    assert not execute("Write", {"file_path": "big.py", "content": "short\n"}, workspace).is_error


def test_pages_of_an_older_content_do_not_add_up(workspace, project):
    path = project / "big.txt"
    path.write_text("".join(f"line {n}\n" for n in range(3000)))
    read(workspace, "big.txt", limit=1500)
    path.write_text("".join(f"line {n}\n" for n in range(2999)) + "changed\n")
    read(workspace, "big.txt", offset=1501)
    assert not workspace.reads[path].whole


def test_the_result_names_the_limit_that_applied(workspace, project):
    (project / "long.txt").write_text("".join(f"{n}\n" for n in range(2500)))
    assert "the 2000-line limit of one Read" in read(workspace, "long.txt").text
    asked = read(workspace, "long.txt", limit=10).text
    assert asked.endswith("(Showing lines 1-10 of 2500, as limit=10 asked; use offset=11 to continue.)")


def test_one_read_limit_stated_alike_in_prompt_schema_and_result(workspace, project):
    from narnat_agent.prompts.texts import BASE_PROMPT
    from narnat_agent.tools.read import LIMIT, TOOL

    assert LIMIT == "up to 2000 lines or 100,000 characters, whichever comes first"
    assert LIMIT in BASE_PROMPT and LIMIT in TOOL.description and "500 lines" not in BASE_PROMPT


def test_utf16_with_bom_is_text_and_its_encoding_is_named(workspace, project):
    (project / "win.txt").write_bytes("\ufeffname = 'Zoë'\r\nvalue = 2\r\n".encode("utf-16-le"))
    (project / "be.txt").write_bytes(b"\xfe\xff" + "x = 1\n".encode("utf-16-be"))
    result = read(workspace, "win.txt")
    assert not result.is_error and "1\tname = 'Zoë'\n2\tvalue = 2\n" in result.text
    assert "UTF-16 LE with BOM" in result.text
    assert "UTF-16 BE with BOM" in read(workspace, "be.txt").text


def test_short_latin1_text_falls_back_to_cp1252_and_says_so(workspace, project):
    (project / "fr.txt").write_bytes(b"caf\xe9\nna\xefve\n")
    result = read(workspace, "fr.txt")
    assert "1\tcafé\n2\tnaïve\n" in result.text
    assert "cp1252" in result.text and "not UTF-8" in result.text
    (project / "u.txt").write_text("café\n", encoding="utf-8")
    assert "UTF-8" not in read(workspace, "u.txt").text


def test_bytes_outside_cp1252_fall_back_to_latin1(workspace, project):
    (project / "odd.txt").write_bytes(b"a\x81b \xe9\n")
    result = read(workspace, "odd.txt")
    assert "1\ta\x81b é" in result.text and "latin-1" in result.text


@NO_BYTE_NAMES
def test_non_utf8_names_appear_escaped_in_listings_and_hints(workspace, project):
    raw = os.fsencode(project) + b"/caf\xe9.py"
    with open(raw, "wb") as f:
        f.write(b"x = 1\n")
    listing = read(workspace, ".")
    assert "caf\\xe9.py" in listing.text
    listing.text.encode("utf-8")  # no lone surrogate can reach the history
    hint = read(workspace, "cafe.py")
    assert "Did you mean: caf\\xe9.py?" in hint.text
    hint.text.encode("utf-8")
    assert read(workspace, "caf\\xe9.py").text.startswith("1\tx = 1")  # the shown name reads the file


def test_a_short_ascii_like_text_is_never_taken_for_utf16_without_a_bom(workspace, project):
    (project / "x.txt").write_bytes(b"k0 = ====aaa\xe0\x80")
    assert "1\tk0 = ====aaaà€" in read(workspace, "x.txt").text


def test_pages_read_before_a_session_was_saved_still_count(workspace, project):
    import dataclasses
    import json

    from narnat_agent.tools.workspace import FileRecord

    path = project / "big.txt"
    path.write_text("".join(f"line {n}\n" for n in range(3000)))
    read(workspace, "big.txt", limit=1500)
    saved = json.loads(json.dumps(dataclasses.asdict(workspace.reads[path])))  # as a session keeps it
    workspace.reads[path] = FileRecord(**saved)
    read(workspace, "big.txt", offset=1501)
    assert workspace.reads[path].whole


def test_a_binary_file_that_starts_like_a_bom_is_still_binary(workspace, project):
    (project / "data.bin").write_bytes(b"\xff\xfe" + bytes(range(256)) * 4)
    assert "binary .bin file" in read(workspace, "data.bin").text


def test_a_limit_beyond_one_read_is_cut_by_the_read_limit_and_says_which(workspace, project):
    (project / "short.txt").write_text("".join(f"{n}\n" for n in range(3000)))
    (project / "wide.txt").write_text("".join(f"{n} {'x' * 60}\n" for n in range(3000)))
    assert (
        "(Showing lines 1-2000 of 3000: the 2000-line limit of one Read;"
        in read(workspace, "short.txt", limit=2500).text
    )
    assert "the 100,000-character limit of one Read" in read(workspace, "wide.txt", limit=3000).text


def test_a_file_replaced_from_outside_is_decoded_afresh(workspace, project):
    path = project / "notes.txt"
    path.write_bytes(b"caf\xe9\n")
    assert "cp1252" in read(workspace, "notes.txt").text
    path.write_bytes("这是一个用GBK编码的中文文件，内容足够长以便检测。\n".encode("gbk"))
    assert "这是一个用GBK编码的中文文件" in read(workspace, "notes.txt").text


def test_pages_read_around_an_edit_still_add_up(workspace, project):
    path = project / "big.txt"
    path.write_text("".join(f"line {n}\n" for n in range(1, 3001)))
    read(workspace, "big.txt", limit=1500)
    execute("Edit", {"file_path": "big.txt", "old_string": "line 10\n", "new_string": "line 10\nline 10b\n"}, workspace)
    assert not workspace.reads[path].whole
    assert read(workspace, "big.txt", offset=1502).text.endswith("(End of file - 3001 lines)")
    assert workspace.reads[path].whole


def test_an_edit_of_lines_never_read_does_not_count_them_as_seen(workspace, project):
    path = project / "big.txt"
    path.write_text("".join(f"line {n}\n" for n in range(1, 3001)))
    read(workspace, "big.txt", limit=100)
    execute("Edit", {"file_path": "big.txt", "old_string": "line 2000\n", "new_string": "two thousand\n"}, workspace)
    read(workspace, "big.txt", offset=101, limit=1899)  # lines 101-1999
    read(workspace, "big.txt", offset=2001)
    assert not workspace.reads[path].whole  # line 2000 was written, never shown
    read(workspace, "big.txt", offset=2000, limit=1)
    assert workspace.reads[path].whole


def test_a_listing_names_its_entries_folders_first_and_counts_what_it_leaves_out(workspace, project):
    (project / "many").mkdir()
    for n in range(500):
        (project / "many" / f"f{n:03d}.txt").touch()
    assert read(workspace, "many").text.splitlines()[-1] == "f499.txt"  # exactly the limit: nothing more to say
    (project / "many" / "zdir").mkdir()
    result = read(workspace, "many")
    lines = result.text.splitlines()
    assert lines[:3] == ["Directory many/ (501 entries):", "zdir/", "f000.txt"]
    assert lines[-2:] == ["f498.txt", "... 1 more entries; use Glob to narrow"] and len(lines) == 502
    assert result.summary == "Listed 501 entries"
    (project / "one").mkdir()
    (project / "one" / "a.txt").touch()
    assert read(workspace, "one").summary == "Listed 1 entry"
    (project / "none").mkdir()
    assert read(workspace, "none").text == "Directory none/ (0 entries):\n(empty directory)"


def test_what_cannot_be_read_is_said_in_one_sentence(workspace, project):
    with open(project / "huge.log", "wb") as f:
        f.truncate(300 * 1024 * 1024)
    assert (
        read(workspace, "huge.log").text
        == "Error: huge.log is 300.0 MB, too large to Read; search it with Grep instead."
    )
    (project / "bundle.zip").write_bytes(b"PK\x03\x04" + bytes(3000))
    refused = read(workspace, "bundle.zip")
    assert refused.text == "Error: bundle.zip is a ZIP archive (2.9 KB); Read shows text files only."
    assert refused.summary == "bundle.zip is a ZIP archive, not text"
    (project / "short.txt").write_text("a\nb\n")
    past = read(workspace, "short.txt", offset=3)
    assert past.text == "Error: short.txt has 2 lines; offset=3 is past the end."
    assert past.summary == "short.txt has 2 lines; offset=3 is past the end"
    assert read(workspace, "short.txt", offset=2).text == "2\tb\n(End of file - 2 lines)"


@NO_FIFOS
def test_a_pipe_is_refused_in_one_sentence(workspace, project):
    os.mkfifo(project / "pipe")
    assert read(workspace, "pipe").text == (
        "Error: pipe is not a regular file (a device, pipe or socket); Read shows files only."
    )


def test_an_empty_file_is_read_whole(workspace, project):
    (project / "empty.py").write_text("")
    result = read(workspace, "empty.py")
    assert (result.text, result.summary) == ("empty.py is empty (0 bytes).", "Read 0 lines (empty file)")
    assert workspace.reads[project / "empty.py"].whole
    (project / "empty.py").write_text("x\n")
    read(workspace, "empty.py")
    (project / "empty.py").write_text("")
    assert read(workspace, "empty.py").text == "Note: empty.py was modified externally.\nempty.py is empty (0 bytes)."


def test_summaries_count_the_lines_shown(workspace, project):
    (project / "three.txt").write_text("a\nb\nc")
    assert read(workspace, "three.txt").summary == "Read 3 lines"
    assert read(workspace, "three.txt", limit=1).summary == "Read 1 line of 3"
    assert read(workspace, "three.txt", offset=2).summary == "Read 2 lines of 3"
    (project / "one.txt").write_text("a\n")
    assert read(workspace, "one.txt").summary == "Read 1 line"
    (project / "gbk.txt").write_bytes(b"caf\xe9\n")
    assert read(workspace, "gbk.txt").summary == "Read 1 line"


def test_a_negative_offset_reads_the_last_lines(workspace, project):
    (project / "log.txt").write_text("".join(f"line {n}\n" for n in range(1, 6)))
    assert read(workspace, "log.txt", offset=-2).text == "4\tline 4\n5\tline 5\n(End of file - 5 lines)"
    assert read(workspace, "log.txt", offset=-2, limit=1).text.endswith("use offset=5 to continue.)")
    assert read(workspace, "log.txt", offset=-9).text.startswith("1\tline 1\n")  # more than there are: all of them
    (project / "latin1.txt").write_bytes(b"caf\xe9\nth\xe9\n")  # not UTF-8: decoded whole, not paged from the disk
    assert read(workspace, "latin1.txt", offset=-1).text.endswith("2\tth\u00e9\n(End of file - 2 lines)")


def test_reads_schema_says_a_negative_offset_reads_the_last_lines():
    from narnat_agent.tools.read import TOOL

    assert "-N reads the last N lines" in TOOL.parameters["properties"]["offset"]["description"]


def test_offset_zero_and_limit_zero_mean_from_the_start_and_no_limit(workspace, project):
    (project / "n.txt").write_text("a\nb\nc\n")
    assert read(workspace, "n.txt", offset=0, limit=0).text == "1\ta\n2\tb\n3\tc\n(End of file - 3 lines)"
    assert read(workspace, "n.txt", offset=0).summary == "Read 3 lines"
    assert read(workspace, "n.txt", offset=0, limit=2).text == (
        "1\ta\n2\tb\n(Showing lines 1-2 of 3, as limit=2 asked; use offset=3 to continue.)"
    )
    assert read(workspace, "n.txt", limit=3).text.endswith("(End of file - 3 lines)")
    assert read(workspace, "n.txt", limit=2).text == (
        "1\ta\n2\tb\n(Showing lines 1-2 of 3, as limit=2 asked; use offset=3 to continue.)"
    )


def test_a_long_line_shows_its_first_2000_characters_and_its_length(workspace, project):
    (project / "wide.txt").write_text("a" * 1999 + "bc\n" + "x" * 2000 + "\n")
    lines = read(workspace, "wide.txt").text.splitlines()
    assert lines[0] == "1\t" + "a" * 1999 + "b… [line cut: 2001 characters]"
    assert lines[1] == "2\t" + "x" * 2000


def test_the_character_budget_takes_a_page_of_exactly_100000_characters_and_no_more(workspace, project):
    # each of lines 1-99 shown as 999 characters and a newline, line 100 as 1,000: the page is 100,000 exactly
    lines = ["x" * (998 - len(str(n))) for n in range(1, 100)] + ["y" * 996, "z"]
    (project / "w.txt").write_text("".join(f"{line}\n" for line in lines))
    text = read(workspace, "w.txt").text
    assert text.endswith(
        "\n100\t" + "y" * 996 + "\n(Showing lines 1-100 of 101: the 100,000-character limit of one Read; use "
        "offset=101 to continue.)"
    )


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="reads /proc/self/mem, which fails with EIO")
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a file that exists but cannot be read: Linux's")
def test_a_file_the_system_cannot_read_is_said_in_one_sentence(workspace):
    assert read(workspace, "/proc/self/mem").text == "Error: /proc/self/mem cannot be read: Input/output error."


def test_an_image_is_shown_to_a_model_that_sees(workspace, project):
    from PIL import Image

    Image.new("RGB", (4, 2), "white").save(project / "DOT.PNG")
    size = (project / "DOT.PNG").stat().st_size  # as this zlib compresses it
    assert read(workspace, "DOT.PNG").text == (
        f"DOT.PNG: PNG image, 4x2 pixels, {size} bytes. This model cannot see images (sees_images is false in the "
        "configuration)."
    )
    workspace.sees_images = True
    result = read(workspace, "DOT.PNG")
    assert result.text.endswith("The image follows in the next message.") and result.picture is not None


def test_the_notes_of_a_file_that_is_not_utf8_and_indents_with_tabs(workspace, project):
    (project / "Makefile").write_bytes(b"caf\xe9:\n\tcc x.c\n")
    assert read(workspace, "Makefile").text == (
        "(This file is not UTF-8: it is shown as cp1252, a guess: the encoding could not be detected with "
        "confidence; Edit and Write keep its encoding.)\n"
        "(This file indents with tabs: each line number is followed by one tab, then the line as it is.)\n"
        "1\tcafé:\n2\t\tcc x.c\n(End of file - 2 lines)"
    )
    (project / "spaces.py").write_text("x = 1\n    y\n")
    assert read(workspace, "spaces.py").text == "1\tx = 1\n2\t    y\n(End of file - 2 lines)"


def test_a_file_changed_from_outside_in_another_encoding_is_noted(workspace, project):
    (project / "fr.txt").write_bytes(b"caf\xe9\n")
    read(workspace, "fr.txt")
    assert "modified externally" not in read(workspace, "fr.txt").text
    (project / "fr.txt").write_bytes(b"th\xe9\n")
    assert read(workspace, "fr.txt").text.startswith("Note: fr.txt was modified externally.\n(This file is not UTF-8")


def test_a_notebook_and_a_pdf_in_capitals_are_documents(workspace, project):
    import json

    cell = {"cell_type": "code", "source": ["print(1)\n"], "metadata": {}, "outputs": [], "execution_count": None}
    notebook = {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (project / "NB.IPYNB").write_text(json.dumps(notebook))
    assert "print(1)" in read(workspace, "NB.IPYNB").text
    (project / "broken.ipynb").write_text("{")
    broken = read(workspace, "broken.ipynb")
    assert broken.is_error and broken.text.startswith("Error: broken.ipynb")
    assert "Traceback" not in broken.text


def job_log(workspace, code):
    """A background job running code, and its log's path as the model names it."""
    execute("Bash", {"command": f'{PYTHON} -c "{code}"', "run_in_background": True}, workspace)
    job = workspace.jobs.started[-1]
    return job, workspace.show(job.log)


def finished(job) -> None:
    """The job ended and its output all in its log: a loaded machine (Wine's) may copy it after the second a Read
    waits for it."""
    job.process.wait()
    job.output.thread.join(30)


@WITH_BASH
def test_a_running_jobs_log_says_it_grows_and_an_ended_ones_how_it_ended(workspace, project):
    job, log = job_log(workspace, "import time; time.sleep(60)")
    try:
        running = read(workspace, log)
        assert (
            running.text.endswith("\nJob 1 is still running: this file grows; Read it again later for more.")
            and running.verification is None
        )
    finally:
        workspace.jobs.stop_all()
    # the other job starts last: no Bash result after it can have told its end before the Read does
    ended, log = job_log(workspace, "print('done')")
    other, _ = job_log(workspace, "print('other')")
    finished(other)
    finished(ended)
    result = read(workspace, log)
    command = f"{PYTHON} -c \"print('done')\""
    assert result.text == (
        f"1\tdone\n(End of file - 1 lines)\nJob 2 ({command}) exited with code 0.\n"
        f"(background job 3 ({other.command}) exited with code 0)"
    )
    assert read(workspace, log).text == f"1\tdone\n(End of file - 1 lines)\nJob 2 ({command}) exited with code 0."


@WITH_BASH
def test_a_jobs_log_is_shown_without_the_colours_its_command_wrote_for_a_terminal(workspace, project):
    job, log = job_log(workspace, "print('\\x1b[32mPASSED\\x1b[0m test_x')")
    finished(job)
    assert "\x1b[32mPASSED" in job.log.read_text()  # the log keeps them; the model is shown the text alone
    result = read(workspace, log)
    assert result.text == f"1\tPASSED test_x\n(End of file - 1 lines)\nJob 1 ({job.command}) exited with code 0."


@WITH_BASH
def test_a_page_of_a_jobs_log_counts_as_read_to_its_last_line_only(workspace, project):
    job, log = job_log(workspace, "print('a'); print('b'); print('c'); print('d')")
    finished(job)
    page = read(workspace, log, offset=2, limit=1)
    assert page.text.startswith("2\tb\n(Showing lines 2-2 of 4, as limit=1 asked; use offset=3 to continue.)")
    done = execute("Bash", {"command": "wait %1", "timeout": 30_000}, workspace)
    assert done.text.startswith("(its output from line 3 of its log, after what was already seen)\nc\nd\n(job 1 ")


def test_a_pdf_is_read_as_its_pages_text_and_a_scanned_one_says_it_has_none(workspace, project):
    from PIL import Image

    from tests.tools.test_documents import text_pdf

    (project / "REPORT.PDF").write_bytes(text_pdf(["Revenue grew"]))
    assert read(workspace, "REPORT.PDF").text == "1\t--- page 1 of 1 ---\n2\tRevenue grew\n(End of file - 2 lines)"
    Image.new("RGB", (20, 10), "white").save(project / "scan.pdf")
    scanned = read(workspace, "scan.pdf")
    assert scanned.text == (
        "scan.pdf is a PDF with no text layer (a scanned document?): Read cannot see the text in images of pages."
    )
    assert scanned.summary == "PDF without text" and workspace.reads[project / "scan.pdf"].whole
    (project / "broken.pdf").write_bytes(b"%PDF-1.4\nnot really\n")
    assert read(workspace, "broken.pdf").text.startswith("Error: broken.pdf is not a readable PDF (")


@WITH_BASH
def test_a_jobs_log_that_grew_is_not_said_to_be_modified_externally(workspace, project):
    job, log = job_log(workspace, "print('one')")
    finished(job)
    assert read(workspace, log).text.startswith("1\tone\n")
    with open(job.log, "a") as f:
        f.write("two\n")
    assert read(workspace, log).text.startswith("1\tone\n2\ttwo\n(End of file - 2 lines)\nJob 1 (")


@pytest.mark.slow
def test_a_jobs_log_leaves_out_its_own_end_only_not_that_of_a_job_whose_number_starts_alike(workspace, project):
    def spawn(tag: str) -> subprocess.Popen:
        return subprocess.Popen([sys.executable, "-c", "print('x')"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    jobs = [workspace.jobs.start("print x", project / f"job{n}.log", spawn) for n in range(1, 11)]
    for job in jobs:
        finished(job)
    text = read(workspace, "job1.log").text
    assert "\nJob 1 (print x) exited with code 0.\n" in text and "(background job 1 " not in text
    assert "(background job 10 (print x) exited with code 0)" in text.splitlines()
