"""The long tail's rules, one at a time: words that destroy a data store, a database's command after its options,
options that decline a backup, a family's subcommands and a build tool's goals read by their words, SQL handed to
programs no table knows, HTTP DELETE, archives, fd's commands, dd onto a new file, servers and dev loops known by
their words, git's editor set in front, and the commits a forced push takes off the remote."""

import subprocess
import tarfile
from pathlib import Path

import pytest

from narnat_agent.safety import analyze

UNKNOWN = "its words say it destroys, and Narnat does not know what"


@pytest.mark.parametrize(
    ("command", "asks"),
    [
        ("atlas schema clean -u x --auto-approve", True),  # a store (schema) and a verb that empties it
        ("atlas schema inspect -u x", False),
        ("npx knex migrate:down", True),
        ("npx knex migrate:up", False),
        ("sql-migrate down -env=production", True),  # the store in the program's name
        ("dbt clean", False),  # clean with no store named: its build output
        ("npx mikro-orm schema:fresh --run", True),
        ("npm-check fresh", False),
        ("dbt run --full-refresh --target prod", True),
        ("dbt run --target prod", False),
        ("etcdctl del k --prefix", True),
        ("fly secrets unset KEY -a app", True),
        ("fly secrets list -a app", False),
        ("tsc -b --clean --dry", False),  # a rehearsal
    ],
)
def test_words_that_destroy_a_store_ask(command, asks):
    assert bool(analyze(command).deletions) is asks, analyze(command).deletions


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ('goose -dir migrations postgres "$DATABASE_URL" reset', ["goose reset"]),
        ("liquibase --url=jdbc:postgresql://db/app dropAll", ["liquibase dropAll"]),
        ('migrate -path m -database "$PG_URL" down -all', ["migrate down"]),
        ('dbmate --url "$DB_URL" drop', ["dbmate drop"]),
        ('goose -dir migrations postgres "$DATABASE_URL" status', []),
        ('goose -dir migrations postgres "$DATABASE_URL" create add_drop_column sql', []),  # a migration's name
        ("tool -dir migrations reset", []),  # no database named: its words after options are not read
    ],
)
def test_a_database_tool_s_command_after_its_options_is_read(command, lost):
    said = analyze(command).deletions
    assert [s.split(":")[0] for s in said] == lost, said


def test_an_option_that_declines_the_backup_asks_even_for_a_known_program():
    assert analyze("supabase stop --no-backup").deletions == [
        f"supabase stop --no-backup: {UNKNOWN} — /undo cannot restore it"
    ]
    assert analyze("supabase stop").deletions == []
    assert analyze("tool sync --skip-snapshot").deletions
    assert analyze("tool apply --no-backup-if-mismatch").deletions == []  # not a backup declined
    # given a value, the option is still the backup declined, named without its value
    assert analyze("supabase stop --no-backup=true").deletions == [
        f"supabase stop --no-backup: {UNKNOWN} — /undo cannot restore it"
    ]


def test_an_import_told_to_replace_what_is_there_asks():
    assert analyze("npx convex import --replace --table t x.jsonl").deletions
    assert analyze("bq load --replace ds.t gs://b/x.csv").deletions
    assert analyze("npx convex import --append --table t x.jsonl").deletions == []
    assert analyze("tool export --replace x").deletions == []  # only what loads replaces


@pytest.mark.parametrize(
    ("command", "asks"),
    [
        ("podman system reset --force", True),  # a family's subcommand its forms lack
        ("terragrunt run-all destroy", True),
        ("terragrunt run-all plan", False),
        ("kubectl auth can-i delete pods", False),  # the verb it asks about
        ("docker logs rm", False),  # a container's name
        ("heroku run -a app -- rails db:drop", True),  # what it runs on the platform, by its words
        ("gsutil -n rb gs://x", False),  # its family's rehearsal
        ("mvn flyway:clean", True),  # a goal named after a program of the table
        ("./gradlew flywayClean", True),
        ("mvn flyway:migrate", False),
        ("./mvnw liquibase:dropAll", True),
        ("./gradlew bootJar", False),
    ],
)
def test_a_family_s_other_subcommands_and_a_build_tool_s_goals_are_read_by_their_words(command, asks):
    assert bool(analyze(command).deletions) is asks, analyze(command).deletions


def test_the_command_a_container_runs_is_checked_as_one_not_read_as_its_words():
    assert analyze("kubectl exec web -- rm -rf /tmp/x").deletions == [
        "rm deletes files: /tmp/x — /undo restores only the project's files"
    ]


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ('snowsql -q "DROP TABLE raw.events"', "snowsql drops table raw.events"),
        ('wrangler d1 execute db --command="DELETE FROM users"', "wrangler d1 execute db deletes rows from users"),
        ("bq query 'SELECT 1; TRUNCATE TABLE t'", "bq query empties table t"),
        ('git commit -m "Drop the legacy importer"', None),  # a sentence, not a statement
        ('jira issue create -s "truncate logs before upload"', None),
        ('gh pr create --title "Delete unused assets" --body x', None),
        ("trino --execute 'SHOW SCHEMAS'", None),
    ],
)
def test_sql_written_as_a_statement_asks_in_any_program(command, lost):
    said = analyze(command).deletions
    assert (said[0].split(" — ")[0] if said else None) == lost, said


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        (
            "python manage.py dbshell <<'SQL'\nDELETE FROM sessions;\nSQL",
            ["manage.py dbshell deletes rows from sessions"],
        ),
        ("echo 'TRUNCATE users;' | bin/rails dbconsole", ["rails dbconsole empties table users"]),
        ("python manage.py sqlflush | python manage.py dbshell", ["manage.py dbshell runs code computed at run time"]),
        ("echo 'SELECT 1;' | python manage.py dbshell", []),
    ],
)
def test_a_framework_s_database_console_runs_its_stdin(command, lost):
    assert [s.split(" — ")[0] for s in analyze(command).deletions] == lost


@pytest.mark.parametrize(
    ("command", "asks"),
    [
        ("curl -XDELETE localhost:9200/x", True),
        ("curl --request=DELETE https://x/1", True),
        ("curl -X GET https://x/1", False),
        ("curl -X POST https://x/reset-password", False),
        ("wget --method=DELETE http://x/db", True),
        ("wget -qO- http://x/health", False),
        ("http DELETE :8080/users/1", True),
        ("xh delete https://x/1", True),
        ("http --offline DELETE :8080/users/1", False),  # builds the request, sends nothing
        ("http GET :8080/users", False),
    ],
)
def test_an_http_delete_asks_whatever_the_url(command, asks):
    assert bool(analyze(command).deletions) is asks


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("crontab -r", ["crontab removes your crontab, every job in it"]),
        ("crontab -u www -r", ["crontab removes your crontab, every job in it"]),
        ("crontab -l", []),
        ("zip -d site.zip '*.map'", ["zip -d deletes files from site.zip"]),
        ("zip --delete site.zip x", ["zip -d deletes files from site.zip"]),
        ("zip -r site.zip dist", []),
        ("npm unpublish pkg@1.0.0", ["npm removes published versions from the registry: pkg@1.0.0"]),
        ("npm unpublish pkg --dry-run", []),
    ],
)
def test_crontab_zip_and_npm_say_what_they_remove(command, lost):
    assert [s.split(" — ")[0] for s in analyze(command).deletions] == lost


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("fd -e tmp -x rm {}", ["rm deletes files: the files fd finds"]),
        ("fd -e log -X rm -f", ["rm deletes files: the files fd finds"]),  # the batch gets them after its words
        ("fdfind -e log --exec-batch=rm", ["rm deletes files: the files fd finds"]),
        ("fd -e py -x wc -l", []),
    ],
)
def test_what_fd_runs_is_checked_with_what_it_finds(command, lost):
    assert analyze(command).deletions == lost


def test_dd_onto_a_new_file_loses_nothing(tmp_path):
    (tmp_path / "disk.img").write_bytes(b"x")
    assert analyze("dd if=/dev/zero of=new.img bs=1M count=1", tmp_path).deletions == []
    assert analyze("dd if=/dev/zero of=disk.img bs=1M count=1", tmp_path).deletions == ["dd overwrites disk.img"]
    assert analyze("dd if=x.iso of=/dev/sdb", tmp_path).deletions == ["dd overwrites /dev/sdb"]
    assert analyze("dd if=/dev/zero of=/dev/null", tmp_path).deletions == []
    assert analyze("dd if=/dev/zero of=new.img").deletions == ["dd overwrites new.img"]  # from no folder: it may exist


def _tar(path: Path, *members: str) -> None:
    with tarfile.open(path, "w:gz") as tar:
        for member in members:
            (path.parent / "src-of-tar").mkdir(exist_ok=True)
            source = path.parent / "src-of-tar" / member.replace("/", "_")
            source.write_text(member, encoding="utf-8")
            tar.add(source, arcname=member)


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("tar -xzf a.tgz", ["tar overwrites existing files with those of a.tgz: 2 (app.log, src/app.ts)"]),
        ("tar xzf a.tgz src", ["tar overwrites existing files with those of a.tgz: 1 (src/app.ts)"]),  # one member
        ("tar -xzf a.tgz -C out", []),  # nothing of it there yet
        ("tar --extract --file=a.tgz --directory out", []),
        ("tar -xkzf a.tgz", []),  # it keeps the old files
        ("tar --skip-old-files -xzf a.tgz", []),
        ("tar -xzOf a.tgz app.log", []),  # to stdout
        ("tar -tzf a.tgz", []),
        ("tar -xzf missing.tgz", []),  # nothing to extract: tar fails
        ("tar -xzf missing.tgz --overwrite", ["tar --overwrite overwrites existing files with those of missing.tgz"]),
        ("tar -xf not-a.tar", ["tar overwrites existing files with those of not-a.tar"]),  # cannot be listed
    ],
)
def test_a_tar_extraction_names_the_existing_files_it_replaces(command, lost, tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src/app.ts").write_text("a", encoding="utf-8")
    (tmp_path / "app.log").write_text("b", encoding="utf-8")
    (tmp_path / "not-a.tar").write_text("plain text", encoding="utf-8")
    _tar(tmp_path / "a.tgz", "app.log", "src/app.ts", "new/readme.txt")
    assert analyze(command, tmp_path).deletions == lost


def test_a_tar_extraction_told_to_overwrite_asks_from_no_folder():
    assert analyze("tar -xf a.tar --recursive-unlink").deletions
    assert analyze("tar -xf a.tar").deletions == []


@pytest.mark.parametrize(
    ("command", "refused"),
    [
        ("ollama serve", True),
        ("npx serve dist", True),  # by its name
        ("redis-server", True),
        ("cloud-sql-proxy my:instance", True),
        ("bin/dev", True),
        ("kubectl port-forward svc/db 5432", True),
        ("kubectl proxy", True),
        ("minikube dashboard", True),
        ("minikube tunnel", True),
        ("skaffold dev", True),
        ("uv run fastapi dev", True),
        ("mix phx.server", True),
        ("supabase functions serve", True),
        ("php artisan serve", True),
        ("tilt up", True),
        ("symfony server:start", True),
        ("symfony server:start -d", False),  # in the background
        ("symfony server:stop", False),
        ("redis-server --version", False),
        ("tailscale serve status", False),
        ("createdb app_dev", False),  # an operand, not a dev loop
        ("skaffold build", False),
        ("tilt ci", False),
        ("minikube addons list", False),
        ("ollama serve &", False),
        ("timeout 20 ollama serve", False),
    ],
)
def test_servers_port_forwards_dashboards_and_dev_loops_are_known_by_their_words(command, refused):
    assert bool(analyze(command).interactive) is refused, analyze(command).interactive


@pytest.mark.parametrize(
    ("command", "refused"),
    [
        ("GIT_SEQUENCE_EDITOR=: git rebase -i --autosquash HEAD~3", False),
        ("GIT_EDITOR=true git commit", False),
        ("GIT_SEQUENCE_EDITOR=vim git rebase -i HEAD~3", True),  # an editor that waits for a person
        ("FOO=1 git rebase -i HEAD~3", True),
        ("GIT_EDITOR=true git add -p", True),  # questions hunk by hunk, whatever the editor
        ("GIT_EDITOR=true git commit -p", True),
    ],
)
def test_git_s_editor_set_in_front_to_a_program_that_returns_lets_it_run(command, refused):
    assert bool(analyze(command).interactive) is refused


@pytest.fixture(scope="module")
def pushed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository whose main has three commits, origin/main at its tip, and a branch old one commit behind."""
    root = tmp_path_factory.mktemp("push")
    git = ["git", "-c", "user.name=dev", "-c", "user.email=dev@example.com", "-c", "commit.gpgsign=false", "-C"]
    subprocess.run(["git", "init", "-q", "-b", "main", str(root)], check=True)
    for word in ("one", "two", "three"):
        subprocess.run([*git, str(root), "commit", "-q", "--allow-empty", "-m", word], check=True)
    subprocess.run([*git, str(root), "branch", "old", "HEAD~1"], check=True)
    subprocess.run([*git, str(root), "update-ref", "refs/remotes/origin/main", "main"], check=True)
    return root


@pytest.mark.parametrize(
    ("command", "named"),
    [
        (
            "git push --force origin old:main",
            "the remote branch origin/main is rewritten: 1 commit leaves it (“three”)",
        ),
        ("git push origin +old:main", "the remote branch origin/main is rewritten: 1 commit leaves it (“three”)"),
        ("git push -f origin main", None),  # nothing of the remote's is lost
        ("git push origin old:main", None),  # not forced: the remote refuses what is not a fast-forward
    ],
)
def test_a_forced_push_names_the_commits_the_remote_branch_loses(command, named, pushed):
    said = analyze(command, pushed, env={}).deletions
    assert [s for s in said if "rewritten" in s] == ([named] if named else [])
    assert not any("rewritten" in s for s in analyze(command, pushed).deletions)  # without Bash's environment


LEAVES = "1 commit leaves it (“three”)"
REWRITTEN = f"the remote branch origin/main is rewritten: {LEAVES}"
UNDO = " — /undo cannot restore it"
REMOTE = "git rewrites or deletes history on the remote"
DELETES = "git deletes a branch even if it has commits no other branch has"
NOTHING = "nothing, as the files are now"


# each rule's listing against one repository: main at "three", old at "two", origin/main at main's tip
@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("git push --force-with-lease origin old:main", [REWRITTEN, f"{REMOTE}: origin old:main{UNDO}"]),
        ("git push --force-with-lease=main:abc origin old:main", [REWRITTEN, f"{REMOTE}: origin old:main{UNDO}"]),
        ("git push --mirror origin old:main", [REWRITTEN, f"{REMOTE}: origin old:main{UNDO}"]),
        ("git push origin +refs/heads/old:refs/heads/main", [REWRITTEN, f"{REMOTE} (a +ref or :ref refspec){UNDO}"]),
        ("git push -f origin old:main", [REWRITTEN, f"{REMOTE}: origin old:main{UNDO}"]),
        ("git push -f", [f"{REMOTE}{UNDO}"]),
        ("git push --force origin", [f"{REMOTE}: origin{UNDO}"]),
        ("git push -f origin :main", [f"{REMOTE}: origin :main{UNDO}"]),
        ("git push -f upstream old:main", [f"{REMOTE}: upstream old:main{UNDO}"]),
        (
            "git push origin +old:main +old:main",
            [f"{REWRITTEN}; {REWRITTEN}", f"{REMOTE} (a +ref or :ref refspec){UNDO}"],
        ),
        ("git branch -f main old", [f"git branch -f moves the branch main to old; {LEAVES}"]),
        ("git branch --force main old", [f"git branch -f moves the branch main to old; {LEAVES}"]),
        ("git branch -f old main", []),
        ("git branch -f main", []),
        ("git branch -f -d main old", [f"{DELETES}: main old{UNDO}"]),
        ("git branch -f -D main old", [f"{DELETES}: main old{UNDO}"]),
        ("git branch -f --delete main old", [f"{DELETES}: main old{UNDO}"]),
        ("git branch -f -m main old", []),
        ("git branch -f -M main old", []),
        ("git branch -f --move main old", []),
        ("git branch -f -c main old", []),
        ("git branch -f -C main old", []),
        ("git branch -f --copy main old", []),
        ("git switch -C main old", [f"git switch -C moves the branch main to old; {LEAVES}"]),
        ("git switch --force-create main old", [f"git switch -C moves the branch main to old; {LEAVES}"]),
        ("git switch -C main", []),
        ("git switch -C", []),
        ("git checkout -B main old", [f"git checkout -B moves the branch main to old; {LEAVES}"]),
        ("git checkout -B main", []),
        ("git reset --keep old", [f"git reset --keep moves the branch to old; uncommitted changes are kept; {LEAVES}"]),
        ("git reset --merge old", [f"git reset --merge discards uncommitted work: {NOTHING}; {LEAVES}"]),
        ("git reset --hard old", [f"git reset --hard discards uncommitted work: {NOTHING}; {LEAVES}"]),
        ("git reset --hard", [f"git reset --hard discards uncommitted work: {NOTHING}"]),
        ("git reset --soft old", []),
        ("git stash drop", [f"git stash drop deletes the stash stash@{{0}}{UNDO}"]),
        ("git stash drop stash@{1}", [f"git stash drop deletes the stash stash@{{1}}{UNDO}"]),
        ("git stash clear", [f"git stash clear deletes every stash{UNDO}"]),
        ("git clean -n", []),
        ("git clean -fd", [f"git clean deletes untracked files: {NOTHING}"]),
        ("git clean -fdx", [f"git clean -x deletes untracked files and those .gitignore names: {NOTHING}"]),
        ("git clean -fX", [f"git clean -X deletes the files .gitignore names: {NOTHING}"]),
    ],
)
def test_git_s_rules_say_what_each_spelling_loses_in_a_repository(command, said, pushed):
    assert analyze(command, pushed, env={}).deletions == said


PYPROJECT = """\
[tool.poe.tasks]
lint = "ruff check ."
tidy = { shell = "rm -rf build" }
seed = { script = "app.db:seed" }
check = ["lint", "tidy"]
alias = { ref = "tidy" }

[tool.pdm.scripts]
pre_release = "dropdb app"
release = "python -m build"
all = { composite = ["test", "pre_release"] }
test = "pytest -q"
wipe = { call = "app.tasks:wipe_db" }

[tool.taskipy.tasks]
serve = "uvicorn app:app --reload"
post_fmt = "rm -rf .cache"
fmt = "ruff format ."

[tool.hatch.envs.default.scripts]
test = "pytest"
reset = ["test", "alembic downgrade base"]

[tool.hatch.envs.docs.scripts]
clean = "rm -rf site"
"""


@pytest.mark.parametrize(
    ("command", "lost", "refused"),
    [
        ("poe lint", [], []),
        ("poe tidy", ["the poe task tidy: rm deletes files: build"], []),
        ("poe check", ["the poe task tidy: rm deletes files: build"], []),  # a sequence of tasks
        ("poe alias", ["the poe task tidy: rm deletes files: build"], []),
        ("poe seed", [], []),  # a Python function named so that it says nothing
        ("pdm run release", ["the pdm task pre_release: dropdb drops"], []),  # its pre_ script
        ("pdm run all", ["the pdm task pre_release: dropdb drops"], []),
        ("pdm run wipe", ["the pdm task wipe cannot be read here"], []),  # a function whose name says
        ("pdm run pytest -q", [], []),  # no script of that name: the program
        ("task serve", [], ["the task task serve: uvicorn serves"]),
        ("task fmt", ["the task task post_fmt: rm deletes files: .cache"], []),
        ("hatch run reset", ["the hatch task reset: alembic unapplies"], []),
        ("hatch run docs:clean", ["the hatch task clean: rm deletes files: site"], []),
        ("hatch run clean", [], []),  # not a script of the default environment
    ],
)
def test_pyproject_task_runners_are_read_as_package_scripts(command, lost, refused, tmp_path):
    (tmp_path / "pyproject.toml").write_text(PYPROJECT, encoding="utf-8")
    verdict = analyze(command, tmp_path)
    for said, expected in ((verdict.deletions, lost), (verdict.interactive, refused)):
        assert len(said) == len(expected), said
        assert all(s.startswith(w) for s, w in zip(said, expected, strict=True)), said


def test_a_pyproject_that_cannot_be_parsed_leaves_the_command_to_its_words(tmp_path):
    (tmp_path / "pyproject.toml").write_text("[tool.poe.tasks\nx = 1", encoding="utf-8")
    assert analyze("poe tidy", tmp_path).deletions == []
    assert analyze("poe db:reset", tmp_path).deletions


def test_the_words_given_to_a_package_script_that_cannot_be_read_are_read_as_its_program(tmp_path):
    (tmp_path / "package.json").write_text('{"scripts": {"build": "tsc"}}', encoding="utf-8")
    assert analyze("npm run typeorm -- schema:drop -d src/data-source.ts", tmp_path).deletions == [
        "typeorm drops the database's data — /undo cannot restore it"
    ]
    assert analyze("npm run typeorm -- migration:show", tmp_path).deletions == []


@pytest.mark.parametrize(
    ("name", "asks"),
    [("db:push-remote", True), ("clean-db", True), ("db:fresh", True), ("db:rollback", True), ("db:seed", False),
     ("db:migrate", False), ("clean", False), ("clean:cache", False), ("migrate:status", False)],
)  # fmt: skip
def test_a_script_that_cannot_be_read_asks_when_its_name_empties_a_store(name, asks, tmp_path):
    assert bool(analyze(f"npm run {name}", tmp_path).deletions) is asks
    assert bool(analyze(f"make {name}", tmp_path).deletions) is asks


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("mytool sync --delete a b", [f"mytool sync --delete: {UNKNOWN} — /undo cannot restore it"]),
        ("mirror-tool sync --no-delete src dest", []),  # it declines to delete
        (
            "hygen component new delete-dialog",
            [f"hygen component new delete-dialog: {UNKNOWN} — /undo cannot restore it"],
        ),
        ("hygen component new ui delete-dialog", []),  # past three subcommands, a word is what the command makes
    ],
)
def test_only_a_program_s_first_subcommands_and_its_deleting_options_say_it_destroys(command, lost):
    assert [str(reason) for reason in analyze(command).deletions] == lost


def test_a_script_whose_name_destroys_says_its_kind_its_name_and_that_undo_cannot_restore_it(tmp_path):
    assert analyze("make clean-db", tmp_path).deletions == [
        "the make target clean-db cannot be read here, and its name says it destroys — /undo cannot restore it"
    ]


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("mytool rollback --to=base", [f"mytool rollback --to=base: {UNKNOWN} — /undo cannot restore it"]),
        ("mytool rollback --to=zero", [f"mytool rollback --to=zero: {UNKNOWN} — /undo cannot restore it"]),
        ("mytool rollback --step=3", []),  # some steps back, not all of them
        ("mytool rollback --to=--all", []),  # a value that is an option's name is no step
    ],
)
def test_an_undoing_verb_told_to_go_back_to_nothing_by_an_option_s_value_asks(command, lost):
    assert [str(reason) for reason in analyze(command).deletions] == lost


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        # the database's URL given first to a script run by its shell: the words after it are its command
        ("bash scripts/db.sh postgres://localhost/app reset", [f"db.sh reset: {UNKNOWN} — /undo cannot restore it"]),
        ("bash scripts/db.sh postgres://localhost/app status", []),
        ("migrator --set=db=main reset", []),  # only an option's name before its first = can name a database
        # a URL whose query holds an "=" still names the database
        (
            "liquibase --url=jdbc:postgresql://db/app?ssl=true dropAll",
            [f"liquibase dropAll: {UNKNOWN} — /undo cannot restore it"],
        ),
    ],
)
def test_a_database_named_first_or_by_a_url_with_a_query_has_its_command_read(command, lost, tmp_path):
    assert [str(reason) for reason in analyze(command, tmp_path).deletions] == lost


REGENERATED = "regenerable: its tool downloads or builds it again, /undo does not restore it"


@pytest.mark.parametrize(
    ("command", "named", "undo"),
    [
        ("mytool purge-cache x", "mytool purge-cache x", REGENERATED),  # what a cache held, its tool makes again
        ("mytool sync --clear-cache", "mytool sync --clear-cache", REGENERATED),  # an option that names the cache too
        ("mytool --purge", "mytool --purge", "/undo cannot restore it"),
        ("mytool --zap-all x", "mytool --zap-all", "/undo cannot restore it"),
        ("mytool sync --clean-all", "mytool sync --clean-all", "/undo cannot restore it"),
        ("mytool push --force", "mytool push --force", "/undo cannot restore it"),
        ("mytool import --overwrite=true x", "mytool import --overwrite", "/undo cannot restore it"),
        ("mytool migrate rollback --all --purge", "mytool migrate rollback --purge --all", "/undo cannot restore it"),
        ("reset-db --yes", "reset-db", "/undo cannot restore it"),  # a program's name of several parts
        ("./scripts/reset-db.sh", "reset-db.sh", "/undo cannot restore it"),
        ('goose -dir m postgres "$DB" reset dropAll', "goose reset dropAll", "/undo cannot restore it"),
        ("mytool deploy --skip-backup --no-snapshots", "mytool deploy --skip-backup --no-snapshots",
         "/undo cannot restore it"),
        # an undoing verb sent back to nothing, then a database's command after its options
        ("mytool rollback --url=postgres://h/db reset --all", "mytool rollback reset --all", "/undo cannot restore it"),
        ("mytool cache rollback --all", "mytool cache rollback --all", "/undo cannot restore it"),  # no cache undone
        ("mytool --purge=true", "mytool --purge", "/undo cannot restore it"),  # an option named without its value
        ("mytool sync --delete=mode=all", "mytool sync --delete", "/undo cannot restore it"),
        ("mytool load --clean --replace x", "mytool load --clean --replace", "/undo cannot restore it"),
    ],
)  # fmt: skip
def test_the_question_names_the_words_that_destroy_and_whether_they_come_back(command, named, undo):
    assert [str(reason) for reason in analyze(command).deletions] == [f"{named}: {UNKNOWN} — {undo}"]


@pytest.mark.parametrize(
    "command",
    [
        "mytool db:reset --dry-run=client",  # a rehearsal given a value
        "mytool db:reset --dry-run=mode=full",  # the option's name is before its first =
        "nuke",  # a name of one part may mean anything
        "mytool sync --remove-orphans",  # it tidies up after the run
        "mytool --no-purge",
        "mytool a b c delete",  # past three subcommands
        "mytool build --force",  # --force overwrites only what a push or a migration sends
        # a program of the table: its options are the table's to know, not read by their words
        "gcloud functions deploy f --clear-labels",
        "helm upgrade app ./chart --full-refresh",
    ],
)
def test_words_that_do_not_destroy_run(command):
    assert analyze(command).deletions == []


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("mytool fresh --url=postgres://localhost/app", ["mytool fresh"]),  # a database named: fresh empties it
        ('migrator "$DATABASE_URL" reset', ["migrator reset"]),  # the variable right after the program
        ('migrator --url="postgres://$HOST/app" reset', ["migrator reset"]),  # a quoted URL built at run time
        ('mytool -dir "$MIGRATIONS" reset', []),  # a variable whose name says no database
        ("mytool --profile=POSTGRESX reset", []),  # a database's name is the whole value
        ("mytool apply reset-data.sql", []),  # a file to apply, not a subcommand
        ("mytool rollback --env=DEBUG=0", []),  # an option's value is what follows its first =
        ("mytool sync --all", []),  # --all sends back to nothing only a verb that undoes
        ("mytool --db=main reset", ["mytool reset"]),  # an option whose name says database
        ("mytool deploy --skip", []),  # declining nothing named
        ("mytool sync --skip-snapshot=tag=nightly", ["mytool sync --skip-snapshot"]),  # the name before the first =
    ],
)
def test_what_names_a_database_and_what_undoes_every_step(command, lost):
    assert [str(reason).split(":")[0] for reason in analyze(command).deletions] == lost
