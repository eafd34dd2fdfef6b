"""`capclean fire` and its figures on small rankings and labels made so that each answer is known; the
arithmetic is in the comments. The fixture fire_msrvtt_sample.json is hand-written in the format of FIRE's
released labels (data/fire_msrvtt_dataset.json of facebookresearch/mm-retrieval-evaluation)."""
import csv
import json
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipelines.cli import main
from transforms.evaluation.fire import (average_precision, bootstrap_queries_needed, correct_at_k, correct_by_length,
                                        default_sizes, label_sets, length_bin, mean_figures, mean_overlaps, per_query,
                                        rank_biased_overlap, top_k_overlap)

HAND = 1e-4
FIXTURE = Path(__file__).parent / "fixtures" / "fire_msrvtt_sample.json"


# --- the figures, one test each ----------------------------------------------------------------

def test_correct_at_k_is_one_relevant_video_in_the_top_k_not_precision():
    ranking, gold = ["x", "r1", "r2", "y"], {"r1", "r2"}
    assert correct_at_k(ranking, gold, 1) == 0
    assert correct_at_k(ranking, gold, 2) == 1  # precision at 2 would be 0.5
    assert correct_at_k(ranking, gold, 3) == 1  # precision at 3 would be 0.667
    assert correct_at_k(["x", "y"], gold, 10) == 0
    # The mean over queries is a share of queries: one hit at rank 1 of two queries.
    values = per_query({"q1": ["r1", "x"], "q2": ["x", "y"]}, {"q1": {"r1"}, "q2": {"r1"}}, ks=(1, 2))
    assert mean_figures(values)["C@1"] == 0.5
    with pytest.raises(ValueError):
        correct_at_k(ranking, gold, 0)


def test_average_precision_with_each_normaliser():
    ranking, gold = ["r1", "x", "r2", "y"], {"r1", "r2", "r3"}  # r3 is labelled relevant but not retrieved
    # retrieved (FIRE's code): (P@1 + P@3) / 2 = (1 + 2/3) / 2 = 0.8333
    assert average_precision(ranking, gold) == pytest.approx(0.8333, abs=HAND)
    # labelled: (1 + 2/3) / 3 = 0.5556
    assert average_precision(ranking, gold, "labelled") == pytest.approx(0.5556, abs=HAND)
    # one positive at rank 2: 1/2 both ways; none retrieved: 0 both ways
    assert average_precision(["x", "r1"], {"r1"}) == average_precision(["x", "r1"], {"r1"}, "labelled") == 0.5
    assert average_precision(["x", "y"], {"r1"}) == average_precision(["x", "y"], {"r1"}, "labelled") == 0.0
    with pytest.raises(ValueError):
        average_precision(ranking, gold, "recall")


def test_the_three_label_sets_and_their_figures():
    originals = {"q": {"v1"}}
    extra = [("q", "v2", {"clip4clip"}), ("q", "v3", {"ssb"}), ("q", "v4", {"clip4clip", "ssb"})]
    sets = label_sets(originals, extra, model="CLIP4CLIP")
    assert sets == {"original": {"q": {"v1"}}, "original+extra": {"q": {"v1", "v2", "v3", "v4"}},
                    "original+others": {"q": {"v1", "v3"}}}  # v2 and v4 came (also) from the model's own pool
    assert "original+others" not in label_sets(originals, extra)
    ranking = {"q": ["v2", "v3", "v1"]}
    figures = {name: mean_figures(per_query(ranking, gold)) for name, gold in sets.items()}
    assert figures["original"]["C@1"] == 0 and figures["original"]["mAP"] == pytest.approx(1 / 3)
    assert figures["original+extra"]["C@1"] == 1 and figures["original+extra"]["mAP"] == 1.0
    # v3 at 2, v1 at 3: (1/2 + 2/3) / 2 = 0.5833
    assert figures["original+others"]["C@1"] == 0
    assert figures["original+others"]["mAP"] == pytest.approx(0.5833, abs=HAND)


def test_top_10_overlap():
    a = [f"v{n}" for n in range(10)]
    b = [f"v{n}" for n in range(5, 15)]
    assert top_k_overlap(a, b) == 0.5  # v5..v9 shared
    assert top_k_overlap(a, list(reversed(a))) == 1.0  # the order inside the top 10 does not count
    assert top_k_overlap(a, b, k=5) == 0.0
    assert mean_overlaps({"q1": a, "q2": a}, {"q1": b, "q2": a, "q3": b})["top10_overlap"] == 0.75


def test_rank_biased_overlap_by_hand():
    # X1 = 1, X2 = 1, X3 = 3; p = 0.5: (1 - p)/p * (1/1 * .5 + 1/2 * .25 + 3/3 * .125) + 3/3 * .125 = 0.875
    assert rank_biased_overlap(["A", "B", "C"], ["A", "C", "B"], p=0.5) == pytest.approx(0.875)
    # X1 = 0, X2 = 2: (1 - p)/p * (0/1 * .5 + 2/2 * .25) + 2/2 * .25 = 0.5; the extrapolation counts
    # the two lists as agreeing beyond depth 2, so only the swap at the top costs
    assert rank_biased_overlap(["A", "B"], ["B", "A"], p=0.5) == pytest.approx(0.5)
    assert rank_biased_overlap(list("ABCDE"), list("ABCDE")) == pytest.approx(1.0)
    assert rank_biased_overlap(list("ABC"), list("XYZ")) == 0.0
    with pytest.raises(ValueError):
        rank_biased_overlap(["A"], ["A"], p=1.0)


def test_correct_at_k_by_caption_length():
    captions = {"q1": "a man talks", "q2": "a man is talking to a crowd", "q3": "a red car on a wet road",
                "q4": "a woman in a long red dress is singing a slow song on a stage"}
    values = {"q1": {"C@1": 1, "AP": 1.0}, "q2": {"C@1": 1, "AP": 1.0}, "q3": {"C@1": 0, "AP": 0.0},
              "q4": {"C@1": 0, "AP": 0.0}, "q5": {"C@1": 1, "AP": 1.0}}  # q5 has no caption: left out
    # 3 words -> 1-5; 7 and 7 words -> 6-8; 15 words -> 12+; no query in 9-11
    assert correct_by_length(values, captions) == {"1-5": {"C@1": 1.0, "queries": 1},
                                                   "6-8": {"C@1": 0.5, "queries": 2},
                                                   "12+": {"C@1": 0.0, "queries": 1}}
    assert [length_bin(n) for n in (1, 5, 6, 8, 9, 11, 12)] == ["1-5", "1-5", "6-8", "6-8", "9-11", "9-11", "12+"]


def test_the_bootstrap_finds_the_number_of_queries_known_in_advance():
    # A beats B on half the queries and ties on the rest. A resample of n queries shows no difference only
    # when all n are ties, probability 0.5^n: 3.1% at n = 5 (more than the 2.5% tail), 1.6% at n = 6.
    a, b = [1] * 50 + [0] * 50, [0] * 100
    result = bootstrap_queries_needed(a, b, sizes=range(1, 11), resamples=4000, seed=0)
    assert result["difference"] == 0.5
    assert result["queries_needed"] == 6
    assert result == bootstrap_queries_needed(a, b, sizes=range(1, 11), resamples=4000, seed=0)  # seeded
    # A better on every query: the first size detects it; a symmetric difference is never detected.
    assert bootstrap_queries_needed([1] * 30, [0] * 30, sizes=[2, 5])["queries_needed"] == 2
    assert bootstrap_queries_needed([1, 0] * 50, [0, 1] * 50)["queries_needed"] is None
    assert default_sizes(1000) == [10, 20, 50, 100, 200, 500, 1000]
    assert default_sizes(7) == [7]


# --- the command -------------------------------------------------------------------------------

def write_csv(path: Path, header: list, rows: list) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def ranked_rows(rankings: dict) -> list:
    return [[query, video, rank, 1.0 / rank] for query, videos in rankings.items()
            for rank, video in enumerate(videos, start=1)]


HEADER = ["sen_id", "video_id", "rank", "score"]
LABEL_HEADER = ["query", "video", "label", "source"]


def test_two_models_end_to_end_with_parquet_and_csv(tmp_path, capsys):
    # Model A ranks q1's original first, q2's at 3; model B the reverse order of A.
    a = {"1": ["v1", "v2", "v3"], "2": ["v1", "v3", "v2"]}
    b = {"1": ["v3", "v2", "v1"], "2": ["v2", "v3", "v1"]}
    pq.write_table(pa.Table.from_pylist([dict(zip(HEADER, [int(q), v, r, s])) for q, v, r, s in ranked_rows(a)]),
                   tmp_path / "a.parquet")
    write_csv(tmp_path / "b.csv", HEADER, ranked_rows(b))
    write_csv(tmp_path / "labels.csv", LABEL_HEADER, [
        ["1", "v1", "1", "original"], ["2", "v2", "1", "original"],
        ["2", "v3", "relevant", "ssb"], ["1", "v3", "0", "clip4clip"], ["9", "v9", "1", "ssb"]])
    arguments = ["fire", "--predictions", str(tmp_path / "a.parquet"), "--predictions-b", str(tmp_path / "b.csv"),
                 "--labels", str(tmp_path / "labels.csv"), "--model", "clip4clip", "--output", str(tmp_path / "out")]
    # The label of query 9 names no predicted query: an error naming it, unless asked to skip it.
    assert main(arguments) == 2
    assert "labels.csv: line 6: the label of query '9', video v9 would be lost" in capsys.readouterr().err
    assert main(arguments + ["--skip-unmatched-labels"]) == 0
    printed = capsys.readouterr().out
    assert "1 label(s) matched no query" in printed
    figures = json.loads((tmp_path / "out" / "fire.json").read_text())
    # A, original: q1 hit at 1 (AP 1), q2 at 3 (AP 1/3): C@1 .5, mAP .6667
    assert figures["a"]["label_sets"]["original"]["C@1"] == 0.5
    assert figures["a"]["label_sets"]["original"]["mAP"] == pytest.approx(0.6667, abs=HAND)
    # A, with v3 for q2 (from SSB's pool, so also in original+others): q2's AP = (1/2 + 2/3) / 2 = .5833
    assert figures["a"]["label_sets"]["original+extra"]["mAP"] == pytest.approx((1 + 0.5833) / 2, abs=HAND)
    assert figures["a"]["label_sets"]["original+others"] == figures["a"]["label_sets"]["original+extra"]
    # B: q1's original at 3 (1/3), q2's at 1; with v3, q2 has both at 1 and 2 (AP 1)
    assert figures["b"]["label_sets"]["original"]["mAP"] == pytest.approx(0.6667, abs=HAND)
    assert figures["b"]["label_sets"]["original+extra"]["C@1"] == 0.5
    # top 3 shared on both queries: 3/10 each; RBO below 1 as the orders differ
    assert figures["overlap"]["top10_overlap"] == pytest.approx(0.3)
    assert 0 < figures["overlap"]["rbo"] < 1
    assert figures["bootstrap"]["difference"] == 0.0


def test_the_fire_label_fixture_matched_by_caption_text(tmp_path, capsys, write_annotations):
    raw = write_annotations(tmp_path / "raw", [{"video_id": "video1", "split": "test", "category": 1},
                                               {"video_id": "video2", "split": "test", "category": 1}],
                            [{"sen_id": 0, "video_id": "video1", "caption": "a man is talking"},
                             {"sen_id": 1, "video_id": "video2", "caption": "a dog runs on the beach with a red ball"}])
    write_csv(tmp_path / "a.csv", HEADER, ranked_rows({"0": ["video20", "video1", "video30", "video40"],
                                                      "1": ["video40", "video10", "video2"]}))
    assert main(["fire", "--predictions", str(tmp_path / "a.csv"), "--labels", str(FIXTURE), "--captions", str(raw),
                 "--model", "CLIP4CLIP", "--output", str(tmp_path / "out")]) == 0
    sets = json.loads((tmp_path / "out" / "fire.json").read_text())["a"]["label_sets"]
    # original (each caption's own video, from the captions): ranks 2 and 3 -> C@1 0, mAP (1/2 + 1/3) / 2
    assert sets["original"]["C@1"] == 0 and sets["original"]["mAP"] == pytest.approx(0.4167, abs=HAND)
    # + FIRE's relevant pairs (video40 is irrelevant for query 0 and a disagreement for query 1):
    # query 0: video20, video1, video30 relevant at 1-3 (AP 1); query 1: video10, video2 at 2, 3 (AP .5833)
    assert sets["original+extra"]["C@1"] == 0.5
    assert sets["original+extra"]["mAP"] == pytest.approx((1 + 0.5833) / 2, abs=HAND)
    # from other models only: video20 and video30 were in CLIP4CLIP's pool, video10 only in SSB's
    assert sets["original+others"]["C@1"] == 0
    assert sets["original+others"]["mAP"] == pytest.approx((0.5 + 0.5833) / 2, abs=HAND)
    assert "1-5" in capsys.readouterr().out  # "a man is talking": 4 words


@pytest.mark.parametrize("rows, message", [
    ([["1", "v1", "1", "0.5"], ["1", "v2", "1", "0.4"]], "line 3 gives sen_id 1 rank 1 again (first at line 2)"),
    ([["1", "v1", "1", "high"]], "line 2, column score: 'high' is not a number"),
    ([["1", "v1", "first", "0.5"]], "line 2, column rank: 'first' is not a number"),
    ([["1", "v1", "1.5", "0.5"]], "line 2, column rank: '1.5' is not a whole number"),
    ([["1", "v1", "1", "0.5"], ["1", "v1", "2", "0.4"]], "line 3 ranks video v1 twice for sen_id 1"),
    ([["", "v1", "1", "0.5"]], "line 2 has no sen_id"),
])
def test_bad_predictions_are_one_line_naming_file_and_row(tmp_path, capsys, rows, message):
    predictions = write_csv(tmp_path / "p.csv", HEADER, rows)
    labels = write_csv(tmp_path / "l.csv", LABEL_HEADER, [["1", "v1", "1", "original"]])
    assert main(["fire", "--predictions", str(predictions), "--labels", str(labels)]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "Traceback" not in error
    assert str(predictions) in error and message in error


def test_missing_columns_and_bad_labels_are_one_line(tmp_path, capsys):
    predictions = write_csv(tmp_path / "p.csv", ["sen_id", "video", "rank"], [["1", "v1", "1"]])
    labels = write_csv(tmp_path / "l.csv", LABEL_HEADER, [["1", "v1", "maybe", "original"]])
    assert main(["fire", "--predictions", str(predictions), "--labels", str(labels)]) == 2
    error = capsys.readouterr().err
    assert "p.csv: no column(s) video_id, score" in error and error.count("\n") == 1
    good = write_csv(tmp_path / "good.csv", HEADER, [["1", "v1", "1", "0.5"]])
    assert main(["fire", "--predictions", str(good), "--labels", str(labels)]) == 2
    assert "l.csv: line 2, column label: 'maybe' is not" in capsys.readouterr().err
    no_original = write_csv(tmp_path / "n.csv", LABEL_HEADER, [["1", "v1", "1", "ssb"]])
    assert main(["fire", "--predictions", str(good), "--labels", str(no_original)]) == 2
    assert "no original positive" in capsys.readouterr().err
    assert main(["fire", "--predictions", str(tmp_path / "p.txt"), "--labels", str(labels)]) == 2
    assert "must be a .parquet or .csv file" in capsys.readouterr().err
    other = write_csv(tmp_path / "other.csv", HEADER, [["2", "v1", "1", "0.5"]])
    assert main(["fire", "--predictions", str(good), "--predictions-b", str(other), "--labels",
                 str(write_csv(tmp_path / "o.csv", LABEL_HEADER, [["1", "v1", "1", "original"]]))]) == 2
    assert "rank no query (sen_id) in common" in capsys.readouterr().err
    (tmp_path / "bad.json").write_text("[1, 2]")
    assert main(["fire", "--predictions", str(good), "--labels", str(tmp_path / "bad.json")]) == 2
    assert "is not FIRE's label JSON" in capsys.readouterr().err
