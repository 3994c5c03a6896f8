"""Where Narnat keeps what it writes, in process: the layout of `.narnat/`, the per-user folder standing in for one
that cannot be written (and the notice that says so), and the .gitignore that keeps secrets out of git."""

import hashlib
import os
from pathlib import Path

import pytest

from narnat_agent import state


def test_every_path_has_its_place_in_the_folder(tmp_path: Path) -> None:
    project, home, folder = tmp_path / "app", tmp_path / "home", tmp_path / "s"
    assert state.project_folder(project) == project / ".narnat"
    assert state.user_folder(home) == home / ".narnat"
    assert state.settings_files(project, home) == (home / ".narnat/narnat.json", project / ".narnat/narnat.json")
    assert state.commands_folders(project, home) == (home / ".narnat/commands", project / ".narnat/commands")
    assert state.skills_folders(project, home) == (home / ".narnat/skills", project / ".narnat/skills")
    assert state.sessions(folder) == folder / "sessions"
    assert state.logs(folder) == folder / "logs"
    assert state.spills(folder) == folder / "spills"
    assert state.jobs(folder) == folder / "jobs"
    assert state.checkpoints(folder) == folder / "checkpoints"
    assert state.input_history(folder) == folder / "history"
    assert state.summary(folder) == folder / "last_session_summary.md"
    assert state.INSTRUCTIONS == "narnat.md"


def test_the_gitignore_names_every_runtime_file_and_itself() -> None:
    ignored = [line for line in state.GITIGNORE.splitlines() if not line.startswith("#")]
    runtime = [state.sessions, state.logs, state.spills, state.jobs]
    names = [f"{place(Path('s')).name}/" for place in runtime]
    names += [state.input_history(Path("s")).name, state.summary(Path("s")).name]
    assert sorted(ignored) == sorted([".gitignore", state.CONFIG, *names])


def test_the_per_user_folder_is_named_after_the_project_and_its_whole_path(tmp_path: Path) -> None:
    project, home = tmp_path / "work" / "app", tmp_path / "home"
    digest = hashlib.sha256(os.fsencode(project)).hexdigest()[:12]
    expected = home / ".local/state/narnat" / f"app-{digest}"
    assert state.fallback_folder(project, home, {}) == expected
    assert state.fallback_folder(project, home, {"XDG_STATE_HOME": ""}) == expected
    assert state.fallback_folder(project, home, {"XDG_STATE_HOME": str(tmp_path / "x")}).parent == tmp_path / "x/narnat"
    assert state.fallback_folder(tmp_path / "other" / "app", home, {}).name != f"app-{digest}"


def test_a_writable_project_keeps_its_own_folder_and_no_notice(tmp_path: Path) -> None:
    project = tmp_path / "app"
    project.mkdir()
    assert state.choose_folder(project, tmp_path / "home", {}) == (project / ".narnat", "")
    assert (project / ".narnat/.gitignore").read_text(encoding="utf-8") == state.GITIGNORE
    assert not (tmp_path / "home").exists()


def test_an_unwritable_project_folder_names_both_folders(tmp_path: Path) -> None:
    project, home = tmp_path / "app", tmp_path / "home"
    project.mkdir()
    (project / ".narnat").write_text("a file where the folder should be")
    folder, notice = state.choose_folder(project, home, {})
    assert folder == state.fallback_folder(project, home, {})
    assert notice == f"{project / '.narnat'} cannot be written; this project's sessions and logs go to {folder}."
    assert not (folder / ".gitignore").exists()


def test_nothing_writable_is_said_in_one_sentence(tmp_path: Path) -> None:
    project, home = tmp_path / "app", tmp_path / "home"
    project.mkdir()
    (project / ".narnat").write_text("a file")
    state_home = tmp_path / "state"
    state_home.write_text("a file where the state folder should be")
    folder, notice = state.choose_folder(project, home, {"XDG_STATE_HOME": str(state_home)})
    assert folder == state_home / "narnat" / folder.name
    assert notice == f"Neither {project / '.narnat'} nor {folder} can be written; sessions and logs cannot be saved."


def test_writable_makes_the_folder_and_leaves_nothing_in_it(tmp_path: Path) -> None:
    assert state.writable(tmp_path / "a" / "b")
    assert list((tmp_path / "a" / "b").iterdir()) == []
    (tmp_path / "f").write_text("x")
    assert not state.writable(tmp_path / "f")
    assert not state.writable(tmp_path / "f" / "below")
    assert state.writable(tmp_path / "a")
    assert state.writable(tmp_path / "a" / "b")


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="a folder nobody can make files in, even root: /proc")
def test_a_folder_that_exists_but_takes_no_file_is_not_writable() -> None:
    assert not state.writable(Path("/proc"))


def test_an_older_gitignore_gains_its_own_name_once(tmp_path: Path) -> None:
    old = state.GITIGNORE.replace(".gitignore\n", "")
    (tmp_path / ".gitignore").write_text(old + "\n\n")
    state.ignore_runtime_files(tmp_path)
    assert (tmp_path / ".gitignore").read_text(encoding="utf-8") == old + ".gitignore\n"
    state.ignore_runtime_files(tmp_path)
    assert (tmp_path / ".gitignore").read_text(encoding="utf-8") == old + ".gitignore\n"


@pytest.mark.parametrize("last", ["notes\\ ", "*.TEX", "build\t"])
def test_an_older_gitignores_last_line_is_kept_as_it_was(tmp_path: Path, last: str) -> None:
    old = state.GITIGNORE.replace(".gitignore\n", "") + last + "\n"
    (tmp_path / ".gitignore").write_text(old)
    state.ignore_runtime_files(tmp_path)
    assert (tmp_path / ".gitignore").read_text(encoding="utf-8") == old + ".gitignore\n"


def test_an_older_gitignore_in_another_encoding_still_gains_its_name(tmp_path: Path) -> None:
    old = state.GITIGNORE.replace(".gitignore\n", "")
    (tmp_path / ".gitignore").write_bytes(old.encode() + "caf\u00e9/\n".encode("latin-1"))
    state.ignore_runtime_files(tmp_path)
    assert (tmp_path / ".gitignore").read_text(encoding="utf-8") == old + "caf\ufffd/\n.gitignore\n"


def test_a_gitignore_of_the_persons_own_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("*.log\n")
    state.ignore_runtime_files(tmp_path)
    assert (tmp_path / ".gitignore").read_text(encoding="utf-8") == "*.log\n"


def test_an_empty_gitignore_is_written_whole(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("")
    state.ignore_runtime_files(tmp_path)
    assert (tmp_path / ".gitignore").read_text(encoding="utf-8") == state.GITIGNORE


def test_a_gitignore_that_cannot_be_read_or_written_stops_nothing(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").mkdir()
    state.ignore_runtime_files(tmp_path)
    assert (tmp_path / ".gitignore").is_dir()
