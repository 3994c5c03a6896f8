"""Package scripts, make targets, just recipes and the project's own scripts, read from the project's files and
checked as what they run: each question names the script, target or recipe whose text would destroy."""

import json
from pathlib import Path

import pytest

from narnat_agent.safety import analyze
from narnat_agent.safety.tasks import MAX_FILE

PACKAGE = {
    "scripts": {
        "preclean": "rm -rf .cache",
        "clean": "rm -rf dist",
        "postclean": "rm -f log.txt",
        "test": "jest",
        "dev": "vite",
        "seed": ["rm a"],
        "bad": 3,
        "wipe": "rm -rf",
    }
}
COMPOSER = {
    "scripts": {
        "reset-db": ["@php bin/console doctrine:schema:drop --force", "@clear", "@putenv X=1", "App\\Setup::run"],
        "clear": "rm -rf var/cache",
    }
}
MAKEFILE = """\
RM = rm -rf
DIST ?= dist
DC = docker compose
.PHONY: clean all
all: build
\techo all
build:
\t@echo building
clean: tidy
\t-$(RM) $(DIST)
\trm -f $@.log $< $^
tidy:
\trm -rf .cache
%.o: %.c
\trm -rf src
wipe:
\trm -rf $${HOME}/x
fn:
\trm -rf $(shell pwd)/out
long: \\
  tidy
\trm -rf long
reset:
\t$(DC) down -v
ship: tidy wipe
\trm -rf ship
"""
JUSTFILE = """\
set shell := ["bash", "-c"]
alias c := clean
# comment
clean: tidy
    rm -rf dist
    @rm -f {{name}}.log
tidy:
    -rm -rf .cache
[private]
py:
    #!/usr/bin/env python3
    import shutil; shutil.rmtree('x')
sh:
    #!/usr/bin/env bash
    rm -rf sh-out
loop: loop
    rm -rf loop-out
export X := "1"
build arg='x':
    cargo build
"""
FILES = {
    "package.json": json.dumps(PACKAGE),
    "sub/package.json": json.dumps({"scripts": {"clean": "rm -rf out"}}),
    "composer.json": json.dumps(COMPOSER),
    "Makefile": MAKEFILE,
    "sub/Makefile": "clean:\n\trm -rf sub-out\n",
    "sub/GNUmakefile": "clean:\n\trm -rf gnu-out\n",
    "other.mk": "clean:\n\trm -rf other-out\n",
    "assigned.mk": "OUT = build\nOUT += dist\nDIR = a\nDIR = b\nRM ?= rm -rf\nRM ?= echo\nLIST != ls\n"
    "clean:\n\t$(RM) $(OUT) $(DIR)\nls:\n\trm -rf $(LIST)\n",
    "justfile": JUSTFILE,
    "x.sh": "#!/bin/sh\nrm -rf x-out\n",
    "env.sh": "#!/usr/bin/env bash\nrm -rf env-out\n",
    "y.py": "import shutil\nshutil.rmtree('y-out')\n",
    "env.py": "#!/usr/bin/env python3\nimport shutil\nshutil.rmtree('out')\n",
    "z": "#! /usr/bin/env -S python3 -u\nimport os\nos.remove('z-out')\n",
    "n.sh": "rm -rf n-out\n",
    "q": "no shebang rm -rf\n",
    "w.rb": "#!/usr/bin/env ruby\nputs 1\n",
    "awk.awk": "#!/usr/bin/awk -f\n{print}\n",
}


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tasks")
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


PRE_CLEAN_POST = [
    "the package script preclean: rm deletes files: .cache",
    "the package script clean: rm deletes files: dist",
    "the package script postclean: rm deletes files: log.txt",
]
NAMED = "cannot be read here, and its name says it destroys — /undo cannot restore it"
RESET_DB = [
    "the package script reset-db: console doctrine:schema:drop: its words say it destroys, and Narnat does not know "
    "what — /undo cannot restore it",
    "the package script reset-db: the package script clear: rm deletes files: var/cache",
    f"the package script reset-db {NAMED}",
]
MAKE_CLEAN = [
    "the make target tidy: rm deletes files: .cache",
    "the make target clean: rm deletes files: dist",
    "the make target clean: rm deletes files: clean.log tidy tidy",
]
JUST_CLEAN = [
    "the just recipe clean: rm deletes files: dist",
    "the just recipe clean: rm deletes files: ${JUST_VALUE}.log",
    "the just recipe tidy: rm deletes files: .cache",
]
ASKS = {
    "npm run clean": PRE_CLEAN_POST,
    "npm rum clean": PRE_CLEAN_POST,
    "npm run-script clean": PRE_CLEAN_POST,
    "pnpm clean": PRE_CLEAN_POST,
    "bun run clean": PRE_CLEAN_POST,
    "npm run clean -- --force": PRE_CLEAN_POST,
    "yarn clean": ["the package script clean: rm deletes files: dist"],  # yarn runs no pre and post scripts
    "npm --prefix sub run clean": ["the package script clean: rm deletes files: out"],
    "npm --prefix=sub run clean": ["the package script clean: rm deletes files: out"],
    "npm run seed": ["the package script seed: rm deletes files: a"],
    "npm run bad": ["the package script bad runs shell code computed at run time"],
    "npm run wipe -- dist": ["the package script wipe: rm deletes files: dist"],
    "npm run typeorm -- schema:drop": ["typeorm drops the database's data — /undo cannot restore it"],
    "pnpm db:reset": [f"the package script db:reset {NAMED}"],
    "yarn db:reset": [f"the package script db:reset {NAMED}"],
    "composer reset-db": RESET_DB,
    "composer run-script reset-db": RESET_DB,
    "composer run reset-db": RESET_DB,
    "composer drop-db": [f"the package script drop-db {NAMED}"],
    "make clean": MAKE_CLEAN,
    "make -j 4 clean": MAKE_CLEAN,
    "make -s clean": MAKE_CLEAN,
    "make -C sub clean": ["the make target clean: rm deletes files: gnu-out"],  # GNUmakefile comes first
    "make --directory sub clean": ["the make target clean: rm deletes files: gnu-out"],
    "make -f other.mk clean": ["the make target clean: rm deletes files: other-out"],
    "make --file other.mk clean": ["the make target clean: rm deletes files: other-out"],
    "make clean DIST=/srv": [
        "the make target tidy: rm deletes files: .cache",
        "the make target clean: rm deletes files: /srv — /undo restores only the project's files",
        "the make target clean: rm deletes files: clean.log tidy tidy",
    ],
    "make wipe": ["the make target wipe: rm deletes files: ${HOME}/x"],
    "make fn": ["the make target fn: rm deletes files: ${MAKE_FUNCTION}/out"],
    "make long": ["the make target tidy: rm deletes files: .cache", "the make target long: rm deletes files: long"],
    "make reset": ["the make target reset: docker deletes the project's container volumes — /undo cannot restore it"],
    "make ship": [  # the prerequisites first, in the order make runs them
        "the make target tidy: rm deletes files: .cache",
        "the make target wipe: rm deletes files: ${HOME}/x",
        "the make target ship: rm deletes files: ship",
    ],
    # as make assigns: += appends, a later = replaces, ?= only when unset, != runs the shell
    "make -f assigned.mk clean": ["the make target clean: rm deletes files: build dist b"],
    "make -f assigned.mk ls": ["the make target ls: rm deletes files: ${MAKE_FUNCTION}"],
    "make db-reset": [f"the make target db-reset {NAMED}"],
    "just clean": JUST_CLEAN,
    "just": JUST_CLEAN,  # the first recipe
    "just sh": ["the just recipe sh: rm deletes files: sh-out"],
    "just loop": ["the just recipe loop: rm deletes files: loop-out"],
    "just nuke": [f"the just recipe nuke {NAMED}"],
    "bash x.sh": ["the script x.sh: rm deletes files: x-out"],
    "sh x.sh": ["the script x.sh: rm deletes files: x-out"],
    "./x.sh": ["the script ./x.sh: rm deletes files: x-out"],
    "./env.sh": ["the script ./env.sh: rm deletes files: env-out"],
    "./n.sh": ["the script ./n.sh: rm deletes files: n-out"],
    "python y.py": ["the script y.py: the python code calls a file-deletion function"],
    "python3 y.py": ["the script y.py: the python3 code calls a file-deletion function"],
    "./env.py": ["the script ./env.py: the python3 code calls a file-deletion function"],
    "./z": ["the script ./z: the python3 code calls a file-deletion function"],
}
RUN = [
    "npm t", "npm test", "npm -w sub run clean", "composer install", "npm run", 'npm run "$X"', "make", "make -n clean",
    "make -kn clean", "make --dry-run clean", "make -q clean", 'make "$T"', "make -C", "just --list", "just -n clean",
    "just build", "ruby w.rb", "./w.rb", "./q", "./awk.awk", "bash missing.sh",
]  # fmt: skip


@pytest.mark.parametrize(("command", "lost"), ASKS.items())
def test_scripts_targets_and_recipes_ask_naming_what_they_run(command, lost, project):
    assert [str(reason) for reason in analyze(command, project).deletions] == lost


@pytest.mark.parametrize("command", RUN)
def test_scripts_that_destroy_nothing_and_rehearsals_run(command, project):
    verdict = analyze(command, project)
    assert (verdict.deletions, verdict.file_ops, verdict.interactive) == ([], [], []), command


def test_a_dev_script_named_by_its_runner_alone_is_refused_as_a_server(project):
    assert [str(r) for r in analyze("pnpm dev", project).interactive] == [
        "the package script dev: vite serves until it is stopped: start it in the background (`… &`), then query it"
    ]


def test_a_file_longer_than_the_limit_is_not_read(tmp_path):
    (tmp_path / "package.json").write_text(json.dumps({"scripts": {"clean": "rm -rf dist"}}).ljust(MAX_FILE))
    assert [str(r) for r in analyze("npm run clean", tmp_path).deletions] == [
        "the package script clean: rm deletes files: dist"
    ]
    (tmp_path / "package.json").write_text(json.dumps({"scripts": {"clean": "rm -rf dist"}}).ljust(MAX_FILE + 1))
    assert analyze("npm run clean", tmp_path).deletions == []
