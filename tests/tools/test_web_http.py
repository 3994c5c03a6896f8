"""How the web tools reach the web: each search engine's address, the browser's headers and one session, and why a
request never reached its server."""

import pytest
import requests

from narnat_agent.tools.web.http import USER_AGENT, Web, accept_language, unreachable

WHY = [  # what requests raises, why the request never reached its server
    (requests.exceptions.ConnectionError("Max retries exceeded ([Errno 101] Network is unreachable)"),
     "this machine has no route to the network"),
    (requests.exceptions.ConnectionError("Failed to establish a new connection: [Errno 113] No route to host"),
     "this machine has no route to the network"),
    (requests.exceptions.ConnectionError("NameResolutionError: Failed to resolve 'example.com'"),
     "the host name could not be resolved (no DNS)"),
    (requests.exceptions.ConnectionError("[Errno -2] Name or service not known"),
     "the host name could not be resolved (no DNS)"),
    (requests.exceptions.ConnectionError("[Errno 111] Connection refused"), "the connection was refused"),
    (requests.exceptions.ConnectionError("Connection aborted: RemoteDisconnected"), "the connection failed"),
    (requests.exceptions.SSLError("certificate verify failed: Network is unreachable"), None),  # it was reached
    (requests.exceptions.ProxyError("Connection refused"), None),  # the proxy is what failed
    (requests.exceptions.ReadTimeout("Read timed out"), None),
]  # fmt: skip


@pytest.mark.parametrize(("error", "reason"), WHY)
def test_why_a_request_never_reached_its_server(error, reason):
    assert unreachable(error) == reason


def test_an_engines_address_is_its_own_unless_configured_and_never_ends_with_a_slash():
    web = Web({"bing": "http://127.0.0.1:8080/"})
    assert web.url("bing", "https://www.bing.com") == "http://127.0.0.1:8080"
    assert web.url("baidu", "https://www.baidu.com/") == "https://www.baidu.com"
    assert Web().timeout == 10.0


def test_the_result_language_asks_for_that_language_or_for_none():
    assert accept_language("lang_zh-CN") == {"Accept-Language": "zh-CN,zh;q=0.9"}
    assert accept_language("lang_en") == {"Accept-Language": "en-US,en;q=0.9"}
    assert accept_language(None) == {} and accept_language("fr") == {}


def test_every_request_of_a_workspace_goes_through_one_browser_like_session(web):
    from tests.web_server import Page

    web.route("/set", Page("ok", headers={"Set-Cookie": "seen=1; Path=/", "Content-Type": "text/plain"}))
    client = Web()
    session = client.session()
    assert client.session() is session and session.max_redirects == 10
    session.get(f"{web.url}/set")
    session.get(f"{web.url}/again")
    headers = {name.lower(): value for name, value in web.requests[-1][2].items()}  # names are case-insensitive
    assert headers["cookie"] == "seen=1" and headers["user-agent"] == USER_AGENT and "Chrome/" in USER_AGENT
    assert {name: headers[name] for name in BROWSER} == BROWSER


BROWSER = {  # what a desktop browser sends when a page is opened from the address bar
    "accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "accept-language": "en-US,en;q=0.9,zh-CN;q=0.8",
    "sec-fetch-dest": "document",
    "sec-fetch-mode": "navigate",
    "sec-fetch-site": "none",
    "sec-fetch-user": "?1",
    "upgrade-insecure-requests": "1",
}
