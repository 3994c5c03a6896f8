"""WebSearch against saved real result pages served from 127.0.0.1."""

import json
import threading
from urllib.parse import parse_qs, urlparse

import pytest

from narnat_agent.tools.registry import execute
from narnat_agent.tools.web.http import Web
from tests.tools.test_web_fetch import dripping_server
from tests.web_server import FIXTURES, Page, fixture

BAIDU_2018 = "baidu/baidu_2018-09-18_serp_from-aql-warc.html"
BAIDU_QUERY = "连云港骐扬月子会所中心精准客户营销key668.cn"
BING_SLEEP = "bing/bing_2026-07_does-caffeine-affect-sleep.html"
BING_JS = "bing/bing_2026-04_javascript-tutorial_plain-http.html"
BING_CAPTCHA = "bing/bing_2026-04_captcha-one-last-step_headless.html"
DDG_RUST = "duckduckgo/ddg-html_2026-04_rust-programming.with-http-headers.html"
DDG_SLEEP = "duckduckgo/ddg-html_2026-07_does-caffeine-affect-sleep.html"
DDG_LITE = "duckduckgo/ddg-lite_2026-04_rust-programming.with-http-headers.html"
DDG_ANOMALY = "duckduckgo/ddg-anomaly-challenge_2026-06.html"


@pytest.fixture
def engines(web, workspace):
    workspace.web = Web(dict.fromkeys(("baidu", "bing", "duckduckgo", "duckduckgo-lite"), web.url))
    web.route("/", Page("home", headers={"Set-Cookie": "BAIDUID=abc; Path=/"}))
    return web


def search(workspace, query, **args):
    return execute("WebSearch", {"query": query, **args}, workspace)


def numbered(text):
    lines = text.splitlines()[1:]
    titles = [line.split(". ", 1)[1] for line in lines if line[:1].isdigit()]
    urls = [line.strip() for line in lines if line.startswith("   http")]
    return titles, urls


def test_bing_results_with_real_urls(engines, workspace):
    engines.route("/search", Page(fixture(BING_SLEEP)))
    result = search(workspace, "does caffeine affect sleep", num=10)
    titles, urls = numbered(result.text)
    assert result.text.startswith("Bing results for 'does caffeine affect sleep'")
    assert len(titles) == 10 and titles[0] == "Caffeine and Sleep Problems"
    assert urls[0] == "https://www.sleepfoundation.org/nutrition/caffeine-and-sleep"
    assert not any("bing.com/ck/a" in u for u in urls)
    assert result.summary == "10 results from Bing"


def test_bing_low_diversity_page_still_passes_the_relevance_gate(engines, workspace):
    engines.route("/search", Page(fixture(BING_JS)))
    titles, urls = numbered(search(workspace, "javascript tutorial", num=10).text)
    assert len(urls) == 10 and all("w3schools.com" in u for u in urls)
    assert titles[0] == "JavaScript Tutorial - W3Schools"


def test_bing_captcha_falls_through_to_duckduckgo(engines, workspace):
    engines.route("/search", Page(fixture(BING_CAPTCHA)))
    engines.route("/html/", Page(fixture(DDG_RUST)))
    result = search(workspace, "rust programming", num=10)
    titles, urls = numbered(result.text)
    assert result.text.startswith("DuckDuckGo results") and len(urls) == 10
    assert urls[0] == "https://rust-lang.org/" and titles[0] == "Rust Programming Language"
    assert not any("duckduckgo.com/l/" in u for u in urls)
    method, path, headers, body = next(r for r in engines.requests if r[1] == "/html/")
    assert method == "POST" and parse_qs(body.decode())["q"] == ["rust programming"]


def test_duckduckgo_2026_07_page_and_the_default_number(engines, workspace):
    engines.route("/html/", Page(fixture(DDG_SLEEP)))
    titles, urls = numbered(search(workspace, "does caffeine affect sleep", num=20).text)
    assert len(urls) == 9 and titles[0] == "Caffeine and Sleep Problems"
    assert len(numbered(search(workspace, "does caffeine affect sleep").text)[1]) == 5


def test_duckduckgo_challenge_and_202_fall_through_to_lite(engines, workspace):
    engines.route("/lite/", Page(fixture(DDG_LITE)))
    engines.route("/html/", Page(fixture(DDG_ANOMALY)))
    result = search(workspace, "rust programming", num=10)
    assert result.text.startswith("DuckDuckGo lite results") and len(numbered(result.text)[1]) == 10
    engines.route("/html/", Page("", status=202))
    assert search(workspace, "rust programming").text.startswith("DuckDuckGo lite results")


def test_baidu_results_match_the_approved_parse_and_links_resolve(engines, workspace):
    engines.route("/s", Page(fixture(BAIDU_2018)))
    engines.route("/link", Page("", status=302, headers={"Location": "https://example.com/resolved"}))
    result = search(workspace, BAIDU_QUERY, num=10)
    titles, urls = numbered(result.text)
    expected = json.loads((FIXTURES / "baidu/baidu_2018-09-18_serp.expected.json").read_text())["results"]
    clean = [r["title"].replace("<em>", "").replace("</em>", "") for r in expected]
    assert result.text.startswith("Baidu results") and titles == clean
    assert urls == ["https://example.com/resolved"] * 10
    assert sum(1 for r in engines.requests if r[1].startswith("/link?url=")) == 10


def test_baidu_links_resolved_from_a_javascript_redirect_page(engines, workspace):
    engines.route("/s", Page(fixture(BAIDU_2018)))
    engines.route("/link", Page('<script>window.location.replace("https://example.org/real")</script>'))
    assert numbered(search(workspace, BAIDU_QUERY).text)[1][0] == "https://example.org/real"


def test_baidu_blocks_fall_through_to_bing(engines, workspace):
    engines.route("/search", Page(fixture(BING_SLEEP)))
    engines.route("/s", Page("", 302, {"Location": "https://wappass.baidu.com/static/captcha/tuxing.html?x=1"}))
    assert search(workspace, "does caffeine affect sleep").text.startswith("Bing results")
    engines.route("/s", Page("<html><title>百度安全验证</title></html>"))
    assert search(workspace, "does caffeine affect sleep").text.startswith("Bing results")


def test_all_engines_failing_name_each_reason(engines, workspace):
    engines.route("/s", Page("", 302, {"Location": "https://wappass.baidu.com/static/captcha/x"}))
    engines.route("/search", Page(fixture(BING_CAPTCHA)))
    engines.route("/html/", Page(fixture(DDG_ANOMALY)))
    engines.route("/lite/", Page("", status=429))
    result = search(workspace, "anything")
    assert result.is_error
    assert "Baidu: blocked (captcha redirect to wappass)" in result.text
    assert "Bing: blocked (captcha)" in result.text
    assert "DuckDuckGo: blocked (bot challenge)" in result.text
    assert "DuckDuckGo lite: blocked (HTTP 429)" in result.text


def test_unrelated_results_and_changed_layouts_fall_through(engines, workspace):
    engines.route("/s", Page("<html><body><div id='content_left'></div></body></html>" + "x" * 5000))
    engines.route("/search", Page(fixture(BING_SLEEP)))
    engines.route("/html/", Page(fixture(DDG_RUST)))
    result = search(workspace, "rust programming")
    assert result.text.startswith("DuckDuckGo results")
    engines.route("/html/", Page("<html></html>"))
    engines.route("/lite/", Page("<html></html>"))
    text = search(workspace, "rust programming").text
    assert "Baidu: layout changed" in text and "Bing: results unrelated to the query" in text


def test_language_parameters_reach_each_engine(engines, workspace):
    engines.route("/search", Page(fixture(BING_SLEEP)))
    search(workspace, "does caffeine affect sleep", lr="lang_zh-CN")
    baidu, bing = [r for r in engines.requests if r[1].startswith(("/s?", "/search?"))]
    assert parse_qs(urlparse(bing[1]).query)["mkt"] == ["zh-CN"]
    assert bing[2]["Accept-Language"].startswith("zh-CN")
    engines.route("/search", Page("", status=429))
    engines.route("/html/", Page(fixture(DDG_SLEEP)))
    search(workspace, "does caffeine affect sleep", lr="lang_en")
    ddg = [r for r in engines.requests if r[1] == "/html/"][-1]
    assert parse_qs(ddg[3].decode())["kl"] == ["us-en"]


def test_bad_arguments(workspace):
    assert "must be one of lang_en, lang_zh-CN" in search(workspace, "x", lr="fr").text
    assert "query is empty" in search(workspace, "   ").text


@pytest.mark.slow
def test_engines_whose_pages_never_end_are_given_up_in_time(workspace):
    # the whole page was read at once, without a bound: a search (and a headless run) waited for ever
    stop = threading.Event()
    listener = dripping_server(stop)
    url = f"http://127.0.0.1:{listener.getsockname()[1]}"
    workspace.web = Web(dict.fromkeys(("baidu", "bing", "duckduckgo", "duckduckgo-lite"), url), timeout=0.1)
    try:
        result = search(workspace, "anything")
    finally:
        stop.set()
        listener.close()
    assert result.is_error and "did not finish sending the page within 0.3 s" in result.text
