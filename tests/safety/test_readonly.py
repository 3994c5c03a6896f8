"""Plan mode's judgment of a command: it only reads (it runs), or it may change something (it waits for the plan)."""

import pytest

from narnat_agent.safety import changes

READS = [
    "ls -la src", "git status && git diff HEAD~1 | head -50", "rg -n TODO src | wc -l", "find . -name '*.py'",
    "sed -n 1,20p setup.cfg", "cat \"$f\" 2>/dev/null", "git log --oneline -5", "git branch -a", "git stash list",
    "python --version", "cd src && ls", "command -v rg", "env", "sort names.txt | uniq -c", "awk '{print $1}' f",
    "grep -rn foo . > /dev/null", "echo done > /dev/stderr", "git -C sub show HEAD:README.md", "date +%F",
]  # fmt: skip
CHANGES = {
    "pytest -q": "pytest may change files",
    "echo hi > out.txt": "the redirection writes out.txt",
    "sed -i s/a/b/ f": "sed may change files",
    "find . -name '*.pyc' -delete": "find may change files",
    "git commit -am wip": "git commit may change files",
    "git branch -D old": "git branch may change files",
    "git stash": "git stash may change files",
    "git -c core.pager=x log": "git -c may change files",
    "python x.py": "python may change files",
    "npm install": "npm may change files",
    "sort -o out.txt in.txt": "sort may change files",
    "uniq in.txt out.txt": "uniq may change files",
    "env X=1 make": "env may change files",
    "$TOOL --check": "it runs what is computed at run time",
    "ls $(touch x)": "touch may change files",
    "awk '{print > \"o\"}' f": "awk may change files",
    "rm -rf build": "rm deletes files",
}


@pytest.mark.parametrize("command", READS)
def test_commands_that_only_read_run_in_plan_mode(command, tmp_path):
    assert changes(command, tmp_path) == []


@pytest.mark.parametrize(("command", "reason"), CHANGES.items())
def test_commands_that_may_change_something_say_why(command, reason, tmp_path):
    assert any(reason in said for said in changes(command, tmp_path)), changes(command, tmp_path)


# each reason whole: the program, the file or the doubt it names is what the person reads before approving
SAID_EXACTLY = {
    "git": ["git may change files"],
    "git -C sub": ["git -C may change files"],
    "git diff --output=x.patch": ["git diff may change files"],
    "git log --output x.log": ["git log may change files"],
    "git worktree": ["git worktree may change files"],
    "git stash list --format=%h": ["git stash may change files"],
    # the same subcommands given a name without a listing option create, set or add it
    "git branch feature": ["git branch may change files"],
    "git branch -v feature": ["git branch may change files"],
    "git tag v1.0": ["git tag may change files"],
    "git config user.name Ann": ["git config may change files"],
    "git remote add upstream https://example.org/r.git": ["git remote may change files"],
    "git stash push notes.txt": ["git stash may change files"],
    "git remote --format=x": ["git remote may change files"],
    "sed --in-place=.bak s/a/b/ f": ["sed may change files"],
    # a short option where sed, sort, tree and date take it too: -i with its suffix attached, -o or -s ending a cluster
    "sed -i.bak s/a/b/ f": ["sed may change files"],
    "sed -ni.orig s/a/b/p f": ["sed may change files"],
    "sort -uo out.txt in.txt": ["sort may change files"],
    "tree -fo tree.txt": ["tree may change files"],
    "date -us 12:00": ["date may change files"],
    # sed's w command and s///w write a file; a script or an awk program read from a file is not read here
    "sed -n '1,5w out.txt' f": ["sed may change files"],
    "sed -n '/^ERROR/w errors.log' app.log": ["sed may change files"],
    "sed 's/a/b/gw changed.txt' f": ["sed may change files"],
    "sed -e 's/a/b/' -e 'w copy.txt' f": ["sed may change files"],
    "sed -e'w copy.txt' f": ["sed may change files"],  # the script in -e's word
    "sed -f edits.sed f": ["sed may change files"],
    "sed --file=edits.sed f": ["sed may change files"],
    "awk -f prog.awk data.txt": ["awk may change files"],
    "gawk -i lib.awk '{print}' f": ["gawk may change files"],
    "gawk '{print > \"o\"}' f": ["gawk may change files"],
    "mawk '{print | \"sort\"}' f": ["mawk may change files"],
    "awk 'BEGIN { system(\"make\") }'": ["awk may change files"],
    'echo hi > "$out"': ["the redirection writes ?"],
    "echo done >> log.txt": ["the redirection writes log.txt"],
    "echo a > out.txt; echo b > out.txt": ["the redirection writes out.txt"],  # each reason once
    "make 2>> err.log": ["the redirection writes err.log", "make may change files"],
    'python "$script"': ["python runs code computed at run time", "it runs what is computed at run time"],
    "ls (": ["part of the command cannot be parsed (()", "part of the command cannot be read"],
    "echo hi > notes.txt": ["the redirection replaces notes.txt, which exists", "the redirection writes notes.txt"],
    # `version` alone prints it; with a word after it, npm and poetry bump the version in the project's files
    "npm version patch": ["npm may change files"],
    "poetry version minor": ["poetry may change files"],
}
READ_ONLY_FORMS = [
    "git --version", "git --no-pager log -3", "git -P log -3", "git -C sub --no-pager status",
    "git branch --format='%(refname:short)'", "git tag -l --format='%(refname)'", "git reflog",
    "env LANG=C", "command -V rg", "awk '{ getline line < \"other.txt\"; print line }' f", "gawk '{print $1}' f",
    "mawk -F: '{print $1}' /etc/passwd", "date -Is", "sort -rk2 -t, names.txt", "sed -n '/warning/p;/new w/p' log",
    "sed 's/w/W/g' f", "awk -F: '{print $1}' f", "tree -L 2 -I node_modules",
    # a listing given the names or patterns it lists: `git config --get` is the common way to read a setting
    "git config --get user.name", "git config --get-regexp '^remote\\.'", "git tag -l 'v1.*'",
    "git branch --list 'fix-*'", "git branch --contains HEAD", "git branch -a --merged main",
    "git remote get-url origin", "git remote show origin", "git stash show 'stash@{1}'", "git reflog show main",
]  # fmt: skip


@pytest.mark.parametrize(("command", "reasons"), SAID_EXACTLY.items())
def test_each_reason_names_what_may_change(command, reasons, tmp_path):
    (tmp_path / "notes.txt").write_text("kept\n")
    assert [str(reason) for reason in changes(command, tmp_path)] == reasons


@pytest.mark.parametrize("command", READ_ONLY_FORMS)
def test_read_only_forms_of_writing_programs_run(command, tmp_path):
    assert changes(command, tmp_path) == []
