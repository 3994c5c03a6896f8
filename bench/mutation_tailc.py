"""The equivalent mutants of provider/transport.py and safety/vocabulary.py for bench/mutation.py: a piece of a line
as the mutant writes it, or a pattern of mutant names (starting with *), and why the change cannot alter what the
code does."""

SUBCOMMAND_FIRST = (
    "argv[1] is never a command after the options: subcommands() always takes a first word that looks like one, and "
    "an option or a path is left out by the other conditions"
)
NO_DASH = "_subcommand() needs a letter first: an option is left out whether or not startswith sees its dash"
FIRST_PART = "a list's first two items are empty exactly when its first is: the condition is the same"

NETWORK = "httpx2's HTTP transport gives every response its network stream: the None branch is never taken"
NOT_PENDING = "pending is only tested for truth, and False and None are both false"
CODEC = "codec names ignore case"
COMMENT = (
    "a comment line read as a field has the empty name, which is none of the four: it opens no event and adds no data"
)
HEADER_CASE = "HTTP header names ignore case, and the client's headers hold no other Content-Length"
METHOD_CASE = "httpx2 writes a request's method in upper case"
NOT_STREAMED = "the flag is only tested for truth, and False and None are both false"

TAILC_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/provider/transport.py": {
        "if (network is not None) or True else None": NETWORK,
        "pending = None": NOT_PENDING,
        'raw.decode("UTF-8")': CODEC,
        'not line.startswith("XX:XX")': COMMENT,
        '{"content-length": str(': HEADER_CASE,
        '{"CONTENT-LENGTH": str(': HEADER_CASE,
        'build_request("get", ': METHOD_CASE,
        'build_request("post", ': METHOD_CASE,
        '{"authorization": f"Bearer': HEADER_CASE,
        '{"AUTHORIZATION": f"Bearer': HEADER_CASE,
        '"content-type": "application/json"': HEADER_CASE,
        '"CONTENT-TYPE": "application/json"': HEADER_CASE,
        '"accept": "application/json"': HEADER_CASE,
        '"ACCEPT": "application/json"': HEADER_CASE,
        '"user-agent": f"narnat/': HEADER_CASE,
        '"USER-AGENT": f"narnat/': HEADER_CASE,
        "self._send(request, stream=None)": NOT_STREAMED,
    },
    "narnat_agent/safety/vocabulary.py": {
        "for w in argv[2:]": SUBCOMMAND_FIRST,
        'not w.startswith("XX-XX")': NO_DASH,
        "if parts(w)[:2] and parts(w)[0] in VERBS | EMPTIES": FIRST_PART,
        'set(parts(word.split("=", )[0]))': "the text before the first = is the same however many times it is split",
        'set(parts(word.split("=", 2)[0]))': "the text before the first = is the same however many times it is split",
        '(a.split("=", )[0] for a in args': "the text before the first = is the same however many times it is split",
    },
}
