"""The store's index checked before a snapshot builds on it: a damaged one is removed (the snapshot then stages the
whole project), a sound one is trusted until someone else changes it."""

import hashlib
import os
import struct

import pytest

from narnat_agent.checkpoints.index import Index


def index_bytes(entries: int = 0, body: bytes = b"", trailer: bytes | None = None) -> bytes:
    """An index as git writes it: the header, the entries, and the SHA-1 of all before it (or the trailer given)."""
    data = b"DIRC" + struct.pack(">II", 2, entries) + body
    return data + (hashlib.sha1(data).digest() if trailer is None else trailer)


@pytest.fixture
def index(tmp_path) -> Index:
    return Index(tmp_path / "index")


@pytest.mark.parametrize("fresh", [True, False])
def test_no_index_is_sound_only_for_a_new_store(index, fresh):
    assert index.sound(fresh) is fresh
    index.written()
    assert index.sound(fresh) is fresh


@pytest.mark.parametrize(
    "data",
    [index_bytes(), index_bytes(3, b"entries" * 10), index_bytes(trailer=bytes(20))],
    ids=["empty", "entries", "checksum skipped"],
)
def test_an_intact_index_is_sound_and_kept(index, data):
    index.path.write_bytes(data)
    assert index.sound(False) is True
    assert index.path.read_bytes() == data


@pytest.mark.parametrize(
    "data",
    [
        index_bytes()[:-1],  # cut short below a header and a trailer
        b"DIRC" + b"\0" * 27,
        index_bytes(1, b"entry")[:-3] + b"abc",  # the checksum of other bytes
        b"CRID" + index_bytes()[4:],
        b"",
        os.urandom(64),
        bytes(64),  # a crash on some file systems leaves blocks of zeros: a zero trailer, as if git skipped it
    ],
    ids=["short", "short zeros", "checksum", "signature", "empty file", "garbage", "zero-filled"],
)
def test_a_damaged_index_is_removed_and_the_snapshot_stages_everything(index, data):
    index.path.write_bytes(data)
    assert index.sound(True) is False
    assert not index.path.exists()
    assert index.sound(False) is False, "a store that had an index and lost it"


def test_a_sound_index_is_not_read_again_until_it_changes(index):
    index.path.write_bytes(index_bytes(1, b"entry"))
    assert index.sound(False)
    st = index.path.stat()
    with open(index.path, "r+b") as f:  # damaged without a trace in its size, time or inode
        f.write(b"XXXX")
    os.utime(index.path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert index.sound(False), "unchanged since it was found sound: not read again"
    os.utime(index.path, ns=(st.st_atime_ns, st.st_mtime_ns + 1))
    assert not index.sound(False)


def test_an_index_this_run_wrote_is_trusted_without_reading_it(index):
    index.path.write_bytes(b"written by git: trusted as it is")
    index.written()
    assert index.sound(False)
    index.path.write_bytes(b"written by another run: checked")
    assert not index.sound(False) and not index.path.exists()
