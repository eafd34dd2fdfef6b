"""Atomic output: a run writes beside its target and swaps the new output in only once it has passed
validation. A run killed half-way leaves the previous output as it was, and no half dataset."""
import hashlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipelines.cli import main
from pipelines.output.folder import remove_stale_staging, replace_folder, staging_folder


def folder_digest(folder: Path) -> dict:
    return {str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def dead_pid() -> int:
    """The id of a process that has ended (ours, just started and waited for)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_a_run_killed_half_way_leaves_the_previous_output(tmp_path, repo, tiny_dataset):
    source = tiny_dataset(tmp_path / "in")
    output = tmp_path / "out"
    assert main(["clean", "--input", str(source), "--output", str(output)]) == 0
    before = folder_digest(output)

    run = subprocess.Popen([sys.executable, "-m", "pipelines.cli", "clean", "--input", str(source),
                            "--output", str(output), "--overwrite", "--profile", "paper"],
                           cwd=repo, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        staging = []
        deadline = time.monotonic() + 120
        while not staging and run.poll() is None and time.monotonic() < deadline:
            staging = [path for path in tmp_path.iterdir() if path.name.startswith(".out.partial-")
                       and any(path.rglob("*.parquet"))]
            time.sleep(0.02)
        assert staging, "the run never wrote into a staging folder"
        os.killpg(run.pid, signal.SIGKILL)  # the run and any worker it started: its own process group
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
        run.wait()

    assert run.returncode == -signal.SIGKILL
    assert folder_digest(output) == before  # the previous output, byte for byte
    leftovers = [path.name for path in tmp_path.iterdir() if path.name.startswith(".out.") and path.name != ".out.lock"]
    assert leftovers and all(name.startswith(".out.partial-") for name in leftovers)

    # The next run removes what the killed run left and replaces the output.
    assert main(["clean", "--input", str(source), "--output", str(output), "--overwrite", "--profile", "paper"]) == 0
    assert sorted(path.name for path in tmp_path.iterdir()) == [".out.lock", "in", "out"]
    assert folder_digest(output) != before  # the paper profile's output, not the default's


def test_only_stale_folders_of_this_target_are_removed(tmp_path):
    target = tmp_path / "out"
    target.mkdir()
    gone = dead_pid()
    stale = tmp_path / f".out.partial-{gone}-0123abcd"
    running = tmp_path / f".out.partial-{os.getppid()}-0123abcd"  # pytest's parent process is alive
    other_target = tmp_path / f".outer.partial-{gone}-0123abcd"
    not_ours = tmp_path / ".out.partial-mine"
    for folder in (stale, running, other_target, not_ours):
        folder.mkdir()
        (folder / "file").write_text("x")
    assert remove_stale_staging(target) == [stale]
    assert not stale.exists() and running.exists() and other_target.exists() and not_ours.exists()


def test_a_previous_output_set_aside_is_put_back(tmp_path):
    """A run killed between moving the old output aside and moving the new one in (where the system
    has no atomic exchange) leaves the old output set aside; the next run puts it back."""
    target = tmp_path / "out"
    aside = tmp_path / f".out.old-{dead_pid()}-0123abcd"
    aside.mkdir()
    (aside / "stats.json").write_text("{}")
    remove_stale_staging(target)
    assert (target / "stats.json").read_text() == "{}" and not aside.exists()


def test_replacing_an_output_swaps_it_whole(tmp_path):
    target, new = tmp_path / "out", staging_folder(tmp_path / "out")
    target.mkdir()
    (target / "old.txt").write_text("old")
    new.mkdir()
    (new / "new.txt").write_text("new")
    replace_folder(new, target)
    assert [path.name for path in target.iterdir()] == ["new.txt"]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["out"]


def test_staging_folders_are_named_after_their_process(tmp_path):
    folder = staging_folder(tmp_path / "out")
    assert folder.parent == tmp_path and folder.name.startswith(f".out.partial-{os.getpid()}-")


@pytest.mark.parametrize("kind", ["partial", "old"])
def test_a_folder_of_a_live_run_is_left_alone(tmp_path, kind):
    target = tmp_path / "out"
    target.mkdir()
    live = staging_folder(target, kind)  # this process: alive
    live.mkdir()
    assert remove_stale_staging(target) == [] and live.exists()
