"""Planted defects of the provider, the conversation and the core's modules, written by a fourth writer from the
modules alone, as a tired developer would, without reading their tests: each is `later`."""

from defects import FORMAT_EDGE, OFF_BY_ONE, STEP_MISSED, WRONG_MOMENT, WRONG_ORDER, WRONG_SETTING, Defect


def _later(*defects: tuple[str, str, str]) -> tuple[Defect, ...]:
    return tuple(Defect(original, replacement, what, later=True) for original, replacement, what in defects)


BLIND4_PROVIDER: dict[str, tuple[Defect, ...]] = {
    # provider
    "narnat_agent/provider/reply.py": _later(
        ("piece = encodable(arguments) if isinstance(arguments, str) else json.dumps(arguments)",
         "piece = encodable(arguments) if isinstance(arguments, str) else str(arguments)",
         f"{FORMAT_EDGE}: arguments streamed as a JSON object (not text) are kept as Python's repr, and the call is "
         "refused as invalid JSON"),
        ("reused = slot and call_id and name and call_id != slot.id and slot.complete",
         "reused = slot and call_id and name and slot.complete",
         f"{STEP_MISSED}: a server repeating the call's id and name on every fragment has its call split in two: the "
         "first runs without arguments"),
        ('            usage = _get(choice, "usage") or usage\n', "",
         f"{STEP_MISSED}: counts sent inside the choice (Moonshot) are not read: the request's tokens are estimated"),
    ),
    "narnat_agent/provider/text_calls.py": _later(
        ('    for body in re.split(r"\\s*</tool_call>\\s*", text.strip()):',
         '    for body in text.strip().split("</tool_call>"):',
         f"{FORMAT_EDGE}: two <tool_call> calls on lines of their own stay text: the second body starts with a "
         "newline"),
        ("    return valid if valid and len(valid) == len(found) and not rest else None",
         "    return valid if valid and len(valid) == len(found) else None",
         f"{STEP_MISSED}: DeepSeek calls followed by prose are run, though a call counts only when it ends the reply"),
        ("        marker = marker_at(text, at) if fences % 2 == 0 else None\n"
         "        if marker and not (marker.startswith(\"```\") and fences):\n"
         "            form, parse = FORMATS[marker]\n"
         "            typed = [(name, _typed(name, args)) for name, args in parse(text[at:]) or []]\n"
         "            calls = [(name, args) for name, args in typed if args is not None]\n"
         "            if calls and len(calls) == len(typed):\n"
         "                return Recovered(text[:at].rstrip(), calls, form)\n"
         "        fences += text.startswith(\"```\", at)\n",
         "        fences += text.startswith(\"```\", at)\n"
         "        marker = marker_at(text, at) if fences % 2 == 0 else None\n"
         "        if marker and not (marker.startswith(\"```\") and fences):\n"
         "            form, parse = FORMATS[marker]\n"
         "            typed = [(name, _typed(name, args)) for name, args in parse(text[at:]) or []]\n"
         "            calls = [(name, args) for name, args in typed if args is not None]\n"
         "            if calls and len(calls) == len(typed):\n"
         "                return Recovered(text[:at].rstrip(), calls, form)\n",
         f"{WRONG_ORDER}: a fence is counted before its own line is looked at: a fenced JSON call is never run"),
    ),
    "narnat_agent/provider/transport.py": _later(
        ("            response = self.http.send(request, stream=stream)\n        except timeouts as e:\n"
         "            raise TimedOut from e\n        except failures as e:\n"
         "            raise ConnectionFailed from e\n",
         "            response = self.http.send(request, stream=stream)\n        except failures as e:\n"
         "            raise ConnectionFailed from e\n        except timeouts as e:\n"
         "            raise TimedOut from e\n",
         f"{WRONG_ORDER}: a server that takes the request and answers nothing in time is said as 'Connection "
         "error.', not as a timeout"),
        # (status_error reads only what the request read now: the same slip, where that is handed to it)
        ("raise status_error(response, bytes(data[:MAX_ERROR_BODY]))", 'raise status_error(response, b"")',
         f"{WRONG_SETTING}: a refusal's body, read before the response was closed, is never looked at: the "
         "provider's words are not named, nor a full context recognised"),
    ),
    "narnat_agent/provider/content.py": _later(
        ("    for size in range(min(len(tag) - 1, len(text)), 0, -1):",
         "    for size in range(min(len(tag) - 2, len(text)), 0, -1):",
         f"{OFF_BY_ONE}: thinking whose piece ends in '</think' (the '>' in the next) never ends: the answer is "
         "taken as thinking"),
        ("            self.thought = start.startswith(OPEN)", "            self.thought = OPEN in start",
         f"{FORMAT_EDGE}: an answer whose first piece mentions <think> is taken for thinking, and not shown"),
    ),
    "narnat_agent/provider/endpoint.py": _later(
        ("    except (OSError, ValueError, HTTPException, TooSlow):",
         "    except (OSError, HTTPException, TooSlow):",
         f"{STEP_MISSED}: a local server answering a probe with a page that is not JSON stops the start with a "
         "traceback"),
        ('    root = base_url.removesuffix("/v1")', "    root = base_url",
         f"{STEP_MISSED}: Ollama is asked at /v1/api/version, never recognised: a prompt it cuts is never said"),
    ),
    "narnat_agent/provider/errors.py": _later(
        ("        except ValueError:\n            continue\n", "        except ValueError:\n            return None\n",
         f"{STEP_MISSED}: a Retry-After alone is never read: the absent retry-after-ms ends the search"),
        ("    if status == 429 and NO_QUOTA.search(message):\n"
         "        return LLMError(_(\"The provider says the account is out of quota (429): {message}\")"
         ".format(message=message))\n"
         "    if status in RETRYABLE or status >= 500:\n",
         "    if status in RETRYABLE or status >= 500:\n",
         f"{STEP_MISSED}: a 429 for an account out of quota is sent again and again, never said as out of quota"),
    ),
    "narnat_agent/provider/usage.py": _later(
        ("    if not local and usage.prompt * FAR_BELOW < floor:",
         "    if not local and 0 < usage.prompt * FAR_BELOW < floor:",
         f"{STEP_MISSED}: a gateway reporting 0 prompt tokens is believed: costs and max_tokens_sent stay at 0"),
        ("        elif isinstance(content, list):\n"
         "            chars += sum(len(part.get(\"text\") or \"\") for part in content if isinstance(part, dict))\n",
         "",
         f"{STEP_MISSED}: the text of a message in parts (beside a picture) is left out of the floor"),
    ),
    "narnat_agent/provider/silence.py": _later(
        ("            periods = int((now - self.last) // self.every)",
         "            periods = round((now - self.last) / self.every)",
         f"{OFF_BY_ONE}: the first waiting notice comes after half the period, saying the whole of it"),
        ('.format(seconds=periods * self.every))', '.format(seconds=now - self.last))',
         f"{FORMAT_EDGE}: the waiting notice says the silence to the hundredth of a second (15.25 s), not in steps"),
    ),
    # conversation
    "narnat_agent/conversation/session.py": _later(
        ("            reads[Path(path)] = FileRecord(**record)", "            reads[path] = FileRecord(**record)",
         f"{WRONG_SETTING}: what the model read comes back keyed by text, not by path: after a resume every Edit is "
         "refused as unread"),
        ("    if store.exists(state_dir, name):\n        raise store.SessionError(",
         "    if False:\n        raise store.SessionError(",
         f"{STEP_MISSED}: /fork NAME over a saved conversation goes on under its name, and the next save writes "
         "over it"),
    ),
    "narnat_agent/conversation/window.py": _later(
        ("        window.parts[part] = window.parts.get(part, 0) + scaled",
         "        window.parts[part] = scaled",
         f"{STEP_MISSED}: /context shows each part as its last message, not the sum of its messages"),
        ('    pieces.append((0, Said(N_("tool schemas")), "", estimate(tools)))\n', "",
         f"{STEP_MISSED}: /context leaves the tool schemas out, and every other part is scaled up to fill their share"),
    ),
    "narnat_agent/conversation/context.py": _later(
        ("        if reply.cancelled:\n            content = f", "        if reply.cut_off:\n            content = f",
         f"{WRONG_SETTING}: an answer cut by the output limit or a dropped connection is marked as interrupted by "
         "the user"),
        ('        return self.turns > 0 or SUMMARY_HEADING in self.messages[0]["content"]',
         "        return self.turns > 0",
         f"{STEP_MISSED}: a conversation holding only a /compact's summary is not saved at exit: the summary is "
         "lost"),
    ),
    # core
    "narnat_agent/core/agent.py": _later(
        ("            if not self.compress():\n                self.ui.give_back(question)\n",
         "            if not self.compress():\n",
         f"{STEP_MISSED}: a question the provider found too long, when compressing fails, is not given back: what "
         "the person typed is lost"),
        ("        finally:\n            self.conversation.answer_open_calls()\n", "        finally:\n",
         f"{STEP_MISSED}: after Ctrl-C in a tool, the calls left are never answered, and the next request is "
         "refused"),
        ("            self.session.cost = (self.session.cost or 0.0) + stats.cost",
         "            self.session.cost = stats.cost",
         f"{WRONG_MOMENT}: the conversation's cost is the latest turn's, not the sum since it began"),
    ),
    "narnat_agent/core/turn.py": _later(
        ("        self.sent += usage.prompt", "        self.sent = usage.prompt",
         f"{WRONG_MOMENT}: a turn's tokens sent are its latest request's, not the sum of its requests"),
        (r'still)\W+(?:\w+\W+)?$"', r'still)\W+$"',
         f"{FORMAT_EDGE}: 'not completely fixed' is read as a claim of success: a word between negation and claim"),
    ),
    "narnat_agent/core/budget.py": _later(
        ("            self.sent += usage.prompt\n", "            self.sent += usage.prompt + usage.completion\n",
         f"{WRONG_SETTING}: the tokens a reply wrote are counted as sent: max_tokens_sent stops a run early"),
        ("self.sent + prompt > self.max_tokens_sent", "prompt > self.max_tokens_sent",
         f"{WRONG_MOMENT}: max_tokens_sent is held against each request alone, not what the run sent so far"),
    ),
    "narnat_agent/core/headless.py": _later(
        ("        self.refused.append(command)", "        self.refused.append(reason)",
         f"{WRONG_SETTING}: the report names why a command needed confirmation, not the command"),
        ("        return replace(outcome, stop=Stop.CONFIRMATION_REFUSED, message=message, "
         "refused=tuple(self.refused))",
         "        return TurnOutcome(Stop.CONFIRMATION_REFUSED, message, refused=tuple(self.refused))",
         f"{STEP_MISSED}: a turn finished around a refused command loses its answer and its figures in the report"),
    ),
    "narnat_agent/provider/body.py": _later(
        ("        return sum(self.counted)\n", "        return sum(self.counted[kept:])\n",
         f"{WRONG_MOMENT}: the request's tokens counted from the first message new to it: the estimate is a "
         "fraction of the prompt"),
        ("            self.sent, self.blocks, self.firsts, self.counted, self.form = [], [], [], [], form",
         "            self.sent, self.blocks, self.counted, self.form = [], [], [], form",
         f"{STEP_MISSED}: after the provider refused reasoning or images, a rewind sends the messages kept twice"),
    ),
    "narnat_agent/provider/fit.py": _later(
        ("problem.format(server=server.name, counted=counted, sent=sent)",
         "problem.format(server=server.name, counted=usage.prompt, sent=sent)",
         f"{WRONG_SETTING}: the advice names the prompt tokens counted without those cached"),
        ("model=self.model, context=server.context", "model=server.name, context=server.context",
         f"{WRONG_SETTING}: the advice says the server runs itself ('Ollama runs Ollama'), not the model"),
    ),
    "narnat_agent/provider/tokens.py": _later(
        ("            images.append(None)\n            return None\n",
         "            images.append(None)\n            return value\n",
         f"{STEP_MISSED}: a picture is counted twice: at IMAGE_TOKENS and as its base64 text"),
        ("    return len(text) // CHARS_PER_TOKEN + len(images) * IMAGE_TOKENS",
         "    return len(text) / CHARS_PER_TOKEN + len(images) * IMAGE_TOKENS",
         f"{FORMAT_EDGE}: messages counted in fractions of a token: 'about 1,234.5 tokens'"),
    ),
    "narnat_agent/provider/pricing.py": _later(
        ('    cached_price = pricing.get("cached_input", pricing.get("input", 0))',
         '    cached_price = pricing.get("cache_input", pricing.get("input", 0))',
         f"{WRONG_SETTING}: the configured cached_input price is never read: cached tokens paid at the input price"),
        ('fresh * pricing.get("input", 0)', 'fresh * pricing["input"]',
         f"{STEP_MISSED}: a pricing without an input price stops every turn with a KeyError"),
    ),
}  # fmt: skip
