"""Programs that take shell text or a command line in their own way: watch, parallel, hyperfine, trap, at, make -f -,
and ssh (whose remote command counts for what it deletes). Each handler checks what will run and returns the argv
still to check as a command, or None when nothing is left."""

from narnat_agent.safety.syntax import COMPUTED, Command, fed_code


def _shell_text(argv: list, source: str, check, remote: bool = False) -> None:
    code = None if any(a is None or COMPUTED in a for a in argv) else " ".join(argv)
    check.script(code, source, remote)


def _watch(argv: list, command: Command, check) -> None:
    check.verdict.interactive.append("watch never ends; run the command once instead")
    i = 1
    while i < len(argv) and argv[i] is not None and argv[i].startswith("-"):
        i += 2 if argv[i] in ("-n", "--interval", "-d", "--differences") and "=" not in argv[i] else 1
    _shell_text(argv[i:], "watch", check)


def _parallel(argv: list, command: Command, check) -> None:
    words = argv[1 : argv.index(":::")] if ":::" in argv else argv[1:]
    while words and words[0] is not None and words[0].startswith("-"):
        takes = words[0] in (
            "-j",
            "--jobs",
            "-S",
            "--sshlogin",
            "-a",
            "--arg-file",
            "-d",
            "--delimiter",
            "-I",
            "-N",
            "-n",
            "-L",
            "--colsep",
            "--results",
            "--joblog",
        )
        words = words[2 if takes else 1 :]
    _shell_text(words, "parallel", check)


def _hyperfine(argv: list, command: Command, check) -> None:
    for word in argv[1:]:
        if word is None or not word.startswith("-"):
            _shell_text([word], "hyperfine", check)


def _trap(argv: list, command: Command, check) -> None:
    words = [a for a in argv[1:] if a != "--"]
    if len(words) > 1 and words[0] not in ("-", "-p", "-l"):
        _shell_text(words[:1], "trap", check)


def _at(argv: list, command: Command, check) -> None:
    if not {"-f", "-l", "-r", "-d", "-c"} & set(argv[1:]):
        check.script(fed_code(command), "at")


def _make(argv: list, command: Command, check) -> list:
    files = [(argv + ["-"])[i + 1] for i, a in enumerate(argv) if a in ("-f", "--file", "--makefile")]  # `-` before
    # a heredoc is not a word of its own to tree-sitter
    if {"-", "/dev/stdin"} & set(files) or any(a in ("-f-", "--file=-") for a in argv):
        text = fed_code(command)
        recipes = None if text is None else "\n".join(line[1:] for line in text.splitlines() if line[:1] == "\t")
        check.script(recipes, "the makefile piped to make")
    return argv


def _ssh(argv: list, command: Command, check) -> list:
    """The words after the host are shell text run on that machine."""
    i, rest = 1, []
    while i < len(argv):
        word = argv[i]
        if word is not None and word.startswith("-") and word != "--":
            i += 2 if len(word) == 2 and word[1] in "BbcDEeFIiJLlmOoPpQRSWw" else 1
            continue
        rest = argv[i + 1 + (word == "--") :]
        break
    if rest:
        _shell_text(rest, "ssh", check, remote=True)
    return argv


SPECIAL = {
    "watch": _watch,
    "parallel": _parallel,
    "hyperfine": _hyperfine,
    "trap": _trap,
    "at": _at,
    "batch": _at,
    "make": _make,
    "ssh": _ssh,
}
