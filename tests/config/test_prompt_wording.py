"""The fixed prefix the model reads (system prompt and tool schemas) says each rule once, in English."""

import json
import re

import pytest

from narnat_agent.prompts.texts import BASE_PROMPT, IRON_LAWS
from narnat_agent.tools import registry
from narnat_agent.tools.bash import MAX_TIMEOUT_MS

PREFIX = BASE_PROMPT + IRON_LAWS + json.dumps(registry.schemas())
RULES = {
    "read before edit": r"Read (a file )?before|Read first|Read to confirm|confirm with Read|file you have Read",
    "prefer Edit over Write": r"prefer Edit (over|for)",
    "Bash not for files": r"Bash is for running programs|NEVER use for file operations|Not for reading, searching",
    "one task in progress": r"in_progress (while|at any time)",
}


@pytest.mark.parametrize("rule", sorted(RULES))
def test_each_rule_is_said_once(rule):
    assert len(re.findall(RULES[rule], PREFIX, re.IGNORECASE)) == 1, rule


def test_the_todo_rule_is_the_one_the_tool_checks():
    assert "in_progress while any task is unfinished" in PREFIX


def test_the_prefix_has_no_chinese_words_in_english_sentences():
    assert not re.search(r"[\u4e00-\u9fff]", PREFIX)


def test_the_agent_is_narnat_and_the_model_id_is_not_its_identity():
    opening = BASE_PROMPT.split("\n", 1)[0]
    assert opening.startswith("You are Narnat, a code agent") and "(model: {model})" in opening


def test_the_longest_bash_timeout_the_prompt_and_the_schema_name_is_the_one_the_tool_allows():
    # a model told a shorter limit never asks for the long builds and test runs the tool allows
    bash = json.dumps([schema for schema in registry.schemas() if schema["function"]["name"] == "Bash"])
    stated = re.findall(r"max(?: timeout)? (\d+)", BASE_PROMPT + bash, re.IGNORECASE)
    assert len(stated) == 3 and set(stated) == {str(MAX_TIMEOUT_MS)}
