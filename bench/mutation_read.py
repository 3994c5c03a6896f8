"""The equivalent mutants of Read, Grep and the file helpers they share (bench/mutation.py): a piece of a line as the
mutant writes it, and why that change cannot alter what the code does."""

CODEC = "Python's codecs take UTF-8 in any case"
LISTED = (
    "a glob rg reads as --glob, its results then kept to the files rg lists (of the type asked), finds what the name "
    "filter finds: the filter only spares the listing, and the search never finds a file the listing leaves out"
)
FILLED = "the registry fills offset and head_limit from the schema's defaults: the key is always there"
GAP_ROW = "a gap row is shown as its '--' alone and counted as no match: its number and text are never read"
FIRST_ROW = "apart is set only by rg's '--', printed between rows, never before the first: the first row has no gap"
ROWS = (
    "every line rg prints in content mode is a row with its file's name and a NUL, its '--' or the binary sentence: "
    "only the empty text after its last newline is neither"
)
NO_NUL = "rg stops reading a file at its first NUL byte: no line it prints holds one after the name's"
POSIX_SEP = (
    "on POSIX the separator is '/' already: only Windows (where the suite runs under Wine, not mutmut) sees the change"
)
CHUNK = "how much of rg's output is read at a time changes only how often the loop turns"
SYMMETRIC = "the depth of nesting counted down instead of up is zero at the same characters: only zero is tested"
RG_UTF8 = "rg writes its messages in UTF-8, a name that is not shown lossily (U+FFFD): a strict decode reads them alike"
MAGIC = "a PDF begins with %PDF, which the head's check takes for binary: it reaches the whole path either way"
WHOLE = "without the head, the whole path reads the file and gives the page its pieces give, holding the file whole"
NO_INPUT = "rg --files lists names and reads no input"
LAST = "a vanished file's key only has to sort after every file's negative modification time: 0 and 1 both do"

READ_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/tools/grep.py": {
        'glob = args.get("glob", None)': "no glob is false either way",
        'glob = args.get("glob", )': "no glob is false either way",
        'glob = args.get("glob", "XXXX")': LISTED,
        "return bool(glob) or (": LISTED,
        '("XX/XX" in glob or': LISTED,
        '("/" not in glob or': LISTED,
        "or not ripgrep.name_filter(None))": LISTED,
        'last, apart = b"XXXX", False': FIRST_ROW,
        'last, apart = b"", True': FIRST_ROW,
        'path, row = m[1], (1, "", ripgrep.shown(': "a binary file's row is shown without a number",
        'extend([(1, "--", ""), row]': GAP_ROW,
        'extend([(0, "--", "XXXX"), row]': GAP_ROW,
        "*x__parse__mutmut_45": ROWS,
        'path, nul, rest = line.rpartition(b"\\0")': NO_NUL,
        "if args.get(key, None) < 0:": FILLED,
        "if args.get(key, ) < 0:": FILLED,
        "if args.get(key, 1) < 0:": FILLED,
        "binary_kind(data[:4097], ws.root / path)": "one byte more of a head of 4 KB tells text from binary alike",
        'data.decode("UTF-8", "replace")': CODEC,
        'decode("UTF-8", "replace") if number <= len(lines)': CODEC,
        "rx = _regex(args) if (cut) or True else None": "without a line to window, the loop that reads the pattern "
        "does not run, and a pattern Python cannot read returns before it either way",
        "match = rx.search(line) if (rx) or True else None": "the pattern is read whenever a line is to be windowed",
        'if file.stat().st_size <= LONG_FILE else b"XXXX"': "a line of four characters holds no match past the 500 "
        "columns rg shows",
        "if done.code >= 1 and done.out": "rg exits 1 only when it found nothing, and then it printed nothing",
    },
    "narnat_agent/tools/files/ripgrep.py": {
        'shown(raw).replace("XX/XX", os.sep)': POSIX_SEP,
        "return 1.0, path": LAST,
        'depth -= {"{": 1, "}": -1}.get(': SYMMETRIC,
        'skip = {".git"} if (in_state(top, root)) and False else': "the walk skips folders below top by name, and no "
        "folder inside .narnat is named .narnat",
        "subprocess.CompletedProcess(None, done.code": "the answer's args are never read: its caller reads its output",
        "cwd=root, stdin=None,": NO_INPUT,
        "cwd=root, stdout=subprocess.PIPE, stderr=errors)": NO_INPUT,
        "cast(None, process.stdout)": "typing.cast gives back its value unchanged",
        'decode("utf-8", ))': RG_UTF8,
        'decode("utf-8", "XXreplaceXX"))': RG_UTF8,
        'decode("utf-8", "REPLACE"))': RG_UTF8,
        "read1(2 << 16)": CHUNK,
        "read1(1 << 17)": CHUNK,
        'decode("UTF-8", "replace")': CODEC,
        'decode("UTF-8", "backslashreplace")': CODEC,
    },
    "narnat_agent/tools/read/__init__.py": {
        'not in ("XX.pdfXX", ".ipynb", *IMAGE_SUFFIXES)': MAGIC,
        'not in (".PDF", ".ipynb", *IMAGE_SUFFIXES)': MAGIC,
        "head = None": WHOLE,
        "head = file.read(None)": WHOLE,
        "head = file.read(4097)": "one byte more of a head of 4 KB tells text from binary alike",
        "used, last, tabs = 0, start + 1, False": "a page always shows its first line, which sets the last one shown",
    },
}
