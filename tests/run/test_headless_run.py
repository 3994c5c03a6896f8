"""`narnat -p` in process, through `main` with its argv: the exit code of each way a run ends, the report on stdout,
the session saved whatever happens, what --yes, --plan, --until and --resume change."""

import json
import os
import shutil
import signal
import sys
import threading

import pytest

from narnat_agent.cli import main
from narnat_agent.prompts.texts import PLANNING
from tests.fake_llm import SSE, Status, chunk, text_reply, tool_reply
from tests.run.screens import Screen

if os.name == "nt":  # the runs below end on SIGTERM and run POSIX commands; Windows' runs are tested there
    pytest.skip("POSIX commands and signals", allow_module_level=True)

KEY = "sk-test-key"


@pytest.fixture
def narnat(project, fake_llm, monkeypatch, capsys):
    """`narnat ARGS` run in this process: its exit code, stdout and stderr. The signal handlers a run installs are
    given back after the test."""

    def run(*argv: str) -> tuple[int, str, str]:
        monkeypatch.setenv("NARNAT_API_KEY", KEY)  # a run forgets it from the environment: set again for each
        monkeypatch.setenv("NARNAT_BASE_URL", fake_llm.base_url)
        monkeypatch.setenv("NARNAT_MODEL", "fake-model")
        monkeypatch.setenv("LANG", "C.UTF-8")
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    before = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGHUP)}
    yield run
    for signum, handler in before.items():
        signal.signal(signum, handler)


def result(out: str) -> dict:
    [line] = out.splitlines()
    return json.loads(line)


def saved(project, name: str) -> dict:
    return json.loads((project / ".narnat" / "sessions" / f"{name}.json").read_text())


def test_a_completed_run_exits_0_with_its_answer_masked_and_its_session_saved(project, fake_llm, narnat):
    fake_llm.add(text_reply(f"The key is {KEY}."))
    code, out, err = narnat("-p", "what is the key?")
    assert (code, out) == (0, "The key is [API key].\n")
    [session] = (project / ".narnat" / "sessions").glob("*.json")
    assert err.endswith(f" · session {session.stem}\n") and KEY not in err
    assert saved(project, session.stem)["messages"][-1]["content"] == "The key is [API key]."  # as it was shown


def test_a_key_the_settings_hold_besides_the_one_in_use_never_reaches_the_provider(project, fake_llm, narnat):
    # the project's run uses KEY (NARNAT_API_KEY); the person's own key for another provider sits in ~/.narnat
    own = "sk-own-provider-0123456789"
    home = project.parent / "home" / ".narnat"
    home.mkdir(parents=True, exist_ok=True)
    (home / "narnat.json").write_text(json.dumps({"api_key": own}))
    (project / "notes.txt").write_text(f"pasted {own} here\n")
    fake_llm.add(tool_reply(("Read", {"file_path": str(home / "narnat.json")}), ("Grep", {"pattern": "pasted",
                 "output_mode": "content"})), text_reply("ok"))  # fmt: skip
    code, _, err = narnat("-p", "read them")
    sent = json.dumps(fake_llm.requests[-1]["messages"])
    assert code == 0 and own not in sent and own not in err
    assert '{\\"api_key\\": \\"[API key]\\"}' in sent and "pasted [API key] here" in sent


def test_continuing_when_the_newest_conversation_is_a_fifo_says_so_instead_of_waiting_for_ever(project, narnat):
    sessions = project / ".narnat" / "sessions"
    sessions.mkdir(parents=True)
    os.mkfifo(sessions / "2099-01-01_00-00-00-1.json")  # opening it to read waited for a writer that never came
    code, out, err = narnat("-p", "again", "-c")
    assert (code, out) == (2, "")
    assert f"{sessions / '2099-01-01_00-00-00-1.json'} is not a regular file; remove it." in err


def test_stream_json_starts_with_the_session_and_model_and_ends_with_the_result(project, fake_llm, narnat):
    fake_llm.add(text_reply("Hi."))
    code, out, _ = narnat("-p", "hi", "--output-format", "stream-json")
    events = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and events[0]["type"] == "start" and events[-1]["type"] == "result"
    assert (events[0]["session"], events[0]["model"]) == (events[-1]["session"], "fake-model")
    assert events[-1]["session"] and (project / ".narnat" / "sessions" / f"{events[0]['session']}.json").exists()


def test_a_step_limit_exits_3_and_says_how_the_run_goes_on(project, fake_llm, narnat):
    fake_llm.add(tool_reply(("Glob", {"pattern": "*"})), tool_reply(("Glob", {"pattern": "*.py"})))
    code, out, err = narnat("-p", "look", "--max-steps", "1", "--output-format", "json")
    report = result(out)
    assert (code, report["exit_code"], report["stop"], report["is_error"]) == (3, 3, "step_limit", True)
    name = report["session"]
    assert report["message"].endswith(f"`narnat --resume {name} -p continue` goes on.")
    assert f"`narnat --resume {name} -p continue` goes on." in err and len(fake_llm.requests) == 1


def test_a_provider_failure_exits_1(fake_llm, narnat):
    fake_llm.add(Status(400, {"error": {"message": "bad request"}}))
    code, out, _ = narnat("-p", "hi", "--output-format", "json")
    report = result(out)
    assert (code, report["stop"], report["exit_code"]) == (1, "provider_error", 1)


def test_a_command_that_would_ask_is_refused_without_yes_and_the_run_exits_3(project, fake_llm, narnat):
    (project / "build").mkdir()
    fake_llm.add(tool_reply(("Bash", {"command": "rm -rf build"})), text_reply("Could not remove it."))
    code, out, err = narnat("-p", "clean", "--output-format", "json")
    report = result(out)
    assert (code, report["stop"], report["refused"]) == (3, "confirmation_refused", ["rm -rf build"])
    sentence = ("The turn finished, but a command that needs confirmation was not run: rm -rf build (run with --yes "
                "to allow it).")  # fmt: skip
    assert report["message"] == sentence and sentence in err and (project / "build").is_dir()


def test_yes_runs_the_command_that_would_ask(project, fake_llm, narnat):
    (project / "build").mkdir()
    fake_llm.add(tool_reply(("Bash", {"command": "rm -rf build"})), text_reply("Removed."))
    code, out, _ = narnat("-p", "clean", "--yes", "--output-format", "json")
    report = result(out)
    assert (code, report["stop"], report["refused"]) == (0, "completed", [])
    assert not (project / "build").exists()


def test_what_yes_let_run_is_said_on_stderr_so_a_ci_log_shows_it(project, fake_llm, narnat):
    (project / "build").mkdir()
    fake_llm.add(tool_reply(("Bash", {"command": "rm -rf build"})), text_reply("Removed."))
    code, _, err = narnat("-p", "clean", "--yes")
    assert code == 0 and "! Allowed by --yes: rm -rf build (rm deletes files: build)" in err.splitlines(), err


def test_a_destructive_goal_check_is_refused_before_anything_starts(project, fake_llm, narnat):
    (project / "build").mkdir()
    code, out, err = narnat("-p", "go", "--until", "rm -rf build")
    assert code == 2 and out == "" and err.startswith("✗ The --until command is refused: ")
    # judged in the project: its own folder is one /undo could restore, so no word of what /undo cannot
    code, _, err = narnat("-p", "go", "--until", f"rm -rf {project / 'build'}")
    refused = f"✗ The --until command is refused: rm deletes files: {project / 'build'}. Name a command that only"
    assert code == 2 and err.startswith(refused)
    assert not fake_llm.requests and (project / "build").is_dir()
    assert not (project / ".narnat" / "sessions").exists()


def test_a_goal_runs_its_check_after_each_turn(project, fake_llm, narnat):
    fake_llm.add(text_reply("Done."), tool_reply(("Write", {"file_path": "out.txt", "content": "ok\n"})),
                 text_reply("Wrote it."))  # fmt: skip
    code, out, _ = narnat("-p", "write ok", "--until", "grep -q ok out.txt", "--output-format", "json")
    report = result(out)
    assert fake_llm.requests[0]["messages"][-1]["content"].startswith("write ok\n")
    assert (code, report["goal"]["rounds"], report["goal"]["verified"]) == (0, 2, True)
    assert report["changed_files"] == ["out.txt"] and len(fake_llm.requests) == 3


def test_plan_mode_tells_the_model_it_is_planning_and_changes_nothing(project, fake_llm, narnat):
    fake_llm.add(tool_reply(("Write", {"file_path": "a.txt", "content": "x\n"})), text_reply("The plan: write a."))
    code, out, _ = narnat("-p", "add a", "--plan", "--output-format", "json")
    assert code == 0 and result(out)["changed_files"] == []
    assert not (project / "a.txt").exists()
    assert PLANNING.strip()[:40] in json.dumps(fake_llm.requests[0]["messages"])


def test_without_plan_the_model_is_not_told_it_is_planning(project, fake_llm, narnat):
    fake_llm.add(tool_reply(("Write", {"file_path": "a.txt", "content": "x\n"})), text_reply("Wrote a."))
    code, out, _ = narnat("-p", "add a", "--output-format", "json")
    assert code == 0 and result(out)["changed_files"] == ["a.txt"] and (project / "a.txt").exists()
    assert PLANNING.strip()[:40] not in json.dumps(fake_llm.requests[0]["messages"])


@pytest.mark.slow
def test_a_resumed_run_reports_only_the_files_its_own_turn_changed(project, fake_llm, narnat):
    fake_llm.add(tool_reply(("Write", {"file_path": "a.txt", "content": "a\n"})), text_reply("Wrote a."),
                 tool_reply(("Write", {"file_path": "b.txt", "content": "b\n"})), text_reply("Wrote b."))  # fmt: skip
    first = result(narnat("-p", "write a", "--output-format", "json")[1])
    code, out, _ = narnat("-c", "-p", "write b", "--output-format", "json")
    second = result(out)
    assert (first["changed_files"], second["changed_files"]) == (["a.txt"], ["b.txt"])
    assert code == 0 and second["session"] == first["session"] and saved(project, first["session"])["turns"] == 2


def sessions_lost(project, answer: str):
    """The server's answer, given once the sessions folder has become a file: the save after the turn fails."""

    def respond(request: dict) -> SSE:
        sessions = project / ".narnat" / "sessions"
        shutil.rmtree(sessions, ignore_errors=True)
        sessions.write_text("a file where the folder should be")
        return text_reply(answer)

    return respond


def test_a_resumed_conversation_that_cannot_be_saved_again_exits_1(project, fake_llm, narnat):
    fake_llm.add(text_reply("Noted."))
    name = result(narnat("-p", "remember 42", "--output-format", "json")[1])["session"]
    fake_llm.respond = sessions_lost(project, "It was 42.")
    code, out, err = narnat("--resume", name, "-p", "what was it?", "--output-format", "json")
    report = result(out)
    assert (code, report["exit_code"], report["stop"], report["session"]) == (1, 1, "completed", None)
    assert f"Cannot save '{name}'" in err


def test_a_new_conversation_that_cannot_be_saved_keeps_the_turns_exit_code(project, fake_llm, narnat):
    fake_llm.respond = sessions_lost(project, "Done.")
    code, out, err = narnat("-p", "go", "--output-format", "json")
    report = result(out)
    assert (code, report["stop"], report["session"]) == (0, "completed", None) and "Cannot save" in err


def test_a_missing_conversation_to_resume_exits_2_before_any_request(fake_llm, narnat):
    code, out, err = narnat("--resume", "nope", "-p", "go on")
    assert code == 2 and out == "" and "Cannot resume: there is no session named 'nope'" in err
    assert not fake_llm.requests


def test_sigterm_during_the_run_stops_the_turn_saves_and_exits_143(project, fake_llm, narnat):
    gate = threading.Event()
    fake_llm.add(SSE([chunk({"role": "assistant", "content": "Start"}), chunk({"content": " of it"})], gate=gate))

    def terminate() -> None:
        fake_llm.asked.wait(30)
        os.kill(os.getpid(), signal.SIGTERM)
        gate.set()

    threading.Thread(target=terminate, daemon=True).start()
    code, out, _ = narnat("-p", "long job", "--output-format", "json")
    report = result(out)
    assert (code, report["exit_code"], report["stop"]) == (143, 143, "cancelled")
    assert saved(project, report["session"])["messages"][1]["content"] == "long job"


def test_background_commands_are_stopped_before_the_result_line(project, fake_llm, narnat):
    fake_llm.add(tool_reply(("Bash", {"command": "sleep 30", "run_in_background": True})), text_reply("Started."))
    code, out, _ = narnat("-p", "serve", "--output-format", "stream-json")
    events = [json.loads(line) for line in out.splitlines()]
    notice = [e for e in events if e["type"] == "notice" and e["text"].startswith("Stopped 1 background command")]
    assert code == 0 and events[-1]["type"] == "result"
    assert [e["text"] for e in notice] == ["Stopped 1 background command: sleep 30"]
    assert events.index(notice[0]) == len(events) - 2


def test_a_signal_while_the_run_ends_only_sets_the_exit_code(project, fake_llm, narnat):
    # the background command, stopped on the way out, signals Narnat back: the save and the report still happen
    command = f"trap 'kill -TERM {os.getpid()}' TERM; sleep 30 & wait"
    fake_llm.add(tool_reply(("Bash", {"command": command, "run_in_background": True})), text_reply("Started."))
    code, out, _ = narnat("-p", "serve", "--yes", "--output-format", "json")
    report = result(out)
    assert (code, report["exit_code"], report["stop"], report["is_error"]) == (143, 143, "completed", True)
    assert saved(project, report["session"])["messages"][-1]["content"] == "Started."


def test_an_interrupt_between_the_turns_steps_ends_the_run_as_cancelled(project, fake_llm, narnat, monkeypatch):
    # the turn's footer is its last step: a Ctrl-C landing there is outside the turn's own handling
    monkeypatch.setattr(sys, "stderr", Screen({" · session ": KeyboardInterrupt()}))
    fake_llm.add(tool_reply(("Glob", {"pattern": "*"})), text_reply("Listed."))
    code, out, _ = narnat("-p", "list", "--output-format", "json")
    report = result(out)
    assert (code, report["stop"], report["message"], report["exit_code"]) == (130, "cancelled", "interrupted", 130)
    messages = saved(project, report["session"])["messages"]
    assert messages[-1]["content"] == "Listed." and [m["role"] for m in messages].count("tool") == 1


TOO_LONG = Status(400, {"error": {"message": "This model's maximum context length is 8192 tokens."}})


def test_a_conversation_still_too_long_after_compressing_fails_with_the_providers_sentence(fake_llm, narnat):
    fake_llm.add(text_reply("Noted."))
    narnat("-p", "remember 42", "--output-format", "json")
    fake_llm.add(TOO_LONG, text_reply("<summary>We noted 42.</summary>"), TOO_LONG)
    code, out, err = narnat("-c", "-p", "what was it?", "--output-format", "json")
    report = result(out)
    sentence = ("The conversation no longer fits the model's context window (This model's maximum context length is "
                "8192 tokens.).")  # fmt: skip
    assert (code, report["stop"], report["message"]) == (1, "provider_error", sentence)
    assert f"✗ {sentence}" in err
