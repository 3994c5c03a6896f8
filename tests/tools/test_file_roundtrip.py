"""Read, then Edit or Write as a model does (copying what Read showed), over generated files in many encodings
and line endings: every byte the change did not touch stays as it was."""

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from narnat_agent.tools.registry import execute
from narnat_agent.tools.workspace import Workspace

ENCODINGS = {  # codec, byte-order mark, characters a file in it might hold
    "utf-8": ("utf-8", b"", "éü€你好こんにちは✓"),
    "utf-8 with BOM": ("utf-8", b"\xef\xbb\xbf", "éü€你好✓"),
    "UTF-16 LE": ("utf-16-le", b"\xff\xfe", "éü€你好こん✓"),
    "UTF-16 BE": ("utf-16-be", b"\xfe\xff", "éü€你好こん✓"),
    "latin-1": ("latin-1", b"", "éàüßçñÅæø"),
    "cp1252": ("cp1252", b"", "éàü€‘’“”–…"),
    "gbk": ("gbk", b"", "你好世界中文编码测试标题"),
    "shift_jis": ("shift_jis", b"", "こんにちは日本語テスト設定"),
}
BOUNDED = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@st.composite
def text_file(draw):
    name = draw(st.sampled_from(sorted(ENCODINGS)))
    codec, bom, chars = ENCODINGS[name]
    words = st.text(alphabet=chars + "abc xyz_=()'", min_size=0, max_size=30)
    lines = [f"k{i} = {draw(words)}".rstrip() for i in range(draw(st.integers(1, 30)))]
    ending = draw(st.sampled_from(["\n", "\r\n"]))
    final = draw(st.booleans())
    data = bom + (ending.join(lines) + (ending if final else "")).encode(codec)
    return data, codec, bom, lines, ending, final, draw(st.integers(0, len(lines) - 1))


def shown_lines(read_text: str) -> dict[int, str]:
    return {int(m[1]): m[2] for m in re.finditer(r"^(\d+)\t(.*)$", read_text, re.MULTILINE)}


def expected(codec, bom, lines, ending, final, changed: set[int]) -> bytes:
    lines = [line + " # ok" if i in changed else line for i, line in enumerate(lines)]
    return bom + (ending.join(lines) + (ending if final else "")).encode(codec)


def setup(tmp_path_factory, data):
    root = tmp_path_factory.mktemp("p")
    ws = Workspace(root, root / ".narnat", confirm=None)
    (root / "f.txt").write_bytes(data)
    seen = execute("Read", {"file_path": "f.txt"}, ws)
    assert not seen.is_error, seen.text
    return root, ws, shown_lines(seen.text)


@pytest.mark.slow
@BOUNDED
@given(case=text_file())
def test_edit_keeps_every_byte_it_did_not_change(tmp_path_factory, case):
    data, codec, bom, lines, ending, final, k = case
    root, ws, shown = setup(tmp_path_factory, data)
    old = shown[k + 1]
    result = execute("Edit", {"file_path": "f.txt", "old_string": old, "new_string": old + " # ok"}, ws)
    assert not result.is_error, result.text
    assert (root / "f.txt").read_bytes() == expected(codec, bom, lines, ending, final, {k})


@pytest.mark.slow
@BOUNDED
@given(case=text_file())
def test_write_after_an_edit_keeps_every_byte_it_did_not_change(tmp_path_factory, case):
    """The text the model saw stays valid after its own Edit: a new guess at the encoding cannot intervene."""
    data, codec, bom, lines, ending, final, k = case
    root, ws, shown = setup(tmp_path_factory, data)
    first = shown[1]
    execute("Edit", {"file_path": "f.txt", "old_string": first, "new_string": first + " # ok"}, ws)
    model = [shown[n] + (" # ok" if n in (1, k + 1) else "") for n in sorted(shown)]
    result = execute("Write", {"file_path": "f.txt", "content": "\n".join(model) + ("\n" if final else "")}, ws)
    assert not result.is_error, result.text
    assert (root / "f.txt").read_bytes() == expected(codec, bom, lines, ending, final, {0, k})


@st.composite
def reads_and_edits(draw):
    lines = draw(st.integers(1, 60))
    steps = draw(st.lists(st.tuples(st.booleans(), st.integers(0, 10**6), st.integers(0, 3), st.integers(1, 40)),
                          min_size=1, max_size=12))  # fmt: skip
    return lines, steps


@pytest.mark.slow
@BOUNDED
@given(case=reads_and_edits())
def test_whole_read_status_follows_what_the_model_has_seen(tmp_path_factory, case):
    """Pages and the model's own edits, in any order: the file counts as read whole exactly when every line of
    its current content was shown by a Read, or written by an Edit over lines that had been shown."""
    count, steps = case
    root = tmp_path_factory.mktemp("p")
    ws = Workspace(root, root / ".narnat", confirm=None)
    path = root / "f.txt"
    path.write_text("".join(f"line {n}\n" for n in range(count)))
    current = [f"line {n}" for n in range(count)]
    seen = [False] * count
    execute("Read", {"file_path": "f.txt", "limit": 1}, ws)  # Edit needs a Read first
    seen[0] = True
    for n, (is_read, where, grow, limit) in enumerate(steps):
        k = where % len(current)
        if is_read:
            execute("Read", {"file_path": "f.txt", "offset": k + 1, "limit": limit}, ws)
            seen[k : k + limit] = [True] * len(seen[k : k + limit])
            continue
        new = [f"edit {n} {i}" for i in range(grow)]  # grow=0 deletes the line
        old = current[k] + "\n"
        result = execute(
            "Edit", {"file_path": "f.txt", "old_string": old, "new_string": "".join(s + "\n" for s in new)}, ws
        )
        assert not result.is_error, result.text
        current[k : k + 1], seen[k : k + 1] = new, [seen[k]] * len(new)
        if not current:
            return
    assert ws.reads[path].whole == all(seen)
