"""The equivalent mutants of commands/ for bench/mutation.py: a piece of a line as the mutant writes it, or a
pattern of mutant names (starting with *), and why the change cannot alter what the code does."""

FIRST_WORD = "the text before the first space is the same however many splits follow it"
BEST_FIRST = "get_close_matches gives the best match first: only close[0] is read, however many it returns"

COMMANDS_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/commands/dispatch.py": {
        'first, *rest = cells.wrap(line, room) or ["XXXX"]': "no line reaching the wrap is blank but not empty: the "
        "built-in help lines are text, and a command file's description is its words joined by single spaces",
        '.split(" ", 2)[0].lower()': FIRST_WORD,
        '.split(" ", )[0].lower()': FIRST_WORD,
        'close=close[0] if close else "XXXX"': "the sentence without a close name has no place for one",
        "n=2, cutoff=0.5)": BEST_FIRST,
        "[*REGISTRY, *user], cutoff=0.5)": BEST_FIRST,
        "help_(agent, None, user)": "/help reads no argument",
    },
}
