"""What tar, zip, 7-Zip and unzip lose, said exactly: the files they archive and delete, the entries deleted from an
archive, and the existing files an extraction replaces, listed from the archive itself."""

import io
import os
import tarfile
from pathlib import Path

import pytest

from narnat_agent.safety import analyze
from narnat_agent.safety.archives import MAX_ARCHIVE
from narnat_agent.safety.probes import MAX_LINES
from tests.tools.syntax_corpus import case_id


def archive(path: Path, members: dict[str, str], folders: tuple[str, ...] = ()) -> None:
    with tarfile.open(path, "w:gz") as tar:
        for folder in folders:
            info = tarfile.TarInfo(folder)
            info.type = tarfile.DIRTYPE
            tar.addfile(info)
        for name, text in members.items():
            data = text.encode()
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "src").mkdir()
    (tmp_path / "out").mkdir()
    (tmp_path / "app.log").write_text("x\n")
    (tmp_path / "src" / "app.ts").write_text("y\n")
    archive(tmp_path / "a.tgz", {"app.log": "new\n", "./src/app.ts": "new\n", "docs/new.md": "new\n"}, ("src",))
    (tmp_path / "not-a.tar").write_text("junk\n")
    return tmp_path


BOTH = "tar overwrites existing files with those of a.tgz: 2 (app.log, src/app.ts)"
SAID = [
    ("tar -czf out.tgz --remove-files src", "tar deletes what it archives"),
    ("zip -m out.zip a", "zip deletes what it archives"),
    ("zip --move out.zip a", "zip deletes what it archives"),
    ("zip -rm out.zip a", "zip deletes what it archives"),
    ("zip -d out.zip a.txt", "zip -d deletes files from out.zip"),
    ("zip --delete out.zip", "zip -d deletes files from out.zip"),
    ("7z a -sdel out.7z src", "7z -sdel deletes what it archives"),
    ("7za a -sdel out.7z src", "7z -sdel deletes what it archives"),  # 7-Zip's standalone build
    ("7z d out.7z a.txt", "7z d deletes files from out.7z"),
    ("7za d", "7z d deletes files from the archive"),
    ("7z x -aoa out.7z", "7z -aoa overwrites existing files with those of out.7z"),
    ("unzip -o a.zip", "unzip -o overwrites existing files with those of a.zip"),
    ("unzip -o", "unzip -o overwrites existing files with those of the archive"),
    ("unzip -oq a.zip", "unzip -o overwrites existing files with those of a.zip"),  # -o among other letters
    ("unzip -qo a.zip -d out", "unzip -o overwrites existing files with those of a.zip"),
    # an extraction: the existing files the archive's members replace, in every spelling
    ("tar -xzf a.tgz", BOTH),
    ("/usr/bin/tar -x -z -f a.tgz", BOTH),
    ("tar --extract --file=a.tgz", BOTH),
    ("tar --get --file a.tgz", BOTH),
    ("tar -b 20 -xzf a.tgz", BOTH),
    ("tar -xzf a.tgz -C .", BOTH),
    ("tar -xzf a.tgz -T list.txt", BOTH),
    ("tar -xzfa.tgz", BOTH),  # the archive written in -f's own word
    ("tar -x -fa.tgz -C.", BOTH),
    ("tar xzf a.tgz src", "tar overwrites existing files with those of a.tgz: 1 (src/app.ts)"),
    ("tar xzf a.tgz src/", "tar overwrites existing files with those of a.tgz: 1 (src/app.ts)"),
    # a member named as the archive spells it (`./src/app.ts`), or by a pattern with --wildcards
    ("tar xzf a.tgz ./src/app.ts", "tar overwrites existing files with those of a.tgz: 1 (src/app.ts)"),
    ("tar -xzf a.tgz --wildcards 'src/*.ts'", "tar overwrites existing files with those of a.tgz: 1 (src/app.ts)"),
    ("tar -xzf a.tgz --wildcards '*.log' 'docs/*'", "tar overwrites existing files with those of a.tgz: 1 (app.log)"),
    ("tar -xzf a.tgz --exclude-from x app.log", "tar overwrites existing files with those of a.tgz: 1 (app.log)"),
    ("tar -xzf a.tgz -U", "tar -U overwrites existing files with those of a.tgz: 2 (app.log, src/app.ts)"),
    # told to replace: asked even where nothing can be looked at
    ("tar -xzf a.tgz -C out --overwrite", "tar --overwrite overwrites existing files with those of a.tgz"),
    ("tar -xzf a.tgz -C no-such --recursive-unlink", "tar --recursive-unlink overwrites existing files with those "
     "of a.tgz"),
    ("tar -xzf missing.tgz --unlink-first", "tar --unlink-first overwrites existing files with those of missing.tgz"),
    ("tar -x --overwrite", "tar --overwrite overwrites existing files with those of the archive"),
    # an archive that cannot be listed
    ("tar -xf not-a.tar", "tar overwrites existing files with those of not-a.tar"),
    # options computed at run time
    ("tar $FLAGS a.tgz", "tar gets words computed at run time, which may be options"),
]  # fmt: skip


@pytest.mark.parametrize(("command", "said"), SAID, ids=[case_id(c) for c, _ in SAID])
def test_what_an_archiver_loses_is_said(command, said, project):
    assert analyze(command, project).deletions == [said]


QUIET = [
    "zip -r out.zip src",
    "7z x out.7z",
    "7zr a x.7z y",
    "unzip -lo a.zip",  # it lists
    "unzip a.zip",  # it asks before each file
    "tar -xzf a.tgz -C out",  # nothing of it there yet
    "tar -xzf a.tgz --directory=out",
    "tar -xzf a.tgz --directory out",
    "tar -xzf a.tgz -Cout",  # the folder written in -C's own word
    "tar -xzf a.tgz -C no-such",
    "tar -xkzf a.tgz",  # it keeps the old files
    "tar -xzf a.tgz --skip-old-files",
    "tar --keep-old-files -xzf a.tgz",
    "tar -xzf a.tgz --to-command=cat",
    "tar -xzOf a.tgz",  # to stdout
    "tar -xzf missing.tgz",  # nothing to extract: tar fails
    "tar -tzf a.tgz",  # it lists
    "tar -czf b.tgz src",  # it creates
    "tar -x",
    "tar -xzf a.tgz app",  # a member it does not hold
    "tar -xzf a.tgz docs/new.md",  # a member that replaces nothing
]


@pytest.mark.parametrize("command", QUIET, ids=[case_id(c) for c in QUIET])
def test_archivers_that_lose_nothing_say_nothing(command, project):
    assert analyze(command, project).deletions == []


def test_an_archive_of_more_members_than_a_question_lists_asks_without_naming_them(project):
    archive(project / "many.tgz", {f"f{n}": "" for n in range(MAX_LINES + 1)})
    assert analyze("tar -xzf many.tgz", project).deletions == ["tar overwrites existing files with those of many.tgz"]
    archive(project / "some.tgz", {f"f{n}": "" for n in range(MAX_LINES)})
    (project / "f7").write_text("old\n")
    assert analyze("tar -xzf some.tgz", project).deletions == [
        "tar overwrites existing files with those of some.tgz: 1 (f7)"
    ]


def test_an_archive_bigger_than_the_limit_is_not_listed_and_asks_without_naming(project):
    with tarfile.open(project / "big.tar", "w") as tar:
        info = tarfile.TarInfo("app.log")
        tar.addfile(info, io.BytesIO(b""))
    os.truncate(project / "big.tar", MAX_ARCHIVE)  # zeros after the members: the archive's end, sparse on disk
    assert analyze("tar -xf big.tar", project).deletions == [
        "tar overwrites existing files with those of big.tar: 1 (app.log)"
    ]
    os.truncate(project / "big.tar", MAX_ARCHIVE + 1)
    assert analyze("tar -xf big.tar", project).deletions == ["tar overwrites existing files with those of big.tar"]


def test_an_archive_named_from_home_or_by_its_full_path_is_listed(project, monkeypatch):
    monkeypatch.setenv("HOME", str(project))
    assert analyze("tar -xzf ~/a.tgz", project).deletions == [
        "tar overwrites existing files with those of ~/a.tgz: 2 (app.log, src/app.ts)"
    ]
    full = str(project / "a.tgz")
    assert analyze(f"tar -xzf {full}", project).deletions == [
        f"tar overwrites existing files with those of {full}: 2 (app.log, src/app.ts)"
    ]


@pytest.mark.parametrize(
    "command",
    [
        "tar -xzf a.tgz -C out",
        "tar -xzf a.tgz --directory=out",
        "tar -xzf a.tgz --directory out",
        "tar -xzf a.tgz -Cout",
    ],
)
def test_an_extraction_elsewhere_names_the_files_it_replaces_there(command, project):
    (project / "out" / "app.log").write_text("kept\n")
    assert analyze(command, project).deletions == ["tar overwrites existing files with those of a.tgz: 1 (app.log)"]


def test_an_archive_cut_short_asks_without_naming(project):
    """A download interrupted leaves a .tgz whose compressed stream ends early: it cannot be listed, so it asks."""
    with tarfile.open(project / "whole.tgz", "w:gz") as tar:
        for n in range(50):
            data = os.urandom(4000)  # incompressible, so the cut falls inside the members
            info = tarfile.TarInfo(f"f{n}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    (project / "cut.tgz").write_bytes((project / "whole.tgz").read_bytes()[:100_000])
    assert analyze("tar -xzf cut.tgz", project).deletions == ["tar overwrites existing files with those of cut.tgz"]
