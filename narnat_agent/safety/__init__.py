"""The command-safety analysis: what a shell command would do that Narnat must ask about, refuse, or let run.

`analyze(command, cwd)` returns a `Verdict`; Bash is its only user.
"""

from narnat_agent.safety.rules import Verdict, analyze

__all__ = ["Verdict", "analyze"]
