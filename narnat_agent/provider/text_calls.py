"""Tool calls that open models wrote as text because the server did not parse their format.

The rule: a call counts only when it ends the reply (nothing but whitespace after it), begins a line outside any
code fence, names one of the nine tools and has arguments that pass the tool's schema. So a call quoted in the
middle of prose, or inside a code sample being explained, stays text. Bare JSON must be the whole reply; a fenced
JSON call must be the reply's only code fence.
"""

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from narnat_agent.tools import registry

Calls = list[tuple[str, dict]]
T = TypeVar("T")
DECODER = json.JSONDecoder()
NAME = re.compile(r"[\w.-]+")
DS = "<｜tool▁calls▁begin｜>", "<｜tool▁call▁begin｜>", "<｜tool▁sep｜>", "<｜tool▁call▁end｜>", "<｜tool▁calls▁end｜>"
KIMI = re.compile(
    r"\s*<\|tool_call_begin\|>\s*(?:functions\.)?([\w.-]+?)(?::\d+)?\s*<\|tool_call_argument_begin\|>(.*?)"
    r"<\|tool_call_end\|>",
    re.DOTALL,
)
QWEN_XML = re.compile(r"\s*<function=([\w.-]+)>(.*?)</function>", re.DOTALL)
QWEN_PARAM = re.compile(r"\s*<parameter=([\w.-]+)>\n?(.*?)\n?</parameter>", re.DOTALL)
GLM_ARG = re.compile(r"\s*<arg_key>(.*?)</arg_key>\s*<arg_value>(.*?)</arg_value>", re.DOTALL)
FENCE = re.compile(r"```(?:json)?[ \t]*\n(.*?)\n```\s*\Z", re.DOTALL)


@dataclass(frozen=True)
class Recovered:
    prose: str  # the text before the calls, which stays the answer's text
    calls: Calls
    form: str  # the format's name, for the log and the tool line


def _call_object(value: object) -> tuple[str, dict] | None:
    """{"name": ..., "arguments" | "parameters": {...}}, the arguments possibly as JSON text."""
    if not isinstance(value, dict) or not isinstance(value.get("name"), str):
        return None
    if set(value) - {"name", "arguments", "parameters", "id", "type"}:
        return None
    args = value.get("arguments", value.get("parameters", {}))
    if isinstance(args, str):
        args = _json(args)
    return (value["name"], args) if isinstance(args, dict) else None


def _json(text: str) -> object:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _json_calls(text: str, separator: str = "") -> Calls | None:
    """One or more JSON call objects (or a list of them) filling the text, optionally separated."""
    calls: Calls = []
    at, text = 0, text.strip()  # a call indented in its fence, or a space after Llama's tag
    while at < len(text):
        try:
            value, at = DECODER.raw_decode(text, at)
        except ValueError:
            return None
        items = value if isinstance(value, list) else [value]
        found = [_call_object(item) for item in items]
        if not found or None in found:
            return None
        calls += [call for call in found if call]
        at = len(text) - len(text[at:].lstrip())
        if separator and text.startswith(separator, at):
            at = len(text) - len(text[at + len(separator) :].lstrip())
    return calls or None


def _back_to_back(pattern: re.Pattern, text: str, build: Callable[[re.Match], T | None]) -> list[T] | None:
    """What pattern matches back to back, filling the whole text (whitespace between); None if anything else is
    there or build refuses a match."""
    found: list[T] = []
    at = 0
    while text[at:].strip():
        match = pattern.match(text, at)
        item = build(match) if match else None
        if match is None or item is None:
            return None
        found.append(item)
        at = match.end()
    return found


def _pairs(pattern: re.Pattern, text: str) -> dict | None:
    """Named values (XML parameters, GLM's key/value tags), as text: these formats write strings raw; `_typed` reads
    numbers, booleans and lists from them as the schema says."""
    pairs = _back_to_back(pattern, text, lambda m: (m.group(1).strip(), m.group(2)))
    return None if pairs is None else dict(pairs)


def _qwen_xml(match: re.Match) -> tuple[str, dict] | None:
    params = _pairs(QWEN_PARAM, match.group(2))
    return None if params is None else (match.group(1), params)


def _glm(body: str) -> tuple[str, dict] | None:
    name, tag, rest = body.strip().partition("<arg_key>")
    args = _pairs(GLM_ARG, tag + rest)
    if args is None or not NAME.fullmatch(name.strip()):
        return None
    return name.strip(), {key: value.strip() for key, value in args.items()}


def _tagged(text: str) -> Calls | None:
    """Hermes and Qwen <tool_call>{json}</tool_call>, Qwen3-Coder's XML and GLM's <arg_key> pairs inside it."""
    calls: Calls = []
    for body in re.split(r"\s*</tool_call>\s*", text.strip()):
        if not body:
            continue
        if not body.startswith("<tool_call>"):
            return None
        inner = body.removeprefix("<tool_call>").strip()
        if inner.startswith("{"):
            found = _json_calls(inner)
        elif inner.startswith("<function="):
            found = _function_xml(inner)
        else:
            glm = _glm(inner)
            found = [glm] if glm else None
        if not found:
            return None
        calls += found
    return calls or None


def _deepseek_call(body: str) -> tuple[str, dict] | None:
    name, sep, args = body.removeprefix(DS[1]).partition(DS[2])
    if name.strip() == "function":  # V3: function<sep>NAME, then the arguments in a ```json fence
        name, _, fenced = args.partition("\n")
        match = FENCE.match(fenced.strip() + "\n")
        args = match.group(1) if match else fenced
    return _named_json(name, args) if sep and body.startswith(DS[1]) else None


def _deepseek(text: str) -> Calls | None:
    body = text.strip().removeprefix(DS[0]).removesuffix("<｜end▁of▁sentence｜>").strip().removesuffix(DS[4])
    *calls, rest = [p.strip() for p in body.split(DS[3])]
    found = [_deepseek_call(call) for call in calls]
    valid = [call for call in found if call]
    return valid if valid and len(valid) == len(found) and not rest else None


def _kimi(text: str) -> Calls | None:
    body = re.sub(r"^<\|tool_calls?_section_begin\|>", "", text.strip())
    body = re.sub(r"<\|tool_calls?_section_end\|>$", "", body.strip())
    return _back_to_back(KIMI, body, lambda m: _named_json(m.group(1), m.group(2))) or None


def _named_json(name: str, text: str) -> tuple[str, dict] | None:
    """NAME followed by its arguments as one JSON object filling the text."""
    value = _json(text.strip())
    return (name.strip(), value) if isinstance(value, dict) and NAME.fullmatch(name.strip()) else None


def _mistral(text: str) -> Calls | None:
    """[TOOL_CALLS][{...}] (before v11), [TOOL_CALLS]NAME{...} and [TOOL_CALLS]NAME[ARGS]{...}."""
    calls: Calls = []
    for part in text.strip().split("[TOOL_CALLS]")[1:]:
        part = part.strip()
        if part.startswith("["):
            found = _json_calls(part)
        else:
            name, brace, args = part.partition("{")
            call = _named_json(name.removesuffix("[ARGS]"), brace + args)
            found = [call] if call else None
        if not found:
            return None
        calls += found
    return calls or None


def _llama(text: str) -> Calls | None:
    """<|python_tag|> then JSON calls, several separated by ';' (Llama 3.1-3.3)."""
    return _json_calls(text.strip().removeprefix("<|python_tag|>"), separator=";")


def _fenced(text: str) -> Calls | None:
    match = FENCE.match(text)
    found = _json_calls(match.group(1)) if match else None
    return found if found and len(found) == 1 else None


def _function_xml(text: str) -> Calls | None:
    return _back_to_back(QWEN_XML, text, _qwen_xml) or None


FORMATS: dict[str, tuple[str, Callable[[str], Calls | None]]] = {  # where a call may begin -> (its name, parser)
    "<tool_call>": ("<tool_call>", _tagged),
    "<function=": ("Qwen3-Coder XML", _function_xml),
    DS[0]: ("DeepSeek", _deepseek),
    "<|tool_calls_section_begin|>": ("Kimi", _kimi),
    "<|tool_call_section_begin|>": ("Kimi", _kimi),
    "[TOOL_CALLS]": ("Mistral [TOOL_CALLS]", _mistral),
    "<|python_tag|>": ("Llama <|python_tag|>", _llama),
    "```json\n": ("fenced JSON", _fenced),
    "```\n{": ("fenced JSON", _fenced),
    "{": ("JSON", _llama),
}
MARKERS = tuple(FORMATS)


def marker_at(text: str, at: int) -> str | None:
    """The format marker at a line start, if any; bare JSON only opens a reply."""
    for marker in MARKERS:
        if text.startswith(marker, at) and (marker != "{" or _opens(text, at)):
            return marker
    return None


def may_start(text: str, at: int, first: bool) -> bool:
    """Whether the text from `at` (a line start) is, or may still become, the start of a call; `first`: nothing
    but whitespace comes before it, so bare JSON may begin there."""
    head = text[at : at + 30]  # longer than any marker
    return any(head.startswith(m) or m.startswith(head) for m in MARKERS if m != "{" or first)


def _opens(text: str, at: int) -> bool:
    """Nothing but whitespace comes before `at`."""
    return at == 0 or text[:at].isspace()


def recover(text: str) -> Recovered | None:
    """The calls ending the reply, when its text is one of the known formats and every call is valid."""
    fences = 0
    for at in [0] + [m.end() for m in re.finditer("\n", text)]:
        marker = marker_at(text, at) if fences % 2 == 0 else None
        if marker and not (marker.startswith("```") and fences):
            form, parse = FORMATS[marker]
            typed = [(name, _typed(name, args)) for name, args in parse(text[at:]) or []]
            calls = [(name, args) for name, args in typed if args is not None]
            if calls and len(calls) == len(typed):
                return Recovered(text[:at].rstrip(), calls, form)
        fences += text.startswith("```", at)
    return None


def _typed(name: str, args: dict) -> dict | None:
    """The call's arguments as the schema types them (`"5"` written as text is the integer 5, as a server's own
    parser gives it), None when the schema refuses them; defaults are left for the registry to add."""
    call = registry.prepare(name, args)
    return None if call.tool is None else {key: call.args[key] for key in args}
