"""Every spelling the refusal rules name, a case each: a program's other names, each option that makes a command a
file operation or a wait for a person, and the option that settles it so that the command runs. A name or option
dropped from a rule fails its case here."""

import pytest

from narnat_agent.safety import analyze

READ = "reading files with {}: use Read (offset/limit for a part)"
LINES = "printing lines with {}: use Read with offset and limit"
SEARCH = "searching files with {}: use Grep"
SEARCH_ANY = "searching with {}: use Grep (or Glob for file names)"
FIND = "finding files with {}: use Glob (names) or Grep (contents)"
TREE = "listing a tree with ls: use Glob"
FOLLOWS = "tail -f never ends: use Read to see the file"
LAST = "reading files with tail: use Read (offset=-N for the last N lines)"


@pytest.mark.parametrize(
    ("command", "tool"),
    [
        ("batcat README.md", READ.format("batcat")),
        ("cat -", None),  # standard input, which is empty under Bash
        ("cat a.txt > /dev/null", READ.format("cat")),
        ("cat a.txt >> /dev/stderr", READ.format("cat")),
        ("cat a.txt >> all.txt", None),  # appending one file to another is plumbing
        ("gsed -i s/a/b/ a.txt", "editing files with sed -i: use Edit"),
        ("gsed -n 1,5p a.txt", LINES.format("sed -n")),
        ("gawk -i inplace '{print}' a.txt", "editing files with awk -i inplace: use Edit"),
        ("gawk 'NR==5' a.txt", LINES.format("gawk")),
        ("mawk 'NR>=2 && NR<=4' a.txt", LINES.format("mawk")),
        ("awk 'NR==5'", None),  # no file: it reads the empty standard input
        ('awk "$program" a.txt', None),  # the program is known only when it runs
        ("tail --follow app.log", FOLLOWS),
        ("tail --follow=name app.log", FOLLOWS),
        ("tail -fn 20 app.log", FOLLOWS),
        ("tail -Fn 20 app.log > out.txt", FOLLOWS),  # it never ends, wherever its output goes
        ("tail -5f app.log | python3 watch.py", FOLLOWS),
        ("tail -qF a.log b.log", FOLLOWS),
        ("tail -n 5 app.log > out.txt", None),
        ("tail -3 app.log", LAST),  # the last lines of a growing log: its length is unknown to count an offset from
        ("tail -n 3 app.log", LAST),
        ("tail app.log", LAST),
        ("tail -n +20 app.py", READ.format("tail")),  # from line 20 on: a plain offset
        ("tail -n+20 app.py", READ.format("tail")),
        ("tail --lines=+20 app.py", READ.format("tail")),
        ("fgrep TODO a.txt", SEARCH.format("fgrep")),
        ("grep -r TODO", SEARCH.format("grep")),
        ("grep -R TODO", SEARCH.format("grep")),
        ("grep --recursive TODO", SEARCH.format("grep")),
        ("grep -e TODO a.txt", SEARCH.format("grep")),
        ("grep -e TODO", None),  # no file: standard input
        ("grep -f patterns.txt", None),
        ("grep --regexp TODO", None),
        ("grep --file patterns.txt", None),
        ("grep TODO -", None),
        ("grep -ie TODO", None),
        ("grep -A 3 TODO", None),  # 3 is the value of -A, TODO the pattern
        ("grep -A 3 TODO a.txt", SEARCH.format("grep")),
        ("grep -eTODO a.txt", SEARCH.format("grep")),
        ("grep --regexp=TODO a.txt", SEARCH.format("grep")),
        ("grep --include '*.py' TODO", None),
        ("grep --binary-files text TODO", None),
        ("grep --binary-files text TODO a.txt", SEARCH.format("grep")),
        ("grep -w -- -v a.txt", SEARCH.format("grep")),  # after --, -v is the pattern
        ("grep -e TODO -- a.txt", SEARCH.format("grep")),
        ("ack TODO", SEARCH_ANY.format("ack")),
        ("ripgrep TODO", SEARCH_ANY.format("ripgrep")),
        ("fdfind '*.py'", FIND.format("fdfind")),
        ("ls --recursive src", TREE),
        ("find . -name '*.pyc' -ok rm {} ;", None),  # find that acts is not a search
        ("find . -name '*.tmp' -okdir rm {} ;", None),
        ("find . -name '*.py' -fprint list.txt", None),
        ("find . -name '*.py' -fls list.txt", None),
    ],
)
def test_each_file_operation_form_and_its_near_forms(command, tool):
    assert analyze(command).file_ops == ([tool] if tool else []), command


WAITS = "{} waits for input: pass code with -c/-e, a script file, or feed it on stdin"
EDITOR = "{} is an interactive editor: use Edit or Write"
TERMINAL = "{} needs a terminal: run the command directly"
FZF = "fzf needs a terminal: drop it (pipe output directly) or use a non-interactive form"
IT = "it waits for a terminal: drop -it (or run the command non-interactively)"
PATCH = "git {} -p/-i asks questions: name the paths instead"


@pytest.mark.parametrize(
    ("command", "waits"),
    [
        ("ftp example.com", WAITS.format("ftp")),
        ("python3 --interactive app.py", WAITS.format("python3")),
        ("php -a index.php", WAITS.format("php")),
        ("php index.php", None),
        ("redis-cli -a s3cret", WAITS.format("redis-cli")),
        ("redis-cli -u redis://localhost:6379", WAITS.format("redis-cli")),
        ("redis-cli --user admin --pass s3cret", WAITS.format("redis-cli")),
        ("redis-cli -a s3cret ping", None),
        ("ssh build", WAITS.format("ssh")),
        ("ssh build uptime", None),
        ("ssh -o BatchMode=yes build", WAITS.format("ssh")),  # each option's value is no command
        ("ssh -l admin build", WAITS.format("ssh")),
        ("ssh -F ssh.conf build", WAITS.format("ssh")),
        ("ssh -J bastion build", WAITS.format("ssh")),
        ("ssh -L 8080:localhost:80 build", WAITS.format("ssh")),
        ("ssh -R 9000:localhost:9000 build", WAITS.format("ssh")),
        ("ssh -D 1080 build", WAITS.format("ssh")),
        ("ssh -p 2222 -i key.pem build", WAITS.format("ssh")),
        ("ssh -o BatchMode=yes build uptime", None),
        ("rails dbconsole", WAITS.format("rails")),
        ("rails db", WAITS.format("rails")),
        ("rails db:migrate", None),
        ("rails console --sandbox", WAITS.format("rails")),
        ("rails runner 'puts 1' console", None),  # only the first word names the subcommand
        ("python manage.py shell_plus", WAITS.format("python")),
        ("emacs --batch -l build.el", None),
        ("emacs -batch -f batch-byte-compile init.el", None),
        ("emacs --script build.el", None),
        ("ex -s config.txt", None),
        ("vim -es -c wq a.txt", None),
        ("vim -Es -c wq a.txt", None),
        ("vim a.txt", EDITOR.format("vim")),
        ("fzf -f main", None),
        ("fzf --filter main", None),
        ("sk -f main", None),
        ("fzf", FZF),
        ("tmux ls", None),
        ("tmux list-sessions", None),
        ("screen -ls", None),
        ("tmux kill-server", None),
        ("tmux kill-session -t build", None),
        ("tmux new -s build", TERMINAL.format("tmux")),
        ("top -bn1", None),
        ("top -n1 -b", None),
        ("top --batch -n 1", None),
        ("top -d 1", "top is interactive: use top -bn1"),
        ("echo ls | docker exec -it web sh", None),  # its input is given
        ("docker exec -it web sh", IT),
        ("docker run --interactive -t ubuntu", IT),
        ("docker run --stdin -t ubuntu", IT),
        ("docker run -dit ubuntu", None),  # detached
        ("docker run -it -e TERM ubuntu", IT),
        ("docker run -e TERM=dumb -it ubuntu", IT),
        ("docker run ubuntu -it", None),  # the options of the command inside the container
        ("docker run ubuntu -it -e", None),
        ("kubectl exec -it web -- sh", IT),
        ("docker compose", None),
        ("docker events", "events never ends: use --no-stream or a one-shot command"),
        ("git add --interactive", PATCH.format("add")),
        ("git restore -p src", PATCH.format("restore")),
        ("git stash push -p", PATCH.format("stash")),
        ("git stash show -p", None),
        ("git stash push -p src/app.py", PATCH.format("stash")),
        ("docker -D logs -f web", "following logs never ends: drop -f (use --tail N)"),
        ("git stash list -p stash@{0}", None),
        ("git tag -s v1.0", "git tag -a without -m opens an editor: add -m 'message'"),
        ("git tag -s v1.0 -m release", None),
        ("git -C repo status", None),
    ],
)
def test_each_waiting_form_and_the_option_that_settles_it(command, waits):
    assert analyze(command).interactive == ([waits] if waits else []), command
