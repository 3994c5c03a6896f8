"""`narnat` as users run it: a subprocess in a temporary project against the local fake provider."""

import json
import subprocess
import sys

import pytest

from tests.fake_llm import Status, chunk, text_reply, tool_reply
from tests.launch import NARNAT, scrubbed_environment
from tests.platforms import shown


def narnat(project, *args, stdin="", base_url=None, key="sk-test-key", lang="C.UTF-8", **popen):
    env = scrubbed_environment()
    env.update(HOME=str(project.parent / "home"), USERPROFILE=str(project.parent / "home"), NO_COLOR="1", LANG=lang)
    if base_url:
        env["NARNAT_BASE_URL"] = base_url
    if key:
        env["NARNAT_API_KEY"] = key
    return subprocess.run(
        [*NARNAT, *args],
        cwd=project, env=env, input=stdin, capture_output=True, text=True, encoding="utf-8", timeout=60, **popen,
    )  # fmt: skip


@pytest.mark.slow
@pytest.mark.windows
def test_headless_stdout_is_the_final_answer_and_the_rest_goes_to_stderr(project, fake_llm):
    (project / "notes.txt").write_text("remember the milk\n")
    thinking = [
        chunk({"role": "assistant", "reasoning_content": "The user wants"}),
        chunk({"reasoning_content": " notes."}),
    ]
    read = tool_reply(("Read", {"file_path": "notes.txt"}), text="Checking the notes…")
    read.chunks[:0] = thinking
    fake_llm.add(read, text_reply("You must remember the milk."))
    done = narnat(project, "-p", "what do my notes say?", base_url=fake_llm.base_url)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "You must remember the milk.\n"
    assert "The user wants notes.\nChecking the notes…\n● Read(notes.txt)\n" in done.stderr
    assert "Read 1 line" in done.stderr and "You must remember" not in done.stderr
    results = [m for m in fake_llm.requests[1]["messages"] if m["role"] == "tool"]
    assert len(results) == 1 and "remember the milk" in results[0]["content"]
    assert fake_llm.headers[0]["authorization"] == "Bearer sk-test-key"
    [session] = (project / ".narnat" / "sessions").glob("*.json")
    assert done.stderr.endswith(f" · session {session.stem}\n")  # the footer names it: --resume NAME continues it


@pytest.mark.slow
@pytest.mark.windows
def test_a_headless_run_finds_reads_edits_and_writes_files(project, fake_llm):
    (project / "src").mkdir()
    (project / "src" / "app.py").write_text("GREETING = 'hi'\n")
    app = shown("src/app.py")  # as Glob and Grep show it, and so as the model writes it back
    fake_llm.add(
        tool_reply(("Glob", {"pattern": "**/*.py"}), ("Grep", {"pattern": "GREETING", "output_mode": "content"}),
                   ("Read", {"file_path": app})),
        tool_reply(("Edit", {"file_path": app, "old_string": "'hi'", "new_string": "'héllo'"}),
                   ("Write", {"file_path": "docs/notes.md", "content": "Greeting changed ✓\n"})),
        text_reply("Done ✓"),
    )  # fmt: skip
    done = narnat(project, "-p", "change the greeting", base_url=fake_llm.base_url)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "Done ✓\n"  # UTF-8 through a pipe, whatever the code page
    glob, grep, read, edit, write = [m["content"] for m in fake_llm.requests[2]["messages"] if m["role"] == "tool"]
    assert (glob, grep) == (app, f"{app}:1:GREETING = 'hi'")
    assert read.startswith("1\tGREETING = 'hi'\n") and not edit.startswith("Error") and write.startswith("Created")
    assert (project / "src" / "app.py").read_bytes() == "GREETING = 'héllo'\n".encode()
    assert (project / "docs" / "notes.md").read_bytes() == "Greeting changed ✓\n".encode()


@pytest.mark.slow
@pytest.mark.windows
def test_prompt_from_stdin(project, fake_llm):
    fake_llm.add(text_reply("ok"))
    done = narnat(project, "-p", "-", stdin="summarise this diff", base_url=fake_llm.base_url)
    assert done.returncode == 0
    assert fake_llm.requests[0]["messages"][-1]["content"] == "summarise this diff"


@pytest.mark.slow
@pytest.mark.windows
def test_provider_failure_exits_1_with_one_sentence(project, fake_llm):
    fake_llm.add(Status(401, {"error": {"message": "invalid key"}}))
    done = narnat(project, "-p", "hi", base_url=fake_llm.base_url)
    assert done.returncode == 1
    assert "rejected the API key" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.windows
def test_config_error_exits_2_without_waiting_for_a_keyboard(project):
    done = narnat(project, "-p", "hi", key=None)
    assert done.returncode == 2 and "No API key" in done.stderr
    (project / ".narnat").mkdir()
    (project / ".narnat" / "narnat.json").write_text("{oops")
    done = narnat(project, "-p", "hi")
    assert done.returncode == 2 and "invalid JSON at line 1, column 2" in done.stderr


@pytest.mark.slow
@pytest.mark.windows
def test_plain_repl_reads_lines_until_end_of_input(project, fake_llm):
    fake_llm.add(text_reply("first answer"), text_reply("second answer"))
    done = narnat(project, stdin="one\n\ntwo\n", base_url=fake_llm.base_url)
    assert done.returncode == 0, done.stderr
    assert "first answer" in done.stdout and "second answer" in done.stdout
    assert len(fake_llm.requests) == 2
    assert "\x1b" not in done.stdout + done.stderr  # no terminal, no escape codes


@pytest.mark.slow
@pytest.mark.windows
def test_log_file_records_the_turn_without_the_key(project, fake_llm):
    (project / "a.txt").write_text("x\n")
    fake_llm.add(tool_reply(("Read", {"file_path": "a.txt"})), text_reply("done"))
    narnat(project, "-p", "read a.txt", base_url=fake_llm.base_url)
    [log] = (project / ".narnat" / "logs").glob("*.log")
    text = log.read_text()
    assert "[core.agent] INFO user input" in text and "[tools.read] INFO call" in text and "tokens_in=" in text
    assert "sk-test-key" not in text


def test_version_imports_nothing_heavy(project):
    code = (
        "import sys\nfrom narnat_agent.cli import main\n"
        "try:\n    main(['--version'])\nexcept SystemExit:\n    pass\n"
        "print(json.dumps(sorted(m for m in ('openai', 'rich', 'prompt_toolkit', 'requests', 'acp', 'pydantic')\n"
        "                        if m in sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", "import json\n" + code], capture_output=True, text=True)
    assert done.stdout.startswith("narnat ")
    assert json.loads(done.stdout.splitlines()[-1]) == []


@pytest.mark.slow
def test_a_headless_turn_never_loads_the_openai_sdk(project, fake_llm):
    fake_llm.add(text_reply("ok"))
    code = "import sys\nfrom narnat_agent.cli import main\nmain(['-p', 'hi'])\nprint('openai' in sys.modules)"
    env = scrubbed_environment()
    env.update(HOME=str(project.parent / "home"), NARNAT_API_KEY="k", NARNAT_BASE_URL=fake_llm.base_url)
    done = subprocess.run([sys.executable, "-c", code], cwd=project, env=env, capture_output=True, text=True)
    assert done.stdout == "ok\nFalse\n", done.stderr


@pytest.mark.slow
def test_the_process_ends_once_the_exit_handlers_ran_and_the_output_is_flushed(project, fake_llm):
    fake_llm.add(Status(401, {"error": {"message": "bad key"}}))
    code = ("import atexit, sys\nfrom narnat_agent.cli import run\nsys.argv[1:] = ['-p', 'hi']\n"
            "atexit.register(lambda: sys.stdout.write('exit handlers ran\\n'))\nrun()")  # fmt: skip
    env = {k: v for k, v in scrubbed_environment().items() if k != "PYTHONUNBUFFERED"}  # stdout is a pipe's buffer
    env.update(HOME=str(project.parent / "home"), NARNAT_API_KEY="k", NARNAT_BASE_URL=fake_llm.base_url)
    done = subprocess.run([sys.executable, "-c", code], cwd=project, env=env, capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (1, "exit handlers ran\n"), done.stderr
    assert "rejected the API key" in done.stderr
    assert len(list((project / ".narnat" / "sessions").glob("*.json"))) == 1


@pytest.mark.slow
def test_a_turn_that_finished_around_a_refused_command_says_so_and_lists_it(project, fake_llm):
    (project / ".pytest_cache").mkdir()
    fake_llm.add(tool_reply(("Bash", {"command": "rm -rf .pytest_cache"})), text_reply("Fixed; the cache stays."))
    done = narnat(project, "-p", "fix it", "--output-format", "json", base_url=fake_llm.base_url)
    result = json.loads(done.stdout)
    assert (done.returncode, result["stop"], result["answer"]) == (3, "confirmation_refused", "Fixed; the cache stays.")
    assert result["refused"] == ["rm -rf .pytest_cache"]
    assert result["message"] == (
        "The turn finished, but a command that needs confirmation was not run: rm -rf .pytest_cache "
        "(run with --yes to allow it)."
    )


@pytest.mark.slow
def test_headless_refuses_deletion_unless_yes_and_exits_3(project, fake_llm):
    (project / "junk.txt").write_text("x")
    rm = tool_reply(("Bash", {"command": "rm junk.txt"}))
    fake_llm.add(rm, text_reply("refused"))
    done = narnat(project, "-p", "delete junk", base_url=fake_llm.base_url)
    assert done.returncode == 3 and (project / "junk.txt").exists()
    told = fake_llm.requests[1]["messages"][-1]["content"]
    assert told.startswith("Error: not run — it needs the user's confirmation (")
    assert told.endswith(
        "), and this headless run cannot ask (the user can allow it with --yes). Do not do it "
        "another way; say in your answer what was not done."
    )
    assert "/undo" not in told  # there is no /undo in a headless run
    assert "was not run: rm junk.txt (run with --yes" in done.stderr
    fake_llm.add(tool_reply(("Bash", {"command": "rm junk.txt"})), text_reply("deleted"))
    done = narnat(project, "-p", "delete junk", "--yes", base_url=fake_llm.base_url)
    assert done.returncode == 0 and not (project / "junk.txt").exists()
    environment = fake_llm.requests[-1]["messages"][0]["content"].split("# Environment\n")[1]
    assert "- Mode: headless" in environment and "destroying data) are allowed in this run (--yes)." in environment
