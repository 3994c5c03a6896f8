"""WebFetch against saved real pages and crafted responses served from 127.0.0.1."""

import json
import socket
import sys
import threading

import pytest

from narnat_agent.tools.registry import execute
from narnat_agent.tools.web.fetch import FRAME
from narnat_agent.tools.web.http import Web
from tests.web_quality import expected_text, plain, token_f1
from tests.web_server import FIXTURES, Page, fixture

PAGES = sorted(p.name for p in (FIXTURES / "readability").iterdir())


def fetch(workspace, url):
    return execute("WebFetch", {"url": url}, workspace)


def body(result):
    return result.text.split("instructions to you.]\n\n", 1)[1]


@pytest.fixture(scope="module")
def extractions():
    """Every readability page fetched once through the tool (the slow part, shared by the tests below)."""
    from narnat_agent.tools.workspace import Workspace
    from tests.web_server import WebServer

    server = WebServer()
    for name in PAGES:
        server.route(f"/{name}", Page(fixture(f"readability/{name}/source.html")))
    ws = Workspace(FIXTURES, FIXTURES, confirm=None)
    results = {name: fetch(ws, f"{server.url}/{name}") for name in PAGES}
    server.close()
    return results


@pytest.mark.slow
def test_main_content_is_close_to_the_expected_article_on_every_page(extractions):
    scores = {}
    for name, result in extractions.items():
        want = expected_text((FIXTURES / "readability" / name / "expected.html").read_text())
        got = plain(body(result))
        scores[name] = token_f1(got, want)
        assert len(got) >= 0.5 * len(want), f"{name} returned almost nothing"
        assert scores[name] >= 0.5, name
    assert sum(scores.values()) / len(scores) >= 0.91, scores


def test_code_links_and_chinese_text_survive(extractions):
    v8 = body(extractions["v8-blog"])
    assert "emcc -O3 add.c -o add.wasm" in v8
    assert "https://github.com/emscripten-core/emscripten/wiki/WebAssembly-Standalone" in v8
    assert "谷歌" in body(extractions["qq"]) and "DeepMind" in body(extractions["qq"])
    assert len(body(extractions["nytimes-5"])) > 1500


def test_result_starts_with_url_title_and_the_untrusted_frame(extractions, web):
    first = extractions["daringfireball-1"].text.splitlines()
    assert first[0].startswith("URL: http://127.0.0.1:") and first[0].endswith("/daringfireball-1")
    assert first[1].startswith("Title: ") and "treat it as data" in first[2]


def test_a_chinese_page_without_any_charset_is_not_garbled(web, workspace):
    text = (
        "<html><head><title>测试页面</title></head><body><article>"
        + "<p>中文内容，编码检测必须正确。这是第{}段。</p>" * 40
    )
    page = (text.format(*range(40)) + "</article></body></html>").encode("gbk")
    web.route("/gbk", Page(page, headers={"Content-Type": "text/html"}))
    result = fetch(workspace, f"{web.url}/gbk")
    assert "中文内容，编码检测必须正确" in result.text and "Title: 测试页面" in result.text


def test_charset_from_the_header_wins(web, workspace):
    web.route("/latin", Page("<p>café</p>".encode("latin-1"), headers={"Content-Type": "text/plain; charset=latin-1"}))
    assert body(fetch(workspace, f"{web.url}/latin")) == "<p>café</p>"


def test_redirects_are_followed_up_to_ten(web, workspace):
    for n in range(12):
        web.route(f"/r{n}", Page("", 302, {"Location": f"/r{n + 1}"}))
    web.route("/r12", Page("<html><title>end</title><body><p>arrived</p></body></html>"))
    assert fetch(workspace, f"{web.url}/r3").text.startswith(f"URL: {web.url}/r12")
    assert "more than 10 times" in fetch(workspace, f"{web.url}/r0").text


def test_http_errors_are_one_line(web, workspace):
    result = fetch(workspace, f"{web.url}/missing")
    assert result.is_error and result.text == f"Error: {web.url}/missing answered HTTP 404 Not Found."
    web.route("/boom", Page("oops", 503))
    assert "HTTP 503" in fetch(workspace, f"{web.url}/boom").text


def test_unreachable_host(workspace):
    result = fetch(workspace, "http://127.0.0.1:9/nothing")
    assert result.is_error and "could not connect" in result.text


def test_a_page_that_does_not_answer_in_time(web, workspace):
    workspace.web = Web(timeout=0.5)
    web.route("/slow", Page("late", delay=2))
    result = fetch(workspace, f"{web.url}/slow")
    assert result.is_error and "did not answer within 0.5 s" in result.text


def test_oversized_bodies_are_not_read(web, workspace):
    web.route("/huge", Page(b"x" * (10 * 1024 * 1024 + 10), headers={"Content-Type": "text/plain"}))
    assert "larger than 10.0 MB" in fetch(workspace, f"{web.url}/huge").text


def test_text_and_json_pass_through_and_binaries_are_described(web, workspace):
    data = {"name": "narnat", "tools": 9}
    web.route("/data.json", Page(json.dumps(data), headers={"Content-Type": "application/json"}))
    web.route("/notes.md", Page("# Notes\n\n- one\n", headers={"Content-Type": "text/markdown; charset=utf-8"}))
    web.route("/paper.pdf", Page(b"%PDF-1.7" + bytes(5000), headers={"Content-Type": "application/pdf"}))
    assert json.loads(body(fetch(workspace, f"{web.url}/data.json"))) == data
    assert body(fetch(workspace, f"{web.url}/notes.md")) == "# Notes\n\n- one\n"
    pdf = fetch(workspace, f"{web.url}/paper.pdf")
    assert "application/pdf file of 4.9 KB" in pdf.text and "%PDF" not in pdf.text


def test_a_block_page_is_named_as_such(web, workspace):
    web.route("/captcha", Page(fixture("bing/bing_2026-04_captcha-one-last-step_headless.html")))
    web.route("/ddg", Page(fixture("duckduckgo/ddg-anomaly-challenge_2026-06.html")))
    for path in ("/captcha", "/ddg"):
        result = fetch(workspace, web.url + path)
        assert result.is_error and "bot-check" in result.text, path


def test_long_content_is_capped_with_a_note(web, workspace):
    web.route("/long.txt", Page("word " * 30000, headers={"Content-Type": "text/plain"}))
    result = fetch(workspace, f"{web.url}/long.txt")
    assert "[Cut at 100,000 of 150,000 characters.]" in result.text


def test_a_certificate_the_client_cannot_verify_is_one_line(workspace, tmp_path):
    import shutil
    import ssl
    import subprocess
    import threading
    from http.server import BaseHTTPRequestHandler, HTTPServer

    if not shutil.which("openssl"):
        pytest.skip("openssl is needed to make a self-signed certificate")
    key, cert = tmp_path / "key.pem", tmp_path / "cert.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)  # fmt: skip
    server = HTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    threading.Thread(target=server.handle_request, daemon=True).start()
    result = fetch(workspace, f"https://127.0.0.1:{server.server_address[1]}/")
    server.server_close()
    assert result.is_error and result.text.startswith("Error: TLS failure for https://127.0.0.1:")


def test_an_address_without_its_scheme_is_fetched_over_https(workspace):
    for url in ("127.0.0.1:9/page", "//127.0.0.1:9/page", "  https://127.0.0.1:9/page "):
        result = fetch(workspace, url)
        assert result.text == "Error: could not connect to https://127.0.0.1:9/page: the connection was refused."
        assert result.summary == "could not connect to https://127.0.0.1:9/page"


def test_an_address_whose_scheme_is_in_capitals_is_fetched_as_written(web, workspace):
    web.route("/page", Page("plain", headers={"Content-Type": "text/plain"}))
    for scheme in ("HTTP://", "Http://"):
        result = fetch(workspace, scheme + web.url.removeprefix("http://") + "/page")
        assert not result.is_error and result.text.startswith(f"URL: {web.url}/page\n") and body(result) == "plain"


def test_the_charset_a_meta_tag_declares_decodes_the_page(web, workspace):
    text = "<html><head><meta charset='koi8-r'><title>Привет</title></head><body><p>Съешь же ещё</p></body></html>"
    web.route("/ru", Page(text.encode("koi8-r"), headers={"Content-Type": "text/html"}))
    web.route("/wrong", Page(text.encode("koi8-r"), headers={"Content-Type": "text/html; charset=nonsense"}))
    web.route("/ascii", Page(text.encode("koi8-r"), headers={"Content-Type": "text/html; charset=ascii"}))
    for path in ("/ru", "/wrong", "/ascii"):  # a header's charset that is no codec, or cannot decode it, is passed
        result = fetch(workspace, web.url + path)
        assert "Title: Привет" in result.text and body(result) == "Съешь же ещё", path


def test_the_title_is_unescaped_and_stripped(web, workspace):
    web.route("/t", Page("<html><head><title>\n  Q &amp; A  </title></head><body><p>answers</p></body></html>"))
    assert fetch(workspace, f"{web.url}/t").text.splitlines()[1] == "Title: Q & A"
    web.route("/none", Page("<html><body><p>no title</p></body></html>"))
    assert fetch(workspace, f"{web.url}/none").text.splitlines()[1] == FRAME


@pytest.mark.parametrize(
    ("kind", "text"),
    [("application/ld+json", '{"@type": "Thing"}'), ("image/svg+xml", "<svg/>"), ("text/csv", "a,b\n1,2"),
     ("text/x-python", "print(1)")],
)  # fmt: skip
def test_text_of_any_textual_type_passes_through(web, workspace, kind, text):
    web.route("/f", Page(text, headers={"Content-Type": f"{kind}; charset=utf-8"}))
    result = fetch(workspace, f"{web.url}/f")
    assert body(result) == text and result.summary == f"{len(text)} characters"


def test_a_binary_file_is_described_by_its_type_and_size(web, workspace):
    web.route("/a.zip", Page(bytes(2048), headers={"Content-Type": "Application/ZIP"}))
    result = fetch(workspace, f"{web.url}/a.zip")
    assert result.text == f"URL: {web.url}/a.zip\nA application/zip file of 2.0 KB; WebFetch returns text only."
    assert result.summary == "application/zip, 2.0 KB" and not result.is_error


def test_a_page_without_a_type_is_read_as_html_when_it_looks_like_html(web, workspace):
    web.route("/h", Page("<html><title>T</title><body><p>para</p></body></html>", headers={}))
    web.route("/p", Page("plain words", headers={}))
    assert fetch(workspace, f"{web.url}/h").text == f"URL: {web.url}/h\nTitle: T\n{FRAME}\n\npara"
    assert fetch(workspace, f"{web.url}/p").text == f"URL: {web.url}/p\n{FRAME}\n\nplain words"


def test_a_bot_check_is_told_by_its_header_or_by_a_short_page_that_names_one(web, workspace):
    article = (
        "<html><body><article>" + "<p>Real content of the page, long enough.</p>" * 100 + "</article></body></html>"
    )
    web.route("/flagged", Page(article, headers={"Content-Type": "text/html", "cf-mitigated": "challenge"}))
    web.route("/long", Page(article.replace("</article>", "<p>One last step</p></article>")))
    flagged = fetch(workspace, f"{web.url}/flagged")
    assert flagged.text == f"Error: {web.url}/flagged answered with a bot-check (captcha) page instead of its content."
    long = fetch(workspace, f"{web.url}/long")  # a page that mentions a check but has its content
    assert not long.is_error and "Real content of the page" in long.text


@pytest.mark.parametrize(("size", "cut"), [(100_000, False), (100_001, True)])
def test_content_is_cut_past_a_hundred_thousand_characters_and_says_so(web, workspace, size, cut):
    web.route("/t.txt", Page("x" * size, headers={"Content-Type": "text/plain"}))
    result = fetch(workspace, f"{web.url}/t.txt")
    assert result.text.endswith("\n\n[Cut at 100,000 of 100,001 characters.]") is cut
    assert len(body(result).split("\n\n[Cut")[0]) == 100_000
    assert result.summary == ("100,000 characters (cut)" if cut else "100,000 characters")


def test_a_body_of_exactly_ten_megabytes_is_read(web, workspace):
    web.route("/ten", Page(b"x" * (10 * 1024 * 1024), headers={"Content-Type": "text/plain"}))
    assert fetch(workspace, f"{web.url}/ten").summary == "100,000 characters (cut)"


def test_an_error_status_is_said_to_the_person_with_its_number(web, workspace):
    web.route("/bad", Page("no", 400, {"Content-Type": "text/plain"}))
    result = fetch(workspace, f"{web.url}/bad")
    assert result.text == f"Error: {web.url}/bad answered HTTP 400 Bad Request."
    assert result.summary == f"{web.url}/bad answered HTTP 400"
    web.route("/fine", Page("yes", 399, {"Content-Type": "text/plain"}))
    assert body(fetch(workspace, f"{web.url}/fine")) == "yes"


def test_a_page_too_slow_is_said_with_its_limit(web, workspace):
    workspace.web = Web(timeout=0.25)
    web.route("/slow", Page("late", delay=1))
    result = fetch(workspace, f"{web.url}/slow")
    assert result.text == f"Error: {web.url}/slow did not answer within 0.25 s."
    assert result.summary == f"{web.url}/slow did not answer within 0.25 s"


def test_a_redirect_to_an_address_that_is_not_utf_8_is_one_sentence(web, workspace):
    # the 0x9b byte in Location was "WebFetch failed unexpectedly: UnicodeDecodeError"
    web.route("/odd", Page("", 302, {"Location": "/land\x9b2J"}))
    result = fetch(workspace, f"{web.url}/odd")
    assert result.text == f"Error: {web.url}/odd redirected to an address that is not valid UTF-8."


def test_too_many_redirects_is_one_sentence(web, workspace):
    web.route("/loop", Page("", 302, {"Location": "/loop"}))
    assert fetch(workspace, f"{web.url}/loop").text == f"Error: {web.url}/loop redirected more than 10 times."


def test_a_page_becomes_markdown_with_absolute_links_no_images_and_unwrapped_lines(web, workspace):
    words = "word " * 40
    page = (f"<html><body><p><a href='/doc'>doc</a> <img src='i.png' alt='pic'> <code>x = 1</code></p>"
            f"<pre><code>a\nb</code></pre><p>{words}</p></body></html>")  # fmt: skip
    web.route("/a/page", Page(page))
    assert body(fetch(workspace, f"{web.url}/a/page")) == (
        f"[doc]({web.url}/doc) `x = 1`\n    \n    \n    a\n    b\n\n{words.strip()}"
    )


def test_readabilitys_choice_is_kept_unless_it_is_a_small_part_of_the_page(web, workspace):
    article = "<article>" + "<p>The article says a great deal about its subject, at length.</p>" * 12 + "</article>"
    menu = "<ul>" + "<li><a href='/x'>A menu entry of the site</a></li>" * 10 + "</ul>"
    web.route("/article", Page(f"<html><body><nav>{menu}</nav>{article}</body></html>"))
    text = body(fetch(workspace, f"{web.url}/article"))
    assert text.startswith("The article says") and "menu entry" not in text
    web.route("/short", Page(f"<html><body><nav>{menu}</nav><p>Short.</p></body></html>"))
    assert "menu entry" in body(fetch(workspace, f"{web.url}/short"))  # little found: the whole page


def test_a_page_of_nothing_readable_is_empty_not_an_error(web, workspace):
    web.route("/c", Page("<!-- nothing here -->"))
    result = fetch(workspace, f"{web.url}/c")
    assert not result.is_error and body(result) == "" and result.summary == "0 characters"


def test_the_charset_of_the_header_is_read_in_any_case(web, workspace):
    web.route("/k", Page("Съешь же ещё".encode("koi8-r"), headers={"Content-Type": "text/plain; Charset=KOI8-R"}))
    assert body(fetch(workspace, f"{web.url}/k")) == "Съешь же ещё"  # detection alone guesses Shift JIS


MENU = "<li><a href='https://example.org/x'>Menu</a></li>"  # as long on any server


@pytest.mark.parametrize(
    ("article", "rest", "chosen"),
    [
        ("a" * 500, "<div class=sidebar>" + "menu entry here. " * 120 + "</div>", True),  # 500: enough anywhere
        ("A sentence of the article. " * 4, "<nav><ul>" + MENU * 10 + "</ul></nav>", False),
        ("A sentence of the article. " * 4, "<nav><ul>" + MENU * 6 + "</ul></nav>", True),
    ],
)  # fmt: skip
def test_readabilitys_choice_needs_500_characters_or_a_quarter_of_the_page(web, workspace, article, rest, chosen):
    web.route("/p", Page(f"<html><body>{rest}<article><p>{article}</p></article></body></html>"))
    text = body(fetch(workspace, f"{web.url}/p"))
    assert text.startswith(article.strip()[:20]) is chosen and ("menu" in text.lower()) is not chosen


def test_the_whole_page_keeps_its_links_absolute(web, workspace):
    web.route("/a/short", Page("<html><body><p>Short, see <a href='more'>more</a>.</p></body></html>"))
    assert body(fetch(workspace, f"{web.url}/a/short")) == f"Short, see [more]({web.url}/a/more)."


def test_a_fetch_asks_for_markdown_first(web, workspace):
    web.route("/m", Page("# hi", headers={"Content-Type": "text/markdown"}))
    fetch(workspace, f"{web.url}/m")
    assert web.requests[-1][2]["Accept"] == "text/markdown;q=1.0, text/html;q=0.9, text/plain;q=0.8, */*;q=0.5"


def test_xhtml_is_read_as_a_page(web, workspace):
    page = "<html xmlns='http://www.w3.org/1999/xhtml'><head><title>X</title></head><body><p>Strict.</p></body></html>"
    web.route("/x", Page(page, headers={"Content-Type": "application/xhtml+xml"}))
    assert fetch(workspace, f"{web.url}/x").text == f"URL: {web.url}/x\nTitle: X\n{FRAME}\n\nStrict."


@pytest.mark.parametrize(("size", "check"), [(2999, True), (3000, False)])
def test_a_page_under_3000_characters_that_names_a_check_is_one(web, workspace, size, check):
    text = "One last step " + "x" * (size - 14)
    web.route("/p", Page(f"<html><body><p>{text}</p></body></html>"))
    result = fetch(workspace, f"{web.url}/p")
    assert result.is_error is check and (check or body(result) == text)


def test_one_character_is_said_in_the_singular(web, workspace):
    web.route("/one", Page("x", headers={"Content-Type": "text/plain"}))
    assert fetch(workspace, f"{web.url}/one").summary == "1 character"


def test_a_server_that_hangs_up_may_mean_no_internet(workspace):
    with socket.socket() as hanging_up:  # accepts, then closes without an answer
        hanging_up.bind(("127.0.0.1", 0))
        hanging_up.listen()
        threading.Thread(target=lambda: hanging_up.accept()[0].close(), daemon=True).start()
        url = f"http://127.0.0.1:{hanging_up.getsockname()[1]}/page"
        result = fetch(workspace, url)
    assert result.text == (
        f"Error: could not connect to {url}: the connection failed. This machine may not reach the internet; "
        "retrying will not help."
    )
    assert result.summary == f"could not connect to {url}"


def test_the_headers_charset_wins_over_a_meta_tags(web, workspace):
    page = "<html><head><meta charset='windows-1251'></head><body><p>Съешь же ещё</p></body></html>"
    web.route("/k", Page(page.encode("koi8-r"), headers={"Content-Type": "text/html; charset=koi8-r"}))
    assert body(fetch(workspace, f"{web.url}/k")) == "Съешь же ещё"  # the server's word, not a copied template's


@pytest.mark.skipif(sys.platform == "win32", reason="Windows refuses a connection its full queue cannot take")
def test_a_server_that_never_takes_the_connection_did_not_answer_in_time(workspace):
    workspace.web = Web(timeout=0.25)
    with socket.socket() as full:  # its queue of connections full: the kernel drops a new one's first packet
        full.bind(("127.0.0.1", 0))
        full.listen(0)
        queued = [socket.socket() for _ in range(3)]
        for waiting in queued:
            waiting.setblocking(False)
            waiting.connect_ex(full.getsockname())
        url = f"http://127.0.0.1:{full.getsockname()[1]}/page"
        try:
            result = fetch(workspace, url)
        finally:
            for waiting in queued:
                waiting.close()
    assert result.text == f"Error: {url} did not answer within 0.25 s."  # not a machine without the internet


def dripping_server(stop: threading.Event) -> socket.socket:
    """A server whose pages never end: their headers, then two bytes every 50 ms until told to stop."""
    listener = socket.create_server(("127.0.0.1", 0))

    def drip(connection: socket.socket) -> None:
        connection.recv(65536)
        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n")
        while not stop.wait(0.05):
            try:
                connection.sendall(b"x\n")
            except OSError:
                break
        connection.close()

    def serve() -> None:
        while not stop.is_set():
            try:
                connection, _ = listener.accept()
            except OSError:  # closed
                return
            threading.Thread(target=drip, args=(connection,), daemon=True).start()

    threading.Thread(target=serve, daemon=True).start()
    return listener


def test_a_page_that_never_ends_is_cut_at_three_times_the_timeout(workspace):
    workspace.web = Web(timeout=0.2)
    stop = threading.Event()
    listener = dripping_server(stop)
    url = f"http://127.0.0.1:{listener.getsockname()[1]}/events"
    try:
        result = fetch(workspace, url)
    finally:
        stop.set()
        listener.close()
    assert result.is_error
    assert f"{url} did not finish sending the page within 0.6 s" in result.text
    assert result.summary == f"{url} did not finish sending the page within 0.6 s"
