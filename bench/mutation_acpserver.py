"""The equivalent mutants of the protocol's server and of a session an editor opens (bench/mutation.py), beside those
the core's measure listed first (mutation_core.py, kept here: a module's entries are one dict): a piece of a line as
the mutant writes it, and why that change cannot alter what the code does."""

from mutation_core import CORE_EQUIVALENT

FIRST_WORD = "the command's name is the text before the first space, however many splits follow it"

ACPSERVER_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/acp/server.py": {
        **CORE_EQUIVALENT["narnat_agent/acp/server.py"],
        '.removeprefix("/").split(" ", )[0].lower()': FIRST_WORD,
        '.removeprefix("/").split(" ", 2)[0].lower()': FIRST_WORD,
    },
    "narnat_agent/acp/sessions.py": {
        **CORE_EQUIVALENT["narnat_agent/acp/sessions.py"],
        "raise RequestError(INVALID_PARAMS if (name) or True else INTERNAL": "build_agent gives no agent only when a "
        "saved conversation cannot be loaded: a new session (no name) always has one",
    },
}
