"""The equivalent mutants of the web tools, Edit, TodoWrite, the tool contract, the registry and the slash commands
(bench/mutation.py): a piece of a line as the mutant writes it, or a pattern of mutant names (starting with *), and
why that change cannot alter what the code does."""

LAST_PIECE = "the last piece after a / is the same however many pieces are asked for"
FALSY = "the value is only ever tested for truth, and both are false"
NO_WRAPPER_WORD = (
    "the mutant differs only for a run wrapper with nothing after it (`uv run`): then the wrapper's words stand as the "
    "program, and none of them names a verification either"
)

WEB_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/tools/verification.py": {
        'word = argv[at].rsplit("/", 2)[-1]': LAST_PIECE,
        'word = argv[at].rsplit("/", )[-1]': LAST_PIECE,
        "return None if rest[:2] and rest[0] in NOT_BUILDS": "the first two words are there exactly when the first is",
        'argv[at + 1] if at + 2 < len(argv) else ""': NO_WRAPPER_WORD,
        'argv[at + 1] if at + 1 < len(argv) else "XXXX"': NO_WRAPPER_WORD,
        "skip = None": FALSY,
    },
}
