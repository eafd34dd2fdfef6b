"""Ranking metrics: reciprocal rank (PoSRank), Recall@K with median and mean rank, Correct@K,
average precision, and nDCG with graded relevance.

Conventions, the same in every function:

- A higher score means a better match. A similarity matrix has one row per query and one
  column per gallery item; a relevance matrix has the same shape (boolean, or graded for nDCG).
- Results are fractions in [0, 1], not percentages (papers print R@1 = 0.42 as 42.0).
- Ties count against the model (pessimistic): an item that scores the same as a relevant one
  is taken to rank above it. A constant scorer therefore gets the worst value, never a
  flattering one. nDCG is the one exception: it averages over the orders of tied items,
  which is exact and cheap there (see `tie_averaged_dcg`).
- A NaN score is refused: NaN compares false with everything, so it would rank first.
"""
from collections.abc import Iterable, Sequence

import numpy as np


# --- Inputs ---------------------------------------------------------------------------------

def _scores(values) -> np.ndarray:
    scores = np.asarray(values, dtype=float)
    if np.isnan(scores).any():
        raise ValueError("a score is NaN: it would compare false with every other score and rank first")
    return scores


def _similarity_and_relevance(similarity, relevance) -> tuple:
    scores = _scores(similarity)
    relevance = np.asarray(relevance)
    if scores.ndim != 2 or scores.shape != relevance.shape:
        raise ValueError(f"similarity {scores.shape} and relevance {relevance.shape} "
                         "must have one (queries x items) shape")
    return scores, relevance


def _check_top_k(k: int) -> None:
    if k < 1:
        raise ValueError(f"k must be at least 1, not {k}")


# --- PoSRank: the true caption among its hard negatives ----------------------------------------

def reciprocal_rank(true_score: float, other_scores: Sequence[float]) -> float:
    """1 / rank of the true item among itself and the other candidates: PoSRank's term for one caption.

    rank = 1 + the number of other candidates scoring >= the true item. Ties count against the
    true item, so a scorer that gives every candidate the same score gets 1 / (K + 1) with K
    others, the worst value possible.
    """
    others = _scores(other_scores)
    true = float(_scores(true_score))
    return 1.0 / (1 + int(np.count_nonzero(others >= true)))


def mean_reciprocal_rank(true_scores: Sequence[float], other_scores: Sequence[Sequence[float]]) -> float:
    """PoSRank: the mean over captions of `reciprocal_rank(true_scores[i], other_scores[i])`.

    Caption i's true text is ranked by the model's score for (video, text) among itself and its
    hard negatives, other_scores[i] (K of them; K may differ between captions). Source: Chen,
    Doughty, Li, Snoek, "Beyond Coarse-Grained Matching in Video-Text Retrieval" (2024,
    arXiv:2410.12407; its formula was not read here, see docs/evaluation/metrics.md). Compare
    with `expected_random_reciprocal_rank(K + 1)`, the value of chance.
    """
    if len(true_scores) != len(other_scores):
        raise ValueError(f"{len(true_scores)} true scores but {len(other_scores)} lists of other scores")
    if len(true_scores) == 0:
        raise ValueError("no captions to average over")
    return float(np.mean([reciprocal_rank(true, others) for true, others in zip(true_scores, other_scores)]))


def expected_random_reciprocal_rank(n_candidates: int) -> float:
    """The mean reciprocal rank of a scorer that orders the n candidates at random.

    The true item's rank is then uniform on 1..n, so E[1/rank] = (1/n) * (1/1 + ... + 1/n)
    = H_n / n; for K = 20 hard negatives (n = 21) that is 0.1736. A PoSRank near this value
    means the model does not tell the caption from its hard negatives.
    """
    if n_candidates < 1:
        raise ValueError(f"there must be at least one candidate, not {n_candidates}")
    harmonic_number = sum(1.0 / rank for rank in range(1, n_candidates + 1))
    return harmonic_number / n_candidates


# --- Retrieval from a similarity matrix: R@K, median rank, mean rank ---------------------------

def relevance_from_items(relevant_items: Sequence[Iterable[int]], n_items: int) -> np.ndarray:
    """The boolean relevance matrix (queries x items) from each query's relevant item indexes.

    For text-to-video retrieval on MSR-VTT, caption i's set holds the index of its own video,
    and with extra judgements (as FIRE adds) every other video that also matches the caption.
    """
    relevance = np.zeros((len(relevant_items), n_items), dtype=bool)
    for query, items in enumerate(relevant_items):
        items = list(items)
        if any(not 0 <= item < n_items for item in items):
            # A negative index would silently mark an item counted from the end.
            raise ValueError(f"query {query}: relevant items {items} must lie in 0..{n_items - 1}")
        relevance[query, items] = True
    return relevance


def first_relevant_ranks(similarity, relevance) -> np.ndarray:
    """For each query, the rank (1 = top) of its best-ranked relevant item.

    Ties count against the query: rank = 1 + the number of irrelevant items scoring at least as
    high as the query's best relevant item. Relevance is binary here (nonzero = relevant), and
    every query must have a relevant item, or its rank is undefined.
    """
    scores, relevance = _similarity_and_relevance(similarity, relevance)
    relevant = relevance != 0
    without_relevant = np.flatnonzero(~relevant.any(axis=1))
    if without_relevant.size:
        raise ValueError(f"query {without_relevant[0]} has no relevant item, so it has no rank")
    best_relevant_score = np.where(relevant, scores, -np.inf).max(axis=1)
    irrelevant_at_or_above = (scores >= best_relevant_score[:, None]) & ~relevant
    return 1 + irrelevant_at_or_above.sum(axis=1)


def recall_at_k(first_ranks: Sequence[int], k: int) -> float:
    """R@K: the share of queries with a relevant item in their top K (first relevant rank <= K).

    The text-video retrieval usage (one hit is enough, however many items are relevant), e.g.
    the R@1/R@5/R@10 of MSR-VTT papers. A K larger than the gallery makes every query a hit.
    """
    _check_top_k(k)
    return float(np.mean(np.asarray(first_ranks) <= k))


def median_rank(first_ranks: Sequence[int]) -> float:
    """MdR: the median over queries of the first relevant rank (lower is better)."""
    return float(np.median(first_ranks))


def mean_rank(first_ranks: Sequence[int]) -> float:
    """MnR: the mean over queries of the first relevant rank (lower is better)."""
    return float(np.mean(first_ranks))


def retrieval_summary(similarity, relevance, ks: Sequence[int] = (1, 5, 10)) -> dict:
    """The figures of a text-video retrieval table, {"R@1": ..., "R@5": ..., "R@10": ..., "MdR": ..., "MnR": ...}."""
    first_ranks = first_relevant_ranks(similarity, relevance)
    summary = {f"R@{k}": recall_at_k(first_ranks, k) for k in ks}
    summary["MdR"] = median_rank(first_ranks)
    summary["MnR"] = mean_rank(first_ranks)
    return summary


# --- Ranked lists of one query: Correct@K and average precision --------------------------------

def ranked_relevance(scores: Sequence[float], relevance: Sequence) -> np.ndarray:
    """One query's relevance labels in ranked order (highest score first).

    Among equal scores the least relevant item comes first, so a tie never helps the model.
    """
    scores = _scores(scores)
    relevance = np.asarray(relevance)
    if scores.ndim != 1 or scores.shape != relevance.shape:
        raise ValueError(f"scores {scores.shape} and relevance {relevance.shape} must be two vectors of one length")
    # lexsort sorts by its last key first: score descending, then relevance ascending within a tie.
    order = np.lexsort((relevance, -scores))
    return relevance[order]


def correct_at_k(ranked_relevant: Sequence[bool], k: int) -> float:
    """Correct@K of one query: 1.0 when at least one relevant item is among ranks 1..K, else 0.0.

    FIRE's definition (Rodriguez et al., "Fighting FIRe with FIRE", 2022, arXiv:2210.05038), confirmed
    in its released code (facebookresearch/mm-retrieval-evaluation, mmr/analysis.py,
    `compute_correct_at_k`: int(len(gold & set(ranked[:n])) > 0)); its mean over queries is the share
    of queries with a relevant item in the top K, Recall@K with several positives per query. The
    precision-at-K reading this function once had is `precision_at_k`.
    """
    _check_top_k(k)
    return float(np.asarray(ranked_relevant, dtype=bool)[:k].any())


def precision_at_k(ranked_relevant: Sequence[bool], k: int) -> float:
    """Precision at K: (relevant items among ranks 1..K) / K.

    A list shorter than K counts its missing places as not relevant (the division stays by K, as
    trec_eval's P@K does).
    """
    _check_top_k(k)
    relevant = np.asarray(ranked_relevant, dtype=bool)
    return int(np.count_nonzero(relevant[:k])) / k


def average_precision(ranked_relevant: Sequence[bool]) -> float:
    """AP of one ranked list with binary relevance: AP = (1/R) * sum over relevant ranks r of P@r.

    P@r is the share of relevant items among ranks 1..r and R the number of relevant items in
    the list (here the whole gallery, so every relevant item is in it). The standard definition
    (Manning, Raghavan, Schütze, Introduction to Information Retrieval, 2008, section 8.4).
    A list without a relevant item gets 0; trec_eval instead leaves such queries out of the
    mean, so drop them first to compare with it.
    """
    relevant = np.asarray(ranked_relevant, dtype=bool)
    if not relevant.any():
        return 0.0
    relevant_so_far = np.cumsum(relevant)
    ranks = np.arange(1, relevant.size + 1)
    return float(np.mean(relevant_so_far[relevant] / ranks[relevant]))


def mean_correct_at_k(similarity, relevance, k: int) -> float:
    """The mean over queries of `correct_at_k`, the share of queries with a relevant item in the top K
    (ties against the model)."""
    return float(np.mean([correct_at_k(ranked, k) for ranked in _ranked_queries(similarity, relevance)]))


def mean_average_precision(similarity, relevance) -> float:
    """mAP: the mean over queries of `average_precision` (ties against the model)."""
    return float(np.mean([average_precision(ranked) for ranked in _ranked_queries(similarity, relevance)]))


def _ranked_queries(similarity, relevance) -> list:
    """Each query's binary relevance (nonzero = relevant) in the order of `ranked_relevance`."""
    scores, relevance = _similarity_and_relevance(similarity, relevance)
    return [ranked_relevance(row, labels) != 0 for row, labels in zip(scores, relevance)]


# --- nDCG with graded relevance --------------------------------------------------------------

def _linear_gain(relevances: np.ndarray) -> np.ndarray:
    return relevances


def _exponential_gain(relevances: np.ndarray) -> np.ndarray:
    return 2.0 ** relevances - 1.0


_GAINS = {"linear": _linear_gain, "exponential": _exponential_gain}


def gain_values(relevances, gain: str) -> np.ndarray:
    """The gain of each relevance: "linear" (rel) or "exponential" (2^rel - 1); refuses negatives."""
    if gain not in _GAINS:
        raise ValueError(f"gain must be one of {sorted(_GAINS)}, not {gain!r}")
    relevances = np.asarray(relevances, dtype=float)
    if relevances.size == 0:
        raise ValueError("there are no items to rank")
    if not (relevances >= 0).all():
        # A negative (or NaN) relevance would let DCG exceed IDCG, so nDCG would leave [0, 1].
        raise ValueError("relevances must be numbers >= 0")
    return _GAINS[gain](relevances)


def rank_discounts(n_positions: int, k) -> np.ndarray:
    """1 / log2(r + 1) for ranks r = 1..n, and 0 past the cut-off k (None: no cut-off)."""
    if k is not None and k < 0:
        raise ValueError(f"the cut-off k must be >= 0 or None, not {k}")
    discounts = 1.0 / np.log2(np.arange(1, n_positions + 1) + 1.0)
    if k is not None:
        discounts[k:] = 0.0
    return discounts


def dcg(ranked_relevances: Sequence[float], k=None, gain: str = "linear") -> float:
    """DCG of relevances already in ranked order: sum over ranks r <= k of gain(rel_r) / log2(r + 1).

    gain "linear": gain = rel (Wray et al.); "exponential": gain = 2^rel - 1 (Burges et al. 2005),
    which weighs the most relevant items more. k = None sums over the whole list.
    """
    gains = gain_values(ranked_relevances, gain)
    return float(np.sum(gains * rank_discounts(gains.size, k)))


def ideal_dcg(relevances: Sequence[float], k=None, gain: str = "linear") -> float:
    """IDCG: the DCG of the same relevances in the best order, most relevant first."""
    return dcg(np.sort(np.asarray(relevances, dtype=float))[::-1], k, gain)


def tie_averaged_dcg(scores: Sequence[float], relevances: Sequence[float], k=None, gain: str = "linear") -> float:
    """DCG of one query's items ranked by score, averaged over every order of the tied scores.

    In a run of equal scores each item is equally likely to sit at each of the run's ranks, so
    by linearity of expectation its gain is weighted by the mean discount of those ranks: the
    exact average over all orders at the cost of one sort (McSherry and Najork, "Computing
    Information Retrieval Performance Measures Efficiently in the Presence of Tied Scores",
    ECIR 2008). Without ties this is the plain DCG of the score order.
    """
    scores = _scores(scores)
    gains = gain_values(relevances, gain)
    if scores.shape != gains.shape:
        raise ValueError(f"{scores.size} scores but {gains.size} relevances")
    order = np.argsort(-scores, kind="stable")
    sorted_scores = scores[order]
    tie_run = np.concatenate(([0], np.cumsum(sorted_scores[1:] != sorted_scores[:-1])))
    discounts = rank_discounts(scores.size, k)
    mean_discount_of_run = np.bincount(tie_run, weights=discounts) / np.bincount(tie_run)
    return float(np.sum(gains[order] * mean_discount_of_run[tie_run]))


def ndcg(scores: Sequence[float], relevances: Sequence[float], k=None, gain: str = "linear") -> float:
    """nDCG of one query = DCG / IDCG, DCG from the score order with ties averaged (`tie_averaged_dcg`).

    0 when IDCG = 0 (no item with a positive relevance within the cut-off): there is no
    ranking to reward, and 0 keeps such a query from raising the mean.

    Source: Wray, Doughty, Damen, "On Semantic Similarity in Video Retrieval", CVPR 2021, which
    scores retrieval with nDCG, linear gain and relevances in [0, 1] from proxy measures. Their
    released code (src/evaluation/nDCG.py of mwray/Joint-Part-of-Speech-Embeddings, the file the
    README of mwray/Semantic-Video-Retrieval points to) does not sum over the whole gallery: a
    query's DCG and IDCG stop at k = its number of items with relevance > 0, which they say keeps
    poor rankings from scoring deceptively high. Pass k=relevant_counts(relevance) to match it.
    Their ties fall in numpy argsort's order; here they are averaged.
    """
    best = ideal_dcg(relevances, k, gain)
    if best == 0.0:
        return 0.0
    return tie_averaged_dcg(scores, relevances, k, gain) / best


def relevant_counts(relevance) -> np.ndarray:
    """Each query's number of items with relevance > 0: the per-query cut-off of Wray et al.'s code."""
    return np.count_nonzero(np.asarray(relevance) > 0, axis=-1)


def mean_ndcg(similarity, relevance, k=None, gain: str = "linear") -> float:
    """The mean over queries (rows) of `ndcg`.

    k is one cut-off for every query (an int, or None for the whole gallery) or one per query,
    e.g. `relevant_counts(relevance)` to reproduce Wray et al.'s released evaluation.
    """
    scores, relevance = _similarity_and_relevance(similarity, relevance)
    cutoffs = _cutoff_per_query(k, len(scores))
    return float(np.mean([ndcg(row, grades, cutoff, gain) for row, grades, cutoff in zip(scores, relevance, cutoffs)]))


def _cutoff_per_query(k, n_queries: int) -> list:
    if k is None or np.ndim(k) == 0:
        return [k] * n_queries
    cutoffs = [int(cutoff) for cutoff in k]
    if len(cutoffs) != n_queries:
        raise ValueError(f"{len(cutoffs)} cut-offs for {n_queries} queries")
    return cutoffs
