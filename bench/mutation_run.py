"""The equivalent mutants of run/ (headless.py, start.py, repl.py) and cli.py for bench/mutation.py: a piece of a
line as the mutant writes it, or a pattern of mutant names (starting with *), and why the change cannot alter what
the code does."""

RUN_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/run/headless.py": {
        "if (isinstance(e, SessionError)) and False else Stop.PROVIDER_ERROR": (
            "no SessionError leaves agent.ask or pursue (a compression whose archive cannot be written says so and "
            "returns None: conversation/compressor.py): only an LLMError reaches here, a provider error either way"
        ),
        "leave_on_signals(agent, stop=None)": "stop is only tested for truth, and False and None are both false",
    },
}
