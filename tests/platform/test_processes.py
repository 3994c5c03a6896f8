"""Process trees stopped whole, on either side of the seam: a child's own child goes with it."""

import contextlib
import os
import secrets
import stat
import subprocess
import sys
import threading

import pytest

from narnat_agent.platform.processes import TAG, alive, detached, kill_tagged, start_tree, stop_tree
from tests.processes import ended

# a child that starts a grandchild, says both pids, and waits for ever (the grandchild too)
TREE = (
    "import subprocess, sys, time; "
    "g = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)']); "
    "print(g.pid, flush=True); time.sleep(600)"
)


def _tree():
    process = start_tree(subprocess.Popen, [sys.executable, "-c", TREE], stdout=subprocess.PIPE, text=True)
    grandchild = int(process.stdout.readline())
    return process, grandchild


@pytest.mark.windows
def test_a_stopped_tree_takes_the_childs_own_child_with_it():
    process, grandchild = _tree()
    assert alive(grandchild)
    stop_tree(process, lambda seconds: process.wait(seconds) if process.poll() is None else None, grace=0.5)
    assert process.poll() is not None and ended(grandchild)


@pytest.mark.windows
def test_stopping_a_tree_that_has_ended_waits_for_nothing():
    process = start_tree(subprocess.Popen, [sys.executable, "-c", "pass"])
    process.wait(30)
    waits = []
    stop_tree(process, waits.append)
    assert len(waits) <= 1  # POSIX: the group is gone at once; Windows: the job has no process left


@pytest.mark.windows
def test_a_process_that_ended_is_not_alive_and_this_one_is():
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait(30)
    assert alive(os.getpid()) and not alive(process.pid)


# init, whose process belongs to root: asked by another user (root here drops to nobody once Narnat is imported)
ANOTHER_USERS = """import os, sys
from narnat_agent.platform.processes import alive
if os.getuid() == 0:
    try:
        os.setresuid(65534, 65534, 65534)
    except OSError:
        sys.exit(3)
print(alive(1))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="a signal's permission is POSIX's")
def test_another_users_process_is_alive():
    done = subprocess.run([sys.executable, "-c", ANOTHER_USERS], capture_output=True, text=True, timeout=60)
    if done.returncode == 3:
        pytest.skip("root here cannot become another user")
    assert done.stdout == "True\n", done.stderr


@pytest.mark.windows
@pytest.mark.skipif(sys.platform != "win32", reason="a process's access list is Windows'")
def test_a_process_this_one_may_not_open_is_alive():
    """Another user's or an elevated process: OpenProcess is refused, and the process is alive all the same."""
    import ctypes
    from ctypes import wintypes

    advapi32 = ctypes.WinDLL("advapi32", use_last_error=True)
    advapi32.SetKernelObjectSecurity.argtypes = [wintypes.HANDLE, wintypes.DWORD, wintypes.LPVOID]
    process = subprocess.Popen([sys.executable, "-c", "input()"], stdin=subprocess.PIPE)
    try:
        denied = wintypes.LPVOID()  # an empty access list, protected: nobody may open the process any more
        assert advapi32.ConvertStringSecurityDescriptorToSecurityDescriptorW("D:P", 1, ctypes.byref(denied), None)
        dacl_security_information = 4
        assert advapi32.SetKernelObjectSecurity(process._handle, dacl_security_information, denied)
        assert alive(process.pid)
    finally:
        process.kill()  # through the handle Popen holds, opened before the access list changed
        process.wait(30)


@pytest.mark.skipif(sys.platform == "win32", reason="Windows has no umask and passes no descriptors by number")
def test_a_detached_helper_has_the_umask_asked_and_keeps_the_descriptors_held(tmp_path):
    reader, writer = os.pipe()
    helper = "import os, sys; open('made', 'w').close(); os.write(int(sys.argv[1]), b'held')"
    options = detached(0o077, (writer,))
    subprocess.run([sys.executable, "-c", helper, str(writer)], cwd=tmp_path, timeout=60, check=True, **options)
    os.close(writer)
    try:
        assert os.read(reader, 16) == b"held"
    finally:
        os.close(reader)
    assert stat.S_IMODE((tmp_path / "made").stat().st_mode) == 0o600


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a parent-death signal is Linux's")
def test_a_job_leader_dies_with_the_thread_that_started_it(tmp_path):
    started = {}

    def start():
        started["process"] = start_tree(subprocess.Popen, [sys.executable, "-c", "import time; time.sleep(600)"],
                                        dies_with_narnat=True)  # fmt: skip

    thread = threading.Thread(target=start)  # stands in for Narnat's main thread, which ends here
    thread.start()
    thread.join()
    assert started["process"].wait(30) == -9


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="environments are read in /proc")
def test_a_jobs_leftovers_are_killed_by_its_tag_alone():
    tag = secrets.token_hex(8)
    sleep = [sys.executable, "-c", "import time; time.sleep(600)"]
    mine = subprocess.Popen(sleep, env=os.environ | {TAG: tag})
    other = subprocess.Popen(sleep, env=os.environ | {TAG: tag + "ff", "NOT_A_TAG": f"{TAG}={tag}x"})
    try:
        assert kill_tagged(tag) == 1
        assert mine.wait(30) == -9
        assert other.poll() is None
        assert kill_tagged(tag) == 0
    finally:
        other.kill()
        other.wait(30)


@pytest.mark.skipif(sys.platform == "win32", reason="a process there cannot ignore the stop it is asked")
def test_a_tree_that_ignores_the_polite_stop_is_given_its_grace_then_killed_and_given_the_last_wait():
    stubborn = "import signal as s, time; s.signal(s.SIGTERM, s.SIG_IGN); print(1, flush=True); time.sleep(600)"
    process = start_tree(subprocess.Popen, [sys.executable, "-c", stubborn], stdout=subprocess.PIPE, text=True)
    process.stdout.readline()
    waits = []

    def settled(seconds):
        waits.append(seconds)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(seconds)

    stop_tree(process, settled, grace=0.3, last=5)
    assert waits == [0.3, 5] and process.returncode == -9


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a parent-death signal is Linux's")
def test_a_command_that_is_no_job_outlives_the_thread_that_started_it():
    started = {}

    def start():
        started["process"] = start_tree(subprocess.Popen, [sys.executable, "-c", "import time; time.sleep(600)"])

    thread = threading.Thread(target=start)  # a tool's worker thread, which ends before the command does
    thread.start()
    thread.join()
    process = started["process"]
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            process.wait(0.5)
    finally:
        process.kill()
        process.wait(30)


# prctl(PR_GET_DUMPABLE) after seal(): 0 once no other process of the user may read this one's memory or environment
SEAL = """import ctypes
from narnat_agent.platform.processes import seal
print(seal(), ctypes.CDLL(None).prctl(3, 0, 0, 0, 0))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_DUMPABLE is Linux's")
def test_a_sealed_process_says_so_and_is_no_longer_dumpable():
    done = subprocess.run([sys.executable, "-c", SEAL], capture_output=True, text=True, timeout=60)
    assert done.stdout == "True 0\n", done.stderr
