"""The store's file lock: one holder at a time, dropped when the holder closes it or dies."""

import os
import subprocess
import sys
import threading

import pytest

from narnat_agent.platform.locks import lock, try_lock

HOLD = "import os, sys; from narnat_agent.platform.locks import try_lock; fd = os.open(sys.argv[1], os.O_RDWR); " \
       "print(try_lock(fd), flush=True); sys.stdin.read()"  # fmt: skip


def _open(path):
    return os.open(path, os.O_RDWR | os.O_CREAT, 0o600)


@pytest.mark.windows
def test_a_lock_has_one_holder_and_is_free_again_once_closed(tmp_path):
    first, second = _open(tmp_path / "lock"), _open(tmp_path / "lock")
    assert try_lock(first) and not try_lock(second)
    os.close(first)
    assert try_lock(second)
    os.close(second)


@pytest.mark.windows
def test_a_lock_held_by_a_process_is_free_once_it_is_killed(tmp_path):
    lock = tmp_path / "lock"
    os.close(_open(lock))
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(lock)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)  # fmt: skip
    assert holder.stdout.readline().strip() == "True"
    mine = _open(lock)
    assert not try_lock(mine)
    holder.kill()
    holder.wait(30)
    assert try_lock(mine)
    os.close(mine)


@pytest.mark.skipif(sys.platform == "win32", reason="any failure there is the lock held elsewhere")
def test_a_descriptor_that_cannot_be_locked_is_an_error_not_a_lock_held_by_another(tmp_path):
    closed = _open(tmp_path / "lock")
    os.close(closed)
    with pytest.raises(OSError) as failed:
        try_lock(closed)
    assert not isinstance(failed.value, BlockingIOError)


@pytest.mark.windows
def test_a_lock_is_waited_for_until_its_holder_lets_it_go(tmp_path):
    first, second = _open(tmp_path / "lock"), _open(tmp_path / "lock")
    assert try_lock(first)
    threading.Timer(0.2, os.close, (first,)).start()  # only a lock that does not wait depends on this time
    lock(second)
    third = _open(tmp_path / "lock")
    assert not try_lock(third)
    os.close(second)
    assert try_lock(third)
    os.close(third)


@pytest.mark.slow  # a wait that gives up gives up after a while: the test waits longer than that
def test_a_lock_is_waited_for_as_long_as_its_holder_keeps_it(tmp_path):
    first, second = _open(tmp_path / "lock"), _open(tmp_path / "lock")
    assert try_lock(first)
    waiter = threading.Thread(target=lock, args=(second,), daemon=True)
    waiter.start()
    waiter.join(2)
    assert waiter.is_alive(), "the wait ended while the lock was still held"
    os.close(first)
    waiter.join(30)
    third = _open(tmp_path / "lock")
    assert not waiter.is_alive() and not try_lock(third)
    os.close(second)
    os.close(third)


@pytest.mark.windows
def test_two_waiters_never_hold_the_lock_at_once(tmp_path):
    # two runs that both wait for the store: the second gets it only once the first lets it go
    first, second = _open(tmp_path / "lock"), _open(tmp_path / "lock")
    lock(first)
    waiter = threading.Thread(target=lock, args=(second,), daemon=True)
    waiter.start()
    waiter.join(0.3)  # a waiter let in beside the holder is in at once; this time only shortens a wait that is right
    assert waiter.is_alive(), "a second waiter took the lock while the first held it"
    os.close(first)
    waiter.join(30)
    assert not waiter.is_alive()
    os.close(second)
