"""The system prompt tells the model how a Node project runs its scripts: the package manager its lockfile names and
the scripts package.json defines, so it runs the right test command; a lockfile's tool that is not installed is said
so, for Node and Python alike."""

import json
import os

import pytest

from narnat_agent.config.loader import load_config
from narnat_agent.prompts.system_prompt import build_system_prompt


def installed(tmp_path, monkeypatch, *programs: str) -> None:
    """PATH holding only these programs (and the system's own folders)."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for name in programs:
        (folder / name).write_text("#!/bin/sh\n")
        (folder / name).chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}/usr/bin:/bin")


def prompt(project) -> str:
    return build_system_prompt(load_config(project, project.parent / "home", env={"NARNAT_API_KEY": "sk-test"}))


@pytest.mark.parametrize(
    ("lockfile", "manager"),
    [("package-lock.json", "npm"), ("pnpm-lock.yaml", "pnpm"), ("yarn.lock", "yarn"), ("bun.lock", "bun")],
)
def test_the_lockfile_names_the_package_manager_and_package_json_the_scripts(
    project, lockfile, manager, tmp_path, monkeypatch
):
    installed(tmp_path, monkeypatch, manager)
    (project / "package.json").write_text(json.dumps({"scripts": {"test": "vitest run", "lint": "eslint ."}}))
    (project / lockfile).write_text("")
    expected = (
        f"- Node: {manager} (from {lockfile}); package.json scripts: test, lint — run them with `{manager} run NAME`\n"
    )
    assert expected in prompt(project)


def test_a_project_without_a_lockfile_uses_npm_and_one_without_package_json_says_nothing(project):
    assert "- Node:" not in prompt(project)
    (project / "package.json").write_text('{"name": "x"}')
    assert "- Node: npm (no lockfile); package.json has no scripts\n" in prompt(project)


def test_a_damaged_or_huge_package_json_costs_one_line_and_no_more(project):
    (project / "package.json").write_text("{ not json")
    assert "- Node: npm (no lockfile); package.json cannot be read\n" in prompt(project)
    scripts = {f"script-{n}": "true" for n in range(100)}
    (project / "package.json").write_text(json.dumps({"scripts": scripts}))
    line = next(line for line in prompt(project).splitlines() if line.startswith("- Node:"))
    assert line.count("script-") == 20 and "(80 more)" in line


def test_a_lockfile_naming_a_manager_that_is_not_installed_says_so_and_npm_runs_the_scripts(
    project, tmp_path, monkeypatch
):
    installed(tmp_path, monkeypatch, "npm")
    (project / "package.json").write_text(json.dumps({"scripts": {"test": "vitest run"}}))
    (project / "pnpm-lock.yaml").write_text("")
    line = next(line for line in prompt(project).splitlines() if line.startswith("- Node:"))
    assert line == (
        "- Node: pnpm (from pnpm-lock.yaml); pnpm is not installed here (npm runs the scripts; an npm install writes "
        "package-lock.json); package.json scripts: test — run them with `npm run NAME`"
    )


@pytest.mark.parametrize(("lockfile", "tool"), [("poetry.lock", "poetry"), ("uv.lock", "uv")])
def test_a_python_lockfile_names_its_tool_only_where_it_is_installed(project, tmp_path, monkeypatch, lockfile, tool):
    (project / lockfile).write_text("")
    (project / ".venv").mkdir()
    (project / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    installed(tmp_path, monkeypatch)
    assert f"- {lockfile}: {tool} is not installed here; use the virtualenv's tools above\n" in prompt(project)
    (tmp_path / "bin" / tool).write_text("#!/bin/sh\n")
    (tmp_path / "bin" / tool).chmod(0o755)
    assert f"- {lockfile}: run the project's Python tools with `{tool} run …`\n" in prompt(project)
