"""The user's own commands (.narnat/commands/NAME.md) and skills (.narnat/skills/*/SKILL.md) through the real REPL."""

import json
import os

import pytest

from tests.commands.test_conversation import repl
from tests.fake_llm import text_reply
from tests.run.test_cli import narnat


def write(path, content: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(content if isinstance(content, bytes) else content.encode())


@pytest.mark.slow
def test_a_command_file_becomes_a_slash_command_with_its_arguments_filled(project, fake_llm):
    write(project / ".narnat/commands/review.md", "---\ndescription: Review a file\n---\nReview $ARGUMENTS for bugs.\n")
    write(project.parent / "home/.narnat/commands/explain.md", "# Explain the code\nExplain it simply.\n")
    fake_llm.add(text_reply("reviewed"), text_reply("explained"))
    done = repl(project, fake_llm, "/review src/app.py", "/Explain the parser", "/help")
    first, second = (r["messages"][-1]["content"] for r in fake_llm.requests)
    assert first == "Review src/app.py for bugs."
    assert second == "# Explain the code\nExplain it simply.\n\nthe parser"  # no $ARGUMENTS: they follow the text
    from narnat_agent.commands.dispatch import listed

    widest = max(len(slash.help()[0]) for __, slash in listed())  # the widest usage sets the descriptions' column
    column = " " * (widest - len("/explain [arguments]") + 1)
    mine = f"Your commands\n  /explain [arguments]{column}Explain the code\n  /review [arguments] {column}Review a file"
    assert mine in done.stdout
    assert "reviewed" in done.stdout and "explained" in done.stdout


@pytest.mark.slow
def test_the_projects_command_wins_over_the_users_of_the_same_name(project, fake_llm):
    write(project.parent / "home/.narnat/commands/fix.md", "the user's fix")
    write(project / ".narnat/commands/fix.md", "the project's fix")
    fake_llm.add(text_reply("ok"))
    repl(project, fake_llm, "/fix")
    assert fake_llm.requests[0]["messages"][-1]["content"] == "the project's fix"


def test_unusable_command_files_are_left_out_with_one_notice_each_at_start(project, fake_llm):
    write(project / ".narnat/commands/save.md", "not the built-in")
    write(project / ".narnat/commands/huge.md", "x" * 70_000)
    write(project / ".narnat/commands/image.md", b"\x89PNG\r\n\x1a\n" + bytes(200))
    write(project / ".narnat/commands/empty.md", "---\ndescription: nothing\n---\n")
    write(project / ".narnat/commands/bad yaml.md", "text")
    done = repl(project, fake_llm, "/huge", "/save")
    notices = done.stderr.split("> ", 1)[0]
    assert "save.md is not a command: /save is a built-in command, which wins; rename the file." in notices
    assert "huge.md is not a command: it is larger than 64 KB." in notices
    assert "image.md is not a command: it is binary" in notices
    assert "empty.md is not a command: it is empty." in notices
    assert "bad yaml.md is not a command: a command's name has only letters" in notices
    assert notices.count("is not a command") == 5 and "Unknown command /huge." in done.stderr
    assert "Nothing to save yet" in done.stderr and fake_llm.requests == []


@pytest.mark.slow
def test_skills_are_named_and_described_in_the_system_prompt_and_their_bodies_stay_in_their_files(project, fake_llm):
    write(
        project / ".narnat/skills/release/SKILL.md",
        "---\nname: release\ndescription: >\n  Cut a release: bump the version,\n  tag it.\n---\nSECRET STEPS\n",
    )
    write(project / ".narnat/skills/nameless/SKILL.md", "---\ndescription: no name\n---\nbody\n")
    write(project.parent / "home/.narnat/skills/mine/SKILL.md", "---\nname: mine\ndescription: Mine.\n---\nbody\n")
    fake_llm.add(text_reply("ok"), text_reply("ok"))
    done = repl(project, fake_llm, "hello", "/clear", "again")
    system = fake_llm.requests[0]["messages"][0]["content"]
    skills = system.split("# Skills\n", 1)[1]
    home_skill = project.parent / "home/.narnat/skills/mine/SKILL.md"
    assert f"- mine: Mine. (Read {home_skill})" in skills
    assert "- release: Cut a release: bump the version, tag it. (Read .narnat/skills/release/SKILL.md)" in skills
    assert "SECRET STEPS" not in system and "nameless" not in skills and system.count("# Skills") == 1
    left_out = "Skill .narnat/skills/nameless/SKILL.md is left out: its front matter has no name (name: ...)."
    assert left_out in done.stderr
    assert fake_llm.requests[1]["messages"][0]["content"] == system  # the same in the next conversation


KEY = "sk-canary-5e1c0ffee42a"


def sent_or_kept(project, fake_llm, done) -> str:
    """Everything the key could reach: the requests the provider got, the screen, the sessions saved."""
    sessions = [p.read_text() for p in (project / ".narnat" / "sessions").glob("*.json")]
    return "\n".join([json.dumps(fake_llm.requests), done.stdout, done.stderr, *sessions])


@pytest.mark.slow
def test_command_and_skill_files_linked_to_the_settings_or_outside_are_left_out_and_never_send_the_key(
    project, fake_llm
):
    home_settings = project.parent / "home/.narnat/narnat.json"
    write(home_settings, json.dumps({"api_key": KEY}))
    write(project / ".narnat/narnat.json", json.dumps({"api_key": KEY, "model": "fake"}))
    write(project.parent / "outside.md", "Text from outside.\n")
    commands = project / ".narnat/commands"
    commands.mkdir(parents=True)
    (commands / "keylink.md").symlink_to(home_settings)
    (commands / "local.md").symlink_to(project / ".narnat/narnat.json")
    (commands / "outside.md").symlink_to(project.parent / "outside.md")
    (commands / "folder.md").mkdir()
    os.link(home_settings, commands / "hard.md")  # the same file under another name, inside the project
    write(project / "docs/review.md", "Review it.\n")  # a link inside the project is fine
    (commands / "review.md").symlink_to(project / "docs/review.md")
    (project / ".narnat/skills/leak").mkdir(parents=True)
    (project / ".narnat/skills/leak/SKILL.md").symlink_to(home_settings)
    fake_llm.add(text_reply("reviewed"))
    done = narnat(project, stdin="/keylink\n/local\n/hard\n/outside\n/help\n/review\n", base_url=fake_llm.base_url,
                  key=None)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert KEY not in sent_or_kept(project, fake_llm, done)
    notices = done.stderr.split("> ", 1)[0]
    assert notices.count(".narnat/commands/keylink.md is not a command: it leads to a settings file") == 1
    assert notices.count(".narnat/commands/local.md is not a command: it leads to a settings file") == 1
    assert notices.count(".narnat/commands/outside.md is not a command: it leads outside the project") == 1
    assert notices.count(".narnat/commands/folder.md is not a command: it is not a regular file") == 1
    assert notices.count(".narnat/commands/hard.md is not a command: it leads to a settings file") == 1
    assert notices.count("Skill .narnat/skills/leak/SKILL.md is left out: it leads to a settings file") == 1
    assert done.stderr.count("Unknown command") == 4
    assert [r["messages"][-1]["content"] for r in fake_llm.requests] == ["Review it."]


@pytest.mark.slow
def test_the_key_in_a_command_a_skill_or_instructions_reaches_the_model_masked(project, fake_llm):
    write(project / ".narnat/commands/deploy.md", f"Deploy with the token {KEY}.\n")
    write(project / ".narnat/skills/ship/SKILL.md", f"---\nname: ship\ndescription: Ship with {KEY}.\n---\nbody\n")
    write(project / "AGENTS.md", f"The token is {KEY}.\n")
    fake_llm.add(text_reply("deployed"))
    done = narnat(project, stdin="/help\n/deploy\n", base_url=fake_llm.base_url, key=KEY)
    assert done.returncode == 0, done.stderr
    assert KEY not in sent_or_kept(project, fake_llm, done)
    [request] = fake_llm.requests
    assert request["messages"][-1]["content"] == "Deploy with the token [API key]."
    assert "The token is [API key]." in request["messages"][0]["content"]
    assert "- ship: Ship with [API key]. (Read" in request["messages"][0]["content"]


def test_help_names_the_first_of_many_commands_and_counts_the_rest(harness):
    from narnat_agent.commands.custom import UserCommand
    from narnat_agent.commands.dispatch import dispatch

    h = harness()
    user = {f"c{n:05}": UserCommand(f"c{n:05}", "text", f"command {n}") for n in range(10_000)}
    dispatch(h.agent, "/help", user=user)
    shown = h.out.getvalue()
    mine = shown.split("Your commands\n", 1)[1].split("\nKeys\n", 1)[0].splitlines()
    assert len(shown) < 10_000 and mine[0].startswith("  /c00000 [arguments]") and "command 0" in mine[0]
    assert mine[-1] == "  … 9,980 more commands of your own, in the folders under Files"
    assert len(mine) == 21
