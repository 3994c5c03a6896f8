"""The interactive run in process: `run_repl` on the plain UI, lines in and the screen, the requests and the session
files out — the banner and a resumed conversation's recap, commands and the user's own, what a crash or a Ctrl-C
between steps leaves, a failed autosave's second chance, and a signal's exit code."""

import io
import json
import os
import shutil
import signal
import threading

import pytest

from narnat_agent import __version__
from narnat_agent.cli import _parser
from narnat_agent.config.loader import load_config
from narnat_agent.conversation import session as sessions
from narnat_agent.conversation import store
from narnat_agent.prompts.system_prompt import build_system_prompt
from narnat_agent.run.repl import run_repl
from narnat_agent.ui.plain import PlainUI
from tests.fake_llm import SSE, chunk, text_reply, tool_reply
from tests.run.screens import Screen

if os.name == "nt":  # the runs below end on SIGTERM; Windows' runs are tested there
    pytest.skip("POSIX signals", allow_module_level=True)


class Lines(io.StringIO):
    """The person's lines; `before` runs before the line whose number it names is read (0 for the first)."""

    def __init__(self, text: str, before: dict | None = None):
        super().__init__(text)
        self.before, self.read = before or {}, 0

    def readline(self, *args) -> str:  # type: ignore[override]
        if action := self.before.get(self.read):
            action()
        self.read += 1
        return super().readline(*args)


class Typed(PlainUI):
    """A plain UI where lines were typed while the agent worked: handed to the agent as a terminal's would be; it
    keeps what a terminal's UI is given for its status line and Tab completion."""

    def __init__(self, *args, typed: tuple[str, ...] = ()):
        super().__init__(*args)
        self.typed, self.at_once, self.model, self.commands = list(typed), None, "", {}

    def banner(self, model: str, lines: list[str]) -> None:
        self.model = model
        super().banner(model, lines)

    def add_commands(self, commands: dict[str, str]) -> None:
        self.commands = commands

    def take_sent(self, accept):
        taken = [line for line in self.typed if accept(line)]
        self.typed = [line for line in self.typed if not accept(line)]
        return taken

    def run_at_once(self, run) -> None:
        self.at_once = run


@pytest.fixture
def handlers():
    before = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGHUP)}
    yield
    for signum, handler in before.items():
        signal.signal(signum, handler)


@pytest.fixture
def repl(project, fake_llm, handlers):
    """The REPL run with these lines typed and these flags: its exit code, stdout and stderr."""

    def run(lines: str | io.StringIO, *argv: str, ui=None, breaks=None, env=None) -> tuple[int, str, str]:
        environment = {"NARNAT_API_KEY": "sk-test-key", "NARNAT_BASE_URL": fake_llm.base_url,
                       "NARNAT_MODEL": "fake-model", **(env or {})}  # fmt: skip
        config = load_config(project, project.parent / "home", env=environment)
        out, err = Screen(), Screen(breaks)
        inp = io.StringIO(lines) if isinstance(lines, str) else lines
        ui = ui(out, err, inp) if ui else PlainUI(out, err, inp)
        code = run_repl(config, ui, _parser().parse_args(list(argv)), build_system_prompt(config))
        return code, out.getvalue(), err.getvalue()

    return run


def stored(project, name: str, exchanges: list[tuple[str, str]]) -> None:
    talk = sessions.new_session("system", name=name)
    for question, answer in exchanges:
        talk.conversation.add_user(question)
        talk.conversation.messages.append({"role": "assistant", "content": answer})
    sessions.save(project / ".narnat", talk, "m")


def saved(project) -> list[dict]:
    return [json.loads(path.read_text()) for path in sorted((project / ".narnat" / "sessions").glob("*.json"))]


def test_the_banner_says_what_answers_and_where_and_the_conversation_is_saved_at_the_end(project, fake_llm, repl):
    fake_llm.add(text_reply("Hello there."))
    home = project.parent / "home"
    code, out, err = repl("hi\n", env={"HOME": str(home)})
    host = fake_llm.base_url.split("//")[1].split("/")[0]
    first, second = err.splitlines()[:2]
    assert first == f"narnat {__version__} · fake-model · {host}"
    assert second == f"{project} · new conversation · /help for commands and keys"
    assert code == 0 and "Hello there." in out
    [talk] = saved(project)
    assert f"Saved this conversation as '{talk['name']}' (narnat --resume {talk['name']})." in err
    assert [m["content"] for m in talk["messages"][1:]] == ["hi", "Hello there."]


def test_the_banner_shortens_the_home_folder_to_a_tilde(project, fake_llm, repl, monkeypatch):
    monkeypatch.setenv("HOME", str(project.parent))
    code, _, err = repl("")
    assert code == 0 and err.splitlines()[1] == "~/project · new conversation · /help for commands and keys"


def test_a_resumed_conversation_is_counted_and_recalled_in_the_banner(project, fake_llm, repl):
    long_question = "why " * 40
    answer = "\nBecause the parser stops early, " + "and so on " * 10 + "\n\nThe rest.\n\nAnd the end."
    stored(project, "talk", [("first question", "first answer"), (long_question, answer)])
    code, _, err = repl("", "--resume", "talk")
    lines = err.splitlines()
    assert lines[1] == f"{project} · resumed 'talk' (2 turns) · /help for commands and keys"
    assert lines[2] == f"❯ {' '.join(long_question.split())[:95]}…"
    assert lines[3] == f"  {('Because the parser stops early, ' + 'and so on ' * 10)[:95]}…"
    assert code == 0


def test_a_resumed_conversation_recalls_its_answer_with_the_key_masked(project, repl):
    # a session saved by an earlier version keeps the answer as the provider sent it; the screen never shows the key
    stored(project, "talk", [("what is sk-test-key for?", "The key is sk-test-key, as said.")])
    code, _, err = repl("/enter talk\n", "--resume", "talk")
    assert code == 0 and "sk-test-key" not in err
    assert "❯ what is [API key] for?" in err and "  The key is [API key], as said." in err
    assert "model: The key is [API key], as said." in err  # /enter's recap


def test_a_resumed_conversation_of_one_turn_says_turn(project, repl):
    stored(project, "talk", [("question", "")])
    _, _, err = repl("", "-c")
    lines = err.splitlines()
    assert lines[1] == f"{project} · resumed 'talk' (1 turn) · /help for commands and keys"
    assert lines[2] == "❯ question" and not lines[3].startswith("  ")


def test_a_resumed_conversation_without_a_question_recalls_nothing(project, repl):
    stored(project, "talk", [])
    _, _, err = repl("", "--resume", "talk")
    assert err.splitlines()[1].endswith("resumed 'talk' (0 turns) · /help for commands and keys")
    assert "❯" not in err


def test_a_conversation_that_cannot_be_resumed_exits_2(project, fake_llm, repl):
    code, out, err = repl("hi\n", "--resume", "nope")
    assert code == 2 and "Cannot resume: there is no session named 'nope'" in err
    assert not fake_llm.requests and "narnat " not in err


def test_exit_leaves_and_what_follows_is_not_asked(project, fake_llm, repl):
    fake_llm.add(text_reply("One."))
    code, out, _ = repl("one\n/exit\ntwo\n")
    assert code == 0 and len(fake_llm.requests) == 1
    assert [m["content"] for m in saved(project)[0]["messages"][1:]] == ["one", "One."]


JOB = tool_reply(("Bash", {"command": "sleep 300 # build", "run_in_background": True}))
STILL = "⚠ 1 background command still runs (sleep 300 # build); leaving stops it: Ctrl-D or /exit again to leave."


@pytest.mark.parametrize(
    ("lines", "warnings"),
    [
        ("build\n/exit\n/exit\n", 1),  # the second /exit, right after, leaves
        ("build\n", 1),  # the end of input, then again: Ctrl-D twice
        ("build\n/exit\n/jobs\n/exit\n/exit\n", 2),  # said again after anything else
    ],
)
def test_leaving_while_a_background_command_runs_names_it_and_leaving_again_stops_it(
    project, fake_llm, repl, lines, warnings
):
    fake_llm.add(JOB, text_reply("Started."))
    code, out, err = repl(lines)
    assert code == 0 and err.count(STILL) == warnings and "Stopped 1 background command: sleep 300 # build" in err
    assert err.index(STILL) < err.index("Stopped 1 background command")


def test_leaving_with_no_background_command_running_goes_at_once(project, fake_llm, repl):
    fake_llm.add(text_reply("Hi."))
    code, out, err = repl("hi\n/exit\nmore\n")
    assert code == 0 and "still runs" not in err and len(fake_llm.requests) == 1


def test_blank_lines_and_other_commands_ask_nothing(project, fake_llm, repl):
    code, out, err = repl("\n   \n/help\n/nosuch\n")
    assert code == 0 and not fake_llm.requests and "/exit" in out and "Unexpected" not in err
    assert "✗ Unknown command /nosuch. /help lists them." in err


def test_a_command_of_the_users_own_asks_its_question(project, fake_llm, repl):
    (project / ".narnat" / "commands").mkdir(parents=True)
    (project / ".narnat" / "commands" / "review.md").write_text("Review $ARGUMENTS.\n")
    (project / ".narnat" / "commands" / "help.md").write_text("Mine.\n")
    fake_llm.add(text_reply("Looks fine."))
    code, out, err = repl("  /review a.py  \n/help\n")
    assert code == 0 and fake_llm.requests[0]["messages"][-1]["content"] == "Review a.py."
    assert ".narnat/commands/help.md is not a command: /help is a built-in command" in err
    assert "/review" in out.split("Looks fine.")[1]  # the help lists the user's command too


def test_an_unexpected_error_is_one_sentence_and_the_conversation_goes_on_valid(project, fake_llm, repl):
    fake_llm.add(tool_reply(("Glob", {"pattern": "*"})), text_reply("Still here."))
    code, out, err = repl("first\nsecond\n", breaks={"Glob(": RuntimeError("the screen broke")})
    assert code == 0 and "✗ Unexpected error (RuntimeError: the screen broke); the conversation is kept." in err
    assert "Still here." in out
    messages = fake_llm.requests[1]["messages"]
    assert messages[-1]["content"] == "second"
    assert len([m for m in messages if m["role"] == "tool"]) == 1


def test_an_interrupt_between_steps_ends_the_turn_and_the_history_stays_valid(project, fake_llm, repl):
    fake_llm.add(tool_reply(("Glob", {"pattern": "*"})), text_reply("Still here."))
    code, out, err = repl("first\nsecond\n", breaks={"Glob(": KeyboardInterrupt()})
    assert code == 0 and "Still here." in out and "Unexpected" not in err
    messages = fake_llm.requests[1]["messages"]
    tool = [m for m in messages if m["role"] == "tool"]
    assert len(tool) == 1 and tool[0]["content"] != "Failed: KeyboardInterrupt" and messages[-1]["content"] == "second"


def test_a_failed_autosave_gives_one_more_chance_to_save(project, fake_llm, repl):
    def lose_sessions() -> None:
        sessions = project / ".narnat" / "sessions"
        shutil.rmtree(sessions, ignore_errors=True)
        sessions.write_text("a file where the folder should be")

    fake_llm.add(text_reply("One."), text_reply("Two."))
    code, out, err = repl(Lines("one\n/exit\ntwo\n", before={1: lose_sessions}))
    assert code == 0 and len(fake_llm.requests) == 2 and "Two." in out
    still = "The conversation is still here: /save it once there is room, or leave again to quit without it."
    assert err.count(f"\n! {still}\n") == 1 and err.count("✗ Cannot save") == 2


def test_sigterm_during_a_turn_ends_the_repl_with_143_and_saves(project, fake_llm, repl):
    gate = threading.Event()
    fake_llm.add(SSE([chunk({"role": "assistant", "content": "Start"}), chunk({"content": " of it"})], gate=gate))

    def terminate() -> None:
        fake_llm.asked.wait(30)
        os.kill(os.getpid(), signal.SIGTERM)
        gate.set()

    threading.Thread(target=terminate, daemon=True).start()
    code, _, err = repl("long job\nnext question\n")
    assert code == 143 and len(fake_llm.requests) == 1
    [talk] = saved(project)
    assert talk["messages"][1]["content"] == "long job" and "Saved this conversation" in err


def test_sigterm_with_a_failed_save_leaves_without_another_chance(project, fake_llm, repl):
    def respond(request: dict) -> SSE:
        sessions = project / ".narnat" / "sessions"
        shutil.rmtree(sessions, ignore_errors=True)
        sessions.write_text("a file where the folder should be")
        os.kill(os.getpid(), signal.SIGTERM)
        return text_reply("Late.")

    fake_llm.respond = respond
    code, _, err = repl("long job\nnext question\n")
    assert code == 143 and len(fake_llm.requests) == 1
    assert "still here" not in err and err.count("✗ Cannot save") == 1


def test_after_a_failed_autosave_a_sigterm_still_stops_the_turn_running(project, fake_llm, repl):
    def lose_sessions() -> None:
        sessions = project / ".narnat" / "sessions"
        shutil.rmtree(sessions, ignore_errors=True)
        sessions.write_text("a file where the folder should be")

    def respond(request: dict) -> SSE:
        if len(fake_llm.requests) == 2:  # the turn of the second chance: the signal arrives while it waits
            os.kill(os.getpid(), signal.SIGTERM)
            return tool_reply(("Glob", {"pattern": "*"}))
        return text_reply("Done.")

    fake_llm.respond = respond
    code, _, err = repl(Lines("one\n/exit\nlong job\nnext question\n", before={1: lose_sessions}))
    assert code == 143 and len(fake_llm.requests) == 2 and "● Glob" not in err
    assert fake_llm.requests[1]["messages"][-1]["content"] == "long job"


def test_a_message_typed_while_the_agent_works_joins_the_turn_and_a_command_waits(project, fake_llm, repl):
    fake_llm.add(tool_reply(("Glob", {"pattern": "*"})), text_reply("Done."))

    def ui(out, err, inp):
        return Typed(out, err, inp, typed=("/help", "also check b"))

    code, out, err = repl("look\n", ui=ui)
    assert code == 0
    second = fake_llm.requests[1]["messages"]
    assert "also check b" in json.dumps(second) and "/help" not in json.dumps(second)


def test_a_command_that_only_shows_something_runs_while_the_agent_works(project, fake_llm, repl):
    made = []

    def ui(out, err, inp):
        made.append(Typed(out, err, inp))
        return made[0]

    repl("", ui=ui)
    run = made[0].at_once
    assert run("/help") is True and run("/save") is False and run("hello") is False
    assert "/exit" in made[0].out.getvalue()


def test_a_failing_command_while_the_agent_works_does_not_stop_the_keys(project, fake_llm, repl):
    made = []

    def ui(out, err, inp):
        made.append(Typed(out, err, inp))
        return made[0]

    repl("", ui=ui)
    made[0].out.breaks = {"/exit": RuntimeError("broken")}
    assert made[0].at_once("/help") is True
    [log] = (project / ".narnat" / "logs").glob("*.log")
    assert "command run while the agent worked" in log.read_text() and "RuntimeError: broken" in log.read_text()


def log_of(project) -> str:
    [log] = (project / ".narnat" / "logs").glob("*.log")
    return log.read_text()


def test_an_unexpected_error_is_logged_with_its_traceback(project, fake_llm, repl):
    fake_llm.add(tool_reply(("Glob", {"pattern": "*"})), text_reply("Still here."))
    repl("first\n", breaks={"Glob(": RuntimeError("the screen broke")})
    assert "[run] ERROR unexpected error\nTraceback" in log_of(project)


def test_a_failing_command_while_the_agent_works_is_logged_with_its_traceback(project, fake_llm, repl):
    made = []

    def ui(out, err, inp):
        made.append(Typed(out, err, inp))
        return made[0]

    repl("", ui=ui)
    made[0].out.breaks = {"/exit": RuntimeError("broken")}
    made[0].at_once("/help")
    assert "[run] ERROR command run while the agent worked\nTraceback" in log_of(project)


def test_the_terminal_is_given_the_model_and_every_command_to_complete(project, fake_llm, repl):
    (project / ".narnat" / "commands").mkdir(parents=True)
    (project / ".narnat" / "commands" / "review.md").write_text("# Review a file\nReview $ARGUMENTS.\n")
    made = []

    def ui(out, err, inp):
        made.append(Typed(out, err, inp))
        return made[0]

    repl("", ui=ui)
    assert made[0].model == "fake-model"
    assert made[0].commands["review"] == "Review a file" and "exit" in made[0].commands and "help" in made[0].commands


def test_a_command_file_holding_the_key_asks_with_the_key_masked(project, fake_llm, repl):
    (project / ".narnat" / "commands").mkdir(parents=True)
    (project / ".narnat" / "commands" / "leak.md").write_text("Use sk-test-key here.\n")
    fake_llm.add(text_reply("Done."))
    repl("/leak\n")
    assert fake_llm.requests[0]["messages"][-1]["content"] == "Use [API key] here."


@pytest.mark.slow
def test_a_command_that_deletes_asks_the_person_and_runs_on_yes(project, fake_llm, repl):
    (project / "build").mkdir()
    fake_llm.add(tool_reply(("Bash", {"command": "rm -rf build"})), text_reply("Removed."))
    code, out, err = repl("clean\ny\n")
    assert code == 0 and not (project / "build").exists() and "Removed." in out
    assert "rm -rf build" in out + err and "[y/N]" in out + err


@pytest.mark.slow
def test_a_signal_while_the_repl_ends_only_sets_the_exit_code(project, fake_llm, repl):
    # the background command, stopped on the way out, signals Narnat back: the REPL still ends as it should
    command = f"trap 'kill -TERM {os.getpid()}' TERM; sleep 30 & wait"
    fake_llm.add(tool_reply(("Bash", {"command": command, "run_in_background": True})), text_reply("Started."))
    try:
        code, _, err = repl("serve\n")
    except KeyboardInterrupt:  # caught here: pytest would take it for the person stopping the tests
        pytest.fail("the signal interrupted the way out")
    assert code == 143 and "Stopped 1 background command" in err and len(saved(project)) == 1


def test_a_signal_before_the_first_question_leaves_at_once(project, fake_llm, repl):
    def terminate() -> None:
        os.kill(os.getpid(), signal.SIGTERM)

    with pytest.raises(KeyboardInterrupt):  # main() takes it: a Ctrl-C before the conversation could (exit 130)
        repl("hello\n", breaks={"new conversation": terminate})
    assert not fake_llm.requests


def test_the_banner_shortens_a_home_only_at_a_folders_boundary(project, fake_llm, repl, monkeypatch):
    monkeypatch.setenv("HOME", str(project)[:-3])  # …/proj, a folder whose name begins the project's
    code, _, err = repl("")
    assert code == 0 and err.splitlines()[1] == f"{project} · new conversation · /help for commands and keys"


def test_the_banner_shortens_only_the_first_home_in_the_path(project, fake_llm, repl, monkeypatch):
    home = str(project)
    nested = project / home.lstrip("/")
    nested.mkdir(parents=True)
    monkeypatch.setenv("HOME", home)
    monkeypatch.chdir(nested)
    config = load_config(nested, project.parent / "home", env={"NARNAT_API_KEY": "sk-test-key",
                                                               "NARNAT_BASE_URL": fake_llm.base_url})  # fmt: skip
    err = io.StringIO()
    ui = PlainUI(io.StringIO(), err, io.StringIO(""))
    assert run_repl(config, ui, _parser().parse_args([]), build_system_prompt(config)) == 0
    assert err.getvalue().splitlines()[1].startswith(f"~{home} · new conversation")


def test_an_answer_that_starts_with_blank_lines_is_recalled_by_its_first_paragraph(project, repl):
    stored(project, "talk", [("question", "\n\nThe parser stops early.\n\nMore.\n\nThe end.")])
    _, _, err = repl("", "-c")
    assert err.splitlines()[2:4] == ["❯ question", "  The parser stops early."]


def test_a_compacted_conversation_resumed_counts_its_turns_before_the_compression(project, fake_llm, repl):
    fake_llm.add(text_reply("One."), text_reply("Two."), text_reply("## Summary\nWe counted to two."))
    repl("one\ntwo\n/compact\n")
    name = next(talk["name"] for talk in saved(project) if not talk["name"].startswith(store.ARCHIVE))
    _, _, err = repl("", "--resume", name)
    assert err.splitlines()[1] == f"{project} · resumed '{name}' (2 turns) · /help for commands and keys"
