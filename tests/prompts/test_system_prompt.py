"""What the system prompt holds: the base prompt naming the model, the iron laws, this run's environment (where, on
what, which shell, the date, the mode, the project's Python and Node), the instruction files in order, the skills;
a saved conversation's prompt taking this run's environment; another model named for the next conversation."""

import json
import os
import platform
import sys
import sysconfig
from datetime import date
from pathlib import Path

from narnat_agent.config.loader import load_config
from narnat_agent.prompts.system_prompt import (
    CONFIRMATION,
    HEADLESS,
    MAX_INSTRUCTIONS,
    MAX_PACKAGE_JSON,
    build_system_prompt,
    for_model,
    with_environment,
)
from narnat_agent.prompts.texts import BASE_PROMPT, IRON_LAWS
from narnat_agent.tools.bash.shells import BASH


def config(project, key: str = "sk-test", model: str = "qwen3-coder"):
    return load_config(project, project.parent / "home", env={"NARNAT_API_KEY": key, "NARNAT_MODEL": model})


def environment_block(prompt: str) -> str:
    return "# Environment\n" + prompt.split("# Environment\n", 1)[1].split("\n\n", 1)[0].rstrip("\n") + "\n"


def test_the_prompt_is_the_base_prompt_the_iron_laws_and_the_environment_of_this_run(project):
    before = date.today().isoformat()
    prompt = build_system_prompt(config(project))
    after = date.today().isoformat()
    block = (
        "# Environment\n"
        f"- Working directory: {project}\n"
        f"- Platform: {platform.system()} {platform.release()} ({platform.machine()})\n"
        + BASH.environment_line(os.environ)
        + "- Date: {date}\n"
        "- Git repository: no\n"
    )
    assert prompt in (
        "\n".join([BASE_PROMPT.replace("{model}", "qwen3-coder"), IRON_LAWS, block.format(date=day)])
        for day in (before, after)
    )


def test_a_git_repository_is_found_in_the_project_or_a_folder_above_it(project):
    (project.parent / ".git").mkdir()
    assert "- Git repository: yes\n" in build_system_prompt(config(project))


def test_a_headless_run_says_nobody_answers_and_whether_confirmations_are_refused_or_allowed(project):
    interactive = environment_block(build_system_prompt(config(project)))
    refused = environment_block(build_system_prompt(config(project), headless=True))
    allowed = environment_block(build_system_prompt(config(project), headless=True, yes=True))
    assert refused == interactive + HEADLESS + CONFIRMATION[False]
    assert allowed == interactive + HEADLESS + CONFIRMATION[True]
    assert "will be refused" in CONFIRMATION[False] and "are allowed in this run (--yes)" in CONFIRMATION[True]
    assert build_system_prompt(config(project), yes=True) == build_system_prompt(config(project))


def test_the_instruction_files_come_after_the_environment_each_under_its_title(project):
    home = project.parent / "home"
    (home / ".narnat").mkdir(parents=True)
    (home / ".narnat" / "narnat.md").write_text("\n  USER RULES  \n")
    (project / ".narnat").mkdir()
    (project / ".narnat" / "narnat.md").write_text("PROJECT RULES")
    (project / "AGENTS.md").write_text("AGENT RULES\n")
    prompt = build_system_prompt(config(project))
    assert prompt.endswith(
        "\n# User instructions (~/.narnat/narnat.md)\nUSER RULES\n"
        "\n# Project instructions (.narnat/narnat.md)\nPROJECT RULES\n"
        "\n# Project instructions (AGENTS.md)\nAGENT RULES\n"
    )
    (project / "AGENTS.md").write_text("  \n")  # blank: no title for nothing
    assert "(AGENTS.md)" not in build_system_prompt(config(project))


def test_an_instruction_file_of_exactly_the_limit_is_whole_and_one_longer_is_cut_and_said(project):
    notices: list[str] = []
    (project / "AGENTS.md").write_text("a" * MAX_INSTRUCTIONS)
    assert build_system_prompt(config(project), notices.append).endswith("\n" + "a" * MAX_INSTRUCTIONS + "\n")
    assert notices == []
    (project / "AGENTS.md").write_text("a" * MAX_INSTRUCTIONS + "b")
    prompt = build_system_prompt(config(project), notices.append)
    assert prompt.endswith(
        "\n" + "a" * MAX_INSTRUCTIONS + "\n[The rest of AGENTS.md is left out: it is longer than this limit.]\n"
    )
    assert notices == [
        f"{project / 'AGENTS.md'} is longer than 32,000 characters; only its beginning is in the system prompt."
    ]


def test_an_instruction_file_that_is_a_folder_or_unreadable_is_left_out(project):
    (project / "AGENTS.md").mkdir()
    assert "(AGENTS.md)" not in build_system_prompt(config(project))


def test_the_skills_follow_the_instructions(project):
    (project / "AGENTS.md").write_text("AGENT RULES")
    skill = project / ".narnat" / "skills" / "deploy"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: deploy\ndescription: Ship the site\n---\nSteps.\n")
    prompt = build_system_prompt(config(project))
    assert prompt.index("AGENT RULES") < prompt.index("- deploy: Ship the site (Read ")


def test_the_key_written_in_an_instruction_file_is_masked(project):
    key = "sk-live-0123456789abcdef"
    (project / "AGENTS.md").write_text(f"use the key {key} for the staging server")
    prompt = build_system_prompt(config(project, key=key))
    assert key not in prompt and "use the key " in prompt


def test_a_shell_setting_that_cannot_be_used_is_said_with_its_values(project):
    (project / ".narnat").mkdir()
    (project / ".narnat" / "narnat.json").write_text(json.dumps({"shell": "C:\\Git\\bin\\bash.exe"}))
    said: list[str] = []
    build_system_prompt(config(project), said.append)
    assert said == ["The shell setting is used on Windows only; the Bash tool runs bash here."]


def test_a_saved_conversations_prompt_takes_this_runs_environment_and_keeps_the_rest(project):
    saved = "base\n# Environment\n- Date: 2020-01-01\n- Mode: headless\n\n# Project instructions\n# Environment\n- x\n"
    now = "base\n# Environment\n- Date: 2026-11-28\n\n# Project instructions (AGENTS.md)\n# Environment\n- y\n"
    assert with_environment(saved, now) == (
        "base\n# Environment\n- Date: 2026-11-28\n\n# Project instructions\n# Environment\n- x\n"
    )


def test_another_model_is_named_in_the_prompt_and_only_in_its_first_line(project):
    prompt = build_system_prompt(config(project, model="old-model"))
    renamed = for_model(prompt + "\nold-model old-model", "old-model", "new-model")
    assert renamed == build_system_prompt(config(project, model="new-model")) + "\nold-model old-model"


def test_the_projects_virtualenvs_are_listed_with_the_active_one_marked(project, monkeypatch):
    for name in ("env", ".venv"):
        (project / name / "bin").mkdir(parents=True)
        (project / name / "pyvenv.cfg").write_text("home = /usr/bin\n")
    (project / "notenv").mkdir()
    (project / "notenv" / "pyvenv.cfg").mkdir()  # a folder of that name is no virtualenv
    monkeypatch.setenv("VIRTUAL_ENV", str(project / "env"))
    monkeypatch.delenv("CONDA_DEFAULT_ENV", raising=False)
    block = environment_block(build_system_prompt(config(project)))
    assert block.endswith(
        "- Python virtualenv: .venv (its tools: .venv/bin/python, .venv/bin/pip)\n"
        "- Python virtualenv: env (active; its tools: env/bin/python, env/bin/pip)\n"
    )


def test_an_active_virtualenv_outside_the_project_and_a_conda_environment_are_said(project, tmp_path, monkeypatch):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    monkeypatch.setenv("VIRTUAL_ENV", str(outside))
    monkeypatch.setenv("CONDA_DEFAULT_ENV", "science")
    block = environment_block(build_system_prompt(config(project)))
    assert block.endswith(f"- Python virtualenv: {outside} (active)\n- Conda environment: science (active)\n")
    monkeypatch.setenv("CONDA_DEFAULT_ENV", "base")  # conda's own, active in every shell it set up
    monkeypatch.delenv("VIRTUAL_ENV")
    assert "environment" not in environment_block(build_system_prompt(config(project))).split("- Git repository")[1]


def test_a_lockfile_without_its_tool_and_without_a_virtualenv_says_only_that(project, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    (project / "uv.lock").write_text("")
    (project / "poetry.lock").mkdir()  # a folder of that name is no lockfile
    block = environment_block(build_system_prompt(config(project)))
    assert block.endswith("- Git repository: no\n- uv.lock: uv is not installed here\n")


def test_the_first_lockfile_in_order_names_the_node_package_manager(project, tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    (project / "package.json").write_text(json.dumps({"scripts": {"test": "jest"}}))
    (project / "package-lock.json").write_text("")
    (project / "bun.lockb").write_text("")
    line = next(line for line in build_system_prompt(config(project)).splitlines() if line.startswith("- Node:"))
    assert line.startswith("- Node: bun (from bun.lockb); bun is not installed here")
    (project / "bun.lockb").unlink()
    line = next(line for line in build_system_prompt(config(project)).splitlines() if line.startswith("- Node:"))
    assert line == "- Node: npm (from package-lock.json); package.json scripts: test — run them with `npm run NAME`"


def test_package_json_of_exactly_the_limit_is_read_and_one_byte_more_is_not(project):
    text = json.dumps({"scripts": {"test": "jest"}})
    (project / "package.json").write_text(text + " " * (MAX_PACKAGE_JSON - len(text)))
    assert "package.json scripts: test " in build_system_prompt(config(project))
    (project / "package.json").write_text(text + " " * (MAX_PACKAGE_JSON - len(text) + 1))
    assert "; package.json cannot be read\n" in build_system_prompt(config(project))


def test_package_json_that_is_no_object_or_whose_scripts_are_not_one_cannot_be_read(project):
    for text in ("[1, 2]", '{"scripts": ["test"]}', "[" * 100_000 + "]" * 100_000, "\xff"):
        (project / "package.json").write_text(text, encoding="latin-1")
        assert "; package.json cannot be read\n" in build_system_prompt(config(project)), text
    (project / "package.json").write_text(json.dumps({"scripts": {str(n): "x" for n in range(20)}}))
    line = next(line for line in build_system_prompt(config(project)).splitlines() if line.startswith("- Node:"))
    assert "more" not in line and ", 19 — run them" in line


def program(folder, name: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text("#!/bin/sh\n")
    (folder / name).chmod(0o755)


def narnat_installed_in(venv, monkeypatch) -> None:
    """This run's Python as if it were a virtualenv at venv (with uv and pnpm in it), activated: where Narnat was
    installed, which commands do not see unless it is the project's own."""
    program(venv / "bin", "uv")
    program(venv / "bin", "pnpm")
    monkeypatch.setattr(sys, "prefix", str(venv))  # the interpreter's own layout: what the Bash tool's PATH leaves out
    monkeypatch.setattr(sysconfig, "get_path", lambda name, *args, **kwargs: str(venv / "bin"))
    monkeypatch.setenv("VIRTUAL_ENV", str(venv))
    monkeypatch.setenv("PATH", str(venv / "bin"))
    monkeypatch.delenv("CONDA_DEFAULT_ENV", raising=False)


def test_tools_in_the_projects_own_virtualenv_that_runs_narnat_are_the_projects(project, monkeypatch):
    venv = project / ".venv"
    (venv).mkdir()
    (venv / "pyvenv.cfg").write_text("home = /usr/bin\n")
    narnat_installed_in(venv, monkeypatch)
    (project / "uv.lock").write_text("")
    (project / "package.json").write_text(json.dumps({"scripts": {"test": "vitest"}}))
    (project / "pnpm-lock.yaml").write_text("")
    block = environment_block(build_system_prompt(config(project)))
    assert block.endswith(
        "- Python virtualenv: .venv (active; its tools: .venv/bin/python, .venv/bin/pip)\n"
        "- uv.lock: run the project's Python tools with `uv run …`\n"
        "- Node: pnpm (from pnpm-lock.yaml); package.json scripts: test — run them with `pnpm run NAME`\n"
    )


def test_tools_in_narnats_own_virtualenv_elsewhere_are_not_the_projects(project, tmp_path, monkeypatch):
    narnat_installed_in(tmp_path / "narnat-venv", monkeypatch)
    (project / "uv.lock").write_text("")
    (project / "package.json").write_text(json.dumps({"scripts": {"test": "vitest"}}))
    (project / "pnpm-lock.yaml").write_text("")
    block = environment_block(build_system_prompt(config(project)))
    assert block.endswith(
        "- uv.lock: uv is not installed here\n"
        "- Node: pnpm (from pnpm-lock.yaml); pnpm is not installed here (npm runs the scripts; an npm install writes "
        "package-lock.json); package.json scripts: test — run them with `npm run NAME`\n"
    )


def test_a_virtualenv_has_its_programs_in_bin_unless_it_has_only_scripts(project, monkeypatch):
    monkeypatch.delenv("VIRTUAL_ENV", raising=False)
    for name, folders in (("both", ("bin", "Scripts")), ("bare", ()), ("win", ("Scripts",))):
        (project / name).mkdir()
        (project / name / "pyvenv.cfg").write_text("home = /usr/bin\n")
        for folder in folders:
            (project / name / folder).mkdir()
    block = environment_block(build_system_prompt(config(project)))
    assert block.endswith(
        "- Python virtualenv: bare (its tools: bare/bin/python, bare/bin/pip)\n"
        "- Python virtualenv: both (its tools: both/bin/python, both/bin/pip)\n"
        "- Python virtualenv: win (its tools: win/Scripts/python, win/Scripts/pip)\n"
    )


def test_a_package_json_or_lockfile_that_is_a_folder_is_not_one(project):
    (project / "package.json").mkdir()
    assert "- Node:" not in build_system_prompt(config(project))
    (project / "package.json").rmdir()
    (project / "package.json").write_text("{}")
    (project / "pnpm-lock.yaml").mkdir()
    assert "- Node: npm (no lockfile); package.json has no scripts\n" in build_system_prompt(config(project))


def test_only_the_first_four_bytes_a_character_of_the_limit_are_read_of_an_instruction_file(project):
    notices: list[str] = []
    read = MAX_INSTRUCTIONS * 4 + 4
    (project / "AGENTS.md").write_text("a" + " " * (read - 2) + "b")  # the last byte read: the text is long
    assert "The rest of AGENTS.md is left out" in build_system_prompt(config(project), notices.append)
    (project / "AGENTS.md").write_text("a" + " " * (read - 1) + "b")  # past what is read
    assert build_system_prompt(config(project), notices.append).endswith("# Project instructions (AGENTS.md)\na\n")
    assert len(notices) == 1


def test_a_skill_left_out_is_said(project):
    skill = project / ".narnat" / "skills" / "deploy"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\ndescription: Ship the site\n---\nSteps.\n")
    said: list[str] = []
    build_system_prompt(config(project), said.append)
    assert said == [
        f"Skill {Path('.narnat/skills/deploy/SKILL.md')} is left out: its front matter has no name (name: ...)."
    ]


def test_another_model_is_named_only_where_the_prompt_names_the_model(project):
    first_line = BASE_PROMPT.replace("{model}", "old-model").split("\n", 1)[0]
    (project / "AGENTS.md").write_text(f"Quoted: {first_line}")
    prompt = build_system_prompt(config(project, model="old-model"))
    assert for_model(prompt, "old-model", "new-model") == build_system_prompt(config(project, model="new-model"))
