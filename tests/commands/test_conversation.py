"""/model /compact /context through the real REPL (lines on stdin) and the fake provider."""

import json

import pytest

from narnat_agent.prompts.texts import COMPRESSION_PROMPT, SUMMARY_HEADING
from tests.fake_llm import Status, text_reply, tool_reply, usage
from tests.run.test_cli import narnat


def repl(project, fake_llm, *lines: str):
    return narnat(project, stdin="".join(f"{line}\n" for line in lines), base_url=fake_llm.base_url)


def answer(text: str, prompt: int):
    reply = text_reply(text)
    reply.chunks[-1] = usage(prompt)
    return reply


def log_text(project) -> str:
    return "".join(p.read_text() for p in (project / ".narnat" / "logs").glob("*.log"))


@pytest.mark.slow
def test_model_lists_the_endpoints_models_with_the_current_one_marked(project, fake_llm):
    fake_llm.models = ["deepseek-v4-flash", "deepseek-v4-pro"]
    done = repl(project, fake_llm, "/model")
    assert "  deepseek-v4-flash\n● deepseek-v4-pro\n" in done.stdout, done.stdout


@pytest.mark.slow
def test_model_without_a_list_at_the_provider_says_so_in_one_sentence(project, fake_llm):
    done = repl(project, fake_llm, "/model")
    assert "does not list its models; /model NAME switches to one by name (now: deepseek-v4-pro)." in done.stdout
    assert "Traceback" not in done.stderr


@pytest.mark.slow
def test_model_switches_from_the_next_turn_and_keeps_the_history(project, fake_llm):
    fake_llm.models = ["deepseek-v4-pro", "glm-4.6"]
    fake_llm.add(text_reply("first"), text_reply("second"), text_reply("third"))
    done = repl(project, fake_llm, "one", "/model glm-4.6", "two", "/clear", "three")
    first, second, third = fake_llm.requests
    assert (first["model"], second["model"], third["model"]) == ("deepseek-v4-pro", "glm-4.6", "glm-4.6")
    assert second["messages"][:3] == first["messages"] + [{"role": "assistant", "content": "first"}]
    assert second["messages"][0] == first["messages"][0]  # the prefix stays byte-stable within the conversation
    assert first["messages"][0]["content"].startswith("You are Narnat, a code agent (model: deepseek-v4-pro)")
    assert third["messages"][0]["content"].startswith(
        "You are Narnat, a code agent (model: glm-4.6)"
    )  # the next conversation names it
    assert "glm-4.6 answers from turn 2 on (was deepseek-v4-pro)" in done.stderr
    footers = [line for line in done.stderr.splitlines() if line.startswith("  ctx ")]
    assert ["from turn" in f for f in footers] == [False, True, True] and "· glm-4.6 from turn 2 ·" in footers[1]
    assert "model switched from deepseek-v4-pro to glm-4.6 from turn 2" in log_text(project)
    saved = json.loads(next((project / ".narnat" / "sessions").glob("*.json")).read_text())
    assert saved["model"] == "glm-4.6"


@pytest.mark.slow
def test_a_model_the_provider_does_not_list_is_refused_and_nothing_changes(project, fake_llm):
    fake_llm.models = ["deepseek-v4-pro", "glm-4.6"]
    fake_llm.add(text_reply("answered"))
    done = repl(project, fake_llm, "/model glm-4.5", "hello")
    assert "There is no model 'glm-4.5' at http" in done.stderr
    assert "deepseek-v4-pro still answers. Did you mean glm-4.6?" in done.stderr
    assert fake_llm.requests[0]["model"] == "deepseek-v4-pro"


@pytest.mark.slow
def test_a_model_the_provider_rejects_at_the_first_request_is_switched_back(project, fake_llm):
    rejected = Status(404, {"error": {"message": "The model `nope` does not exist"}})
    fake_llm.add(text_reply("first"), rejected, text_reply("back"))
    done = repl(project, fake_llm, "one", "/model nope", "two", "three")
    assert [r["model"] for r in fake_llm.requests] == ["deepseek-v4-pro", "nope", "deepseek-v4-pro"]
    undone = "The provider refused 'nope', so the switch is undone and deepseek-v4-pro answers again (Not found (404)"
    assert undone in done.stderr
    last = fake_llm.requests[-1]["messages"]
    assert [m["content"] for m in last if m["role"] == "user"] == ["one", "two", "three"]  # the conversation intact
    assert "back" in done.stdout and "Traceback" not in done.stderr


@pytest.mark.slow
def test_compact_summarises_now_with_the_users_words_and_goes_on_from_the_summary(project, fake_llm):
    fake_llm.add(text_reply("answer one"), text_reply("## Summary\nThe parser is fixed."), text_reply("fresh"))
    done = repl(project, fake_llm, "one", "/compact keep the list of failing tests", "next")
    summary_request, fresh = fake_llm.requests[1], fake_llm.requests[2]
    instruction = summary_request["messages"][-1]["content"]
    assert instruction.startswith(COMPRESSION_PROMPT) and instruction.endswith("keep the list of failing tests")
    assert summary_request["tools"] == fake_llm.requests[0]["tools"]  # the same prefix as the turns: cached
    assert fresh["messages"][0]["content"].endswith(f"{SUMMARY_HEADING}\n## Summary\nThe parser is fixed.\n")
    assert fresh["messages"][1:] == [{"role": "user", "content": "next"}]
    assert (project / ".narnat" / "last_session_summary.md").read_text() == ""
    [archive] = (project / ".narnat" / "sessions").glob("compressed-*.json")
    assert json.loads(archive.read_text())["messages"][1] == {"role": "user", "content": "one"}
    assert "Compressed: the old conversation is saved as" in done.stderr


@pytest.mark.slow
def test_leaving_right_after_compact_saves_the_conversation_that_goes_on_from_the_summary(project, fake_llm):
    fake_llm.add(text_reply("answer one"), text_reply("## Summary\nThe parser is fixed."), text_reply("on"))
    done = repl(project, fake_llm, "one", "/compact")
    assert "Saved this conversation as" in done.stderr
    [kept] = [p for p in (project / ".narnat" / "sessions").glob("*.json") if not p.name.startswith("compressed-")]
    assert json.loads(kept.read_text())["messages"][0]["content"].endswith("The parser is fixed.\n")
    done = narnat(project, "-c", "-p", "go on", base_url=fake_llm.base_url)
    assert done.returncode == 0 and fake_llm.requests[-1]["messages"][1:] == [{"role": "user", "content": "go on"}]


@pytest.mark.slow
def test_a_resumed_archive_goes_on_under_a_new_name_and_stays_as_it_was(project, fake_llm):
    fake_llm.add(text_reply("answer one"), text_reply("## Summary\nDone."), text_reply("two"))
    repl(project, fake_llm, "one", "/compact")
    [archive] = (project / ".narnat" / "sessions").glob("compressed-*.json")
    before = archive.read_text()
    done = narnat(project, "--resume", archive.stem, "-p", "again", base_url=fake_llm.base_url)
    assert done.returncode == 0 and archive.read_text() == before
    assert f"'{archive.stem}' is the archive of a compacted conversation" in done.stderr
    sessions = sorted(p.name for p in (project / ".narnat" / "sessions").glob("*.json"))
    assert len(sessions) == 3  # the archive, the compacted conversation, and the archive's continuation


def test_compact_on_an_empty_conversation_sends_nothing(project, fake_llm):
    done = repl(project, fake_llm, "/compact")
    assert "Nothing to compact: this conversation has no turns yet." in done.stderr and fake_llm.requests == []


@pytest.mark.slow
def test_context_shows_where_the_window_goes_with_the_footers_figure(project, fake_llm):
    (project / "AGENTS.md").write_text("Use tabs.\n" * 40)
    (project / "big.txt").write_text("data line\n" * 400)
    fake_llm.add(tool_reply(("Read", {"file_path": "big.txt"})), answer("It is data.", 6000))
    done = repl(project, fake_llm, "what is in big.txt?", "/context")
    assert "── " not in done.stderr and "ctx 6k/128k" in done.stderr  # the footer
    shown = done.stdout.split("ctx 6k/128k", 1)[1]
    for part in ("system prompt", "instructions: AGENTS.md", "tool schemas", "questions", "answers",
                 "tool results: Read"):  # fmt: skip
        assert f"\n  {part} " in shown, shown
    assert "Largest items\n" in shown and "result of Read(big.txt)" in shown.split("Largest items")[1].split("\n")[1]
    assert "left" in shown.split("\n")[0]


def test_context_before_any_request_is_an_estimate(project, fake_llm):
    done = repl(project, fake_llm, "/context")
    assert done.stdout.split("\n")[0].startswith("> ctx ~") and fake_llm.requests == []
    assert "Largest items" not in done.stdout  # a heading over nothing


@pytest.mark.slow
def test_no_bell_rings_when_stdout_is_not_a_terminal(project, fake_llm):
    (project / ".narnat").mkdir()
    (project / ".narnat" / "narnat.json").write_text(json.dumps({"bell_after_s": 0}))
    fake_llm.add(text_reply("done"))
    done = repl(project, fake_llm, "hello")
    assert "done" in done.stdout and "\a" not in done.stdout + done.stderr
