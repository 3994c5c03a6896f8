"""Text that cannot drive a terminal: a person sees every control character instead of the terminal obeying it, and
the model reads a command's output without the sequences that only colour it.

A terminal obeys more than colours: OSC 0 sets the window title, OSC 52 writes the clipboard, CSI moves the cursor
and erases what was read, and the 8-bit forms (U+009B is CSI) do the same. Any text the model repeats (a web page, a
README, a file name in a cloned repository) may hold them, so every text a UI shows passes `inert`, and the sequences
stay visible, harmless, as what they are: ␛]52;c;…␇.
"""

import re

# what terminals take as colour, cursor or title commands: never text a model should read
ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")

# the bidirectional embeddings, overrides and isolates: they reorder the text that follows on the screen
# ("invoice\u202efdp.exe" reads "invoiceexe.pdf"), as in the Trojan Source attack (CVE-2021-42574)
BIDI = (*range(0x202A, 0x202F), *range(0x2066, 0x206A))

# C0 controls as Unicode's control pictures (ESC as ␛, BEL as ␇), DEL as ␡, C1 controls (which have no pictures)
# as their escape (\x9b), the bidirectional overrides as theirs (\u202e); a newline and a tab stay what they are
VISIBLE = str.maketrans(
    {code: 0x2400 + code for code in range(0x20) if chr(code) not in "\n\t"}
    | {0x7F: 0x2421}
    | {code: f"\\x{code:02x}" for code in range(0x80, 0xA0)}
    | {code: f"\\u{code:04x}" for code in BIDI}
)


def without_escapes(text: str) -> str:
    """text without the terminal's sequences (a command's colours, as it writes them to a terminal)."""
    return ESCAPES.sub("", text)


def inert(text: str) -> str:
    """text as a person may be shown it: every control character visible, none obeyed; line ends as newlines.

    One character at a time, so text that streams in pieces is safe whatever the cuts."""
    return text.replace("\r\n", "\n").translate(VISIBLE)


# JSON that a terminal may show (-p's JSON outputs, the editor protocol), written in JSON's own escapes though valid
# either way: DEL and the C1 controls, which json leaves raw (U+009B is a terminal's CSI; the C0 ones, ESC among them,
# json always escapes), the line and paragraph separators, which split a line for str.splitlines and JavaScript, and
# the bidirectional overrides, which reorder what follows on a screen
JSON_ESCAPES = str.maketrans({code: f"\\u{code:04x}" for code in (*range(0x7F, 0xA0), 0x2028, 0x2029, *BIDI)})
