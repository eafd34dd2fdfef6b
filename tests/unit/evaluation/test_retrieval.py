"""R@K, MdR and MnR in both directions (transforms/evaluation/retrieval.py) on matrices worked by hand, and the
random baseline's closed form against every order of the items, enumerated."""
import itertools
from fractions import Fraction

import numpy as np
import pytest

from transforms.evaluation import retrieval
from transforms.evaluation.retrieval import random_retrieval, retrieval_figures

# 1k-A-like: 3 texts x 3 videos, text i's own video is video i.
SQUARE = np.array([[0.9, 0.5, 0.1],
                   [0.8, 0.8, 0.4],
                   [0.7, 0.2, 0.4]])
SQUARE_OWN = [0, 1, 2]

# full-test-like: 4 texts x 2 videos, texts 0 and 1 are video 0's, texts 2 and 3 video 1's.
TALL = np.array([[0.6, 0.6],
                 [0.9, 0.1],
                 [0.3, 0.2],
                 [0.5, 0.5]])
TALL_OWN = [0, 0, 1, 1]


def test_a_square_matrix_with_ties_by_hand():
    # t2v, each row ranks the videos; a tie counts against the model:
    #   text 0: own 0.9, nothing else >= 0.9                    -> rank 1
    #   text 1: own 0.8, video 0 ties at 0.8                     -> rank 2
    #   text 2: own 0.4, video 0 scores 0.7                      -> rank 2
    #   ranks 1, 2, 2: R@1 1/3, R@5 = R@10 = 1, MdR 2, MnR 5/3.
    # v2t, each column ranks the texts:
    #   video 0: own text 0 at 0.9, texts 1 (0.8) and 2 (0.7) below -> rank 1
    #   video 1: own text 1 at 0.8, texts 0 (0.5) and 2 (0.2) below -> rank 1
    #   video 2: own text 2 at 0.4, text 1 ties at 0.4              -> rank 2
    #   ranks 1, 1, 2: R@1 2/3, R@5 = R@10 = 1, MdR 1, MnR 4/3.
    figures = retrieval_figures(SQUARE, SQUARE_OWN)
    assert figures["t2v"] == pytest.approx({"R@1": 1 / 3, "R@5": 1.0, "R@10": 1.0, "MdR": 2.0, "MnR": 5 / 3,
                                            "queries": 3})
    assert figures["v2t"] == pytest.approx({"R@1": 2 / 3, "R@5": 1.0, "R@10": 1.0, "MdR": 1.0, "MnR": 4 / 3,
                                            "queries": 3})


def test_a_tall_matrix_with_two_positives_per_video_by_hand():
    # t2v:
    #   text 0 (video 0): 0.6, video 1 ties at 0.6    -> rank 2
    #   text 1 (video 0): 0.9 over 0.1                -> rank 1
    #   text 2 (video 1): 0.2, video 0 scores 0.3     -> rank 2
    #   text 3 (video 1): 0.5, video 0 ties at 0.5    -> rank 2
    #   ranks 2, 1, 2, 2: R@1 1/4, R@5 1, MdR 2, MnR 7/4.
    # v2t, a video's rank is its best-ranked own text's:
    #   video 0: texts 0.6, 0.9, 0.3, 0.5; best own is text 1 (0.9), no other text >= 0.9  -> rank 1
    #   video 1: texts 0.6, 0.1, 0.2, 0.5; best own is text 3 (0.5), text 0 (0.6) above    -> rank 2
    #   ranks 1, 2: R@1 1/2, R@5 1, MdR 1.5, MnR 1.5.
    figures = retrieval_figures(TALL, TALL_OWN)
    assert figures["t2v"] == pytest.approx({"R@1": 0.25, "R@5": 1.0, "R@10": 1.0, "MdR": 2.0, "MnR": 1.75,
                                            "queries": 4})
    assert figures["v2t"] == pytest.approx({"R@1": 0.5, "R@5": 1.0, "R@10": 1.0, "MdR": 1.5, "MnR": 1.5,
                                            "queries": 2})


def test_a_rank_beyond_10_misses_every_r_at_k():
    # One text against 12 videos, its own video (column 0) the lowest: rank 12.
    figures = retrieval_figures(np.array([[0.0] + [1.0] * 11]), [0])
    assert figures["t2v"]["R@10"] == 0.0 and figures["t2v"]["MdR"] == 12.0


def test_a_video_without_a_text_is_left_out_of_v2t():
    # Video 1 has no text: v2t ranks videos 0 and 2 only (each by its one text, both at rank 1).
    similarity = np.array([[0.9, 0.1, 0.2],
                           [0.1, 0.3, 0.8]])
    figures = retrieval_figures(similarity, [0, 2])
    assert figures["v2t"]["queries"] == 2 and figures["v2t"]["R@1"] == 1.0


def test_blocks_of_rows_give_the_same_ranks(monkeypatch):
    rng = np.random.default_rng(4)
    similarity = rng.integers(0, 5, size=(40, 7)).astype(float)  # many ties
    own = rng.integers(0, 7, size=40)
    whole = retrieval_figures(similarity, own)
    monkeypatch.setattr(retrieval, "BLOCK_CELLS", 10)  # one row a block
    assert retrieval_figures(similarity, own) == whole


# ---------------------------------------------------------------- the random ranking

def enumerated_ranks(positives: int, items: int) -> list:
    """The best positive's rank in every order of the items (positives are items 0..P-1), each order once."""
    return [1 + min(order.index(item) for item in range(positives))
            for order in itertools.permutations(range(items))]


def enumerated(positive_counts: list, items: int) -> dict:
    """R@1, R@5 and MnR of a random ranking, by enumeration; and the pooled rank distribution's median."""
    ranks = [enumerated_ranks(count, items) for count in positive_counts]
    mean = lambda values: Fraction(sum(values), len(values))  # noqa: E731
    pooled = sorted(rank for query in ranks for rank in query)
    return {"R@1": float(sum(mean([r <= 1 for r in query]) for query in ranks) / len(ranks)),
            "R@5": float(sum(mean([r <= 5 for r in query]) for query in ranks) / len(ranks)),
            "MnR": float(sum(mean(query) for query in ranks) / len(ranks)),
            "MdR": float(np.median(pooled))}


@pytest.mark.parametrize("own_columns, videos", [([0, 1, 2], 3), ([0, 0, 1, 1], 2), ([0, 0, 0, 1, 2], 4)])
def test_the_random_baseline_is_the_mean_over_every_order(own_columns, videos):
    expected = random_retrieval(own_columns, videos)
    t2v = enumerated([1] * len(own_columns), videos)
    v2t = enumerated([own_columns.count(video) for video in sorted(set(own_columns))], len(own_columns))
    for direction, truth in (("t2v", t2v), ("v2t", v2t)):
        for name in ("R@1", "R@5", "MnR", "MdR"):
            assert expected[direction][name] == pytest.approx(truth[name]), (direction, name)


def test_the_random_baseline_of_1k_a():
    # One positive among 1,000: the rank is uniform on 1..1000, so R@K = K / 1000 and MnR = MdR = 500.5.
    expected = random_retrieval(list(range(1000)), 1000)
    for direction in ("t2v", "v2t"):
        assert expected[direction] == {"R@1": 0.001, "R@5": 0.005, "R@10": 0.01, "MdR": 500.5, "MnR": 500.5,
                                       "queries": 1000}
