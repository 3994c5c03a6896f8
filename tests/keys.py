"""The user's interrupt key, pressed by a script at a chosen moment (the plain UI's `interrupts`)."""

from collections import Counter

from narnat_agent.ui.plain import Interrupts


def press_at(moment: str, n: int) -> Interrupts:
    """The user presses the interrupt key the `n`th time the UI reaches `moment` ("text", "summary" or "tool")."""
    seen: Counter[str] = Counter()

    def pressed(now: str) -> bool:
        seen[now] += 1
        return now == moment and seen[now] == n

    return pressed
