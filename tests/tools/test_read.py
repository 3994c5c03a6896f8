import os

import pytest

from narnat_agent.tools.registry import execute
from tests.platforms import NO_BYTE_NAMES, NO_FIFOS, shown

pytestmark = pytest.mark.windows  # these must pass on Windows too (docs/windows.md)


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
