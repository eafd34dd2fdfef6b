"""The FIRE figures of a model's ranked predictions: Correct@K, AP/mAP per label set, the overlap of two
models' rankings (top-10 overlap, rank-biased overlap), C@K by caption length, and the bootstrap of how
many annotated queries detect a difference between two models.

Pure functions, no Beam and no files; `pipelines/evaluation/fire/command.py` reads the files and prints. The source is
Rodriguez, Azab, Silvert, Sanchez, Labson, Shah, Moon, "Fighting FIRe with FIRE: Assessing the Validity
of Text-to-Video Retrieval Benchmarks" (2022, arXiv:2210.05038) and its released code
(github.com/facebookresearch/mm-retrieval-evaluation, `mmr/analysis.py`), which defines:

- Correct@K of one query: 1 when at least one relevant video is among the top K, else 0
  (`compute_correct_at_k`); the reported C@K is its mean over queries, a share of queries.
- AP of one query: the mean of P@r over the ranks r, within the ranked list it is given, that hold a
  relevant video; 0 when none does (`compute_average_precision`). The list is the model's top 20 for
  MSR-VTT (`max_preds=20`), so the normaliser is the number of relevant videos *retrieved within that
  depth*, not the number labelled relevant. `average_precision(..., normaliser="labelled")` gives the
  textbook alternative (divide by every video labelled relevant for the query).

A ranking is a list of video ids, best first; a gold set is a set of video ids. Figures are fractions.

Beside them: the matching of labels to the queries they name (`match_labels`: exactly, by text or sen_id);
the rankings of a score matrix (`ScoreMatrix`: ties count against the model, so a relevant video tied with
an irrelevant one ranks below it); and the exact C@K and mAP of a random ranking (`random_figures`).
"""
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from transforms.evaluation.retrieval import chance_within

NORMALISERS = ("retrieved", "labelled")
# FIRE's MSR-VTT evaluation ranks the top 20 videos of each query (mmr/analysis.py, max_preds=20).
FIRE_DEPTH = 20
# Rank-biased overlap's persistence: with p = 0.9 the top 10 ranks hold 86% of the weight. Webber, Moffat,
# Zobel, "A Similarity Measure for Indefinite Rankings", TOIS 2010.
RBO_P = 0.9
# C@K by caption length: the upper word counts of every bin but the last (1-5, 6-8, 9-11, 12+ words).
LENGTH_EDGES = (5, 8, 11)


# --- one query ---------------------------------------------------------------------------------------

def correct_at_k(ranking: Sequence[str], gold: Iterable[str], k: int) -> int:
    """1 if a video of `gold` is among the first k of `ranking`, else 0 (FIRE's Correct@K of one query)."""
    if k < 1:
        raise ValueError(f"k must be at least 1, not {k}")
    gold = set(gold)
    return int(any(video in gold for video in ranking[:k]))


def average_precision(ranking: Sequence[str], gold: Iterable[str], normaliser: str = "retrieved") -> float:
    """AP of one ranked list: sum over the ranks r holding a relevant video of P@r, divided by

    - "retrieved" (FIRE's code): the number of relevant videos in the list; 0 when there is none;
    - "labelled": the number of videos in `gold`, so a relevant video beyond the list adds 0.
    """
    if normaliser not in NORMALISERS:
        raise ValueError(f"normaliser must be one of {', '.join(NORMALISERS)}, not {normaliser!r}")
    gold = set(gold)
    precisions, hits = [], 0
    for rank, video in enumerate(ranking, start=1):
        if video in gold:
            hits += 1
            precisions.append(hits / rank)
    denominator = len(precisions) if normaliser == "retrieved" else len(gold)
    return sum(precisions) / denominator if denominator else 0.0


def top_k_overlap(ranking_a: Sequence[str], ranking_b: Sequence[str], k: int = 10) -> float:
    """|top k of a  &  top k of b| / k: the share of the top k that the two models share."""
    if k < 1:
        raise ValueError(f"k must be at least 1, not {k}")
    return len(set(ranking_a[:k]) & set(ranking_b[:k])) / k


def rank_biased_overlap(ranking_a: Sequence[str], ranking_b: Sequence[str], p: float = RBO_P,
                        depth: int | None = None) -> float:
    """Extrapolated rank-biased overlap of two rankings seen to the same depth k (Webber et al. 2010, Eq. 32):

        RBO_ext = (X_k / k) p^k + ((1 - p) / p) * sum_{d=1..k} (X_d / d) p^d

    X_d = the number of videos the two top-d lists share. The lists are cut to `depth` or to the
    shorter of the two. 1 for identical rankings, 0 for disjoint ones.
    """
    if not 0 < p < 1:
        raise ValueError(f"p must be between 0 and 1 (exclusive), not {p}")
    k = min(len(ranking_a), len(ranking_b), depth or len(ranking_a))
    if k == 0:
        raise ValueError("rank-biased overlap needs two non-empty rankings")
    seen_a, seen_b, shared, total = set(), set(), 0, 0.0
    for d in range(1, k + 1):
        a, b = ranking_a[d - 1], ranking_b[d - 1]
        shared += (a in seen_b) + (b in seen_a) + (a == b)
        seen_a.add(a)
        seen_b.add(b)
        total += shared / d * p ** d
    return shared / k * p ** k + (1 - p) / p * total


# --- over queries ------------------------------------------------------------------------------------

def per_query(rankings: Mapping[str, Sequence[str]], gold: Mapping[str, set], ks=(1, 5, 10),
              normaliser: str = "retrieved") -> dict:
    """{query: {"C@1": 0/1, ..., "AP": float}} for every query of `rankings`; a query without gold has an
    empty gold set (it scores 0)."""
    return {query: {**{f"C@{k}": correct_at_k(ranking, gold.get(query, ()), k) for k in ks},
                    "AP": average_precision(ranking, gold.get(query, ()), normaliser)}
            for query, ranking in rankings.items()}


def mean_figures(values: Mapping[str, Mapping[str, float]]) -> dict:
    """The mean of each figure over the queries of `per_query`: {"C@1": ..., "mAP": ..., "queries": n}."""
    if not values:
        raise ValueError("no queries to average over")
    names = next(iter(values.values())).keys()
    means = {("mAP" if name == "AP" else name): float(np.mean([row[name] for row in values.values()]))
             for name in names}
    return {**means, "queries": len(values)}


def label_sets(original: Mapping[str, set], extra: Iterable[tuple], model: str | None = None) -> dict:
    """The gold sets FIRE compares, each {query: set of videos}:

    - "original": the dataset's own positives;
    - "original+extra": with every extra positive label added;
    - "original+others" (only when `model` is named): with the extra positives that came from other
      models' pools only, so a label this model's own top 10 brought in does not count for it.

    `extra` holds (query, video, sources) with `sources` the set of model names whose pool held the pair.
    """
    sets = {"original": {query: set(videos) for query, videos in original.items()}}
    sets["original+extra"] = {query: set(videos) for query, videos in original.items()}
    if model is not None:
        sets["original+others"] = {query: set(videos) for query, videos in original.items()}
    for query, video, sources in extra:
        sets["original+extra"].setdefault(query, set()).add(video)
        if model is not None and model.lower() not in {source.lower() for source in sources}:
            sets["original+others"].setdefault(query, set()).add(video)
    return sets


def length_bin(words: int, edges: Sequence[int] = LENGTH_EDGES) -> str:
    """The name of the length bin of a caption of `words` words: "1-5", "6-8", "9-11", "12+"."""
    low = 1
    for edge in edges:
        if words <= edge:
            return f"{low}-{edge}"
        low = edge + 1
    return f"{low}+"


def correct_by_length(values: Mapping[str, Mapping[str, float]], captions: Mapping[str, str],
                      edges: Sequence[int] = LENGTH_EDGES) -> dict:
    """{bin: {"C@1": mean, ..., "queries": n}} over the queries of `per_query` whose caption is known, the
    caption's length being its number of whitespace-separated words. Bins without a query are left out."""
    grouped = {}
    for query, row in values.items():
        if query in captions:
            grouped.setdefault(length_bin(len(captions[query].split()), edges), {})[query] = row
    order = [length_bin(edge, edges) for edge in edges] + [length_bin(edges[-1] + 1, edges)]
    return {name: {key: value for key, value in mean_figures(grouped[name]).items() if key != "mAP"}
            for name in order if name in grouped}


def mean_overlaps(rankings_a: Mapping[str, Sequence[str]], rankings_b: Mapping[str, Sequence[str]],
                  k: int = 10, p: float = RBO_P) -> dict:
    """The mean top-k overlap and mean RBO over the queries both models ranked."""
    shared = sorted(set(rankings_a) & set(rankings_b))
    if not shared:
        raise ValueError("the two models ranked no query in common")
    return {f"top{k}_overlap": float(np.mean([top_k_overlap(rankings_a[q], rankings_b[q], k) for q in shared])),
            "rbo": float(np.mean([rank_biased_overlap(rankings_a[q], rankings_b[q], p) for q in shared])),
            "rbo_p": p, "queries": len(shared)}


# --- the bootstrap -------------------------------------------------------------------------------

def default_sizes(n_queries: int) -> list:
    """The numbers of annotated queries tried: 10, 20, 50, 100, 200, 500, ... up to all of them."""
    sizes, step = [], 0
    while True:
        size = (1, 2, 5)[step % 3] * 10 ** (step // 3 + 1)
        if size >= n_queries:
            return sizes + [n_queries]
        sizes.append(size)
        step += 1


def bootstrap_queries_needed(values_a: Sequence[float], values_b: Sequence[float], sizes: Sequence[int] | None = None,
                             resamples: int = 1000, seed: int = 0, level: float = 0.95) -> dict:
    """How many annotated queries detect the difference between two models at `level` (95%).

    `values_a[i]` and `values_b[i]` are the two models' figure on query i (e.g. its C@1 with the extra
    labels). For each size n in `sizes`, `resamples` sets of n queries are drawn with replacement (one
    seeded generator); each gives the mean paired difference a - b. The difference is detected at n when
    the percentile interval of those means (2.5% to 97.5% for 95%) excludes zero. Returns the observed
    difference, each size's interval, and the smallest size that detects it (None if none does).
    """
    a, b = np.asarray(values_a, dtype=float), np.asarray(values_b, dtype=float)
    if a.shape != b.shape or a.ndim != 1 or a.size == 0:
        raise ValueError("the bootstrap needs the two models' figures on one same, non-empty list of queries")
    differences = a - b
    rng = np.random.default_rng(seed)
    tail = (1 - level) / 2 * 100
    intervals = {}
    for size in (sizes or default_sizes(differences.size)):
        means = differences[rng.integers(0, differences.size, size=(resamples, size))].mean(axis=1)
        low, high = np.percentile(means, [tail, 100 - tail])
        intervals[int(size)] = (float(low), float(high))
    detected = [size for size, (low, high) in intervals.items() if low > 0 or high < 0]
    return {"difference": float(differences.mean()), "level": level, "resamples": resamples, "seed": seed,
            "intervals": intervals, "queries_needed": min(detected) if detected else None}


# --- labels and the queries they name ----------------------------------------------------------------

@dataclass(frozen=True)
class LabelQuery:
    """A query a label may name, by its text (1k-A: the JSFusion sentence, as FIRE keys its labels) or by one
    of its sen_ids, and the keys of the rankings it stands for (a ranked table's sen_ids, a matrix's rows)."""
    text: str
    sen_ids: tuple
    keys: tuple


@dataclass(frozen=True)
class Label:
    """One judged (query, video) pair as a label file gives it; `where` names its row for an error."""
    where: str
    query: str
    video: str
    positive: bool
    sources: frozenset


def match_labels(labels: Iterable[Label], queries: Iterable[LabelQuery], videos=None) -> tuple:
    """(matched, unmatched): matched holds (key, video, positive, sources) for every ranking key a label's
    query stands for; unmatched holds (label, why) of each label that names no query, or a video outside
    `videos` (the gallery, when it is known).

    A label's query is matched exactly: to a query whose text it is, character for character (edges of
    white space aside), or to one whose sen_ids hold it. A text several queries share names them all, as
    FIRE's own evaluation (mmr/analysis.py) gives a label to every row of its caption text.
    """
    keys_of_text, keys_of_sen_id = {}, {}
    for query in queries:
        if query.text.strip():  # a ranked table's query whose caption is not known has no text
            keys_of_text.setdefault(query.text.strip(), set()).update(query.keys)
        for sen_id in query.sen_ids:
            keys_of_sen_id.setdefault(str(sen_id), set()).update(query.keys)
    gallery = set(videos) if videos is not None else None
    matched, unmatched = [], []
    for label in labels:
        named = label.query.strip()
        keys = keys_of_text.get(named, set()) | keys_of_sen_id.get(named, set())
        if not keys and (named in keys_of_text or named in keys_of_sen_id):
            unmatched.append((label, "its query is known, but no ranked query stands for it (no sen_id of its "
                                     "captions was predicted)"))
        elif not keys:
            unmatched.append((label, "its query matches no query text or sen_id"))
        elif gallery is not None and label.video not in gallery:
            unmatched.append((label, "its video is not in the gallery"))
        else:
            matched += [(key, label.video, label.positive, label.sources) for key in sorted(keys)]
    return matched, unmatched


# --- rankings out of a score matrix --------------------------------------------------------------------

MATRIX_TIES = "a tie counts against the model: among videos of one score the irrelevant ones rank first"


@dataclass(frozen=True)
class ScoreMatrix:
    """A model's scores of every query (rows, named by `keys`) against every video (columns). Its rankings
    count ties against the model: among videos of one score the irrelevant ones rank first. So the ranking
    of a query depends on which videos are relevant, and is drawn for each label set."""
    scores: np.ndarray
    keys: tuple
    video_ids: tuple

    def rankings(self, gold: Mapping[str, set], depth: int) -> dict:
        """{key: the top `depth` video ids, best first} of every row; `gold` {key: relevant video ids}."""
        column_of = {video: column for column, video in enumerate(self.video_ids)}
        ranked = {}
        for row, key in enumerate(self.keys):
            relevant = np.zeros(len(self.video_ids), dtype=bool)
            relevant[[column_of[video] for video in gold.get(key, ()) if video in column_of]] = True
            ranked[key] = [self.video_ids[column] for column in top_columns(self.scores[row], relevant, depth)]
        return ranked


def top_columns(scores: np.ndarray, relevant: np.ndarray, depth: int) -> np.ndarray:
    """The columns of the `depth` best scores, best first; among equal scores the irrelevant first (a tie
    never helps the model), then by column. Only the scores at or above the depth-th best are sorted."""
    if depth < scores.size:
        floor = np.partition(scores, scores.size - depth)[scores.size - depth]
        candidates = np.flatnonzero(scores >= floor)
    else:
        candidates = np.arange(scores.size)
    # lexsort sorts by its last key first: score descending, then irrelevant first, then column.
    order = np.lexsort((candidates, relevant[candidates], -scores[candidates]))
    return candidates[order][:depth]


# --- a random ranking, exactly ------------------------------------------------------------------------

def random_average_precision(relevant: int, videos: int, depth: int = FIRE_DEPTH) -> Fraction:
    """FIRE's AP (normaliser: the relevant videos retrieved in the top `depth`) of a uniformly random ranking.

    The number h of relevant videos in the top D is hypergeometric, P(h) = C(R, h) C(M - R, D - h) / C(M, D).
    Given h, their places are a uniform h-subset of 1..D; place r holds one with chance h/D, and then the
    relevant ones at or above it number 1 + (r - 1)(h - 1)/(D - 1) on average. So
    E[AP | h] = (1/h) sum_r (1/r)(h/D)(1 + (r - 1)(h - 1)/(D - 1)), and h = 0 gives 0.
    """
    depth = min(depth, videos)
    total = Fraction(0)
    for hits in range(1, min(relevant, depth) + 1):
        chance = Fraction(math.comb(relevant, hits) * math.comb(videos - relevant, depth - hits),
                          math.comb(videos, depth))
        spread = Fraction(hits - 1, depth - 1) if depth > 1 else Fraction(0)
        expected = sum(Fraction(1, rank) * (1 + (rank - 1) * spread) for rank in range(1, depth + 1)) / depth
        total += chance * expected
    return total


def random_figures(relevant_counts: Sequence[int], videos: int, ks=(1, 5, 10), depth: int = FIRE_DEPTH) -> dict:
    """The mean C@K and mAP (FIRE's normaliser) of a random ranking over queries with these numbers of
    relevant videos in the gallery, in the shape of `mean_figures`. C@K of one query is the chance that its
    best relevant video ranks within K (retrieval.chance_within: 1 - C(M - k, R) / C(M, R))."""
    if not relevant_counts:
        raise ValueError("no queries to average over")
    share = {count: Fraction(queries, len(relevant_counts)) for count, queries in Counter(relevant_counts).items()}
    figures = {f"C@{k}": float(sum(part * chance_within(min(k, videos), count, videos)
                                   for count, part in share.items())) for k in ks}
    figures["mAP"] = float(sum(part * random_average_precision(count, videos, depth) for count, part in share.items()))
    return {**figures, "queries": len(relevant_counts)}
