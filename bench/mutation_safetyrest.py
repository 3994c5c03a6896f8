"""The equivalent mutants of the safety files measured one at a time after the first round (bench/mutation.py), keyed
by file: a piece of a line as the mutant writes it, or a pattern of mutant names (starting with *), and why the
change cannot alter what the code does."""

FIRST_PIECE = "the first piece of a split is the same however many pieces are asked for"
LAST_PART = "the last part of a path is the same however many times it is split from the right"
FIRST_LINE = (
    "the shebang's pattern reads the first line's first words: the lines after it change nothing unless the first "
    "line names env and no program"
)
PAST_LIMIT = "a file longer than the limit is unread, however much more of it is read"
NO_WORD = "the stand-in names no program, recipe or target, as the empty text names none"
COMPUTED = "package_script, make_targets return before when a word is computed at run time: none reaches this"
AT_SIGN = (
    "a composer line starting with @ is read as `composer run-script` of its first word: `@php x` and `@composer x` "
    "become a script no composer.json names, whose words are then read as the program's, as they are here"
)
JUST_SETTINGS = (
    "just's settings, aliases, exports and imports are written with := or without a colon: the recipe pattern, "
    "which needs a colon not followed by =, never matches them"
)
NO_VALUE = "make refuses -C and -f without their value: the command fails before any recipe runs"
MAKE_OPTIONS = (
    "no option of make's, read as a target or an assignment, names a destroying word or a variable a recipe uses"
)
DRY = "make's dry-run options take no value: a word holding '=' or a space is none of them however it is split"
FALSY = "the flag is only ever read as true or false, and both are false"
LISTING = (
    "a listing's program reads no input and runs no pager with its output captured, and one that ends in time "
    "ends alike without the limit: the settings only guard what a test cannot make happen here"
)
NO_INDEX = (
    "the listings git runs (log, rev-parse) read no index and run no hook: neither setting, nor its misspelling, "
    "changes what they print"
)
PAST_LINES = "a listing longer than the limit is said to hold more than it, however much more of it is read"
NO_NUL = "no caller asks for lines separated by NUL"
SAFETYREST_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/safety/probes.py": {
        "*x__lines__mutmut_6": LISTING,
        "*x__lines__mutmut_7": LISTING,
        "*x__lines__mutmut_8": LISTING,
        "*x__lines__mutmut_12": LISTING,
        "*x__lines__mutmut_13": LISTING,
        "*x__lines__mutmut_14": LISTING,
        'text.split("\\0" if (nul) and False else "\\n")': NO_NUL,
        'text.split("XX\\0XX" if nul else "\\n")': NO_NUL,
        "if line][: MAX_LINES + 2]": PAST_LINES,
        '"XXcore.fsmonitor=falseXX"': NO_INDEX,
        '"CORE.FSMONITOR=FALSE"': NO_INDEX,
        '"XXcore.hooksPath=/dev/nullXX"': NO_INDEX,
        '"core.hookspath=/dev/null"': NO_INDEX,
        '"CORE.HOOKSPATH=/DEV/NULL"': NO_INDEX,
        "skip = None": FALSY,
    },
    "narnat_agent/safety/tasks.py": {
        'first = text.split("\\n", )[0]': FIRST_PIECE,
        'first = text.split("\\n", 2)[0]': FIRST_PIECE,
        'first = text.rsplit("\\n", 1)[0]': FIRST_LINE,
        'first = text.split("XX\\nXX", 1)[0]': FIRST_LINE,
        'manager = (argv[0] or "").rsplit("/", )[-1]': LAST_PART,
        'manager = (argv[0] or "").rsplit("/", 2)[-1]': LAST_PART,
        'manager = (argv[0] or "XXXX")': "rules.py hands it only a command whose program is named",
        'shebang.group(1).rsplit("/", )[-1]': LAST_PART,
        'shebang.group(1).rsplit("/", 2)[-1]': LAST_PART,
        "data = f.read(MAX_FILE + 2)": PAST_LIMIT,
        "data = f.read(None)": PAST_LIMIT,
        'if check.cwd is None or OTHER_PACKAGE & {o.split("=", )[0]': FIRST_PIECE,
        'if check.cwd is None or OTHER_PACKAGE & {o.split("=", 2)[0]': FIRST_PIECE,
        'if option.split("=", )[0] in DIRECTORY:': FIRST_PIECE,
        'if option.split("=", 2)[0] in DIRECTORY:': FIRST_PIECE,
        'assigned[word.split("=", )[0]]': FIRST_PIECE,
        'assigned[word.split("=", 2)[0]]': FIRST_PIECE,
        'MAKE_DRY & {a.split("=", )[0]': DRY,
        'MAKE_DRY & {a.split("=", 2)[0]': DRY,
        'MAKE_DRY & {a.rsplit("=", 1)[0]': DRY,
        'MAKE_DRY & {a.split("XX=XX", 1)[0]': DRY,
        "MAKE_DRY & {a.split(None, 1)[0]": DRY,
        'shlex.join([script, *(w or "XXXX" for w in extra)])': COMPUTED,
        'text = " ".join([text, *(w or "XXXX" for w in extra)])': COMPUTED,
        'word = args[i] or "XXXX"': COMPUTED,
        'value = args[i + 1] if i + 1 < len(args) else "XXXX"': NO_VALUE,
        'folder, i = folder / (value or "XXXX"), i + 2': NO_VALUE,
        'files, i = [*files, value or "XXXX"], i + 2': NO_VALUE,
        'elif not word.startswith("XX-XX") and "=" in word:': MAKE_OPTIONS,
        'targets += [] if (word.startswith("-")) and False else [word]': MAKE_OPTIONS,
        'targets += [] if word.startswith("XX-XX") else [word]': MAKE_OPTIONS,
        'if line.startswith("@php ") and line.startswith("@composer "):': AT_SIGN,
        'if line.startswith("XX@php XX")': AT_SIGN,
        'if line.startswith("@PHP ")': AT_SIGN,
        'or line.startswith("XX@composer XX"):': AT_SIGN,
        'or line.startswith("@COMPOSER "):': AT_SIGN,
        'if line.startswith("XX@putenv XX"):': AT_SIGN + " (putenv X=1 names nothing that destroys)",
        'if line.startswith("@PUTENV "):': AT_SIGN + " (putenv X=1 names nothing that destroys)",
        'return "XXXX"': NO_WORD,
        'wanted = words or [next(iter(recipes), "XXXX")]': NO_WORD,
        'wanted = targets or [next(iter(rules), "XXXX")]': NO_WORD,
        'recipes = _justfile(text or "XXXX")': NO_WORD,
        'rules, variables = _makefile(text or "XXXX")': NO_WORD,
        'name = match.group(1) or match.group(2) or "XXXX"': NO_WORD,
        'if " " in name or "XX,XX" in name:': "a call of make's functions has a space after the function's name",
        '"XXset XX", "alias ", "export ", "import "': JUST_SETTINGS,
        '"SET ", "alias ", "export ", "import "': JUST_SETTINGS,
        '"set ", "XXalias XX", "export ", "import "': JUST_SETTINGS,
        '"set ", "ALIAS ", "export ", "import "': JUST_SETTINGS,
        '"set ", "alias ", "XXexport XX", "import "': JUST_SETTINGS,
        '"set ", "alias ", "EXPORT ", "import "': JUST_SETTINGS,
        '"set ", "alias ", "export ", "XXimport XX"': JUST_SETTINGS,
        '"set ", "alias ", "export ", "IMPORT "': JUST_SETTINGS,
        'text = ""': "an empty file has no recipe or target: the name is read as when there is no file",
        "if body[:2] and body[0]": "a list's first two items are there exactly when its first is",
        "skip = ended = None": FALSY,
        "skip = None": FALSY,
        'getattr(r, "template", ) == FOLLOWING': "every refusal a rule adds is a Said, which has a template",
        "scripts = _scripts(None, options, check)": "only composer reads another file than package.json, and composer "
        "never reaches this line",
    },
}
