"""Edit's slips, generated: an old_string with an indentation, typography or line-ending slip, and a new_string that
is either right or carries the same slip, must give the file the exact edit gives. Never a third result."""

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from narnat_agent.tools.registry import execute
from narnat_agent.tools.workspace import Workspace

CURLY = str.maketrans({'"': "“", "'": "’"})
BOUNDED = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@st.composite
def python_block(draw) -> list[str]:
    """Python-like lines, 4 spaces a level, each line unique (a counter in every name)."""
    lines, level = [], 0
    for k in range(draw(st.integers(4, 16))):
        kind = draw(st.sampled_from(["def", "if", "assign", "call", "return", "blank"]))
        pad = "    " * level
        if kind == "blank":
            lines.append("")
            continue
        lines.append(
            {
                "def": f"{pad}def f_{k}(a, b='x{k}'):",
                "if": f"{pad}if a_{k} > {k}:",
                "assign": f'{pad}x_{k} = call_{k}(a, "s{k}")',
                "call": f"{pad}log_{k}('done {k}')",
                "return": f"{pad}return x_{k}",
            }[kind]
        )
        if kind in ("def", "if"):
            level += 1
        elif level:
            level = draw(st.integers(0, level))
    return lines


def change(draw, lines: list[str]) -> list[str]:
    """What the model makes of the lines: a renamed line, a deleted one, an inserted one, or all three."""
    new = list(lines)
    filled = [i for i, line in enumerate(new) if line.strip()]
    for kind in draw(st.lists(st.sampled_from(["rename", "delete", "insert"]), min_size=1, max_size=3)):
        if not filled:
            break
        i = draw(st.sampled_from(filled))
        if kind == "rename":
            new[i] = new[i].replace("_", "_new_", 1)
        elif kind == "delete":
            del new[i]
        else:
            pad = new[i][: len(new[i]) - len(new[i].lstrip())]
            new.insert(i + 1, f"{pad}added_{i} = {i}")
        filled = [i for i, line in enumerate(new) if line.strip()]
    return new


def slip(kind: str, amount: int, typography: bool, lines: list[str]) -> list[str]:
    """The lines with an indentation slip (kind), and curly quotes too if typography."""

    def one(line: str) -> str:
        if not line.strip():
            return line
        line = line.translate(CURLY) if typography else line
        if kind == "dedent":
            return line[amount:]
        if kind == "indent":
            return " " * amount + line
        if kind == "tabs":
            body = line.lstrip(" ")
            return "\t" * ((len(line) - len(body)) // 4) + body
        return line

    return [one(line) for line in lines]


@st.composite
def slipped_edit(draw):
    lines = draw(python_block())
    filled = [i for i, line in enumerate(lines) if line.strip()]
    assume(filled)
    first = draw(st.sampled_from(filled))
    last = draw(st.integers(first, min(first + 5, len(lines) - 1)))
    block = lines[first : last + 1]
    new_block = change(draw, block)
    indents = [len(line) - len(line.lstrip()) for line in block if line.strip()]
    kinds = ["none", "indent"] + (["dedent", "tabs"] if min(indents) > 0 else [])
    kind = draw(st.sampled_from(kinds))
    typography = kind == "none" or draw(st.booleans())
    amount = draw(st.integers(1, min(indents))) if kind == "dedent" else draw(st.integers(1, 4))
    old = slip(kind, amount, typography, block)
    # One line quoted from inside its indentation is a substring: new_string goes in literally after the kept
    # indentation (whole lines only when its first line has all of it), so the same slip spread over more
    # lines of new_string is not a slip there.
    literal = kind == "dedent" and len(indents) == 1 and len(new_block) > 1
    same_slip = not literal and draw(st.booleans())
    new = slip(kind, amount, typography, new_block) if same_slip else new_block
    text = joined(lines)
    exact = text.replace(joined(block), joined(new_block), 1)
    assume(exact != text)
    ending = draw(st.sampled_from(["\n", "\r\n"]))  # a model on Windows may send CRLF into an LF file
    return text, joined(old).replace("\n", ending), joined(new).replace("\n", ending if same_slip else "\n"), exact


def joined(lines: list[str]) -> str:
    return "".join(line + "\n" for line in lines)


@pytest.mark.slow
@BOUNDED
@given(case=slipped_edit())
def test_a_slipped_edit_gives_the_exact_edits_file(tmp_path_factory, case):
    text, old, new, exact = case
    root = tmp_path_factory.mktemp("p")
    ws = Workspace(root, root / ".narnat", confirm=None)
    (root / "m.py").write_text(text)
    execute("Read", {"file_path": "m.py"}, ws)
    result = execute("Edit", {"file_path": "m.py", "old_string": old, "new_string": new}, ws)
    if old == new:
        assert result.is_error and "identical" in result.text
        return
    assert not result.is_error, result.text
    assert (root / "m.py").read_text() == exact
