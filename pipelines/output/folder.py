"""The output folder: checked before any work, written beside the target, swapped in once validated.

capclean replaces only what it wrote. Every output it creates holds a marker file
(MARKER); a folder without it is a user's, and is never replaced, whatever the
flags. A run writes into a staging folder `.NAME.partial-PID-XXXXXXXX` beside the
target and, once the output has passed validation, swaps it in under a lock, so
two runs finishing into the same target take turns instead of merging or failing.
"""
import ctypes
import errno
import fcntl
import logging
import os
import re
import shutil
import uuid
from contextlib import contextmanager
from pathlib import Path

from pipelines.output.json_files import write_json
from transforms.errors import CapcleanError

log = logging.getLogger("capclean")

# The file that marks a folder as a capclean output (and says which run wrote it).
MARKER = ".capclean-output"


class OutputRefused(CapcleanError):
    """An output path capclean will not write to; the message says why and what to do instead."""


def check_target(target: Path, inputs: list, overwrite: bool) -> None:
    """Refuse, before any work, an output path whose replacement could destroy a user's files."""
    if target.is_symlink():
        raise OutputRefused(f"--output {target} is a symbolic link; give the folder it points to, or a new folder")
    resolved = target.resolve()
    named = {Path("/"): "the root folder", Path.home().resolve(): "your home folder",
             Path.cwd().resolve(): "the working directory"}
    if resolved in named:
        raise OutputRefused(f"--output {target} is {named[resolved]}; name a new folder for the output")
    for source in inputs:
        source = Path(source).resolve()
        if resolved == source or resolved in source.parents:
            raise OutputRefused(f"--output {target} is or contains the input {source}; name a new folder")
    if not resolved.exists():
        return
    if not resolved.is_dir():
        raise OutputRefused(f"--output {target} is a file; name a new folder for the output")
    if not any(resolved.iterdir()):
        return
    if not (resolved / MARKER).is_file():
        raise OutputRefused(f"--output {target} is a folder capclean did not write (it has no {MARKER}); "
                            "name a new or empty folder")
    if not overwrite:
        raise OutputRefused(f"--output {target} holds an earlier capclean output; pass --overwrite to replace it")


def write_marker(folder: Path, about: dict) -> None:
    write_json(folder / MARKER, {"written_by": "capclean", **about})


def staging_folder(target: Path, kind: str = "partial") -> Path:
    """`.NAME.partial-PID-XXXXXXXX` (or `.old-`) beside `target`: hidden, and named after the process that owns it."""
    return target.parent / f".{target.name}.{kind}-{os.getpid()}-{uuid.uuid4().hex[:8]}"


def staging_pattern(target: Path) -> re.Pattern:
    return re.compile(rf"\.{re.escape(target.name)}\.(partial|old)-(\d+)-[0-9a-f]{{8}}")


def remove_stale_staging(target: Path) -> list:
    """Delete the staging and set-aside folders that runs into `target` left when they were killed.

    Only folders named by `staging_folder` for this very target, and only those
    whose process is gone: a run still writing keeps its folder. A previous output
    set aside by a run killed before it could put the new one in place is put back.
    """
    pattern = staging_pattern(target)
    removed = []
    for folder in sorted(target.parent.iterdir()):
        match = pattern.fullmatch(folder.name)
        if not match or not folder.is_dir() or folder.is_symlink() or process_is_running(int(match.group(2))):
            continue
        if match.group(1) == "old" and not target.exists():
            log.info("putting back %s, the output an earlier run set aside before it was killed", folder)
            os.rename(folder, target)
        else:
            log.info("removing %s, left by an earlier run that did not finish", folder)
            shutil.rmtree(folder, ignore_errors=True)
            removed.append(folder)
    return removed


def process_is_running(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True


@contextmanager
def target_lock(target: Path):
    """Hold `.NAME.lock` beside `target` while the output is swapped: one run at a time."""
    with open(target.parent / f".{target.name}.lock", "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def put_in_place(new: Path, target: Path, inputs: list) -> None:
    """Swap the finished output in. Under the lock the target is checked again: another run may
    have finished into it meanwhile (then its output, which carries the marker, is replaced), and
    a user may have put files there (then nothing is replaced)."""
    with target_lock(target):
        check_target(target, inputs, overwrite=True)
        replace_folder(new, target)


def replace_folder(new: Path, target: Path) -> None:
    """Put `new` at `target`: one atomic exchange where the system has one, so `target` is
    never missing; the previous output is deleted last."""
    if not target.exists():
        os.rename(new, target)
        return
    if exchange_paths(new, target):
        shutil.rmtree(new)  # `new` now holds the previous output
        return
    old = staging_folder(target, "old")
    os.rename(target, old)
    os.rename(new, target)
    shutil.rmtree(old)


_RENAME_EXCHANGE = 2  # linux/fs.h


def exchange_paths(a: Path, b: Path) -> bool:
    """Swap two paths atomically (Linux renameat2 RENAME_EXCHANGE); False where that is not available."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False  # not Linux, or a C library without renameat2
    at_cwd = -100  # AT_FDCWD: the paths are resolved as given
    if renameat2(at_cwd, os.fsencode(a), at_cwd, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    error = ctypes.get_errno()
    if error in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP):
        return False  # a file system or kernel that cannot exchange
    raise OSError(error, f"cannot swap {a} and {b}: {os.strerror(error)}")


@contextmanager
def staging_for(output: Path):
    """A new staging folder beside `output` (after removing what killed runs left there); removed
    if the run fails, whatever the failure."""
    output.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_staging(output)
    staging = staging_folder(output)
    try:
        yield staging
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
