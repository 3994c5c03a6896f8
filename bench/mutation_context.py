"""The equivalent mutants of the conversation's messages, the system prompt, the tools' shared workspace and the shells
Bash runs (bench/mutation.py): a piece of a line as the mutant writes it, and why that change cannot alter what the
code does."""

CODEC = "Python's codecs take UTF-8 in any case (and bytes.decode's default is UTF-8)"
PAST_LIMIT = "a package.json longer than the limit cannot be read however much more of it is read"
ONE_MODEL = "the base prompt names {model} once: split or rsplit, with or without a limit, give the same two halves"
PROMPT_START = (
    "the text up to the model's name is the prompt's whole beginning, found at its start alone: whatever part of "
    "the base prompt follows the name, the same one place is found and changed"
)

CONTEXT_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/conversation/context.py": {
        "self.name = name or stamp(None)": "stamp() of no moment takes the time now, a microsecond after the moment "
        "the conversation was created: the same second, unless one ends between the two lines",
        "for i in range(len(self.messages) - 1, -2, -1):": "index -1 is the last message, already looked at first: "
        "it is not the assistant's either, and the loop ends as before",
    },
    "narnat_agent/prompts/system_prompt.py": {
        'text = data.decode(errors="backslashreplace")': CODEC,
        'text = data.decode("UTF-8", errors="backslashreplace")': CODEC,
        "*x__scripts__mutmut_5": PAST_LIMIT + " (its read(None))",
        "data = f.read(MAX_PACKAGE_JSON + 2)": PAST_LIMIT,
        'start, rest = BASE_PROMPT.split("{model}", )': ONE_MODEL,
        'start, rest = BASE_PROMPT.rsplit("{model}", 1)': ONE_MODEL,
        'start, rest = BASE_PROMPT.split("{model}", 2)': ONE_MODEL,
        "end = rest.split(None, 1)[0]": PROMPT_START,
        'end = rest.split("\\n", )[0]': PROMPT_START,
        'end = rest.rsplit("\\n", 1)[0]': PROMPT_START,
        'end = rest.split("XX\\nXX", 1)[0]': PROMPT_START,
        'end = rest.split("\\n", 2)[0]': PROMPT_START,
    },
    "narnat_agent/tools/workspace.py": {
        'return os.fsencode(name).decode("UTF-8", "backslashreplace")': CODEC,
        'return text.encode("UTF-8")': CODEC,
        "binary_kind(data[:4097], path)": "one byte more of a head of 4 KB tells text from binary alike",
        "difflib.get_close_matches(path.name, names, cutoff=0.5)": "difflib gives three matches at most by default",
        "p = p if (p.is_absolute()) and False else self.root / p": "the root joined with an absolute path is that "
        "path (pathlib's /)",
    },
    "narnat_agent/tools/bash/shells.py": {
        'if env.get(variable) else "XXXX"': "an unset variable's folder is never looked in: the empty text is dropped, "
        "and a relative folder is the current one's, which no install of Git is",
        'env.get("PATH", "XXXX").split(os.pathsep)': "a PATH entry that is not absolute is never looked in",
        'encode("UTF-8", "surrogateescape")': CODEC,
    },
}
