"""Train/test overlap and false-negative candidates, without Beam (`capclean overlap`).

Overlap (Rodriguez et al. 2022, "Fighting FIRe with FIRE", Appendix D): a tf-idf of character
5-grams fitted on the query (test) captions; each query caption's mean cosine similarity to its
ten most similar training captions; and the Spearman and Kendall correlation of that mean with
the caption's length in words and in characters. Short, general captions are the ones most
present in training. Beside it, capclean counts exact leaks: a query caption whose text (case
and spacing aside) is a training caption.

The training side is compared in chunks of rows, so that memory stays bounded by
queries x chunk similarities, whatever the size of the training side.

False-negative candidates: for each query caption, the other videos of its pool (the test
videos) one of whose captions is a near-duplicate of it by step III's similarity
(transforms/dedup.py, word LCS, e = 0) at a threshold: videos that plausibly match the query
as well as its own video does, which a retrieval benchmark counts as wrong.
"""
import re
from dataclasses import dataclass

import numpy as np

from transforms.dedup import similarity_matrix

TOP_K = 10
# The paper's representation: character 5-grams (analyzer "char": n-grams across word
# boundaries, spaces included), tf-idf fitted on the test captions.
NGRAM_RANGE = (5, 5)
ANALYZER = "char"
# Queries x training captions compared at once (float64: 8 bytes each).
CHUNK_CELLS = 4_000_000
# Caption length bins (words) of the candidate counts: (label, lowest, highest).
LENGTH_BINS = (("1-5", 1, 5), ("6-7", 6, 7), ("8-9", 8, 9), ("10-12", 10, 12), ("13+", 13, 10**9))


@dataclass(frozen=True)
class Caption:
    sen_id: int
    video_id: str
    text: str


@dataclass(frozen=True)
class OverlapRow:
    sen_id: int
    video_id: str
    caption: str
    words: int
    characters: int
    mean_top10_similarity: float
    exact_match: bool
    nearest_sen_id: int
    nearest_caption: str
    nearest_similarity: float


@dataclass(frozen=True)
class Candidate:
    query_sen_id: int
    query_video_id: str
    query_caption: str
    candidate_video_id: str
    similarity: float
    matching_sen_id: int
    matching_caption: str


def normalized(text: str) -> str:
    """The text an exact leak compares: lower case, runs of white space as one space."""
    return " ".join(text.lower().split())


def list_key(text: str) -> str:
    """The text a list file's sentence is matched by: the retrieval lists drop punctuation
    ("call of duty black ops" for "call of duty: black ops", "t shirts" for "t-shirts"), so
    lower case, every run of characters other than letters and digits as one space."""
    return " ".join(re.sub(r"[^0-9a-z]+", " ", text.lower()).split())


def word_count(text: str) -> int:
    return len(text.split())


def fit_vectorizer(query_texts: list):
    from sklearn.feature_extraction.text import TfidfVectorizer

    vectorizer = TfidfVectorizer(analyzer=ANALYZER, ngram_range=NGRAM_RANGE, lowercase=True)
    vectorizer.fit(query_texts)
    return vectorizer


def top_k_similarities(query_matrix, train_matrix, k: int = TOP_K, chunk_rows: int | None = None):
    """(top-k similarities of each query, descending; index of its most similar training row).

    Both matrices are L2-normalised sparse tf-idf rows, so a dot product is the cosine. The
    training rows are taken `chunk_rows` at a time, and each query keeps its k best so far; on
    ties the nearest is the lowest training index. With fewer than k training rows a query's
    missing similarities are NaN (and its mean is over the rows there are).
    """
    queries, trains = query_matrix.shape[0], train_matrix.shape[0]
    if chunk_rows is None:
        chunk_rows = max(1, CHUNK_CELLS // max(1, queries))
    best = np.full((queries, k), -np.inf)
    nearest = np.full(queries, -1, dtype=np.int64)
    nearest_value = np.full(queries, -np.inf)
    for start in range(0, trains, chunk_rows):
        chunk = (query_matrix @ train_matrix[start:start + chunk_rows].T).toarray()
        arg = chunk.argmax(axis=1)
        value = chunk[np.arange(queries), arg]
        better = value > nearest_value
        nearest[better], nearest_value[better] = arg[better] + start, value[better]
        joined = np.concatenate([best, chunk], axis=1)
        keep = min(k, joined.shape[1])
        best = -np.sort(-np.partition(joined, joined.shape[1] - keep, axis=1)[:, -keep:], axis=1)[:, :k]
    best[np.isneginf(best)] = np.nan
    return best, nearest


def overlap_rows(queries: list, train: list, k: int = TOP_K, chunk_rows: int | None = None) -> list:
    """One OverlapRow per query Caption against the training Captions."""
    vectorizer = fit_vectorizer([caption.text for caption in queries])
    query_matrix = vectorizer.transform([caption.text for caption in queries])
    train_matrix = vectorizer.transform([caption.text for caption in train])
    best, nearest = top_k_similarities(query_matrix, train_matrix, k, chunk_rows)
    train_texts = {normalized(caption.text) for caption in train}
    rows = []
    for number, caption in enumerate(queries):
        index = int(nearest[number])
        near = train[index] if index >= 0 else None
        rows.append(OverlapRow(
            sen_id=caption.sen_id, video_id=caption.video_id, caption=caption.text,
            words=word_count(caption.text), characters=len(caption.text),
            mean_top10_similarity=float(np.nanmean(best[number])) if near else float("nan"),
            exact_match=normalized(caption.text) in train_texts,
            nearest_sen_id=near.sen_id if near else -1, nearest_caption=near.text if near else "",
            nearest_similarity=float(best[number][0]) if near else float("nan")))
    return rows


def length_correlations(similarities, words, characters) -> dict:
    """Spearman's rho and Kendall's tau (tau-b) of the similarities with length in words and in characters."""
    from scipy.stats import kendalltau, spearmanr

    figures = {}
    for length_name, lengths in (("words", words), ("characters", characters)):
        for name, function in (("spearman", spearmanr), ("kendall", kendalltau)):
            result = function(similarities, lengths)
            figures[f"{name}_{length_name}"] = {"coefficient": float(result[0]), "p_value": float(result[1])}
    return figures


def overlap_figures(rows: list) -> dict:
    similarities = [row.mean_top10_similarity for row in rows]
    leaks = sum(row.exact_match for row in rows)
    return {
        "queries": len(rows),
        "exact_leaks": leaks,
        "exact_leak_share": leaks / len(rows) if rows else 0.0,
        "mean_top10_similarity": float(np.mean(similarities)) if rows else float("nan"),
        "correlations": length_correlations(similarities, [row.words for row in rows],
                                            [row.characters for row in rows]) if len(rows) > 2 else {},
        "by_length": similarity_by_length(rows),
    }


def similarity_by_length(rows: list) -> dict:
    """Per length bin (words): its queries and their mean top-10 similarity (None without a query)."""
    grouped = {label: [] for label, _, _ in LENGTH_BINS}
    for row in rows:
        grouped.setdefault(length_bin(row.words), []).append(row.mean_top10_similarity)
    return {label: {"queries": len(values), "mean_top10_similarity": float(np.mean(values)) if values else None}
            for label, values in grouped.items()}


def fn_candidates(queries: list, pool: list, threshold: float, query_chunk: int = 200, workers: int = 1) -> list:
    """The Candidates of each query Caption: every other video of the pool with a caption whose
    step III similarity to the query is at least `threshold`, by that video's best caption (the
    lowest sen_id on ties)."""
    pool = sorted(pool, key=lambda caption: caption.sen_id)
    pool_texts = [caption.text for caption in pool]
    pool_videos = np.array([caption.video_id for caption in pool])
    found = []
    for start in range(0, len(queries), query_chunk):
        block = queries[start:start + query_chunk]
        matrix = similarity_matrix([caption.text for caption in block], pool_texts, workers=workers)
        for row, query in enumerate(block):
            hits = np.nonzero((matrix[row] >= threshold) & (pool_videos != query.video_id))[0]
            best = {}
            for index in hits:  # pool in sen_id order: a strictly better caption replaces the earlier
                video = pool[index].video_id
                if video not in best or matrix[row, index] > matrix[row, best[video]]:
                    best[video] = index
            for video, index in sorted(best.items(), key=lambda item: (-matrix[row, item[1]], item[0])):
                found.append(Candidate(query.sen_id, query.video_id, query.text, video, float(matrix[row, index]),
                                       pool[index].sen_id, pool[index].text))
    return found


def length_bin(words: int) -> str:
    for label, low, high in LENGTH_BINS:
        if low <= words <= high:
            return label
    return "0"


def candidate_figures(queries: list, candidates: list) -> dict:
    """Queries with at least one candidate, overall and per length bin (words)."""
    with_candidate = {candidate.query_sen_id for candidate in candidates}
    bins = {label: {"queries": 0, "with_candidate": 0} for label, _, _ in LENGTH_BINS}
    for query in queries:
        counts = bins.setdefault(length_bin(word_count(query.text)), {"queries": 0, "with_candidate": 0})
        counts["queries"] += 1
        counts["with_candidate"] += query.sen_id in with_candidate
    for counts in bins.values():
        counts["share"] = counts["with_candidate"] / counts["queries"] if counts["queries"] else 0.0
    return {"queries": len(queries), "with_candidate": len(with_candidate),
            "share": len(with_candidate) / len(queries) if queries else 0.0,
            "candidate_pairs": len(candidates), "by_length": bins}


# --- the labelling sheet ----------------------------------------------------------------------------------

# Its columns: those `capclean fire --labels` reads (query, video, label, source) and what a judge reads.
SHEET_COLUMNS = ("query", "query_sen_id", "query_video_id", "video", "similarity", "matching_caption",
                 "more_captions", "label", "source")
SHEET_SOURCE = "overlap"  # the pool a pair came from, as FIRE's `models` name theirs
MORE_CAPTIONS = 4  # the candidate video's other captions shown to the judge, by sen_id
CAPTION_SEPARATOR = " | "


def labelling_rows(candidates: list, pool: list, more: int = MORE_CAPTIONS) -> list:
    """One row per Candidate, in SHEET_COLUMNS order, for people to judge: the query's text (what a model
    encodes: 1k-A's sentence), its sen_id and video, the candidate video, the similarity, the caption that
    made it a candidate and `more` of the video's other captions; `label` empty, to be filled with 1/0
    (true/false, relevant/irrelevant); `source` "overlap"."""
    by_video = {}
    for caption in sorted(pool, key=lambda caption: caption.sen_id):
        by_video.setdefault(caption.video_id, []).append(caption)
    rows = []
    for candidate in candidates:
        others = [caption.text for caption in by_video.get(candidate.candidate_video_id, [])
                  if caption.sen_id != candidate.matching_sen_id][:more]
        rows.append((candidate.query_caption, candidate.query_sen_id, candidate.query_video_id,
                     candidate.candidate_video_id, f"{candidate.similarity:.4f}", candidate.matching_caption,
                     CAPTION_SEPARATOR.join(others), "", SHEET_SOURCE))
    return rows
