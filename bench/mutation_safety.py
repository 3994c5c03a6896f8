"""The safety analysis's equivalent mutants for bench/mutation.py: a piece of a line as the mutant writes it, or a
pattern of mutant names (starting with *), and why the change cannot alter what the code does."""

CREATES = (
    "git checkout -b, -B or --orphan creates a branch and asks nothing: only --conflict's value is skipped to a purpose"
)
MENTIONS = "sql.py names the keyword only of SQL that DESTRUCTIVE matched: the fallback is never said"
SUBCOMMAND = "never said: git's loop over its options answers a word computed at run time first, as an option"
SED_STAND_IN = "a removed s command stands as letters without e, which SED_EXECUTE reads like the single s"
KNOWN_UNREAD = (
    "a chain with nothing cached after it ends with a command that feeds nothing: the value known before it is "
    "never read"
)
FIRST_WORD = "the first of the first two words is the first word"
SAME_TEXT = "value() computes the same text again from _text(node)"
HAS_OPERATOR = "every file redirect has an operator token: the default is never taken"
UTF8 = "a node's text is valid UTF-8 (an encoded str cut at token boundaries): no error handler is ever looked up"
CODEC = "codec names ignore case"
NO_CONTINUATION = "parse() removes line continuations first: a word never holds a backslash-newline"
CONSUMED = (
    "commands in a heredoc's body or a redirect's target sit inside $( ) or <( ) only, which marks them consumed anyway"
)
LAST_PART = "the last part of a path is the same however many times it is split from the right"
NO_OPTION = "the default names an option XXXX, which no command gives"
DEV = "rules.py hands it no redirect into /dev/: it skips those before"
FILE_KIND = "sql.py asks only whether an option's kind is code: any other is read as a file"
FILES_MODE = "only has_code asks with files set, and with no cwd: a file reads as the empty text, and every text counts"
URL_PART = "a URL holds '/' (it has '://'): its last part is at [-1] and at [1], however many times it is split"
TRAP_OPTION = "trap checks its first word alone: -, -p or -l read as shell text name no program"
LONGER = "a script file longer than MAX_SCRIPT is unread, however much more of it is read"
NO_SERVER = "a program with no server subcommands serves nothing: None is as false as the empty set"
SAFETY_EQUIVALENT: dict[str, str] = {
    "*.xǁCheckǁ*": "the Check protocol's methods are never called: the analysis calls those of Analysis (rules.py)",
    "if not downloaded or not argv and argv[0] is None:": "rules.py calls it only once a file was downloaded, and "
    "only for a command whose name is plain text: the guard never holds",
    "if not downloaded and not argv or argv[0] is None:": "rules.py calls it only once a file was downloaded",
    '.rsplit("/", 2)[-1].split("?")': URL_PART,
    '.rsplit("/", 1)[+1].split("?")': URL_PART,
    '.rsplit("/", )[-1].split("?")': URL_PART,
    'name = (argv[0] or "").rsplit("/", 2)[-1]': LAST_PART,
    'name = (argv[0] or "").rsplit("/", )[-1]': LAST_PART,
    'name = argv[0].rsplit("/", 2)[-1]': LAST_PART,
    'name = argv[0].rsplit("/", )[-1]': LAST_PART,
    '(target or "XXXX").startswith("/dev/")': "a target named at run time is no /dev/ path, whatever "
    "text stands in for it",
    'not (t or "XXXX").startswith("/dev/")': "a redirect's target named at run time is no /dev/ path, whatever text "
    "stands in for it",
    "or _app_shell(None, args)": "an interpreter is never named rails or flask, the only names _app_shell looks at",
    'name = word.rsplit("/", )[-1]': LAST_PART,
    'name = word.rsplit("/", 2)[-1]': LAST_PART,
    'if word == "XX--XX":': "a command never starts with '-': read as an unknown option, -- leaves the command where "
    "it was, and the doubt it adds checks the same words again",
    'not word.startswith("XX--XX") and "-c" in spec.scripts': "no long option of a wrapper that takes -c (su, runuser, "
    "flock, script, npx, nix) ends in c",
    "return None, True": "the caller stops at a None start: the doubt that comes with it is never read",
    "return len(argv), True": "at the end of argv there is no later word for the doubt to check",
    'else "XXXX", name)': "an option with no value hands over text that names no program, like the empty text",
    'word[:1] != "XX=XX"': "env refuses a word starting with '=': what follows is checked either way",
    'word[:2] != "="': "env refuses a word starting with '=': what follows is checked either way",
    'if word.startswith("XX--XX"):': "a word starting with -- matches neither cluster pattern (their classes hold "
    "no -), and other families have no clusters",
    'SED_SUBSTITUTE.sub("XXsXX"': SED_STAND_IN,
    'SED_SUBSTITUTE.sub("S"': SED_STAND_IN,
    "if match.group(2) is not None or not text.startswith": "groups 1 and 2 (backticks, qx(…)) are set only for text "
    "starting with ` or q, where the second test holds already",
    "for j in range(min(start + 4, len(argv))):": "the words before the command are the wrapper's options and their "
    "values, whose shell text the option loop read already",
    "return risky(name) or name not in WRAPPERS": "a later word naming no risky program starts an unknown command, "
    "whose risky words the rules check all the same",
    "if (name in RUNNING_TOOLS) or True else 0": "only running tools have subcommands in RUNNERS",
    "if name in RUNNING_TOOLS else 1)": "the range from at + 1 to 1 is empty as the one to 0",
    "return None, 1": "the caller stops at a None table: the count beside it is never read",
    "*.x__first_word__mutmut_[13]": "None is as false as False",
    'def _w(values: str = "XXXX"': NO_OPTION,
    'def _w(values: str = "", skip: int = 0, scripts: str = "XXXX")': NO_OPTION,
    "known = None": KNOWN_UNREAD,
    "known = after.plumbing if after is not None else True": KNOWN_UNREAD,
    "known = after.plumbing if (after is not None) and False else False": KNOWN_UNREAD,
    'else (words[:2] or [""])[0]': FIRST_WORD,
    '(words[:1] or ["XXXX"])[0]': "no subcommand is named XXXX: an empty one and it ask alike",
    "sub, flags = (words[:2] or": FIRST_WORD,
    "*.x__grep_files__mutmut_5": "None is as false as False",
    'EXPANDS.search(text.strip("[")) else value(node, None)': SAME_TEXT,
    'EXPANDS.search(text.strip("[")) else value(node, )': SAME_TEXT,
    '{"file_descriptor"}), "XX>XX")': HAS_OPERATOR,
    '{"file_descriptor"}), None)': HAS_OPERATOR,
    '{"file_descriptor"}), )': HAS_OPERATOR,
    "command.stdin = value(child.children[+1])": "a herestring has two children, <<< and its word: [1] is [-1]",
    '(node.text or b"").decode("utf-8", "REPLACE")': UTF8,
    '(node.text or b"").decode("utf-8", )': UTF8,
    '(node.text or b"").decode("utf-8", "XXreplaceXX")': UTF8,
    'words[1].encode("LATIN-1"': CODEC,
    'words[1].encode("latin-1", "backslashreplace").decode("UNICODE_ESCAPE"': CODEC,
    'CONTINUATION.sub(r"\\1", source).encode("UTF-8"': CODEC,
    "_unreadable(tree.root_node) if (tree.root_node.has_error) or True": "a tree without errors has no ERROR node: "
    "_unreadable finds none and says nothing",
    "inside: list[str] = None": "inside is only tested for truth before it is first set: None and [] are both false",
    'if ("\\\\" in text) or True else text': "with no backslash in the text, the replace and the sub change nothing",
    'text.replace("XX\\\\\\nXX", "")': NO_CONTINUATION,
    'text.replace("\\\\\\n", "XXXX")': NO_CONTINUATION,
    "text = text if (text is not None) and False else _text(node)": "the only caller passes _text(node) itself",
    'text[2:-1].encode("LATIN-1"': CODEC,
    'text[2:-1].encode("latin-1", "backslashreplace").decode("UNICODE_ESCAPE"': CODEC,
    'code.replace("\\\\`", "`").encode("UTF-8"': CODEC,
    "self.collect(child, None)": CONSUMED,
    "self.collect(child, )": CONSUMED,
    "self.collect(child, False)": CONSUMED,
    "self.collect(redirect, None)": CONSUMED,
    "self.collect(redirect, )": CONSUMED,
    "self.collect(redirect, False)": CONSUMED,
    "if c.is_named or c.type not in LEAVES)": "the nodes it adds are leaves or anonymous tokens, which the walk "
    "passes by",
    'if family == "python" and re.fullmatch(r"-[a-za-z]*m", word):': "what follows python's -m is a module name, "
    "which the rest reads as a script all the same",
    'risky(word.rsplit("/", )[-1])': LAST_PART,
    'risky(word.rsplit("/", 2)[-1])': LAST_PART,
    "*.x__powershell__mutmut_[16]": "None is as false as False",
    'name = (argv[0] or "XXXX")': "the rules are reached only by a command whose name is plain text (rules.py)",
    'skip = word in ("XX-bXX", "-B"': CREATES,
    'skip = word in ("-B", "-B"': CREATES,
    'skip = word in ("-b", "XX-BXX"': CREATES,
    'skip = word in ("-b", "-b"': CREATES,
    '"XX--orphanXX", "--conflict")': CREATES,
    '"--ORPHAN", "--conflict")': CREATES,
    'and a.startswith("-o") and len(a) >= 2), None)': "a bare -o gives an empty name, which counts as no name",
    'if (match) and False else "nothing destructive"': MENTIONS,
    'if (match) or True else "nothing destructive"': MENTIONS,
    'if match else "XXnothing destructiveXX"': MENTIONS,
    'if match else "NOTHING DESTRUCTIVE"': MENTIONS,
    'if at is not None else "XXXX"': "cmd without /c or /k runs no code from its words: XXXX names no command "
    "that deletes, as the empty text names none",
    '"XXthe git subcommand is computed at run timeXX"': SUBCOMMAND,
    '"THE GIT SUBCOMMAND IS COMPUTED AT RUN TIME"': SUBCOMMAND,
    'word.startswith("-") and word != "XX-XX"': "`git checkout -` (the previous branch) matches no "
    "file pattern, as a word or skipped",
    'if a is None or not a.startswith("XX-XX")]': "gio takes no option before its command (trash, remove, rm)",
    'source: str, *forms: Form, values: str = "XXXX"': NO_OPTION,
    'dry: str = "XXXX", reads_stdin': NO_OPTION,
    "Family(names(programs), None, forms": "a family's source cites its documentation: nothing reads it",
    "*.deletions.x__find__mutmut_2": "find's first word, from which the search for actions starts, is find itself",
    "*.destroys.x__positional__mutmut_3": "skip = None is as false as skip = False",
    "*.overwrites.x__operands__mutmut_4": "skip = None is as false as skip = False",
    'word[len(flag) :].lstrip("XX=XX")': "also strips X, and the only value given this way is DELETE (gh api -X)",
    'first.rsplit("/", 2)[-1]': LAST_PART,
    'first.rsplit("/", )[-1]': LAST_PART,
    "*.destroys.x_program__mutmut_6": "a script or jar with no word after it destroys nothing, known or not",
    'startswith(("XX/XX", "~")) else cwd / name': "pathlib joins an absolute name as itself: cwd / '/x' is /x",
    'target.startswith("XX/dev/XX")': DEV,
    'target.startswith("/DEV/")': DEV,
    'argv[2].rsplit("/", )[-1]': LAST_PART,
    'argv[2].rsplit("/", 2)[-1]': LAST_PART,
    "*.sql.x__read__mutmut_13": "a file not looked at stands as XXXX, not as the empty text: neither "
    "is SQL that destroys",
    '(a or "XXXX").startswith("--backup")': "a word computed at run time stands as XXXX, not as the empty text: "
    "neither starts with --backup",
    '("code", client.code), ("XXfileXX", client.files)': FILE_KIND,
    '("code", client.code), ("FILE", client.files)': FILE_KIND,
    'flag = word.split("=", )[0]': "the part before the first = is the same however many times it is split",
    'flag = word.split("=", 2)[0]': "the part before the first = is the same however many times it is split",
    'decode("UTF-8", "replace")': "codec names ignore case",
    '-[a-zA-Z]{2,4}", word) else "XXXX"': "no client has an option XXXX",
    'code: str, files: str = "XXXX"': NO_OPTION,
    'operand: int = 0, scripts: str = "XXXX"': "no word a client is given ends in XXXX",
    'else "XXXX" if files else _read(value, cwd))': FILES_MODE,
    'else "" if (files) and False else _read(value, cwd))': FILES_MODE,
    'found.append("XXXX" if files else _read(script, cwd))': FILES_MODE,
    'found.append("" if (files) and False else _read(script, cwd))': FILES_MODE,
    'found.append("XXXX" if files else _read(command.stdin_file, cwd))': FILES_MODE,
    'found.append("" if (files) and False else _read(command.stdin_file, cwd))': FILES_MODE,
    'return [text for text in found if text != "XXXX" or files]': "an empty text says nothing destructive: keeping "
    "it changes no verdict",
    'if i + 1 < len(argv) else "XXXX"': "an option missing its code stands as XXXX, not as the empty text: neither "
    "is SQL that destroys",
    "SERVERS.get(name, None)": NO_SERVER,
    "SERVERS.get(name, )": NO_SERVER,
    "if words[:2] and words[0] in SUBCOMMANDS": "words[:2] is empty exactly when words[:1] is",
    'if i < len(argv) else "XXXX", f"{name} -c")': "a shell's -c with no code after it runs nothing: XXXX names "
    "no command that deletes, as the empty text names none",
    'None) or "XXXX"': "an interpreter given no script reads its stdin: the name stands for no file, "
    "and no download is named XXXX",
    'word is None or not word.startswith("XX-XX")': "hyperfine's options read as shell text name no program",
    'words[0] not in ("XX-XX", "-p", "-l")': TRAP_OPTION,
    'words[0] not in ("-", "XX-pXX", "-l")': TRAP_OPTION,
    'words[0] not in ("-", "-P", "-l")': TRAP_OPTION,
    'words[0] not in ("-", "-p", "XX-lXX")': TRAP_OPTION,
    'words[0] not in ("-", "-p", "-L")': TRAP_OPTION,
    'word.startswith("-") and word != "XX--XX":': "ssh's `--` skipped as an option of one word or as the end of "
    "its options leaves the same host",
    "text = f.read(None)": LONGER,
    "text = f.read(MAX_SCRIPT + 2)": LONGER,
    'if cwd is not None else "XXXX", "rb")': "with no folder known the script is not looked for: neither the empty "
    "name nor XXXX opens it",
}
