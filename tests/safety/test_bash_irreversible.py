"""What /undo cannot bring back asks, and says so: data stores, clusters and clouds, git refs, clobbered files,
caches, code that runs unseen — against the corpus written for them, and on real files for what the file system
decides."""

import subprocess
from pathlib import Path

import pytest

from narnat_agent.safety import analyze
from tests.safety import bash_corpus_irreversible as corpus

ROOT = Path(__file__).resolve().parents[2]  # the corpus's overwrites name files of this repository
UNDOABLE = ("/undo cannot restore it", "regenerable")


@pytest.mark.parametrize(("command", "category"), corpus.ASK)
def test_irreversible_commands_ask(command, category):
    assert analyze(command, ROOT).deletions, command


@pytest.mark.parametrize(("command", "category"), corpus.RUN)
def test_their_look_alikes_run(command, category):
    verdict = analyze(command, ROOT)
    assert (verdict.deletions, verdict.file_ops, verdict.interactive) == ([], [], []), command


@pytest.mark.parametrize(("command", "category"), corpus.REFUSE_FILE_OP + corpus.REFUSE_TERMINAL)
def test_endless_and_waiting_programs_are_refused(command, category):
    verdict = analyze(command, ROOT)
    assert verdict.file_ops or verdict.interactive, command


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("psql app -c 'DROP TABLE users'", "psql drops table users — /undo cannot restore it"),
        ("sqlite3 app.db 'DELETE FROM sessions'", "sqlite3 deletes rows from sessions — /undo cannot restore it"),
        (
            "git push --force origin main",
            "git rewrites or deletes history on the remote: origin main — /undo cannot restore it",
        ),
        ("kubectl delete ns staging", "kubectl deletes cluster resources"),
        ("kubectl apply --prune -f k8s/ -l app=web", "kubectl deletes the cluster resources its files no longer list"),
        ("oc apply -f k8s/ --prune=true --all", "oc deletes the cluster resources its files no longer list"),
        ("kubectl replace --force -f pvc.yaml", "kubectl deletes cluster resources and creates them again"),
        ("cargo clean", "cargo deletes the build output — regenerable"),
        (
            "git worktree remove -f ../wt",  # the short -f, as git-worktree(1) gives it
            "git worktree remove --force deletes the working tree ../wt and its changes — /undo cannot restore it",
        ),
        (
            "git worktree remove --force ../wt",
            "git worktree remove --force deletes the working tree ../wt and its changes — /undo cannot restore it",
        ),
    ],
)
def test_the_question_says_what_is_lost_and_whether_undo_restores_it(command, lost):
    assert any(reason.startswith(lost) for reason in analyze(command).deletions), analyze(command).deletions


@pytest.mark.parametrize(
    "command",
    ["kubectl apply -f k8s/", "kubectl apply --prune --dry-run=client -f k8s/ -l app=web", "kubectl replace -f x"],
)
def test_an_apply_without_prune_and_a_replace_without_force_lose_nothing(command):
    assert analyze(command).deletions == []


def test_every_irreversible_family_says_undo_cannot_restore_it():
    for command, category in corpus.ASK:
        if category in ("data_store", "cluster_cloud", "git_refs", "regenerable"):
            reasons = analyze(command, ROOT).deletions
            project_files = any("deletes files" in r for r in reasons)  # in the project: /undo restores them
            assert project_files or any(any(word in r for word in UNDOABLE) for r in reasons), (command, reasons)


@pytest.mark.parametrize(
    ("sql", "asks"),
    [
        ("DROP TABLE users; SELECT 1", True),
        ("ALTER TABLE users DROP COLUMN legacy", True),
        ("UPDATE accounts SET balance = 0", True),
        ("ALTER TABLE users ADD COLUMN age int", False),
        ("SELECT * FROM deleted_users WHERE note = 'drop'", False),
        ("INSERT INTO log (msg) VALUES ('truncate later')", False),
        ("DROP TABEL users", True),  # unparseable, and it names DROP
        ("SELEKT 1", False),  # unparseable, and nothing destructive
    ],
)
def test_sql_is_read_by_a_parser_not_by_its_words(sql, asks):
    assert bool(analyze(f'psql app -c "{sql}"').deletions) is asks


def test_a_sql_file_given_with_f_is_read_when_it_exists(tmp_path):
    (tmp_path / "reset.sql").write_text("BEGIN;\nDROP TABLE users;\nCOMMIT;\n")
    (tmp_path / "report.sql").write_text("SELECT count(*) FROM users;\n")
    assert analyze("psql app -f reset.sql", tmp_path).deletions
    assert analyze("psql app < reset.sql", tmp_path).deletions
    assert analyze("psql app -f report.sql", tmp_path).deletions == []


def test_copies_and_redirects_onto_existing_files_ask(tmp_path):
    (tmp_path / "config.json").write_text("{}")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "config.json").write_text("{}")
    assert analyze("cp /tmp/other.json config.json", tmp_path).deletions
    assert analyze("mv config.json src/", tmp_path).deletions
    assert analyze("cp config.json new.json", tmp_path).deletions == []
    assert analyze("cp -n /tmp/other.json config.json", tmp_path).deletions == []
    assert analyze("python3 gen.py > config.json", tmp_path).deletions
    assert analyze("python3 gen.py > out.json", tmp_path).deletions == []


def test_a_redirect_into_a_file_the_pipeline_reads_asks_without_looking():
    assert analyze("jq .a data.json > data.json").deletions
    assert analyze("cat data.json | jq .a > data.json").deletions
    assert analyze("jq .a data.json > other.json").deletions == []


def test_a_script_fed_to_ssh_is_read_when_it_exists(tmp_path):
    (tmp_path / "cleanup.sh").write_text("rm -rf /var/cache/app\n")
    (tmp_path / "status.sh").write_text("uptime\n")
    assert analyze("ssh prod 'bash -s' < cleanup.sh", tmp_path).deletions
    assert analyze("ssh prod 'bash -s' < status.sh", tmp_path).deletions == []


@pytest.mark.parametrize(
    "command",
    [
        "echo " + "$(" * 600 + "ls" + ")" * 600,
        "echo " + "$(echo " * 600 + "ls" + ")" * 600,
        'echo "' + '$(echo "' * 600 + "ls" + '")' * 600 + '"',
        "x=" + "$(echo " * 600 + "$(rm -rf build)" + ")" * 600,
        "(" * 600 + "rm x" + ")" * 600,
    ],
)
def test_deep_nesting_under_the_length_cap_gets_an_honest_verdict(command):
    verdict = analyze(command)
    assert ("rm" in command) <= bool(verdict.deletions)
    assert all("Recursion" not in reason for reason in verdict.deletions)


@pytest.mark.parametrize(
    ("command", "asks"),
    [
        ("echo FLUSHALL | redis-cli", True),
        ("redis-cli -n 2 <<EOF\nDEL session:1\nEOF", True),
        ("echo PING | redis-cli", False),
        ("echo flush_all | nc cache 11211", True),  # nc's words are the server's address, its stdin the commands
        ("echo FLUSHALL | ncat redis 6379", True),
        ("echo stats | nc cache 11211", False),
        ("helm -n monitoring uninstall grafana", True),
        ("kubectl --context prod -n web delete deploy api", True),
    ],
)
def test_commands_a_client_reads_on_stdin_and_options_before_the_subcommand_are_seen(command, asks):
    assert bool(analyze(command).deletions) is asks


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository whose main has three commits: one, two, three."""
    root = tmp_path_factory.mktemp("history")
    git = ["git", "-c", "user.name=dev", "-c", "user.email=dev@example.com", "-c", "commit.gpgsign=false", "-C"]
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    for word in ("one", "two", "three"):
        subprocess.run([*git, str(root), "commit", "-q", "--allow-empty", "-m", word], check=True)
    return root


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("git reset --hard HEAD~2", "git reset --hard discards uncommitted work: nothing, as the files are now; 2 "
         "commits leave it (“three”, “two”)"),
        (
            "git reset --keep HEAD~1",
            "git reset --keep moves the branch to HEAD~1; uncommitted changes are kept; 1 commit leaves it (“three”)",
        ),
        ("git checkout -B main HEAD~2", "git checkout -B moves the branch main to HEAD~2; 2 commits leave it (“three”, "
         "“two”)"),
        # nothing uncommitted, and no commit leaves the branch
        ("git reset --hard HEAD", "git reset --hard discards uncommitted work: nothing, as the files are now"),
    ],
)  # fmt: skip
def test_moving_a_branch_back_names_the_commits_that_leave_it(command, said, history):
    assert analyze(command, history, env={}).deletions == [said]


@pytest.fixture
def cleanable(tmp_path: Path) -> Path:
    """A repository with an ignored virtualenv, an untracked file and Narnat's own folder (its checkpoints are not
    ignored: git clean -d takes them too)."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text(".venv/\n")
    for name in (".venv/bin/python", "new.txt", ".narnat/checkpoints/git/HEAD", "src/kept.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    subprocess.run(["git", "-C", str(tmp_path), "add", ".gitignore", "src"], check=True)
    return tmp_path


OWN = "Narnat's own checkpoints and sessions among them (.narnat/): /undo cannot restore anything once they are gone"


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("git clean -fdx", f"git clean -x deletes untracked files and those .gitignore names: 3 (.narnat/, .venv/, "
         f"new.txt) — {OWN}"),
        ("git clean -fdX", "git clean -X deletes the files .gitignore names: 1 (.venv/)"),
        ("git clean -fd", f"git clean deletes untracked files: 2 (.narnat/, new.txt) — {OWN}"),
        ("git clean -f", "git clean deletes untracked files: 1 (new.txt)"),  # without -d no folder goes
        ("git clean -fdx -- new.txt", "git clean -x deletes untracked files and those .gitignore names: 1 (new.txt)"),
        ("git clean -f -- src", "git clean deletes untracked files: nothing, as the files are now"),
    ],
)  # fmt: skip
def test_git_clean_names_what_its_own_dry_run_lists_and_says_when_undo_goes_with_it(command, said, cleanable):
    assert analyze(command, cleanable, env={}).deletions == [said]
    assert (cleanable / ".narnat/checkpoints/git/HEAD").exists() and (cleanable / "new.txt").exists()


def test_git_run_in_another_folder_lists_what_it_deletes_there(cleanable, tmp_path_factory):
    """`git -C ../other clean -f` deletes the other repository's files: those are the ones named, not the project's;
    where git is pointed at a repository by its options alone, nothing is listed rather than the wrong files."""
    other = tmp_path_factory.mktemp("other")
    subprocess.run(["git", "init", "-q", str(other)], check=True)
    (other / "draft.md").write_text("mine\n")
    said = "git clean deletes untracked files: 1 (draft.md)"
    assert [str(r) for r in analyze(f"git -C {other} clean -f", cleanable, env={}).deletions] == [said]
    assert [str(r) for r in analyze(f"cd {other} && git clean -f", cleanable, env={}).deletions] == [said]
    assert [
        str(r) for r in analyze(f"git -C {other.parent} -C {other.name} clean -f", cleanable, env={}).deletions
    ] == [said]
    elsewhere = f"git --git-dir={other}/.git --work-tree={other} clean -f"
    assert [str(r) for r in analyze(elsewhere, cleanable, env={}).deletions] == ["git clean deletes untracked files"]


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("git clean -fdx", "git clean -x deletes untracked files and those .gitignore names"),
        ("git clean -xfd", "git clean -x deletes untracked files and those .gitignore names"),
        ("git clean -f -X", "git clean -X deletes the files .gitignore names"),
        ("git clean -fd", "git clean deletes untracked files"),
        ("rm -rf .narnat", f"rm deletes files: .narnat — {OWN}"),
        ("rm -rf ./.narnat/checkpoints .narnat/sessions", f"rm deletes files: ./.narnat/checkpoints .narnat/sessions "
         f"— {OWN}"),
        ("rm -r app/.narnat/sessions/old.jsonl", f"rm deletes files: app/.narnat/sessions/old.jsonl — {OWN}"),
        ("rm -rf .narnat/logs .narnat/spills", "rm deletes files: .narnat/logs .narnat/spills"),  # /undo still works
        ("rm -rf narnat", "rm deletes files: narnat"),
    ],
)  # fmt: skip
def test_what_the_text_alone_says_of_git_clean_and_of_deleting_narnats_own_folder(command, said):
    assert analyze(command).deletions == [said]


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("docker volume rm pgdata", "docker deletes container volumes (persistent data): pgdata"),
        ("docker volume remove pgdata", "docker deletes container volumes (persistent data): pgdata"),  # rm's alias
        ("podman volume remove data", "podman deletes container volumes (persistent data): data"),
        ("docker container remove web", "docker deletes containers and what they wrote: web"),
        ("docker container rm web", "docker deletes containers and what they wrote: web"),
    ],
)
def test_a_subcommand_is_known_by_its_long_alias_too(command, said):
    assert analyze(command).deletions == [f"{said} — /undo cannot restore it"]


@pytest.fixture
def edited(tmp_path: Path) -> Path:
    """A repository with two committed files, one changed and not staged, the other changed and staged."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    for name in ("README.md", "setup.cfg", "tests.py"):
        (tmp_path / name).write_text("one\n")
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    (tmp_path / "README.md").write_text("two\n")
    (tmp_path / "setup.cfg").write_text("two\n")
    subprocess.run([*git, "add", "setup.cfg"], check=True)
    return tmp_path


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("git checkout -- README.md", "git checkout <paths> overwrites uncommitted changes: 1 (README.md)"),
        ("git checkout -- .", "git checkout <paths> overwrites uncommitted changes: 1 (README.md)"),  # staged: kept
        ("git checkout HEAD -- .", "git checkout <paths> overwrites uncommitted changes: 2 (README.md, setup.cfg)"),
        ("git checkout tests.py", "git checkout <paths> overwrites uncommitted changes: nothing, as the files are now"),
        # every word a path, as git takes them when the first names a file: README.md is no commit to take them from
        ("git checkout README.md tests.py", "git checkout <paths> overwrites uncommitted changes: 1 (README.md)"),
        ("git reset --hard", "git reset --hard discards uncommitted work: 2 (README.md, setup.cfg)"),
    ],
)  # fmt: skip
def test_throwing_away_uncommitted_changes_names_the_files_they_are_in(command, said, edited):
    assert analyze(command, edited, env={}).deletions == [said]
    assert analyze(command, edited).deletions == [said.split(":")[0]]  # the text alone: no listing


@pytest.mark.parametrize("command", ["git checkout src", "git checkout src/", "git checkout ./src"])
def test_checking_out_a_folder_throws_away_the_changes_in_it(command, tmp_path):
    """`src` has no extension, as a branch's name has none: that it is a folder here makes it paths."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app").write_text("one\n")
    git = ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    (tmp_path / "src" / "app").write_text("two\n")
    said = "git checkout <paths> overwrites uncommitted changes"
    assert analyze(command, tmp_path, env={}).deletions == [f"{said}: 1 (src/app)"]
    assert analyze(command, tmp_path).deletions == [said]
