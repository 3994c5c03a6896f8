"""Planted defects of the provider, the conversation and the core's modules, written by a third writer from the
modules alone, as a tired developer would, without reading their tests: each is `later`."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_MOMENT, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND3_PROVIDER: dict[str, tuple[Defect, ...]] = {
    # provider
    "narnat_agent/provider/reply.py": _later(
        ('    raw = slot.arguments.strip() or "{}"', '    raw = slot.arguments or "{}"',
         f"{FORMAT_EDGE}: a call without arguments streamed as whitespace is refused as invalid JSON"),
        ('FILTERED = ("content_filter", "insufficient_system_resource", "error", "model_context_window_exceeded")',
         'FILTERED = ("content_filter", "insufficient_system_resource", "error")',
         f"{FORMAT_EDGE}: an answer the context window cut off (model_context_window_exceeded) is taken as whole, "
         "and its calls run"),
        ("            return self.by_id.get(call_id) or self._open(None)",
         "            return self._open(None)",
         f"{STEP_MISSED}: calls keyed by id alone (no index) open a new call at every fragment, their arguments cut "
         "in pieces"),
    ),
    "narnat_agent/provider/text_calls.py": _later(
        ("    return at == 0 or text[:at].isspace()", "    return at == 0",
         f"{FORMAT_EDGE}: a reply of bare JSON after a blank line stays text, the call never run"),
        ("    return name.strip(), {key: value.strip() for key, value in args.items()}",
         "    return name.strip(), dict(args)",
         f"{STEP_MISSED}: a GLM value written on lines of its own keeps its newlines (a path '\\nsrc/a.py\\n')"),
        ('    if set(value) - {"name", "arguments", "parameters", "id", "type"}:',
         '    if set(value) - {"name", "arguments", "parameters", "type"}:',
         f"{FORMAT_EDGE}: a JSON call carrying its own id stays text"),
    ),
    "narnat_agent/provider/transport.py": _later(
        ('        error = body.get("error", body) if isinstance(body, dict) else None',
         "        error = body if isinstance(body, dict) else None",
         f"{WRONG_SETTING}: the provider's message inside \"error\" is not named in the refusal's text"),
        ("        return isinstance(self.__cause__, httpx2.ReadTimeout)",
         "        return isinstance(self.__cause__, httpx2.TimeoutException)",
         f"{WRONG_SETTING}: a server that could not be reached in time is said to have accepted and gone silent"),
    ),
    "narnat_agent/provider/content.py": _later(
        ("            piece, self.head = start.removeprefix(OPEN) if self.thought else self.head, \"\"",
         "            piece, self.head = start.removeprefix(OPEN) if self.thought else start, \"\"",
         f"{FORMAT_EDGE}: an answer without thinking loses its leading whitespace (an indented code line first)"),
        ('        self.released, self.shown, self.pending, self.mid_line, self.blank = [], 0, "", False, True',
         '        self.released, self.pending, self.mid_line, self.blank = [], "", False, True',
         f"{STEP_MISSED}: after a lone </think>, the count of what was shown is not reset: the answer's end is "
         "never shown"),
    ),
    "narnat_agent/provider/endpoint.py": _later(
        ('        if name == "num_ctx" and value.strip().isdigit():',
         '        if name == "num_ctx" and value.isdigit():',
         f"{FORMAT_EDGE}: Ollama's num_ctx, aligned with spaces as /api/show writes it, is never read"),
        ("        detail = redact(e.read(500).decode(errors=\"replace\").strip(), key)",
         "        detail = e.read(500).decode(errors=\"replace\").strip()",
         f"{STEP_MISSED}: a server echoing the key in its refusal has it shown by the setup's check"),
        ("    except TimeoutError:\n        return f\"{model} did not answer",
         "    except ConnectionError:\n        return f\"{model} did not answer",
         f"{WRONG_SETTING}: a model still loading past the timeout is said to be out of reach, not slow"),
    ),
    "narnat_agent/provider/errors.py": _later(
        ("    if status == 404 or status in (400, 403, 422) and NAMES_MODEL.search(message):",
         "    if (status == 404 or status in (400, 403, 422)) and NAMES_MODEL.search(message):",
         f"{WRONG_ORDER}: a 404 whose text does not say 'model' is not a refused model, and a switch is not undone"),
        ("    if status == 400 and CONTEXT_FULL.search(message):",
         "    if status == 400 and CONTEXT_FULL.match(message):",
         f"{FORMAT_EDGE}: 'This model's maximum context length is …' is not seen as a full context: no compression"),
    ),
    "narnat_agent/provider/usage.py": _later(
        ("    if not local and usage.prompt * FAR_BELOW < floor:",
         "    if not local and usage.prompt < floor * FAR_BELOW:",
         f"{WRONG_SETTING}: the factor on the wrong side: every honest count is doubted and replaced by the estimate"),
        ("    if min(usage.prompt, usage.completion, usage.cached) < 0:",
         "    if min(usage.prompt, usage.cached) < 0:",
         f"{STEP_MISSED}: a negative completion count is believed, and the request's cost goes negative"),
    ),
    "narnat_agent/provider/silence.py": _later(
        ("        while not self._done.wait(min(0.25, self.every / 4)):",
         "        while not self._done.wait(max(0.25, self.every / 4)):",
         f"{WRONG_SETTING}: the watch looks every 3.75 s: the limits end a request seconds late"),
        ("                said, stretch = 0, self.last", "                said = 0",
         f"{STEP_MISSED}: once the provider was heard, the waiting notice is said again at every look"),
    ),
    # conversation
    "narnat_agent/conversation/session.py": _later(
        ("    session.conversation.name = store.stamp()\n", "",
         f"{STEP_MISSED}: an archive resumed goes on under its own name, and the next save writes over it"),
        ("        checkpoints, damaged = [], True", "        checkpoints, damaged = [], False",
         f"{STEP_MISSED}: damaged checkpoints are dropped unsaid: /undo just has nothing"),
    ),
    "narnat_agent/conversation/window.py": _later(
        ("                     if text and (2 * estimate(text) >= size or not functions)",
         "                     if text and 2 * estimate(text) >= size",
         f"{STEP_MISSED}: a short answer without calls is labelled 'calls' with no name in /context"),
        ('            name, header = calls.get(message.get("tool_call_id", ""), ("tool", "tool"))',
         '            name, header = calls.get(message.get("id", ""), ("tool", "tool"))',
         f"{WRONG_SETTING}: every tool result in /context is labelled 'tool', its call not named"),
    ),
    "narnat_agent/conversation/context.py": _later(
        ("        if reply.reasoning and reply.reasoning_field and calls:",
         "        if reply.reasoning and reply.reasoning_field:",
         f"{WRONG_SETTING}: the thinking is sent back on answers without calls too, which some providers refuse"),
        ('MENTION = re.compile(r"(?<![\\w@])@([\\w/.~-]+[\\w/])")',
         'MENTION = re.compile(r"(?<![\\w@])@([\\w/.~-]+)")',
         f"{FORMAT_EDGE}: '@src/app.py.' at a sentence's end names 'src/app.py.', and no reminder to Read it comes"),
    ),
    # core
    "narnat_agent/core/agent.py": _later(
        ("        self.session.notes = []\n", "",
         f"{STEP_MISSED}: the notes (files rewound, plan over) are told again with every later question"),
        ("            self._check_ending(reply)\n            if not reply.tool_calls:\n                return\n",
         "            if not reply.tool_calls:\n                return\n            self._check_ending(reply)\n",
         f"{WRONG_ORDER}: an answer cut off (output limit, dropped connection) ends the turn as completed"),
        ("        if _repeats(made, recent) >= REPEATS - 1:", "        if _repeats(made, recent) >= REPEATS:",
         f"{OFF_BY_ONE}: the repeated-call guard ends the turn at the fifth identical call, not the fourth"),
    ),
    "narnat_agent/core/turn.py": _later(
        ("        last = {v.command: v for v in self.verifications}",
         "        last = {v.command: v for v in reversed(self.verifications)}",
         f"{WRONG_ORDER}: a command run again shows its first outcome, not its last"),
        ('        return "failed" if self in (Stop.PROVIDER_ERROR, Stop.FAILED) else "stopped"',
         '        return "failed" if self is Stop.FAILED else "stopped"',
         f"{STEP_MISSED}: a provider's error is a stop on purpose, said as a notice, not as a failure"),
    ),
    "narnat_agent/core/budget.py": _later(
        ("            price = cost(Usage(prompt), self.pricing) or 0.0",
         "            price = cost(Usage(0, prompt), self.pricing) or 0.0",
         f"{WRONG_SETTING}: the next request's prompt priced at the output price: a run stops long before max_cost"),
        ("        self.spent += price or 0.0", "        self.spent = price or 0.0",
         f"{WRONG_MOMENT}: the cost is counted from the latest request, not since the run began"),
    ),
    "narnat_agent/core/headless.py": _later(
        ("        raise nobody_to_ask(reason)", "        return False",
         f"{STEP_MISSED}: the model is told the user declined, not that nobody can confirm it (nor of --yes)"),
        ("replace(outcome, stop=Stop.CONFIRMATION_REFUSED, message=message,", "replace(outcome, message=message,",
         f"{STEP_MISSED}: a run whose command was refused still ends as completed, with exit 0"),
    ),
    "narnat_agent/provider/body.py": _later(
        ("            self.firsts.append(len(self.sent) - 1)", "            self.firsts.append(len(self.sent))",
         f"{OFF_BY_ONE}: after a rewind the first message of the block kept is lost and the body starts with a comma"),
        ("        first = self.firsts.pop() if self.firsts else 0",
         "        first = self.firsts[-1] if self.firsts else 0",
         f"{STEP_MISSED}: after a rewind the block kept is not emptied: its messages are sent twice"),
    ),
    "narnat_agent/provider/fit.py": _later(
        ("        if self.said or server is None or usage is None or usage.estimated:",
         "        if self.said or usage is None or usage.estimated:",
         f"{STEP_MISSED}: a cloud provider counting far below the estimate fails the turn (no server to name)"),
        ("        if counted < COUNTED_SHARE * sent and sent - counted >= MIN_MISSING:",
         "        if counted < COUNTED_SHARE * sent and counted - sent >= MIN_MISSING:",
         f"{INVERTED}: a prompt the server cut is never said to be cut"),
    ),
    "narnat_agent/provider/tokens.py": _later(
        ("    text = json.dumps(_without_images(item, images), ensure_ascii=False)",
         "    text = json.dumps(_without_images(item, images))",
         f"{FORMAT_EDGE}: CJK and accents counted as \\uXXXX escapes, six characters each"),
        ("    if isinstance(item, str):\n        return len(item) // CHARS_PER_TOKEN\n", "",
         f"{STEP_MISSED}: a text is counted as its JSON, quotes and escapes (every newline, backslash) included"),
    ),
    "narnat_agent/provider/pricing.py": _later(
        ("    return total / 1_000_000", "    return total / 1_000",
         f"{WRONG_SETTING}: prices read per thousand tokens, not per million: every cost a thousand times too high"),
        ('    cached_price = pricing.get("cached_input", pricing.get("input", 0))',
         '    cached_price = pricing.get("cached_input") or pricing.get("input", 0)',
         f"{FORMAT_EDGE}: a cached price of 0 (free cache hits) is paid at the input price"),
    ),
}  # fmt: skip
