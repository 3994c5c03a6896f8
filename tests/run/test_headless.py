"""`narnat -p` as scripts and CI jobs use it: output formats, exit codes, sessions that go on, the model told."""

import json
import signal
import subprocess
import sys
import time

import pytest

from narnat_agent.cli import main
from tests.fake_llm import SSE, FakeLLM, chunk, counted_as, text_reply, tool_reply, usage
from tests.launch import NARNAT, scrubbed_environment
from tests.run.test_cli import narnat


def start(project, fake, *args):
    """A headless run in the background, as `narnat` is started by a job runner."""

    env = scrubbed_environment()
    env.update(HOME=str(project.parent / "home"), NARNAT_API_KEY="sk-test-key", NARNAT_BASE_URL=fake.base_url)
    return subprocess.Popen(
        [*NARNAT, *args], cwd=project, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )


def settings(project, **values) -> None:
    (project / ".narnat").mkdir(exist_ok=True)
    (project / ".narnat" / "narnat.json").write_text(json.dumps(values))


def answer(text: str, prompt: int, cached: int, completion: int) -> SSE:
    reply = text_reply(text)
    reply.chunks[-1] = usage(prompt, completion, cached)
    return reply


@pytest.mark.slow
def test_json_prints_one_object_with_the_figures_of_the_run_and_the_model_knows_it_is_headless(project, fake_llm):
    (project / "a.txt").write_text("alpha\n")
    settings(project, pricing={"input": 1.0, "output": 2.0, "cached_input": 0.5})
    fake_llm.add(counted_as(tool_reply(("Read", {"file_path": "a.txt"}), text="Reading."), 3_000),
                 answer("It says alpha.", 4_000, 400, 50))  # fmt: skip
    done = narnat(project, "-p", "what is in a.txt?", "--output-format", "json", base_url=fake_llm.base_url)
    assert done.returncode == 0, done.stderr
    [line] = done.stdout.splitlines()
    result = json.loads(line)
    assert {k: result[k] for k in ("type", "version", "answer", "is_error", "stop", "exit_code", "requests")} == {
        "type": "result", "version": 2, "answer": "It says alpha.", "is_error": False, "stop": "completed",
        "exit_code": 0, "requests": 2,
    }  # fmt: skip
    assert result["tool_calls"] == 1 and result["usage"] == {"sent": 7000, "cached": 400, "out": 55, "estimated": False}
    assert result["cost"] == pytest.approx((3000 + 3600 + 400 * 0.5 + 55 * 2) / 1e6) and result["duration_s"] > 0
    saved = json.loads((project / ".narnat" / "sessions" / f"{result['session']}.json").read_text())
    assert saved["turns"] == 1 and saved["messages"][-1]["content"] == "It says alpha."
    assert "Reading." in done.stderr and "● Read(a.txt)" in done.stderr
    environment = fake_llm.requests[0]["messages"][0]["content"].split("# Environment\n")[1]
    assert "- Mode: headless" in environment and "nobody reads questions" in environment
    assert "destroying data) will be refused." in environment


@pytest.mark.slow
def test_stream_json_is_one_event_a_line_and_the_result_sums_the_requests(project, fake_llm):
    (project / "a.txt").write_text("alpha\n")
    settings(project, pricing={"input": 1.0, "output": 2.0})
    first = tool_reply(("Read", {"file_path": "a.txt"}), ("Glob", {"pattern": "sk-test-key*"}), text="Reading.")
    first.chunks[:0] = [chunk({"role": "assistant", "reasoning_content": "Look first."})]
    first.chunks[-1] = usage(700, 30, 100)
    fake_llm.add(first, answer("Alpha.", 900, 650, 12))
    done = narnat(project, "-p", "a?", "--output-format", "stream-json", base_url=fake_llm.base_url)
    assert done.returncode == 0, done.stderr
    events = [json.loads(line) for line in done.stdout.splitlines()]
    kinds = [e["type"] for e in events]
    assert kinds[0] == "start" and kinds[-1] == "result" and kinds.count("result") == 1
    assert events[0]["version"] == 2 and events[0]["session"] == events[-1]["session"]
    assert "".join(e["text"] for e in events if e["type"] == "reasoning") == "Look first."
    assert "".join(e["text"] for e in events if e["type"] == "text") == "Reading.Alpha."
    calls = [e for e in events if e["type"] == "tool_call"]
    results = [e for e in events if e["type"] == "tool_result"]
    assert [(c["name"], c["arguments"]) for c in calls] == [("Read", {"file_path": "a.txt"}),
                                                            ("Glob", {"pattern": "[API key]*"})]  # fmt: skip
    assert [r["id"] for r in results] == [c["id"] for c in calls] and kinds.index("tool_call") < kinds.index(
        "tool_result"
    )
    assert (results[0]["summary"], results[0]["is_error"], results[1]["is_error"]) == ("Read 1 line", False, True)
    assert "sk-test-key" not in done.stdout
    requests = [e for e in events if e["type"] == "usage"]
    final = events[-1]
    assert len(requests) == final["requests"] == 2
    for field in ("sent", "cached", "out"):
        assert sum(e[field] for e in requests) == final["usage"][field]
    assert sum(e["cost"] for e in requests) == pytest.approx(final["cost"])


@pytest.mark.slow
def test_exit_code_3_when_the_turn_stops_before_its_end(tmp_path):
    """Step limit, the same call again and again, a cut-off answer: each exits 3 and says why."""
    cases = {
        "step_limit": ([tool_reply(("Glob", {"pattern": "*"}))], ["--max-steps", "1"]),
        "repeated_calls": ([tool_reply(("Glob", {"pattern": "*"})) for _ in range(4)], []),
        "cut_off": ([SSE([chunk({"role": "assistant", "content": "The answer is"}), chunk(finish="length"), usage()])],
                    []),
    }  # fmt: skip
    runs = {}
    for stop, (script, flags) in cases.items():
        project = tmp_path / stop
        project.mkdir()
        fake = FakeLLM().add(*script)
        runs[stop] = (fake, start(project, fake, "-p", "go", "--output-format", "json", *flags))
    for stop, (fake, run) in runs.items():
        out, err = run.communicate(timeout=60)
        fake.close()
        result = json.loads(out)
        assert (run.returncode, result["stop"], result["is_error"]) == (3, stop, True), err
        assert result["message"] and result["message"] in err
    assert runs["step_limit"][0].requests and len(runs["step_limit"][0].requests) == 1


def test_exit_code_2_for_usage_mistakes(project, capsys, monkeypatch):
    with pytest.raises(SystemExit) as exit_:
        main(["--output-format", "json"])
    assert exit_.value.code == 2 and "--output-format needs -p" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["-p", "x", "--max-steps", "0"])
    assert exit_.value.code == 2 and "positive whole number" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["-c", "--resume", "a", "-p", "x"])
    assert "not allowed with" in capsys.readouterr().err
    monkeypatch.setenv("NARNAT_API_KEY", "k")
    assert main(["-c", "-p", "go on"]) == 2
    assert "Cannot continue: this project has no saved conversation yet." in capsys.readouterr().err


@pytest.mark.slow
def test_ctrl_c_exits_130_and_keeps_the_session(project, fake_llm):
    fake_llm.add(SSE([chunk({"role": "assistant", "content": "Start"}), chunk({"content": " of it"})], delay=30))
    run = start(project, fake_llm, "-p", "long job", "--output-format", "json")
    while not fake_llm.requests and run.poll() is None:
        time.sleep(0.05)
    time.sleep(0.3)
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=30)
    result = json.loads(out)
    assert (run.returncode, result["stop"], result["exit_code"]) == (130, "cancelled", 130), err
    assert (project / ".narnat" / "sessions" / f"{result['session']}.json").exists()


@pytest.mark.slow
def test_continue_takes_up_the_latest_conversation_in_both_modes(project, fake_llm, capsys, monkeypatch):
    fake_llm.add(text_reply("Noted."), text_reply("It was 42."), text_reply("Still 42."))
    first = json.loads(
        narnat(project, "-p", "remember 42", "--output-format", "json", base_url=fake_llm.base_url).stdout
    )
    done = narnat(project, "-c", "-p", "what was it?", "--output-format", "json", base_url=fake_llm.base_url)
    second = json.loads(done.stdout)
    assert (second["session"], second["answer"]) == (first["session"], "It was 42."), done.stderr
    asked = [m["content"] for m in fake_llm.requests[1]["messages"] if m["role"] != "system"]
    assert asked == ["remember 42", "Noted.", "what was it?"]
    done = narnat(project, "--continue", stdin="and now?\n", base_url=fake_llm.base_url)
    assert done.returncode == 0 and "Still 42." in done.stdout
    system = fake_llm.requests[2]["messages"][0]["content"]
    assert "Mode: headless" not in system and "# Environment\n" in system  # the REPL has someone to ask
    saved = json.loads((project / ".narnat" / "sessions" / f"{first['session']}.json").read_text())
    assert saved["turns"] == 3
    monkeypatch.setenv("NARNAT_API_KEY", "k")
    assert main(["--resume", "nope", "-p", "go on"]) == 2
    where = project / ".narnat" / "sessions"
    assert f"no session named 'nope' in {where}; the most recent are {first['session']}." in capsys.readouterr().err
    assert len(fake_llm.requests) == 3


@pytest.mark.slow
def test_stream_json_stdout_is_json_lines_only_even_with_line_separators_and_config_notices(project, fake_llm):
    settings(project, unknown_setting=1)
    fake_llm.add(text_reply("one\u2028two\u2029three"))
    done = narnat(project, "-p", "a?", "--output-format", "stream-json", base_url=fake_llm.base_url)
    assert done.returncode == 0, done.stderr
    assert "\u2028" not in done.stdout and "\u2029" not in done.stdout  # str.splitlines and JS readers split there
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert any(e["type"] == "notice" and "unknown_setting" in e["text"] for e in events)
    assert events[-1]["answer"] == "one\u2028two\u2029three"


def test_nothing_but_json_reaches_stdout_in_the_json_formats():
    import io

    from narnat_agent.ui.events import EventUI

    out, err = io.StringIO(), io.StringIO()
    ui = EventUI(True, out, err)
    ui.info("a listing")
    ui.table(["name", "turns"], [["a", "1"]])
    assert out.getvalue() == "" and "a listing" in err.getvalue()


@pytest.mark.slow
def test_the_result_states_every_verification_in_order_and_the_whole_suites_latest(project, fake_llm):
    (project / "test_x.py").write_text("def test_x():\n    assert 1 == 2\n")
    pytest_run = f"{sys.executable} -m pytest -q -p no:cacheprovider 2>&1 | tail -3"
    again = f"cd . && {sys.executable} -m pytest -q -p no:cacheprovider --collect-only nothing_here.py"
    fake_llm.add(tool_reply(("Bash", {"command": pytest_run})), tool_reply(("Bash", {"command": again})),
                 text_reply("All tests pass."))  # fmt: skip
    done = narnat(project, "-p", "run the tests", "--output-format", "json", base_url=fake_llm.base_url)
    result = json.loads(done.stdout)
    whole = {"command": "pytest", "run": f"{sys.executable} -m pytest -q -p no:cacheprovider", "filtered": False,
             "outcome": "failed", "exit_code": 1}  # fmt: skip
    part = {"command": "pytest", "run": again.removeprefix("cd . && "), "filtered": True, "outcome": "failed",
            "exit_code": 4}  # fmt: skip
    assert result["verifications"] == [whole, part], done.stderr
    assert result["suite"] == whole  # the one file's run does not stand for the suite
    assert "…: failed (exit 4) · session" in done.stderr.splitlines()[-1]  # a filtered run is named as it ran


def test_your_own_command_is_the_question_and_a_built_in_one_is_refused(project, fake_llm, capsys, monkeypatch):
    # `-p "/rev src/a.py"` reached the model as that very text
    (project / ".narnat" / "commands").mkdir(parents=True)
    (project / ".narnat" / "commands" / "rev.md").write_text("Review this: $ARGUMENTS\n")
    monkeypatch.setenv("NARNAT_API_KEY", "k")
    monkeypatch.setenv("NARNAT_BASE_URL", fake_llm.base_url)
    fake_llm.add(text_reply("Reviewed."))
    assert main(["-p", "/rev src/a.py"]) == 0
    assert fake_llm.requests[0]["messages"][-1]["content"].startswith("Review this: src/a.py")
    monkeypatch.setenv("NARNAT_API_KEY", "k")  # a run takes the key out of the environment
    assert main(["-p", "/undo"]) == 2 and len(fake_llm.requests) == 1
    assert "/undo is a command of the interactive prompt; -p takes a question" in capsys.readouterr().err
