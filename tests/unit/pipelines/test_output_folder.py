"""The output folder: what capclean refuses to replace, and the swap of a finished output."""
import fcntl
import os
import threading
from pathlib import Path

import pytest

from pipelines.output.folder import (MARKER, OutputRefused, check_target, put_in_place, staging_folder,
                                     write_marker)


def capclean_output(folder: Path, content: str = "old") -> Path:
    folder.mkdir(parents=True)
    (folder / "captions.txt").write_text(content)
    write_marker(folder, {"profile": "test"})
    return folder


def test_a_new_or_empty_folder_is_fine(tmp_path):
    check_target(tmp_path / "new", [tmp_path / "input"], overwrite=False)
    (tmp_path / "empty").mkdir()
    check_target(tmp_path / "empty", [tmp_path / "input"], overwrite=False)


def test_a_users_folder_is_refused_even_with_overwrite(tmp_path):
    thesis = tmp_path / "thesis"
    thesis.mkdir()
    (thesis / "chapter1.tex").write_text("my thesis")
    for overwrite in (False, True):
        with pytest.raises(OutputRefused, match=f"no {MARKER}"):
            check_target(thesis, [tmp_path / "input"], overwrite)
    assert (thesis / "chapter1.tex").read_text() == "my thesis"


def test_an_earlier_output_is_replaced_only_with_overwrite(tmp_path):
    earlier = capclean_output(tmp_path / "out")
    with pytest.raises(OutputRefused, match="pass --overwrite"):
        check_target(earlier, [tmp_path / "input"], overwrite=False)
    check_target(earlier, [tmp_path / "input"], overwrite=True)


@pytest.mark.parametrize("where", ["input", "parent of input"])
def test_the_input_and_a_folder_holding_it_are_refused(tmp_path, where):
    source = tmp_path / "data" / "msrvtt"
    source.mkdir(parents=True)
    write_marker(source, {})  # even a folder that looks like an output
    target = source if where == "input" else source.parent
    with pytest.raises(OutputRefused, match="is or contains the input"):
        check_target(target, [source], overwrite=True)


def test_the_working_directory_home_and_root_are_refused(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for target, name in ((Path("."), "the working directory"), (Path.home(), "your home folder"),
                         (Path("/"), "the root folder")):
        with pytest.raises(OutputRefused, match=name):
            check_target(target, [tmp_path / "elsewhere"], overwrite=True)


def test_a_file_and_a_symbolic_link_are_refused(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("keep me")
    with pytest.raises(OutputRefused, match="is a file"):
        check_target(notes, [tmp_path / "input"], overwrite=True)
    link = tmp_path / "link"
    link.symlink_to(capclean_output(tmp_path / "real"))
    with pytest.raises(OutputRefused, match="symbolic link"):
        check_target(link, [tmp_path / "input"], overwrite=True)
    assert notes.read_text() == "keep me" and (tmp_path / "real" / "captions.txt").exists()


def test_the_swap_checks_the_target_again(tmp_path):
    target = tmp_path / "out"
    new = capclean_output(staging_folder(target), "new")
    target.mkdir()
    (target / "mine.txt").write_text("put here during the run")
    with pytest.raises(OutputRefused):
        put_in_place(new, target, [tmp_path / "input"])
    assert (target / "mine.txt").exists() and new.exists()


def test_a_run_waits_for_the_lock_another_run_holds_to_swap_its_output_in(tmp_path):
    target = tmp_path / "out"
    new = capclean_output(staging_folder(target), "new")
    with open(tmp_path / ".out.lock", "a") as other_run:
        fcntl.flock(other_run, fcntl.LOCK_EX)  # another run is swapping its output in
        swap = threading.Thread(target=put_in_place, args=(new, target, []))
        swap.start()
        swap.join(timeout=0.5)
        assert swap.is_alive() and not target.exists()
        fcntl.flock(other_run, fcntl.LOCK_UN)
    swap.join(timeout=10)
    assert (target / "captions.txt").read_text() == "new"


def test_the_later_of_two_runs_replaces_the_earlier_and_leaves_no_folder_behind(tmp_path):
    target = tmp_path / "out"
    for name in ("first", "second"):
        put_in_place(capclean_output(staging_folder(target), name), target, [])
    assert (target / "captions.txt").read_text() == "second"
    assert sorted(os.listdir(tmp_path)) == [".out.lock", "out"]
