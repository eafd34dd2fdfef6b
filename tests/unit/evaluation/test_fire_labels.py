"""FIRE's labels matched exactly to the queries they name, a score matrix's rankings with ties against the
model, the exact random baseline, and one small 1k-A case worked by hand through `capclean evaluate
--fire-labels` and `capclean fire` (a matrix, and a ranked table matched through the JSFusion sentences),
checked against FIRE's own algorithm (mmr/analysis.py, MsrvttEvaluation.score_model) restated below."""
import csv
import json
from fractions import Fraction

import numpy as np
import pytest

from pipelines.cli import main
from transforms.evaluation.fire import (Label, LabelQuery, ScoreMatrix, match_labels, random_average_precision,
                                        random_figures, top_columns)

HAND = 1e-4


def label(query, video, positive=True, where="line 2"):
    return Label(where, query, video, positive, frozenset({"clip4clip"}))


# --- matching ------------------------------------------------------------------------------------------

def test_a_label_is_matched_by_text_or_sen_id_exactly():
    queries = [LabelQuery("a dog runs", (2, 3), ("1",)), LabelQuery("a man talking about cars", (0,), ("0",)),
               LabelQuery("a dog runs", (9,), ("5",))]  # one text on two rows: the label goes to both
    matched, unmatched = match_labels([label("a dog runs", "v1"), label("0", "v2"), label("3", "v3", False)],
                                      queries)
    assert matched == [("1", "v1", True, frozenset({"clip4clip"})), ("5", "v1", True, frozenset({"clip4clip"})),
                       ("0", "v2", True, frozenset({"clip4clip"})), ("1", "v3", False, frozenset({"clip4clip"}))]
    assert unmatched == []
    # The raw caption "a man: talking about cars" is not the sentence: exact means exact.
    lost = label("a man: talking about cars", "v1", where="annotation 7")
    assert match_labels([lost], queries)[1] == [(lost, "its query matches no query text or sen_id")]


def test_a_label_of_a_video_outside_the_gallery_is_unmatched():
    queries = [LabelQuery("a dog runs", (2,), ("0",))]
    outside = label("a dog runs", "video9")
    matched, unmatched = match_labels([label("a dog runs", "video1"), outside], queries, videos=("video1",))
    assert len(matched) == 1 and unmatched == [(outside, "its video is not in the gallery")]


def test_a_query_no_ranking_stands_for_is_unmatched_and_says_so():
    # a 1k-A sentence whose captions' sen_ids a ranked table does not hold
    lost = label("a dog runs", "v1")
    assert match_labels([lost], [LabelQuery("a dog runs", (2, 3), ())])[1] == [
        (lost, "its query is known, but no ranked query stands for it (no sen_id of its captions was predicted)")]


def test_a_query_without_text_is_matched_by_sen_id_only():
    queries = [LabelQuery("", ("7",), ("7",))]
    assert match_labels([label("", "v1")], queries)[0] == []
    assert len(match_labels([label("7", "v1")], queries)[0]) == 1


# --- rankings of a matrix ------------------------------------------------------------------------------

def test_top_columns_count_a_tie_against_the_model():
    scores = np.array([0.5, 0.5, 0.9, 0.5, 0.1])
    # 0.9 first; among the three 0.5s the irrelevant ones (1, 3) before the relevant 0
    assert top_columns(scores, np.array([True, False, False, False, False]), 3).tolist() == [2, 1, 3]
    assert top_columns(scores, np.array([True, False, False, False, False]), 10).tolist() == [2, 1, 3, 0, 4]
    assert top_columns(scores, np.zeros(5, dtype=bool), 2).tolist() == [2, 0]  # then by column


def test_a_score_matrix_ranks_for_each_label_set():
    matrix = ScoreMatrix(np.array([[0.5, 0.5, 0.2]]), ("0",), ("v1", "v2", "v3"))
    assert matrix.rankings({"0": {"v1"}}, 2) == {"0": ["v2", "v1"]}
    assert matrix.rankings({"0": {"v2"}}, 2) == {"0": ["v1", "v2"]}


# --- the random baseline ---------------------------------------------------------------------------

def test_random_average_precision_by_hand():
    # 1 relevant of 3, top 2: at 1 (AP 1), at 2 (AP 1/2) or beyond (0), each 1/3: 1/2
    assert random_average_precision(1, 3, depth=2) == Fraction(1, 2)
    # 2 relevant of 4, all retrieved: the six pairs of places give 1, 5/6, 3/4, 7/12, 1/2, 5/12: 49/72
    assert random_average_precision(2, 4) == Fraction(49, 72)
    # 1 relevant of 1,000 in the top 20: H_20 / 1,000
    assert random_average_precision(1, 1000) == sum(Fraction(1, r) for r in range(1, 21)) / 1000
    assert random_average_precision(3, 3) == 1


def test_random_figures_by_hand():
    # Relevant counts 2, 3, 1, 2 among 4 videos: C@1 = (1/2 + 3/4 + 1/4 + 1/2) / 4
    figures = random_figures([2, 3, 1, 2], 4)
    assert figures["C@1"] == 0.5 and figures["C@5"] == 1.0 and figures["queries"] == 4
    # AP: 49/72 twice, 121/144 (three relevant), 25/48 (one): the mean is 49/72
    assert figures["mAP"] == pytest.approx(49 / 72)


# --- a small 1k-A case, by hand ----------------------------------------------------------------------

VIDEOS = ["video7010", "video7011", "video7012", "video7013"]
CAPTIONS = ["a man: talking about cars", "a man drives", "a dog runs", "a dog runs", "a woman sings",
            "a girl sings on stage", "a cat sleeps", "a cat is sleeping"]  # sen_id i is video 7010 + i // 2's
SENTENCES = ["a man talking about cars", "a dog runs", "a woman sings", "a cat sleeps"]  # the JSFusion CSV's
SIMILARITY = np.array([[0.2, 0.9, 0.5, 0.1],   # row 0 ranks 7011, 7012, 7010, 7013
                       [0.8, 0.3, 0.6, 0.4],   # row 1: 7010, 7012, 7013, 7011
                       [0.1, 0.2, 0.7, 0.9],   # row 2: 7013, 7012, 7011, 7010
                       [0.3, 0.5, 0.4, 0.2]])  # row 3: 7011, 7012, 7010, 7013
# FIRE's labels, keyed by the sentences (the first only matches through the CSV: the raw caption has ':')
LABELS = [("a man talking about cars", "video7011", "relevant"),
          ("a man talking about cars", "video7012", "irrelevant"),
          ("a dog runs", "video7012", "relevant"), ("a dog runs", "video7013", "relevant"),
          ("a woman sings", "video7013", "irrelevant"), ("a cat sleeps", "video7011", "relevant")]
# By hand. original: own videos at 3, 4, 2, 4: C@1 0, C@5 1, mAP (1/3 + 1/4 + 1/2 + 1/4) / 4 = 1/3.
# original+extra: row 0 {7010, 7011} at 1, 3: AP (1 + 2/3)/2; row 1 {7011, 7012, 7013} at 2, 3, 4:
# (1/2 + 2/3 + 3/4)/3; row 2 {7012} at 2: 1/2; row 3 {7013, 7011} at 1, 4: (1 + 2/4)/2. C@1 2/4.
HAND_FIGURES = {"original": {"C@1": 0.0, "C@5": 1.0, "C@10": 1.0, "mAP": 1 / 3},
                "original+extra": {"C@1": 0.5, "C@5": 1.0, "C@10": 1.0,
                                   "mAP": ((1 + 2 / 3) / 2 + (1 / 2 + 2 / 3 + 3 / 4) / 3 + 1 / 2 + 3 / 4) / 4}}


def fire_own_algorithm(similarity, sentences, videos, labels, max_preds=20) -> dict:
    """FIRE's MsrvttEvaluation.score_model, restated: each row's top max_preds videos by argsort; its gold set
    the row's own video and the videos labelled relevant for its sentence; C@K 1 when the gold set meets the
    top K; AP the mean of the precisions at the gold videos found in the top max_preds (0 if none)."""
    relevant = {}
    for query, video, value in labels:
        if value == "relevant":
            relevant.setdefault(query, set()).add(video)
    figures = {"original": [], "original+extra": []}
    for row, sentence in enumerate(sentences):
        top = [videos[column] for column in np.argsort(-similarity[row])[:max_preds]]
        extra = relevant.get(sentence, set())
        for name, gold in (("original", {videos[row]}), ("original+extra", {videos[row]} | extra)):
            hits = [rank for rank, video in enumerate(top, start=1) if video in gold]
            precisions = [(number + 1) / rank for number, rank in enumerate(hits)]
            figures[name].append({**{f"C@{k}": float(bool(set(top[:k]) & gold)) for k in (1, 5, 10)},
                                  "mAP": float(np.mean(precisions)) if precisions else 0.0})
    return {name: {figure: float(np.mean([row[figure] for row in rows])) for figure in rows[0]}
            for name, rows in figures.items()}


@pytest.fixture
def case(tmp_path, write_annotations):
    raw = write_annotations(tmp_path / "raw", [{"video_id": video, "split": "test", "category": 1} for video in VIDEOS],
                            [{"sen_id": sen_id, "video_id": VIDEOS[sen_id // 2], "caption": text}
                             for sen_id, text in enumerate(CAPTIONS)])
    with open(tmp_path / "1k-a.csv", "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["key", "vid_key", "video_id", "sentence"]] + [
            [f"ret{row}", f"msr{video[5:]}", video, sentence]
            for row, (video, sentence) in enumerate(zip(VIDEOS, SENTENCES))])
    np.save(tmp_path / "sim.npy", SIMILARITY)
    annotations = [{"query": query, "video_id": video, "label": value, "models": ["CLIP4CLIP"], "annotator_ids": [1],
                    "annotator_labels": [value], "response_ids": [1], "queue_ids": [1], "dataset": "MSRVTT"}
                   for query, video, value in LABELS]
    (tmp_path / "fire.json").write_text(json.dumps({"annotations": annotations, "disagreements": []}))
    # The same model as a ranked table, each sentence by the sen_id of its caption (row 1's is 2: 2 and 3 match)
    with open(tmp_path / "ranked.csv", "w", newline="", encoding="utf-8") as handle:
        rows = [[sen_id, VIDEOS[column], rank, SIMILARITY[row, column]]
                for row, sen_id in enumerate((0, 2, 4, 6))
                for rank, column in enumerate(np.argsort(-SIMILARITY[row]), start=1)]
        csv.writer(handle).writerows([["sen_id", "video_id", "rank", "score"]] + rows)
    return tmp_path, raw


def assert_hand_figures(label_sets: dict, model_of=lambda row: row):
    for name, hand in HAND_FIGURES.items():
        for figure, value in hand.items():
            assert model_of(label_sets[name])[figure] == pytest.approx(value, abs=1e-12), (name, figure)


def test_fire_own_algorithm_gives_the_hand_figures():
    assert_hand_figures(fire_own_algorithm(SIMILARITY, SENTENCES, VIDEOS, LABELS))


def test_evaluate_with_fire_labels_loses_none_and_gives_fire_figures(case, capsys):
    folder, raw = case
    assert main(["evaluate", "--protocol", "1k-A", "--videos", str(folder / "1k-a.csv"), "--input", str(raw),
                 "--scores", str(folder / "sim.npy"), "--orientation", "texts-x-videos",
                 "--fire-labels", str(folder / "fire.json"), "--json", str(folder / "e.json"),
                 "--report", str(folder / "e.html")]) == 0
    out = capsys.readouterr().out
    assert "6 read, every one matched; 4 extra positives" in out
    assert "  original+extra model         50.0    100.0    100.0     68.1" in out
    assert "  original+extra random        50.0    100.0    100.0     68.1" in out  # 49/72, above
    fire = json.loads((folder / "e.json").read_text())["fire"]
    assert fire["labels_read"] == 6 and fire["labels_skipped"] == 0
    assert_hand_figures(fire["label_sets"], lambda row: row["model"])
    # Random, one relevant of 4 videos each: C@1 1/4, AP (1 + 1/2 + 1/3 + 1/4) / 4
    assert fire["label_sets"]["original"]["random"]["mAP"] == pytest.approx(25 / 48)
    assert "FIRE: Correct@K and mAP" in (folder / "e.html").read_text()


def test_fire_reads_the_matrix_and_the_table_through_the_sentences(case, capsys):
    folder, raw = case
    common = ["--labels", str(folder / "fire.json"), "--protocol", "1k-A", "--videos", str(folder / "1k-a.csv")]
    assert main(["fire", "--scores", str(folder / "sim.npy"), "--orientation", "texts-x-videos", *common,
                 "--output", str(folder / "matrix")]) == 0
    assert main(["fire", "--predictions", str(folder / "ranked.csv"), "--captions", str(raw), *common,
                 "--output", str(folder / "table")]) == 0
    for name in ("matrix", "table"):
        figures = json.loads((folder / name / "fire.json").read_text())
        assert figures["unmatched_labels"] == 0
        assert_hand_figures(figures["a"]["label_sets"])


def test_fire_without_the_sentences_refuses_to_lose_a_label(case, capsys):
    folder, raw = case
    argv = ["fire", "--predictions", str(folder / "ranked.csv"), "--captions", str(raw),
            "--labels", str(folder / "fire.json")]
    assert main(argv) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert ("fire.json: annotation 1: the label of query 'a man talking about cars', video video7011 would be lost: "
            "its query matches no query text or sen_id (2 such label(s)); labels keyed by 1k-A's sentences") in error
    assert main(argv + ["--skip-unmatched-labels"]) == 0  # asked: counted and printed
    assert "2 label(s) matched no query" in capsys.readouterr().out


def test_evaluate_refuses_an_unmatched_label_unless_asked(case, capsys):
    folder, raw = case
    labels = folder / "labels.csv"
    labels.write_text("query,video,label,source\na dog runs,video7012,1,ssb\na dog runs,video9999,1,ssb\n")
    argv = ["evaluate", "--protocol", "1k-A", "--videos", str(folder / "1k-a.csv"), "--scores", str(folder / "sim.npy"),
            "--orientation", "texts-x-videos", "--fire-labels", str(labels)]
    assert main(argv) == 2
    assert "labels.csv: line 3: the label of query 'a dog runs', video video9999 would be lost: its video is not in " \
           "the gallery" in capsys.readouterr().err
    assert main(argv + ["--skip-unmatched-labels"]) == 0
    assert "2 read, 1 left out (--skip-unmatched-labels)" in capsys.readouterr().out
