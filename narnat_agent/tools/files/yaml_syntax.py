"""Where libyaml, the YAML parser PyYAML runs, stops on a YAML text: the line YAML's own tools name.

Only the parser's events are read (no objects built, no tags resolved), so a document with custom tags (`!Ref`) or
duplicate keys is taken as its tools take it."""


def first_error(text: str) -> tuple[int, int, str] | None:
    """The first error's line and column (1-based) and libyaml's words for it, or None when the text parses."""
    import yaml  # with the first YAML check, not with the tools

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when PyYAML was built with it: 5-10x faster
    try:
        for _ in yaml.parse(text, Loader=loader):
            pass
    except yaml.MarkedYAMLError as e:
        if "maximum nesting depth" in (e.problem or ""):  # libyaml's own limit (1,000 levels): valid YAML may pass it
            raise RecursionError(e.problem) from e
        mark = e.problem_mark or e.context_mark
        words = ", ".join(w for w in (e.problem, e.context) if w) or "not YAML"
        return (mark.line + 1, mark.column + 1, words) if mark else (1, 1, words)
    except yaml.reader.ReaderError as e:  # a character YAML does not allow (a control character, say)
        line = text.count("\n", 0, e.position)
        return line + 1, e.position - (text.rfind("\n", 0, e.position) + 1) + 1, e.reason
    return None
