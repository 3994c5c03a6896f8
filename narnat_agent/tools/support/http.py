"""The HTTP session the web tools share: one browser-like identity, cookies kept for the process."""

import functools

USER_AGENT = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/146.0.0.0 Safari/537.36"
)
LANGUAGES = {"lang_en": "en-US,en;q=0.9", "lang_zh-CN": "zh-CN,zh;q=0.9"}
MAX_REDIRECTS = 10


@functools.cache
def session():
    """A requests session (imported on first use) with a desktop browser's headers."""
    import requests

    s = requests.Session()
    s.max_redirects = MAX_REDIRECTS
    s.headers.update({
        "User-Agent": USER_AGENT,
        "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
        "Accept-Language": "en-US,en;q=0.9,zh-CN;q=0.8",
        "Sec-Fetch-Dest": "document",
        "Sec-Fetch-Mode": "navigate",
        "Sec-Fetch-Site": "none",
        "Sec-Fetch-User": "?1",
        "Upgrade-Insecure-Requests": "1",
    })  # fmt: skip
    return s


def accept_language(lr: str | None) -> dict[str, str]:
    return {"Accept-Language": LANGUAGES[lr]} if lr in LANGUAGES else {}
