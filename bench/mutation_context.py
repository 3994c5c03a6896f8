"""The equivalent mutants of the conversation's messages, the system prompt, the tools' shared workspace and the shells
Bash runs (bench/mutation.py): a piece of a line as the mutant writes it, and why that change cannot alter what the
code does."""

CONTEXT_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/conversation/context.py": {
        "self.name = name or stamp(None)": "stamp() of no moment takes the time now, a microsecond after the moment "
        "the conversation was created: the same second, unless one ends between the two lines",
        "for i in range(len(self.messages) - 1, -2, -1):": "index -1 is the last message, already looked at first: "
        "it is not the assistant's either, and the loop ends as before",
    },
}
