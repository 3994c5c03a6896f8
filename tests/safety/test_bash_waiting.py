"""Programs that never end or wait for a person, form by form: what Narnat refuses, in the words the model reads,
and the near forms that end on their own and run."""

import pytest

from narnat_agent.safety import analyze

SERVES = "{} serves until it is stopped: start it in the background (`… &`), then query it"
AWS = "aws configure asks questions: use aws configure set KEY VALUE"
AZ = "az login waits for a person to sign in in a browser"
GCLOUD = "gcloud auth login waits for a person to sign in in a browser"


@pytest.mark.parametrize(
    ("command", "refused"),
    [
        ("python3 -m http.server", [SERVES.format("python3")]),
        ("python3 -m http.server 8000", [SERVES.format("python3")]),
        ("python -m", []),
        ("php -S localhost:8000 -t public", [SERVES.format("php")]),
        ("php -s index.php", []),  # prints the source highlighted, then ends
        ("php artisan migrate", []),
        ("ng generate component serve", []),  # only the first words name the subcommand
        ("flask run --help", []),
    ],
)
def test_servers_are_sent_to_the_background_and_their_other_forms_run(command, refused):
    assert analyze(command).interactive == refused


@pytest.mark.parametrize(
    ("command", "refused"),
    [
        ("aws configure", [AWS]),
        ("aws configure sso", [AWS]),
        ("aws configure sso --profile dev", [AWS]),
        ("aws configure set region eu-west-1", []),
        ("az login --tenant contoso", [AZ]),
        ("az login --service-principal -u app -p secret --tenant contoso", []),
        ("az login --identity", []),
        ("gcloud auth login", [GCLOUD]),
        ("gcloud auth login me@example.com", [GCLOUD]),
        ("gcloud auth login --cred-file=key.json", []),
        ("gcloud auth list", []),
    ],
)
def test_sign_ins_that_wait_for_a_person_are_turned_down(command, refused):
    assert analyze(command).interactive == refused


@pytest.mark.parametrize(
    ("command", "refused"),
    [
        ("ping6 ::1", ["ping6 never ends: add -c N"]),
        ("ping6 -c 3 ::1", []),
        ('read -Ep "Path? " path', ["read -p asks the user a question: ask in your answer instead"]),
    ],
)
def test_commands_that_never_end_are_turned_down(command, refused):
    assert analyze(command).interactive == refused


@pytest.mark.parametrize(
    "command",
    ["npm run dev &", "timeout 60 npm run dev", "timeout 5 tail -f log.txt", "tail -f log.txt &", "ping -w 5 host",
     "ping -c 3 host", "ping -nw5 host", "gtimeout 10 ping host", "uvicorn app:app &",
     "timeout -s INT 30 python -m http.server", "read -t 5 -p 'Go on?' answer", "echo y | read -p 'Go on?' answer"],
)  # fmt: skip
def test_what_would_wait_runs_when_a_timeout_bounds_it_it_runs_in_the_background_or_it_has_an_end(command):
    verdict = analyze(command)
    assert verdict.interactive == [] and verdict.file_ops == []


NEVER = "{} never ends: run it with run_in_background (or put timeout N in front)"


@pytest.mark.parametrize(
    ("command", "refused"),
    [
        ("mytool server", [NEVER.format("mytool server")]),
        ("mytool dev", [NEVER.format("mytool dev")]),
        ("supabase functions serve", [NEVER.format("supabase functions serve")]),
        ("mytool server stop", []),  # the second word says it ends: it stops the server
        ("mytool server status", []),
        ("mytool dev build", []),
        ("mytool tunnel list", []),
        ("mytool server --detach", []),
    ],
)
def test_a_program_no_table_knows_never_ends_by_its_words_unless_they_say_it_stops_or_lists(command, refused):
    assert analyze(command).interactive == refused
