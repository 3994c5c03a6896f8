"""Saved conversations on disk, in process: what a save keeps, where it goes when another process saved first, and
what a load refuses."""

import json
import os
import signal
import sys
from datetime import datetime
from pathlib import Path

import pytest

from narnat_agent.conversation import session, store
from narnat_agent.conversation.session import new_session
from narnat_agent.tools.workspace import FileRecord


def written_elsewhere(state_dir: Path, name: str) -> None:
    """Another process's save: a new file renamed over the old one, as every save is."""
    path = store.path_of(state_dir, name)
    other = path.with_suffix(".other")
    other.write_text(path.read_text())
    os.replace(other, path)


def refused_load(tmp_path: Path, name: str = "talk") -> str:
    """The one sentence a load is refused with."""
    with pytest.raises(store.SessionError) as refused:
        store.load(tmp_path, name)
    return str(refused.value)


def with_data(tmp_path: Path, **change: object) -> Path:
    """A session saved as Narnat writes it, then its data changed by hand."""
    session.save(tmp_path, new_session("system", name="talk"), "m")
    path = store.path_of(tmp_path, "talk")
    path.write_text(json.dumps({**json.loads(path.read_text()), **change}))
    return path


def cannot_load(path: Path, problem: str) -> str:
    return f"{path} cannot be loaded: {problem}; fix the file or delete it."


def test_a_session_saved_twice_by_the_same_process_stays_under_its_name(tmp_path):
    first = new_session("system")
    assert store.save(tmp_path, first.name, session.to_dict(first, "m")) == store.Saved(first.name)
    assert store.save(tmp_path, first.name, session.to_dict(first, "m")) == store.Saved(first.name)
    assert [p.stem for p in store.state.sessions(tmp_path).iterdir()] == [first.name]


@pytest.mark.parametrize("taken", [1, 2])
def test_a_save_after_another_process_saved_goes_beside_it_under_the_first_free_name(tmp_path, taken):
    talk = new_session("system", name="talk")
    talk.conversation.add_user("café")
    session.save(tmp_path, talk, "m")
    written_elsewhere(tmp_path, "talk")
    for n in range(2, 2 + taken):
        store.path_of(tmp_path, f"talk-{n}").write_text("another conversation")
    beside = f"talk-{2 + taken}"
    saved = session.save(tmp_path, talk, "m")
    note = "'talk' was changed by another process or conversation since this one last read or saved it; saved this "
    assert saved == store.Saved(beside, f"{note}conversation beside it as '{beside}'.")
    assert talk.name == beside  # it goes on there
    assert store.path_of(tmp_path, f"talk-{1 + taken}").read_text() == "another conversation"
    text = store.path_of(tmp_path, beside).read_text()
    assert text.startswith('{\n "format": "narnat-session",\n "name": "talk-') and '"café"' in text  # as people read it


def test_a_save_under_another_name_leaves_the_conversation_its_own(tmp_path):
    talk = new_session("system", name="talk")
    session.save(tmp_path, talk, "m", name="copy")
    written_elsewhere(tmp_path, "copy")
    saved = session.save(tmp_path, talk, "m", name="copy")
    assert saved.name == "copy-2" and saved.note and talk.name == "talk"


def test_a_session_saved_before_its_first_question_loads_with_all_it_holds(tmp_path):
    talk = new_session("system", name="talk")
    talk.tool_state.reads[tmp_path / "a.py"] = FileRecord("abc", True)
    talk.tool_state.todos.append({"content": "test", "activeForm": "testing", "status": "pending"})
    talk.cost = 0.25
    session.save(tmp_path, talk, "model-x")
    loaded = session.load(tmp_path, "talk")
    assert loaded.turns == 0 and loaded.conversation.messages == talk.conversation.messages
    [(path, record)] = loaded.tool_state.reads.items()
    assert path == tmp_path / "a.py" and (record.sha, record.whole) == ("abc", True)
    assert loaded.tool_state.todos == talk.tool_state.todos and loaded.cost == 0.25
    assert loaded.conversation.created == talk.conversation.created and not loaded.checkpoints_damaged


def test_an_archive_resumed_goes_on_under_a_new_name_and_a_save_leaves_the_archive_as_it_was(tmp_path):
    archive = new_session("system", name=f"{store.ARCHIVE}2026")
    archive.conversation.add_user("the question")
    session.save(tmp_path, archive, "m")
    before = store.path_of(tmp_path, archive.name).read_text()
    resumed, note = session.resumed(tmp_path, archive.name)
    assert not store.is_archive(resumed.name) and resumed.name in note and archive.name in note
    resumed.conversation.add_user("a second question")
    session.save(tmp_path, resumed, "m")
    assert store.path_of(tmp_path, archive.name).read_text() == before
    assert session.load(tmp_path, resumed.name).conversation.messages[-1]["content"] == "a second question"
    again, note = session.resumed(tmp_path, resumed.name)
    assert (again.name, note) == (resumed.name, "")  # no archive: it goes on under its own name


def test_a_fork_goes_on_alone(tmp_path):
    talk = new_session("system", name="talk")
    talk.conversation.add_user("first question")
    talk.tool_state.todos.append({"content": "test", "activeForm": "testing", "status": "pending"})
    forked = session.fork(talk, tmp_path)
    forked.conversation.add_user("second question")
    forked.tool_state.todos.clear()
    assert forked.name == "talk-fork" and talk.name == "talk"
    assert len(talk.conversation.messages) == 2 and talk.tool_state.todos != []


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"turns": -1}, "'turns' must be a whole number"),
        ({"turns": True}, "'turns' must be a whole number"),
        ({"cost": "free"}, "'cost' must be a number or null"),
        ({"messages": []}, "'messages' must be a non-empty list"),
        ({"messages": [{"role": "user", "content": "hi"}]},
         "message 1 must be the system prompt (role system, text content)"),
    ],
)  # fmt: skip
def test_a_session_file_not_as_narnat_writes_it_is_refused_naming_what(tmp_path, change, problem):
    path = with_data(tmp_path, **change)
    assert refused_load(tmp_path) == cannot_load(path, problem)


def test_a_session_this_process_never_read_can_be_deleted(tmp_path):
    session.save(tmp_path, new_session("system", name="talk"), "m")
    store.path_of(tmp_path, "talk").rename(store.path_of(tmp_path, "theirs"))
    store.delete(tmp_path, "theirs")
    assert not store.exists(tmp_path, "theirs")


def test_a_session_without_a_question_lists_none(tmp_path):
    session.save(tmp_path, new_session("system", name="quiet"), "m")
    assert [(row["name"], row["first"], row["turns"]) for row in store.listing(tmp_path)] == [("quiet", "", 0)]


def test_the_listing_is_newest_first(tmp_path):
    for name in ("old", "new"):
        session.save(tmp_path, new_session("system", name=name), "m")
    assert [row["name"] for row in store.listing(tmp_path)] == ["new", "old"]


def test_an_unreadable_session_is_listed_by_its_files_time_so_continuing_meets_the_newest(tmp_path):
    session.save(tmp_path, new_session("system", name="kept"), "m")
    now = datetime.now().timestamp()
    for name, moment in (("broken", now + 3600), ("ancient", 0)):  # damaged an hour later; long before
        path = store.path_of(tmp_path, name)
        path.write_text("{")
        os.utime(path, (moment, moment))
    assert [row["name"] for row in store.listing(tmp_path)] == ["broken", "kept", "ancient"]


def test_a_name_is_letters_digits_and_three_marks_up_to_a_hundred():
    assert store.check_name("a" * 100) == "a" * 100 and store.check_name("v1.2_x-y") == "v1.2_x-y"
    for bad in (".", "..", "a/b", "", "é", "a" * 101 + "/"):
        with pytest.raises(store.SessionError) as refused:
            store.check_name(bad)
        assert str(refused.value) == f"'{bad}' is not a session name: use letters, digits, '-', '_' and '.'."
    with pytest.raises(store.SessionError) as refused:  # the right characters, too many: said so (/fork LLL…)
        store.check_name("a" * 300)
    assert str(refused.value) == f"a session name is at most 100 characters; '{'a' * 20}…' has 300."


def test_a_default_name_is_the_time_and_the_process():
    assert store.stamp(datetime(2026, 1, 2, 3, 4, 5)) == f"2026-01-02_03-04-05-{os.getpid()}"


def test_text_no_encoding_can_hold_is_saved_escaped_and_loads(tmp_path):
    talk = new_session("system", name="talk")
    talk.conversation.add_user("a lone \udcff surrogate in a café")
    session.save(tmp_path, talk, "m")
    assert session.load(tmp_path, "talk").conversation.messages[1]["content"] == "a lone \\xff surrogate in a café"
    text = store.path_of(tmp_path, "talk").read_text()
    assert text.startswith('{\n "format": "narnat-session",\n "name": "talk"') and "café" in text


def test_a_save_that_cannot_be_written_says_where_and_what_to_do(tmp_path):
    (tmp_path / "sessions").write_text("a file where the folder should be")
    with pytest.raises(store.SessionError) as refused:
        session.save(tmp_path, new_session("system", name="talk"), "m")
    folder = store.state.sessions(tmp_path)
    assert (
        str(refused.value)
        == f"Cannot save 'talk' in {folder} (File exists); make it writable or free space, then save again."
    )


def test_a_claimed_session_is_replaced_by_the_next_save(tmp_path):
    talk = new_session("system", name="talk")
    session.save(tmp_path, talk, "m")
    written_elsewhere(tmp_path, "talk")
    store.claim(tmp_path, "talk")
    assert session.save(tmp_path, talk, "m") == store.Saved("talk")
    store.claim(tmp_path, "never-saved")  # nothing there: nothing to claim


@pytest.mark.parametrize(
    ("content", "said"),
    [
        (None, "there is no session named 'talk' (see /show)."),
        ("{not json", "{path} is damaged and cannot be loaded (JSONDecodeError)."),
        ("[1, 2]", "{path} is not a Narnat session file."),
        ('{"format": "other"}', "{path} is not a Narnat session file."),
        ("folder", "{path} cannot be read (Is a directory)."),
    ],
)
def test_a_session_that_cannot_be_read_is_one_sentence_naming_it(tmp_path, content, said):
    store.state.sessions(tmp_path).mkdir(parents=True)
    path = store.path_of(tmp_path, "talk")
    if content == "folder":
        path.mkdir()
    elif content is not None:
        path.write_text(content)
    assert refused_load(tmp_path) == said.format(path=path)


def test_a_session_file_nested_too_deep_to_parse_is_damaged_not_a_crash(tmp_path):
    store.state.sessions(tmp_path).mkdir(parents=True)
    path = store.path_of(tmp_path, "talk")
    path.write_text("[" * 100_000 + "]" * 100_000)  # valid JSON that Python's parser cannot descend into
    assert refused_load(tmp_path) == f"{path} is damaged and cannot be loaded (RecursionError)."
    [row] = store.listing(tmp_path)
    assert row["first"] == f"(unreadable: {path} is damaged and cannot be loaded (RecursionError).)"


SYSTEM = {"role": "system", "content": "s"}
ROLES = "message 2 must be an object whose role is one of system, user, assistant, tool"
NOT_CALLS = "message 2 (assistant) has tool calls that are not {id, function: {name, arguments}} objects"
MESSAGE_PROBLEMS = [
    ([SYSTEM, "hi"], ROLES),
    ([SYSTEM, {"role": "robot", "content": "x"}], ROLES),
    ([{"role": "system", "content": ["s"]}], "message 1 must be the system prompt (role system, text content)"),
    ([SYSTEM, {"role": "assistant", "content": ["x"]}], 'message 2 (assistant) has content ["x"]; it must be text'),
    ([SYSTEM, {"role": "assistant", "content": [{"type": "text", "text": "a long text"}]}],
     'message 2 (assistant) has content [{"type": "text", "text": "a long text"}; it must be text'),
    ([SYSTEM, {"role": "assistant", "content": None, "tool_calls": [{"id": "1"}]}], NOT_CALLS),
    ([SYSTEM, {"role": "assistant", "content": None, "tool_calls": ["Read"]}], NOT_CALLS),
    ([SYSTEM, {"role": "assistant", "content": None, "tool_calls": {"id": "1"}}], NOT_CALLS),
    ([SYSTEM, {"role": "assistant", "content": "x", "tool_calls": None}], NOT_CALLS),  # a load, /context: a crash
    ([SYSTEM, {"role": "assistant", "content": "x", "reasoning_content": 5}],
     "message 2 (assistant) has a 'reasoning_content' that is not text"),
    ([SYSTEM, {"role": "assistant", "content": "x", "reasoning": 5}],
     "message 2 (assistant) has a 'reasoning' that is not text"),
    ([SYSTEM, {"role": "tool", "content": "x", "name": ["Read"], "tool_call_id": "1"}],
     "message 2 (tool) has a 'name' that is not text"),
    ([SYSTEM, {"role": "tool", "content": "x", "tool_call_id": 7}],
     "message 2 (tool) has a 'tool_call_id' that is not text"),
]  # fmt: skip


@pytest.mark.parametrize(("messages", "problem"), MESSAGE_PROBLEMS)
def test_a_message_not_as_narnat_writes_it_is_named_with_what_is_wrong(tmp_path, messages, problem):
    path = with_data(tmp_path, messages=messages)
    assert refused_load(tmp_path) == cannot_load(path, problem)


def test_messages_as_narnat_writes_them_load(tmp_path):
    call = {"id": "c1", "type": "function", "function": {"name": "Read", "arguments": "{}"}}
    messages = [SYSTEM, {"role": "user", "content": [{"type": "text", "text": "look"}]},
                {"role": "assistant", "content": None, "tool_calls": [call], "reasoning_content": "why"},
                {"role": "tool", "tool_call_id": "c1", "content": "x"}]  # fmt: skip
    session.save(tmp_path, new_session("system", name="talk"), "m")
    path = store.path_of(tmp_path, "talk")
    path.write_text(json.dumps({**json.loads(path.read_text()), "messages": messages}))
    assert store.load(tmp_path, "talk")["messages"] == messages


TODOS = "'todos' must be a list of {content, activeForm, status} objects"
READS = "'reads' must be an object mapping paths to {sha, whole} records"


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        ("todos", [{"content": "a", "activeForm": "b", "status": "done"}], TODOS),
        ("todos", [{"content": "a", "status": "pending"}], TODOS),
        ("todos", {"content": "a"}, TODOS),
        ("reads", {"a.py": {"sha": "x", "whole": "yes"}}, READS),
        ("reads", {"a.py": {"whole": True}}, READS),
        ("reads", [], READS),
        ("created", 5, "'created' must be text"),
        ("model", None, "'model' must be text"),
    ],
)
def test_each_field_beside_the_messages_is_checked(tmp_path, field, value, problem):
    path = with_data(tmp_path, **{field: value})
    assert refused_load(tmp_path) == cannot_load(path, problem)


def test_the_fields_beside_the_messages_may_be_absent_but_the_turns(tmp_path):
    path = with_data(tmp_path)
    data = json.loads(path.read_text())
    for key in ("todos", "reads", "cost", "created", "updated", "model", "name", "checkpoints"):
        del data[key]
    path.write_text(json.dumps(data))
    assert store.load(tmp_path, "talk")["turns"] == 0
    assert [row["updated"] for row in store.listing(tmp_path)] == [""]
    del data["turns"]
    path.write_text(json.dumps(data))
    assert refused_load(tmp_path) == cannot_load(path, "'turns' must be a whole number")


def test_a_deleted_session_is_gone_and_its_name_free_again(tmp_path):
    talk = new_session("system", name="talk")
    session.save(tmp_path, talk, "m")
    store.delete(tmp_path, "talk")
    assert not store.exists(tmp_path, "talk")
    with pytest.raises(store.SessionError) as refused:
        store.delete(tmp_path, "talk")
    assert str(refused.value) == "there is no session named 'talk' (see /show)."
    written = store.path_of(tmp_path, "talk")
    written.write_text("another process's")  # its own, not this one's: this one last saw nothing there
    assert session.save(tmp_path, talk, "m").name == "talk-2"


def test_the_listing_names_each_sessions_first_question_and_the_unreadable_ones(tmp_path):
    asked = new_session("system", name="asked")
    asked.conversation.add_user("what is this?")
    asked.conversation.add_user("and that?")
    pictured = new_session("system", name="pictured")
    pictured.conversation.messages.append({"role": "user", "content": [{"type": "text", "text": "x"}]})
    for talk in (asked, pictured):
        session.save(tmp_path, talk, "m")
    store.path_of(tmp_path, "broken").write_text("{")
    rows = {row["name"]: row for row in store.listing(tmp_path)}
    assert rows["asked"]["first"] == "what is this?" and rows["asked"]["turns"] == 2
    assert rows["pictured"]["first"] == "" and rows["asked"]["updated"] != ""
    assert rows["broken"] == {"name": "broken", "turns": 0, "updated": "",
                              "first": f"(unreadable: {store.path_of(tmp_path, 'broken')} is damaged and cannot be "
                                       "loaded (JSONDecodeError).)"}  # fmt: skip


def test_a_fork_is_named_after_its_origin_with_the_first_free_number(tmp_path):
    talk = new_session("system", name="talk")
    assert session.fork(talk, tmp_path).name == "talk-fork"
    session.save(tmp_path, new_session("system", name="talk-fork"), "m")
    assert session.fork(talk, tmp_path).name == "talk-fork-2"
    session.save(tmp_path, new_session("system", name="talk-fork-2"), "m")
    forked = session.fork(talk, tmp_path)
    assert forked.name == "talk-fork-3" and forked.conversation.created > talk.conversation.created
    long = new_session("system", name="n" * 100)
    assert session.fork(long, tmp_path).name == "n" * 94  # room for -2, …, -999 within the hundred characters
    with pytest.raises(store.SessionError, match="a session named 'talk-fork' exists already; fork under another"):
        session.fork(talk, tmp_path, "talk-fork")
    with pytest.raises(store.SessionError, match="is not a session name"):
        session.fork(talk, tmp_path, "a/b")
    assert session.fork(talk, tmp_path, "chosen").name == "chosen"


def test_what_no_longer_fits_in_a_saved_session_is_dropped_and_the_rest_loads(tmp_path):
    talk = new_session("system", name="talk")
    session.save(tmp_path, talk, "m")
    path = store.path_of(tmp_path, "talk")
    data = json.loads(path.read_text())
    data.update(created="not a time", cost=None,
                reads={"a.py": {"sha": "x", "whole": True}, "b.py": {"sha": "y", "whole": True, "lines": 3}},
                checkpoints=[{"not": "an entry"}])  # fmt: skip
    path.write_text(json.dumps(data))
    loaded = session.load(tmp_path, "talk")
    assert list(loaded.tool_state.reads) == [Path("a.py")] and loaded.cost is None
    assert loaded.checkpoints == [] and loaded.checkpoints_damaged
    assert isinstance(loaded.conversation.created, datetime)  # the time of the load: the saved one is unreadable


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a file size limit stands for a full disk")
def test_a_save_on_a_full_disk_says_so_and_leaves_the_saved_session_as_it_was(tmp_path):
    import resource  # POSIX's

    talk = new_session("system", name="talk")
    session.save(tmp_path, talk, "m")
    before = store.path_of(tmp_path, "talk").read_bytes()
    talk.conversation.add_user("x" * 100_000)
    limits, handler = resource.getrlimit(resource.RLIMIT_FSIZE), signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (50_000, limits[1]))  # a write past it fails as on a full disk (EFBIG)
    try:
        with pytest.raises(store.SessionError) as refused:
            session.save(tmp_path, talk, "m")
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, limits)
        signal.signal(signal.SIGXFSZ, handler)
    folder = store.state.sessions(tmp_path)
    assert (
        str(refused.value)
        == f"Cannot save 'talk': the disk holding {folder} is full; free some space, then save again."
    )
    assert store.path_of(tmp_path, "talk").read_bytes() == before


def test_a_new_session_inherits_a_summary_only_when_given_one():
    assert new_session("system").conversation.messages == [{"role": "system", "content": "system"}]
    inherited = new_session("system", summary="what was done").conversation.messages[0]["content"]
    assert inherited.startswith("system\n\n# Summary of the previous conversation") and "what was done" in inherited
