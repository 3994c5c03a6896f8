"""The interface never dies on its language: a damaged catalog falls back to English, and a terminal whose encoding
cannot show a character gets its escape (\\u4e2d) instead of a traceback."""

import json
import shutil
import subprocess

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from narnat_agent import cli, i18n
from tests.fake_llm import text_reply
from tests.launch import NARNAT, scrubbed_environment

HELP = "show this help and exit"
POSITIVE = "must be a positive whole number, not {text!r}"


@pytest.fixture
def locales(tmp_path, monkeypatch):
    """A copy of the catalogs where a test may damage the Chinese one; English again after the test."""
    copy = tmp_path / "locale"
    shutil.copytree(i18n.LOCALES, copy)
    monkeypatch.setattr(i18n, "LOCALES", copy)
    yield copy / "zh_CN" / "LC_MESSAGES" / "narnat.mo"
    i18n.use("en")


def test_the_shipped_catalog_speaks_chinese(locales):
    assert i18n.use("zh-CN") is None
    assert i18n._(HELP) != HELP


@pytest.mark.parametrize(
    "damage",
    [lambda mo: mo.read_bytes()[:3], lambda mo: b"\x00" * 20 + mo.read_bytes()[20:], lambda mo: mo.read_bytes()[:-40],
     lambda mo: mo.read_bytes().replace(b"charset=utf-8", b"charset=nope-8")],
    ids=["truncated header", "bad magic", "truncated tables", "unknown charset"],
)  # fmt: skip
def test_a_damaged_catalog_falls_back_to_english_and_says_so_once(locales, damage):
    locales.write_bytes(damage(locales))
    problem = i18n.use("zh-CN")
    assert problem is not None and str(locales) in problem and "English" in problem
    assert i18n._(HELP) == HELP
    assert i18n.use("zh-CN") is None  # said once


def test_a_translation_that_loses_its_placeholders_is_said_in_english(locales):
    catalog = Catalog(locale="zh_CN", domain="narnat")
    catalog.add(POSITIVE, "必须是正整数，而不是 {number}")
    catalog.add(HELP, "显示帮助")
    catalog.add("{n} requests", "{n 个请求")
    catalog.add(("{n} line", "{n} lines"), ("{count} 行",))
    with locales.open("wb") as f:
        write_mo(f, catalog)
    i18n.use("zh-CN")
    assert i18n._(HELP) == "显示帮助"
    assert i18n._(POSITIVE).format(text="x") == "must be a positive whole number, not 'x'"
    assert i18n._("{n} requests").format(n=3) == "3 requests"
    assert i18n.ngettext("{n} line", "{n} lines", 1).format(n=1) == "1 line"
    assert i18n.ngettext("{n} line", "{n} lines", 2).format(n=2) == "2 lines"


def test_help_in_chinese_with_a_damaged_catalog_is_english(locales, monkeypatch, capsys):
    locales.write_bytes(b"\x95\x04\x12\xde" + b"\xff" * 30)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    with pytest.raises(SystemExit) as leaving:
        cli.main(["--help"])
    assert leaving.value.code == 0
    out, err = capsys.readouterr()
    assert HELP in out and "English" in err and "Traceback" not in err


def run(project, fake_llm, encoding: str, *args: str) -> subprocess.CompletedProcess:
    env = scrubbed_environment()
    env.update(HOME=str(project.parent / "home"), LANG="zh_CN.UTF-8", PYTHONIOENCODING=encoding,
               NARNAT_API_KEY="sk-test-key", NARNAT_BASE_URL=fake_llm.base_url)  # fmt: skip
    return subprocess.run([*NARNAT, *args], cwd=project, env=env, capture_output=True, timeout=60)


@pytest.mark.slow
@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_a_terminal_that_cannot_show_chinese_gets_escapes_not_a_traceback(project, fake_llm, encoding):
    done = run(project, fake_llm, encoding, "--help")
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    assert "\\u663e\\u793a" in done.stdout.decode(encoding)  # 显示, escaped
    fake_llm.add(text_reply("好了 café"), text_reply("好了 café"))
    done = run(project, fake_llm, encoding, "-p", "hi")
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    assert done.stdout.decode(encoding).startswith("\\u597d\\u4e86 caf")
    done = run(project, fake_llm, encoding, "-p", "hi", "--output-format", "json")
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
    assert json.loads(done.stdout)["answer"] == "好了 café"  # JSON stays JSON, in its own escapes
