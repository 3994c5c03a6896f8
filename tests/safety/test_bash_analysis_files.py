"""The analysis's decisions about files: what deleters, sort, tee, copies, redirects and downloads replace or run,
and the SQL a client is given by option, file, script or stdin, read in its dialect."""

import pytest

from narnat_agent.safety import analyze
from narnat_agent.safety.sql import MAX_FILE, MAX_SCAN


def test_copies_onto_existing_files_ask_whatever_the_options_and_paths(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / ".npmrc").write_text("")
    (tmp_path / "config.json").write_text("{}")
    assert analyze("cp new.json config.json -v", tmp_path).deletions == ["cp replaces config.json, which exists"]
    assert analyze("cp new.npmrc ~/.npmrc", tmp_path).deletions == ["cp replaces ~/.npmrc, which exists"]
    assert analyze('cp "$SRC" config.json', tmp_path).deletions == []  # computed: nothing to look at


def test_tee_replaces_an_existing_file_unless_it_appends(tmp_path):
    (tmp_path / "notes.md").write_text("kept\n")
    assert analyze("echo x | tee notes.md", tmp_path).deletions == ["tee replaces notes.md, which exists"]
    assert analyze("echo x | tee -a notes.md", tmp_path).deletions == []
    assert analyze("echo x | tee --append notes.md", tmp_path).deletions == []


def test_a_redirect_empties_a_file_any_stage_of_the_pipeline_reads():
    assert analyze("cat header.txt | cat - data.txt > data.txt").deletions == [
        "the redirection empties data.txt before the pipeline reads it"
    ]


def test_a_sql_file_is_read_whatever_its_bytes_and_only_where_the_command_runs(tmp_path):
    (tmp_path / "reset.sql").write_bytes(b"-- caf\xe9\nDROP TABLE users;\n")
    assert analyze("psql app -f reset.sql", tmp_path).deletions == ["psql drops table users — /undo cannot restore it"]
    assert analyze(f"psql app -f {tmp_path}/reset.sql").deletions == []  # where it runs is unknown: not looked at


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("cp -t src config.json", ["cp replaces src/config.json, which exists"]),
        ("cp config.json -t src", ["cp replaces src/config.json, which exists"]),
        ("cp --target-directory src config.json", ["cp replaces src/config.json, which exists"]),
        ("cp -t src new.json config.json", ["cp replaces src/config.json, which exists"]),
        ("cp new.json config.json src/", ["cp replaces src/config.json, which exists"]),
        ('cp "$SRC" config.json src/', ["cp replaces src/config.json, which exists"]),
        ("cp defaults/config.json src/", ["cp replaces src/config.json, which exists"]),  # by its name, not its path
        ("cp -t src defaults/config.json", ["cp replaces src/config.json, which exists"]),
        ("cp --backup=numbered new.json config.json", []),  # the old file is kept
    ],
)
def test_copies_into_a_directory_ask_about_the_file_they_replace_there(tmp_path, command, lost):
    (tmp_path / "config.json").write_text("{}")
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "config.json").write_text("{}")
    assert analyze(command, tmp_path).deletions == lost


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ('psql app --command="UPDATE users SET a=1 WHERE b=2"', "psql rewrites rows of users"),
        ('psql app -c "TRUNCATE a, b"', "psql empties table a, b"),
        ("mysql shop -e 'DELETE FROM `cart items`'", 'mysql deletes rows from "cart items"'),  # MySQL's quoting
        ('psql app -c "MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE"', "psql rewrites rows of t"),
    ],
)
def test_sql_is_read_in_its_clients_dialect_and_the_question_names_the_tables(command, lost):
    assert analyze(command).deletions == [f"{lost} — /undo cannot restore it"]


@pytest.mark.parametrize(
    ("command", "keyword"),
    [
        ('sqlite3 app.db "delete frm sessions"', "DELETE"),  # parses as a DELETE of nothing named
        ('sqlite3 app.db "update set done = 1"', "UPDATE"),
        ('sqlite3 app.db "drop table"', "DROP"),
    ],
)
def test_sql_that_names_no_table_is_said_to_be_unreadable_not_given_an_empty_name(command, keyword):
    assert analyze(command).deletions == [
        f"sqlite3 runs SQL it cannot read that mentions {keyword} — /undo cannot restore it"
    ]


@pytest.mark.parametrize(
    ("command", "keyword"),
    [
        ('psql app -c "DELETE FROM t WHERE a=\'x"', "DELETE"),  # a quote never closed: the SQL cannot be read
        ("psql app -c 'DROP TABLE \"users'", "DROP"),
        ('sqlite3 app.db "UPDATE t SET a=\'x"', "UPDATE"),
    ],
)
def test_sql_whose_quote_is_never_closed_is_said_to_be_unreadable(command, keyword):
    assert analyze(command).deletions == [
        f"{command.split()[0]} runs SQL it cannot read that mentions {keyword} — /undo cannot restore it"
    ]


def test_sql_naming_no_table_in_a_programs_literal_asks_too():
    code = """python3 -c 'import sqlite3; sqlite3.connect("app.db").execute("delete sessions")'"""
    assert analyze(code).deletions == [
        "the python3 code runs SQL it cannot read that mentions DELETE — /undo cannot restore it"
    ]


def test_sql_too_long_to_parse_is_judged_by_the_destructive_words_it_mentions(tmp_path):
    (tmp_path / "big.sql").write_text("SELECT 1;\n" * 12_000 + "DROP TABLE users;\n")
    assert analyze("psql app --file=big.sql", tmp_path).deletions == [
        "psql runs SQL it cannot read that mentions DROP — /undo cannot restore it"
    ]


@pytest.mark.parametrize("at", [0, MAX_FILE - 10, MAX_FILE - 3, MAX_FILE, 3 * MAX_FILE + 5])  # MAX_FILE - 3: cut
def test_a_sql_file_longer_than_what_is_read_is_judged_by_its_words_to_the_end(tmp_path, at):
    filler = b"SELECT 1;\n" * (4 * MAX_FILE // 10)
    (tmp_path / "dump.sql").write_bytes(filler[:at] + b"\nDROP TABLE users;\n" + filler[at:])
    (tmp_path / "seed.sql").write_bytes(filler)
    assert analyze("psql app -f dump.sql", tmp_path).deletions == [
        "psql runs SQL it cannot read that mentions DROP — /undo cannot restore it"
    ]
    assert analyze("psql app -f seed.sql", tmp_path).deletions == []


@pytest.mark.slow
def test_a_sql_file_past_what_is_searched_is_too_long_to_check(tmp_path):
    with open(tmp_path / "huge.sql", "wb") as f:
        f.write(b"INSERT INTO t VALUES (1);\n")
        f.truncate(MAX_SCAN + 2 * MAX_FILE)  # the rest reads as zero bytes, without being written
    assert analyze("psql app -f huge.sql", tmp_path).deletions == [
        "psql runs a SQL file too long to check — /undo cannot restore it"
    ]


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ('psql app --command="SELECT 1" --file=reset.sql', ["psql drops table users — /undo cannot restore it"]),
        ("psql app -f report.sql -f reset.sql", ["psql drops table users — /undo cannot restore it"]),
        ("mongosh app clean.js", ["mongosh runs users.drop() in MongoDB — /undo cannot restore it"]),
        ('mongosh app --eval "db.stats()"', []),
        ('echo "SELECT 1" | psql app', []),
        ("psql app -c", []),
    ],
)
def test_every_piece_of_code_a_client_is_given_is_read(tmp_path, command, lost):
    (tmp_path / "reset.sql").write_text("DROP TABLE users;\n")
    (tmp_path / "report.sql").write_text("SELECT 1;\n")
    (tmp_path / "clean.js").write_text("db.users.drop()\n")
    assert analyze(command, tmp_path).deletions == lost


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("psql app <<'SQL'\n\\timing\nDROP TABLE users;\nSQL", ["psql drops table users — /undo cannot restore it"]),
        ('psql app --no-psqlrc -c "DROP TABLE users"', ["psql drops table users — /undo cannot restore it"]),
        ('psql -c "$SQL"', ["psql runs code computed at run time"]),
        # the option's value is no operand: the SQL is the second one
        (
            'sqlite3 -cmd ".timeout 5000" app.db "DELETE FROM sessions"',
            ["sqlite3 deletes rows from sessions — /undo cannot restore it"],
        ),
    ],
)
def test_sql_is_read_past_the_clients_own_commands_and_options(command, lost):
    assert analyze(command).deletions == lost


URL = "https://example.com/tools"
UNREAD = "downloaded by the same command: code nobody has read"


@pytest.mark.parametrize(
    ("command", "runs"),
    [
        (f"curl -o install.sh {URL}/i && bash install.sh", ["install.sh"]),
        (f"curl --output=setup.sh {URL}/s && sh ./setup.sh", ["./setup.sh"]),
        (f"curl --output setup.sh {URL}/s && sh setup.sh", ["setup.sh"]),
        (f"curl -sSLo get.sh {URL}/g && sh get.sh", ["get.sh"]),
        (f'curl -O "{URL}/run.sh?v=2" && bash run.sh', ["run.sh"]),
        (f"curl --remote-name {URL}/run.sh && bash run.sh", ["run.sh"]),
        (f"curl -LO {URL}/run.sh && bash run.sh", ["run.sh"]),  # -O in a cluster
        (f"curl -fsSLO {URL}/run.sh && bash run.sh", ["run.sh"]),
        (f"wget {URL}/deploy.sh && bash deploy.sh", ["deploy.sh"]),
        (f"wget --output-document=out.sh {URL}/x && bash out.sh", ["out.sh"]),
        (f"curl {URL}/i > inst.sh && bash inst.sh", ["inst.sh"]),
        (f"curl {URL}/i >| inst.sh && bash inst.sh", ["inst.sh"]),
        (f"curl {URL}/i >> inst.sh && bash inst.sh", ["inst.sh"]),  # appended code is unread all the same
        (f"curl {URL}/i &> inst.sh && bash inst.sh", ["inst.sh"]),
        (f"curl {URL}/i &>> inst.sh && bash inst.sh", ["inst.sh"]),
        (f"curl --output=run=1.sh {URL}/r && bash run=1.sh", ["run=1.sh"]),
        (f"curl -o a.sh {URL}/a -O {URL}/b.sh && bash a.sh && bash b.sh", ["a.sh", "b.sh"]),
        (f"curl -o x.py {URL}/x && python3 -u x.py", ["x.py"]),
        # the file written is the one named, not the URL's last part; without -o or -O curl writes no file
        (f"wget -O out.sh {URL}/install.sh && bash install.sh", []),
        (f"curl -so out.sh {URL}/install.sh && bash install.sh", []),
        (f"curl {URL}/install.sh && bash install.sh", []),
        (f"curl {URL}/i -o", []),
    ],
)
def test_running_a_file_the_same_command_downloaded_asks(command, runs):
    assert analyze(command).deletions == [f"it runs {script}, {UNREAD}" for script in runs]


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("rsync -avn --delete src/ dest/", []),  # a dry run
        ("rsync -n -a --delete src/ dest/", []),
        ("rsync -av --delete src/ dest/", ["rsync deletes files (--delete / --remove-source-files)"]),
        ("sort --output data.txt data.txt", ["sort -o replaces data.txt"]),
        ("sort --output=a=b.txt a=b.txt", ["sort -o replaces a=b.txt"]),
        ("sort -odata.txt data.txt", ["sort -o replaces data.txt"]),
        ("sort -u -ox x", ["sort -o replaces x"]),
        ("sort -o out.txt data.txt", []),
        ("sort --reverse < /dev/null", []),
    ],
)
def test_rsync_and_sort_ask_only_when_they_delete_or_replace_their_input(command, lost):
    assert analyze(command).deletions == lost


def test_sql_the_parser_cannot_read_asks_naming_the_destructive_word_it_mentions():
    assert analyze('psql app -c "DROP TABEL users"').deletions == [
        "psql runs SQL it cannot read that mentions DROP — /undo cannot restore it"
    ]


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("/usr/bin/tar --remove-files -czf logs.tgz logs/", ["tar deletes what it archives"]),
        ("tar -czf out.tgz $FILES", ["tar gets words computed at run time, which may be options"]),
        ('tar -czf out.tgz "$FILES"', []),  # quoted: one word, no option
        ("dd of=disk.img if=/dev/zero bs=1M count=1", ["dd overwrites disk.img"]),  # from no folder: it may exist
        ('dd if=/dev/zero "of=$OUT"', ["dd of= overwrites its output file"]),
        ("ln --force -s a b", ["ln -f replaces b"]),
        ("ln -sf a b dir/", ["ln -f replaces dir/"]),
        ('ln -sf "$SRC" "$DST"', ["ln -f replaces $…"]),
        ("ln -f", ["ln -f replaces its target"]),
        ('tee "$F" < /dev/null', ["tee empties $…"]),
        ("true | tee a.log b.log", ["tee empties a.log b.log"]),
        ("cat < /dev/null | tee out.log", ["tee empties out.log"]),
        # appending nothing loses nothing
        ("true | tee -a out.log", []),
        ("tee --append out.log < /dev/null", []),
        ("true | tee -ia out.log", []),
    ],
)
def test_the_question_names_the_file_replaced_or_emptied(command, lost):
    assert analyze(command).deletions == lost


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ('find . -name "*.o" -exec echo {} \\; -exec rm {} \\;', ["rm deletes files: what find selects"]),  # each -exec
        (
            "find $SRC -exec tar -czf out.tgz {} +",
            [
                "tar gets words computed at run time, which may be options",
                "find gets words computed at run time, which may be actions",
            ],
        ),
        ("find src -exec tar -czf out.tgz {} +", []),
        ("sort --output out.txt data.txt", []),
        ("cat a.txt | sort -o sorted.txt", []),
    ],
)
def test_find_checks_every_command_it_runs_and_sort_only_its_own_input(command, lost):
    assert analyze(command).deletions == lost


@pytest.mark.parametrize(
    ("command", "lost"),
    [
        ("rm --version --help", []),
        ("exec python3 app.py > out.log", []),  # it prints: the file gets its output
        ("exec {fd}> out.log", ["the redirection empties out.log"]),
        ("echo -e > log.txt", ["the redirection empties log.txt"]),
        ("echo -E > log.txt", ["the redirection empties log.txt"]),
    ],
)
def test_a_command_that_prints_nothing_empties_the_file_it_is_redirected_to(command, lost):
    assert analyze(command).deletions == lost


def test_deleting_beyond_the_project_says_undo_restores_only_the_projects_files(tmp_path):
    assert analyze(f"rm -rf {tmp_path}/build", tmp_path).deletions == [f"rm deletes files: {tmp_path}/build"]
    assert analyze(f"rm -rf {tmp_path}/build /var/tmp/x", tmp_path).deletions == [
        f"rm deletes files: {tmp_path}/build /var/tmp/x — /undo restores only the project's files"
    ]


@pytest.mark.parametrize("operator", [">", ">|", "&>", "2>", "1>"])
def test_every_redirection_that_replaces_an_existing_file_asks(tmp_path, operator):
    (tmp_path / "notes.md").write_text("mine\n")
    assert analyze(f"make report {operator} notes.md", tmp_path).deletions == [
        "the redirection replaces notes.md, which exists"
    ]
    assert analyze(f"make report {operator} new.md", tmp_path).deletions == []


@pytest.mark.parametrize("operator", [">>", "&>>", "2>>"])
def test_a_redirection_that_appends_loses_nothing(tmp_path, operator):
    (tmp_path / "notes.md").write_text("mine\n")
    assert analyze(f"make report {operator} notes.md", tmp_path).deletions == []
