import json

import pytest

from pipelines.cli import main
from pipelines.cleaning.sweep import PAPER_GRID, add_figures, dedup_figures, parse_grid
from transforms.batch import Caption, VideoBatch


def test_the_default_grid_is_the_papers_eight_points():
    assert len(PAPER_GRID) == len(set(PAPER_GRID)) == 8
    assert {e for e, s in PAPER_GRID if s == 0.9} == {0, 1, 2}
    assert {s for e, s in PAPER_GRID if e == 0} == {0.75, 0.80, 0.85, 0.90, 0.95, 1.00}


def test_grid_parsing():
    assert parse_grid("0:0.9, 2:0.85") == ((0, 0.9), (2, 0.85))
    with pytest.raises(ValueError, match="'x:0.9' is not E:S"):
        parse_grid("x:0.9")


def test_figures_per_grid_point_of_one_video():
    batch = VideoBatch("video1", "train", 1, [Caption(1, "a man is cooking pasta"), Caption(2, "a men is cookin pasta"),
                                              Caption(3, "a man is cooking pasta now")])
    figures = dict(dedup_figures(batch, ((0, 0.9), (1, 0.9), (0, 0.8))))
    assert figures[(0, 0.9)] == (2, 1, 1)   # 1 and 3 are 0.9 similar (5 of 5 and 5 of 6 words)
    assert figures[(1, 0.9)] == (1, 2, 1)   # with e = 1, "men"/"cookin" match too
    assert figures[(0, 0.8)] == (2, 1, 1)
    assert add_figures([(2, 1, 1), (3, 0, 0)]) == (5, 1, 1)


def test_sweep_agrees_with_the_cleaning_at_the_same_point(tmp_path, tiny_dataset):
    source = tiny_dataset(tmp_path / "in")
    assert main(["sweep", "--input", str(source), "--output", str(tmp_path / "sweep"), "--grid", "0:0.85,0:1.0"]) == 0
    rows = json.loads((tmp_path / "sweep" / "sweep.json").read_text())
    assert [(row["e"], row["s"]) for row in rows] == [(0, 0.85), (0, 1.0)]
    assert main(["clean", "--input", str(source), "--output", str(tmp_path / "clean"), "--steps",
                 "normalize,spelling,dedup"]) == 0
    stats = json.loads((tmp_path / "clean" / "stats.json").read_text())
    assert rows[0]["remaining"] == stats["output"]["captions"]
    assert rows[0]["removed"] == stats["steps"]["dedup"]["captions_removed"]
    assert (tmp_path / "sweep" / "sweep.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_sweep_never_writes_into_a_users_folder_and_replaces_its_own_only_when_told(tmp_path, capsys,
                                                                                         tiny_dataset):
    source = tiny_dataset(tmp_path / "in")
    results = tmp_path / "results"
    results.mkdir()
    (results / "sweep.csv").write_text("a user's own table")
    assert main(["sweep", "--input", str(source), "--output", str(results), "--overwrite"]) == 2
    assert "is a folder capclean did not write" in capsys.readouterr().err
    assert (results / "sweep.csv").read_text() == "a user's own table"
    sweep = tmp_path / "sweep"
    assert main(["sweep", "--input", str(source), "--output", str(sweep), "--grid", "0:0.85"]) == 0
    assert main(["sweep", "--input", str(source), "--output", str(sweep), "--grid", "0:0.9"]) == 2
    assert "pass --overwrite to replace it" in capsys.readouterr().err
    assert main(["sweep", "--input", str(source), "--output", str(sweep), "--grid", "0:0.9", "--overwrite"]) == 0
    assert json.loads((sweep / "sweep.json").read_text())[0]["s"] == 0.9
    assert sorted(path.name for path in tmp_path.iterdir() if not path.name.endswith(".lock")) == [
        "in", "results", "sweep"]
