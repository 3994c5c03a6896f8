"""Eight headless runs started together in one project: each finishes, and no shared file is lost or mixed."""

import json

import pytest

from tests.fake_llm import text_reply, tool_reply
from tests.run.test_headless import settings, start

RUNS = 8


def numbers(n: int) -> str:
    return "".join(f"{i}\n" for i in range(n, n + 9000))  # past what the model is shown: the output spills


def respond(request: dict):
    """Each run's own next step, read from its request: the runs' requests interleave."""
    messages = request["messages"]
    n = int(messages[1]["content"].split()[-1])
    if messages[-1]["role"] == "user":
        return tool_reply(("Bash", {"command": f"seq {n} {n + 8999}"}),
                          ("Write", {"file_path": f"out-{n}.txt", "content": f"result {n}\n"}))  # fmt: skip
    return text_reply(f"done {n}")


@pytest.mark.slow
def test_eight_runs_at_once_each_keep_their_own_files(project, fake_llm):
    settings(project, context_window=64000)
    state = project / ".narnat"
    shared = {
        state / "narnat.json": "",
        state / "history": "\n# earlier\n+a question\n",
        state / "narnat.md": "Be brief.",
    }
    for path, text in shared.items():
        if text:
            path.write_text(text)
    before = {path: path.read_bytes() for path in shared}
    fake_llm.respond = respond
    runs = [start(project, fake_llm, "-p", f"task {n}", "--output-format", "json") for n in range(RUNS)]
    results = []
    for run in runs:
        out, err = run.communicate(timeout=120)
        assert run.returncode == 0, err
        results.append(json.loads(out))
    assert [r["answer"] for r in results] == [f"done {n}" for n in range(RUNS)]
    assert {path: path.read_bytes() for path in shared} == before
    assert not (state / "last_session_summary.md").exists()
    names = {r["session"] for r in results}
    assert len(names) == RUNS and {p.stem for p in (state / "sessions").glob("*.json")} == names
    for result, n in zip(results, range(RUNS), strict=True):
        saved = json.loads((state / "sessions" / f"{result['session']}.json").read_text())
        assert [m["content"] for m in saved["messages"] if m["role"] == "user"] == [f"task {n}"]
        assert (project / f"out-{n}.txt").read_text() == f"result {n}\n"
    logs = [path.read_text() for path in (state / "logs").glob("*.log")]
    assert sorted(next(n for n in range(RUNS) if f'"task {n}"' in log) for log in logs) == list(range(RUNS))
    spills = sorted(path.read_text() for path in (state / "spills").glob("*"))
    assert spills == sorted(numbers(n) for n in range(RUNS))
