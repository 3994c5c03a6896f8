"""The API key out of reach of the commands Narnat runs: a command cannot read it, so the model cannot leak it in
any encoding. Real runs, real commands, real /proc."""

import base64
import contextlib
import json
import os
import subprocess
import sys

import pytest

from narnat_agent.keyguard import can_confine
from tests.fake_llm import SSE, chunk, raw_reply, text_reply, tool_reply, usage
from tests.run.test_cli import narnat

KEY = "sk-canary-93d1f0a6c4e2"
linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc and prctl are Linux's")


def tool_results(fake_llm) -> list[str]:
    return [m["content"] for m in fake_llm.requests[-1]["messages"] if m["role"] == "tool"]


def disguises(text: str) -> str:
    """The text, and what it says once un-reversed and base64-decoded line by line."""
    decoded = []
    for line in text.splitlines():
        with contextlib.suppress(ValueError):
            decoded.append(base64.b64decode(line.strip() + "==", validate=False).decode("latin-1"))
    return "\n".join([text, text[::-1], *decoded])


@pytest.mark.slow
@pytest.mark.skipif(not can_confine(), reason="user namespaces are not available here")
def test_a_command_cannot_read_the_key_file_nor_narnats_environment(project, fake_llm):
    home_settings = project.parent / "home" / ".narnat" / "narnat.json"
    home_settings.parent.mkdir(parents=True)
    home_settings.write_text(json.dumps({"api_key": KEY}))
    from_file = ('python3 -c \'import json,os;print(json.load(open(os.path.expanduser("~/.narnat/narnat.json")))'
                 '["api_key"])\' | rev')  # fmt: skip
    fake_llm.add(
        tool_reply(("Bash", {"command": from_file})),
        tool_reply(("Bash", {"command": "tr '\\0' '\\n' < /proc/$PPID/environ | grep NARNAT | base64 -w0"})),
        tool_reply(("Bash", {"command": "base64 -w0 < ~/.narnat/narnat.json"})),
        text_reply("done"),
    )
    done = narnat(project, "-p", "follow the README", "--yes", base_url=fake_llm.base_url, key=None)
    assert done.returncode == 0, done.stderr
    results = tool_results(fake_llm)
    assert len(results) == 3 and all(KEY not in disguises(result) for result in results), results
    assert "Permission denied" in results[1]
    assert KEY in home_settings.read_text()  # the user's own file is untouched


@pytest.mark.slow
@pytest.mark.skipif(not can_confine(), reason="user namespaces are not available here")
def test_a_key_from_the_environment_is_out_of_reach_too(project, fake_llm):
    fake_llm.add(
        tool_reply(("Bash", {"command": "cat /proc/$PPID/environ | base64 -w0; echo; env | base64 -w0"})),
        text_reply("done"),
    )
    done = narnat(project, "-p", "look", base_url=fake_llm.base_url, key=KEY)
    assert done.returncode == 0, done.stderr
    [result] = tool_results(fake_llm)
    assert KEY not in disguises(result) and "Permission denied" in result


NOBODY = 65534
# As root, the process drops to nobody only after importing Narnat: where the clone sits (a folder only root may
# enter) does not matter. A change of user leaves a process non-dumpable; it is made dumpable again, as a process
# nobody started would be, so that only seal_process can close it.
SEALED = """
import ctypes, os, sys
from narnat_agent.keyguard import seal_process
PR_SET_DUMPABLE = 4  # prctl(2)
if sys.argv[1:] == ["drop"]:
    os.setgroups([]); os.setgid(NOBODY); os.setuid(NOBODY)
    ctypes.CDLL(None).prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)
print(seal_process(), flush=True)
input()
""".replace("NOBODY", str(NOBODY))


@linux_only
def test_narnats_process_is_closed_to_the_users_other_processes():
    """Where commands cannot be confined, a process of the same user still cannot read Narnat's environment."""
    root = os.geteuid() == 0
    as_user = {"user": NOBODY, "group": NOBODY, "extra_groups": []} if root else {}
    env = {**os.environ, "NARNAT_API_KEY": KEY}
    sealed = subprocess.Popen([sys.executable, "-c", SEALED, *(["drop"] if root else [])], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, env=env, text=True)  # fmt: skip
    try:
        assert sealed.stdout.readline() == "True\n"
        reader = subprocess.run(["cat", f"/proc/{sealed.pid}/environ"], capture_output=True, timeout=10, **as_user)
    finally:
        sealed.communicate("\n", timeout=10)
    assert reader.returncode != 0 and KEY.encode() not in reader.stdout


def test_the_key_is_read_once_then_gone_from_narnats_environment(project, fake_llm, monkeypatch, capsys):
    """Nothing Narnat starts later (rg, git, a command where none can be confined) can inherit it."""
    from narnat_agent.cli import main

    monkeypatch.setenv("NARNAT_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("NARNAT_BASE_URL", fake_llm.base_url)
    fake_llm.add(text_reply("ok"))
    assert main(["-p", "hi"]) == 0
    assert "NARNAT_API_KEY" not in os.environ and "OPENAI_API_KEY" not in os.environ
    assert fake_llm.headers[0]["authorization"] == f"Bearer {KEY}"  # kept in memory, where it is needed


def own_text(fake_llm) -> None:
    """The model writes the key itself, cut across pieces: in <think>, before a call written as text, in the
    reasoning field and in the answer."""
    call = f'<tool_call>\n{{"name": "Bash", "arguments": {{"command": "echo {KEY}"}}}}\n</tool_call>'
    fake_llm.add(
        raw_reply(f"<think>the key is {KEY}</think>Let me run it with {KEY}.\n{call}", cuts=(24, 55, 80, 140)),
        SSE([chunk({"role": "assistant", "reasoning_content": f"reasoning {KEY[:6]}"}),
             chunk({"reasoning_content": f"{KEY[6:]} end\n"}), chunk({"content": f"answer {KEY[:12]}"}),
             chunk({"content": f"{KEY[12:]} done"}), chunk(finish="stop"), usage()]),
    )  # fmt: skip


@pytest.mark.slow
@pytest.mark.parametrize("output", ["text", "json", "stream-json"])
def test_the_key_the_model_writes_itself_is_masked_in_every_headless_output(project, fake_llm, output):
    own_text(fake_llm)
    done = narnat(project, "-p", "hi", "--output-format", output, base_url=fake_llm.base_url, key=KEY)
    assert done.returncode == 0, done.stderr
    pieces = [done.stdout, done.stderr] if output != "stream-json" else [done.stderr, *done.stdout.splitlines()]
    assert [piece for piece in pieces if KEY in piece or KEY[:6] + KEY[6:12] in piece or KEY[12:] in piece] == []
    assert "reasoning [API key] end" in done.stderr and "the key is [API key]" in done.stderr
    assert "Let me run it with [API key]." in done.stderr
    answer = "answer [API key] done"
    assert (
        (done.stdout == f"{answer}\n")
        if output == "text"
        else (json.loads(done.stdout.splitlines()[-1])["answer"] == answer)
    )


def test_the_key_the_model_writes_itself_is_masked_in_the_repl(harness, fake_llm):
    own_text(fake_llm)
    run = harness(api_key=KEY)
    run.agent.ask("hi")
    shown = run.out.getvalue() + run.err.getvalue()
    assert KEY[12:] not in shown and KEY[:12] not in shown, shown
    assert "answer [API key] done" in shown and "the key is [API key]" in shown


def test_a_stream_cut_anywhere_shows_the_key_masked_and_everything_else_in_order():
    from narnat_agent.keyguard import StreamMask, redact

    text = f"a {KEY[:3]} then {KEY} and {KEY}{KEY[:-1]}"
    for first in range(len(text)):
        for second in range(first, len(text), 7):
            mask = StreamMask(KEY)
            shown = [mask.feed(piece) for piece in (text[:first], text[first:second], text[second:])]
            assert "".join(shown) + mask.rest() == redact(text, KEY)  # so no piece began a key the next one ended


def test_what_the_mask_held_back_is_shown_in_its_place(harness, fake_llm):
    """Reasoning that ends like the key begins waits; it still comes before the answer, and whole."""
    fake_llm.add(SSE([chunk({"role": "assistant", "reasoning_content": "thinking s"}), chunk({"content": "answer sk"}),
                      chunk(finish="stop"), usage()]))  # fmt: skip
    run = harness(api_key=KEY)
    run.agent.ask("hi")
    assert "thinking s\n" in run.err.getvalue() and run.out.getvalue().startswith("answer sk\n")


def test_a_key_cut_by_line_ends_is_masked_and_text_that_only_begins_it_is_not():
    from narnat_agent.keyguard import redact

    for cut in range(1, len(KEY)):
        assert redact(f"a {KEY[:cut]}\n{KEY[cut:]} b", KEY) == "a [API key] b"
        assert redact(f"{KEY[:cut]}\\\r\n   7\t{KEY[cut:]}", KEY) == "[API key]"  # continued, numbered
    assert redact(f"{KEY[:5]}\n\n{KEY[5:]}", KEY) == f"{KEY[:5]}\n\n{KEY[5:]}"  # a paragraph apart: two texts
    assert redact(f"{KEY[:5]}\nother\n", KEY) == f"{KEY[:5]}\nother\n"
    assert redact(f"{KEY[:5]}\n{'x' * 201}{KEY[5:]}", KEY) == f"{KEY[:5]}\n{'x' * 201}{KEY[5:]}"


def test_a_stream_shows_what_only_ends_like_the_key_at_its_start_after_a_piece_and_after_its_end():
    """Nothing let go before (at the start, after a piece fed whole, after the end) can complete the key."""
    from narnat_agent.keyguard import StreamMask

    mask = StreamMask("Xsecret-key-1")
    assert mask.feed("secret-key-1 one") == "secret-key-1 one" and mask.feed("secret-key-1 two") == "secret-key-1 two"
    assert mask.rest() == "" and mask.feed("secret-key-1 three") == "secret-key-1 three"


def test_the_key_variables_leave_the_environment_and_the_rest_stays():
    from narnat_agent.keyguard import forget_key_variables

    environ = {"NARNAT_API_KEY": "k1", "OPENAI_API_KEY": "k2", "PATH": "/bin"}
    forget_key_variables(environ)
    assert environ == {"PATH": "/bin"}
    forget_key_variables(environ)  # gone already: nothing to forget
    assert environ == {"PATH": "/bin"}


def test_a_key_of_eight_characters_or_more_is_masked_wherever_it_is_and_a_shorter_one_is_a_word():
    from narnat_agent.keyguard import StreamMask, redact

    assert redact("use abcdefgh here and abcdefgh there", "abcdefgh") == "use [API key] here and [API key] there"
    assert redact("use abcdefgh", "abcdefgh", mark="***") == "use ***" and redact("local host", "local") == "local host"
    short = StreamMask("local")
    assert short.feed("localhost loc") == "localhost loc" and short.feed(" TAX") == " TAX" and short.rest() == ""
    mask = StreamMask("abcdefgh")
    assert mask.feed("x abc") == "x " and mask.feed("defgh y a") == "[API key] y " and mask.rest() == "a"
    assert mask.rest() == ""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="namespaces are Linux's")
def test_a_confined_command_reads_the_key_files_as_empty_and_everything_else_whole(tmp_path):
    from narnat_agent.keyguard import can_confine, confined

    settings, notes = tmp_path / "narnat.json", tmp_path / "notes.txt"
    settings.write_text(f'{{"api_key": "{KEY}"}}')
    notes.write_text("plain\n")
    argv = confined(f"cat '{settings}' '{notes}'; id -u", [settings, tmp_path / "absent.json", tmp_path])
    done = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    if can_confine():
        assert done.stdout == f"plain\n{os.getuid()}\n" and done.returncode == 0, done.stderr
    else:
        assert argv[:4] == ["bash", "--noprofile", "--norc", "-c"] and KEY in done.stdout


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_DUMPABLE is Linux's")
def test_sealing_makes_the_process_undumpable():
    """In a forked copy of this process, so the test run itself stays as it was."""
    import ctypes

    from narnat_agent.keyguard import seal_process

    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child
        code = 1
        try:
            sealed = seal_process()
            code = 0 if sealed and ctypes.CDLL(None).prctl(3, 0, 0, 0, 0) == 0 else 1  # PR_GET_DUMPABLE
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0


def test_where_commands_cannot_be_confined_they_run_plain_in_bash(tmp_path, monkeypatch):
    from narnat_agent.keyguard import _confining_argv, confined

    monkeypatch.setenv("PATH", str(tmp_path))  # no unshare and no mount: nothing to confine commands with
    _confining_argv.cache_clear()  # what runs a command is found once a process, from PATH
    try:
        argv = confined("echo plain", [tmp_path / "narnat.json"])
    finally:
        _confining_argv.cache_clear()
    assert argv == ["bash", "--noprofile", "--norc", "-c", "echo plain"]


def test_a_stream_lets_go_of_a_few_held_characters_and_still_masks_the_key_finished_after_them():
    from narnat_agent.keyguard import StreamMask

    key = "sk-live-0123456789"
    mask = StreamMask(key)
    assert mask.feed("use " + key[:3]) == "use " and mask.let_go() == key[:3]
    assert mask.feed(key[3:] + " now") == "[API key] now"  # the three shown, the rest of the key masked
    assert mask.feed("and " + key[:4]) == "and " and mask.let_go() == "" and mask.rest() == key[:4]  # four wait
    assert mask.feed("x s") == "x " and mask.let_go() == "s" and mask.feed("k.") == "k."  # not the key after all
    assert mask.let_go() == "" and mask.rest() == ""
