"""The prompt's own pieces, through prompt_toolkit's pipe input: its keys, the one-key answer, the completions and the
input history file."""

import io
import re
from collections.abc import Iterator

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.data_structures import Size
from prompt_toolkit.document import Document
from prompt_toolkit.history import InMemoryHistory
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput
from prompt_toolkit.output.vt100 import Vt100_Output

from narnat_agent.ui.keys import (
    PLAN_KEY,
    CommandCompleter,
    KeptHistory,
    MergedCompleter,
    PathCompleter,
    input_history,
    prompt_session,
    yes_no,
)
from tests.platforms import posix_only

POSIX_WORDS = posix_only("the system's words for the error are POSIX's")
STRUCK = re.compile(r"\x1b\[[0-9;]*;9m")  # a style that ends in strike-through (after its colour)


@pytest.fixture
def pipe() -> Iterator[PipeInput]:
    with create_pipe_input() as keys, create_app_session(input=keys, output=DummyOutput()):
        yield keys


def prompted(pipe: PipeInput, text: str) -> str:
    pipe.send_text(text)
    return prompt_session(InMemoryHistory(), MergedCompleter(), None).prompt("> ")


def test_enter_sends_and_the_newline_keys_insert_one(pipe):
    assert prompted(pipe, "a\x1b\rb\nc\r") == "a\nb\nc"


def test_shift_tab_hands_back_the_plan_key_and_what_was_typed(pipe):
    assert prompted(pipe, "fix it\x1b[Z") == PLAN_KEY + "fix it"


def test_ctrl_c_gives_up_the_line_and_ctrl_d_leaves_only_from_a_blank_one(pipe):
    with pytest.raises(KeyboardInterrupt):
        prompted(pipe, "half\x03")
    with pytest.raises(EOFError):
        prompted(pipe, " \x04")
    assert prompted(pipe, "ab\x04\r") == "ab"  # Ctrl-D on a typed line leaves nothing


def drawn(text: str) -> str:
    """What the terminal receives while a line is typed, then given up with Ctrl-C."""
    screen = io.StringIO()
    output = Vt100_Output(screen, lambda: Size(24, 80), term="xterm")
    with create_pipe_input() as keys, create_app_session(input=keys, output=output):
        keys.send_text(text + "\x03")
        with pytest.raises(KeyboardInterrupt):
            prompt_session(InMemoryHistory(), MergedCompleter(), None).prompt("> ")
    return screen.getvalue()


def test_a_line_given_up_with_ctrl_c_is_struck_out_and_an_empty_one_is_not():
    assert STRUCK.search(drawn("not sent"))
    assert not STRUCK.search(drawn("")) and not STRUCK.search(drawn("  "))


@pytest.mark.parametrize(
    ("keys", "answer"),
    [("y", True), ("Y", True), ("是", True), ("n", False), ("N", False), ("否", False), ("不", False)]
    + [("\x1b", False), ("\x03", False), ("\x04", False), ("x\rq y", True), ("\r\rn", False)],
)
def test_one_key_answers_in_either_language_and_other_keys_keep_asking(pipe, keys, answer):
    pipe.send_text(keys)
    assert yes_no("Run it? ") is answer


@pytest.mark.parametrize("keys", ["y\r", "n\r", "是\r"])
def test_an_enter_typed_right_after_the_one_key_answer_is_part_of_it(pipe, keys):
    """y⏎ by habit: the Enter left for the next prompt would send what waits there (after /undo, the question given
    back, which would run again at once)."""
    pipe.send_text(keys)
    answer = yes_no("Run it? ")
    pipe.send_text("next\r")
    sent = prompt_session(InMemoryHistory(), MergedCompleter(), None).prompt("> ", default="given back ")
    assert (answer, sent) == (keys != "n\r", "given back next")


@pytest.mark.parametrize(("keys", "sent"), [("yhi\r", "hi"), ("nyes\r", "yes"), ("yy\r", "y")])
def test_other_keys_typed_right_after_the_answer_go_to_the_next_prompt(pipe, keys, sent):
    pipe.send_text(keys)
    answer = yes_no("Run it? ")
    assert (answer, prompt_session(InMemoryHistory(), MergedCompleter(), None).prompt("> ")) == (keys[0] == "y", sent)


def completions(completer, text: str, *, display: bool = False) -> list:
    found = list(completer.get_completions(Document(text), CompleteEvent()))
    return [(c.text, c.start_position, c.display_meta_text) for c in found] if display else [c.text for c in found]


def test_commands_complete_from_the_slash_with_what_each_does():
    completer = CommandCompleter({"save": "keep it", "show": "list", "exit": "leave"})
    assert completions(completer, "/s", display=True) == [("/save", -2, "keep it"), ("/show", -2, "list")]
    assert completions(completer, "/") == ["/save", "/show", "/exit"]
    assert completions(completer, "/x") == [] and completions(completer, "s") == []
    assert completions(completer, "/save now") == []


def test_every_completer_merged_answers_in_its_order(project):
    (project / "notes.md").write_text("")
    merged = MergedCompleter(CommandCompleter({"notes": "n"}), PathCompleter(project))
    assert completions(merged, "/no") == ["/notes"]
    assert completions(merged, "read @note") == ["notes.md"]
    assert completions(merged, "plain words") == []


def test_paths_complete_after_an_at_with_their_folders_first(project):
    (project / "src" / "deep").mkdir(parents=True)
    (project / "src" / "deep" / "main.py").write_text("")
    (project / "src" / "app.py").write_text("")
    (project / "setup.py").write_text("")
    every = ["src/", "src/deep/", "setup.py", "src/app.py", "src/deep/main.py"]
    assert completions(PathCompleter(project), "@") == every
    found = list(PathCompleter(project).get_completions(Document("see @sdm"), CompleteEvent()))
    assert [(c.text, c.start_position) for c in found] == [("src/deep/main.py", -3)]
    assert completions(PathCompleter(project), "see s") == []
    assert completions(PathCompleter(project / "src"), "@") == ["deep/", "app.py", "deep/main.py"]  # below cwd
    (project / "data.txt").write_text("")
    assert completions(PathCompleter(project), "@src/a") == ["src/app.py", "src/deep/main.py"]  # the whole of it


def test_paths_are_offered_as_git_lists_them_and_shown_with_the_letters_matched(project):
    (project / "build").mkdir()
    (project / "build" / "app.py").write_text("")
    (project / "app.py").write_text("")
    (project / ".env.example").write_text("")
    (project / ".gitignore").write_text("build/\n")
    assert completions(PathCompleter(project), "@app") == ["app.py"]
    assert completions(PathCompleter(project), "@env") == [".env.example"]
    [found] = PathCompleter(project).get_completions(Document("@app"), CompleteEvent())
    matched = [text for style, text in found.display if style == "class:fuzzymatch.inside.character"]
    assert matched == ["a", "p", "p"] and "".join(text for __, text in found.display) == "app.py"


def test_the_history_file_and_its_folders_are_made(tmp_path):
    path = tmp_path / "state" / "project" / "history"
    history, problem = input_history(path)
    assert problem == "" and isinstance(history, KeptHistory) and path.is_file()
    history.store_string("first")
    assert list(KeptHistory(path).load_history_strings()) == ["first"]


def test_the_next_session_recalls_the_questions_of_the_one_before(tmp_path):
    path = tmp_path / "history"
    yesterday, __ = input_history(path)
    yesterday.store_string("the question of yesterday")
    today, problem = input_history(path)  # opening it again, as the next run does, keeps what is in it
    assert problem == "" and list(today.load_history_strings()) == ["the question of yesterday"]


@POSIX_WORDS
def test_a_history_that_cannot_be_made_is_kept_in_memory_and_says_why(tmp_path):
    (tmp_path / "state").write_text("a file where the folder should be")
    history, problem = input_history(tmp_path / "state" / "history")
    assert not isinstance(history, KeptHistory) and problem == "FileExistsError: File exists"


@POSIX_WORDS
def test_a_history_that_breaks_says_why_once_and_is_left_alone(tmp_path):
    path = tmp_path / "history"
    history = KeptHistory(path)
    assert history.failure == ""
    path.mkdir()  # something that is no file takes its place
    assert list(history.load_history_strings()) == [] and history.failure == "IsADirectoryError: Is a directory"
    history.failure = ""
    history.store_string("one")
    assert history.failure == "IsADirectoryError: Is a directory"
    path.rmdir()
    history.store_string("two")  # once broken, never written again
    assert not path.exists()


@POSIX_WORDS
def test_a_history_unreadable_from_the_start_keeps_its_first_reason(tmp_path):
    history = KeptHistory(tmp_path / "history")
    history.failure = "PermissionError: Permission denied"
    (tmp_path / "history").mkdir()
    assert list(history.load_history_strings()) == [] and history.failure == "PermissionError: Permission denied"


def answered(keys: str) -> tuple[bool, str]:
    """The answer, and the screen's text once it is given (the escape sequences left out)."""
    screen = io.StringIO()
    output = Vt100_Output(screen, lambda: Size(24, 80), term="xterm")
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=output):
        pipe.send_text(keys)
        answer = yes_no("Run it? ")
    return answer, re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|[\r\x08]", "", screen.getvalue())


def test_the_answer_given_is_left_written_after_the_question():
    yes, shown = answered("y")
    assert yes is True and "Run it? yes" in shown and "Run it? no" not in shown
    no, shown = answered("x\x1b")
    assert no is False and "Run it? no" in shown and "Run it? yes" not in shown


def test_a_question_of_several_lines_is_edited_as_lines_and_shown_indented():
    screen = io.StringIO()
    output = Vt100_Output(screen, lambda: Size(24, 80), term="xterm")
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=output):
        pipe.send_text("a\x1b\rb\x1b[AX\r")  # Up moves to the line above, not to the history
        typed = prompt_session(InMemoryHistory(), MergedCompleter(), None).prompt("> ")
    assert typed == "aX\nb"
    shown = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]|[\r\x08]", "", screen.getvalue())
    assert "\n > aX\n  b\n" in shown


def test_the_history_file_in_a_folder_that_exists_is_kept(tmp_path):
    history, problem = input_history(tmp_path / "history")
    assert problem == "" and isinstance(history, KeptHistory)
