"""What `capclean clean` does when the user names the wrong folder or the system fails: one line, a
documented exit code, the partial output removed, the user's files and the earlier output as they were."""
import errno
import json

import pytest

import pipelines.cleaning.run
from pipelines.cli import main
from pipelines.runtime.worker_errors import worker_errors_as_one_line


@pytest.fixture
def earlier_output(tmp_path, tiny_dataset, files_digest):
    """(input, output, digest of the output): a finished run to be kept safe."""
    source, output = tiny_dataset(tmp_path / "in"), tmp_path / "out"
    assert main(["clean", "--input", str(source), "--output", str(output)]) == 0
    return source, output, files_digest(output)


def error_lines(capsys) -> list:
    return [line for line in capsys.readouterr().err.splitlines() if line.startswith("capclean")]


def test_a_users_folder_named_as_output_is_left_alone(tmp_path, capsys, tiny_dataset, files_digest):
    thesis = tmp_path / "thesis"
    thesis.mkdir()
    (thesis / "thesis.tex").write_text("five years of work")
    for flags in ([], ["--overwrite"]):
        assert main(["clean", "--input", str(tiny_dataset(tmp_path / "in")), "--output", str(thesis), *flags]) == 2
        (line,) = error_lines(capsys)
        assert line.startswith(f"capclean: error: --output {thesis} is a folder capclean did not write")
    assert (thesis / "thesis.tex").read_text() == "five years of work"


def test_the_input_named_as_output_is_left_alone(tmp_path, capsys, tiny_dataset, files_digest):
    source = tiny_dataset(tmp_path / "in")
    before = files_digest(source)
    assert main(["clean", "--input", str(source), "--output", str(source), "--overwrite"]) == 2
    assert "is or contains the input" in error_lines(capsys)[0]
    assert files_digest(source) == before


def test_an_earlier_output_needs_overwrite(earlier_output, capsys, files_digest):
    source, output, before = earlier_output
    assert main(["clean", "--input", str(source), "--output", str(output)]) == 2
    assert error_lines(capsys) == [f"capclean: error: --output {output} holds an earlier capclean output; "
                                   "pass --overwrite to replace it"]
    assert files_digest(output) == before


def only_the_output_is_left(tmp_path) -> bool:
    return sorted(path.name for path in tmp_path.iterdir() if not path.name.endswith(".lock")) == ["in", "out"]


def test_ctrl_c_exits_130_and_removes_the_partial_output(earlier_output, tmp_path, capsys, monkeypatch,
                                                         files_digest):
    source, output, before = earlier_output

    def interrupted(input_path, output_dir, config, beam_args, *more):
        (tmp_path / output_dir).mkdir()  # the run had begun to write
        raise KeyboardInterrupt

    monkeypatch.setattr(pipelines.cleaning.run, "run_pipeline", interrupted)
    assert main(["clean", "--input", str(source), "--output", str(output), "--overwrite"]) == 130
    assert error_lines(capsys) == ["capclean: interrupted; the earlier output, if any, is as it was"]
    assert files_digest(output) == before and only_the_output_is_left(tmp_path)


def test_a_full_disk_is_one_line_exit_2_and_the_partial_output_is_removed(earlier_output, tmp_path, capsys,
                                                                           monkeypatch, files_digest):
    # A stand-in for a full disk (no file system can be filled here): the exports fail as a write would.
    source, output, before = earlier_output

    def disk_full(*args):
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "x.parquet"))

    monkeypatch.setattr(pipelines.cleaning.run, "write_report_and_exports", disk_full)
    assert main(["clean", "--input", str(source), "--output", str(output), "--overwrite"]) == 2
    assert error_lines(capsys) == [f"capclean: error: No space left on device ({tmp_path / 'x.parquet'})"]
    assert files_digest(output) == before and only_the_output_is_left(tmp_path)


@pytest.mark.parametrize("wrapped, expected", [
    ("Error in DoFn ... OSError: [Errno 28] No space left on device [while running 'Write']", OSError),
    ("Traceback ... PermissionError: [Errno 13] Permission denied: '/out/part'", OSError),
    ("... MemoryError\n", MemoryError),
])
def test_a_system_failure_on_a_worker_comes_back_as_what_it_was(wrapped, expected):
    with pytest.raises(expected) as raised:
        with worker_errors_as_one_line():
            raise RuntimeError(wrapped)
    if expected is OSError:
        assert raised.value.errno in (28, 13) and "[while running" not in raised.value.strerror


def test_an_error_that_is_not_the_systems_keeps_its_traceback():
    with pytest.raises(RuntimeError):
        with worker_errors_as_one_line():
            raise RuntimeError("a bug in a step")


@pytest.mark.parametrize("flags, line", [
    (["--profle", "paper"], "capclean: error: unknown option --profle (did you mean --profile?)"),
    (["--direct_num_worker=2"], "capclean: error: unknown option --direct_num_worker (did you mean "
                                "--direct_num_workers?)"),
    (["--runner=NoSuchRunner"], "capclean: error: --runner NoSuchRunner: Unexpected pipeline runner: NoSuchRunner."),
])
def test_a_mistyped_flag_or_runner_is_refused_before_any_work(tmp_path, capsys, tiny_dataset, flags, line):
    output = tmp_path / "out"
    assert main(["clean", "--input", str(tiny_dataset(tmp_path / "in")), "--output", str(output), *flags]) == 2
    (error,) = error_lines(capsys)
    assert error.startswith(line)
    assert not output.exists() and sorted(path.name for path in tmp_path.iterdir()) == ["in"]


def test_beam_options_of_the_runner_named_are_accepted():
    pipelines.runtime.runner.check_beam_flags(["--runner=DaskRunner", "--dask_client_address=tcp://x:8786",
                                    "--dask_local_workers=3", "--direct_num_workers=2"])


def test_an_input_with_no_usable_caption_gives_an_empty_output_and_says_so(tmp_path, capsys, write_annotations):
    videos = [{"video_id": "video1", "split": "train", "category": 1}]
    folder = write_annotations(tmp_path / "in", videos, [{"sen_id": 0, "video_id": "video1", "caption": "a" * 6000}])
    assert main(["clean", "--input", str(folder), "--output", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "output: 0 captions ()" in out and "validation passed" in out
    stats = json.loads((tmp_path / "out" / "stats.json").read_text())
    assert stats["output"]["captions"] == 0 and stats["steps"]["read"]["captions_removed"] == 1
