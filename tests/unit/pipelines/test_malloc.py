"""glibc's malloc set by capclean's processes (pipelines/runtime/malloc.py): each test runs a fresh Python
process with and without the settings, so the control shows the test can fail on this glibc."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from pipelines.runtime.malloc import SETTINGS, glibc

pytestmark = pytest.mark.skipif(glibc() is None, reason="glibc's malloc only")

# Frees 96 MiB of 4 MiB blocks after a 16 MiB block was freed (which, by default, raises the size from which a block
# gets a mapping of its own to 16 MiB), with a block of 1 MiB allocated after them (a hole of that size is not there,
# so it goes above them and they are not at the heap's top); prints the MiB still held.
FREED_BLOCKS_KEPT = """
import ctypes, sys
from pipelines.runtime.malloc import glibc, return_freed_memory
if sys.argv[1] == "set":
    return_freed_memory()
libc = glibc()
libc.malloc.restype = ctypes.c_void_p
libc.free.argtypes = [ctypes.c_void_p]
def rss_mib():
    return int(open("/proc/self/status").read().split("VmRSS:")[1].split()[0]) / 1024
def touched(size):
    block = libc.malloc(size)
    ctypes.memset(block, 1, size)
    return block
libc.free(touched(16 << 20))
before = rss_mib()
blocks = [touched(4 << 20) for _ in range(24)]
pin = touched(1 << 20)
for block in blocks:
    libc.free(block)
print(round(rss_mib() - before))
"""

# Six threads allocate once each; prints the arenas glibc's malloc_info then lists.
ARENAS = """
import ctypes, sys, tempfile, threading
from pipelines.runtime.malloc import glibc, return_freed_memory
if sys.argv[1] == "set":
    return_freed_memory()
libc = glibc()
libc.malloc.restype = ctypes.c_void_p
libc.fopen.restype = ctypes.c_void_p
libc.malloc_info.argtypes = [ctypes.c_int, ctypes.c_void_p]
libc.fclose.argtypes = [ctypes.c_void_p]
started, release = threading.Barrier(7), threading.Event()
def allocate():
    libc.malloc(1000)
    started.wait()
    release.wait()
threads = [threading.Thread(target=allocate) for _ in range(6)]
for thread in threads:
    thread.start()
started.wait()
with tempfile.NamedTemporaryFile() as report:
    stream = libc.fopen(report.name.encode(), b"w")
    libc.malloc_info(0, stream)
    libc.fclose(stream)
    print(open(report.name).read().count("<heap nr="))
release.set()
"""


REPOSITORY = Path(__file__).resolve().parents[3]  # the scripts import this checkout's pipelines/


def run_python(script: str, mode: str) -> int:
    """The number `script` prints, run in a fresh process with `mode` ("set": capclean's settings made first)
    and without the user's malloc variables."""
    environment = {name: value for name, value in os.environ.items() if name not in {v for _, v, _ in SETTINGS}}
    finished = subprocess.run([sys.executable, "-c", script, mode], env=environment, capture_output=True, text=True,
                              check=True, cwd=REPOSITORY)
    return int(finished.stdout.strip())


def test_freed_blocks_go_back_to_the_system():
    assert run_python(FREED_BLOCKS_KEPT, "default") >= 90  # glibc's own setting keeps them
    assert run_python(FREED_BLOCKS_KEPT, "set") <= 10


def test_threads_share_two_arenas():
    assert run_python(ARENAS, "default") >= 7  # glibc's own setting: one per thread, the main thread's included
    assert run_python(ARENAS, "set") <= 2


def test_a_tunable_the_user_set_is_left_to_glibc(monkeypatch):
    monkeypatch.setenv("MALLOC_ARENA_MAX", "4")
    monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", "131072")
    from pipelines.runtime.malloc import return_freed_memory
    assert return_freed_memory() == []
