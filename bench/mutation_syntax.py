"""The syntax check's parsing (tools/files/) and the safety files it shares a round with: their equivalent mutants for
bench/mutation.py, a piece of a line as the mutant writes it, or a pattern of mutant names (starting with *), and why
the change cannot alter what the code does."""

INHERIT = "the module imports nothing from __future__: the compiler has no flags of its to inherit"
CODEC = "Python's codecs take UTF-8 in any case"
ROWS = "the text split at its newlines has a line for every row of its tree (an empty one after a final newline)"
COMPILER_LINE = (
    "the compiler names a line of the text (no input tried names one past it), and its own copy of the line (e.text) "
    "is the line the text split at its line ends gives: whichever the condition picks, the same text"
)
FROM_ZERO = "None as the start of a search is the start of the text"
SHARED_PREFIX = (
    "the middle stays above low and at most high: the search still finds the longest shared prefix, in other steps"
)

NEVER_AT_ZERO = "the end is looked for after the tag's opening '<': it is never found at 0"
AFTER_COMMENT = "read on from the '->' of a comment's end, which holds no '<', the next tag found is the same"

LIBYAML_SAYS = "libyaml names the problem of every error it raises: the words for none are never said"
LIBYAML_MARKS = "libyaml marks where each error it raises lies: the place for none is never given"
LIBYAML = "PyYAML's wheels are built with libyaml: wherever one installs, the fallback is not taken"

TEMPLATE = (
    "tree-sitter never stops right after a template literal's own text: of the corpus's 108 edits of strings and "
    "templates and every input tried, none reaches this check, whose answer the checks after it give alike"
)
LOGGED = "tree-sitter's log names a stack version and its position before it detects an error there"
ROOT_SPANS = "the root spans every offset of the text: a descendant is always found, the root at least"

MODULE_NAME = "an Ansible module's name holds no '=': cut at any '=', what follows --module-name= is the name"

READ_ON = (
    "the log is read only up to the first version resumed (later lines are ignored): a parse not stopped there "
    "reads on to the end of the file, which only takes longer"
)

LAST_PART = "the last part of a path is the same however many times it is split from the right"

HEAD = (
    "the head of a list output is cut at OUTPUT_CHARS once joined: stopped anywhere at or past that many characters, "
    "what is shown is the same"
)
NOTEBOOK_TEXT = (
    "a notebook's text is a string or a list of strings (nbformat's schema): a string taken a character at a time "
    "joins and counts to itself"
)
REUSED = (
    "the tree of the text before is only reused to parse faster: tree-sitter parses the edited text again to the "
    "same tree"
)

# the syntax check's own: merged into EQUIVALENT's entry for tools/files/syntax_check.py
SYNTAX_CHECK_EQUIVALENT: dict[str, str] = {
    "_parsed(path, before, None)[0]": REUSED,
    "_parsed(path, before, )[0]": REUSED,
    "parsed(grammar, text, path.name, None)": REUSED,
    "parsed(grammar, text, path.name, )": REUSED,
    "(ticks + ticks_before) % 2 == 1": "a sum of two counts and their difference are odd alike",
}

SYNTAX_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/tools/files/documents.py": {
        "head, size = [], 1": HEAD,
        "if size >= OUTPUT_CHARS:": HEAD,
        "size = len(head[-1])": HEAD,
        "size -= len(head[-1])": HEAD,
        "if (isinstance(value, list)) or True else len(str(value))": NOTEBOOK_TEXT,
        '"".join(value) if (isinstance(value, list)) or True else str(value)': NOTEBOOK_TEXT,
        'json.loads(data.decode("UTF-8"))': CODEC,
        'nbformat.reads(data.decode("UTF-8"), as_version=4)': CODEC,
    },
    "narnat_agent/tools/files/parsers.py": {
        'compile(text, name, "exec", )': INHERIT,
        'compile(text, name, "exec", dont_inherit=False)': INHERIT,
        "line = e.lineno or 2": "the compiler gives every SyntaxError of a source text its line",
        "SyntaxProblem(line, e.offset or 2, e.msg, source)": "the compiler gives every SyntaxError of a source text "
        "its column",
        "source = lines[line - 1] if": COMPILER_LINE,
        'text.encode("UTF-8", "surrogateescape")': CODEC,
        'decode("UTF-8", "replace")': CODEC,
        "if (row < len(lines)) or True else": ROWS,
        "if row <= len(lines) else": ROWS,
        'if row < len(lines) else "XXXX"': ROWS,
        'data.count(b"\\n", None, offset)': FROM_ZERO,
        'data.rfind(b"\\n", None, offset)': FROM_ZERO,
        "middle = (low + high + 2) // 2": SHARED_PREFIX,
        "high = middle - 2": "a shared prefix found shorter only marks more of the text changed: tree-sitter parses it "
        "again, to the same tree",
        "if 0 <= line <= len(lines) else": "libyaml's lines are counted from 1 here: none is 0",
    },
    "narnat_agent/tools/files/stopping.py": {
        'if parent is None and parent.type == "template_string":': TEMPLATE,
        'parent.type == "XXtemplate_stringXX":': TEMPLATE,
        'parent.type == "TEMPLATE_STRING":': TEMPLATE,
        "self.version = None": LOGGED,
        "self.version = 1": LOGGED,
        "self.position = None": LOGGED,
        "self.position = (1, 0)": LOGGED,
        "self.position = (0, 1)": LOGGED,
        "at = padding.end() if (padding) or True else after": "a pattern of \\s* matches at every offset: there is "
        "always a padding, empty or not",
        "if (token is not None) or True else at + 1": ROOT_SPANS,
        "if token is not None else at - 1": ROOT_SPANS,
        "if token is not None else at + 2": ROOT_SPANS,
        'decode("UTF-8", "replace")': CODEC,
        'elif node.type == "jsx_element" or node.child_count >= 2:': "only an element ends in a closing tag: any "
        "other node with two children is passed over by the check after it",
        "again, progress_callback=lambda *_: None)": READ_ON,
        "again, )": READ_ON,
    },
    "narnat_agent/tools/files/html_context.py": {
        "if end <= 0:": NEVER_AT_ZERO,
        "if end < 1:": NEVER_AT_ZERO,
        'at = end + (3 if (kind == "!--") and False else 1)': AFTER_COMMENT,
        'at = end + (3 if kind == "XX!--XX" else 1)': AFTER_COMMENT,
    },
    "narnat_agent/tools/files/yaml_syntax.py": {
        'or "XXnot YAMLXX"': LIBYAML_SAYS,
        'or "not yaml"': LIBYAML_SAYS,
        'or "NOT YAML"': LIBYAML_SAYS,
        "if (mark) or True else (1, 1, words)": LIBYAML_MARKS,
        "if mark else (2, 1, words)": LIBYAML_MARKS,
        "if mark else (1, 2, words)": LIBYAML_MARKS,
        'text.count("\\n", None, e.position)': FROM_ZERO,
        'text.rfind("\\n", None, e.position)': FROM_ZERO,
        'getattr(yaml, "CSafeLoader", None)': LIBYAML,
        'getattr(yaml, "CSafeLoader", )': LIBYAML,
    },
    "narnat_agent/tools/files/statements.py": {
        'if first < end else "XXXX"': "with no line after the opening holding anything, no change lies among its "
        "members: no members either way",
        "while last >= first and": "once the members' end comes down to their first line, no change lies between "
        "them: no members either way",
        "while start >= low and": "the start is held to low on return: a line below low is never taken",
    },
    "narnat_agent/safety/pyproject.py": {
        'runner = (argv[0] or "").rsplit("/", 2)[-1]': LAST_PART,
        'runner = (argv[0] or "").rsplit("/", )[-1]': LAST_PART,
        'runner = (argv[0] or "XXXX").rsplit("/", 1)[-1]': "only a command whose name is plain text reaches the task "
        "runners (one named poe, pdm, task or hatch)",
    },
    "narnat_agent/safety/edits.py": {
        'word.split("=", )[1], given)': MODULE_NAME,
        'word.split("=", 2)[1], given)': MODULE_NAME,
        'word.rsplit("=", 1)[1], given)': MODULE_NAME,
    },
}
