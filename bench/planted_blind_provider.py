"""Planted defects of the provider, the conversation and the core's modules, written from the modules alone, without
reading their tests: each is `later`."""

from defects import FORMAT_EDGE, INVERTED, OFF_BY_ONE, STEP_MISSED, WRONG_MOMENT, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND_PROVIDER: dict[str, tuple[Defect, ...]] = {
    # provider
    "narnat_agent/provider/client.py": _later(
        ("    if builder.parts > before:\n        silence.heard()\n", "    silence.heard()\n",
         f"{STEP_MISSED}: a chunk carrying nothing of the answer counts as progress, and a stream of empty chunks "
         "never meets the idle limit"),
        ('if k not in ("reasoning_content", "reasoning")}', 'if k != "reasoning_content"}',
         f"{FORMAT_EDGE}: once the provider refused reasoning, reasoning held in a `reasoning` field is still sent"),
        ("if not silence.expired and not builder.parts:", "if not builder.parts:",
         f"{STEP_MISSED}: a request request_timeout_s ended before any answer is sent again, four times over"),
    ),
    "narnat_agent/provider/reply.py": _later(
        ("self.parts += bool(progress or thought)", "self.parts += bool(progress)",
         f"{STEP_MISSED}: reasoning streamed in its own field is not progress: a model thinking long is cut off as "
         "silent"),
        ('_get(details, "cached_tokens") or _get(raw, "prompt_cache_hit_tokens") or 0',
         '_get(details, "cached_tokens") or 0',
         f"{FORMAT_EDGE}: DeepSeek's cache hits (prompt_cache_hit_tokens) are not counted, and priced as fresh input"),
        ('        if self.content.thought:\n            self.reply.reasoning_field = ""\n', "",
         f"{STEP_MISSED}: thinking that came inside <think> in the content is sent back as reasoning_content"),
    ),
    "narnat_agent/provider/text_calls.py": _later(
        ('call = _named_json(name.removesuffix("[ARGS]"), brace + args)', "call = _named_json(name, brace + args)",
         f"{FORMAT_EDGE}: Mistral's [TOOL_CALLS]NAME[ARGS]{{...}} stays text"),
        (r'r"\s*<parameter=([\w.-]+)>\n?(.*?)\n?</parameter>"', r'r"\s*<parameter=([\w.-]+)>(.*?)</parameter>"',
         f"{FORMAT_EDGE}: a Qwen3-Coder parameter written on lines of its own keeps the newlines around its value"),
        ('args = value.get("arguments", value.get("parameters", {}))', 'args = value.get("arguments", {})',
         f"{WRONG_SETTING}: a JSON call with its arguments under \"parameters\" (Llama) runs without them"),
    ),
    "narnat_agent/provider/transport.py": _later(
        ('self.base_url = base_url.rstrip("/")', "self.base_url = base_url",
         f"{FORMAT_EDGE}: a base_url ending in a slash posts to //chat/completions"),
        ("        except timeouts as e:\n            raise TimedOut from e\n        except failures as e:\n"
         "            raise ConnectionFailed from e\n\n    def close",
         "        except failures as e:\n            raise ConnectionFailed from e\n        except timeouts as e:\n"
         "            raise TimedOut from e\n\n    def close",
         f"{WRONG_ORDER}: a stream that stops sending is said as a broken connection, not as the idle limit"),
        ('if b"\\n" not in chunk and b"\\r" not in chunk:', 'if b"\\n" not in chunk:',
         f"{FORMAT_EDGE}: a stream whose lines end in CR alone gives no event until an LF comes"),
    ),
    "narnat_agent/provider/content.py": _later(
        ("start = self.head.lstrip()", "start = self.head",
         f"{FORMAT_EDGE}: thinking after a blank line (\\n<think>) is shown and kept as the answer"),
        ("return answer + self.head, self.reasoning", "return answer, self.reasoning",
         f"{STEP_MISSED}: an answer ending in what could begin </think> ('a <') loses those characters"),
    ),
    "narnat_agent/provider/endpoint.py": _later(
        ("return ipaddress.ip_address(host).is_private", "return ipaddress.ip_address(host).is_loopback",
         f"{WRONG_SETTING}: an Ollama on the local network (192.168.x.x) is not asked its context"),
        ('_int(found.get("loaded_context_length") or found.get("max_context_length"))',
         '_int(found.get("max_context_length") or found.get("loaded_context_length"))',
         f"{WRONG_ORDER}: LM Studio's model is taken to run with its largest context, not the one it was loaded with"),
    ),
    "narnat_agent/provider/errors.py": _later(
        ("    return redact(words, key)\n", "    return words\n",
         f"{STEP_MISSED}: a provider echoing the key in its refusal has the key shown"),
        ("if wait is not None and wait > MAX_RETRY_AFTER:", "if wait is not None and wait >= MAX_RETRY_AFTER:",
         f"{OFF_BY_ONE}: a Retry-After of exactly 60 s gives up instead of waiting"),
    ),
    "narnat_agent/provider/usage.py": _later(
        ("if min(usage.prompt, usage.completion, usage.cached) < 0:", "if min(usage.prompt, usage.completion) < 0:",
         f"{STEP_MISSED}: a negative cached count is believed, and the request costs more than its whole prompt"),
        ("if usage.cached > usage.prompt:", "if usage.cached >= usage.prompt:",
         f"{OFF_BY_ONE}: a prompt cached whole is doubted, and Narnat's estimate replaces the provider's count"),
    ),
    "narnat_agent/provider/silence.py": _later(
        ("periods = int((now - self.last) // self.every)", "periods = int((now - self.started) // self.every)",
         f"{WRONG_MOMENT}: the silence said is counted from the request's start, not since the provider was last "
         "heard"),
        ("if periods > said:", "if periods >= said:",
         f"{OFF_BY_ONE}: 'waiting for the provider (0 s)' is said at every look, before any silence"),
    ),
    # conversation
    "narnat_agent/conversation/store.py": _later(
        ("except (ValueError, RecursionError) as e:", "except ValueError as e:",
         f"{FORMAT_EDGE}: a session file nested too deep ends in a traceback, not in 'damaged'"),
        ("if error.errno in FULL:", "if error.errno == errno.ENOSPC:",
         f"{FORMAT_EDGE}: a full quota is said as an unwritable folder, not as a full disk"),
        ("data, _known[path] = _read(path)", "data = _read(path)[0]",
         f"{STEP_MISSED}: a session loaded (/enter, --resume) is saved beside itself as NAME-2 at the next save"),
    ),
    "narnat_agent/conversation/session.py": _later(
        ("store.save(state_dir, name or session.name, to_dict(session, model))",
         "store.save(state_dir, session.name or name, to_dict(session, model))",
         f"{WRONG_ORDER}: /save NAME writes over the conversation's own name, not under NAME"),
        ("        with contextlib.suppress(TypeError):\n            reads[Path(path)]",
         "        with contextlib.suppress(ValueError):\n            reads[Path(path)]",
         f"{FORMAT_EDGE}: a read record with a field this version does not know makes the session unloadable"),
    ),
    "narnat_agent/conversation/window.py": _later(
        ('return line if len(line) <= width else line[: width - 1] + "…"',
         'return line if len(line) <= width else line[:width] + "…"',
         f"{OFF_BY_ONE}: a long label is one character wider than its width, the … past it"),
        ("        if known and n >= carried:\n", "        if n >= carried:\n",
         f"{STEP_MISSED}: before any request, the whole conversation is counted twice in the next request"),
    ),
    "narnat_agent/conversation/context.py": _later(
        ("if reply.reasoning and reply.reasoning_field and calls:", "if reply.reasoning and calls:",
         f"{STEP_MISSED}: thinking that came inside the content is stored under an empty key and sent back"),
        ("if path not in paths and (root / path).exists() and not known(root / path):",
         "if path not in paths and (root / path).exists():",
         f"{STEP_MISSED}: a file the model read as it is now is named again, and read again"),
    ),
    # core
    "narnat_agent/core/agent.py": _later(
        ("if made != call or result != recent[-1][1]:", "if made != call:",
         f"{WRONG_SETTING}: a call whose result changes (a growing log) is counted as repeating, and ends the turn"),
        ("            reply = self.client.stream(self.conversation.messages, registry.schemas(self.workspace.shell), "
         "view)\n            price = cost(reply.usage, self.config.pricing)\n            stats.add(reply, price)\n"
         "            self.budget.spend(reply.usage, price)\n            self.untried = None\n",
         "            self.untried = None\n"
         "            reply = self.client.stream(self.conversation.messages, registry.schemas(self.workspace.shell), "
         "view)\n            price = cost(reply.usage, self.config.pricing)\n            stats.add(reply, price)\n"
         "            self.budget.spend(reply.usage, price)\n",
         f"{WRONG_ORDER}: a model switched to that the provider refuses at once is kept, not switched back"),
        ("code = output.exit_code if output else 1", "code = output.exit_code if output else 0",
         f"{INVERTED}: a goal's check that could not run (refused) passes, and the goal is met"),
    ),
    "narnat_agent/core/turn.py": _later(
        ("self.estimated = self.estimated or usage.estimated", "self.estimated = usage.estimated",
         f"{WRONG_MOMENT}: a turn whose earlier request was estimated shows its figures as the provider's"),
        ("return next((v for v in reversed(ran) if not v.filtered), None)",
         "return next((v for v in ran if not v.filtered), None)",
         f"{WRONG_ORDER}: the turn's first whole-suite run is reported, not its latest"),
    ),
    "narnat_agent/core/goal.py": _later(
        ("verifications=[v for s in spent for v in s.verifications], started=spent[0].started,",
         "verifications=[v for s in spent for v in s.verifications],",
         f"{STEP_MISSED}: a goal's duration is its last round's only"),
        ("reasons = list(dict.fromkeys([*verdict.deletions, *verdict.interactive]))",
         "reasons = list(dict.fromkeys(verdict.deletions))",
         f"{STEP_MISSED}: a check that waits for a person is accepted, and every turn hangs on it"),
    ),
    "narnat_agent/core/budget.py": _later(
        ("        if self.reached:\n            self.spent, self.sent, self.reached = 0.0, 0, False",
         "        self.spent, self.sent, self.reached = 0.0, 0, False",
         f"{INVERTED}: every question starts the budget afresh, so a run spends max_cost on each question"),
        ("        self.reached = True\n", "",
         f"{STEP_MISSED}: after the limit stopped a turn, the next question is stopped again at once"),
    ),
    "narnat_agent/core/headless.py": _later(
        ("        self.refused.append(command)\n        raise nobody_to_ask(reason)\n",
         "        raise nobody_to_ask(reason)\n        self.refused.append(command)\n",
         f"{WRONG_ORDER}: a refused command is never recorded: the run reports a turn that did everything"),
        ("stop=Stop.CONFIRMATION_REFUSED, message=message, refused=", "stop=Stop.CONFIRMATION_REFUSED, refused=",
         f"{STEP_MISSED}: a turn finished around a refused command says nothing of it, nor of --yes"),
    ),
    "narnat_agent/provider/body.py": _later(
        ("        del self.sent[first:], self.counted[first:]\n", "        del self.sent[first:]\n",
         f"{STEP_MISSED}: after a rewind, the messages forgotten are still counted in the request's tokens"),
        ("remaining = self.sent[first:kept]", "remaining = self.sent[first : kept - 1]",
         f"{OFF_BY_ONE}: after a rewind, the last message kept is no longer sent"),
    ),
    "narnat_agent/provider/fit.py": _later(
        ("if counted < COUNTED_SHARE * sent and sent - counted >= MIN_MISSING:", "if counted < COUNTED_SHARE * sent:",
         f"{STEP_MISSED}: a small prompt the estimate overcounted is said to have been cut"),
        ("if self.said or server is None or server.context is None:", "if self.said or server is None:",
         f"{STEP_MISSED}: an Ollama whose context is not known fails every request (None compared with a number)"),
    ),
    "narnat_agent/provider/tokens.py": _later(
        ("    if isinstance(value, list):\n        return [_without_images(item, images) for item in value]\n", "",
         f"{STEP_MISSED}: the pictures inside a message's content list are counted as their base64 text"),
        ("return len(text) // CHARS_PER_TOKEN + len(images) * IMAGE_TOKENS",
         "return (len(text) + len(images) * IMAGE_TOKENS) // CHARS_PER_TOKEN",
         f"{WRONG_SETTING}: a picture counted as IMAGE_TOKENS characters, a quarter of its tokens"),
    ),
    "narnat_agent/provider/pricing.py": _later(
        ("if not pricing or usage is None:", "if usage is None:",
         f"{STEP_MISSED}: without pricing, every request is said to cost 0, not left unpriced"),
        ('usage.completion * pricing.get("output", 0)', 'usage.completion * pricing.get("input", 0)',
         f"{WRONG_SETTING}: the output tokens are priced at the input price"),
    ),
}  # fmt: skip
