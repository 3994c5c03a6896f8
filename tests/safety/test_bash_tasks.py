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
    "sub/GNUmakefile": "all:\n\techo sub\nclean:\n\trm -rf gnu-out\n",
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
    "make --makefile other.mk clean": ["the make target clean: rm deletes files: other-out"],
    # the folder and the makefile written in the option's own word
    "make --directory=sub clean": ["the make target clean: rm deletes files: gnu-out"],
    "make -Csub clean": ["the make target clean: rm deletes files: gnu-out"],
    "make --file=other.mk clean": ["the make target clean: rm deletes files: other-out"],
    "make --makefile=other.mk clean": ["the make target clean: rm deletes files: other-out"],
    "make -fother.mk clean": ["the make target clean: rm deletes files: other-out"],
    "make -f other.mk": ["the make target clean: rm deletes files: other-out"],  # its first rule
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


MORE = {
    "package.json": json.dumps(
        {
            "scripts": {
                "clean": "rm -rf dist",
                "prewipe": "rm -rf pre",
                "wipe": "rm -rf",
                "many": [f"rm a{n}" for n in range(40)],
            }
        }
    ),
    "bad/package.json": "{not json",
    "list/package.json": json.dumps({"scripts": ["rm -rf x"]}),
    "array/package.json": json.dumps(["clean"]),  # valid JSON, but no object: no scripts
    "Justfile": "clean:\n    rm -rf J\ndrop-db:\n    #!/usr/bin/env python3\n    print(1)\n@quiet:\n    rm -rf q\n",
    "Makefile": "a b:\n\trm -rf $@\n# note\nc:\n# inside\n\trm -rf c-out\n\nd:\n\n\trm -rf d-out\ne:\n\t$(RM) e-out\n"
    "f: g\n\trm -rf $(subst a,b,xa)\ng: f\n\trm -rf g-out\nh:\n\trm -rf ${H}\nH = h-out\n",
}
C_OUT = ["the make target c: rm deletes files: c-out"]
MORE_ASKS = {
    "npm --loglevel silent run clean": ["the package script clean: rm deletes files: dist"],  # silent is its value
    "npm --prefix missing run reset-db": [f"the package script reset-db {NAMED}"],
    # the words given go to the script itself, not to its pre script
    "npm run wipe -- dist": [
        "the package script prewipe: rm deletes files: pre",
        "the package script wipe: rm deletes files: dist",
    ],
    "npm run many": [f"the package script many: rm deletes files: a{n}" for n in range(32)],  # the first 32 lines
    "just clean": ["the just recipe clean: rm deletes files: J"],  # the Justfile, capitalised
    "just drop-db": [f"the just recipe drop-db {NAMED}"],  # a Python recipe is not read as shell
    "just quiet": ["the just recipe quiet: rm deletes files: q"],
    "make b": ["the make target b: rm deletes files: b"],  # each target of a rule has its recipe
    "make a": ["the make target a: rm deletes files: a"],
    "make X=1": ["the make target a: rm deletes files: a"],  # an assignment is no target: the first rule runs
    "make c": C_OUT,  # a comment line does not end the rule
    "make d": ["the make target d: rm deletes files: d-out"],  # nor does a blank line
    "make e": ["the make target e: rm deletes files: e-out"],  # $(RM) is make's own rm -f
    "make f": ["the make target g: rm deletes files: g-out", "the make target f: rm deletes files: ${MAKE_FUNCTION}"],
    "make h": ["the make target h: rm deletes files: h-out"],
    **{
        f"make {options} c": C_OUT
        for options in ("-k", "-I inc", "-o x", "-W x", "-l 2", "--jobs 2", "--include-dir inc", "--load-average 2",
                        "--makefile Makefile")
    },
}  # fmt: skip
MORE_RUN = [
    "npm --prefix bad run clean", "npm --prefix list run clean", "npm --prefix array run clean",
    "pnpm eslint .", "yarn workspace x clean",
    "composer run",
    "just --dry-run clean", "just -l", "just --list", "just --summary", "just --show clean", "just -s clean",
    "just --help", "just --evaluate", "make --just-print c", "make --recon c", "make -p", "make --question c",
    "make --print-data-base", "make -f",
]  # fmt: skip


@pytest.fixture(scope="module")
def more(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("more")
    for name, text in MORE.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root


@pytest.mark.parametrize(("command", "lost"), MORE_ASKS.items())
def test_options_files_and_rules_are_read_as_their_tools_read_them(command, lost, more):
    assert [str(reason) for reason in analyze(command, more).deletions] == lost


@pytest.mark.parametrize("command", MORE_RUN)
def test_unreadable_scripts_other_packages_and_listings_run(command, more):
    verdict = analyze(command, more)
    assert (verdict.deletions, verdict.file_ops, verdict.interactive) == ([], [], []), command


@pytest.mark.parametrize("command", ["make clean-db", "make -C sub clean-db", "npm run reset-db", "just drop-db"])
def test_without_a_folder_a_script_asks_by_its_name(command):
    assert [str(r) for r in analyze(command).deletions] == [f"the {_kind(command)} {command.split()[-1]} {NAMED}"]


def _kind(command: str) -> str:
    return {"make": "make target", "npm": "package script", "just": "just recipe"}[command.split()[0]]


def test_composer_lines_and_a_package_s_folder_are_read_as_their_tools_read_them(tmp_path):
    composer = {"a": "@composer run-script b", "b": "rm -rf b-out", "c": ["rm -rf c1", 5], "post-a": "rm -rf post"}
    (tmp_path / "composer.json").write_text(json.dumps({"scripts": composer}))
    (tmp_path / "package.json").write_text(json.dumps({"scripts": {"drop": "rm -rf drop", "logs": "tail -f app.log"}}))
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub/package.json").write_text(json.dumps({"scripts": {"drop": "rm -rf sub-drop"}}))
    (tmp_path / "tail.sh").write_text("#!/bin/bash\ntail -f app.log\n")
    said = {
        "composer a": ["the package script a: the package script b: rm deletes files: b-out"],  # no post script
        "composer c": ["the package script c: rm deletes files: c1", "the package script c runs shell code computed "
                       "at run time"],
        "pnpm drop": ["the package script drop: rm deletes files: drop"],
        "pnpm -C sub drop": ["the package script drop: rm deletes files: sub-drop"],
        "pnpm --dir sub drop": ["the package script drop: rm deletes files: sub-drop"],
        "yarn --cwd sub drop": ["the package script drop: rm deletes files: sub-drop"],
        "pnpm --prefix sub -- drop": ["the package script drop: rm deletes files: sub-drop"],
        "pnpm --filter=sub drop": [f"the package script drop {NAMED}"],  # another package: unread
        "pnpm --filter sub drop": [f"the package script drop {NAMED}"],
        "pnpm -F sub drop": [f"the package script drop {NAMED}"],
        "yarn workspace sub drop": [f"the package script drop {NAMED}"],
        "yarn workspace sub run drop": [f"the package script drop {NAMED}"],
        "yarn workspace sub rimraf dist": ["rimraf deletes files: dist"],  # a program of that package
        "yarn workspace sub add rimraf": [],
        "pnpm -r drop": [f"the package script drop {NAMED}"],
        "npm --workspaces run drop": [f"the package script drop {NAMED}"],
        "bun x drop": [],  # bun's own command
        "npm --prefix sub": [],
    }  # fmt: skip
    assert {c: [str(r) for r in analyze(c, tmp_path).deletions] for c in said} == said
    assert [str(r) for r in analyze("npm run logs", tmp_path).interactive] == [
        "the package script logs: tail -f never ends: use Read to see the file"
    ]
    assert [str(r) for r in analyze("bash tail.sh", tmp_path).interactive] == [
        "the script tail.sh: tail -f never ends: use Read to see the file"
    ]


EDGES = {
    "package.json": json.dumps(
        {
            "scripts": {
                "test": "rm -rf coverage",
                "wipe": "rm -rf",
                "audit": "rm -rf a1",
                "workspace": "rm -rf a2",
                "dlx": "rm -rf a3",
                "clean": "rm -rf dist \u00e9",
            }
        }
    ).replace("\\u00e9", "\udcff"),
    "a=b/package.json": json.dumps({"scripts": {"clean": "rm -rf ab-out"}}),
    "list/package.json": json.dumps({"scripts": ["clean"]}),
    "composer.json": json.dumps({"scripts": {"update": "rm -rf up", "wipe": "rm -rf", "b": "rm -rf b", "posta": "x"}}),
    "makefile": "t:\n\trm -rf lower\n",
    "wide.mk": "all: "
    + " ".join(f"t{n}" for n in range(40))
    + "\n"
    + "".join(f"t{n}:\n\trm -rf o{n}\n" for n in range(40)),
    "auto.mk": "\t# a tab before any rule\nNAMES = $@ $< $^ $(INNER)\nINNER = inner\nV = 1\n\tstray\n"
    "two: p q\n\trm -f $(NAMES) $(NOPE)\n\tX=1 rm -rf x-out\nLOOP = $(LOOP)x\nloop:\n\trm -rf $(LOOP)\n"
    "cont:\n\trm -rf a \\\n\t  b\ndeep: long\nlong: tidy\n\trm -rf long\ntidy:\n\trm -rf .cache\n",
    "pattern.mk": "%.o: x.h\n\trm -rf src\nall:\n\techo\n",
    "j/.justfile": "clean:\n\trm -rf tabbed\n",
    "k/justfile": "  # stray\nversion := '1'\n    # stray too\nclean:\n    rm -rf k\n\n    rm -rf after-blank\n# note\n"
    "    rm -rf after-note\n    X=1 rm -rf x-out\nnope-free: sh missing\n    echo\nsh:\n    rm -rf sh-out\n"
    "py:\n    #!/usr/bin/env python3\n    print(1)\ntop: sh py\n    echo\nmany: one two\n    echo\n"
    "one: three\n    echo\n"
    "two:\n    rm -rf two-out\nthree:\n    rm -rf three-out\n"
    + "".join(f"c{n}: c{n + 1}\n    rm -rf c{n}\n" for n in range(40)),
    "e/justfile": "",
    "e/Makefile": "",
    "drop-db": "echo no shebang\n",
    "reset-db.awk": "#!/usr/bin/awk -f\n{print}\n",
    "drop.sh": "#!/bin/sh\necho hi\n",
    "run.py": "import os\nos.system('rm -rf py-out')\n",
}
EDGE_ASKS = {
    "npm t": ["the package script test: rm deletes files: coverage"],
    "npm tst": ["the package script test: rm deletes files: coverage"],
    "npm t extra": ["the package script test: rm deletes files: coverage extra"],
    "/usr/bin/npm run test": ["the package script test: rm deletes files: coverage"],
    "pnpm wipe dist": ["the package script wipe: rm deletes files: dist"],
    "npm run clean": ["the package script clean: rm deletes files: dist \ufffd"],  # bytes not UTF-8 replaced
    "npm --prefix=a=b run clean": ["the package script clean: rm deletes files: ab-out"],
    "npm --prefix sub --loglevel warn run clean": [],  # no sub/package.json: clean's name says nothing
    "npm run test --prefix": ["the package script test: rm deletes files: coverage"],  # no folder: this one
    "composer run-script update": ["the package script update: rm deletes files: up"],
    "composer run update": ["the package script update: rm deletes files: up"],
    "composer wipe dist": ["the package script wipe: rm deletes files: dist"],
    "composer run wipe dist": ["the package script wipe: rm deletes files: dist"],
    "composer b": ["the package script b: rm deletes files: b"],  # composer runs no pre or post script
    "make t": ["the make target t: rm deletes files: lower"],  # the makefile, lower case
    # the targets followed stop at 32, all included: each one reached is read
    "make -f wide.mk": [f"the make target t{n}: rm deletes files: o{n}" for n in range(31)],
    "make -f auto.mk two": [
        "the make target two: rm deletes files: two p p q inner",
        "the make target two: rm deletes files: x-out",
    ],
    "make -f auto.mk loop": ["the make target loop: rm deletes files: $(LOOP)xxxxxxxxx"],
    "make -f auto.mk cont": ["the make target cont: rm deletes files: a b"],
    "make -f auto.mk deep": [
        "the make target tidy: rm deletes files: .cache",
        "the make target long: rm deletes files: long",
    ],
    "make -f auto.mk tidy loop": [
        "the make target tidy: rm deletes files: .cache",
        "the make target loop: rm deletes files: $(LOOP)xxxxxxxxx",
    ],
    "make -f auto.mk nope tidy": ["the make target tidy: rm deletes files: .cache"],
    "make -j 2 -l 3 -f auto.mk tidy": ["the make target tidy: rm deletes files: .cache"],
    "make -f auto.mk NOPE=x=y two": [
        "the make target two: rm deletes files: two p p q inner x=y",
        "the make target two: rm deletes files: x-out",
    ],
    "just --justfile j/.justfile clean": [],  # just's own options are not read: its folder's justfile
    "rm -rf r; npm run reset-db": ["rm deletes files: r", f"the package script reset-db {NAMED}"],
    "rm -rf r; npm run typeorm -- schema:drop": [
        "rm deletes files: r",
        "typeorm drops the database's data — /undo cannot restore it",
    ],
    "rm -rf r; make db-reset": ["rm deletes files: r", f"the make target db-reset {NAMED}"],
    "rm -rf r; pnpm db:reset": ["rm deletes files: r", f"the package script db:reset {NAMED}"],
    "./drop-db": ["drop-db: its words say it destroys, and Narnat does not know what — /undo cannot restore it"],
    "./reset-db.awk": [
        "reset-db.awk: its words say it destroys, and Narnat does not know what — /undo cannot restore it"
    ],
    "python run.py": ["the script run.py: rm deletes files: py-out"],
}
EDGE_RUN = [
    "pnpm audit", "yarn workspace foo", "pnpm dlx foo", "npm --prefix list run clean", "make -Bn t",
    "make -f pattern.mk",
    "./drop.sh", "just --justfile e/justfile", "make -C e", "make -f e/Makefile",
]  # fmt: skip


@pytest.fixture(scope="module")
def edges(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("edges")
    for name, text in EDGES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(text.encode("utf-8", "surrogateescape"))
    return root


@pytest.mark.parametrize(("command", "lost"), EDGE_ASKS.items())
def test_each_form_of_a_tool_reads_the_script_it_runs(command, lost, edges):
    assert [str(reason) for reason in analyze(command, edges).deletions] == lost


@pytest.mark.parametrize("command", EDGE_RUN)
def test_a_tool_s_own_commands_rehearsals_and_empty_files_run(command, edges):
    verdict = analyze(command, edges)
    assert (verdict.deletions, verdict.file_ops, verdict.interactive) == ([], [], []), command


JUST_ASKS = {
    "just clean": [
        "the just recipe clean: rm deletes files: k",
        "the just recipe clean: rm deletes files: after-blank",
        "the just recipe clean: rm deletes files: after-note",
        "the just recipe clean: rm deletes files: x-out",
    ],
    "just nope sh": ["the just recipe sh: rm deletes files: sh-out"],  # every recipe named is read
    "just nope-free": ["the just recipe sh: rm deletes files: sh-out"],
    "just top": ["the just recipe sh: rm deletes files: sh-out"],
    "just many": [
        "the just recipe two: rm deletes files: two-out",
        "the just recipe three: rm deletes files: three-out",
    ],
    "just -q sh": ["the just recipe sh: rm deletes files: sh-out"],
    "just c0": [f"the just recipe c{n}: rm deletes files: c{n}" for n in range(32)],
    "rm -rf r; just drop-db": ["rm deletes files: r", f"the just recipe drop-db {NAMED}"],
}


@pytest.mark.parametrize(("command", "lost"), JUST_ASKS.items())
def test_a_justfile_s_recipes_are_read_as_just_reads_them(command, lost, edges):
    assert [str(reason) for reason in analyze(command, edges / "k").deletions] == lost


def test_a_script_file_is_read_only_from_a_known_folder(edges):
    assert analyze("./drop.sh").deletions == [
        "drop.sh: its words say it destroys, and Narnat does not know what — /undo cannot restore it"
    ]
    assert analyze("just clean", edges / "j").deletions == ["the just recipe clean: rm deletes files: tabbed"]


def test_a_chain_of_targets_deeper_than_narnat_follows_is_read_as_far_as_it_goes(tmp_path):
    # t0 needs t1 … needs t39, whose recipe runs first: the deepest targets are cut, the rest still read
    rules = "".join(f"t{n}: t{n + 1}\n\trm -rf out{n}\n" for n in range(39)) + "t39:\n\trm -rf out39\n"
    (tmp_path / "Makefile").write_text(rules)
    said = [str(reason) for reason in analyze("make t0", tmp_path).deletions]
    assert said == [f"the make target t{n}: rm deletes files: out{n}" for n in reversed(range(32))]
