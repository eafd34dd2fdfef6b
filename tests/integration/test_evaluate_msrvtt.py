"""`capclean evaluate` on the real 1k-A split: the JSFusion CSV's 1,000 sentences matched to MSR-VTT's raw
captions (docs/commands/evaluate.md gives the figures), and a seeded random 1,000 x 1,000 matrix scored near
the exact random expectation. Seconds, not minutes."""
import json

import numpy as np
import pytest

from pipelines.cli import main

pytestmark = pytest.mark.integration

SEED = 40


@pytest.fixture(scope="module")
def jsfusion(msrvtt_dir):
    return msrvtt_dir / "retrieval_splits" / "MSRVTT_JSFUSION_test.csv"


def test_every_1k_a_sentence_is_matched_and_none_is_dropped(msrvtt_dir, jsfusion, tmp_path, capsys):
    target = tmp_path / "texts.json"
    assert main(["evaluate", "--protocol", "1k-A", "--videos", str(jsfusion), "--input", str(msrvtt_dir),
                 "--write-texts", str(target)]) == 0
    written = json.loads(target.read_text())
    assert len(written["texts"]) == len(written["videos"]) == 1000
    # 35 sentences differ from their caption by collapsed spaces and dropped punctuation (issue 40); 116
    # exact sentences match two or three captions, and 2 of the normalised ones two.
    # Raw captions have no earlier texts (a run's edits/), so none matches through one.
    assert written["matching"] == {"exact": 965, "normalised": 35, "edited": 0, "unmatched": 0,
                                   "several_sen_ids": 118}
    exact_several = [text for text in written["texts"] if text["match"] == "exact" and len(text["sen_ids"]) > 1]
    assert len(exact_several) == 116
    assert [text["video_id"] for text in written["texts"]] == written["videos"]  # row i's own video is column i


def test_a_random_matrix_scores_near_the_exact_random_baseline(msrvtt_dir, jsfusion, tmp_path, capsys):
    scores, target = tmp_path / "random.npy", tmp_path / "figures.json"
    np.save(scores, np.random.default_rng(SEED).random((1000, 1000)))
    assert main(["evaluate", "--protocol", "1k-A", "--videos", str(jsfusion), "--scores", str(scores),
                 "--orientation", "texts-x-videos", "--json", str(target)]) == 0
    figures = json.loads(target.read_text())
    for direction in ("t2v", "v2t"):
        model, random = figures["model"][direction], figures["random"][direction]
        assert random == {"R@1": 0.001, "R@5": 0.005, "R@10": 0.01, "MdR": 500.5, "MnR": 500.5, "queries": 1000}
        # R@1 counts Binomial(1000, 0.001) hits: 0 to 5 with probability 0.9994. A uniform rank's standard
        # deviation is 288.7, so the mean of 1,000 lies within 40 of 500.5 but for 1 in 10,000.
        assert model["R@1"] <= 0.005 and abs(model["R@10"] - 0.01) <= 0.01
        assert abs(model["MnR"] - random["MnR"]) < 40 and abs(model["MdR"] - random["MdR"]) < 60
