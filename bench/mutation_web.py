"""The equivalent mutants of the web tools, Edit, TodoWrite, the tool contract, the registry and the slash commands
(bench/mutation.py): a piece of a line as the mutant writes it, or a pattern of mutant names (starting with *), and
why that change cannot alter what the code does."""

LAST_PIECE = "the last piece after a / is the same however many pieces are asked for"
FALSY = "the value is only ever tested for truth, and both are false"
NO_WRAPPER_WORD = (
    "the mutant differs only for a run wrapper with nothing after it (`uv run`): then the wrapper's words stand as the "
    "program, and none of them names a verification either"
)

NEW_FILES_ONLY = "Edit writes a file that exists, which keeps its mode: follow_umask decides only a new file's"
LF = "with_ending tells CRLF apart from any other ending, which it writes as LF"
LINE_START = (
    "only whether the text before the match on its line is blank is read: rfind from None is from 0, and from 1 "
    "differs only by a newline at 0, which is blank"
)
ANCHORED = "READ_PREFIX is anchored at the line's start (no MULTILINE): it matches once at most"
BEST_MATCH = "only the best match, close[0], is read, and difflib's cutoff is 0.6 by default"
NEW_CRLF = (
    "the file's line ending is applied to the whole text before it is written, and the diff, the syntax check and "
    "the line counts go by lines: new_string's own CRLF changes none of them"
)
STATEMENTS = (
    "the syntax check looks at the statements around the change or, without them, the whole file: for a change "
    "both give the same answer, and only the time differs (as for tools/files/syntax_check.py)"
)
CODEC = "Python's codecs take UTF-8 in any case, and decode() is UTF-8 by default"
META = (
    "the detector decode_file asks when no charset decodes the page (charset_normalizer) reads a meta tag's charset "
    "itself, first: the page is decoded in it either way; and a meta tag's charset holds only ASCII letters"
)
HEADER_CASE = "HTTP header names are case-insensitive: requests merges them so, and servers read them so"
UNWRAPPED = "html2text wraps lines only for a true bodywidth, and marks code only for a true mark_code"
CHUNKS = "the chunk size decides only how often the size is checked: a body past the limit is refused either way"
NEVER_SINGULAR = "a cut text has 100,000 characters: the singular form is never said"
ABSENT = "a missing Content-Type gives no charset, whatever the default's text"
WORKERS = "how many Baidu links are resolved at once decides only the time: each is resolved, in order"
ZIPPED = "the snippets are padded with None to the links' number: the lengths always match"
NO_FOLLOW = "requests follows redirects only for a true allow_redirects: None is false as False is"
PARSER = "BeautifulSoup takes the best parser installed when none is named: lxml, a dependency"
CLASSED = "a div.web-result has a class attribute, which BeautifulSoup gives as a list"
TAG_CASE = "CSS selectors match an HTML document's tag names in any case"
FRESH_PART = "require_fresh reads whole only for the truth of it: None is false as False is"

WEB_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/tools/verification.py": {
        'word = argv[at].rsplit("/", 2)[-1]': LAST_PIECE,
        'word = argv[at].rsplit("/", )[-1]': LAST_PIECE,
        "return None if rest[:2] and rest[0] in NOT_BUILDS": "the first two words are there exactly when the first is",
        'argv[at + 1] if at + 2 < len(argv) else ""': NO_WRAPPER_WORD,
        'argv[at + 1] if at + 1 < len(argv) else "XXXX"': NO_WRAPPER_WORD,
        "skip = None": FALSY,
    },
    "narnat_agent/tools/edit/__init__.py": {
        "write_atomic(path, encoded, follow_umask=None)": NEW_FILES_ONLY,
        "write_atomic(path, encoded, follow_umask=False)": NEW_FILES_ONLY,
        "write_atomic(path, encoded, )": NEW_FILES_ONLY,
        "write_atomic(path, edited.data, follow_umask=None)": NEW_FILES_ONLY,
        "write_atomic(path, edited.data, follow_umask=False)": NEW_FILES_ONLY,
        "write_atomic(path, edited.data, )": NEW_FILES_ONLY,
        'with_ending(old, "XX\\nXX")': LF,
        'with_ending(new, "XX\\nXX")': LF,
        "ws.require_fresh(path, data, whole=None)": FRESH_PART,
        'before = text[text.rfind("\\n", None, found.start()) + 1': LINE_START,
        'before = text[text.rfind("\\n", 1, found.start()) + 1': LINE_START,
        'READ_PREFIX.sub("", line, )': ANCHORED,
        'READ_PREFIX.sub("", line, count=2)': ANCHORED,
        "get_close_matches(key, sharing, cutoff=0.6)": BEST_MATCH,
        "get_close_matches(key, sharing, n=1, )": BEST_MATCH,
        "get_close_matches(key, sharing, n=2, cutoff=0.6)": BEST_MATCH,
        'with_ending(old, "\\n"), with_ending(new, None)': NEW_CRLF,
        "introduced(path, text, done.text, None)": STATEMENTS,
        "introduced(path, text, done.text, )": STATEMENTS,
    },
    "narnat_agent/tools/web/fetch.py": {
        'data[:200_000].decode(errors="replace")': CODEC,
        'data[:200_000].decode("UTF-8", errors="replace")': CODEC,
        "meta = None": META,
        "META_CHARSET.search(data[:4097])": META,
        'meta.group(1).decode("ascii", "XXignoreXX")': META,
        'meta.group(1).decode("ascii", "IGNORE")': META,
        're.search(r"CHARSET=([\\w.:-]+)", content_type, re.IGNORECASE)': "the search ignores case",
        'meta.group(1).decode("ascii", )': META,
        'meta.group(1).decode("ASCII", "ignore")': META,
        "*x_page_text__mutmut_28": META + " (a header's charset that fails ends the loop: the detector still reads it)",
        '"accept": "text/markdown;q=1.0': HEADER_CASE,
        "html2text.HTML2Text(baseurl=base, bodywidth=None)": UNWRAPPED,
        "converter.mark_code = None": UNWRAPPED,
        '"ACCEPT": "text/markdown;q=1.0': HEADER_CASE,
        'response.headers.get("CF-MITIGATED")': HEADER_CASE,
        'response.headers.get("content-type", "")': HEADER_CASE,
        'response.headers.get("CONTENT-TYPE", "")': HEADER_CASE,
        'response.headers.get("Content-Type", "XXXX")': ABSENT,
        "response.iter_content(None)": CHUNKS,
        "response.iter_content(65537)": CHUNKS,
        'summary = ngettext(None, "{n} characters (cut)"': NEVER_SINGULAR,
        'ngettext("{n} character (cut)", "{n} characters (cut)", None)': NEVER_SINGULAR,
        'ngettext("XX{n} character (cut)XX"': NEVER_SINGULAR,
        'ngettext("{N} CHARACTER (CUT)"': NEVER_SINGULAR,
        "title = None": "the title is read only as true or false, and None is false as the empty text is",
    },
    "narnat_agent/tools/web/search.py": {
        "allow_redirects=None)": NO_FOLLOW,
        "allow_redirects=None, headers=accept_language(lr))": NO_FOLLOW,
        'response.headers.get("location")': HEADER_CASE,
        'response.headers.get("LOCATION")': HEADER_CASE,
        'response.text)), "XXXX"': "a target is taken only when it starts with http, which neither default does",
        "ThreadPoolExecutor(max_workers=None)": WORKERS,
        "ThreadPoolExecutor(max_workers=6)": WORKERS,
        "len(snippets)), strict=None))": ZIPPED,
        "len(snippets)), ))": ZIPPED,
        "len(snippets)), strict=False))": ZIPPED,
        'i.get("class", None)': CLASSED,
        'i.get("class", )': CLASSED,
        'response.headers.get("location", "")': HEADER_CASE,
        'response.headers.get("LOCATION", "")': HEADER_CASE,
        'response.headers.get("Location", "XXXX")': "neither default names wappass.baidu.com",
        'response.content.decode(errors="replace")': CODEC,
        'response.content.decode("UTF-8", errors="replace")': CODEC,
        'item.select_one("H3 A")': TAG_CASE,
        'i.select_one("H2 A")': TAG_CASE,
        'item.select_one("H2 A")': TAG_CASE,
        'item.select_one(".b_caption p") or item.select_one("P")': TAG_CASE,
        'why = f"every engine: {unreached[1]}"': "with one reason alone, each entry is that reason",
        '.get(lr or "XXXX", "wt-wt")': "neither the empty text nor XXXX is a language: both get the default region",
        'method="post"': "requests sends a method's name in capitals",
        'kwargs.pop("method", "get")': "requests sends a method's name in capitals",
        "BeautifulSoup(text, None)": PARSER,
        "BeautifulSoup(text, )": PARSER,
        'CJK.sub("XX XX", query.lower())': "the marker is upper case and the results are searched lower case: it never "
        "matches, and each CJK run adds words of its own",
        '.get("u", ["XXXX"])[0]': "a link is unwrapped only when its u starts with a1, which neither default does",
        '"=" * (+len(wrapped[2:]) % 4)': "Python's base64 decoder takes padding past what the data needs",
    },
    "narnat_agent/tools/web/http.py": {
        '"accept": "text/html,': HEADER_CASE,
        '"ACCEPT": "text/html,': HEADER_CASE,
        '"sec-fetch-dest": "document"': HEADER_CASE,
        '"SEC-FETCH-DEST": "document"': HEADER_CASE,
        '"sec-fetch-site": "none"': HEADER_CASE,
        '"SEC-FETCH-SITE": "none"': HEADER_CASE,
        '"sec-fetch-user": "?1"': HEADER_CASE,
        '"SEC-FETCH-USER": "?1"': HEADER_CASE,
    },
}
