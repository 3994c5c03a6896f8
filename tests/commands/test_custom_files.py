"""The user's command and skill files read in process: which are taken, what each becomes, and why one is left out."""

import json
import os

import pytest

from narnat_agent.commands import custom
from narnat_agent.prompts.skills import (
    MAX_BYTES,
    MAX_SKILLS,
    Skill,
    UnusableFile,
    find_skills,
    front_matter,
    skills_section,
)
from tests.commands.test_custom import KEY, write

BUILTINS = ("save", "help")


@pytest.fixture
def home(project):
    return project.parent / "home"


def commands(project, home, secret: str = "") -> tuple[dict, list[str]]:
    return custom.load(project, home, BUILTINS, secret)


def test_a_command_is_its_files_text_with_a_help_line(project, home):
    write(
        project / ".narnat/commands/Review.md", "---\ndescription: |\n  Review   a\n  file\n---\nReview $ARGUMENTS.\n"
    )
    write(project / ".narnat/commands/explain.md", "\n# Explain the code\nExplain it.\n")
    write(project / ".narnat/commands/long.md", "x" * 100)
    write(project / ".narnat/commands/xray.md", "# X-ray the logs\nLook at them.\nAll of them.\n")
    found, notices = commands(project, home)
    assert notices == [] and sorted(found) == ["explain", "long", "review", "xray"]
    assert found["xray"].description == "X-ray the logs"
    assert found["review"] == custom.UserCommand("review", "Review $ARGUMENTS.", "Review a file")
    assert found["explain"].description == "Explain the code" and found["explain"].text.startswith("# Explain")
    assert found["long"].description == "x" * 80


def test_a_description_of_spaces_or_not_text_gives_way_to_the_first_line(project, home):
    write(project / ".narnat/commands/tidy.md", "---\ndescription: 2024\n---\n# Tidy the imports\nAll of them.\n")
    write(project / ".narnat/commands/prune.md", "---\ndescription: '   '\n---\nPrune the merged branches.\n")
    found, notices = commands(project, home)
    assert notices == [] and found["tidy"].description == "Tidy the imports"
    assert found["prune"].description == "Prune the merged branches."


def test_the_arguments_go_wherever_the_text_asks_for_them_or_after_it():
    both = custom.UserCommand("c", "Compare $ARGUMENTS with $ARGUMENTS.", "")
    assert both.question("a.py") == "Compare a.py with a.py."
    plain = custom.UserCommand("c", "Explain it.", "")
    assert plain.question("the parser") == "Explain it.\n\nthe parser" and plain.question("") == "Explain it."
    bare = custom.UserCommand("c", "Review $ARGUMENTS for bugs.", "")
    assert bare.question("") == "Review  for bugs."  # nothing typed: its place stays empty, never sent as written


def test_a_file_named_as_a_built_in_in_capitals_is_left_out_and_said(project, home):
    write(project / ".narnat/commands/Help.md", "my own help")
    write(home / ".narnat/commands/SAVE.md", "my own save")
    found, notices = commands(project, home)
    assert found == {}
    wins = "is a built-in command, which wins; rename the file."
    assert sorted(notices) == [
        f".narnat/commands/Help.md is not a command: /help {wins}",
        f"{home / '.narnat/commands/SAVE.md'} is not a command: /save {wins}",
    ]


def test_the_projects_command_wins_over_the_users(project, home):
    write(home / ".narnat/commands/fix.md", "the user's fix")
    write(home / ".narnat/commands/mine.md", "only the user's")
    write(project / ".narnat/commands/fix.md", "the project's fix")
    found, _ = commands(project, home)
    assert found["fix"].text == "the project's fix" and found["mine"].text == "only the user's"


def test_a_file_of_the_largest_size_is_taken_and_one_byte_more_is_not(project, home):
    write(project / ".narnat/commands/full.md", "y" * MAX_BYTES)
    write(project / ".narnat/commands/over.md", "y" * (MAX_BYTES + 1))
    found, notices = commands(project, home)
    assert list(found) == ["full"] and notices == [
        ".narnat/commands/over.md is not a command: it is larger than 64 KB."
    ]


def test_each_unusable_file_is_one_notice_naming_why(project, home):
    folder = project / ".narnat/commands"
    write(folder / "save.md", "not the built-in")
    write(folder / "bad name.md", "text")
    write(folder / "empty.md", "---\ndescription: nothing\n---\n")
    write(folder / "image.md", b"\x89PNG\r\n\x1a\n" + bytes(200))
    write(folder / "nul.md", b"text\x00more")
    write(folder / "latin.md", "caf\xe9".encode("latin-1"))
    write(folder / "yaml.md", "---\ndescription: [unclosed\n---\nbody\n")
    (folder / "folder.md").mkdir()
    _, notices = commands(project, home)
    said = {line.split(" is not a command: ")[0].rsplit("/", 1)[1]: line.split(": ", 1)[1] for line in notices}
    assert said == {
        "bad name.md": "a command's name has only letters, digits, '.', '-' and '_'.",
        "empty.md": "it is empty.",
        "folder.md": "it is not a regular file.",
        "image.md": "it is binary (PNG image).",
        "latin.md": "it is not UTF-8 text.",
        "nul.md": "it is binary (binary .md file).",
        "save.md": "/save is a built-in command, which wins; rename the file.",
        "yaml.md": "its front matter is not valid YAML (expected ',' or ']', but got '<stream end>').",
    }


def test_files_leading_to_a_settings_file_or_outside_are_left_out_and_links_inside_are_taken(project, home):
    settings = home / ".narnat/narnat.json"
    write(settings, json.dumps({"api_key": KEY}))
    write(project / ".narnat/narnat.json", json.dumps({"model": "m"}))
    write(project.parent / "outside.md", "Text from outside.\n")
    write(project / "docs/review.md", "Review it.\n")
    write(home / "notes/mine.md", "Mine.\n")
    folder = project / ".narnat/commands"
    folder.mkdir(parents=True)
    (folder / "keylink.md").symlink_to(settings)
    (folder / "local.md").symlink_to(project / ".narnat/narnat.json")
    os.link(settings, folder / "hard.md")
    (folder / "outside.md").symlink_to(project.parent / "outside.md")
    (folder / "review.md").symlink_to(project / "docs/review.md")
    (folder / "mine.md").symlink_to(home / "notes/mine.md")  # the user's own folder is theirs
    found, notices = commands(project, home)
    assert sorted(found) == ["mine", "review"]
    reasons = sorted(line.split(": ", 1)[1] for line in notices)
    assert reasons[0] == f"it leads outside the project and your own folder ({project.parent / 'outside.md'})."
    assert reasons[1:] == ["it leads to a settings file, which may hold the API key."] * 3


def test_the_key_in_a_command_becomes_its_marker(project, home):
    write(project / ".narnat/commands/deploy.md", f"Deploy with {KEY}.\n")
    found, _ = commands(project, home, secret=KEY)
    assert found["deploy"].text == "Deploy with [API key]." and found["deploy"].description == "Deploy with [API key]."


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_front_matter_is_read_whatever_the_line_ends(newline):
    text = newline.join(["---  ", "name: x", "description: y", "---", "body", ""])
    meta, body = front_matter(text)
    assert meta == {"name": "x", "description": "y"} and body == f"body{newline}"


def test_a_file_saved_with_a_byte_order_mark_keeps_its_front_matter(project, home):
    bom = "\ufeff".encode()
    write(project / ".narnat/commands/ship.md", bom + b"---\ndescription: Ship it\n---\nShip $ARGUMENTS.\n")
    write(project / ".narnat/skills/deploy/SKILL.md", bom + b"---\nname: deploy\ndescription: Deploy.\n---\nbody\n")
    found, notices = commands(project, home)
    assert notices == [] and found["ship"] == custom.UserCommand("ship", "Ship $ARGUMENTS.", "Ship it")
    said: list[str] = []
    assert find_skills(project, home, said.append) == [Skill("deploy", "Deploy.", ".narnat/skills/deploy/SKILL.md")]
    assert said == []


def test_text_without_a_closed_front_matter_is_all_body():
    assert front_matter("---\nname: x\nbody\n") == ({}, "---\nname: x\nbody\n")
    assert front_matter("# Title\n---\nmore\n") == ({}, "# Title\n---\nmore\n")
    assert front_matter("---\n- a list\n---\nbody\n") == ({}, "body\n")


def test_skills_are_named_and_described_the_projects_winning_and_the_unusable_said(project, home):
    write(project / ".narnat/skills/release/SKILL.md", "---\nname: release\ndescription: >\n  Cut a\n  release.\n---\n")
    write(project / ".narnat/skills/mine/SKILL.md", "---\nname: mine\ndescription: The project's.\n---\n")
    write(home / ".narnat/skills/mine/SKILL.md", "---\nname: mine\ndescription: The user's.\n---\n")
    write(home / ".narnat/skills/long/SKILL.md", "---\nname: long\ndescription: " + "d" * 400 + "\n---\n")
    write(project / ".narnat/skills/nameless/SKILL.md", "---\ndescription: no name\n---\n")
    write(project / ".narnat/skills/blank/SKILL.md", "---\nname: blank\ndescription: '  '\n---\n")
    said: list[str] = []
    skills = find_skills(project, home, said.append)
    home_skill = str(home / ".narnat/skills/long/SKILL.md")
    assert skills == [
        Skill("long", "d" * 300, home_skill),
        Skill("mine", "The project's.", ".narnat/skills/mine/SKILL.md"),
        Skill("release", "Cut a release.", ".narnat/skills/release/SKILL.md"),
    ]
    assert said == [
        "Skill .narnat/skills/blank/SKILL.md is left out: its front matter has no description (description: ...).",
        "Skill .narnat/skills/nameless/SKILL.md is left out: its front matter has no name (name: ...).",
    ]
    assert skills_section(skills[1:]).endswith(
        "\n- mine: The project's. (Read .narnat/skills/mine/SKILL.md)\n"
        "- release: Cut a release. (Read .narnat/skills/release/SKILL.md)\n"
    )


def test_past_a_hundred_skills_the_rest_are_left_out_and_counted(project, home):
    # 3,000 skills made a 1 MB system prompt, past any context window, without a word
    for n in range(MAX_SKILLS + 2):
        write(project / f".narnat/skills/s{n:03}/SKILL.md", f"---\nname: s{n:03}\ndescription: Skill {n}.\n---\n")
    said: list[str] = []
    skills = find_skills(project, home, said.append)
    assert [s.name for s in skills] == [f"s{n:03}" for n in range(MAX_SKILLS)]
    assert said == ["2 skills are left out: the system prompt lists at most 100 (the first left out: s100)."]


def test_exactly_a_hundred_skills_are_all_listed_without_a_word(project, home):
    for n in range(MAX_SKILLS):
        write(project / f".narnat/skills/s{n:03}/SKILL.md", f"---\nname: s{n:03}\ndescription: Skill {n}.\n---\n")
    said: list[str] = []
    assert [s.name for s in find_skills(project, home, said.append)] == [f"s{n:03}" for n in range(MAX_SKILLS)]
    assert said == []


def test_a_file_that_cannot_be_read_says_why(project, home):
    (project / ".narnat/commands").mkdir(parents=True)
    (project / ".narnat/commands/gone.md").symlink_to(project / "deleted.md")
    assert commands(project, home) == (
        {},
        [".narnat/commands/gone.md is not a command: it cannot be read (No such file or directory)."],
    )


def test_a_command_of_the_users_own_folder_is_named_by_its_whole_path(project, home):
    write(home / ".narnat/commands/empty.md", "")
    assert commands(project, home) == ({}, [f"{home / '.narnat/commands/empty.md'} is not a command: it is empty."])


def test_a_rule_in_the_text_after_the_front_matter_stays_in_the_text():
    assert front_matter("---\nname: x\n---\nabove\n---\nbelow\n") == ({"name": "x"}, "above\n---\nbelow\n")


def test_front_matter_with_a_character_yaml_refuses_says_so():
    with pytest.raises(UnusableFile) as refused:
        front_matter("---\nname: a\x07b\n---\nbody\n")
    assert str(refused.value).startswith("its front matter is not valid YAML (unacceptable character #x0007")


def test_a_project_and_a_home_reached_through_links_keep_their_commands_and_skills(project, home):
    # a home under /home -> /usr/home, a project opened by a link's path: their files lead nowhere outside them
    write(project / ".narnat/commands/fix.md", "Fix it.\n")
    write(home / ".narnat/commands/mine.md", "Mine.\n")
    write(project / ".narnat/skills/deploy/SKILL.md", "---\nname: deploy\ndescription: Deploy.\n---\n")
    (linked_project := project.parent / "linked-project").symlink_to(project)
    (linked_home := project.parent / "linked-home").symlink_to(home)
    found, notices = commands(linked_project, linked_home)
    assert notices == [] and sorted(found) == ["fix", "mine"]
    said: list[str] = []
    skills = find_skills(linked_project, linked_home, said.append)
    assert skills == [Skill("deploy", "Deploy.", ".narnat/skills/deploy/SKILL.md")] and said == []
