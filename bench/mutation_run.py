"""The equivalent mutants of run/ (headless.py, start.py, repl.py) and cli.py for bench/mutation.py: a piece of a
line as the mutant writes it, or a pattern of mutant names (starting with *), and why the change cannot alter what
the code does."""

FIRST_PART = "the text before the first separator is the same however many splits follow it"
OPEN_CALLS = (
    "no call is open when an exception leaves agent.ask or a command: agent.turn's finally answers every open call "
    "(core/agent.py), and a command's turns run through it too"
)
HEADLESS_INPUT = (
    "a headless run reads nothing through its UI: the -p text is read before it, and its confirmations are "
    "NobodyToAsk's or --yes's, never the UI's"
)
CODEC = "Python's codec names ignore case"
PROMPT_METAVAR = "argparse names an option's value by its dest in capitals: PROMPT, as written"
NOT_STOPPING = "stop is only tested for truth, and False and None are both false"

RUN_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/run/headless.py": {
        "if (isinstance(e, SessionError)) and False else Stop.PROVIDER_ERROR": (
            "no SessionError leaves agent.ask or pursue (a compression whose archive cannot be written says so and "
            "returns None: conversation/compressor.py): only an LLMError reaches here, a provider error either way"
        ),
        "leave_on_signals(agent, stop=None)": NOT_STOPPING,
    },
    "narnat_agent/run/repl.py": {
        "leave_on_signals(agent, stop=None)": NOT_STOPPING,
        'paragraph = answer.strip().split("\\n\\n", )[0]': FIRST_PART,
        'paragraph = answer.strip().split("\\n\\n", 2)[0]': FIRST_PART,
        "build_agent(config, ui, Opening.of(args), system_prompt, None)": (
            "offer_undo, right after, puts the person's question (ui.confirm with what /undo can restore) in place of "
            "the workspace's confirm"
        ),
        "(_recap(agent) if (resumed) or True else [])": (
            "a new conversation has no question yet, and the recap of a conversation without one is empty"
        ),
        "answer_open_calls(None)": OPEN_CALLS,
        'answer_open_calls(f"Failed: {type(None).__name__}")': OPEN_CALLS,
    },
    "narnat_agent/cli.py": {
        "super().add_usage(None, actions, groups,": (
            "the parser is made without a usage of its own: argparse passes None as the usage either way"
        ),
        "if (heading) or True else heading)": (
            "argparse's only sections here are its two groups (positionals, options), both titled: no heading is empty"
        ),
        'value < float("INF")': "float() reads infinity in any case",
        "HeadlessUI(sys.stdout, sys.stderr, None)": HEADLESS_INPUT,
        "HeadlessUI(sys.stdout, sys.stderr, )": "PlainUI's input is sys.stdin when none is given",
        '"UTF-16")': CODEC,
        '"UTF-8-SIG")': CODEC,
        'data.decode("UTF-8", errors="backslashreplace")': CODEC,
        'return data.decode(errors="backslashreplace")': "bytes.decode's encoding is UTF-8 when none is named",
        "formatter_class=_HelpFormatter, add_help=None)": "add_help is only tested for truth: None and False alike",
        '"--print", dest="prompt", metavar=None,': PROMPT_METAVAR,
        '"--print", dest="prompt", help=': PROMPT_METAVAR,
        "if reporter is not None or prompt is not None:": (
            "the reporter is made exactly when there is a prompt (a headless run): both are set, or neither"
        ),
    },
}
