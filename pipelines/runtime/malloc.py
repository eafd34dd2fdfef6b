"""glibc's allocator, set to give freed memory back to the system: every capclean process does it first.

By default glibc's malloc keeps much of what a long run frees. The size from which a block gets a mapping
of its own (given back when it is freed) rises to that of the largest such block freed so far, up to 32 MiB,
so the stage buffers and Parquet pages of a few MiB then come from the heap, whose holes are kept; and each
thread that allocates gets an arena of its own, up to eight per core, each keeping its own free memory
(gRPC's and Beam's threads in a worker). At 10x MSR-VTT on the FnApiRunner, setting the two in the
environment took the run's peak from 4.6 to 3.6 GB with no other change (docs/benchmarks.md, "Rows in
shards, freed memory returned").

The settings are glibc's documented tunables, as dask.distributed sets the first for its workers
(`distributed.nanny.pre-spawn-environ`). They are set through `mallopt` when the process starts, before
its threads do, and only where the user has not set the environment variable of the same tunable.
"""
import ctypes
import ctypes.util
import os

# mallopt's parameter numbers (glibc's malloc.h).
M_TRIM_THRESHOLD = -1
M_ARENA_MAX = -8

# (parameter, environment variable that sets it at start, value): a fixed trim threshold also keeps the
# threshold for a block of its own mapping at its default, 128 KiB, instead of letting it rise.
SETTINGS = (
    (M_TRIM_THRESHOLD, "MALLOC_TRIM_THRESHOLD_", 64 * 1024),  # dask.distributed's value for its workers
    (M_ARENA_MAX, "MALLOC_ARENA_MAX", 2),
)


def return_freed_memory() -> list:
    """Set glibc's malloc as above; returns the environment variables of the settings made (none off glibc)."""
    libc = glibc()
    if libc is None:
        return []
    made = []
    for parameter, variable, value in SETTINGS:
        if variable not in os.environ and libc.mallopt(parameter, value) == 1:
            made.append(variable)
    return made


def glibc():
    """The C library when it is glibc (it has mallopt), else None (macOS, musl)."""
    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name)
        libc.gnu_get_libc_version  # glibc's own function: musl has mallopt's name, not its tunables
    except (OSError, TypeError, AttributeError):
        return None
    return libc
