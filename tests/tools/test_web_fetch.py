"""WebFetch against saved real pages and crafted responses served from 127.0.0.1."""

import json

import pytest

from narnat_agent.tools.registry import execute
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
