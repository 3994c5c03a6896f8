"""Planted defects of the core (the loop, goals, turns, the budget), the client, the transport, the session store and
the compression, written by a sixth writer from the modules alone, as a tired developer would, without reading their
tests: each is `later`."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND6_CORE: dict[str, tuple[Defect, ...]] = {
    "narnat_agent/core/agent.py": _later(
        ("for text in map(self._without_keys, messages):", "for text in messages:",
         f"{STEP_MISSED}: a key pasted in a message sent while the agent works is sent to the provider and saved"),
        ("or self.conversation.last_prompt_tokens > FULL * self.config.context_window",
         "or self.conversation.last_prompt_tokens > self.config.context_window",
         f"{WRONG_SETTING}: a conversation at 95 % of the window is not compressed before the next question"),
        ("        finally:\n            self.checkpoints.after(pending)\n        self.ui.tool_end(result)",
         "        self.checkpoints.after(pending)\n        self.ui.tool_end(result)",
         f"{STEP_MISSED}: a tool the person interrupts is never closed in the checkpoints: what it changed is not "
         "recorded for /undo"),
    ),
    "narnat_agent/core/goal.py": _later(
        ("until[0] == until[-1] and until[0] in \"\\\"'\"", "until[-1] in \"\\\"'\"",
         f"{FORMAT_EDGE}: a check ending in a quoted argument (pytest -k 'a or b') loses its first and last "
         "characters"),
        ("[*verdict.deletions, *verdict.interactive]", "[*verdict.interactive]",
         f"{STEP_MISSED}: a check that deletes files (rm -rf build && pytest) is accepted and run after every turn"),
    ),
    "narnat_agent/core/turn.py": _later(
        ('last.status != "passed" and claims_success(answer)', 'last.status == "failed" and claims_success(answer)',
         f"{INVERTED}: an answer claiming success after a check that timed out or could not run is not marked "
         "unproven"),
        ('r"|[没未不]\\w{0,2}$", re.IGNORECASE)', 'r"|[没未不]\\w{0,2}$")',
         f"{FORMAT_EDGE}: 'Not fixed' or 'Still failing' with a capital is read as a claim of success"),
    ),
    "narnat_agent/core/budget.py": _later(
        (".format(price=price, limit=self.max_cost, spent=self.spent))",
         ".format(price=price, limit=self.spent, spent=self.spent))",
         f"{WRONG_SETTING}: the stop names what was spent as the max_cost limit"),
        ("raise TurnStopped(Stop.BUDGET, lambda: sentences(why(), _(GO_ON)))",
         "raise TurnStopped(Stop.BUDGET, why)",
         f"{STEP_MISSED}: the budget's stop no longer says how to go on (a new message, or -c with a larger "
         "--max-cost)"),
    ),
    "narnat_agent/provider/client.py": _later(
        ("            if not silence.expired and not builder.parts:\n",
         "            if not silence.expired:\n",
         f"{INVERTED}: a stream that breaks after part of the answer is sent again from the start: the text shown "
         "twice, paid twice"),
        ("if status in (400, 415, 422) and self.send_images", "if status in (400, 422) and self.send_images",
         f"{WRONG_SETTING}: a provider that refuses an image with 415 ends the turn, not asked again without images"),
        ("wait=wait, attempt=attempt + 1, tries=MAX_TRIES", "wait=wait, attempt=attempt, tries=MAX_TRIES",
         f"{OFF_BY_ONE}: the retry's notice names the try that failed as the one to come (try 1 of 4 twice)"),
    ),
    "narnat_agent/provider/transport.py": _later(
        ('        error = body.get("error", body) if isinstance(body, dict) else None\n',
         '        error = body.get("error") if isinstance(body, dict) else None\n',
         f"{FORMAT_EDGE}: a refusal whose JSON holds its message at the top (no \"error\" object) is said without it"),
        ("raise APIError(said if isinstance(said, str) and said else \"An error occurred during streaming\",",
         "raise APIError(\"An error occurred during streaming\",",
         f"{STEP_MISSED}: an error the provider sends mid-stream is said without its own words"),
        ("httpx2.Timeout(read_timeout, connect=CONNECT_TIMEOUT)",
         "httpx2.Timeout(CONNECT_TIMEOUT, connect=read_timeout)",
         f"{WRONG_SETTING}: the stream's idle limit is the connect timeout (15 s), whatever stream_idle_timeout_s "
         "says"),
    ),
    "narnat_agent/conversation/store.py": _later(
        ('calls = message.get("tool_calls", [])', 'calls = message.get("tool_calls") or []',
         f"{FORMAT_EDGE}: a session whose tool_calls is null loads, and the first reader of its calls fails"),
        ('"first": first if isinstance(first, str) else ""}, updated))',
         '"first": first if isinstance(first, str) else ""}, data.get("created", "")))',
         f"{WRONG_SETTING}: sessions are ordered by when they began, not when last saved: `-c` continues the wrong "
         "one"),
        ("if len(name) > MAX_NAME and", "if len(name) >= MAX_NAME and",
         f"{OFF_BY_ONE}: a session name of exactly 100 characters is refused as too long"),
    ),
    "narnat_agent/conversation/compressor.py": _later(
        ("    if summary:\n        clear_summary(state_dir)\n", "",
         f"{STEP_MISSED}: a summary left by a run that died is inherited again by every later run"),
        ("if reply.ending is not Ending.COMPLETE:", "if reply.ending in (Ending.CANCELLED, Ending.ERROR):",
         f"{INVERTED}: a summary cut off at the output limit or by a dropped connection replaces the conversation"),
    ),
}  # fmt: skip
