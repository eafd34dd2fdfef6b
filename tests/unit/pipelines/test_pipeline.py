"""The pipeline end to end on small handmade inputs."""
import json

import pyarrow.parquet as pq

from pipelines.cli import main


def test_a_tiny_dataset_through_the_paper_profile(tmp_path, tiny_dataset):
    output = tmp_path / "out"
    assert main(["clean", "--input", str(tiny_dataset(tmp_path / "in")), "--output", str(output),
                 "--profile", "paper"]) == 0
    captions = {row["sen_id"]: row["caption"] for row in pq.read_table(output / "captions").to_pylist()}
    assert captions == {1: "a man is playing a guitar on stage", 2: "a man plays the video game",
                        4: "a woman and her dog walk in the park"}
    removed = {row["sen_id"]: (row["step"], row["reason"]) for row in pq.read_table(output / "removed").to_pylist()}
    assert removed[0][0] == "dedup"
    assert removed[3] == ("normalize", "caption empty after normalize (remove_symbols)")
    assert removed[5] == ("read", "video 'video99' is not in the video table")
    assert removed[6][1].startswith("caption is not a string")
    stats = json.loads((output / "stats.json").read_text())
    assert stats["input"]["captions"] == 7 and stats["output"]["captions"] == 3
    assert stats["steps"]["read"]["captions_removed"] == 2


def test_one_step_alone(tmp_path, tiny_dataset):
    output = tmp_path / "out"
    assert main(["clean", "--input", str(tiny_dataset(tmp_path / "in")), "--output", str(output),
                 "--steps", "normalize"]) == 0
    edits = pq.read_table(output / "edits").to_pylist()
    assert {row["step"] for row in edits} == {"normalize"}
    assert pq.read_table(output / "corrections").num_rows == 0
    stats = json.loads((output / "stats.json").read_text())
    assert stats["steps_run"] == ["normalize", "screen"]  # screening always runs


def test_a_missing_input_is_one_line_and_exit_2(tmp_path, capsys):
    assert main(["clean", "--input", str(tmp_path / "nowhere"), "--output", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1] == f"capclean: error: input {tmp_path / 'nowhere'} does not exist"


def test_a_broken_file_stops_the_run_naming_it(tmp_path, capsys):
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "broken.json").write_text('{"videos": [], "sentences": [')
    assert main(["clean", "--input", str(folder), "--output", str(tmp_path / "out")]) == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert "broken.json is not valid JSON" in last and "Traceback" not in last
    assert not (tmp_path / "out").exists()


def test_failed_validation_exits_1_and_keeps_the_previous_output(tmp_path, capsys, tiny_dataset, files_digest):
    output = tmp_path / "out"
    source = tiny_dataset(tmp_path / "in")
    assert main(["clean", "--input", str(source), "--output", str(output)]) == 0
    before = files_digest(output)
    # video1 is a train video, outside a train range of [2, 5]. (A caption outside the
    # character set no longer fails validation: screening removes it.)
    ranges = tmp_path / "ranges.yaml"
    ranges.write_text("validation:\n  split_video_ranges:\n    train: [2, 5]\n    test: [7010, 9999]\n")
    assert main(["clean", "--input", str(source), "--output", str(output), "--overwrite", "--config", str(ranges)]) == 1
    assert "failed validation" in capsys.readouterr().err
    assert files_digest(output) == before


# The same bytes whatever the runner (in-process, multi-process, Dask): tests/integration/test_runners.py.
