"""The equivalent mutants of safety/windows_refusals.py for bench/mutation.py: a piece of a line as the mutant writes
it, or a pattern of mutant names (starting with *), and why the change cannot alter what the code does; and those of
safety/windows_system.py added to the vocab group's."""

from mutation_vocab import VOCAB_EQUIVALENT

ONE_FOR_ONE = "a command's argv and shown words go one for one: zip's strictness never decides"
ONLY_TRUTH = "waits is only tested for truth, and False and None are both false"
NO_SWITCH = (
    "a word known only at run time (None) is read as the empty text or XXXX: neither starts with / nor is one of "
    "start's switches"
)
NO_VERB = "a -Verb known only at run time is the empty text or XXXX: neither is runas"
NO_FILE = "the default stands only for a missing -FilePath, whose value (index 0) is None whatever its shown text"
NOTHING_STARTED = (
    "without -FilePath the program is None or the empty name: no rule, runtime nor editor has the empty name, so "
    "nothing is added either way"
)
TWO_POSITIONAL = (
    "Start-Process takes two words by position (FilePath, ArgumentList): PowerShell refuses a third, and the command "
    "runs nothing; the words go to args only then"
)
NO_PROGRAM = "a started program's name is never empty: the empty text and XXXX both name no runtime"
RUN_TIME_WORD = (
    "a word known only at run time (None) is read as the empty text or XXXX: neither is nul nor starts with /c: or /g:"
)
NO_NAME = "a command named only at run time is the empty text or XXXX: neither is in any of the rules' tables"
NO_OWNER = "a call alone is owned by the empty text or XXXX: neither holds $host nor starts with [console]::in"
ALL_FLAGS = "no command gives every one of the shells' flags at once: a subset of them and a proper subset are the same"
SWITCH_BY_NAME = (
    "-Recurse and -Wait are switches, found by their name whatever parameters the other words go to (no positional "
    "parameter's name starts as theirs do)"
)
NO_OPTION = "an option of XXXX is never among a command's words, as the empty one never is: the operand is named alike"
DRIVE_COLON = (
    "format's drive is written with its colon (format refuses a bare letter): no X is left at its end to strip"
)
PADDING = (
    "the padding is read only past the words the call was given, where it returns before naming anything (no scope "
    "and no run-time word in its place): the empty text and XXXX name no scope alike"
)
NO_SCOPE = "scope is only tested for truth and shown as scope or …: None and the empty text act alike"
THREE_ARGUMENTS = "SetEnvironmentVariable takes three arguments at most: a fifth word is never there"
NO_PAREN = "a method's name as shown holds no parenthesis nor space: split by either, it is kept whole"
ANY_CASE = "the pattern is matched ignoring case: [A-Z] and [a-z] match the same letters"

WINREF_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/safety/windows_refusals.py": {
        "zip(command.argv[1:], command.shown[1:], strict=True)": ONE_FOR_ONE,
        "zip(command.argv[1:], command.shown[1:], strict=None)": ONE_FOR_ONE,
        "zip(command.argv[1:], command.shown[1:], )": ONE_FOR_ONE,
        "waits = None": ONLY_TRUTH,
        '(words[at][0] or "XXXX").startswith("/")': NO_SWITCH,
        'switch = (words[at][0] or "XXXX").lower()': NO_SWITCH,
        '(v or "XXXX").lower() == "runas"': NO_VERB,
        '[(None, "XXXX")])[0][0]': NO_FILE,
        '_runtime(inner.name or "XXXX")': NO_PROGRAM,
        '(bound.get("filepath") or [(None, "")])[0][1]': NOTHING_STARTED,
        'bound.get("argumentlist") + bound.get(None)': TWO_POSITIONAL,
        'bound.get("argumentlist") + bound.get("XXargsXX")': TWO_POSITIONAL,
        'bound.get("argumentlist") + bound.get("ARGS")': TWO_POSITIONAL,
        're.match(r"[A-Z]+://", file, re.IGNORECASE)': ANY_CASE,
        'if (w or "XXXX").lower() != "nul"]': RUN_TIME_WORD,
        'given = any((w or "XXXX").lower().startswith(("/c:", "/g:"))': RUN_TIME_WORD,
        'name, shown = command.name or "XXXX", command.shown[0]': NO_NAME,
        'if len(command.shown) > 1 else "XXXX"': NO_OWNER,
        "set(args) < SHELL_FLAGS": ALL_FLAGS,
        'bind(command, ("XXpathXX",)).on("wait")': SWITCH_BY_NAME,
        'bind(command, ("PATH",)).on("wait")': SWITCH_BY_NAME,
        'bind(command, ("XXpathXX", "filter")).on("recurse")': SWITCH_BY_NAME,
        'bind(command, ("PATH", "filter")).on("recurse")': SWITCH_BY_NAME,
        'bind(command, ("path", "XXfilterXX")).on("recurse")': SWITCH_BY_NAME,
        'bind(command, ("path", "FILTER")).on("recurse")': SWITCH_BY_NAME,
    },
    "narnat_agent/safety/windows_system.py": {
        **VOCAB_EQUIVALENT["narnat_agent/safety/windows_system.py"],
        'at: int = -1, option: str = "XXXX"': NO_OPTION,
        'drive = pairs[0][1].rstrip("XX\\\\XX")': DRIVE_COLON,
        "zip(command.argv[1:], command.shown[1:], strict=None)": ONE_FOR_ONE,
        "zip(command.argv[1:], command.shown[1:], strict=True)": ONE_FOR_ONE,
        "zip(command.argv[1:], command.shown[1:], )": ONE_FOR_ONE,
        'if not (a or "XXxXX").startswith("/")': NO_SWITCH,
        'if not (a or "X").startswith("/")': NO_SWITCH,
        'any((a or "XXXX").lower() == "/m" for a in command.argv)': NO_SWITCH,
        'shown = command.shown[1:] + ["XXXX", "", ""]': PADDING,
        'shown = command.shown[1:] + ["", "XXXX", ""]': PADDING,
        'shown = command.shown[1:] + ["", "", "XXXX"]': PADDING,
        'command.argv[3] if len(command.argv) > 3 else "XXXX"': PADDING,
        "endswith(s.lower())), None)": NO_SCOPE,
        "command.argv[3:5] != [None]": THREE_ARGUMENTS,
        "program=command.shown[0].split(None)[0]": NO_PAREN,
        'program=command.shown[0].split("XX(XX")[0]': NO_PAREN,
    },
}
