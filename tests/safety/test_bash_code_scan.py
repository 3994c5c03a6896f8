"""What the code inside a shell command does (code.py's scan and written): awk's system() and pipes, the options that
start the code (python -Bc, perl -lne, ruby -ne), calls that delete or empty files, eval'd literals, the text handed to
a shell (subprocess, spawn, Open3, backticks, qx, %x, triple-quoted strings), lines that only name a deletion function
as data, and the files the code writes whole. Each case is the exact verdict: the reasons asked, or none."""

import shlex

import pytest

from narnat_agent.safety import analyze
from narnat_agent.safety.code import interpreter_code, written

PIPES_TO_SHELL = ["awk pipes text into a shell"]
RM_BUILD = ["rm deletes files: build"]


@pytest.mark.parametrize(
    ("command", "reasons"),
    [
        # a literal command is checked as shell text, its \" unescaped
        ('awk \'{system("rm -rf \\"old build\\"")}\' dirs.txt', ["rm deletes files: old build"]),
        (
            'awk \'END {system("rm -f build.lock"); system("rm -f deploy.lock")}\' /dev/null',
            ["rm deletes files: build.lock", "rm deletes files: deploy.lock"],
        ),
        ('awk \'{system("rm -f " $1 ".o")}\' objs.txt', ["awk's system() runs a command built at run time"]),
        # printed into a shell, or into a command checked as shell text
        ("awk '{print | \"sh\"}' cmds.txt", PIPES_TO_SHELL),
        ("awk '{print | \"sh -s\"}' cmds.txt", PIPES_TO_SHELL),
        ('awk \'{print "mv", $1, $2 | "bash -x"}\' renames.txt', PIPES_TO_SHELL),
        ("awk '{print $2 | \"xargs rm -f\"}' files.txt", ["rm deletes files: (no operands)"]),
        ("awk '{print | \"sort -u\"}' words.txt", []),
        ('awk \'{print $1 | "sort -u"} END {system("rm -f seen.tmp")}\' log.txt', ["rm deletes files: seen.tmp"]),
        # a command read from with getline
        ("awk 'BEGIN {\"find . -name *.pyc -delete\" | getline n}'", ["find -delete deletes the files it finds"]),
        ("awk 'BEGIN {\"date +%s\" | getline now; print now}'", []),
    ],
    ids=[
        "system-escaped-quotes",
        "system-twice",
        "system-built",
        "pipe-sh",
        "pipe-sh-s",
        "pipe-bash-x",
        "pipe-xargs-rm",
        "pipe-sort",
        "pipe-then-system",
        "getline-find-delete",
        "getline-date",
    ],
)
def test_awk_commands_are_read_from_system_pipes_and_getline(command, reasons):
    assert analyze(command).deletions == reasons


DELETES = "calls a file-deletion function"


@pytest.mark.parametrize(
    ("command", "reasons"),
    [
        ("python3 -Bc \"import shutil; shutil.rmtree('build')\"", [f"the python3 code {DELETES}"]),
        (
            "python3 -Wignore::DeprecationWarning -c \"import shutil; shutil.rmtree('build')\"",
            [f"the python3 code {DELETES}"],
        ),
        ("find . -name '*.bak' | perl -lne 'unlink'", [f"the perl code {DELETES}"]),
        ("find . -name '*.bak' | perl -ne 'chomp; unlink'", [f"the perl code {DELETES}"]),
        ("perl -lE 'unlink glob \"*.bak\"'", [f"the perl code {DELETES}"]),
        ("find . -name '*.orig' | ruby -ne 'File.delete($_.chomp)'", [f"the ruby code {DELETES}"]),
        # ruby's -E takes an encoding: the code is still the one piped in
        ("echo 'File.delete(\"old.log\")' | ruby -E UTF-8", [f"the ruby code {DELETES}"]),
    ],
    ids=["python-Bc", "python-W-attached", "perl-lne", "perl-ne", "perl-lE", "ruby-ne", "ruby-E-value"],
)
def test_code_is_found_after_clustered_options(command, reasons):
    assert analyze(command).deletions == reasons


def test_rubys_minus_e_capital_takes_a_value_and_starts_no_code():
    argv = shlex.split("ruby -E UTF-8 app.rb")
    assert interpreter_code(argv[0], argv) == ("script", None)


EMPTIES = "empties a file"


@pytest.mark.parametrize(
    ("command", "reasons"),
    [
        ("python3 -c \"open('app.log', 'w').close()\"", [f"the python3 code {EMPTIES}"]),
        ("python3 -c \"from pathlib import Path; Path('app.log').write_text('')\"", [f"the python3 code {EMPTIES}"]),
        ('php -r \'file_put_contents("debug.log", "");\'', [f"the php code {EMPTIES}"]),
        # opened to read, or written with text: nothing is emptied
        ("python3 -c \"import json; json.load(open('package.json'))\"", []),
        ('node -e \'require("fs").writeFileSync("out.txt", "hello")\'', []),
        # a literal handed to eval or exec is code all the same
        ("python3 -c \"eval(\\\"__import__('shutil').rmtree('build')\\\")\"", [f"the python3 code {DELETES}"]),
        ('python3 -c "exec(\\"import os; os.system(\'rm -rf build\')\\")"', ["rm deletes files: build"]),
        # and one handed to new Function; compile() only compiles it, re.compile a pattern
        ("""node -e 'new Function("require(\\"fs\\").rmSync(\\"dist\\")")()'""", [f"the node code {DELETES}"]),
        ("""python3 -c 'c = compile("import shutil; shutil.rmtree(\\"x\\")", "<s>", "exec")'""", []),
        ("""python3 -c 'exec(compile(source, "<s>", "exec"))'""", ["the python3 code runs code it builds at run time"]),
        ("""python3 -c 'import re; p = re.compile(r"os.remove\\(")'""", []),
        ("""python3 -c 'import re; p = re.compile(r"a+")'""", []),
        ("""node -e 'new Function("return 1")()'""", []),
    ],
    ids=[
        "open-w",
        "write-text-empty",
        "php-put-empty",
        "open-read",
        "node-write-text",
        "eval-literal",
        "exec-system",
        "function-literal",
        "compile-literal",
        "exec-compiled",
        "re-compile-deletion-name",
        "re-compile-raw",
        "function-plain",
    ],
)
def test_code_that_deletes_or_empties_files(command, reasons):
    assert analyze(command).deletions == reasons


@pytest.mark.parametrize(
    "command",
    [
        # "remove" is data here, on its own line: the call before it takes no deletion function by name
        "\n".join(
            [
                "python3 -c '",
                "import sys",
                "COMMANDS = (",
                '    "remove",',
                '    "install",',
                ")",
                "sys.exit(sys.argv[1] not in COMMANDS)",
                "' remove",
            ]
        ),
        "\n".join(
            [
                "python3 -c '",
                "import argparse",
                "sub = argparse.ArgumentParser().add_subparsers()",
                "sub.add_parser(",
                '    "remove",',
                '    help="drop a package",',
                ")",
                "'",
            ]
        ),
    ],
    ids=["tuple-of-names", "argparse-subcommand"],
)
def test_a_deletion_name_on_a_line_of_its_own_is_data(command):
    assert analyze(command).deletions == []


@pytest.mark.parametrize(
    ("command", "reasons"),
    [
        # shell-outs: every literal of the code is shell text
        (
            'node -e \'require("child_process").spawnSync("sh", ["-c", "rm -rf dist"], {stdio: "inherit"})\'',
            ["rm deletes files: dist"],
        ),
        ("ruby -ropen3 -e 'out, status = Open3.capture2e(\"rm -rf tmp/cache\")'", ["rm deletes files: tmp/cache"]),
        ("ruby -ropen3 -e 'Open3.pipeline(\"rm -rf tmp/cache\")'", ["rm deletes files: tmp/cache"]),
        ("ruby -e 'system(\"bundle install\") && `rm -rf tmp/cache`'", ["rm deletes files: tmp/cache"]),
        # backticks, qx and %x run a shell, whatever else the code does
        ("perl -e 'print `git clean -fdx`'", ["git clean -x deletes untracked files and those .gitignore names"]),
        ("ruby -e 'puts %x(git clean -fdx)'", ["git clean -x deletes untracked files and those .gitignore names"]),
        ("ruby -e 'puts %x{rm -rf tmp/cache}'", ["rm deletes files: tmp/cache"]),
        ("perl -e 'print qx/rm -rf build/'", ["rm deletes files: build"]),
        ("perl -e 'print qx!rm -rf build!'", ["rm deletes files: build"]),
        # a template literal handed to child_process.exec is a command, not code built at run time
        ("node -e 'require(\"child_process\").exec(`git status`, (e, out) => console.log(out))'", []),
        # triple-quoted strings, without their quotes
        ("python3 -c \"import subprocess; subprocess.run('''rm -rf build''', shell=True)\"", RM_BUILD),
        ('python3 -c \'import subprocess; subprocess.run("""rm -rf build""", shell=True)\'', RM_BUILD),
        ("python3 -c \"import os; os.system('''(cd build && rm -rf *)''')\"", ["rm deletes files: *"]),
        ('python3 -c \'import os; os.system("""# rm -rf build is slow\nmake clean""")\'', []),
        ("python3 -c \"import os; os.system('''# rm -rf build is slow\nmake clean''')\"", []),
    ],
    ids=[
        "node-spawnSync",
        "ruby-capture2e",
        "ruby-pipeline",
        "ruby-system-and-backticks",
        "perl-backticks",
        "ruby-percent-x-parens",
        "ruby-percent-x-braces",
        "perl-qx-slashes",
        "perl-qx-bangs",
        "node-exec-template",
        "python-triple-single",
        "python-triple-double",
        "python-triple-subshell",
        "python-triple-double-comment",
        "python-triple-single-comment",
    ],
)
def test_text_handed_to_a_shell_is_checked_as_shell_text(command, reasons):
    assert analyze(command).deletions == reasons


@pytest.mark.parametrize(
    ("code", "files"),
    [
        ("open('out.txt', 'w').write(data)", ["out.txt"]),
        ("Path('out.txt').write_text(data)", ["out.txt"]),
        ('fs.writeFileSync("out.txt", data)', ["out.txt"]),
        ("file_put_contents('out.txt', $data);", ["out.txt"]),
        ("json.load(open('out.txt'))", []),
    ],
    ids=["python-open-w", "pathlib-write-text", "node-write-file-sync", "php-put-contents", "open-read"],
)
def test_the_files_a_program_writes_whole(code, files):
    assert written(code) == files


@pytest.mark.parametrize(
    "command",
    [
        "python3 -c \"open('out.txt', 'w').write('x')\"",
        "python3 -c \"from pathlib import Path; Path('out.txt').write_text('x')\"",
        'node -e \'require("fs").writeFileSync("out.txt", "x")\'',
    ],
    ids=["python-open-w", "pathlib-write-text", "node-write-file-sync"],
)
def test_code_that_replaces_an_existing_file_asks(command, tmp_path):
    (tmp_path / "out.txt").write_text("kept\n")
    language = command.split()[0]
    assert analyze(command, tmp_path).deletions == [f"the {language} code replaces out.txt, which exists"]


@pytest.mark.parametrize(
    ("command", "reasons"),
    [
        ("sed 's/x/rm -rf build/e' a.txt", ["sed's e command runs the text as a shell command"]),
        ("sed 's/x/rm -rf build/ge' a.txt", ["sed's e command runs the text as a shell command"]),  # among others
        ("sed 's/x/y/eg' a.txt", ["sed's e command runs the text as a shell command"]),
        ("sed 's|x|rm -rf build|2e' a.txt", ["sed's e command runs the text as a shell command"]),
        ("sed -n '/^rm/e' a.txt", ["sed's e command runs the text as a shell command"]),  # the e command itself
        ("sed 's/e/E/g' a.txt", []),  # an e in the pattern or the text is no flag
    ],
)
def test_seds_e_flag_is_seen_wherever_it_stands_among_the_flags(command, reasons):
    assert analyze(command).deletions == reasons
