"""What PowerShell's and cmd's parses share (safety/windows_syntax.py): a program's name as Windows finds it, the
parameters PowerShell binds, cmd's switches, and how a question names a path and whether /undo reaches it."""

from pathlib import Path

import pytest

from narnat_agent.safety import analyze
from narnat_agent.safety.windows import parse
from narnat_agent.safety.windows_syntax import (
    bind,
    cmdlet,
    existing,
    given,
    is_cmdlet,
    operands,
    place,
    program,
    switches,
    windows_path,
)

OUTSIDE = " — /undo restores only the project's files"


@pytest.mark.parametrize(
    ("word", "name"),
    [
        ("Remove-Item", "remove-item"),
        ("C:/tools/rm.exe", "rm"),
        ("C:\\bin\\RM.EXE", "rm"),
        ("git.bat", "git"),
        ("git.com", "git"),
        ("git.cmd", "git"),
        ("git.exe.bat", "git.exe"),  # one extension goes, as Windows adds one
        ("git.ps1", "git.ps1"),
        (".exe", ".exe"),  # an extension alone names a program called so
        ("x.exe", "x"),
        ("tools\\", "tools\\"),
    ],
)
def test_a_program_is_named_as_windows_finds_it(word, name):
    assert program(word) == name


def test_aliases_name_their_cmdlet_and_sc_stays_the_service_program():
    assert [cmdlet(a) for a in ("rm", "gci", "iwr", "sc", "make")] == [
        "remove-item",
        "get-childitem",
        "invoke-webrequest",
        "sc",
        "make",
    ]


@pytest.mark.parametrize(
    ("name", "is_one"),
    [
        ("get-childitem", True),
        ("stop-service", True),
        ("http-server", False),  # no verb of Get-Verb: a program
        ("remove-build.ps1", False),  # a script file
        ("remove-", False),
        ("get", False),
    ],
)
def test_a_cmdlet_is_a_verb_and_a_noun(name, is_one):
    assert is_cmdlet(name) is is_one


def test_a_program_with_a_hyphen_gets_the_rules_every_shell_shares():
    lost = analyze("docker-compose down -v", shell="powershell").deletions
    assert lost == ["docker-compose deletes the project's container volumes — /undo cannot restore it"]
    assert analyze("http-server", shell="powershell").interactive


def bound(text: str, positional: tuple[str, ...] = ("path",)) -> dict[str, list[tuple[str | None, str]]]:
    return bind(parse(text, "powershell")[-1], positional, ("literalpath",)).values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("Remove-Item -l a", {"literalpath": [("a", "a")]}),  # the parameters the rule knows come first
        ("Remove-Item -p a", {"path": [("a", "a")]}),
        ("Remove-Item -r x", {"recurse": [("$true", "")], "path": [("x", "x")]}),
        ("Remove-Item -fo x", {"force": [("$true", "")], "path": [("x", "x")]}),
        ("Remove-Item --Recurse x", {"recurse": [("$true", "")], "path": [("x", "x")]}),
        ("Remove-Item -Path:x", {"path": [("x", "x")]}),
        ("Remove-Item -Recurse:$false x", {"recurse": [("$false", "$false")], "path": [("x", "x")]}),
        ("Remove-Item x -Path", {"path": [("x", "x"), ("$true", "")]}),  # a parameter at the end, its value missing
        ("Remove-Item -Path -Recurse", {"path": [("$true", "")], "recurse": [("$true", "")]}),
        ("Remove-Item - x", {"path": [("-", "-")], "args": [("x", "x")]}),  # no name: a word
        ("Remove-Item -1 x", {"path": [("-1", "-1")], "args": [("x", "x")]}),
        ("Remove-Item -Foo a b", {"foo": [("a", "a")], "path": [("b", "b")]}),
        ("Remove-Item a,b,c", {"path": [("a", "a"), ("b", "b"), ("c", "c")]}),
        ("Remove-Item -Path a, b c", {"path": [("a", "a"), ("b", "b")], "args": [("c", "c")]}),
        (
            "Remove-Item a, b -Force c",
            {"path": [("a", "a"), ("b", "b")], "force": [("$true", "")], "args": [("c", "c")]},
        ),
        ("Remove-Item -Force a, b", {"force": [("$true", "")], "path": [("a", "a"), ("b", "b")]}),
    ],
)
def test_powershell_binds_each_word_to_its_parameter(text, values):
    assert bound(text) == values


def test_words_in_position_fill_the_parameters_not_named():
    assert bound("Copy-Item a b c", ("path", "destination")) == {
        "path": [("a", "a")],
        "destination": [("b", "b")],
        "args": [("c", "c")],
    }
    assert bound("Copy-Item -Destination d a b", ("path", "destination")) == {
        "destination": [("d", "d")],
        "path": [("a", "a")],
        "args": [("b", "b")],
    }


@pytest.mark.parametrize(
    ("value", "on"),
    [("$false", False), ("$FALSE", False), ("0", False), ("false", False), ("$true", True), ("1", True)],
)
def test_a_switch_is_on_unless_turned_off(value, on):
    command = parse(f"Remove-Item x -WhatIf:{value}", "powershell")[0]
    assert bind(command, ("path",)).on("whatif") is on
    assert analyze(f"Remove-Item x -WhatIf:{value}", shell="powershell").deletions == (
        [] if on else ["Remove-Item deletes x"]
    )


def test_a_value_written_after_a_colon_keeps_its_case(tmp_path):
    # PowerShell matches the parameter's name in any case, never its value: a file is found, and named, as written
    (tmp_path / "Config.json").write_text("{}")
    assert bound("Set-Content -Path:Config.json x", ("path", "value")) == {
        "path": [("Config.json", "Config.json")],
        "value": [("x", "x")],
    }
    assert analyze("Set-Content -PATH:Config.json -Value x", tmp_path, "powershell").deletions == [
        "Set-Content replaces Config.json, which exists"
    ]
    assert analyze("Remove-Item -LiteralPath:C:\\Users\\Bob\\Docs -Recurse", tmp_path, "powershell").deletions == [
        "Remove-Item deletes C:\\Users\\Bob\\Docs with everything inside" + OUTSIDE
    ]


def test_a_switch_not_given_is_off():
    assert bind(parse("Remove-Item x", "powershell")[0], ("path",)).on("whatif") is False


def test_cmd_switches_are_read_one_at_a_time_and_operands_are_the_rest():
    command = parse("del /S/q a /X b", "cmd")[0]
    assert switches(command) == {"/s", "/q", "/x"}
    assert operands(command) == [("a", "a"), ("b", "b")]
    computed = parse("del %X% /s", "cmd")[0]
    assert switches(computed) == {"/s"}
    assert operands(computed) == [(None, "%X%")]


def test_what_a_pipeline_feeds_is_named_by_the_command_before():
    assert given(parse("Remove-Item", "powershell")[0]) == "what … gives it"
    long = "Get-ChildItem " + "x" * 80
    assert given(parse(f"{long} | Remove-Item", "powershell")[-1]) == f"what {long[:60]} gives it"


def test_a_windows_path_is_looked_at_from_the_project(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.txt").write_text("x")
    assert windows_path("src\\a.txt", tmp_path) == tmp_path / "src" / "a.txt"
    assert windows_path("~\\x", tmp_path) == Path("~/x").expanduser()
    assert [windows_path(n, tmp_path) for n in ("$x\\a", "%X%\\a", "*.txt", "a?.txt")] == [None] * 4
    assert windows_path("a.txt", None) is None
    assert existing("src\\a.txt", tmp_path) is True
    assert existing("src", tmp_path) is False  # a folder is not a file a write replaces
    assert existing(None, tmp_path) is False
    assert existing("src\\b.txt", tmp_path) is False


@pytest.mark.parametrize(
    ("word", "named", "outside"),
    [
        ("C:\\", "C:\\ (the whole drive C:)", True),
        ("C:", "C: (the whole drive C:)", True),
        ("C:\\*", "C:\\* (the whole drive C:)", True),
        ("C:\\*.*", "C:\\*.* (the whole drive C:)", True),
        ('"D:\\"', "D:\\ (the whole drive D:)", True),
        ("C:\\Windows", "C:\\Windows", True),
        ("~", "~ (your home folder)", True),
        ("~\\", "~\\ (your home folder)", True),
        ("$HOME", "$HOME (your home folder)", True),
        ("$env:USERPROFILE", "$env:USERPROFILE (your home folder)", True),
        ("%USERPROFILE%", "%USERPROFILE% (your home folder)", True),
        ("$HOME\\x", "$HOME\\x (in your home folder)", True),
        ("~/x", "~/x (in your home folder)", True),
        ("C:\\Users\\bob", "C:\\Users\\bob (in your home folder)", True),
        ("C:\\Users\\bob\\x", "C:\\Users\\bob\\x", True),
        ("$env:TEMP\\x", "$env:TEMP\\x", True),
        ("%TEMP%\\x", "%TEMP%\\x", True),
        ("\\x", "\\x", True),
        ("build", "build", False),
        ("src\\x", "src\\x", False),
        ("..", "..", True),  # the parent itself, where /undo does not reach
        ("..\\", "..\\", True),
        ("src\\..\\..", "src\\..\\..", True),
        ("src\\..", "src\\..", False),
    ],
)
def test_a_path_is_named_with_its_place(word, named, outside):
    assert place(word, word, Path("/nowhere")) == (named, outside)


def test_a_computed_path_is_named_as_written():
    assert place(None, "$x", None) == ("$x", False)
    assert place(None, "$env:TEMP\\$x", None) == ("$env:TEMP\\$x", True)


def test_a_rooted_path_inside_the_project_is_within_undo_reach(tmp_path):
    inside = str(tmp_path) + "/x"
    assert place(inside, inside, tmp_path) == (inside, False)
    assert place(str(tmp_path), str(tmp_path), tmp_path) == (str(tmp_path), False)
    assert place(inside.upper(), inside.upper(), tmp_path) == (inside.upper(), False)  # Windows ignores case
    beside = str(tmp_path) + "x/y"  # a sibling whose name starts alike
    assert place(beside, beside, tmp_path) == (beside, True)
    assert place(inside, inside, None) == (inside, True)


def test_deleting_the_parent_folder_says_undo_does_not_reach_it(tmp_path):
    assert analyze("Remove-Item .. -Recurse", tmp_path, "powershell").deletions == [
        "Remove-Item deletes .. with everything inside" + OUTSIDE
    ]


def test_the_question_calls_out_a_drive_and_the_home_folder(tmp_path):
    assert analyze("rd /s /q D:\\", tmp_path, "cmd").deletions == [
        "rd deletes D:\\ (the whole drive D:) with everything inside" + OUTSIDE
    ]
    assert analyze("Remove-Item $HOME -Recurse", tmp_path, "powershell").deletions == [
        "Remove-Item deletes $HOME (your home folder) with everything inside" + OUTSIDE
    ]
