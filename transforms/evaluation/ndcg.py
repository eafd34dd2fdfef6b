"""nDCG and mAP of a retrieval model against a sparse graded relevance matrix (`capclean ndcg`).

The relevance is a scipy CSR matrix, videos x captions (2,990 x 59,800 on MSR-VTT's test split),
as `capclean relevance` writes it: only pairs with relevance > 0 are stored. It is read in two
directions, each a set of queries ranking a gallery:

- t2v (text-to-video): each caption is a query over the videos (a column of the matrix);
- v2t (video-to-text): each video is a query over the captions (a row).

A query's nDCG is DCG / IDCG (transforms/evaluation/metrics.py has the one-query definitions),
with gain "linear" (S / log2(j + 1), the authors' released code) or "exponential"
((2^S - 1) / log2(j + 1), the paper's Eq. 2-3). Three readings of which ranks count (`cutoff`):

- "relevant": the whole gallery is ranked, and a query's DCG and IDCG stop at k = its number of
  items with relevance > 0 (Wray et al.'s released nDCG.py);
- "all": the whole gallery, no cut-off;
- "within-relevant": only the query's items with relevance > 0 are ranked, among themselves
  (the paper's Eq. 2-3 read literally: a sum over the relevant items).
 The figure of a direction is the mean over its queries; the paper's figure is
the mean of the two directions.

Three ways of ranking, all exact:

- a model's scores, ranked with ties averaged over their orders (as metrics.tie_averaged_dcg);
- "random": the EXPECTED nDCG of a uniformly random ranking, in closed form. Each item is equally
  likely at each of the N ranks, so by linearity of expectation
      E[DCG] = sum of the query's gains x (mean over the N ranks of the discount, 0 past the cut-off)
  and IDCG does not depend on the ranking, so E[nDCG] = E[DCG] / IDCG exactly;
- "oracle": the items ranked by their relevance itself, which is the ideal ranking: 1.0.

The queries are taken a block at a time (a block's dense scores are at most CHUNK_CELLS numbers),
so memory stays bounded by the relevance matrix and one block.
"""
from dataclasses import dataclass
from typing import Callable

import numpy as np
import scipy.sparse as sp

from transforms.evaluation.metrics import gain_values, ideal_dcg, rank_discounts

DIRECTIONS = ("t2v", "v2t")
GAINS = ("linear", "exponential")
CUTOFFS = ("relevant", "all", "within-relevant")
CHUNK_CELLS = 4_000_000  # scores in one block of queries: 16 MB of float32, 32 MB of float64

# A block of scores: (direction, first query, last query + 1) -> (queries x items) dense array,
# a higher score ranking an item higher.
ScoreBlocks = Callable[[str, int, int], np.ndarray]


@dataclass(frozen=True)
class NdcgOptions:
    cutoff: str = "relevant"  # one of CUTOFFS; "relevant" is Wray et al.'s released evaluation
    gains: tuple = GAINS  # the gains to report, from GAINS
    chunk_cells: int = CHUNK_CELLS  # scores held at once

    def __post_init__(self):
        if self.cutoff not in CUTOFFS:
            raise ValueError(f"cut-off {self.cutoff!r}: choose from {', '.join(CUTOFFS)}")
        unknown = [gain for gain in self.gains if gain not in GAINS]
        if unknown or not self.gains:
            raise ValueError(f"gains {list(self.gains)}: choose one or more of {', '.join(GAINS)}")
        if self.chunk_cells < 1:
            raise ValueError(f"chunk_cells must be at least 1, not {self.chunk_cells}")


# --- The queries of a direction ----------------------------------------------------------------

def queries(relevance: sp.csr_matrix, direction: str) -> sp.csr_matrix:
    """The relevance with one row per query: as it is for v2t, transposed for t2v."""
    if direction not in DIRECTIONS:
        raise ValueError(f"direction {direction!r}: choose from {', '.join(DIRECTIONS)}")
    matrix = relevance if direction == "v2t" else relevance.T
    return sp.csr_matrix(matrix)


def cutoffs(by_query: sp.csr_matrix, cutoff: str) -> np.ndarray:
    """Each query's cut-off k: its number of items with relevance > 0, or the whole gallery ("all")."""
    if cutoff != "all":
        return np.diff(by_query.indptr)
    return np.full(by_query.shape[0], by_query.shape[1])


def cumulative_discounts(n_items: int) -> np.ndarray:
    """C[r] = sum of the discounts 1 / log2(i + 1) of ranks i = 1..r, with C[0] = 0 (length n + 1).

    The sum of the discounts of ranks a+1..b with a cut-off k is C[min(b, k)] - C[min(a, k)].
    """
    return np.concatenate(([0.0], np.cumsum(rank_discounts(n_items, None))))


def _row(by_query: sp.csr_matrix, query: int) -> tuple:
    """(item indexes, relevances) of one query's items with relevance > 0."""
    start, stop = by_query.indptr[query], by_query.indptr[query + 1]
    return by_query.indices[start:stop], by_query.data[start:stop]


def ideal_dcgs(by_query: sp.csr_matrix, gain: str, ks: np.ndarray) -> np.ndarray:
    """IDCG of each query. Items of relevance 0 have gain 0 and sort last, so the stored ones suffice."""
    values = np.zeros(by_query.shape[0])
    for query in range(by_query.shape[0]):
        _, relevances = _row(by_query, query)
        if relevances.size:
            values[query] = ideal_dcg(relevances, int(ks[query]), gain)
    return values


def _ratios(dcgs: np.ndarray, ideals: np.ndarray) -> np.ndarray:
    """nDCG = DCG / IDCG, and 0 for a query with nothing relevant (IDCG 0), as metrics.ndcg."""
    return np.divide(dcgs, ideals, out=np.zeros_like(dcgs), where=ideals > 0)


# --- Random and oracle ---------------------------------------------------------------------------

def expected_random_dcg(gains: np.ndarray, n_items: int, k: int) -> float:
    """E[DCG] of a uniformly random ranking of n items, cut off at k: sum(gains) x mean discount.

    Item i lands on each rank with probability 1/n, so E[its discounted gain] = gain_i x (1/n) x
    (sum of the discounts of ranks 1..k); summing over the items gives the formula. Items of
    relevance 0 add nothing, so only the stored gains are needed.
    """
    return float(np.sum(gains)) * cumulative_discounts(n_items)[min(k, n_items)] / n_items


def random_ndcgs(by_query: sp.csr_matrix, gain: str, cutoff: str) -> np.ndarray:
    """The exact expected nDCG of a uniformly random ranking, for each query.

    With "within-relevant" only the query's k relevant items are ranked, so the mean discount
    is over k ranks instead of the gallery's n.
    """
    n_items = by_query.shape[1]
    ks = cutoffs(by_query, cutoff)
    ranked = np.maximum(ks, 1) if cutoff == "within-relevant" else n_items
    mean_discount = cumulative_discounts(n_items)[np.minimum(ks, n_items)] / ranked
    sums = np.zeros(by_query.shape[0])
    has_items = np.diff(by_query.indptr) > 0
    for query in np.flatnonzero(has_items):
        sums[query] = gain_values(_row(by_query, query)[1], gain).sum()
    return _ratios(sums * mean_discount, ideal_dcgs(by_query, gain, ks))


def expected_random_average_precision(n_relevant: int, n_items: int) -> float:
    """E[AP] of a uniformly random ranking of n items of which R are relevant.

    A relevant item at rank r has precision (1 + X) / r, X the other relevant items above it:
    E[X] = (r - 1)(R - 1)/(n - 1) (drawn without replacement). With r uniform on 1..n,
        E[AP] = (1/n) x (H_n + (R - 1)/(n - 1) x (n - H_n)),   H_n = 1 + 1/2 + ... + 1/n.
    R = 1 gives H_n / n (metrics.expected_random_reciprocal_rank); R = n gives 1.
    """
    if not 1 <= n_relevant <= n_items:
        raise ValueError(f"{n_relevant} relevant items among {n_items}: need 1 <= R <= n")
    harmonic = float(np.sum(1.0 / np.arange(1, n_items + 1)))
    spread = 0.0 if n_items == 1 else (n_relevant - 1) / (n_items - 1) * (n_items - harmonic)
    return (harmonic + spread) / n_items


# --- A model's scores ----------------------------------------------------------------------------

def dense_score_blocks(scores: np.ndarray) -> ScoreBlocks:
    """Blocks of a (videos x captions) score matrix, the shape and order of the relevance."""
    def block(direction: str, start: int, stop: int) -> np.ndarray:
        return scores[start:stop] if direction == "v2t" else scores[:, start:stop].T
    return block


def oracle_score_blocks(relevance: sp.csr_matrix) -> ScoreBlocks:
    """The relevance itself as the scores: the oracle, which ranks every query ideally."""
    by_direction = {direction: queries(relevance, direction) for direction in DIRECTIONS}

    def block(direction: str, start: int, stop: int) -> np.ndarray:
        return by_direction[direction][start:stop].toarray()
    return block


def block_size(n_items: int, chunk_cells: int) -> int:
    """Queries per block so that a block holds at most chunk_cells scores (at least one query)."""
    return max(1, chunk_cells // max(1, n_items))


def tie_averaged_dcgs(scores: np.ndarray, items: np.ndarray, gains: np.ndarray, k: int) -> float:
    """DCG of one query from its dense scores and its relevant items' gains, ties averaged.

    The items scoring above item i fill the ranks before it: `above` of them; the items tied with it
    (itself included) share ranks above+1..at_or_above, so its discount is the mean discount of
    those ranks, with the cut-off k (metrics.tie_averaged_dcg's rule, computed from one sort).
    """
    n_items = scores.size
    ascending = np.sort(scores)
    own = scores[items]
    above = n_items - np.searchsorted(ascending, own, side="right")
    at_or_above = n_items - np.searchsorted(ascending, own, side="left")
    cumulative = cumulative_discounts(n_items)
    run_discount = cumulative[np.minimum(at_or_above, k)] - cumulative[np.minimum(above, k)]
    return float(np.sum(gains * run_discount / (at_or_above - above)))


def model_ndcgs(blocks: ScoreBlocks, by_query: sp.csr_matrix, direction: str, gain: str, cutoff: str,
                chunk_cells: int = CHUNK_CELLS) -> np.ndarray:
    """nDCG of each query of a direction, ranked by the model's scores."""
    n_queries, n_items = by_query.shape
    ks = cutoffs(by_query, cutoff)
    dcgs = np.zeros(n_queries)
    for query, scores in query_scores(blocks, direction, n_queries, n_items, chunk_cells):
        items, relevances = _row(by_query, query)
        if not items.size:
            continue
        gains = gain_values(relevances, gain)
        if cutoff == "within-relevant":  # the relevant items ranked among themselves
            dcgs[query] = tie_averaged_dcgs(scores[items], np.arange(items.size), gains, items.size)
        else:
            dcgs[query] = tie_averaged_dcgs(scores, items, gains, int(ks[query]))
    return _ratios(dcgs, ideal_dcgs(by_query, gain, ks))


def query_scores(blocks: ScoreBlocks, direction: str, n_queries: int, n_items: int, chunk_cells: int):
    """(query, its scores of every item) for each query of a direction, read a block of queries at a
    time so that memory stays near `chunk_cells` scores."""
    step = block_size(n_items, chunk_cells)
    for start in range(0, n_queries, step):
        stop = min(start + step, n_queries)
        scores = _checked_block(blocks(direction, start, stop), stop - start, n_items)
        for offset, query in enumerate(range(start, stop)):
            yield query, scores[offset]


def _checked_block(scores: np.ndarray, n_queries: int, n_items: int) -> np.ndarray:
    scores = np.asarray(scores, dtype=float)
    if scores.shape != (n_queries, n_items):
        raise ValueError(f"a block of scores is {scores.shape}, not ({n_queries}, {n_items})")
    if np.isnan(scores).any():
        raise ValueError("a score is NaN: it would compare false with every other score and rank first")
    return scores


def average_precisions(blocks: ScoreBlocks, relevant: sp.csr_matrix, direction: str,
                       chunk_cells: int = CHUNK_CELLS) -> np.ndarray:
    """AP of each query with binary relevance (`relevant`: queries x items, nonzero = relevant).

    Ties count against the model, as metrics.average_precision after metrics.ranked_relevance: an
    irrelevant item tied with a relevant one ranks above it. The j-th best relevant item (j = 1, 2,
    ...) therefore has rank j + (irrelevant items scoring at least as high), and AP is the mean of
    j / rank over the relevant items (0 for a query with none).
    """
    n_queries, n_items = relevant.shape
    values = np.zeros(n_queries)
    for query, scores in query_scores(blocks, direction, n_queries, n_items, chunk_cells):
        items, _ = _row(relevant, query)
        if items.size:
            values[query] = _average_precision(scores, items)
    return values


def _average_precision(scores: np.ndarray, items: np.ndarray) -> float:
    own = np.sort(scores[items])[::-1]  # the relevant items' scores, best first
    ascending = np.sort(scores)
    at_or_above = scores.size - np.searchsorted(ascending, own, side="left")
    relevant_at_or_above = own.size - np.searchsorted(np.sort(own), own, side="left")
    places = np.arange(1, own.size + 1)
    ranks = places + (at_or_above - relevant_at_or_above)
    return float(np.mean(places / ranks))


# --- Own captions (mAP's relevant set) -------------------------------------------------------------

def own_video_relevance(own_video_rows: np.ndarray, n_videos: int) -> sp.csr_matrix:
    """Binary (videos x captions): each caption relevant to its own video only, the classic MSR-VTT labels."""
    n_captions = len(own_video_rows)
    return sp.csr_matrix((np.ones(n_captions, dtype=np.float32), (own_video_rows, np.arange(n_captions))),
                         shape=(n_videos, n_captions))


# --- The figures of a run ------------------------------------------------------------------------

def ndcg_table(relevance: sp.csr_matrix, ranking, options: NdcgOptions = NdcgOptions(),
               progress: Callable[[int, int], None] | None = None) -> dict:
    """{direction or "mean": {gain: mean nDCG}} for one proxy's relevance (videos x captions).

    ranking: "random" (the exact expectation), "oracle" (ranked by the relevance), or ScoreBlocks
    of a model's scores. "mean" is the mean of t2v and v2t, the paper's figure. `progress(done, total)`
    is told of each (direction, gain) done: on the full test split a model's take a minute or more each.
    """
    if isinstance(ranking, str) and ranking not in ("random", "oracle"):
        raise ValueError(f"ranking {ranking!r}: 'random', 'oracle' or a model's score blocks")
    blocks = oracle_score_blocks(relevance) if ranking == "oracle" else ranking
    table = {}
    for direction in DIRECTIONS:
        by_query = queries(relevance, direction)
        table[direction] = {}
        for gain in options.gains:
            if ranking == "random":
                values = random_ndcgs(by_query, gain, options.cutoff)
            else:
                values = model_ndcgs(blocks, by_query, direction, gain, options.cutoff, options.chunk_cells)
            table[direction][gain] = float(np.mean(values))
            if progress:
                progress(sum(map(len, table.values())), len(DIRECTIONS) * len(options.gains))
    table["mean"] = {gain: (table["t2v"][gain] + table["v2t"][gain]) / 2 for gain in options.gains}
    return table


def map_table(own_video_rows: np.ndarray, n_videos: int, ranking, options: NdcgOptions = NdcgOptions()) -> dict:
    """{"t2v", "v2t", "mean": mAP} with a caption's own video as its only relevant one (and a video's
    own captions as its relevant ones). ranking: "random" (the exact expectation) or ScoreBlocks."""
    labels = own_video_relevance(np.asarray(own_video_rows), n_videos)
    table = {}
    for direction in DIRECTIONS:
        by_query = queries(labels, direction)
        if ranking == "random":
            counts = np.diff(by_query.indptr)
            values = [expected_random_average_precision(int(count), by_query.shape[1]) if count else 0.0
                      for count in counts]
        else:
            values = average_precisions(ranking, by_query, direction, options.chunk_cells)
        table[direction] = float(np.mean(values))
    table["mean"] = (table["t2v"] + table["v2t"]) / 2
    return table
