"""What an edit in place, a new key or an Ansible module loses, said exactly: which lines of which existing file,
which key, what is removed on the hosts; and the forms that lose nothing say nothing."""

from pathlib import Path

import pytest

from narnat_agent.safety import analyze
from tests.tools.syntax_corpus import case_id

GONE = " — /undo cannot restore it"
REMOTE = " — /undo restores only the project's files (on another machine — /undo cannot restore it)"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / ".env").write_text("API_KEY=sk_live_x\n")
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "app.log").write_text("one\n")
    (tmp_path / "id_test").write_text("key\n")
    return tmp_path


SAID = [
    # sed: lines deleted, by number or by pattern, in every spelling of -i and of the script
    ("sed -i -e '$d' logs/app.log", "sed -i deletes lines $ of logs/app.log"),
    ("sed -n -i '5d' .env", "sed -i deletes lines 5 of .env"),
    ("sed --in-place=.bak '3d' .env", "sed -i deletes lines 3 of .env"),
    ("sed -i -l 80 '1d' .env", "sed -i deletes lines 1 of .env"),
    ("sed -Ei '/^SECRET=/d' .env", "sed -i deletes the lines matching /^SECRET=/ from .env"),  # -i ending a cluster
    ("sed -ni.bak '2d' .env", "sed -i deletes lines 2 of .env"),  # … with its backup's suffix
    ("sed -i --expression '1d' .env", "sed -i deletes lines 1 of .env"),
    ("sed -i --expression='1d' .env", "sed -i deletes lines 1 of .env"),  # the script in the option's word
    ("sed -i -e'/^API_KEY/d' .env", "sed -i deletes the lines matching /^API_KEY/ from .env"),
    ("sed -i -e 's/a/b/' --expression='2d' .env", "sed -i deletes lines 2 of .env"),
    ("gsed -i '1d' .env", "gsed -i deletes lines 1 of .env"),
    ("/usr/bin/sed -i 1d .env", "sed -i deletes lines 1 of .env"),
    ("sed -i '2 , $ d' .env", "sed -i deletes lines 2 , $ of .env"),
    ("sed -i '/^#/d;s/a/b/' .env", "sed -i deletes the lines matching /^#/ from .env"),
    ("sed -i 's/a/b/\n/x/d' .env", "sed -i deletes the lines matching /x/ from .env"),
    ("sed -i '1,/end/d' .env", "sed -i deletes the lines matching 1,/end/ from .env"),
    # only the files that exist are named
    ("sed -i -e 's/a/b/' -e '/x/,/y/d' logs/app.log .env missing", "sed -i deletes the lines matching /x/,/y/ from "
     "logs/app.log .env"),
    # s with an empty replacement, or one that keeps only what comes before the .* it ends with
    ("sed -E -i 's|^API_KEY=.*|API_KEY=|' .env", "sed -i blanks the text matching /^API_KEY=.*/ in .env"),
    ("sed -i 's#a##g' .env", "sed -i blanks the text matching /a/ in .env"),
    ("sed -i 's/^KEY=.*$/KEY=/' .env", "sed -i blanks the text matching /^KEY=.*$/ in .env"),
    ("sed -i 's/a/b/;s:x::' .env", "sed -i blanks the text matching /x/ in .env"),
    ("sed -i 's/\\/a//2' .env", "sed -i blanks the text matching /\\/a/ in .env"),
    # perl -i with -p and code
    ("perl -pi -e 's/^API_KEY=.*/API_KEY=/' .env", "perl -i blanks the text matching /^API_KEY=.*/ in .env"),
    ("perl -i -pe '1d' .env", "perl -i deletes lines 1 of .env"),
    ("perl -pi -E '3d' .env", "perl -i deletes lines 3 of .env"),
    ("perl -i.bak -p -e '3d' .env", "perl -i deletes lines 3 of .env"),
    # ssh-keygen over a key that exists, or told yes
    ("ssh-keygen -t ed25519 -f id_test -N ''", "ssh-keygen replaces the key id_test, which exists" + GONE),
    ("ssh-keygen -fid_test", "ssh-keygen replaces the key id_test, which exists" + GONE),
    ("ssh-keygen -f new -N '' <<< y", "ssh-keygen is told yes to replacing the key new if it exists" + GONE),
    ("ssh-keygen -f new -N '' <<< Yes", "ssh-keygen is told yes to replacing the key new if it exists" + GONE),
    ("yes | ssh-keygen -f new", "ssh-keygen is told yes to replacing the key new if it exists" + GONE),
    ("echo y | ssh-keygen -f new", "ssh-keygen is told yes to replacing the key new if it exists" + GONE),
    # ansible: state=absent removes, on every host; the command modules run their arguments there
    ("ansible all -m file -a 'path=/tmp/x state=absent'", "ansible's file module removes path=/tmp/x on the hosts "
     "it reaches" + GONE),
    ("ansible all -m apt -a 'name=nginx state = absent'", "ansible's apt module removes name=nginx on the hosts it "
     "reaches" + GONE),
    ("ansible all --module-name=user --args='name=bob state=absent'", "ansible's user module removes name=bob on the "
     "hosts it reaches" + GONE),
    ("ansible all --module-name user --args 'name=bob state=absent'", "ansible's user module removes name=bob on the "
     "hosts it reaches" + GONE),
    ("ansible all -m file -a 'state=absent'", "ansible's file module removes file on the hosts it reaches" + GONE),
    ("ansible all -a 'rm -rf /tmp/x'", "rm deletes files: /tmp/x" + REMOTE),
    ("ansible all --args 'rm -rf /x'", "rm deletes files: /x" + REMOTE),
    ("ansible all -m shell -a 'rm -rf /var/x'", "rm deletes files: /var/x" + REMOTE),
    ("ansible all -i hosts -m ansible.builtin.shell -a 'rm -rf /srv'", "rm deletes files: /srv" + REMOTE),
    ("ansible all -m raw -a \"$CMD\"", "ansible runs shell code computed at run time"),
]  # fmt: skip


@pytest.mark.parametrize(("command", "said"), SAID, ids=[case_id(c) for c, _ in SAID])
def test_what_an_edit_in_place_a_new_key_or_an_ansible_module_loses_is_said(command, said, project):
    assert analyze(command, project).deletions == [said]


QUIET = [
    "sed -i 's/a/b/' .env",  # an edit: Edit's job, refused as such
    "sed -i 's/a.*/b/' .env",  # the replacement keeps nothing of the pattern
    "sed -i 's/^K=.*/J=/' .env",
    "sed -i '1,20d' missing.log",
    "sed '1d' .env",  # not in place: printed
    "sed -f script.sed -i .env",
    "sed -i '1d'",
    "perl -pe 's/a//' .env",  # not in place
    "perl -i -e 's/a//' .env",  # without -p nothing is printed back
    "perl -pi -e",
    "perl -pi -e 's/a/b/' .env",
    "ssh-keygen -f new <<< n",
    "ssh-keygen -f new -N ''",
    "ssh-keygen -lf id_test",
    "ssh-keygen -y -f id_test",
    "ssh-keygen -p -f id_test",
    "ssh-keygen --help -f id_test",  # an option it does not know: it prints its usage
    "ssh-keygen -? -f id_test",
    "ssh-keygen -f",
    "ansible all -m ping",
    "ansible all -m copy -a 'src=a dest=b'",
    "ansible all -m command",
    "ansible all -m file -a 'path=/x state=absentee'",
]


@pytest.mark.parametrize("command", QUIET, ids=[case_id(c) for c in QUIET])
def test_edits_keys_and_modules_that_lose_nothing_say_nothing(command, project):
    assert analyze(command, project).deletions == []


def test_a_key_named_from_home_is_looked_for_in_the_home_the_command_runs_with(project, tmp_path):
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    (home / ".ssh" / "id_ed25519").write_text("key\n")
    said = analyze("ssh-keygen -f ~/.ssh/id_ed25519 -N ''", project, env={"HOME": str(home)}).deletions
    assert said == ["ssh-keygen replaces the key ~/.ssh/id_ed25519, which exists" + GONE]
    assert analyze("ssh-keygen -f ~/.ssh/other -N ''", project, env={"HOME": str(home)}).deletions == []
