"""FIRE's labels on the real 1k-A split lose none (issue 40). A FIRE-format label file keyed by the JSFusion
sentences, as FIRE keys its own (tests/integration/conftest.py's jsfusion_fire_labels): `capclean overlap
--protocol 1k-A`'s candidates labelled by a rule (the same words: relevant), and one label for every sentence
(the next row's video, not relevant), so that the 35 sentences that differ from their raw caption are in it.
Through `capclean evaluate --fire-labels` and through `capclean fire` (the matrix, and a ranked table matched
through the sentences) every label is placed, and the three give the same figures; `fire` matched on the raw
captions alone refuses to lose the 35 sentences' labels. About a minute."""
import csv
import json

import numpy as np
import pytest

from pipelines.cli import main

pytestmark = pytest.mark.integration

SEED = 40


@pytest.fixture(scope="module")
def case(jsfusion_fire_labels, tmp_path_factory):
    """(folder, label file, number of labels, overlap's candidate pairs, a seeded random matrix): the labels
    (tests/integration/conftest.py, shared: read, never written into) and a folder of this module's own."""
    folder = tmp_path_factory.mktemp("fire-1k-a")
    similarity = np.random.default_rng(SEED).random((1000, 1000))
    np.save(folder / "random.npy", similarity)
    return folder, jsfusion_fire_labels.path, jsfusion_fire_labels.count, jsfusion_fire_labels.candidate_pairs, \
        similarity


def test_overlap_searches_the_1k_a_gallery_only(case, jsfusion_fire_labels):
    _, _, _, candidate_pairs, _ = case
    stats = json.loads((jsfusion_fire_labels.folder / "overlap" / "stats.json").read_text())
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
