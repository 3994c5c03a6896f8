"""Faults around the program, reproduced with real processes, real files, real limits and real mounts."""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

import pytest

if os.name == "nt":
    pytest.skip("real limits (resource), mounts and signals are POSIX's", allow_module_level=True)

import resource  # noqa: E402

from narnat_agent.conversation import store
from tests.fake_llm import SSE, chunk, text_reply, tool_reply, usage
from tests.launch import NARNAT, scrubbed_environment

LATIN1 = "Explique caf\u00e9.py".encode("latin-1")


def environment(project, base_url, **extra):
    env = scrubbed_environment()
    env.update(
        HOME=str(project.parent / "home"), NO_COLOR="1", NARNAT_API_KEY="sk-test-key", NARNAT_BASE_URL=base_url, **extra
    )
    return env


def run(project, base_url, *args, stdin=b"", prefix=(), **popen):
    """narnat with bytes in and text out (undecodable output escaped, so a test can read it)."""
    done = subprocess.run([*prefix, *NARNAT, *args], cwd=project, input=stdin,
                          env=environment(project, base_url), capture_output=True, timeout=90, **popen)  # fmt: skip
    done.stdout, done.stderr = (out.decode("utf-8", "backslashreplace") for out in (done.stdout, done.stderr))
    return done


def limit_file_size(size: int):
    """A disk that takes no more than `size` bytes per file: writes beyond fail with EFBIG, even for root."""

    def apply() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))

    return apply


def can_unshare(*flags: str) -> bool:
    return (
        bool(shutil.which("unshare"))
        and subprocess.run(["unshare", *flags, "true"], capture_output=True).returncode == 0
    )


def sent(fake_llm, request: int = 0) -> str:
    return fake_llm.requests[request]["messages"][-1]["content"]


# Invalid UTF-8 in the prompt


@pytest.mark.slow
def test_latin1_on_stdin_is_escaped_not_a_traceback(project, fake_llm):
    fake_llm.add(text_reply("ok"))
    done = run(project, fake_llm.base_url, "-p", "-", stdin=LATIN1)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert sent(fake_llm) == "Explique caf\\xe9.py"


@pytest.mark.slow
def test_utf16_on_stdin_is_decoded(project, fake_llm):
    fake_llm.add(text_reply("ok"))
    done = run(project, fake_llm.base_url, "-p", "-", stdin="Explique café.py".encode("utf-16"))
    assert done.returncode == 0 and sent(fake_llm) == "Explique café.py"


@pytest.mark.slow
def test_undecodable_bytes_in_argv_are_escaped(project, fake_llm):
    fake_llm.add(text_reply("ok"))
    done = run(project, fake_llm.base_url, "-p", LATIN1)
    assert done.returncode == 0 and "Traceback" not in done.stderr and sent(fake_llm) == "Explique caf\\xe9.py"


@pytest.mark.slow
def test_a_plain_repl_line_in_latin1_does_not_poison_the_conversation(project, fake_llm):
    fake_llm.add(text_reply("first"), text_reply("second"))
    done = run(project, fake_llm.base_url, stdin=LATIN1 + b"\nand then?\n")
    assert done.returncode == 0 and "Traceback" not in done.stderr and "Unexpected error" not in done.stderr
    assert sent(fake_llm, 0) == "Explique caf\\xe9.py" and sent(fake_llm, 1) == "and then?"
    [saved] = (project / ".narnat/sessions").glob("*.json")
    assert json.loads(saved.read_text())["turns"] == 2


@pytest.mark.slow
def test_a_non_utf8_file_name_in_a_listing_can_be_sent_and_saved(project, fake_llm):
    open(os.path.join(os.fsencode(project), b"caf\xe9.py"), "w").close()
    fake_llm.add(tool_reply(("Read", {"file_path": "."})), text_reply("one file"), text_reply("still fine"))
    done = run(project, fake_llm.base_url, stdin=b"what is here?\nand now?\n")
    assert done.returncode == 0 and "Traceback" not in done.stderr and "Unexpected error" not in done.stderr
    listing = [m for m in fake_llm.requests[1]["messages"] if m["role"] == "tool"][0]["content"]
    assert "caf\\xe9.py" in listing and len(fake_llm.requests) == 3
    [saved] = (project / ".narnat/sessions").glob("*.json")
    assert "caf\\\\xe9.py" in saved.read_text()


# A project whose .narnat/ cannot be written


@pytest.mark.slow
def test_a_read_only_project_still_answers_and_keeps_state_per_user(project, fake_llm):
    if not can_unshare("-rm"):
        pytest.skip("cannot make a mount namespace here (unshare -rm refused)")
    (project / "app.py").write_text("print('hi')\n")
    fake_llm.add(tool_reply(("Read", {"file_path": "app.py"})), text_reply("It prints hi."))
    mount = ["unshare", "-rm", "sh", "-c", 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"',
             str(project)]  # fmt: skip
    done = run(project, fake_llm.base_url, "-p", "explain app.py", prefix=mount)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "It prints hi.\n" and "Traceback" not in done.stderr
    assert done.stderr.count("cannot be written") == 1 and not (project / ".narnat").exists()
    [state] = (project.parent / "home/.local/state/narnat").iterdir()
    assert len(list((state / "logs").glob("*.log"))) == 1


@pytest.mark.slow
def test_an_unwritable_state_folder_still_answers_and_resumes_from_the_per_user_one(project, fake_llm):
    (project / ".narnat").write_text("not a folder")  # refused to root too
    fake_llm.add(text_reply("first"), text_reply("second"))
    done = run(project, fake_llm.base_url, stdin=b"hello\n")
    assert done.returncode == 0 and "Traceback" not in done.stderr and "cannot be written" in done.stderr
    name = done.stderr.split("narnat --resume ", 1)[1].split(")")[0]
    again = run(project, fake_llm.base_url, "--resume", name, "-p", "more")
    assert again.returncode == 0 and again.stdout == "second\n"
    assert [m["content"] for m in fake_llm.requests[1]["messages"] if m["role"] == "user"] == ["hello", "more"]


# A full disk


@pytest.mark.slow
def test_full_disk_save_and_autosave_are_one_sentence_and_the_repl_goes_on(project, fake_llm):
    fake_llm.add(text_reply("the answer"), text_reply("second answer"))
    stdin = b"question\n/save work\nanother question\n"
    done = run(project, fake_llm.base_url, stdin=stdin, preexec_fn=limit_file_size(200))
    assert done.returncode == 0 and "Traceback" not in done.stderr and "Logging error" not in done.stderr
    assert "the answer" in done.stdout and "second answer" in done.stdout  # the REPL went on after /save failed
    assert "Cannot save 'work': the disk holding" in done.stderr and "free some space" in done.stderr
    assert done.stderr.count("Cannot save") == 3  # /save, the autosave, the autosave on leaving again
    assert done.stderr.count("The conversation is still here") == 1
    assert done.stderr.count("Cannot write the log") == 1
    assert not list((project / ".narnat/sessions").glob("*")) if (project / ".narnat/sessions").exists() else True


@pytest.mark.slow
def test_full_disk_headless_resume_says_so_and_exits_1(project, fake_llm):
    state = project / ".narnat"
    state.mkdir()
    store.save(state, "work", {"turns": 1, "messages": [{"role": "system", "content": "x" * 4000}]})
    before = (state / "sessions/work.json").read_bytes()
    fake_llm.add(text_reply("answered"))
    done = run(project, fake_llm.base_url, "--resume", "work", "-p", "go on", preexec_fn=limit_file_size(4000))
    assert done.returncode == 1 and done.stdout == "answered\n" and "Traceback" not in done.stderr
    assert "Cannot save 'work'" in done.stderr and (state / "sessions/work.json").read_bytes() == before
    assert [p.name for p in (state / "sessions").iterdir()] == ["work.json"]  # no temporary file left behind


@pytest.mark.slow
def test_a_real_full_tmpfs(project, fake_llm):
    if not can_unshare("-rm"):
        pytest.skip("cannot mount a tmpfs here (unshare -rm refused)")
    fake_llm.add(text_reply("the answer"))
    fill = ('mount -t tmpfs -o size=256k tmpfs "$0" && mkdir "$0/.narnat" && '
            '(head -c 1M /dev/zero > "$0/filler" 2>/dev/null; true) && exec "$@"')  # fmt: skip
    done = run(
        project, fake_llm.base_url, stdin=b"question\n", prefix=["unshare", "-rm", "sh", "-c", fill, str(project)]
    )
    assert done.returncode == 0 and "the answer" in done.stdout and "Traceback" not in done.stderr
    assert "the disk holding" in done.stderr and "is full" in done.stderr and "free some space" in done.stderr
    assert "Logging error" not in done.stderr and done.stderr.count("Cannot write the log") <= 1


# Two processes in one project


@pytest.mark.slow
def test_two_repls_started_together_keep_both_conversations(project, fake_llm):
    fake_llm.add(text_reply("one"), text_reply("two"))
    env = environment(project, fake_llm.base_url)
    runs = [subprocess.Popen([*NARNAT], cwd=project, env=env, stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2)]  # fmt: skip
    for n, process in enumerate(runs):
        process.communicate(f"question {n}\n".encode(), timeout=60)
    saved = [json.loads(p.read_text()) for p in (project / ".narnat/sessions").glob("*.json")]
    assert sorted(s["messages"][1]["content"] for s in saved) == ["question 0", "question 1"]


@pytest.mark.slow
def test_two_resumes_of_one_session_lose_no_update(project, fake_llm):
    state = project / ".narnat"
    state.mkdir()
    system = {"role": "system", "content": "x"}
    store.save(state, "shared", {"turns": 1, "messages": [system, {"role": "user", "content": "start"}]})
    gate = threading.Event()
    slow = SSE([chunk({"content": "slow answer"}), chunk(finish="stop"), usage()], gate=gate)
    fake_llm.add(slow, text_reply("quick answer"))
    env = environment(project, fake_llm.base_url)
    first = subprocess.Popen([*NARNAT, "--resume", "shared", "-p", "slow"], cwd=project,
                             env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    try:
        while not fake_llm.requests and first.poll() is None:
            threading.Event().wait(0.05)
        second = run(project, fake_llm.base_url, "--resume", "shared", "-p", "quick")
    finally:
        gate.set()
    out, err = first.communicate(timeout=60)
    assert second.returncode == 0 and first.returncode == 0, err
    assert "saved this conversation beside it as 'shared-2'" in err
    quick = json.loads((state / "sessions/shared.json").read_text())["messages"]
    slow_saved = json.loads((state / "sessions/shared-2.json").read_text())["messages"]
    assert [m["content"] for m in quick[2:]] == ["quick", "quick answer"]
    assert [m["content"] for m in slow_saved[2:]] == ["slow", "slow answer"]


# Damaged and unreadable sessions


@pytest.mark.slow
def test_a_session_with_wrongly_typed_fields_is_one_sentence_everywhere(project, fake_llm):
    sessions = project / ".narnat/sessions"
    sessions.mkdir(parents=True)
    good = {"format": "narnat-session", "version": 1, "turns": 1, "messages": [{"role": "system", "content": "x"}]}
    (sessions / "odd.json").write_text(json.dumps({**good, "created": 12345, "updated": 5}))
    done = run(project, fake_llm.base_url, "--resume", "odd", "-p", "hi")
    assert done.returncode == 2 and "cannot be loaded: 'created' must be text" in done.stderr
    assert "Traceback" not in done.stderr
    fake_llm.add(text_reply("still here"))
    done = run(project, fake_llm.base_url, stdin=b"/enter odd\n/show\nhello\n")
    assert done.returncode == 0 and "Traceback" not in done.stderr and "still here" in done.stdout
    assert "odd" in done.stdout and "cannot be loaded: 'created' must be text" in done.stderr


@pytest.mark.parametrize(
    ("message", "said"),
    [
        ({"role": "user", "content": 5}, "message 2 (user) has content 5; it must be text"),
        ({"role": "wizard", "content": "hi"}, "message 2 must be an object whose role is one of"),
        ({"role": "assistant", "content": None, "tool_calls": [{"id": 1}]}, "message 2 (assistant) has tool calls"),
        ({"role": "tool", "content": "x", "tool_call_id": 7}, "message 2 (tool) has a 'tool_call_id' that is not text"),
    ],
)
@pytest.mark.slow
def test_a_hand_edited_message_is_named_in_one_sentence_and_the_repl_goes_on(project, fake_llm, message, said):
    sessions = project / ".narnat/sessions"
    sessions.mkdir(parents=True)
    system = {"role": "system", "content": "x"}
    edited = {"format": "narnat-session", "version": 1, "turns": 1, "messages": [system, message]}
    (sessions / "edited.json").write_text(json.dumps(edited))
    fake_llm.add(text_reply("still here"))
    done = run(project, fake_llm.base_url, stdin=b"/enter edited\n/show\nhello\n")
    assert done.returncode == 0 and "Traceback" not in done.stderr and "still here" in done.stdout
    assert f"edited.json cannot be loaded: {said}" in done.stderr


def test_an_unreadable_session_is_not_called_damaged(project, fake_llm):
    (project / ".narnat/sessions/locked.json").mkdir(parents=True)  # a read error that root gets too
    done = run(project, fake_llm.base_url, "--resume", "locked", "-p", "hi")
    assert done.returncode == 2 and "cannot be read (Is a directory)" in done.stderr and "damaged" not in done.stderr


@pytest.mark.slow
def test_a_summary_left_in_another_encoding_is_inherited_escaped(project, fake_llm):
    (project / ".narnat").mkdir()
    (project / ".narnat/last_session_summary.md").write_bytes(b"We renamed caf\xe9.py.")
    fake_llm.add(text_reply("ok"))
    done = run(project, fake_llm.base_url, "-p", "go on")
    assert done.returncode == 0 and "Traceback" not in done.stderr
    assert "We renamed caf\\xe9.py." in fake_llm.requests[0]["messages"][0]["content"]


@pytest.mark.slow
def test_the_full_screen_repl_starts_and_answers_in_a_read_only_project(project, fake_llm):
    import pexpect

    if not can_unshare("-rm"):
        pytest.skip("cannot make a mount namespace here (unshare -rm refused)")
    fake_llm.add(text_reply("read-only is fine"))
    env = environment(project, fake_llm.base_url, TERM="xterm-256color")
    del env["NO_COLOR"]
    script = 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" && exec "$@"'
    child = pexpect.spawn("unshare", ["-rm", "sh", "-c", script, str(project), *NARNAT],
                          cwd=str(project), env=env, dimensions=(30, 100), encoding="utf-8", timeout=30)  # fmt: skip
    try:
        child.expect("❯")  # the history cannot be kept there: that it is skipped quietly is the history's own test
        assert "Traceback" not in child.before
        child.send("hello\r")
        child.expect("read-only is fine")
    finally:
        child.close(force=True)
    assert not (project / ".narnat").exists()


@pytest.mark.slow
def test_a_pasted_key_with_a_newline_is_trimmed_and_one_with_a_zero_width_space_is_named(project, fake_llm):
    fake_llm.add(text_reply("ok"))
    env = {**environment(project, fake_llm.base_url), "NARNAT_API_KEY": "sk-test-key\u00a0\n"}
    done = subprocess.run([*NARNAT, "-p", "hi"], cwd=project, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and fake_llm.headers[0]["authorization"] == "Bearer sk-test-key"
    env["NARNAT_API_KEY"] = "sk-test\u200b-key"
    done = subprocess.run([*NARNAT, "-p", "hi"], cwd=project, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr and len(fake_llm.requests) == 1
    assert "U+200B ZERO WIDTH SPACE (character 8 of 12)" in done.stderr and "sk-test" not in done.stderr


@pytest.mark.slow
@pytest.mark.parametrize("room", [10, 3000], ids=["no room for the summary", "no room for the archive"])
def test_a_compression_on_a_full_disk_fails_in_one_sentence_and_keeps_the_conversation(project, fake_llm, room):
    (project / ".narnat").mkdir()
    (project / ".narnat/narnat.json").write_text(json.dumps({"compress_turns": 1, "max_steps": 5}))
    (project / "AGENTS.md").write_text("Be thorough. " * 400)  # a system prompt larger than the room
    fake_llm.add(text_reply("first"), text_reply("A short summary."))
    done = run(project, fake_llm.base_url, stdin=b"one\ntwo\n", preexec_fn=limit_file_size(room))
    assert done.returncode == 0 and "Traceback" not in done.stderr and "Unexpected error" not in done.stderr
    assert "Compression failed: " in done.stderr and "The conversation is unchanged." in done.stderr
    assert [m["content"] for m in fake_llm.requests[1]["messages"] if m["role"] == "user"][0] == "one"


@pytest.mark.slow
def test_a_project_folder_with_a_non_utf8_name_works(project, fake_llm):
    folder = os.path.join(os.fsencode(project), b"caf\xe9")
    os.mkdir(folder)
    fake_llm.add(text_reply("ok"), text_reply("again"))
    done = run(Path(os.fsdecode(folder)), fake_llm.base_url, stdin=b"hello\nagain\n")
    assert done.returncode == 0 and "Traceback" not in done.stderr and "Unexpected error" not in done.stderr
    assert "caf\\xe9" in fake_llm.requests[0]["messages"][0]["content"] and len(fake_llm.requests) == 2


@pytest.mark.slow
def test_nowhere_to_write_still_answers_with_one_notice_per_kind(project, fake_llm):
    (project / ".narnat").write_text("not a folder")
    (project.parent / "home").rmdir()
    (project.parent / "home").write_text("not a folder either")  # refused to root too
    (project / "app.py").write_text("print(1)\n")
    fake_llm.add(tool_reply(("Read", {"file_path": "app.py"})), text_reply("explained"))
    done = run(project, fake_llm.base_url, stdin=b"explain app.py\n")
    assert done.returncode == 0 and "explained" in done.stdout and "Traceback" not in done.stderr
    assert done.stderr.count("can be written") == 1 and done.stderr.count("Cannot write the log") == 1


@pytest.mark.slow
def test_temporary_files_of_writers_killed_mid_write_are_cleaned_at_start(project, fake_llm):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    home_settings = project.parent / "home" / ".narnat"
    folders = [project / "src" / "deep", project / "build", project / ".narnat" / "sessions", home_settings]
    (project / ".gitignore").write_text("build/\n")
    for folder in folders:
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f".narnat-tmp-{dead.stdout.strip()}-x1y2").write_bytes(b"half of a file")
    alive = project / "src" / f".narnat-tmp-{os.getpid()}-a1b2"  # a writer still at work: left alone
    alive.write_bytes(b"being written")
    fake_llm.add(text_reply("ok"))
    done = run(project, fake_llm.base_url, "-p", "hi")
    assert done.returncode == 0, done.stderr
    assert [p for folder in folders for p in folder.glob(".narnat-tmp-*")] == [] and alive.exists()


# A folder the user cannot enter (a database's volume owned by root, lost+found)


def as_a_user() -> tuple[str, ...]:
    """What makes a folder of mode 000 closed to narnat: nothing for a user; for root, a user namespace of its own,
    where root's capabilities no longer reach the host's files."""
    if os.geteuid() != 0:
        return ()
    if not can_unshare("--user"):
        pytest.skip("root passes any mode and no user namespace can be made here (unshare --user refused)")
    return ("unshare", "--user")


@pytest.fixture
def closed_folder(project):
    """A project holding a folder nobody but its owner may enter, beside a virtualenv narnat should still find."""
    (project / ".venv").mkdir()
    (project / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    closed = project / "pgdata"
    closed.mkdir()
    closed.chmod(0)
    yield closed
    closed.chmod(0o700)


@pytest.mark.slow
@pytest.mark.parametrize("args", [("-p", "hello"), ()], ids=["headless", "plain-repl"])
def test_a_folder_the_user_cannot_enter_does_not_stop_the_start(project, fake_llm, closed_folder, args):
    fake_llm.add(text_reply("hello back"))
    done = run(project, fake_llm.base_url, *args, stdin=b"hello\n", prefix=as_a_user())
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "hello back" in done.stdout and len(fake_llm.requests) == 1
    assert "- Python virtualenv: .venv (its tools" in fake_llm.requests[0]["messages"][0]["content"]


@pytest.mark.slow
def test_the_full_screen_repl_starts_beside_a_folder_the_user_cannot_enter(project, fake_llm, closed_folder):
    import pexpect

    fake_llm.add(text_reply("still here"))
    env = environment(project, fake_llm.base_url, TERM="xterm-256color")
    del env["NO_COLOR"]
    command = [*as_a_user(), *NARNAT]
    child = pexpect.spawn(command[0], command[1:], cwd=str(project), env=env, dimensions=(30, 100),
                          encoding="utf-8", timeout=30)  # fmt: skip
    try:
        child.expect("❯")
        assert "Traceback" not in child.before
        child.send("hello @pg\t\r")  # the @path completion walks the project too
        child.expect("still here")
    finally:
        child.close(force=True)


@pytest.mark.slow
def test_a_file_the_user_cannot_read_leaves_the_checkpoints_on(project, fake_llm):
    # a snapshot cannot keep the file, and need not: /undo cannot write over it either, so the others are kept
    (project / "secret.txt").write_text("not yours\n")
    (project / "secret.txt").chmod(0)
    fake_llm.add(tool_reply(("Bash", {"command": "python3 -c \"open('made.py', 'w').write('x = 1')\""})),
                 text_reply("made"))  # fmt: skip
    try:
        done = run(project, fake_llm.base_url, "-p", "make it", "--output-format", "json", prefix=as_a_user())
    finally:
        (project / "secret.txt").chmod(0o600)
    assert done.returncode == 0 and "Checkpoints are off" not in done.stderr, done.stderr
    assert json.loads(done.stdout)["changed_files"] == ["made.py"]


@pytest.mark.slow
def test_a_command_whose_output_the_full_disk_cannot_spill_still_gives_its_ends(project, fake_llm):
    # the spill file fails past 60,000 bytes: the output is still read to its end, and nobody is sent to the file
    printer = "import sys; [print(f'line {n}') for n in range(20000)]"
    fake_llm.add(tool_reply(("Bash", {"command": f'{sys.executable} -c "{printer}"'})), text_reply("read it"))
    done = run(project, fake_llm.base_url, "-p", "print", preexec_fn=limit_file_size(60_000))
    assert "Traceback" not in done.stderr and "read it" in done.stdout, done.stderr
    result = fake_llm.requests[1]["messages"][-1]["content"]
    assert result.startswith("line 0\n") and "line 19999\n" in result and "(exit code 0)" in result
    assert "the disk was full" in result and "Read(" not in result
    assert list((project / ".narnat/spills").glob("*")) == []


@pytest.mark.slow
@pytest.mark.parametrize("redirected", ["stdout", "stdin"])
def test_the_editor_protocol_on_a_file_instead_of_a_pipe_is_one_sentence(project, fake_llm, tmp_path, redirected):
    (tmp_path / "in.jsonl").write_bytes(b'{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}\n')
    with open(tmp_path / "in.jsonl", "rb") as given, open(tmp_path / "out.jsonl", "wb") as taken:
        streams = {"stdin": given, "stdout": subprocess.PIPE} if redirected == "stdin" else {"stdout": taken}
        done = subprocess.run([*NARNAT, "acp"], cwd=project, env=environment(project, fake_llm.base_url),
                              stderr=subprocess.PIPE, timeout=30, **({"stdin": subprocess.PIPE} | streams))  # fmt: skip
    stderr = done.stderr.decode()
    assert done.returncode == 2 and "Traceback" not in stderr, stderr
    assert "talks to an editor through pipes" in stderr and len(stderr.strip().splitlines()) == 1


@pytest.mark.slow
@pytest.mark.skipif(not hasattr(socket, "socketpair"), reason="no socket pairs")
def test_the_editor_protocol_over_a_socket_is_served(project, fake_llm):
    ours, theirs = socket.socketpair()
    with ours, theirs:
        narnat = subprocess.Popen([*NARNAT, "acp"], cwd=project, env=environment(project, fake_llm.base_url),
                                  stdin=theirs, stdout=theirs, stderr=subprocess.DEVNULL)  # fmt: skip
        theirs.close()
        ours.sendall(b'{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": 1}}\n')
        ours.settimeout(30)
        answer = ours.makefile("rb").readline()
        ours.shutdown(socket.SHUT_WR)
        narnat.wait(timeout=30)
    assert b'"id":1' in answer.replace(b" ", b"") and b'"protocolVersion"' in answer


@pytest.mark.slow
def test_glob_names_the_folder_it_could_not_enter_as_grep_does(project, fake_llm, closed_folder):
    (project / "src").mkdir()
    (project / "src" / "app.py").write_text("x = 1\n")
    fake_llm.add(tool_reply(("Glob", {"pattern": "**/*.py"})), text_reply("listed"))
    done = run(project, fake_llm.base_url, "-p", "list", prefix=as_a_user())
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    result = fake_llm.requests[1]["messages"][-1]["content"]
    assert result.startswith("src/app.py\n") and "(Some paths could not be read: " in result and "pgdata" in result


@pytest.mark.slow
def test_a_write_to_a_file_the_user_cannot_read_leaves_the_checkpoints_on(project, fake_llm):
    # the checkpoint before the Write took the file itself, which git could not open: checkpoints went off for the run
    (project / "secret.txt").write_text("not yours\n")
    (project / "secret.txt").chmod(0)
    fake_llm.add(tool_reply(("Write", {"file_path": "secret.txt", "content": "mine\n"})),
                 tool_reply(("Bash", {"command": "python3 -c \"open('made.py', 'w').write('x = 1')\""})),
                 text_reply("made"))  # fmt: skip
    try:
        done = run(project, fake_llm.base_url, "-p", "make it", "--output-format", "json", prefix=as_a_user())
    finally:
        (project / "secret.txt").chmod(0o600)
    assert done.returncode == 0 and "Checkpoints are off" not in done.stderr, done.stderr
    assert json.loads(done.stdout)["changed_files"] == ["made.py"]


@pytest.mark.slow
def test_a_file_a_command_overwrote_then_made_unreadable_is_named_by_diff_and_undo(project, fake_llm):
    # the snapshot after the command kept what the file held before: /diff said "changed no file" and /undo "No
    # file needed restoring", the file still overwritten
    (project / "p.txt").write_text("v1\n")
    fake_llm.add(tool_reply(("Bash", {"command": "echo v2 | tee p.txt && chmod 000 p.txt"})), text_reply("done"))
    try:
        done = run(project, fake_llm.base_url, stdin=b"go\ny\n/diff\n/undo\n/exit\n", prefix=as_a_user())
    finally:
        (project / "p.txt").chmod(0o600)
    assert done.returncode == 0, done.stderr
    said = " ".join((done.stdout + done.stderr).split())
    assert "/undo cannot restore p.txt" in said, said
    assert "/undo cannot restore p.txt (cannot be read: Permission denied)" in said
    assert "Turn 1 changed only what no checkpoint could keep, so it cannot be shown: p.txt." in said
    assert "Could not restore (never kept in a checkpoint): p.txt." in said


@pytest.mark.slow
def test_a_project_folder_that_can_be_entered_but_not_listed_starts(project, fake_llm):
    # the system prompt's search for a virtualenv listed the project: a PermissionError traceback at the start
    fake_llm.add(tool_reply(("Read", {"file_path": "notes.txt"})), text_reply("read it"))
    (project / "notes.txt").write_text("kept\n")
    (project / ".narnat").mkdir()
    project.chmod(0o311)
    try:
        done = run(project, fake_llm.base_url, "-p", "hi", prefix=as_a_user())
    finally:
        project.chmod(0o755)
    assert (done.returncode, done.stdout) == (0, "read it\n"), done.stderr
    assert "Traceback" not in done.stderr and "kept" in json.dumps(fake_llm.requests[-1]["messages"])


@pytest.mark.slow
def test_an_edit_or_write_of_a_file_never_read_is_refused_before_a_byte_of_it_is_read(project, fake_llm):
    # the file was loaded whole first (a 1 GB one: 1 GB of memory and 10 s) only to be refused as never read; one
    # that cannot be read shows it: the refusal came from the read
    (project / "big.db").write_text("data\n")
    (project / "big.db").chmod(0)
    fake_llm.add(tool_reply(("Edit", {"file_path": "big.db", "old_string": "data", "new_string": "x"}),
                            ("Write", {"file_path": "big.db", "content": "x"})), text_reply("no"))  # fmt: skip
    try:
        done = run(project, fake_llm.base_url, "-p", "change it", prefix=as_a_user())
    finally:
        (project / "big.db").chmod(0o600)
    results = [m["content"] for m in fake_llm.requests[-1]["messages"] if m["role"] == "tool"]
    assert done.returncode == 0 and results == ["Error: big.db has not been read in this session; Read it first, "
                                                "then retry."] * 2, results  # fmt: skip


@pytest.mark.slow
def test_continuing_when_the_newest_conversation_cannot_be_read_names_it_instead_of_an_older_one(project, fake_llm):
    # the unreadable newest was listed last, so -c went on with the one before it without a word
    from narnat_agent.conversation import session as conversations

    sessions = project / ".narnat" / "sessions"
    for name in ("2026-01-01_00-00-00-1", "2026-01-02_00-00-00-2"):
        talk = conversations.new_session("system", name=name)
        talk.conversation.add_user(f"question of {name}")
        talk.conversation.messages.append({"role": "assistant", "content": "an answer"})
        conversations.save(project / ".narnat", talk, "m")
    older, newest = sessions / "2026-01-01_00-00-00-1.json", sessions / "2026-01-02_00-00-00-2.json"
    os.utime(older, (1, 1))  # the newest by the time it was saved, too
    newest.chmod(0)
    try:
        done = run(project, fake_llm.base_url, "-p", "again", "-c", prefix=as_a_user())
        sessions.chmod(0)
        closed = run(project, fake_llm.base_url, "-p", "again", "-c", prefix=as_a_user())
    finally:
        sessions.chmod(0o700)
        newest.chmod(0o600)
    assert done.returncode == 2 and not fake_llm.requests, done.stderr
    assert f"{newest} cannot be read (Permission denied)." in done.stderr and older.exists()
    assert closed.returncode == 2 and f"{sessions} cannot be read (Permission denied)." in closed.stderr


@pytest.mark.slow
def test_a_store_folder_the_user_cannot_read_is_said_and_not_set_aside_as_damaged(project, fake_llm):
    # git failed on the unreadable objects, the store was taken for damaged and set aside: every earlier turn lost
    fake_llm.add(tool_reply(("Write", {"file_path": "a.txt", "content": "1\n"})), text_reply("one"),
                 tool_reply(("Write", {"file_path": "b.txt", "content": "2\n"})), text_reply("two"))  # fmt: skip
    assert run(project, fake_llm.base_url, "-p", "one").returncode == 0
    objects = project / ".narnat" / "checkpoints" / "git" / "objects"
    objects.chmod(0)
    try:
        done = run(project, fake_llm.base_url, "-p", "two", prefix=as_a_user())
    finally:
        objects.chmod(0o700)
    said = " ".join(done.stderr.split())
    assert done.returncode == 0 and "set aside" not in said, said
    assert not list((project / ".narnat" / "checkpoints").glob("git.damaged-*"))
    assert f"Checkpoints are off for this run: the checkpoint store cannot be read: {objects} is not readable" in said


@pytest.mark.slow
def test_an_edit_in_a_folder_the_user_cannot_write_names_the_file_not_a_temporary_one(project, fake_llm):
    # "Edit could not use sub/.narnat-tmp-7847-bb846157eb54: Permission denied."
    (project / "sub").mkdir()
    (project / "sub" / "a.txt").write_text("hi\n")
    fake_llm.add(tool_reply(("Read", {"file_path": "sub/a.txt"})),
                 tool_reply(("Edit", {"file_path": "sub/a.txt", "old_string": "hi", "new_string": "ho"})),
                 text_reply("done"))  # fmt: skip
    (project / "sub").chmod(0o555)
    try:
        done = run(project, fake_llm.base_url, "-p", "edit it", prefix=as_a_user())
    finally:
        (project / "sub").chmod(0o755)
    assert done.returncode == 0, done.stderr
    assert (
        "Error: Edit could not use sub/a.txt: Permission denied." in done.stderr and ".narnat-tmp-" not in done.stderr
    )
    assert (project / "sub" / "a.txt").read_text() == "hi\n"
