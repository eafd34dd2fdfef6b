"""`capclean baseline` end to end: the matrix evaluate reads, its target refused in one line, and a 1k-A sentence
whose caption a cleaning edited left out of its video through the run's edits/."""
import csv

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipelines.cli import main

VIDEOS = [{"video_id": "video7010", "split": "test", "category": 1},
          {"video_id": "video7011", "split": "test", "category": 1}]
# test_text_baseline.py's two videos, worked by hand there.
SENTENCES = [{"sen_id": 0, "video_id": "video7010", "caption": "dog runs"},
             {"sen_id": 1, "video_id": "video7010", "caption": "dog jumps"},
             {"sen_id": 2, "video_id": "video7011", "caption": "cat runs"},
             {"sen_id": 3, "video_id": "video7011", "caption": "dog runs"}]
ROOT_12 = np.sqrt(12)


@pytest.fixture
def raw(tmp_path, write_annotations):
    return str(write_annotations(tmp_path / "raw", VIDEOS, SENTENCES))


def run(capsys, *args):
    code = main(["baseline", *map(str, args)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_the_full_test_matrix_is_the_one_worked_by_hand(raw, tmp_path, capsys):
    code, out, _ = run(capsys, "--protocol", "full-test", "--input", raw, "--output", tmp_path / "sim.npy")
    assert code == 0 and "4 texts x 2 videos of full-test (idf from 0 videos outside it)" in out
    np.testing.assert_allclose(np.load(tmp_path / "sim.npy"), [[1 / 2, 3 / ROOT_12], [1 / 2, 1 / ROOT_12],
                                                               [1 / ROOT_12, 1 / 2], [3 / ROOT_12, 1 / 2]], rtol=1e-6)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["raw", "sim.npy"]  # no partial file left


@pytest.mark.parametrize("name, message", [("mine.npy", "exists; name a new file"),
                                           ("sim.txt", "name a .npy file"), ("folder", "name a .npy file")])
def test_a_target_it_cannot_write_is_one_line_before_any_work(raw, tmp_path, capsys, name, message):
    (tmp_path / "mine.npy").write_bytes(b"my matrix")
    (tmp_path / "folder").mkdir()
    before = sorted(tmp_path.rglob("*"))
    code, _, err = run(capsys, "--protocol", "full-test", "--input", raw, "--output", tmp_path / name)
    assert code == 2 and len(err.strip().splitlines()) == 1 and message in err and str(tmp_path / name) in err
    assert sorted(tmp_path.rglob("*")) == before and (tmp_path / "mine.npy").read_bytes() == b"my matrix"


def test_a_sentence_whose_caption_the_cleaning_edited_is_left_out_through_edits(tmp_path, capsys, caplog):
    # A capclean output (its captions/ and edits/ only): caption 0 was "dog rnus" before step II corrected it;
    # the JSFusion sentence "dog rnus" matches no caption as cleaned, but caption 0's earlier text.
    run_folder = tmp_path / "run"
    (run_folder / "captions").mkdir(parents=True)
    (run_folder / "edits").mkdir()
    captions = [(0, "video7010", "dog runs"), (1, "video7010", "dog jumps"), (2, "video7011", "cat runs")]
    pq.write_table(pa.table({"sen_id": [c[0] for c in captions], "video_id": [c[1] for c in captions],
                             "split": ["test"] * 3, "caption": [c[2] for c in captions]}),
                   run_folder / "captions" / "part-0.parquet")
    pq.write_table(pa.table({"sen_id": [0], "video_id": ["video7010"], "step": ["spelling"], "before": ["dog rnus"],
                             "after": ["dog runs"]}), run_folder / "edits" / "part-0.parquet")
    with open(tmp_path / "jsfusion.csv", "w", newline="") as handle:
        csv.writer(handle).writerows([["video_id", "sentence"], ["video7010", "dog rnus"], ["video7011", "cat runs"]])
    caplog.set_level("INFO", logger="capclean")
    code, _, _ = run(capsys, "--protocol", "1k-A", "--videos", tmp_path / "jsfusion.csv", "--input", run_folder,
                     "--output", tmp_path / "sim.npy")
    # The protocol matched the sentence to caption 0 through edits/ (protocol_files.py): no sentence is unmatched.
    assert code == 0 and "match no caption" not in caplog.text
    # Row 0 against its own video without caption 0: "dog jumps", which shares dog: 1 / 2 ("dog rnus" and
    # "dog jumps" are both (dog + one other word) / root 2).
    assert np.load(tmp_path / "sim.npy")[0, 0] == pytest.approx(0.5)
