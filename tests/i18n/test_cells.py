"""Double-width characters measured as the terminal draws them."""

from hypothesis import given
from hypothesis import strategies as st

from narnat_agent.ui import cells

TEXT = st.text(st.sampled_from(["a", "b", " ", "中", "文", "，", "é", "\u0301", "x"]), max_size=60)


def test_wide_characters_take_two_columns_and_combining_marks_none():
    assert cells.width("abc") == 3
    assert cells.width("中文") == 4
    assert cells.width("全角，") == 6
    assert cells.width("e\u0301") == 1
    assert cells.ljust("中", 4) == "中  "


@given(TEXT, st.integers(min_value=2, max_value=30))
def test_wrapped_lines_fit_and_lose_no_character(text, columns):
    lines = cells.wrap(text, columns)
    assert all(cells.width(line) <= columns or _unbreakable(line) for line in lines)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")


def _unbreakable(line: str) -> bool:
    """A narrow word longer than the width, or a wide character with the punctuation that must stay beside it, is
    kept whole rather than cut."""
    return " " not in line and sum(cells.width(c) == 2 for c in line) <= 2


def test_chinese_text_wraps_between_characters():
    assert cells.wrap("配合 -p：需要确认的命令也直接执行", 12) == ["配合 -p：需", "要确认的命令", "也直接执行"]


def test_a_plain_table_lines_up_columns_holding_chinese():
    import io

    from narnat_agent.ui.plain import PlainUI

    out = io.StringIO()
    PlainUI(out, io.StringIO(), io.StringIO()).table(["名字", "turns", "问题"], [["修复", "3", "x"], ["ab", "12", "y"]])
    rows = out.getvalue().splitlines()
    assert len({cells.width(row[: row.rindex(row.split()[-1])]) for row in rows}) == 1


def test_a_line_that_fills_the_width_exactly_is_not_broken():
    assert cells.wrap("hello world foo", 11) == ["hello world", "foo"]
    assert cells.wrap("ab 中文 x", 7) == ["ab 中文", "x"]


def test_opening_punctuation_stays_with_what_follows_and_closing_with_what_precedes():
    assert cells.wrap("他说（很好）。然后走了", 6) == ["他说", "（很", "好）。", "然后走", "了"]
    assert cells.wrap("中（文", 3) == ["中", "（文"]
    assert cells.wrap("【注意】内容", 4) == ["【注", "意】", "内容"]
    assert cells.wrap("a “引用” b", 5) == ["a “引", "用” b"]
    assert cells.wrap("x，y", 2) == ["x，", "y"]
    assert cells.wrap("，开头", 2) == ["，", "开", "头"]  # nothing before it to hold on to


def test_blank_text_wraps_to_no_line_and_trailing_blanks_are_dropped():
    assert cells.wrap("  ", 3) == [] and cells.wrap("a  ", 5) == ["a"]
    assert cells.wrap("abc def", 3) == ["abc", "def"]


def test_a_narrow_word_is_never_split_and_wide_characters_part_from_it():
    assert cells.wrap("abcdef gh", 4) == ["abcdef", "gh"]  # longer than the width: kept whole
    assert cells.wrap("ab中文", 3) == ["ab", "中", "文"]
    assert cells.wrap("ab（中文）", 4) == ["ab", "（中", "文）"]
    assert cells.wrap("aa bb cc dd", 5) == ["aa bb", "cc dd"]
