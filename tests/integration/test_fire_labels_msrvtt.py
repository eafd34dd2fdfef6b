"""FIRE's labels on the real 1k-A split lose none (issue 40). A FIRE-format label file keyed by the JSFusion
sentences, as FIRE keys its own, is made here: `capclean overlap --protocol 1k-A`'s candidates labelled by a
rule (the same words: relevant), and one label for every sentence (the next row's video, not relevant), so
that the 35 sentences that differ from their raw caption are in it. Through `capclean evaluate
--fire-labels` and through `capclean fire` (the matrix, and a ranked table matched through the sentences)
every label is placed, and the three give the same figures; `fire` matched on the raw captions alone refuses
to lose the 35 sentences' labels. About a minute."""
import csv
import json

import numpy as np
import pytest

from pipelines.cli import main

pytestmark = pytest.mark.integration

SEED = 40


@pytest.fixture(scope="module")
def jsfusion(msrvtt_dir):
    return msrvtt_dir / "retrieval_splits" / "MSRVTT_JSFUSION_test.csv"


@pytest.fixture(scope="module")
def case(msrvtt_dir, jsfusion, tmp_path_factory):
    """(folder, label file, number of labels): the labels, a seeded random matrix and its ranked table."""
    folder = tmp_path_factory.mktemp("fire-1k-a")
    train = folder / "train.csv"
    train.write_text("video_id\nvideo0\nvideo1\n")  # the overlap half is not what this test is about
    assert main(["overlap", "--input", str(msrvtt_dir), "--protocol", "1k-A", "--videos", str(jsfusion),
                 "--train", f"list:{train}", "--output", str(folder / "overlap")]) == 0
    with open(folder / "overlap" / "labelling_sheet.csv", newline="", encoding="utf-8") as handle:
        sheet = list(csv.DictReader(handle))
    with open(jsfusion, newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    labels = [(row["query"], row["video"], int(float(row["similarity"]) >= 0.9), "overlap") for row in sheet]
    labels += [(row["sentence"], rows[(number + 1) % len(rows)]["video_id"], 0, "rule")
               for number, row in enumerate(rows)]
    with open(folder / "labels.csv", "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["query", "video", "label", "source"], *labels])
    similarity = np.random.default_rng(SEED).random((1000, 1000))
    np.save(folder / "random.npy", similarity)
    return folder, folder / "labels.csv", len(labels), len(sheet), similarity


def test_overlap_searches_the_1k_a_gallery_only(case):
    folder, _, _, candidate_pairs, _ = case
    stats = json.loads((folder / "overlap" / "stats.json").read_text())
    # 493 of the 1,570 pairs found among all 2,990 test videos lie in the 1,000 videos of 1k-A (issue 40)
    assert stats["fn_candidates"]["pool_videos"] == 1000 and candidate_pairs == 493
    assert stats["selection"]["texts_without_caption"] == 0


def test_no_label_is_lost_through_evaluate_and_fire(msrvtt_dir, jsfusion, case, capsys):
    folder, labels, count, _, similarity = case
    protocol = ["--protocol", "1k-A", "--videos", str(jsfusion)]
    assert main(["evaluate", *protocol, "--input", str(msrvtt_dir), "--scores", str(folder / "random.npy"),
                 "--orientation", "texts-x-videos", "--fire-labels", str(labels),
                 "--json", str(folder / "e.json")]) == 0
    fire = json.loads((folder / "e.json").read_text())["fire"]
    assert fire["labels_read"] == count and fire["labels_skipped"] == 0
    evaluated = {name: rows["model"] for name, rows in fire["label_sets"].items()}

    assert main(["fire", "--scores", str(folder / "random.npy"), "--orientation", "texts-x-videos", *protocol,
                 "--labels", str(labels), "--output", str(folder / "fire-matrix")]) == 0
    # The same model as the ranked table retrieval code would write: each sentence by its first sen_id.
    texts = folder / "texts.json"
    assert main(["evaluate", *protocol, "--input", str(msrvtt_dir), "--write-texts", str(texts)]) == 0
    sen_ids = [text["sen_ids"][0] for text in json.loads(texts.read_text())["texts"]]
    videos = json.loads(texts.read_text())["videos"]
    with open(folder / "ranked.csv", "w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([["sen_id", "video_id", "rank", "score"]] + [
            [sen_id, videos[column], rank, similarity[row, column]] for row, sen_id in enumerate(sen_ids)
            for rank, column in enumerate(np.argsort(-similarity[row])[:20], start=1)])
    assert main(["fire", "--predictions", str(folder / "ranked.csv"), "--captions", str(msrvtt_dir), *protocol,
                 "--labels", str(labels), "--output", str(folder / "fire-table")]) == 0
    for name in ("fire-matrix", "fire-table"):
        figures = json.loads((folder / name / "fire.json").read_text())
        assert figures["unmatched_labels"] == 0
        for label_set, row in evaluated.items():
            assert figures["a"]["label_sets"][label_set] == pytest.approx(row), (name, label_set)

    # Matched on the raw captions alone, the 35 sentences that are not their caption would lose their labels.
    capsys.readouterr()
    assert main(["fire", "--predictions", str(folder / "ranked.csv"), "--captions", str(msrvtt_dir),
                 "--labels", str(labels)]) == 2
    assert "would be lost: its query matches no query text or sen_id" in capsys.readouterr().err
