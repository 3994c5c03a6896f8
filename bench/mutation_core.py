"""The equivalent mutants of the agent's loop, the tool registry and the keys (bench/mutation.py): a piece of a line
as the mutant writes it, or a pattern of mutant names (starting with *), and why that change cannot alter what the
code does. Each module's first entries are those of the functions measured before the rest of it."""

FIRST_PART = "the text before the first separator is the same however many splits follow it"
UNSHOWN = "a turn that outgrows the context window is asked again after compression; its first message is never shown"
SCHEMAS = "the nine tools' schemas are fixed, and each names its properties and its required ones, at every level"

CORE_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/core/agent.py": {
        'pending = ""': "the checkpoints take any false pending step alike: there is nothing to record",
        "conversation no longer fits the model's context window.": UNSHOWN,
        "NO LONGER FITS THE MODEL'S CONTEXT WINDOW.": UNSHOWN,
        "stop, message = Stop.PROVIDER_ERROR, _(None)": UNSHOWN,
        # the rest of the module
        'ToolCall("check", "Check", None,': "the check's raw arguments are never read: its call is not in the "
        "conversation, and the UIs show its parsed ones",
        'ToolCall("check", "Check", "XXXX",': "the check's raw arguments are never read: its call is not in the "
        "conversation, and the UIs show its parsed ones",
        "if (isinstance(result.detail, Output)) or True else None": "a check's result holds its command's Output, or "
        "no detail at all (refused): what is not an Output is None either way",
        "config.state_dir, None, ui.notice)": "switch, run at the end of the constructor, gives the checkpoints the "
        "session's own at once",
        "model_from=None))": "the turn a switched model answers from is read only as true or false, and None is false",
        "self.model_from = None": "the turn a switched model answers from is read only as true or false, and None is "
        "false",
    },
    "narnat_agent/keyguard.py": {
        "if (secret in text) or True else text": "replacing text that does not hold the key changes nothing: the test "
        "only spares the copy",
        'if ("\\n" in text) or True else text': "without a line end the wrapped form can only match the key itself, "
        "already replaced: the test only spares the search",
    },
    "narnat_agent/tools/registry.py": {
        'secret: str = "XXXX"': "a default of fewer than eight characters is never taken for a key",
        "if error and args is None:": "a call's arguments are None exactly when its error is set (core/reply.py)",
        "json.dumps(checked, ensure_ascii=None)": "json.dumps takes a false ensure_ascii, None included, as False",
        # the rest of the module
        '"XXnumberXX": (int, float)': "no tool has a parameter of type number: every numeric one is an integer",
        '"NUMBER": (int, float)': "no tool has a parameter of type number: every numeric one is an integer",
        "if kind[0] in 'XXaeiouXX' else": "the schemas' types are lower case: none starts with X",
        'spec.get("items", None)': SCHEMAS + " (an array's items among them)",
        'spec.get("items", )': SCHEMAS + " (an array's items among them)",
        'if kind == "object" or "properties" in spec:': SCHEMAS + ": only an object has properties, and every "
        "object has them",
        'schema.get("required", None)': SCHEMAS,
        'schema.get("required", )': SCHEMAS,
        'schema.get("properties", None)': SCHEMAS,
        'schema.get("properties", )': SCHEMAS,
        'split("\\n", )[0]': FIRST_PART,
        'split("\\n", 2)[0]': FIRST_PART,
        '"XX, XX".join(files)': "Write and Edit change the one file their file_path names, and no other tool names "
        "files: a list of one is never joined",
        "_guarded(named, None, workspace, log)": "the named command's run takes no arguments: it runs the command "
        "it was given",
    },
    "narnat_agent/acp/server.py": {
        "self.cancellable = None": "the flag is read only as true or false, and None is false",
        "threading.main_thread().ident or 1": "the main thread, running, always has an ident",
    },
    "narnat_agent/acp/sessions.py": {
        "system_prompt, None)": "the agent's questions are asked through offer_undo's, set right after it is built: "
        "the confirm given to build_agent is never asked",
    },
    "narnat_agent/ui/keys.py": {
        "now - self.last_escape < TWICE": "a second press exactly 1.5 s after the first is a moment no clock can be "
        "said to hit",
        # the rest of the module
        'or "XX XX" in text:': "no command's name holds a space: a text with one after the slash matches none",
        "Document(fragment, len(fragment)), None)": "the fuzzy completer hands the event to the word completer, which "
        "reads only the document",
        "Document(fragment, None)": "a document's cursor is at the end of its text unless told otherwise",
        "Document(fragment, )": "a document's cursor is at the end of its text unless told otherwise",
        "(lambda event: 0)": "prompt_toolkit reads nothing a key's handler returns (but NotImplemented): the key is "
        "taken and does nothing either way",
        "completer.get_completions(document, None)": "the completers merged read only the document, never the event",
        "self.last_escape = 1.0": "the monotonic clock is far past its first seconds: a first press is never 1.5 s "
        "after 0.0 or 1.0 alike",
        "self.busy = self.fired = None": "both flags are read only as true or false, and None is false",
        "atexit.register(raw.__exit__, None, None": "the terminal's raw mode takes any arguments to leave (*a)",
        "KeyPress(Keys.ControlM, None)": "the Enter binding reads the key, not its data (which defaults to the key's "
        "name)",
        "KeyPress(Keys.ControlM, )": "the Enter binding reads the key, not its data (which defaults to the key's name)",
        'KeyPress(Keys.ControlM, "XX\\rXX")': "the Enter binding reads the key, not its data",
        "self._thread.join(None)": "the thread ends within one poll of the stop (0.05 s): a longer wait, or none, "
        "ends the same",
        "self._thread.join(2)": "the thread ends within one poll of the stop (0.05 s): a longer wait ends the same",
        "self.fired = None": "the flag is read only as true or false, and None is false",
        "if self.held or self._input is not None:": "with nothing held, the keys handed to the next prompt are none",
        "complete_while_typing=True, bottom_toolbar=toolbar)": "without one, prompt_toolkit indents a continuation "
        "line by the prompt's width: two spaces for its '❯ ' alike",
        "prompt_continuation=None,": "without one, prompt_toolkit indents a continuation line by the prompt's width: "
        "two spaces for '> ' alike",
        "keys.add(key, )(answer(False))": "eager only spares the wait for a key that could follow ESC: the answer is "
        "no either way, a fraction of a second later",
        "keys.add(key, eager=False)(answer(False))": "eager only spares the wait for a key that could follow ESC: the "
        "answer is no either way, a fraction of a second later",
    },
}
