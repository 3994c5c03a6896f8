"""The provider's and the core loop's mutation targets' tests and equivalent mutants (bench/mutation.py): a piece of a
line as the mutant writes it, and why that change cannot alter what the code does."""

FAST = ("-m", "not slow")  # the tests that start Narnat as another process are invisible to mutmut, and slow
# the client in process against the fake provider: its errors, retries, limits, refusals, the model list, the usage
CLIENT_TESTS = (
    "tests/provider/test_client.py",
    "tests/provider/test_llm.py",
    "tests/provider/test_llm_malformed.py",
    "tests/provider/test_transport.py",
    "tests/provider/test_endpoint.py",
    *FAST,
)
ERRORS_TESTS = ("tests/provider/test_errors.py",)  # each status and header, said as the person reads it
TRANSPORT_TESTS = ("tests/provider/test_transport.py", "tests/provider/test_llm_malformed.py", *FAST)
COUNTS_TESTS = ("tests/provider/test_counts.py",)  # pure figures: their own cases say all
ENDPOINT_TESTS = ("tests/provider/test_endpoint.py", *FAST)
FIT_TESTS = ("tests/provider/test_counts.py", "tests/provider/test_endpoint.py", *FAST)
BODY_TESTS = ("tests/provider/test_transport.py",)
TURN_TESTS = ("tests/core/test_turn.py", "tests/core/test_goal.py", *FAST)
GOAL_TESTS = ("tests/core/test_goal.py", *FAST)
HEADLESS_TESTS = ("tests/core/test_turn.py",)  # the headless runs' own tests start Narnat as another process

REFUSED_ONCE = (
    "the flag is read for its truth, and in the form the body compares to the last one: None differs from True as "
    "False does, and stays what it is"
)
FALSE_ASCII = "json.dumps takes a false ensure_ascii, None included, as False"
OWN_TEXT = (
    "an error's message is its own text (APIError passes it to Exception), and an error without one is read as its "
    "text: str(error) says the same either way"
)
HEADER_NAME = "urllib's Request capitalizes each header's name (Content-type, Authorization): any case is sent alike"
ONE_TURN_AT_LEAST = (
    "max_turns is a positive integer (its setting's check): the loop runs a turn at least, which replaces the "
    "outcome and adds to what was spent"
)
CASELESS = "the search ignores case: the pattern in capitals finds the same"
BODY_COUNT = (
    "the body serialises the messages again in another form and counts them alike; the request's own build takes "
    "the client's form back before anything is sent"
)
UNREACHABLE = "every try returns or raises: the loop never ends without one"
PRELOAD = "the HTTP client is loaded earlier, nothing more: every request loads it anyway if it is not yet (_http)"

PROVIDER_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/provider/client.py": {
        "self.use_stream_options = None": REFUSED_ONCE,
        "self.send_reasoning = None": REFUSED_ONCE,
        "self.send_images = None": REFUSED_ONCE,
        "return Usage(prompt, estimate(made), estimated=True)": "a Usage's cached count is 0 by default",
        "start_thread(None)": PRELOAD,
        "self.doubted = None": "the flag is only tested for truth, and both are false",
        'r"REASONING", message, re.I)': CASELESS,
        'r"MUST BE PASSED|MISSING", message, re.I)': CASELESS,
        "sent = self._body.grow(messages, None, self._outgoing)": BODY_COUNT,
        "prompt = self._body.grow(messages, None, self._outgoing)": BODY_COUNT,
        "prompt = self._body.grow(messages, self._form, None)": "the request serialised every message in this form "
        "already: none is left to pass through outgoing",
        "for attempt in range(1, MAX_TRIES + 2):": "the fourth try that fails raises before the range gives a fifth",
        "min(9.0, 0.5 * 2 ** (attempt - 1))": "four tries wait at most 2 s: the cap is never reached",
        "raise AssertionError(None)": UNREACHABLE,
        'raise AssertionError("XXunreachableXX")': UNREACHABLE,
        'raise AssertionError("UNREACHABLE")': UNREACHABLE,
    },
    "narnat_agent/provider/errors.py": {
        "json.dumps(text, ensure_ascii=None)": FALSE_ASCII,
        'str(getattr(None, "message", "") or error)': OWN_TEXT,
        'str(getattr(error, "message", None) or error)': OWN_TEXT,
        'str(getattr(error, "XXmessageXX", "") or error)': OWN_TEXT,
        'str(getattr(error, "MESSAGE", "") or error)': OWN_TEXT,
        'return float(value or "XXXX") * scale': "float() refuses both texts alike: the header is skipped either way",
    },
    "narnat_agent/provider/body.py": {
        "json.dumps(value, ensure_ascii=None,": FALSE_ASCII,
        "allow_nan=None).encode()": "json.dumps takes a false allow_nan, None included, as False: NaN is refused",
        'self.form: object = ""': "the first grow finds nothing serialised whether it takes its form for new or not",
        "len(self.blocks[-1]) <= BLOCK": "where a block ends decides only the pieces the body is sent in, never its "
        "bytes (a block is a limit on copying, not on content)",
        "while self.firsts and self.firsts[-1] > kept:": "a block that starts at the cut is dropped by the next lines "
        "instead, and the block before it is kept rather than serialised again to the same bytes",
        "enumerate(zip(self.sent, messages, strict=None))": "zip's strict is False by default, and None is false",
        "enumerate(zip(self.sent, messages, ))": "zip's strict is False by default",
    },
    "narnat_agent/provider/endpoint.py": {
        '{"content-type": "application/json"': HEADER_NAME,
        '{"CONTENT-TYPE": "application/json"': HEADER_NAME,
        '"authorization": f"Bearer {key}"': HEADER_NAME,
        '"AUTHORIZATION": f"Bearer {key}"': HEADER_NAME,
        "quote(model, safe='XXXX')": "letters are never quoted: making X safe changes nothing",
        'str(shown.get("parameters") or "XXXX")': "a line XXXX names no num_ctx, as no line does",
        'host = urlsplit(base_url).hostname or "XXXX"': "neither text is localhost, a .local name or an address",
    },
    "narnat_agent/core/goal.py": {
        "outcome, stop = TurnOutcome(None), Stop.TURN_LIMIT": ONE_TURN_AT_LEAST,
        "stats = _summed(spent) if (spent) or True else outcome.stats": ONE_TURN_AT_LEAST,
    },
    "narnat_agent/provider/fit.py": {"self.said = None": "the flag is only tested for truth, and both are false"},
    "narnat_agent/provider/tokens.py": {"json.dumps(_without_images(item, images), ensure_ascii=None)": FALSE_ASCII},
}
