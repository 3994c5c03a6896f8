"""What a prompt carries turned into a question, and the slash commands an editor is offered, in process."""

from pathlib import Path

import pytest
from acp import RequestError, embedded_text_resource, image_block, resource_block, resource_link_block, text_block

from narnat_agent.acp.sessions import offered, question
from narnat_agent.commands.custom import UserCommand

ROOT = Path("/work/project")


def test_text_and_files_make_one_question_with_each_file_as_a_mention():
    blocks = [
        text_block("look at"),
        resource_link_block("app.py", "file:///work/project/src/my%20app.py"),
        text_block("and"),
        resource_block(embedded_text_resource("file:///etc/hosts", "127.0.0.1 localhost")),
        text_block("and"),
        resource_link_block("page", "https://example.com/a"),
    ]
    assert question(blocks, ROOT) == "look at @src/my app.py and @/etc/hosts and https://example.com/a "


def test_a_file_beside_the_project_is_mentioned_by_its_whole_path():
    blocks = [resource_link_block("x", "file:///work/project-old/x.py")]
    assert question(blocks, ROOT) == " @/work/project-old/x.py "


def test_a_picture_is_refused_naming_what_a_prompt_takes():
    with pytest.raises(RequestError) as refused:
        question([text_block("see"), image_block("AAAA", "image/png")], ROOT)
    assert refused.value.code == -32602
    assert str(refused.value) == "Narnat takes text and files in a prompt, not image."


def test_the_editor_is_offered_every_command_but_exit_and_rewind_and_the_users_own():
    class Opened:  # what offered() reads of a session: its user's own commands
        user = {"review": UserCommand("review", "Review $ARGUMENTS", "Review the change")}

    commands = {c.name: c for c in offered(Opened())}  # type: ignore[arg-type]
    assert "exit" not in commands and "rewind" not in commands
    assert {"undo", "redo", "compact", "model", "help"} <= set(commands)
    assert commands["review"].description == "Review the change"
    assert commands["review"].input is not None and commands["review"].input.root.hint == "arguments"
    assert commands["help"].input is None  # it takes nothing
    model = commands["model"]
    assert model.input is not None and model.input.root.hint == "[name]"
    assert model.description.startswith("switch the model from the next turn on")
    goal = commands["goal"]  # a hint of several words is kept whole
    assert goal.input is not None and goal.input.root.hint == '<text> --until "<command>"'
