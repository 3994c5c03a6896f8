"""The nine tools by name: their schemas for the model, and execute(), which never raises."""

import json

from narnat_agent.logger import get_logger
from narnat_agent.tools import bash, edit, glob, grep, read, todo_write, web_fetch, web_search, write
from narnat_agent.tools.workspace import Result, Tool, ToolError, Workspace


class BadArguments(ValueError):
    pass


def _from_string(value: object, kind: str | None) -> object:
    """Numbers, booleans, arrays and objects that arrived as JSON text."""
    if not isinstance(value, str) or kind in (None, "string"):
        return value
    if kind == "boolean":
        return {"true": True, "false": False}.get(value.strip().lower(), value)
    try:
        return json.loads(value)
    except ValueError:
        return value


def _coerce(value: object, spec: dict, where: str) -> object:
    """The value checked against its schema."""
    kind = spec.get("type")
    value = _from_string(value, kind)
    if kind == "integer" and isinstance(value, float) and value.is_integer():
        value = int(value)
    expected = {"string": str, "integer": int, "number": (int, float), "boolean": bool, "array": list, "object": dict}
    if kind in expected and (not isinstance(value, expected[kind]) or (kind != "boolean" and isinstance(value, bool))):
        raise BadArguments(f"'{where}' must be {'an' if kind[0] in 'aeiou' else 'a'} {kind}, not {json.dumps(value)}")
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
    return {k: _coerce(v, properties[k], prefix + k) for k, v in args.items() if v is not None}


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


SCHEMAS = [tool.schema for tool in TOOLS.values()]


def schemas() -> list[dict]:
    """The tool definitions sent with every request (a fixed, byte-stable prefix, built once)."""
    return SCHEMAS


def header(name: str, args: dict) -> str:
    """The UI's one-line name for a call: Read(src/app.py)."""
    tool = TOOLS.get(name)
    try:
        target = tool.target(args) if tool else ""
    except Exception:
        target = ""
    return f"{name}({target})"


def _error(text: str) -> Result:
    """A failure: the user sees the same sentence the model gets (its first line)."""
    return Result(f"Error: {text}", text.split("\n", 1)[0], True)


def execute(name: str, args: dict, workspace: Workspace) -> Result:
    """Run one tool call; every failure becomes an error text the model can act on."""
    log = get_logger(f"tools.{name.lower()}")
    log.info("call: %s", json.dumps(args, ensure_ascii=False)[:2000])
    tool = TOOLS.get(name)
    if tool is None:
        result = _error(f"there is no tool named '{name}'. Tools: {', '.join(TOOLS)}.")
    else:
        try:
            result = tool.run(_validate(args, tool.parameters), workspace)
        except BadArguments as e:
            result = _error(f"{e}. Fix the arguments and call {name} again.")
        except ToolError as e:
            result = _error(str(e))
        except Exception as e:  # a bug in a tool must not end the conversation
            log.exception("tool crashed")
            result = _error(f"{name} failed unexpectedly: {type(e).__name__}: {e}")
    log.info("result%s: %s", " (error)" if result.is_error else "", result.summary)
    return result
