"""The long tail's third round of rules, one at a time: migrations undone to nothing, ORM and driver calls that drop
a database, graph and document queries, registry actions, in-place edits that delete lines, a key written over,
Ansible's ad hoc modules, crontab replaced, journal vacuums, flushes sent over the network; rehearsals and listings
that destroy nothing; scripts whose text follows a log; and questions that name what each command targets."""

from pathlib import Path

import pytest

from narnat_agent.safety import analyze

HOME = {"HOME": "/home/dev"}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / ".env").write_text("API_KEY=sk_live_x\nDEBUG=false\n")
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "app.log").write_text("one\ntwo\n")
    (tmp_path / "list.txt").write_text("".join(f"reports/{m}.csv\n" for m in ("jan", "feb", "mar", "apr")))
    (tmp_path / "id_test").write_text("key\n")
    (tmp_path / "package.json").write_text('{"scripts": {"logs": "tail -f logs/app.log", "lint": "eslint ."}}')
    (tmp_path / "Makefile").write_text("tail:\n\ttail -F logs/app.log\n")
    (tmp_path / "justfile").write_text("zap:\n    cargo check\n")
    return tmp_path


@pytest.mark.parametrize(
    ("command", "asks"),
    [
        ("mix ecto.rollback --all", True),  # a verb that undoes, back to nothing
        ("mix ecto.rollback", False),  # one step of a store it does not name
        ("vendor/bin/phinx rollback -t 0", True),
        ("phinx migrate -e production", False),
        ("diesel migration redo --all", True),
        ("piccolo migrations backwards blog --migration_id=all", True),
        ("piccolo migrations forwards blog", False),
        ("liquibase rollback-count 5", True),
        ("liquibase rollback-count-sql 5", False),  # it prints the SQL
        ("dotnet ef database update 0", True),
        ("dotnet ef database update", False),
        ("sequel -m db/migrations -M 0 postgres://localhost/shop", True),
        ("sequel -m db/migrations postgres://localhost/shop", False),
        ("rake db:seed:replant", True),
        ("php bin/console doctrine:schema:drop --force --full-database", True),  # a script's own subcommand
        ("php bin/console doctrine:schema:drop --dump-sql", False),
        ("npx mikro-orm schema:drop --dump", False),
        ("pulumi destroy --preview-only --stack prod", False),
        ("git filter-repo --analyze", False),
        ("php artisan cache:clear", True),
        ("php artisan config:clear", False),  # compiled files, rebuilt
    ],
)
def test_migrations_undone_to_nothing_and_rehearsals(command, asks):
    assert bool(analyze(command).deletions) is asks, analyze(command).deletions


@pytest.mark.parametrize(
    ("command", "asks"),
    [
        ('python -c "from app.db import Base, engine; Base.metadata.drop_all(engine)"', True),
        ("node -e \"require('./db').sequelize.sync({ force: true })\"", True),
        ('node -e "db.sync({alter: true})"', False),
        ('node -e "mongoose.connection.dropDatabase()"', True),
        ("python -c \"print('drop_all(x)')\"", False),  # text, not a call
        ('cypher-shell -u neo4j "MATCH (n) DETACH DELETE n"', True),
        ("cypher-shell 'MATCH (n) RETURN n'", False),
        ("gh pr close 42 --delete-branch", True),
        ("gh pr close 42", False),
        ("npm deprecate pkg@1 'gone'", True),
        ("npm dist-tag rm pkg beta", True),
        ("npm dist-tag ls pkg", False),
        ("cargo yank --version 0.4.2 acme-core", True),
        ("cargo yank --undo --version 0.4.2 acme-core", False),
        ("gem yank acme -v 1.2.0", True),
        ("gcloud kms keys versions destroy 3 --key app --keyring prod --location global", True),
        ("aws kms schedule-key-deletion --key-id k", True),
        ("crontab /dev/null", True),
        ('echo "" | crontab -', True),
        ("crontab -l", False),
        ("journalctl --vacuum-time=1s", True),
        ("journalctl -u app -n 50", False),
        ("echo flush_all | nc localhost 11211", True),
        ("printf 'FLUSHALL\\r\\n' | nc localhost 6379", True),
        ("echo stats | nc localhost 11211", False),
        ("tar c . | nc backup 9000", False),  # a stream it carries
        ('ansible all -m file -a "path=/srv/up state=absent"', True),
        ("ansible web -a 'rm -rf /srv/x'", True),  # the default module runs the command there
        ("ansible all -m ping", False),
        ("wipefs /dev/sdb", False),  # without -a it lists
        ("wipefs -a /dev/sdb", True),
    ],
)
def test_programs_that_destroy_beyond_the_project(command, asks):
    assert bool(analyze(command).deletions) is asks, analyze(command).deletions


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("sed -i '1,20d' logs/app.log", "sed -i deletes lines 1,20 of logs/app.log"),
        ("sed -i '/^API_KEY/d' .env", "sed -i deletes the lines matching /^API_KEY/ from .env"),
        ("perl -pi -e 's/^API_KEY=.*/API_KEY=/' .env", "perl -i blanks the text matching /^API_KEY=.*/ in .env"),
        ("sed -i 's/x//' .env", "sed -i blanks the text matching /x/ in .env"),
        ("ssh-keygen -t ed25519 -f id_test -N ''", "ssh-keygen replaces the key id_test, which exists"),
        ("ssh-keygen -f ~/.ssh/new -N '' <<< y", "ssh-keygen is told yes to replacing the key ~/.ssh/new"),
    ],
)
def test_what_an_edit_in_place_or_a_new_key_loses_is_said(command, said, project):
    assert any(reason.startswith(said) for reason in analyze(command, project).deletions), analyze(command, project)


@pytest.mark.parametrize(
    "command",
    [
        "sed -i 's/a/b/' .env",  # an edit: Edit's job, refused as such
        "sed -i '1,20d' missing.log",  # no file: nothing to lose
        "ssh-keygen -lf id_test",
        "ssh-keygen -t ed25519 -f new_key -N ''",
    ],
)
def test_edits_and_keys_that_lose_nothing_do_not_ask(command, project):
    assert analyze(command, project).deletions == []


def test_never_ending_script_text_and_words_are_refused(project):
    assert analyze("npm run logs", project).interactive
    assert analyze("make tail", project).interactive
    assert analyze("timeout 10 make tail", project).interactive == []
    assert analyze("stripe listen --forward-to localhost:3000", project).interactive
    assert analyze("npm run lint", project).interactive == []


@pytest.mark.parametrize(
    "command",
    [
        "python -m flask db upgrade",  # flask serves with run
        "read -t 5 -p 'Continue? ' answer || true",  # it gives up after 5 s
        "mkdir -p /tmp/restore-x && tar -xzf a.tgz -C /tmp/restore-x-not-there",  # nothing there to replace
        "just zap",  # the recipe's text runs, not its name
    ],
)
def test_ending_and_harmless_forms_run(command, project):
    (project / "a.tgz").write_text("not a tar archive")
    verdict = analyze(command, project)
    assert (verdict.deletions, verdict.interactive, verdict.file_ops) == ([], [], []), verdict


def test_python_m_flask_run_still_serves():
    assert analyze("python -m flask run").interactive


@pytest.mark.parametrize(
    ("command", "env", "named"),
    [
        ("rm -rf ~/projects/old-api", HOME, ["/home/dev/projects/old-api"]),
        ("shred -u ~/.aws/credentials", HOME, ["/home/dev/.aws/credentials"]),
        ('cd "$DIR" && rm -rf ./*', {**HOME, "DIR": "/var/www/html"}, ["/var/www/html/./*"]),
        ("find \"$LOG_DIR\" -name '*.log' -delete", {**HOME, "LOG_DIR": "/var/log/x"}, ["/var/log/x"]),
        ("xargs -a list.txt rm -f", HOME, ["4", "reports/jan.csv"]),
        ("mongosh shop --eval 'db.orders.drop(); db.carts.deleteMany({})'", HOME, ["orders.drop()", "carts"]),
        ('wrangler d1 execute prod-db --command "DELETE FROM subscribers"', HOME, ["prod-db", "subscribers"]),
        ("git stash drop stash@{2}", HOME, ["stash@{2}"]),
        ("git worktree remove --force ../hotfix", HOME, ["../hotfix"]),
        ("docker volume rm pgdata_prod", HOME, ["pgdata_prod"]),
        ("kubectl delete pvc data-0 -n prod", HOME, ["pvc data-0"]),
        ("terraform destroy -target=aws_db_instance.main -auto-approve", HOME, ["aws_db_instance.main"]),
        ("heroku pg:reset DATABASE_URL --app acme-api --confirm acme-api", HOME, ["acme-api"]),
        ("gh repo delete acme/legacy --yes", HOME, ["acme/legacy"]),
        ("npm unpublish @acme/ui@2.3.1", HOME, ["@acme/ui@2.3.1"]),
    ],
)
def test_the_question_names_the_targets(command, env, named, project):
    said = "; ".join(analyze(command, project, env=env).deletions)
    assert all(word in said for word in named) and "\n" not in said, said


def test_a_cd_in_a_subshell_moves_nothing_after_it(project):
    said = analyze("(cd /tmp && ls) && rm -rf build", project, env=HOME).deletions
    assert said == ["rm deletes files: build"]


def test_words_after_a_task_are_no_targets():
    assert analyze("rake db:drop db:create").deletions == ["rake drops the database's data — /undo cannot restore it"]
