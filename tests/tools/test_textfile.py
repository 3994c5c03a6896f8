"""How a file's bytes become text and back: its encoding, its line ending, its size, and when it is binary."""

from pathlib import Path

from narnat_agent.tools.files.textfile import (
    Encoding,
    binary_kind,
    decode,
    line_count,
    line_ending,
    size_text,
    with_ending,
)


def test_a_size_is_said_in_the_largest_unit_under_1024():
    assert [size_text(n) for n in (0, 1023, 1024, 1536, 1024**2 - 1, 1024**2, 5 * 1024**3, 2048 * 1024**3)] == [
        "0 bytes", "1023 bytes", "1.0 KB", "1.5 KB", "1024.0 KB", "1.0 MB", "5.0 GB", "2048.0 GB"
    ]  # fmt: skip


def test_line_endings_are_told_and_kept():
    assert [line_ending(t) for t in ("a\nb\n", "", "one\r\n", "a\r\nb\r\n", "a\r\nb\n")] == [
        "\n",
        "\n",
        "\r\n",
        "\r\n",
        None,
    ]
    assert with_ending("a\nb\r\nc", "\r\n") == "a\r\nb\r\nc"
    assert with_ending("a\r\nb\nc", "\n") == "a\nb\nc"
    assert with_ending("a\r\nb\nc", None) == "a\r\nb\nc"  # a mixed file gets the text as sent
    assert [line_count(t) for t in ("", "a", "a\n", "a\nb")] == [0, 1, 1, 2]


def test_a_file_is_binary_by_its_nul_bytes_or_its_share_of_control_characters():
    assert binary_kind(b"\x00\x01\x02", Path("blob")) == "binary file"
    assert binary_kind(b"ab\x00", Path("blob.dat")) == "binary .dat file"
    assert binary_kind(b"a\x01" + b"b" * 98, Path("a.txt")) is None  # one control character in a hundred
    assert binary_kind(b"\x01\x02" + b"a" * 8, Path("a.txt")) is None  # 20 %
    assert binary_kind(b"\x01\x02\x03" + b"a" * 7, Path("a.txt")) is None  # 30 %: still text
    assert binary_kind(b"\x01\x02\x03\x04" + b"a" * 6, Path("a.txt")) == "binary .txt file"  # 40 %
    # UTF-16 text cut in the middle of a character at the end of the head read is still text
    assert binary_kind(b"\xff\xfe" + "hello".encode("utf-16-le") + b"h", Path("a.txt")) is None


def test_the_encoding_of_a_file_is_its_mark_else_utf8_else_the_one_seen_else_detected_else_a_guess():
    assert decode(b"plain") == ("plain", Encoding())
    assert decode(b"\xef\xbb\xbfhi") == ("hi", Encoding("utf-8", b"\xef\xbb\xbf", "UTF-8 with BOM"))
    assert decode(b"\xff\xfeh\x00i\x00") == ("hi", Encoding("utf-16-le", b"\xff\xfe", "UTF-16 LE with BOM"))
    # UTF-32 LE's mark begins with UTF-16 LE's: the longer mark is the file's
    utf32 = b"\xff\xfe\x00\x00" + "héllo\n".encode("utf-32-le")
    assert decode(utf32) == ("héllo\n", Encoding("utf-32-le", b"\xff\xfe\x00\x00", "UTF-32 LE with BOM"))
    assert binary_kind(utf32, Path("a.txt")) is None
    assert decode(b"caf\xe9", seen_as="latin-1") == ("café", Encoding("latin-1", label="latin-1"))
    guess = "cp1252, a guess: the encoding could not be detected with confidence"
    assert decode(b"caf\xe9") == ("café", Encoding("cp1252", label=guess))
    chinese = "这是一个用于测试的中文文本，包含了常用的汉字和标点符号。我们希望检测器能够准确地识别它的编码。" * 10
    assert decode(chinese.encode("gbk")) == (chinese, Encoding("gb18030", label="gb18030"))  # detected: no guess
