"""What programs destroy beyond the project's files, per program family: the knowledge as data, one entry a form.

A form is a regular expression over the words of the command that are not options (matched from the first one,
case-insensitively), the options of which one must be present (`needs`, and a second group in `also`), and what is
lost. An option written `-X=DELETE` matches `-X DELETE`, `-XDELETE` and `-X=DELETE`; a one-letter option matches
inside a cluster (`-fd` has `-f`). A family's `dry` options make any form a rehearsal. Each family cites the
documentation its forms come from. Deletions /undo can restore (files in the project) are not here: this table is
for what it cannot.
"""

from dataclasses import dataclass, replace

from narnat_agent.i18n import N_, Said
from narnat_agent.safety.check import NOT_UNDOABLE, REGENERABLE
from narnat_agent.safety.syntax import names


@dataclass(frozen=True)
class Form:
    words: str  # a regular expression over the words that are not options, from the first
    lost: str  # what would be lost, said to the user
    needs: frozenset[str] = frozenset()  # destroys only with one of these options
    also: frozenset[str] = frozenset()  # … and one of these
    undo: str = NOT_UNDOABLE


@dataclass(frozen=True)
class Family:
    programs: frozenset[str]
    source: str  # where the forms come from: man pages, the tool's documentation
    forms: tuple[Form, ...]
    values: frozenset[str] = frozenset()  # options that take the next word as their value
    dry: frozenset[str] = frozenset()  # options that make the command a rehearsal
    reads_stdin: bool = False  # without a command in its words, it runs the lines of its stdin (redis-cli)
    keeps: str = ""  # subcommands whose words sound destructive but which lose nothing the user needs (a regex)
    sends_stdin: bool = False  # whatever its words, its stdin goes to a server as commands (nc to memcached)
    targets: frozenset[str] = frozenset()  # options whose value names what is destroyed (terraform -target)
    operands: bool = True  # its words after a form name what is destroyed (False: they are more tasks or paths)


def _f(words: str, lost: str, needs: str = "", also: str = "", undo: str = NOT_UNDOABLE) -> Form:
    return Form(words, Said(lost), names(needs), names(also), undo)


def _family(
    programs: str,
    source: str,
    *forms: Form,
    values: str = "",
    dry: str = "",
    reads_stdin: bool = False,
    keeps: str = "",
) -> Family:
    return Family(names(programs), source, forms, names(values), names(dry), reads_stdin, keeps)


ANY = r"(?:\S+ )*?"  # any words before the one that matters: `gcloud compute instances delete`
FAMILIES = (
    _family(
        "git",
        "git-branch(1), git-tag(1), git-update-ref(1), git-push(1), git-filter-branch(1), git-filter-repo(1), "
        "git-reflog(1), git-gc(1), git-prune(1), git-submodule(1)",
        _f(r"branch\b", N_("deletes a branch even if it has commits no other branch has"), "-D"),
        _f(r"branch\b", N_("deletes a branch even if it has commits no other branch has"), "-d --delete", "-f --force"),
        _f(r"tag\b", N_("deletes tags"), "-d --delete"),
        _f(r"update-ref\b", N_("deletes a ref"), "-d"),
        _f(r"push\b", N_("rewrites or deletes history on the remote"), "-f --force --force-with-lease --mirror"),
        _f(r"push\b", N_("deletes branches or tags on the remote"), "-d --delete --prune"),
        _f(r"push( \S+)* [+:]\S", N_("rewrites or deletes history on the remote (a +ref or :ref refspec)")),
        _f(r"(filter-repo|filter-branch)\b", N_("rewrites the repository's history")),
        _f(r"reflog (expire|delete)\b", N_("drops reflog entries, the only way back to lost commits")),
        _f(r"gc\b", N_("prunes unreachable commits at once"), "--prune=now --prune=all"),
        _f(r"prune\b", N_("deletes unreachable commits")),
        _f(r"submodule deinit\b", N_("discards a submodule's working tree"), "-f --force"),
        values="-C -c --git-dir --work-tree --namespace --config-env -o --push-option --repo --tree-filter "
        "--index-filter --msg-filter --env-filter --commit-filter --parent-filter --tag-name-filter "
        "--subdirectory-filter",
        dry="-n --dry-run --analyze",  # git-filter-repo --analyze writes a report and rewrites nothing
    ),
    _family(
        "bfg",
        "BFG Repo-Cleaner documentation",
        _f("", N_("rewrites the repository's history")),
        values="-b --strip-blobs-bigger-than -B --strip-biggest-blobs -D --delete-files --delete-folders -rt "
        "--replace-text -p --protect-blobs-from -fi --filter-content-including -fe --filter-content-excluding "
        "--convert-to-git-lfs --massive-non-file-objects-sized-up-to",
    ),
    _family(
        "docker podman nerdctl docker-compose",
        "docker-volume-rm(1), docker-system-prune(1), docker-compose-down(1), docker-builder-prune(1), docker-rm(1), "
        "docker-compose-rm(1)",
        _f(r"volume (rm|remove|prune)\b", N_("deletes container volumes (persistent data)")),
        _f(r"(container )?(rm|remove)\b", N_("deletes containers and what they wrote")),
        _f(
            r"(compose )?rm\b",
            N_("deletes containers and what they wrote, with their anonymous volumes"),
            "-v --volumes",
        ),
        _f(r"(compose )?rm\b", N_("deletes containers and what they wrote")),
        _f(r"system prune\b", N_("deletes unused container volumes (persistent data)"), "--volumes"),
        _f(r"(compose )?down\b", N_("deletes the project's container volumes"), "-v --volumes"),
        _f(r"(builder|buildx) prune\b", N_("deletes the build cache"), undo=REGENERABLE),
        values="-f --file -p --project-name --context -H --host",
        # images are pulled or built again; networks hold no data; what follows run, exec and logs is a container's
        # image, name and command (the command is checked as one)
        keeps=r"(image (rm|remove|prune)|rmi|system prune|network (rm|remove|prune)|(compose |container )?(run|exec"
        r"|logs))\b",
    ),
    _family(
        "kubectl oc",
        "kubectl reference: kubectl delete, kubectl drain, kubectl apply --prune, kubectl replace --force",
        _f(r"delete\b", N_("deletes cluster resources (and the data of deleted volumes)")),
        _f(r"apply\b", N_("deletes the cluster resources its files no longer list"), "--prune"),
        _f(r"replace\b", N_("deletes cluster resources and creates them again (the data of their volumes)"), "--force"),
        _f(r"drain\b", N_("evicts every pod on a node, deleting their local data"), "--delete-emptydir-data"),
        values="-n --namespace --context --cluster --kubeconfig -l --selector -f --filename -o --output -c",
        dry="--dry-run",
        keeps=r"(auth can-i|exec|run|logs|debug|attach|cp)\b",  # a verb it asks about; a pod's name, command, files
    ),
    _family(
        "helm",
        "helm uninstall",
        _f(r"(uninstall|delete|del|un)\b", N_("uninstalls a release")),
        values="-n --namespace --kube-context --kubeconfig",
        dry="--dry-run",
    ),
    replace(
        _family(
            "terraform tofu terragrunt",
            "Terraform CLI documentation: destroy, apply -destroy, state rm, workspace delete",
            _f(r"destroy\b", N_("destroys the infrastructure the configuration manages")),
            _f(r"apply\b", N_("destroys the infrastructure the configuration manages"), "-destroy --destroy"),
            _f(r"state (rm|remove)\b", N_("makes Terraform forget resources it manages")),
            _f(r"workspace delete\b", N_("deletes a workspace and its state")),
            values="-chdir -var -var-file -target",
        ),
        targets=names("-target"),
    ),
    replace(
        _family(
            "pulumi",
            "Pulumi CLI documentation: pulumi destroy, pulumi stack rm, pulumi state delete",
            _f(r"(destroy|down)\b", N_("destroys the stack's cloud resources")),
            _f(r"stack (rm|remove)\b", N_("deletes a stack and its history")),
            _f(r"state delete\b", N_("makes Pulumi forget a resource")),
            values="-s --stack -C --cwd",
            dry="--preview-only",  # pulumi destroy: "only show a preview of the destroy, but don't perform it"
        ),
        targets=names("-s --stack"),
    ),
    _family(
        "cdk cdktf sst",
        "AWS CDK CLI: cdk destroy",
        _f(r"(destroy|remove)\b", N_("destroys the stack's resources")),
    ),
    _family(
        "serverless sls",
        "Serverless Framework: serverless remove",
        _f(r"remove\b", N_("removes the service")),
    ),
    _family(
        "aws",
        "AWS CLI command reference: delete-*, terminate-*, s3 rm, s3 rb, s3 sync --delete, kms schedule-key-deletion",
        _f(r"kms schedule-key-deletion\b", N_("destroys a key: what it encrypted can no longer be decrypted")),
        _f(r"s3 (rm|rb)\b", N_("deletes remote objects")),
        _f(r"s3 sync\b", N_("deletes remote objects the source lacks"), "--delete"),
        _f(r"s3api delete-", N_("deletes remote objects")),
        _f(r"\S+ (delete|terminate|remove|deregister|purge|batch-delete|release)-", N_("deletes cloud resources")),
        values="--region --profile --output --endpoint-url --query --cli-read-timeout",
        dry="--dryrun --dry-run",
    ),
    _family(
        "gcloud",
        "gcloud reference: gcloud … delete, gcloud storage rm, gcloud kms keys versions destroy",
        _f(r"kms keys versions destroy\b", N_("destroys a key version: what it encrypted can no longer be decrypted")),
        _f(ANY + r"delete\b", N_("deletes cloud resources")),
        _f(r"storage (rm|rsync)\b", N_("deletes remote objects")),
        values="--project --zone --region --format --account --configuration",
    ),
    _family(
        "gsutil",
        "gsutil documentation: rm, rb, rsync -d",
        _f(r"(rm|rb)\b", N_("deletes remote objects")),
        _f(r"rsync\b", N_("deletes remote objects the source lacks"), "-d --delete-unmatched-destination-objects"),
        dry="-n",
    ),
    _family(
        "az",
        "Azure CLI reference: az … delete, delete-batch, purge",
        _f(ANY + r"(delete|delete-batch|purge)\b", N_("deletes cloud resources")),
        values="-g -n --name --resource-group --subscription -o --output --query",
    ),
    _family(
        "rclone",
        "rclone documentation: purge, delete, deletefile, rmdir, rmdirs, sync, move",
        _f(r"(purge|delete|deletefile|rmdir|rmdirs)\b", N_("deletes remote files")),
        _f(r"sync\b", N_("deletes what the source lacks")),
        dry="--dry-run -n",
    ),
    _family(
        "gh",
        "GitHub CLI manual: gh repo delete, gh release delete, gh … delete, gh pr close --delete-branch, gh api",
        _f(ANY + r"delete\b", N_("deletes a repository, release, issue, secret or run on GitHub")),
        _f(r"pr close\b", N_("deletes the pull request's branch, local and remote"), "-d --delete-branch"),
        _f(r"api\b", N_("sends a DELETE request to GitHub"), "-X=DELETE --method=DELETE"),
        values="-R --repo -X --method -t --title -b --body -F --body-file -m --milestone -n --notes -l --label",
    ),
    replace(
        _family(
            "heroku",
            "Heroku CLI commands: apps:destroy, pg:reset, addons:destroy",
            _f(r"(apps:destroy|destroy|pg:reset|addons:destroy)\b", N_("destroys a hosted app or database")),
            values="-a --app -r --remote --confirm",
        ),
        targets=names("-a --app"),
    ),
    _family(
        "fly flyctl",
        "flyctl docs: apps destroy",
        _f(r"(apps )?(destroy|delete)\b", N_("destroys a hosted app")),
    ),
    _family("vercel", "Vercel CLI: vercel remove", _f(r"(remove|rm)\b", N_("removes deployments"))),
    _family(
        "firebase",
        "Firebase CLI reference",
        _f(r"(firestore:delete|database:remove|functions:delete|hosting:disable)\b", N_("deletes hosted data")),
    ),
    _family(
        "dropdb dropuser",
        "PostgreSQL client applications: dropdb(1), dropuser(1)",
        _f("", N_("drops a PostgreSQL database or role")),
    ),
    _family(
        "pg_restore", "pg_restore(1): --clean", _f("", N_("drops database objects before restoring them"), "-c --clean")
    ),
    _family("mysqladmin", "mysqladmin(1)", _f(ANY + r"drop\b", N_("drops a database"))),
    _family(
        "redis-cli valkey-cli",
        "Redis commands: FLUSHALL, FLUSHDB, DEL, UNLINK",
        _f(r"(flushall|flushdb|del|unlink|getdel|hdel|srem|zrem|lrem|ltrim|xdel|xtrim|swapdb)\b", N_("deletes keys")),
        values="-h -p -n -a -u --user --pass --pattern --scan-pattern -c --cert --key",
        reads_stdin=True,
    ),
    _family(
        "manage.py django-admin",
        "Django: django-admin flush, migrate <app> zero, collectstatic --clear; django-extensions reset_db",
        _f(r"(flush|reset_db|drop_test_database)\b", N_("deletes every row in the database")),
        _f(r"migrate \S+ zero\b", N_("unapplies an app's migrations, dropping its tables")),
        _f(r"collectstatic\b", N_("deletes the collected static files first"), "--clear -c"),
        values="--database --settings",
    ),
    replace(  # its words after the command are more tasks, values or paths, not what it destroys
        _family(
            "rails rake",
            "Rails guides, Active Record migrations: db:drop, db:reset, db:purge, db:schema:load, db:seed:replant",
            _f(
                ANY + r"db:(drop|reset|purge|truncate_all|schema:load|migrate:reset|seed:replant)\b",
                N_("drops the database's data"),
            ),
        ),
        operands=False,
    ),
    replace(  # its words after the command are more tasks, values or paths, not what it destroys
        _family(
            "prisma",
            "Prisma CLI reference: migrate reset, db push --force-reset",
            _f(r"migrate reset\b", N_("drops the database and its data")),
            _f(r"db push\b", N_("drops the database's data"), "--force-reset --accept-data-loss"),
        ),
        operands=False,
    ),
    replace(  # its words after the command are more tasks, values or paths, not what it destroys
        _family(
            "dotnet",
            "Entity Framework Core tools reference (.NET CLI): dotnet ef database drop, database update 0 (reverts "
            "every migration)",
            _f(r"ef database drop\b", N_("drops the database and its data")),
            _f(r"ef database update 0$", N_("unapplies every migration, dropping tables and columns")),
            dry="--dry-run",
        ),
        operands=False,
    ),
    replace(  # its words after the command are more tasks, values or paths, not what it destroys
        _family(
            "supabase",
            "Supabase CLI reference: supabase db reset",
            _f(r"db reset\b", N_("drops the database and its data")),
        ),
        operands=False,
    ),
    replace(  # its words after the command are more tasks, values or paths, not what it destroys
        _family(
            "artisan",
            "Laravel: migrate:fresh, migrate:reset, migrate:refresh, migrate:rollback, db:wipe; Cache: cache:clear "
            "flushes the whole cache store",
            _f(
                r"(migrate:fresh|migrate:reset|migrate:refresh|migrate:rollback|db:wipe)\b",
                N_("drops the database's data"),
            ),
            # its store holds what the app keeps there (locks, rate limits, values cached forever), not rebuilt files
            _f(r"cache:clear\b", N_("empties the application's cache store, with what the app keeps there")),
        ),
        operands=False,
    ),
    _family(
        "alembic flask",
        "Alembic and Flask-Migrate: downgrade",
        _f(r"(db )?downgrade\b", N_("unapplies migrations, dropping tables and columns")),
        values="-c --config -n --name -x --raiseerr -d --directory --app -A -e --env-file",
        dry="--sql",  # offline mode: it prints the SQL instead of running it
    ),
    _family(
        "sequel",
        "Sequel's bin/sequel: -m DIRECTORY runs the migrations, -M VERSION to that version",
        _f("", N_("unapplies every migration, dropping tables and columns"), "-m", "-M=0"),
        values="-m -M -E -l -r -c -e",
    ),
    _family(
        "phinx",
        "Phinx commands: rollback (-t 0 reverts every migration)",
        _f(r"rollback\b", N_("unapplies migrations, dropping tables and columns")),
        values="-e --environment -t --target -d --date -c --configuration",
        dry="--dry-run -x",
    ),
    _family(
        "liquibase",
        "Liquibase commands: rollback, rollback-count, rollback-to-date, rollback-one-changeset (the *-sql forms print "
        "the SQL); drop-all is read by its words",
        _f(
            r"(rollback|rollback-count|rollbackCount|rollback-to-date|rollbackToDate|rollback-one-changeset)(?!\S)",
            N_("unapplies changesets, with what they created"),
        ),
    ),
    replace(  # its words after the command are more tasks, values or paths, not what it destroys
        _family(
            "flyway",
            "Flyway CLI documentation: clean",
            _f(r"clean\b", N_("drops every object in the configured schemas")),
        ),
        operands=False,
    ),
    replace(  # its words after the command are more tasks, values or paths, not what it destroys
        _family(
            "sequelize sequelize-cli knex typeorm",
            "sequelize-cli db:drop, knex migrate:rollback, typeorm schema:drop",
            _f(r"(db:drop|db:migrate:undo|migrate:rollback|schema:drop)", N_("drops the database's data")),
        ),
        operands=False,
    ),
    replace(  # its words after the command are more tasks, values or paths, not what it destroys
        _family(
            "conda mamba micromamba",
            "conda documentation: conda env remove, conda remove --all, conda clean",
            _f(r"env (remove|rm)\b", N_("deletes an environment"), undo=REGENERABLE),
            _f(r"(remove|uninstall)\b", N_("deletes an environment"), "--all", undo=REGENERABLE),
            _f(r"clean\b", N_("deletes the package cache"), undo=REGENERABLE),
            values="-n --name -p --prefix",
            dry="--dry-run -d",
        ),
        operands=False,
    ),
    _family("pyenv", "pyenv commands: uninstall", _f(r"uninstall\b", N_("deletes a Python version"), undo=REGENERABLE)),
    _family(
        "npm yarn pnpm bun",
        "npm-cache(1), yarn cache clean, pnpm store prune, npm-unpublish(1), npm-deprecate(1), npm-dist-tag(1)",
        _f(r"cache (clean|clear|rm)\b", N_("deletes the package cache"), undo=REGENERABLE),
        _f(r"store prune\b", N_("deletes the package store's unused packages"), undo=REGENERABLE),
        _f(r"(npm )?unpublish\b", N_("removes published versions from the registry")),
        _f(r"deprecate\b", N_("marks published versions deprecated for everyone who installs them")),
        _f(r"dist-tag (rm|remove)\b", N_("removes a dist-tag from the registry")),
        dry="--dry-run",
    ),
    replace(  # its words after the command are more tasks, values or paths, not what it destroys
        _family(
            "pip pip3 uv poetry pipenv",
            "pip cache, uv cache clean, poetry env remove, pipenv --rm",
            _f(r"cache (purge|remove|clean|prune|clear)\b", N_("deletes the package cache"), undo=REGENERABLE),
            _f(r"env remove\b", N_("deletes a virtual environment"), undo=REGENERABLE),
            _f("", N_("deletes the virtual environment"), "--rm", undo=REGENERABLE),
        ),
        operands=False,
    ),
    replace(  # its words after the command are more tasks, values or paths, not what it destroys
        _family(
            "go",
            "go help clean",
            _f(
                r"clean\b",
                N_("deletes the module or build cache"),
                "-modcache -cache -testcache -fuzzcache",
                undo=REGENERABLE,
            ),
        ),
        operands=False,
    ),
    replace(  # its words after the command are more tasks, values or paths, not what it destroys
        _family(
            "cargo mvn mvnw gradle gradlew",
            "cargo-clean(1), cargo-yank(1), Maven and Gradle clean",
            _f(ANY + r"clean\b", N_("deletes the build output"), undo=REGENERABLE),
            _f(r"yank\b", N_("yanks a published version: the registry no longer resolves it for new users")),
            values="-p --package -f --file -pl --projects --version --vers --index --registry --token",
            dry="--undo",  # cargo yank --undo gives the version back; no other form takes it
        ),
        operands=False,
    ),
    _family(
        "curl",
        "curl(1): -X, --request",
        _f("", N_("sends a DELETE request: the server deletes what the URL names"), "-X=DELETE --request=DELETE"),
        values="-X --request -H --header -d --data -u --user -o --output -A --user-agent -e --referer",
    ),
    _family(
        "wget",
        "wget(1): --method",
        _f("", N_("sends a DELETE request: the server deletes what the URL names"), "--method=DELETE"),
    ),
    _family(
        "http https xh xhs",
        "HTTPie documentation: http [METHOD] URL; xh(1)",
        _f(r"delete\b", N_("sends a DELETE request: the server deletes what the URL names")),
        values="-a --auth -A --auth-type -o --output --session --session-read-only --verify --cert --cert-key",
        dry="--offline",
    ),
    _family(
        "crontab",
        "crontab(1): -r; crontab FILE (or - for stdin) installs FILE in place of the whole crontab",
        _f("", N_("removes your crontab, every job in it"), "-r"),
        _f(r"\S", N_("replaces your whole crontab with what it is given")),
        values="-u",
    ),
    _family(
        "journalctl",
        "journalctl(1): --vacuum-size, --vacuum-time, --vacuum-files",
        _f("", N_("deletes archived journal files, the system's logs"), "--vacuum-size --vacuum-time --vacuum-files"),
    ),
    _family("gem", "gem yank (RubyGems guides)", _f(r"yank\b", N_("removes a published version from the gem index"))),
    replace(
        _family(
            "nc ncat netcat telnet socat",
            "memcached protocol.txt: flush_all, delete; Redis commands: FLUSHALL, FLUSHDB, DEL, UNLINK",
            _f(
                r"(flush_all|flushall|flushdb)\b", N_("sends a flush: the server deletes every key it caches or stores")
            ),
            _f(r"(delete|del|unlink)\b", N_("sends a deletion: the server deletes what it names")),
        ),
        sends_stdin=True,
    ),
    _family("brew", "brew(1): cleanup", _f(r"cleanup\b", N_("deletes cached downloads"), undo=REGENERABLE), dry="-n"),
)
BY_PROGRAM = {program: family for family in FAMILIES for program in family.programs}
