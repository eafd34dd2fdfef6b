"""R@1/5/10, median and mean rank of a (texts x videos) similarity matrix, text-to-video and video-to-text,
as MSR-VTT papers report them, and the exact value of a random ranking.

- text-to-video (t2v): each text ranks the videos; its one positive is its own video.
- video-to-text (v2t): each video ranks the texts; its positives are all its texts (20 on full-test,
  one on 1k-A), and its rank is that of the best-ranked one, as CLIP4Clip-style code does. A video
  without a text (a custom protocol may have one) has no rank and is left out of v2t.
- Ties count against the model, as everywhere in metrics.py: rank = 1 + the number of non-positive
  items scoring at least as high as the best positive.

The ranks are metrics.first_relevant_ranks over blocks of rows, so that the full test split's 59,800 x
2,990 matrix never needs a second matrix of its size.
"""
import math
from fractions import Fraction

import numpy as np

from transforms.evaluation.metrics import first_relevant_ranks, mean_rank, median_rank, recall_at_k

KS = (1, 5, 10)
BLOCK_CELLS = 1 << 24  # cells of one block of rows (16M: about 130 MB of float64 scores)


def retrieval_figures(similarity: np.ndarray, own_columns) -> dict:
    """{"t2v": {...}, "v2t": {...}}, each {"R@1", "R@5", "R@10", "MdR", "MnR", "queries"}: fractions and ranks."""
    own_columns = np.asarray(own_columns, dtype=np.int64)
    t2v_ranks = ranks_by_block(similarity, own_columns[:, None] == np.arange(similarity.shape[1])[None, :])
    with_text = np.unique(own_columns)  # the videos that have a text, in column order
    by_video = similarity.T if with_text.size == similarity.shape[1] else similarity.T[with_text]  # a view if all
    v2t_ranks = ranks_by_block(by_video, with_text[:, None] == own_columns[None, :])
    return {"t2v": rank_summary(t2v_ranks), "v2t": rank_summary(v2t_ranks)}


def ranks_by_block(scores: np.ndarray, relevant: np.ndarray) -> np.ndarray:
    """first_relevant_ranks of (queries x items) `scores` and boolean `relevant`, a block of rows at a time."""
    rows = max(1, BLOCK_CELLS // max(1, scores.shape[1]))
    return np.concatenate([first_relevant_ranks(scores[start:start + rows], relevant[start:start + rows])
                           for start in range(0, scores.shape[0], rows)])


def rank_summary(ranks: np.ndarray) -> dict:
    summary = {f"R@{k}": recall_at_k(ranks, k) for k in KS}
    summary.update(MdR=median_rank(ranks), MnR=mean_rank(ranks), queries=int(ranks.size))
    return summary


# ---------------------------------------------------------------- the random ranking, exactly

def random_retrieval(own_columns, videos: int) -> dict:
    """The expected figures of a ranking drawn uniformly at random, in the shape of `retrieval_figures`.

    A query with P positives among M items: its best positive is beyond rank k when all P lie among
    the M - k others, so P(rank <= k) = 1 - C(M - k, P) / C(M, P) and E[rank] = (M + 1) / (P + 1).
    R@K and MnR are the means of these over the queries, computed in exact fractions. MdR is the median
    of the rank's distribution pooled over the queries: the value a random ranking's MdR approaches
    (the sample median itself has no simple closed form).
    """
    own_columns = np.asarray(own_columns, dtype=np.int64)
    texts = own_columns.size
    t2v = random_summary(positives=np.ones(texts, dtype=np.int64), items=videos)
    v2t = random_summary(positives=np.bincount(own_columns)[np.unique(own_columns)], items=texts)
    return {"t2v": t2v, "v2t": v2t}


def random_summary(positives: np.ndarray, items: int) -> dict:
    """R@K, MdR and MnR of a random ranking of `items` for queries with `positives` positives each."""
    counts, queries = np.unique(positives, return_counts=True)
    groups = [(int(count), Fraction(int(share), positives.size)) for count, share in zip(counts, queries)]
    summary = {f"R@{k}": float(pooled_chance_within(min(k, items), groups, items)) for k in KS}
    summary.update(MdR=distribution_median(groups, items),
                   MnR=float(sum(share * Fraction(items + 1, count + 1) for count, share in groups)),
                   queries=int(positives.size))
    return summary


def chance_within(k: int, positives: int, items: int) -> Fraction:
    """P(the best of `positives` positives ranks within the top k of `items`) = 1 - C(M - k, P) / C(M, P),
    as an exact fraction."""
    return 1 - Fraction(math.comb(items - k, positives), math.comb(items, positives))


def pooled_chance_within(k: int, groups: list, items: int) -> Fraction:
    """`chance_within` over queries of several positive counts: groups (positives, share of the queries)."""
    return sum(share * chance_within(k, positives, items) for positives, share in groups)


def distribution_median(groups: list, items: int) -> float:
    """The median rank of the pooled distribution: the first rank whose chance reaches 1/2 (found by
    bisection); when the chance is exactly 1/2 there, the midpoint of it and the next rank, as a sample
    median of an even count is."""
    low, high = 1, items
    while low < high:
        middle = (low + high) // 2
        if pooled_chance_within(middle, groups, items) >= Fraction(1, 2):
            high = middle
        else:
            low = middle + 1
    if pooled_chance_within(low, groups, items) == Fraction(1, 2) and low < items:
        return low + 0.5
    return float(low)
