"""Edit cases: each is a file, old_string, new_string and either the exact file afterwards or an error fragment.

The dangerous failure is an edit in the wrong place, so most traps expect a refusal.
"""

FUNCS = "def load_user(uid):\n    row = db.get(uid)\n    return User(row)\n\n\ndef load_users(uids):\n    rows = db.get_many(uids)\n    return [User(r) for r in rows]\n"
BLOCK = (
    "def handle(request):\n"
    "    user = authenticate(request)\n"
    "    if user is None:\n"
    "        return forbidden()\n"
    "    payload = parse(request.body)\n"
    "    return respond(payload)\n"
)


def case(id, file, old, new, expect=None, error=None, replace_all=False, strategy=None):
    return {"id": id, "file": file, "old": old, "new": new, "expect": expect, "error": error,
            "replace_all": replace_all, "strategy": strategy}  # fmt: skip


CASES = [
    # 1. exact
    case("exact_single_line", "a = 1\nb = 2\n", "b = 2", "b = 3", "a = 1\nb = 3\n", strategy="exact"),
    case("exact_multi_line", "x\ny\nz\n", "x\ny\n", "X\nY\n", "X\nY\nz\n", strategy="exact"),
    case("exact_mid_line_substring", "print(total_sum)\n", "total_sum", "grand_total", "print(grand_total)\n"),
    case("exact_delete_lines", "keep\ndrop me\nkeep too\n", "drop me\n", "", "keep\nkeep too\n"),
    case("exact_replace_all", "x = f(1)\ny = f(2)\n", "f(", "g(", "x = g(1)\ny = g(2)\n", replace_all=True),
    case("replace_all_non_overlapping", "aaaa\n", "aa", "b", "bb\n", replace_all=True),
    case("literal_dollar_and_backslash_in_new", "s = old\n", "old", r"r'\1 $1 \g<0>'", "s = r'\\1 $1 \\g<0>'\n"),
    case("literal_dollars_replace_all", "$a $a\n", "$a", "$$b", "$$b $$b\n", replace_all=True),
    case(
        "ambiguous_exact_duplicate_lines",
        "x = 1\ny\nx = 1\n",
        "x = 1",
        "x = 2",
        error="matches 2 places (exact match) at lines 1, 3",
    ),
    case(
        "ambiguous_substring_in_deeper_indent",
        "if a:\n    run()\n    if b:\n        run()\n",
        "run()",
        "stop()",
        error="at lines 2, 4",
    ),
    case(
        "ambiguous_no_fallthrough_to_fuzzy",
        "v = 1\nv = 1\n  v  =  1\n",
        "v = 1\n",
        "v = 2\n",
        error="matches 2 places (exact match)",
    ),
    case("empty_old_string", "a\n", "", "b", error="old_string is empty"),
    case("identical_strings", "a\n", "a", "a", error="identical"),
    # 2. trailing newline
    case(
        "eof_old_string_has_extra_newline",
        "first\nlast",
        "last\n",
        "LAST\n",
        "first\nLAST",
        strategy="trailing newline",
    ),
    case("eof_missing_newline_stays_missing", "one\ntwo", "one", "ONE", "ONE\ntwo"),
    # 3. trailing whitespace
    case(
        "trailing_ws_in_file",
        "a = 1   \nb = 2\t\nc = 3\n",
        "a = 1\nb = 2\n",
        "a = 1\nb = 20\n",
        "a = 1   \nb = 20\nc = 3\n",
        strategy="trailing whitespace",
    ),
    case(
        "trailing_ws_in_old",
        "a = 1\nb = 2\n",
        "a = 1  \nb = 2  \n",
        "a = 10\nb = 2\n",
        "a = 10\nb = 2\n",
        strategy="trailing whitespace",
    ),
    # 4. indentation
    case(
        "indent_old_less_indented",
        "class A:\n    def f(self):\n        return 1\n",
        "def f(self):\n    return 1\n",
        "def f(self):\n    return 2\n",
        "class A:\n    def f(self):\n        return 2\n",
        strategy="indentation",
    ),
    case(
        "indent_rebased_plus_four",
        "class A:\n    def f(self):\n        x = 1\n        return x\n",
        "def f(self):\n    x = 1\n    return x",
        "def f(self):\n    x = 2\n    if x:\n        return x",
        "class A:\n    def f(self):\n        x = 2\n        if x:\n            return x\n",
        strategy="indentation",
    ),
    case(
        "indent_rebased_minus_four",
        "def f():\n    return 1\n",
        "        def f():\n            return 1\n",
        "        def f():\n            return 2\n",
        "def f():\n    return 2\n",
        strategy="indentation",
    ),
    case(
        "indent_tabs_file_spaces_old",
        "func main() {\n\tif ok {\n\t\trun()\n\t}\n}\n",
        "    if ok {\n        run()\n    }\n",
        "    if ok {\n        run()\n        stop()\n    }\n",
        "func main() {\n\tif ok {\n\t\trun()\n\t\tstop()\n\t}\n}\n",
        strategy="indentation",
    ),
    case(
        "indent_spaces_file_tabs_old",
        "def f():\n    if x:\n        go()\n",
        "\tif x:\n\t\tgo()\n",
        "\tif x:\n\t\tgo(1)\n",
        "def f():\n    if x:\n        go(1)\n",
        strategy="indentation",
    ),
    case(
        "indent_inconsistent_refused",
        "def f():\n    a()\n        b()\n",
        "a()\nb()\n",
        "a()\nc()\n",
        error="does not map consistently",
    ),
    case(
        "ambiguous_indent_near_duplicates",
        "def f():\n    x()\n    y()\ndef g():\n        x()\n        y()\n",
        "  x()\n  y()\n",
        "  z()\n",
        error="matches 2 places (indentation match) at lines 2, 5",
    ),
    case(
        "chinese_identifiers_indent_rebased",
        "def 计算():\n    总数 = 0\n    return 总数\n",
        "总数 = 0\nreturn 总数\n",
        "总数 = 1\nreturn 总数\n",
        "def 计算():\n    总数 = 1\n    return 总数\n",
        strategy="indentation",
    ),
    case(
        "crlf_indent_rebased",
        b"def f():\r\n    a = 1\r\n    b = 2\r\n",
        "a = 1\nb = 2\n",
        "a = 1\nb = 3\n",
        b"def f():\r\n    a = 1\r\n    b = 3\r\n",
    ),
    case(
        "crlf_first_line_starts_midline",
        b"def f():\r\n    a = 1\r\n    b = 2\r\n",
        "a = 1\r\n    b = 2",
        "a = 10\r\n    b = 20",
        b"def f():\r\n    a = 10\r\n    b = 20\r\n",
        strategy="exact",
    ),
    # 5. blanks inside lines
    case(
        "inner_whitespace_collapsed",
        "x  =  compute( a,  b )\n",
        "x = compute( a, b )\n",
        "x = compute(a, b, c)\n",
        "x = compute(a, b, c)\n",
        strategy="inner whitespace",
    ),
    case(
        "inner_whitespace_context_kept",
        "if  a:\n    x  = 1\n",
        "if a:\n    x = 1\n",
        "if a:\n    x = 2\n",
        "if  a:\n    x = 2\n",
        strategy="inner whitespace",
    ),
    case(
        "ambiguous_whitespace_variants",
        "v = 1\nw\nv  =  1\n",
        "v =   1\n",
        "v = 2\n",
        error="matches 2 places (inner whitespace match)",
    ),
    # 6. typography
    case(
        "unicode_smart_quotes_kept",
        "print(“hello”)\n",
        'print("hello")',
        'print("hello world")',
        "print(“hello world”)\n",
        strategy="typography",
    ),
    case(
        "unicode_apostrophe_in_prose",
        "It’s done — mostly.\n",
        "It's done -- mostly.\n",
        "It's done -- fully.\n",
        "It’s done — fully.\n",
        strategy="typography",
    ),
    case(
        "unicode_ellipsis",
        "Loading…\n",
        "Loading...\n",
        "Loading... please wait\n",
        "Loading… please wait\n",
        strategy="typography",
    ),
    case(
        "unicode_nbsp", "total:\u00a0100\n", "total: 100\n", "total: 200\n", "total:\u00a0200\n", strategy="typography"
    ),
    case(
        "unicode_context_line_kept",
        "# “Title”\nvalue = 1\n",
        '# "Title"\nvalue = 1\n',
        '# "Title"\nvalue = 2\n',
        "# “Title”\nvalue = 2\n",
        strategy="typography",
    ),
    case(
        "unicode_ascii_file_unchanged",
        "say('hi')\n",
        "say(‘hi’)\n",
        "say(‘bye’)\n",
        "say('bye')\n",
        strategy="typography",
    ),
    # 7. escapes
    case(
        "escape_literal_backslash_n",
        "first line\nsecond line\n",
        "first line\\nsecond line",
        "first line\\nnew second",
        "first line\nnew second\n",
        strategy="escapes, then exact",
    ),
    case(
        "escape_literal_backslash_t_makefile",
        "all:\n\tcc main.c\n",
        "all:\\n\\tcc main.c",
        "all:\\n\\tcc -O2 main.c",
        "all:\n\tcc -O2 main.c\n",
    ),
    case("escape_overescaped_quotes", 'say("hi")\n', 'say(\\"hi\\")', 'say(\\"bye\\")', 'say("bye")\n'),
    case(
        "escape_real_backslash_kept",
        'print("a\\nb")\n',
        'print("a\\nb")',
        'print("a\\nc")',
        'print("a\\nc")\n',
        strategy="exact",
    ),
    # 8. block anchors
    case(
        "anchor_typo_in_rewritten_line",
        BLOCK,
        BLOCK.replace("authenticate(request)", "authentcate(request)"),
        BLOCK.replace("user = authenticate(request)", "user = login(request)"),
        BLOCK.replace("authenticate(request)", "login(request)"),
        strategy="block anchors",
    ),
    case(
        "trap_drift_kept_in_new_is_refused",
        BLOCK,
        BLOCK.replace("authenticate(request)", "authentcate(request)"),
        BLOCK.replace("authenticate(request)", "authentcate(request)").replace(
            "respond(payload)", "respond(payload, 200)"
        ),
        error="not found",
    ),
    case(
        "trap_closing_brace_anchor",
        "fn a() {\n    one();\n    two();\n    three();\n}\n",
        "    one();\n    twoo();\n    three();\n}\n",
        "    one();\n}\n",
        error="not found",
    ),
    case(
        "trap_anchors_far_apart",
        BLOCK,
        "def handle(request):\n    user = authenticate(request)\n    payload = parse(request.body)\n    return respond(payload)\n",
        "def handle(request):\n    return None\n",
        error="not found",
    ),
    case(
        "trap_one_hallucinated_line",
        BLOCK,
        BLOCK.replace("if user is None:", "cache.warm(user.id, ttl=300)"),
        BLOCK.replace("return respond(payload)", "return respond(payload, 201)"),
        error="not found",
    ),
    case(
        "trap_short_block_wrong_value",
        "timeout = 30\nretries = 5\nbackoff = 2\n",
        "timeout = 30\nretries = 3\nbackoff = 2\n",
        "timeout = 30\nretries = 4\nbackoff = 2\n",
        error="not found",
    ),
    case(
        "trap_medium_drift_in_one_line",
        BLOCK,
        BLOCK.replace("parse(request.body)", "decode(request.json)"),
        BLOCK.replace("parse(request.body)", "load(request.json)"),
        error="not found",
    ),
    case(
        "trap_middle_too_different",
        BLOCK,
        "def handle(request):\n    user = auth(request)\n    if not user:\n        return deny()\n    payload = parse(request.body)\n    return respond(payload)\n",
        "def handle(request):\n    return respond(None)\n",
        error="not found",
    ),
    case(
        "ambiguous_anchor_equal_candidates",
        BLOCK + "\n" + BLOCK,
        BLOCK.replace("parse(request.body)", "parse(request.bodyy)"),
        BLOCK.replace("parse(request.body)", "parse(request.data)"),
        error="matches 2 places (block anchors match)",
    ),
    case(
        "replace_all_no_similarity_matching",
        BLOCK,
        BLOCK.replace("parse(request.body)", "parse(request.bodyy)"),
        BLOCK.replace("parse(request.body)", "parse(request.data)"),
        error="not found",
        replace_all=True,
    ),
    case(
        "two_similar_functions_only_one_matches",
        FUNCS,
        "def load_users(uids):\n    rows = db.get_many(uids)\n",
        "def load_users(uids, limit):\n    rows = db.get_many(uids)[:limit]\n",
        FUNCS.replace(
            "def load_users(uids):\n    rows = db.get_many(uids)",
            "def load_users(uids, limit):\n    rows = db.get_many(uids)[:limit]",
        ),
        strategy="exact",
    ),
    case(
        "similar_function_not_taken_by_fuzzy",
        FUNCS,
        "def load_user(uids):\n    row = db.get(uid)\n",
        "def load_user(uid):\n    row = cache.get(uid)\n",
        error="not found",
    ),
    case("trap_two_lines_not_adjacent", "a = 1\nb = 2\nc = 3\n", "a = 1\nc = 3\n", "a = 1\nc = 4\n", error="not found"),
    # not found: the hint names the cause
    case(
        "not_found_tabs_hint",
        "def f():\n\tretrun 1\n",
        "def f():\n    return 1\n",
        "def f():\n    return 2\n",
        error="indents with tabs",
    ),
    case("not_found_already_applied", "value = 2\n", "value = 1", "value = 2", error="already present at line 1"),
    case(
        "not_found_shows_closest_lines",
        "alpha = compute(1)\nbeta = 2\n",
        "alpha = compute(10)\n",
        "alpha = 3\n",
        error="The closest text (line 1) follows, exactly as in the file.\nalpha = compute(1)",
    ),
    case("not_found_nothing_similar", "alpha\n", "zzzz qqqq\n", "x\n", error="no line resembles"),
    # the file keeps its own form
    case("crlf_preserved", b"one\r\ntwo\r\n", "two", "TWO", b"one\r\nTWO\r\n"),
    case("crlf_multiline_old_in_lf", b"one\r\ntwo\r\nthree\r\n", "one\ntwo\n", "1\n2\n", b"1\r\n2\r\nthree\r\n"),
    case("mixed_line_endings_untouched", b"a\r\nb\nc\r\n", "b\n", "B\n", b"a\r\nB\nc\r\n"),
    case("bom_preserved", b"\xef\xbb\xbfname = 1\n", "name = 1", "name = 2", b"\xef\xbb\xbfname = 2\n"),
    case(
        "gbk_encoding_preserved",
        "标题 = '旧的值，保持中文编码不变'\n".encode("gbk"),
        "旧的值",
        "新的值",
        "标题 = '新的值，保持中文编码不变'\n".encode("gbk"),
    ),
    case(
        "replace_all_on_indentation_step",
        "if a:\n    x = 1\nif b:\n        x = 1\n",
        "  x = 1\n",
        "  x = 2\n",
        "if a:\n    x = 2\nif b:\n        x = 2\n",
        replace_all=True,
    ),
    # found in use: each of these wrote wrong bytes or refused needlessly
    case(
        "indent_new_string_already_right",
        "def f():\n    a = 1\n    b = 2\n    return a + b\n",
        "  a = 1\n  b = 2",
        "    a = 10\n    b = 2",
        "def f():\n    a = 10\n    b = 2\n    return a + b\n",
        strategy="indentation",
    ),
    case(
        "indent_new_string_already_right_with_typography",
        "def f():\n    s = “a”\n    t = 2\n",
        '  s = "a"\n  t = 2',
        '    s = "b"\n    t = 2',
        "def f():\n    s = “b”\n    t = 2\n",
        strategy="typography",
    ),
    case(
        "indent_old_and_new_disagree_refused",
        "def f():\n    a = 1\n    b = 2\n",
        "  a = 1\n  b = 2",
        "  a = 10\n    b = 2",
        error="new_string's indentation",
    ),
    case(
        "crlf_from_model_into_lf_file", "a = 1\nb = 2\n", "a = 1\r\nb = 2\r\n", "a = 1\r\nb = 3\r\n", "a = 1\nb = 3\n"
    ),
    case(
        "crlf_mixed_from_model_into_lf_file", "a = 1\nb = 2\n", "a = 1\r\nb = 2\n", "a = 1\nb = 3\r\n", "a = 1\nb = 3\n"
    ),
    case(
        "crlf_from_model_through_blank_step",
        "x  =  f( a )\ny = 2\n",
        "x = f( a )\r\ny = 2\r\n",
        "x = f(a)\r\ny = 2\r\n",
        "x = f(a)\ny = 2\n",
    ),
    case(
        "trailing_newline_never_inside_a_line",
        "total = price * qty\n",
        "total = price\n",
        "total = cost\n",
        error="not found",
    ),
    case(
        "anchor_typo_with_a_closing_brace_last_line",
        "function total(items) {\n  let sum = 0;\n  for (const item of items) {\n    sum += item.price;\n  }\n  return sum;\n}\n",
        "function total(items) {\n  let sum = 0;\n  for (const item of items) {\n    sum += item.prise;\n  }\n  return sum;\n}\n",
        "function total(items) {\n  let sum = 0;\n  for (const item of items) {\n    sum += item.price * item.qty;\n  }\n  return sum;\n}\n",
        "function total(items) {\n  let sum = 0;\n  for (const item of items) {\n    sum += item.price * item.qty;\n  }\n  return sum;\n}\n",
        strategy="block anchors",
    ),
    case(
        "ambiguity_counted_before_an_unmappable_indentation",
        "def f():\n    a()\n        b()\ndef g():\n    a()\n    b()\n",
        "a()\nb()\n",
        "a()\nc()\n",
        error="matches 2 places (indentation match) at lines 2, 5",
    ),
    # found by the properties
    case(
        "exact_from_inside_the_indentation_with_a_whole_new_line",
        "def f():\n    x = 1\n",
        "x = 1",
        "    x = 2",
        "def f():\n    x = 2\n",
        strategy="exact",
    ),
    case("lines_deleted_through_a_fuzzy_step_leave_no_blank", "a\n    b\nc\n", "  b\n", "", "a\nc\n"),
    case(
        "an_edit_that_changes_nothing_is_refused",
        "def f():\n    x = 1\n",
        "x = 1",
        "    x = 1",
        error="leaves the file",
    ),
]
