"""How a wrapper's options are read (`sudo -u root`, `env -S '…'`, `nice -n5`): where the wrapped command starts,
which options hand over shell text, and — after an option the table does not know — the later words that name a
program that can delete, checked on their own. A case for each shape of option."""

import pytest

from narnat_agent.safety import analyze

RM = ["rm deletes files: build"]


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        # an option the table lacks: the later word naming a deleter is checked, wherever the command starts
        ("sudo --weird-flag echo rm -rf build", RM),
        ("sudo --weird-flag -uroot echo rm -rf build", RM),  # a known option after it does not end the doubt
        ("sudo --weird-flag echo nice rm -rf build", RM),  # a wrapper is no start: the command after it is
        ("sudo --askpass-file echo /bin/rm -rf build", RM),  # a deleter named by its path
        ("sudo --weird-flag echo $CMD rm -rf build", RM),  # a computed word starts nothing
        # options the table knows: the command starts after them, and the words after it are its arguments
        ("sudo -uroot echo rm -rf build", []),
        ("sudo --preserve-env=PATH echo rm -rf build", []),
        ("sudo --chdir=/tmp echo rm -rf build", []),
        ("sudo -u root -E rm -rf build", RM),
        ("sudo -- rm -rf build", RM),
        # options whose value is shell text
        ('env -S "rm -rf build"', RM),
        ('env --split-string="rm -rf build=old"', ["rm deletes files: build=old"]),
        ('env -u HOME -S "rm -rf build"', RM),
        ('env -S "$CMD"', ["env runs shell code computed at run time"]),
        ("env -S", []),
        ('flock /tmp/lock -c "rm -rf build"', RM),
        ('su - root -c "rm -rf build"', RM),
        # env's assignments come before the command
        ("env FOO=1 BAR=2 rm -rf build", RM),
        ("env FOO=1 $CMD", ["env gets a word computed at run time"]),
    ],
)
def test_where_the_wrapped_command_starts(command, lost):
    assert list(dict.fromkeys(analyze(command).deletions)) == lost
