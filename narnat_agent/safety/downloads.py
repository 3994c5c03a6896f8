"""Scripts fetched and run in one command (`curl -o x.sh URL && bash x.sh`): their code cannot be checked, like
`curl URL | sh`. The files curl and wget write are remembered, and running one of them asks."""

import re

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.code import INTERPRETERS, SHELLS
from narnat_agent.safety.syntax import Command

OUTPUTS = {"curl": ("-o", "--output"), "wget": ("-O", "--output-document")}
FETCHERS = OUTPUTS.keys()


def fetched(name: str, argv: list[str | None], command: Command) -> set[str]:
    """The files a curl or wget command writes (by option, by the URL's name, or by redirect)."""
    short, long = OUTPUTS[name]
    files: set[str] = {target for op, target in command.redirects if op in (">", ">|", ">>", "&>", "&>>") and target}
    words = [a for a in argv[1:] if a is not None]
    for i, word in enumerate(words):
        named = word == long or re.fullmatch(rf"-[a-zA-Z]*{short[1]}", word)
        if named and i + 1 < len(words):
            files.add(words[i + 1])
        elif word.startswith(long + "="):
            files.add(word.split("=", 1)[1])
    remote_name = any(re.fullmatch(r"-[a-zA-Z]*O|--remote-name", w) for w in words)
    if name == "wget" and not files or name == "curl" and remote_name:  # named after the URL
        files |= {url.rstrip("/").rsplit("/", 1)[-1].split("?")[0] for url in words if "://" in url}
    return {_plain(f) for f in files}


def runs_fetched(name: str, argv: list[str | None], downloaded: set[str]) -> str | None:
    """Why argv runs a file fetched earlier in the same command, or None."""
    if not downloaded or not argv or argv[0] is None:
        return None
    script = argv[0]
    if name in SHELLS or INTERPRETERS.match(name):
        script = next((a for a in argv[1:] if a is None or not a.startswith("-")), None) or ""
    if _plain(script) in downloaded:
        return Said(N_("it runs {file}, downloaded by the same command: code nobody has read"), file=script)
    return None


def _plain(path: str) -> str:
    return path[2:] if path.startswith("./") else path
