"""HTML and YAML Edits are checked on the statements around them, and name the line the whole file names: for a page,
tree-sitter's parse of the whole page (the statements are read inside the elements open where they start, and on
until the same elements are open after the Edit as before it); for YAML, libyaml's (the parser PyYAML runs, as YAML's
tools read a document) on the whole document."""

import random
import re
from pathlib import Path

import pytest

from narnat_agent.tools.edit.matcher import apply_edit
from narnat_agent.tools.files.syntax_check import changed_lines, introduced
from narnat_agent.tools.files.yaml_syntax import first_error
from tests.tools.syntax_corpus import source

KEY = re.compile(r"\s*[\w.-]+:")


def html_edit(kind: str, line: str) -> str | None:  # noqa: PLR0911  (one branch per kind of edit)
    text = line.rstrip("\n")
    tags, closing, quoted = (list(re.finditer(p, text)) for p in (r"<[a-zA-Z][^<>]*>", r"</\w+>", r'="[^"]*"'))
    if kind == "drop-gt" and tags:
        return text[: tags[-1].end() - 1] + text[tags[-1].end() :] + "\n"
    if kind == "remove-closing" and closing:
        return text[: closing[-1].start()] + text[closing[-1].end() :] + "\n"
    if kind == "stray-closing" and text.strip():
        return text + "</div>\n"
    if kind == "drop-quote" and quoted:
        return text[: quoted[-1].end() - 1] + text[quoted[-1].end() :] + "\n"
    if kind == "open-comment" and text.strip():
        return text + " <!-- note\n"
    if kind == "valid-text" and text.strip().endswith(">"):
        return text + " more\n"
    return None


def yaml_edit(kind: str, line: str) -> str | None:  # noqa: C901, PLR0911  (one branch per kind of edit)
    text = line.rstrip("\n")
    body, indent = text.strip(), text[: len(text) - len(text.lstrip())]
    if not body or body.startswith("#"):
        return None
    if kind == "unclosed-flow":
        at = max(text.rfind("]"), text.rfind("}"))
        return text[:at] + text[at + 1 :] + "\n" if at >= 0 else text + " [\n" if body.endswith(":") else None
    if kind == "indent-more" and KEY.match(text):
        return " " + text + "\n"
    if kind == "indent-less" and indent and KEY.match(text):
        return text[1:] + "\n"
    if kind == "drop-quote":
        quote = next((q for q in "\"'" if text.count(q) == 2), None)
        return text[: text.rfind(quote)] + text[text.rfind(quote) + 1 :] + "\n" if quote else None
    if kind == "stray-dash" and KEY.match(text):
        return f"{indent}- {body}\n"
    if kind == "tab" and indent:
        return "\t" + body + "\n"
    if kind == "valid-value" and (value := re.match(r"(\s*[\w.-]+: )(\w+)$", text)):
        return f"{value[1]}{value[2]}x\n"
    return None


def edits(name: str, make, kinds: list[str], per_kind: int, text: str = "") -> list[tuple[str, int, str, str]]:
    """Edits of lines drawn at random (the same on every run), each as an Edit's old and new strings: the line,
    with the lines before it while it is not unique."""
    text = text or source(name)
    lines, chance, found = text.splitlines(keepends=True), random.Random(7), []
    for kind in kinds:
        order = list(range(len(lines)))
        chance.shuffle(order)
        for n in [n for n in order if make(kind, lines[n]) is not None][:per_kind]:
            old, new, above = lines[n], make(kind, lines[n]), n - 1
            while text.count(old) > 1 and above >= 0:
                old, new, above = lines[above] + old, lines[above] + new, above - 1
            found.append((kind, n + 1, old, new))
    return found


def first_line(said: str) -> int | None:
    found = re.search(r"line (\d+), column", said)
    return int(found[1]) if found else None


# Every rule of tree-sitter-html's scanner a page's elements follow, forty times over: an element a start tag closes
# first (a paragraph before a block, a list item before an item), void and self-closing tags, raw text, a comment
TRICKY = (
    "<html>\n<body>\n"
    + "".join(
        f"""<div class="s{n}">
<p>Para {n} with <br> a break and <img src="x{n}.png"/> an image
<div>block in a paragraph {n}</div>
<ul>
  <li>one {n}
  <li>two <b>bold</b>
</ul>
<dl><dt>term<dd>definition {n}</dl>
<table><tr><td>a<td>b<tr><td>c</table>
<script>if (a < b && c > d) {{ x = "</div>"; }}</script>
<!-- a comment with <div> inside -->
<input type="text" value='a > b'>
<custom-el data-x="1"><span>in a custom element</span></custom-el>
</div>
"""
        for n in range(40)
    )
    + "</body>\n</html>\n"
)
PAGES = {"style-guide.html": source("style-guide.html"), "tricky.html": TRICKY}
HTML_KINDS = ["drop-gt", "remove-closing", "stray-closing", "drop-quote", "open-comment", "valid-text"]
HTML = [(name, *e) for name, page in PAGES.items() for e in edits(name, html_edit, HTML_KINDS, 10, page)]
YAML_KINDS = ["unclosed-flow", "indent-more", "indent-less", "drop-quote", "stray-dash", "tab", "valid-value"]
YAML = [
    (name, *e)
    for name in ("yaml_command_schema.yaml", "resource_map.yaml")
    for e in edits(name, yaml_edit, YAML_KINDS, 6)
]


@pytest.mark.parametrize("edit", HTML, ids=[f"{e[0]}:{e[1]}:{e[2]}" for e in HTML])
def test_an_html_edit_names_the_line_the_whole_page_names(edit):
    name, _, _, old, new = edit
    page, path = PAGES[name], Path(name)
    done = apply_edit(page, old, new, False)
    assert first_line(introduced(path, page, done.text, changed_lines(done.changes))) == first_line(
        introduced(path, page, done.text)  # no lines given: the whole page, after and before
    )


@pytest.mark.parametrize("edit", YAML, ids=[f"{e[0]}:{e[1]}:{e[2]}" for e in YAML])
def test_a_yaml_edit_names_the_line_libyaml_names_on_the_whole_document(edit):
    name, _, _, old, new = edit
    document = source(name)
    done = apply_edit(document, old, new, False)
    whole = first_error(done.text)
    assert first_error(document) is None
    said = introduced(Path(name), document, done.text, changed_lines(done.changes))
    assert first_line(said) == (whole[0] if whole else None), said
