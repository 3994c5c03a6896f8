"""The Windows rules' tests, and the equivalent mutants of safety/vocabulary.py, safety/windows_system.py and
safety/windows_refusals.py for bench/mutation.py: a piece of a line as the mutant writes it, or a pattern of mutant
names (starting with *), and why the change cannot alter what the code does."""

from mutation_tailc import TAILC_EQUIVALENT

# PowerShell's and cmd's corpus and each of their rules' own cases (SAFETY_TESTS hold the POSIX corpora, which these
# rules never see); the held-out corpus reads every command through the same rules at twice the cost of a mutant
WINDOWS_TESTS = ("tests/safety/test_windows_corpus.py",)

SKIP = "skip is only tested for truth, and False and None are both false"
FIRST_NAME = "the text before the first = is the same however many times it is split"
ALL_KEPT = (
    "no option's name holds all four of backup, backups, snapshot and snapshots: for every name a tool has, a proper "
    "subset of them and a subset are the same"
)

UNCHECKED = "a rule of _named never reads the check: it decides from the command alone"
ONE_FOR_ONE = "a command's argv and shown words go one for one: zip's strictness never decides"
RUN_TIME = (
    "a word known only at run time is neither a switch, a word of the rule, nor /?: the empty text and any other such "
    "text are read alike"
)

VOCAB_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/safety/windows_system.py": {
        "command, None": UNCHECKED,
        "zip(args, shown, strict=None)": ONE_FOR_ONE,
        "zip(args, shown, )": ONE_FOR_ONE,
        "zip(args, shown, strict=True)": ONE_FOR_ONE,
        'a.lower() if a else "XXXX" for a in command.argv[1:]': RUN_TIME,
    },
    "narnat_agent/safety/vocabulary.py": {
        **TAILC_EQUIVALENT["narnat_agent/safety/vocabulary.py"],
        "skip = None": SKIP,
        '(a.split("=", 2)[0] for a in args if a.startswith("--"))': FIRST_NAME,
        '(a.split("=", )[0] for a in args if a.startswith("--"))': FIRST_NAME,
        '{a.split("=", )[0] for a in args}': FIRST_NAME,
        '{a.split("=", 2)[0] for a in args}': FIRST_NAME,
        "set(split[1:]) < KEPT": ALL_KEPT,
        '[a.split("=", )[0] for a in args if a.startswith("--") and not': FIRST_NAME,
        '[a.split("=", 2)[0] for a in args if a.startswith("--") and not': FIRST_NAME,
        "named += [w for w in words if UNDOES & set(parts(w)) and w in named]": "the word added again is a subcommand, "
        "already named: never among the words after the options that the question names, nor a new cache",
    },
}
