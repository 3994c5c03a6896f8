"""The equivalent mutants of commands/ for bench/mutation.py: a piece of a line as the mutant writes it, or a
pattern of mutant names (starting with *), and why the change cannot alter what the code does."""

FIRST_PART = "the text before the first separator is the same however many splits follow it"
BEST_FIRST = "get_close_matches gives the best match first: only close[0] is read, however many it returns"
FALSY = "the flag is read only as true or false, and None is false"
CODEC = "codec names ignore case"

COMMANDS_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/commands/dispatch.py": {
        'first, *rest = cells.wrap(line, room) or ["XXXX"]': "no line reaching the wrap is blank but not empty: the "
        "built-in help lines are text, and a command file's description is its words joined by single spaces",
        '.split(" ", 2)[0].lower()': FIRST_PART,
        '.split(" ", )[0].lower()': FIRST_PART,
        'close=close[0] if close else "XXXX"': "the sentence without a close name has no place for one",
        "n=2, cutoff=0.5)": BEST_FIRST,
        "[*REGISTRY, *user], cutoff=0.5)": BEST_FIRST,
        "help_(agent, None, user)": "/help reads no argument",
    },
    "narnat_agent/commands/rewind.py": {
        '.split("\\n", )[0].split())[:50]': FIRST_PART,
        '.split("\\n", 2)[0].split())[:50]': FIRST_PART,
        'split("\\n\\n<system-reminder>", )[0]': FIRST_PART,
        'split("\\n\\n<system-reminder>", 2)[0]': FIRST_PART,
        'rsplit("\\n\\n<system-reminder>", 1)[0]': "a turn records its question before Narnat adds its notes and plan "
        "mode's reminder: it holds one reminder at most (a goal's)",
        "agent.ui.ask(question, ).strip()": "every caller asks without a default: it is the empty text either way",
        '"3" if agent.ui.confirm(f"/rewind {label}", question) else "XXXX"': "a declined step and any other answer "
        "that is not 1, 2 or 3 both rewind nothing",
        "unkept=None)": "the files a one-file rewind cannot keep are only tested for truth: None and [] are both none",
        "overwrite = _overwrite(agent, plan) if plan else True": "without a plan (the conversation alone) nothing is "
        "restored, and whether to overwrite is read only with a plan",
        "_go_back(agent, summary, None, code=True": "step None and 0 slice the turn's steps alike, and both are false "
        "where the step is read",
        "code=True, conversation=None, only=path)": FALSY,
        'before.decode("UTF-8", "replace")': CODEC,
        'after.decode("UTF-8", "replace")': CODEC,
    },
    "narnat_agent/commands/sessions.py": {
        '.split("<system-reminder>", )[0].split())': FIRST_PART,
        '.split("<system-reminder>", 2)[0].split())': FIRST_PART,
    },
}
