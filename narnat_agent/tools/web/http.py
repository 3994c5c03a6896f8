"""How the web tools reach the web: endpoints, a timeout, and one browser-like HTTP session per workspace."""

from collections.abc import Mapping
from dataclasses import dataclass, field

USER_AGENT = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/146.0.0.0 Safari/537.36"
)
LANGUAGES = {"lang_en": "en-US,en;q=0.9", "lang_zh-CN": "zh-CN,zh;q=0.9"}
MAX_REDIRECTS = 10
NO_NETWORK = ("Network is unreachable", "No route to host")
NO_NAME = ("NameResolutionError", "Name or service not known", "Temporary failure in name resolution",
           "No address associated with hostname", "nodename nor servname", "getaddrinfo failed")  # fmt: skip


@dataclass
class Web:
    urls: Mapping[str, str] = field(default_factory=dict)  # a search engine's address when not its own
    timeout: float = 10.0
    _session: object = field(default=None, init=False, repr=False)

    def url(self, engine: str, default: str) -> str:
        return self.urls.get(engine, default).rstrip("/")

    def session(self):
        """A requests session (imported on first use) with a desktop browser's headers; cookies persist."""
        if self._session is None:
            self._session = _browser_session()
        return self._session


def _browser_session():
    import requests

    s = requests.Session()
    s.max_redirects = MAX_REDIRECTS
    s.headers.update(
        {
            "User-Agent": USER_AGENT,
            "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
            "Accept-Language": "en-US,en;q=0.9,zh-CN;q=0.8",
            "Sec-Fetch-Dest": "document",
            "Sec-Fetch-Mode": "navigate",
            "Sec-Fetch-Site": "none",
            "Sec-Fetch-User": "?1",
            "Upgrade-Insecure-Requests": "1",
        }
    )
    return s


def accept_language(lr: str | None) -> dict[str, str]:
    return {"Accept-Language": LANGUAGES[lr]} if lr in LANGUAGES else {}


def unreachable(error: Exception) -> str | None:
    """Why a request never reached its server (no network, no name resolution, refused), or None otherwise."""
    import requests

    if not isinstance(error, requests.exceptions.ConnectionError) or isinstance(
        error, (requests.exceptions.SSLError, requests.exceptions.ProxyError)
    ):
        return None
    text = str(error)
    if any(sign in text for sign in NO_NETWORK):
        return "this machine has no route to the network"
    if any(sign in text for sign in NO_NAME):
        return "the host name could not be resolved (no DNS)"
    if "Connection refused" in text:
        return "the connection was refused"
    return "the connection failed"
