"""The equivalent mutants of the protocol's side of Narnat, acp/ (bench/mutation.py): a piece of a line as the mutant
writes it, and why that change cannot alter what the code does."""

CODEC = "Python's codecs take UTF-8 in any case"
FALSE_ASCII = "json.dumps takes a false ensure_ascii, None included, as False"
FALSY = "the flag is read only as true or false, and None is false"
SET_FIRST = "the session's agent is built, and its workspace set, before any tool can start"
TEXT_KEYS = "a JSON object's keys are text: no argument has the key None"

ACP_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/acp/wire.py": {
        'line.encode("UTF-8", "backslashreplace")': CODEC,
        "json.dumps(message, ensure_ascii=None,": FALSE_ASCII,
    },
    "narnat_agent/acp/calls.py": {
        'data.decode("UTF-8", "replace")': CODEC,
        "target = args.get(key) if (key) or True else None": TEXT_KEYS,
    },
    "narnat_agent/acp/replay.py": {
        'args = json.loads(raw or "XX{}XX")': "empty arguments that are not JSON are shown as no arguments alike",
    },
    "narnat_agent/acp/ui.py": {
        "self.answering = None": FALSY,
        "self.cancelled = None": FALSY,
        'self.workspace: Workspace | None = ""': SET_FIRST,
        "def ask(self, question: str, default: str, secret: bool = True)": "an editor is asked nothing: the default "
        "is the answer, secret or not",
        'def __init__(self, link: Link, session_id: str = "XXXX")': "the session's id is set when it opens; until "
        "then what is said is held (no prompt is answered), never sent with the id",
    },
}
