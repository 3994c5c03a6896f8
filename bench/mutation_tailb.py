"""The equivalent mutants of the tool contract, WebFetch's main content, the state folder and the process seam
(bench/mutation.py): a piece of a line as the mutant writes it, and why that change cannot alter what the code does."""

LOCALE = (
    "Python reads text in UTF-8 here (PEP 538/540 turn a C locale into UTF-8; Windows runs its own seam): the "
    "locale's encoding, taken when none is named, is UTF-8"
)
CODEC = "codec names ignore case"

TAILB_EQUIVALENT: dict[str, dict[str, str]] = {
    "narnat_agent/state.py": {
        'read_text(encoding=None, errors="replace")': LOCALE,
        'read_text(errors="replace")': LOCALE,
        'read_text(encoding="UTF-8", errors="replace")': CODEC,
    },
}
