"""The nine tools by name: their schemas for the model, and execute(), which never raises.

This is the boundary between the tools and everything else: what leaves it (header, result, summary, diff, output)
is always encodable text and never holds the API key's value (a marker stands in for it), whatever a tool read, ran
or fetched; a call whose arguments hold the key is refused before it runs.
"""

import contextlib
import dataclasses
import functools
import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from narnat_agent.atomic import TMP_PREFIX
from narnat_agent.encodable import encodable
from narnat_agent.i18n import N_, Said, cleaned, spoken
from narnat_agent.keyguard import can_be_key, redact
from narnat_agent.logger import get_logger
from narnat_agent.tools import bash, edit, glob, grep, read, todo_write, write
from narnat_agent.tools.base import Result, ToolError
from narnat_agent.tools.tool import Tool
from narnat_agent.tools.web import fetch as web_fetch
from narnat_agent.tools.web import search as web_search
from narnat_agent.tools.workspace import Workspace

HEADER = "{tool}({target})"  # a tool line: its target may hold words the interface translates


class BadArguments(ValueError):
    pass


def _from_string(value: Any, kind: str | None) -> Any:
    """Numbers, booleans, arrays and objects that arrived as JSON text."""
    if not isinstance(value, str) or kind in (None, "string"):
        return value
    if kind == "boolean":
        return {"true": True, "false": False}.get(value.strip().lower(), value)
    try:
        return json.loads(value)
    except ValueError:
        return value


def _coerce(value: Any, spec: dict, where: str) -> Any:
    """The value checked against its schema."""
    kind = spec.get("type")
    value = _from_string(value, kind)
    if kind == "integer" and isinstance(value, float) and value.is_integer():
        value = int(value)
    expected: dict[str, type | tuple[type, ...]] = {"string": str, "integer": int, "number": (int, float),
                                                     "boolean": bool, "array": list, "object": dict}  # fmt: skip
    if kind in expected and (not isinstance(value, expected[kind]) or (kind != "boolean" and isinstance(value, bool))):
        said = f"'{where}' must be {'an' if kind[0] in 'aeiou' else 'a'} {kind}, not {json.dumps(value)}"
        unit = f"; {where}: {spec['description']}" if kind in ("integer", "number") and "description" in spec else ""
        raise BadArguments(said + unit)  # a number's description holds its unit: Bash's timeout is in milliseconds
    if "enum" in spec and value not in spec["enum"]:
        raise BadArguments(f"'{where}' must be one of {', '.join(spec['enum'])}, not {json.dumps(value)}")
    if kind == "array":
        return [_coerce(item, spec.get("items", {}), f"{where}[{i}]") for i, item in enumerate(value)]
    if kind == "object" and "properties" in spec:
        return _validate(value, spec, f"{where}.")
    return value


def _validate(args: dict, schema: dict, prefix: str = "") -> dict:
    properties = schema.get("properties", {})
    unknown = [k for k in args if k not in properties]
    if unknown:
        raise BadArguments(f"unknown parameter '{prefix}{unknown[0]}' (parameters: {', '.join(properties)})")
    missing = [k for k in schema.get("required", []) if args.get(k) is None]
    if missing:
        raise BadArguments(f"missing required parameter '{prefix}{missing[0]}'")
    checked = {k: _coerce(v, properties[k], prefix + k) for k, v in args.items() if v is not None}
    defaults = {k: spec["default"] for k, spec in properties.items() if "default" in spec and k not in checked}
    return checked | defaults


TOOLS: dict[str, Tool] = {
    tool.name: tool
    for tool in (
        read.TOOL,
        write.TOOL,
        edit.TOOL,
        glob.TOOL,
        grep.TOOL,
        bash.TOOL,
        web_search.TOOL,
        web_fetch.TOOL,
        todo_write.TOOL,
    )
}


@functools.cache
def schemas(shell: str = "") -> list[dict]:
    """The tool definitions sent with every request (a fixed, byte-stable prefix, built once), Bash's naming the
    shell it runs (the `shell` setting's, or the one found)."""
    told = bash.for_shell(bash.chosen(shell).shell)
    return [(told if tool is bash.TOOL else tool).schema for tool in TOOLS.values()]


@dataclass(frozen=True)
class Call:
    """A tool call checked against its schema (defaults filled in), ready to show and to run."""

    name: str
    header: str  # the UI's one line for it: Read(src/app.py); a Said where its words translate: TodoWrite(2 tasks)
    tool: Tool | None = None
    args: dict = field(default_factory=dict)
    error: str = ""  # why it cannot run, for the model
    shown: str = ""  # the same for the person: a Said, in the interface's language where it is read

    def run(self, workspace: Workspace) -> Result:
        """Run it; every failure becomes an error text the model can act on."""
        log = get_logger(f"tools.{self.name.lower()}")
        log.info("call: %s", json.dumps(self.args, ensure_ascii=False)[:2000])
        if self.tool is None:
            result = _masked(Result(f"Error: {self.error}", spoken(self.shown), True), workspace)
        elif workspace.planning and (planned := _planned(self.tool, self.args)):
            result = _masked(planned, workspace)
        else:
            result = _masked(_guarded(self.tool, self.args, workspace, log), workspace)
        # as the model reads it, English whatever the interface's language (the summary is the person's)
        first, *rest = result.text.split("\n")
        more = f" (+{len(rest)} lines)" if rest else ""
        log.info("result%s: %s%s", " (error)" if result.is_error else "", first[:300], more)
        return result


def _planned(tool: Tool, args: dict) -> Result | None:
    """In plan mode, a call that would change the files its arguments name is refused (Bash judges its commands)."""
    files = tool.changes(args).files if tool.changes else ()
    if not files:
        return None
    named = ", ".join(files)
    text = (f"Error: plan mode: this would change {named}, so {tool.name} was not run. While planning, "
            f"investigate (Read, Glob, Grep, commands that read) and end with the plan; the user's /go carries it "
            f"out.")  # fmt: skip
    return Result(text, spoken(Said(N_("plan mode: this would change {files}"), files=named)), True)


def prepare(name: str, args: dict | None, error: str | None = None, secret: str = "") -> Call:
    """Check a call before anything shows or runs it; `error` says why its arguments could not be read."""
    tool = TOOLS.get(name)
    if tool is None:
        return Call(name, name, error=f"there is no tool named '{name}'; the tools are {', '.join(TOOLS)}.",
                    shown=Said(N_("there is no tool named '{name}'"), name=name))  # fmt: skip
    if error or args is None:
        return Call(name, f"{name}(…)", error=f"{error}. Call {name} again with a JSON object.",
                    shown=Said(N_("the arguments could not be read: {error}"), error=str(error)))  # fmt: skip
    try:
        checked = _validate(args, tool.parameters)
    except BadArguments as e:
        try:
            header = _header(tool, _right(args, tool), secret)
        except KeyError:  # the argument its tool line shows was a wrong one, so left out
            header = f"{name}(…)"
        return Call(name, header, error=f"{e}. Fix the arguments and call {name} again.",
                    shown=Said(N_("wrong arguments: {error}"), error=str(e)))  # fmt: skip
    header = _header(tool, checked, secret)
    if can_be_key(secret) and secret in json.dumps(checked, ensure_ascii=False):
        return Call(name, header, error=f"the arguments hold the API key; Narnat never sends or writes it anywhere. "
                                        f"Call {name} without it.",
                    shown=Said(N_("the arguments hold the API key, so the call was not run")))  # fmt: skip
    return Call(name, header, tool, checked)


def _header(tool: Tool, args: dict, secret: str) -> str:
    """The call's tool line, `Read(a.py)`; `Read(…)` when the arguments give no target."""
    target = _said_safe(tool.target(args), secret)
    if isinstance(target, Said):
        return Said(HEADER, tool=tool.name, target=target)
    return f"{tool.name}({target or '…'})"


def _right(args: dict, tool: Tool) -> dict:
    """The arguments that fit the schema, of a call some of whose do not: what its tool line may show."""
    properties = tool.parameters.get("properties", {})
    right = {}
    for key, value in args.items():
        if key in properties:
            with contextlib.suppress(BadArguments):
                right[key] = _coerce(value, properties[key], key)
    return right


def _safe(text: str, secret: str) -> str:
    return redact(encodable(text), secret)


def _said_safe(text: str, secret: str) -> str:
    """_safe, keeping a Said (a tool line's words, translated where a person reads them) and its parts."""
    return cleaned(text, lambda part: _safe(part, secret))


def _safe_result(result: Result, secret: str) -> Result:
    return result.cleaned(lambda text: _safe(text, secret))


def _masked(result: Result, workspace: Workspace) -> Result:
    """_safe_result for the key in use and every other key the settings hold (a settings file Read whole shows
    neither)."""

    def mask(text: str) -> str:
        for key in workspace.other_keys:
            text = redact(text, key)
        return text

    return _safe_result(result, workspace.secret).cleaned(mask)


def _guarded(tool: Tool, args: dict, workspace: Workspace, log) -> Result:
    try:
        return tool.run(args, workspace)
    except ToolError as e:
        return Result(f"Error: {e}", spoken(e.shown).split("\n", 1)[0], True)
    except OSError as e:  # the file system refused what the call named (a name too long, a device gone): its words
        log.warning("%s: %s", tool.name, e)
        why = e.strerror or str(e)
        if e.filename:
            named = Path(os.fsdecode(e.filename))
            if named.name.startswith(TMP_PREFIX) and isinstance(target := args.get("file_path"), str):
                named = workspace.resolve(target)  # the temporary file a write goes through is Narnat's, not a name
            path = workspace.show(named)
            said = Said(N_("{tool} could not use {path}: {why}."), tool=tool.name, path=path, why=why)
        else:
            said = Said(N_("{tool} failed: {why}."), tool=tool.name, why=why)
        return Result(f"Error: {said}", spoken(said), True)
    except Exception as e:  # a bug in a tool must not end the conversation
        log.exception("tool crashed")
        sentence = Said(N_("{tool} failed unexpectedly: {error}"), tool=tool.name, error=f"{type(e).__name__}: {e}")
        return Result(f"Error: {sentence}", spoken(sentence).split("\n", 1)[0], True)


def run_named(command: str, workspace: Workspace) -> tuple[str, Result]:
    """A command the person named (a goal's check), run through Bash as the model's commands are: its header and
    its result, masked and made encodable like every call's."""
    log = get_logger("tools.bash")
    log.info("named command: %s", json.dumps(command, ensure_ascii=False)[:2000])
    header = _safe(f"{bash.TOOL.name}({command})", workspace.secret)
    named = dataclasses.replace(bash.TOOL, run=lambda args, ws: bash.run_named(command, ws))
    result = _masked(_guarded(named, {}, workspace, log), workspace)
    return header, result


def execute(name: str, args: dict, workspace: Workspace) -> Result:
    """Check and run one call, as the model makes it."""
    return prepare(name, args, secret=workspace.secret).run(workspace)
