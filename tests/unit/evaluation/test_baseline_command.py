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


# ---------------------------------------------------------------- the hard negatives' scores

# Hard negatives of captions 0 and 2, as capclean hardneg writes them (their texts chosen to work by hand).
NEGATIVES = [(0, "noun", 0, "cat runs"), (0, "noun", 1, "dog jumps"), (0, "verb", 0, "dog sleeps"),
             (2, "noun", 0, "dog runs")]


def write_negatives(folder):
    from schemas.evaluation_tables import HARDNEG

    caption_of = {row["sen_id"]: row for row in SENTENCES}
    rows = [{"negative_id": f"{sen_id}-{part}-word-{k}", "sen_id": sen_id, "video_id": caption_of[sen_id]["video_id"],
             "part": part, "level": "word", "k": k, "text": text, "caption": caption_of[sen_id]["caption"],
             "positions": [1], "originals": ["x"], "replacements": ["y"], "source": "vocabulary"}
            for sen_id, part, k, text in NEGATIVES]
    (folder / "hardneg").mkdir(parents=True)
    pq.write_table(pa.Table.from_pylist(rows, schema=HARDNEG), folder / "hardneg" / "part-0.parquet")
    return folder


def test_the_negatives_scores_are_worked_by_hand_in_evaluate_s_order(raw, tmp_path, capsys):
    # Rows in evaluate's order: caption 0's nouns, caption 0's verb, caption 2's noun. Caption 0's video without
    # it is "dog jumps": the caption 1 / 2, "cat runs" 0, "dog jumps" 1; "dog sleeps" 1 / 2. Caption 2's video
    # without it is "dog runs": the caption 1 / 2, "dog runs" 1. NaN after a row's last negative.
    negatives = write_negatives(tmp_path / "negatives")
    code, out, err = run(capsys, "--protocol", "full-test", "--input", raw, "--output", tmp_path / "sim.npy",
                         "--negatives", negatives, "--negatives-output", tmp_path / "negatives.npy")
    assert code == 0, err
    assert "3 rows of hard negatives (a caption, part and level each)" in out
    assert main(["evaluate", "--protocol", "full-test", "--input", raw, "--write-texts", str(tmp_path / "texts.json"),
                 "--negatives", str(negatives)]) == 0
    import json

    written = json.loads((tmp_path / "texts.json").read_text(encoding="utf-8"))["negatives"]["rows"]
    assert [row["texts"] for row in written] == [["dog runs", "cat runs", "dog jumps"], ["dog runs", "dog sleeps"],
                                                ["cat runs", "dog runs"]]
    np.testing.assert_allclose(np.load(tmp_path / "negatives.npy"), [[0.5, 0.0, 1.0], [0.5, 0.5, np.nan],
                                                                     [0.5, 1.0, np.nan]], rtol=1e-6)


def test_evaluate_gives_the_negatives_scores_the_posrank_of_posrank_on_the_same_long_table(raw, tmp_path, capsys):
    import json

    negatives = write_negatives(tmp_path / "negatives")
    sim, scores = tmp_path / "sim.npy", tmp_path / "negatives.npy"
    assert run(capsys, "--protocol", "full-test", "--input", raw, "--output", sim, "--negatives", negatives,
               "--negatives-output", scores)[0] == 0
    assert main(["evaluate", "--protocol", "full-test", "--input", raw, "--write-texts", str(tmp_path / "texts.json"),
                 "--negatives", str(negatives)]) == 0
    rows = json.loads((tmp_path / "texts.json").read_text(encoding="utf-8"))["negatives"]["rows"]
    # The same scores as capclean posrank's long table: each (video, text) pair once.
    long = {(row["video_id"], text_id): float(value) for row, values in zip(rows, np.load(scores))
            for text_id, value in zip(row["text_ids"], values)}
    with open(tmp_path / "long.csv", "w", newline="") as handle:
        csv.writer(handle).writerows([["video_id", "text_id", "score"],
                                      *[[video, text_id, value] for (video, text_id), value in long.items()]])
    assert main(["evaluate", "--protocol", "full-test", "--input", raw, "--scores", str(sim), "--orientation",
                 "texts-x-videos", "--negatives", str(negatives), "--negatives-scores", str(scores), "--json",
                 str(tmp_path / "evaluate.json")]) == 0
    assert main(["posrank", "--negatives", str(negatives), "--scores", str(tmp_path / "long.csv"), "--json",
                 str(tmp_path / "posrank.json")]) == 0
    evaluated = json.loads((tmp_path / "evaluate.json").read_text(encoding="utf-8"))["posrank"]["figures"]
    alone = json.loads((tmp_path / "posrank.json").read_text(encoding="utf-8"))
    assert evaluated == {level: figures for level, figures in alone.items() if level != "written_by"}
    # By hand: each caption ranks second (a negative above it, or tied with it: ties count against it).
    assert evaluated["word"]["noun"]["posrank"] == 0.5 and evaluated["word"]["verb"]["posrank"] == 0.5


@pytest.mark.parametrize("flags, message", [
    (["--negatives", "{negatives}"], "--negatives and --negatives-output go together"),
    (["--negatives-output", "{tmp}/n.npy"], "--negatives and --negatives-output go together"),
    (["--negatives", "{negatives}", "--negatives-output", "{tmp}/sim.npy"], "is --output too"),
    (["--negatives", "{negatives}", "--negatives-output", "{tmp}/mine.npy"], "exists; name a new file"),
    (["--negatives", "{tmp}/nowhere", "--negatives-output", "{tmp}/n.npy"], "does not exist"),
])
def test_a_negatives_flag_it_cannot_use_is_one_line_before_any_work(raw, tmp_path, capsys, flags, message):
    negatives = write_negatives(tmp_path / "negatives")
    (tmp_path / "mine.npy").write_bytes(b"my scores")
    flags = [flag.format(negatives=negatives, tmp=tmp_path) for flag in flags]
    code, _, err = run(capsys, "--protocol", "full-test", "--input", raw, "--output", tmp_path / "sim.npy", *flags)
    assert code == 2 and len(err.strip().splitlines()) == 1 and message in err
    assert not (tmp_path / "sim.npy").exists() and (tmp_path / "mine.npy").read_bytes() == b"my scores"
