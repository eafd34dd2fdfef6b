"""Fixtures of the evaluation tests: the two-video relevance that `capclean ndcg` and its report are tested on.

The relevance (videos x captions; captions 0 and 1 are video1's, caption 2 is video2's):
    video1: 1.0  1.0  0.5
    video2: 0.25 0    1.0
and the model's scores:
    video1: 0.9  0.1  0.3
    video2: 0.2  0.8  0.7
tests/unit/evaluation/test_ndcg_command.py works out its figures by hand.
"""
import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

PAIRS = [("video1", 0, 1.0), ("video1", 1, 1.0), ("video1", 2, 0.5), ("video2", 0, 0.25), ("video2", 2, 1.0)]
SCORES = {("video1", 0): 0.9, ("video1", 1): 0.1, ("video1", 2): 0.3,
          ("video2", 0): 0.2, ("video2", 1): 0.8, ("video2", 2): 0.7}
VIDEOS = [{"video_id": "video1", "split": "test", "category": 1},
          {"video_id": "video2", "split": "test", "category": 1}]
CAPTIONS = [{"sen_id": 0, "video_id": "video1", "caption": "a man sings"},
            {"sen_id": 1, "video_id": "video1", "caption": "a man is singing"},
            {"sen_id": 2, "video_id": "video2", "caption": "a man sings on stage"}]


def _write_relevance(folder, proxy, pairs):
    target = folder / "relevance" / f"proxy={proxy}"
    target.mkdir(parents=True)
    video_ids, sen_ids, scores = zip(*pairs)
    pq.write_table(pa.table({"video_id": pa.array(video_ids), "sen_id": pa.array(sen_ids, pa.int64()),
                             "score": pa.array(scores, pa.float32())}), target / "part-00000.parquet")


@pytest.fixture
def write_relevance():
    """(folder, proxy, [(video_id, sen_id, score)]) -> writes folder/relevance/proxy=PROXY/ as
    capclean relevance does."""
    return _write_relevance


@pytest.fixture
def relevance(tmp_path, write_annotations):
    """The two-video relevance output: bow as above, pos with only the own captions (the classic labels), and a
    manifest.json recording the raw annotations it was built from (for mAP)."""
    annotations = write_annotations(tmp_path / "raw", VIDEOS, CAPTIONS)
    folder = tmp_path / "rel"
    _write_relevance(folder, "bow", PAIRS)
    _write_relevance(folder, "pos", [pair for pair in PAIRS if pair[2] == 1.0 and pair[:2] != ("video2", 0)])
    (folder / "manifest.json").write_text(json.dumps({"command": "relevance", "input": {"path": str(annotations)}}))
    return folder


@pytest.fixture
def model_scores():
    """{(video_id, sen_id): the model's score} of every pair."""
    return dict(SCORES)


@pytest.fixture
def score_rows():
    """The model's scores as rows of sen_id, video_id, score."""
    return [{"sen_id": sen_id, "video_id": video, "score": score} for (video, sen_id), score in SCORES.items()]
