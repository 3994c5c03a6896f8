"""Read pages a UTF-8 file from the disk in pieces: the page, the line count and what the model is known to have
seen are those of the text read whole, wherever the pieces cut it."""

import io

from hypothesis import given, settings
from hypothesis import strategies as st

from narnat_agent.tools.files.textfile import digest
from narnat_agent.tools.read.lines import PIECE, numbered, pieces, scan
from narnat_agent.tools.registry import execute


def whole_lines(text: str, start: int, shown: int) -> list[tuple[int, str, int]]:
    """The lines as Read numbered them when it held the text whole."""
    out, pos, n = [], 0, 1
    while pos < len(text):
        end = text.find("\n", pos)
        end = len(text) if end < 0 else end
        stop = end - 1 if end > pos and text[end - 1] == "\r" else end
        if n >= start:
            out.append((n, text[pos : min(stop, pos + shown + 1)], stop - pos))
        pos, n = end + 1, n + 1
    return out


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet="ab\r\n\té", max_size=60), cuts=st.lists(st.integers(0, 60), max_size=6),
       start=st.integers(1, 8), shown=st.integers(0, 6))  # fmt: skip
def test_lines_in_pieces_cut_anywhere_are_the_lines_of_the_whole_text(text, cuts, start, shown):
    bounds = sorted({0, len(text), *(c for c in cuts if c <= len(text))})
    pieces = [text[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]
    assert list(numbered(pieces, start, shown)) == whole_lines(text, start, shown)


def read(ws, path, **args):
    return execute("Read", {"file_path": str(path), **args}, ws)


def test_a_file_larger_than_a_piece_pages_as_a_whole_one(workspace, project):
    # a line break's \r and \n, and a two-byte character, each split where one piece of the file ends
    data = ("x" * (PIECE - 1) + "\r\n" + "y" * (PIECE - 2) + "é" + "\r\nlast\r\n").encode()
    assert data[PIECE - 1 : PIECE + 1] == b"\r\n" and data[2 * PIECE - 1 : 2 * PIECE + 1] == "é".encode()
    (project / "big.txt").write_bytes(data)
    first = read(workspace, "big.txt")
    assert first.text.startswith("1\t" + "x" * 2000 + f"… [line cut: {PIECE - 1} characters]\n2\t" + "y" * 2000)
    assert first.text.endswith("\n3\tlast\n(End of file - 3 lines)")
    assert workspace.reads[project / "big.txt"].sha == digest(data) and workspace.reads[project / "big.txt"].whole
    second = read(workspace, "big.txt", offset=2, limit=1)
    assert second.text == "2\t" + "y" * 2000 + f"… [line cut: {PIECE - 1} characters]\n" \
        "(Showing lines 2-2 of 3, as limit=1 asked; use offset=3 to continue.)"  # fmt: skip


def test_a_utf8_file_with_a_byte_order_mark_pages_without_it(workspace, project):
    (project / "bom.txt").write_bytes(b"\xef\xbb\xbfone\ntwo")
    assert read(workspace, "bom.txt").text == "1\tone\n2\ttwo\n(End of file - 2 lines)"
    assert workspace.reads[project / "bom.txt"].sha == digest(b"\xef\xbb\xbfone\ntwo")


def test_a_file_that_is_only_a_byte_order_mark_has_no_lines(workspace, project):
    (project / "mark.txt").write_bytes(b"\xef\xbb\xbf")
    assert read(workspace, "mark.txt").text == "Error: mark.txt has 0 lines; offset=1 is past the end."


def test_a_large_file_that_is_not_utf8_past_its_first_piece_is_decoded_whole(workspace, project):
    (project / "legacy.txt").write_bytes(b"a" * (PIECE + 10) + b"\ncaf\xe9\n")
    result = read(workspace, "legacy.txt", offset=2)
    assert "2\tcafé\n" in result.text and "not UTF-8" in result.text


def test_a_file_cut_in_the_middle_of_a_character_is_not_taken_for_utf8(workspace, project):
    (project / "cut.txt").write_bytes(b"caf\xc3")
    result = read(workspace, "cut.txt")
    assert "not UTF-8" in result.text and "1\tcaf\u00c3" in result.text


class Pieces(io.BytesIO):
    """A file that remembers how much each read asked for: the pieces are what keeps a large file out of memory."""

    def __init__(self, data: bytes) -> None:
        super().__init__(data)
        self.asked: list[int | None] = []

    def read(self, size: int | None = -1) -> bytes:
        self.asked.append(size)
        return super().read(size)


def test_a_file_is_scanned_and_paged_a_piece_at_a_time():
    file = Pieces(b"a" * (PIECE + 5) + b"\n")
    assert scan(file) is not None and file.asked and all(size == PIECE for size in file.asked)
    file.asked.clear()
    assert "".join(pieces(file, b"")) == "a" * (PIECE + 5) + "\n"
    assert file.asked and all(size == PIECE for size in file.asked)


def test_a_byte_order_mark_at_the_start_of_a_later_piece_is_text_not_the_files_mark():
    data = b"x" * (PIECE - 1) + b"\n" + "\ufeff".encode()
    found = scan(io.BytesIO(data))
    assert found is not None and found.bom == b"" and found.total == 2
