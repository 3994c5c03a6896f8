"""Where an interpreter gets its code, option by option: every option the tables of code.py name (those that take a
value, those whose value is the code), each family's other names, and the forms that end the options. A case for
each, so that an option dropped from a table fails here."""

import shlex

import pytest

from narnat_agent.safety.code import interpreter_code

CODE = "print(1)"


@pytest.mark.parametrize(
    ("command", "where"),
    [
        # python: -c, also inside a cluster, and everything after it is the script's
        ("python3 -c 'print(1)'", ("code", CODE)),
        ("python3 -Bc 'print(1)'", ("code", CODE)),
        ("python3 -W ignore -c 'print(1)'", ("code", CODE)),
        ("python3 -X dev -c 'print(1)'", ("code", CODE)),
        ("python2 -Q new -c 'print(1)'", ("code", CODE)),
        ("python3 -c 'print(1)' -c 'print(2)'", ("code", CODE)),  # the second -c is an argument of the code
        ("python3 -m http.server", ("script", None)),
        ("python3 -Im pip list", ("script", None)),
        ("pypy3 -c 'print(1)'", ("code", CODE)),
        ("python3 app.py", ("script", None)),
        ("python3", ("stdin", None)),
        ("python3 -", ("stdin", None)),
        ("python3 /dev/stdin", ("stdin", None)),
        ("python3 -- app.py", ("script", None)),
        ("python3 -- -c 'print(1)'", ("script", None)),  # after --, -c names a script file
        ("python3 -- -", ("stdin", None)),
        ("python3 --version", ("none", None)),
        ("python3 -V", ("none", None)),
        ("python3 --help", ("none", None)),
        ("python3 -h", ("none", None)),
        ("python3 -c", ("code", "")),  # no code after -c: Python says so and runs nothing
        # node and its kin: -e/-p and their long names, attached with =
        ("node -e 'print(1)'", ("code", CODE)),
        ("node --eval 'print(1)'", ("code", CODE)),
        ("node --eval='print(1)'", ("code", CODE)),
        ("node --eval='let a=1'", ("code", "let a=1")),
        ("node --eval 'let a=1' --require=x", ("code", "let a=1")),
        ("node -p 'print(1)'", ("code", CODE)),
        ("node --print 'print(1)'", ("code", CODE)),
        ("nodejs -e 'print(1)'", ("code", CODE)),
        ("node -r dotenv/config -e 'print(1)'", ("code", CODE)),
        ("node --require dotenv/config app.js", ("script", None)),
        ("node --input-type module -e 'print(1)'", ("code", CODE)),
        ("node --import tsx app.ts", ("script", None)),
        ("node --loader ts-node/esm app.ts", ("script", None)),
        ("node -e 'print(1)' -e 'print(2)'", ("code", "print(1)\nprint(2)")),
        ("node --eval='print(1)' -e 'print(2)'", ("code", "print(1)\nprint(2)")),
        ("node --require=dotenv/config app.js", ("script", None)),
        ("bun -e 'print(1)'", ("code", CODE)),
        ("bun --eval 'print(1)'", ("code", CODE)),
        ("bun -p 'print(1)'", ("code", CODE)),
        ("bun --print 'print(1)'", ("code", CODE)),
        ("deno eval 'print(1)'", ("code", CODE)),
        ("deno eval", ("code", "")),
        ("deno run main.ts", ("script", None)),
        # perl and ruby: -e and -E, at the end of a cluster too
        ("perl -e 'print(1)'", ("code", CODE)),
        ("perl -E 'print(1)'", ("code", CODE)),
        ("perl -lne 'print(1)' a.txt", ("code", CODE)),
        ("perl -I lib -M strict -e 'print(1)'", ("code", CODE)),
        ("perl -m strict -x -e 'print(1)'", ("code", CODE)),  # -x takes the next word
        ("perl -w script.pl", ("script", None)),
        ("ruby -e 'print(1)'", ("code", CODE)),
        ("ruby -ne 'print(1)'", ("code", CODE)),
        ("ruby -r json -I lib -e 'print(1)'", ("code", CODE)),
        ("ruby -C dir -E utf-8 -e 'print(1)'", ("code", CODE)),
        ("ruby -w app.rb", ("script", None)),
        # php, lua, R
        ("php -r 'print(1);'", ("code", "print(1);")),
        ("php8.2 -d memory_limit=1G -r 'print(1);'", ("code", "print(1);")),
        ("php -c php.ini -z ext.so -r 'print(1);'", ("code", "print(1);")),
        ("php -v", ("none", None)),
        ("lua -e 'print(1)'", ("code", CODE)),
        ("lua5.4 -e 'print(1)'", ("code", CODE)),
        ("Rscript -e 'print(1)'", ("code", CODE)),
        # awk: the first word is the program unless -f or --file gave one
        ("awk '{print}' a.txt", ("code", "{print}")),
        ("gawk -F : '{print}' a.txt", ("code", "{print}")),
        ("awk --field-separator : '{print}' a.txt", ("code", "{print}")),
        ("awk -v n=1 '{print}' a.txt", ("code", "{print}")),
        ("awk --assign n=1 '{print}' a.txt", ("code", "{print}")),
        ("gawk -i inplace '{print}' a.txt", ("code", "{print}")),
        ("gawk --include lib.awk '{print}'", ("code", "{print}")),
        ("gawk -l ordchr '{print}'", ("code", "{print}")),
        ("gawk --load ordchr '{print}'", ("code", "{print}")),
        ("gawk -e '{print}' a.txt", ("code", "{print}")),
        ("gawk --source '{print}' a.txt", ("code", "{print}")),
        ("awk -f prog.awk a.txt", ("script", None)),
        ("awk --file prog.awk a.txt", ("script", None)),
        ("awk --file=prog.awk a.txt", ("script", None)),
        ("awk --version", ("code", "")),  # awk and sed have no "runs nothing" form: the program is empty
        ("mawk -- '{print}' a.txt", ("code", "{print}")),
        # sed
        ("sed s/a/b/ a.txt", ("code", "s/a/b/")),
        ("sed -e s/a/b/ a.txt", ("code", "s/a/b/")),
        ("sed --expression s/a/b/ a.txt", ("code", "s/a/b/")),
        ("sed --expression=s/a/b/ a.txt", ("code", "s/a/b/")),
        ("gsed -l 80 s/a/b/ a.txt", ("code", "s/a/b/")),
        ("sed --line-length 80 s/a/b/ a.txt", ("code", "s/a/b/")),
        ("sed -f prog.sed a.txt", ("script", None)),
        ("sed --file prog.sed a.txt", ("script", None)),
        ("sed --version", ("code", "")),
    ],
)
def test_where_each_interpreter_gets_its_code(command, where):
    argv = shlex.split(command)
    assert interpreter_code(argv[0], argv) == where


@pytest.mark.parametrize(
    ("argv", "where"),
    [
        (["python3", "-c", None], ("code", None)),  # code computed at run time
        (["node", "-e", "print(1)", "-e", None], ("code", None)),
        (["python3", None], ("code", None)),  # `python3 <(curl …)`
        (["perl", None, "-e", "x"], ("code", None)),  # a computed word ends the options
    ],
)
def test_code_computed_at_run_time_is_unknown(argv, where):
    assert interpreter_code(argv[0], argv) == where


@pytest.mark.parametrize(
    ("command", "where"),
    [
        ("php -v", ("none", None)),
        ("node -v", ("none", None)),
        ("perl -v", ("none", None)),
        ("python3 -v", ("stdin", None)),  # verbose
        ("ruby -v -e 'print(1)'", ("code", CODE)),  # the version, then the code
        ("ruby -w -v -e 'print(1)'", ("code", CODE)),
        ("lua -v -e 'print(1)'", ("code", CODE)),
    ],
)
def test_minus_v_ends_the_run_only_where_it_only_prints_the_version(command, where):
    argv = shlex.split(command)
    assert interpreter_code(argv[0], argv) == where
