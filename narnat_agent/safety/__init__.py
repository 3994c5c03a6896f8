"""The command-safety analysis: what a shell command would do that Narnat must ask about, refuse, or let run.

`analyze(command, cwd)` returns a `Verdict`: what would be lost (ask first), or why Bash refuses it. Bash is its only
user; it also reads `last_pipeline` to tell which stage of a pipeline failed, and which one ran the tests, and in
plan mode `changes` (readonly.py): whether the command only reads; the test runs it names are found under their
wrappers by `unwrapped`.

The modules, by what they decide (docs/architecture.md says each in a line):
- what would be lost (ask): deletions, archives, families, destroys, overwrites, git, sql, downloads, vocabulary,
  tasks, pyproject, probes
- what is refused: refusals, endless; in plan mode, readonly
- what runs inside: wrappers, runners, embedded, code, windows
- the engine: syntax, rules, check
"""

from narnat_agent.safety.check import Verdict
from narnat_agent.safety.readonly import changes
from narnat_agent.safety.rules import analyze, ending_chain, last_pipeline
from narnat_agent.safety.wrappers import unwrapped

__all__ = ["Verdict", "analyze", "changes", "ending_chain", "last_pipeline", "unwrapped"]
