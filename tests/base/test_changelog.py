"""The version means something: the changelog's newest entry names the version the program reports."""

import re
from pathlib import Path

from narnat_agent import __version__

CHANGELOG = Path(__file__).resolve().parents[2] / "CHANGELOG.md"


def test_the_changelogs_newest_heading_names_the_programs_version():
    headings = re.findall(r"^## (\d+\.\d+\.\d+)\b", CHANGELOG.read_text(), re.M)
    assert headings and headings[0] == __version__, f"CHANGELOG.md's newest entry is {headings[:1]}, not {__version__}"


def test_every_changelog_version_is_newer_than_the_one_below_it():
    versions = [
        tuple(map(int, v.split("."))) for v in re.findall(r"^## (\d+\.\d+\.\d+)\b", CHANGELOG.read_text(), re.M)
    ]
    assert versions == sorted(versions, reverse=True) and len(set(versions)) == len(versions)
