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
}
