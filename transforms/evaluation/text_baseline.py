"""The text-only baseline (`capclean baseline`): what a protocol's captions alone know about its videos.

Each video is represented by its captions, each text scored against each video by the tf-idf cosine of
the text and the video's captions joined as one document; the result is the (texts x videos) similarity
matrix a retrieval model writes, in the protocol's order. No GPU, no training, no seed.

Never the text itself: the score of a text against a video never uses the captions the text is (its
`exclude` sen_ids: a full-test caption's own sen_id; a 1k-A sentence's matched sen_ids, all of them when it
is two or three identical captions). Only the text's own video holds them, so only that cell changes:
it is the cosine with the video's document minus those captions. The other cells use the whole document,
which holds no caption of the text. (Leaving every query caption out of every document instead would
empty full-test's documents, whose queries are all the captions.)

The weights: a word's idf comes from the documents of the videos outside the protocol (`idf_documents`,
the training side), never from the protocol's own captions, so no test caption weighs a word:
idf = ln((1 + n) / (1 + df)) + 1, scikit-learn's smoothed idf, which gives a word no outside document
has the largest weight; with no outside document every idf is 1 (plain term-frequency cosine). Words are
scikit-learn's default tokens: lower case, runs of two or more letters or digits ("a" is not a word).
"""
from dataclasses import dataclass
from typing import Callable

import numpy as np
import scipy.sparse as sp

BLOCK_CELLS = 1 << 24  # cells of the dense matrix computed at once (16M: 64 MB of float32)


@dataclass(frozen=True)
class BaselineText:
    """One row of the matrix: the text, its own video's column, and the sen_ids of that video's captions
    it is (left out of that video's document for this row)."""
    text: str
    own_column: int
    exclude: tuple


def fit_words(texts: list, captions: list):
    """scikit-learn's CountVectorizer over the texts and the captions: the words either holds."""
    from sklearn.feature_extraction.text import CountVectorizer

    return CountVectorizer(lowercase=True).fit(list(texts) + list(captions))


def idf_weights(words, idf_documents: list, vocabulary_size: int) -> np.ndarray:
    """A word's smoothed idf over the outside documents; all ones when there are none."""
    if not idf_documents:
        return np.ones(vocabulary_size)
    from sklearn.feature_extraction.text import TfidfTransformer

    return TfidfTransformer(smooth_idf=True).fit(words.transform(idf_documents)).idf_


def weighted_unit_rows(counts: sp.spmatrix, idf: np.ndarray) -> sp.csr_matrix:
    """Counts times idf, each row scaled to length 1 (a row of zeros stays zeros): a dot product is the cosine."""
    weighted = sp.csr_matrix(counts, dtype=np.float64) @ sp.diags(idf)
    lengths = np.sqrt(np.asarray(weighted.multiply(weighted).sum(axis=1)).ravel())
    scale = np.divide(1.0, lengths, out=np.zeros_like(lengths), where=lengths > 0)
    return sp.csr_matrix(sp.diags(scale) @ weighted)


@dataclass(frozen=True)
class VideoDocuments:
    """The protocol's videos as tf-idf documents: the words, their idf, every caption (column, sen_id) in order
    with its counts, and each video's document as the sum of its captions' counts."""
    words: object
    idf: np.ndarray
    flat: list  # (column, sen_id, caption) of every caption of the videos, by column
    caption_counts: sp.csr_matrix
    document_counts: sp.csr_matrix


def video_documents(texts: list, video_captions: list, idf_documents: list) -> VideoDocuments:
    """The documents of the videos, `video_captions` (per column, the (sen_id, caption) of that video), with a
    vocabulary holding every word of `texts` (the strings to score) and of the captions, so no word of a text
    is dropped from its length."""
    flat = [(column, sen_id, caption) for column, captions in enumerate(video_captions)
            for sen_id, caption in captions]
    words = fit_words(texts, [caption for _, _, caption in flat])
    idf = idf_weights(words, idf_documents, len(words.vocabulary_))
    caption_counts = words.transform([caption for _, _, caption in flat])
    membership = sp.csr_matrix((np.ones(len(flat)), ([column for column, _, _ in flat], np.arange(len(flat)))),
                               shape=(len(video_captions), len(flat)))
    return VideoDocuments(words, idf, flat, caption_counts, membership @ caption_counts)


def baseline_scores(texts: list, video_captions: list, idf_documents: list, out: np.ndarray | None = None,
                    progress: Callable[[int, int], None] | None = None) -> np.ndarray:
    """The (texts x videos) tf-idf cosine of each BaselineText against each video's document.

    video_captions: per column, the (sen_id, caption) of that video. `out`: a float32 array of that shape
    to fill (a memory-mapped .npy for full-test); `progress(done, total)` is told of each block of rows.
    """
    documents = video_documents([text.text for text in texts], video_captions, idf_documents)
    text_vectors = weighted_unit_rows(documents.words.transform([text.text for text in texts]), documents.idf)
    document_vectors = weighted_unit_rows(documents.document_counts, documents.idf).T.tocsc()
    shape = (len(texts), len(video_captions))
    scores = np.zeros(shape, dtype=np.float32) if out is None else out
    rows = max(1, BLOCK_CELLS // max(1, shape[1]))
    for start in range(0, shape[0], rows):
        stop = min(start + rows, shape[0])
        scores[start:stop] = (text_vectors[start:stop] @ document_vectors).toarray()
        if progress:
            progress(stop, shape[0])
    # Only a row with captions to leave out differs from the whole document's cosine.
    leaving_out = [row for row, text in enumerate(texts) if text.exclude]
    if leaving_out:
        own = own_video_scores(documents, [texts[row] for row in leaving_out], text_vectors[leaving_out])
        scores[leaving_out, [texts[row].own_column for row in leaving_out]] = own
    return scores


def own_video_scores(documents: VideoDocuments, texts: list, text_vectors=None) -> np.ndarray:
    """The cosine of each BaselineText with its own video's document minus its `exclude` captions (the whole
    document when it excludes none). `text_vectors`: the texts' unit rows, when the caller has them. Texts
    with the same video and the same captions left out (a caption and its negatives) share one document."""
    if text_vectors is None:
        text_vectors = weighted_unit_rows(documents.words.transform([text.text for text in texts]), documents.idf)
    held = {(column, sen_id) for column, sen_id, _ in documents.flat}
    strangers = [(row, sen_id) for row, text in enumerate(texts) for sen_id in text.exclude
                 if (text.own_column, sen_id) not in held]
    if strangers:
        raise ValueError(f"text {strangers[0][0]}: sen_id {strangers[0][1]} is not a caption of its own video")
    keys = [(text.own_column, tuple(sorted(text.exclude))) for text in texts]
    distinct = sorted(set(keys))
    document_of = {key: number for number, key in enumerate(distinct)}
    own_vectors = own_document_vectors(documents, distinct)
    # Each text's dot product with its own document, read off the text's few nonzero words.
    cells = text_vectors.tocoo()
    own_rows = np.array([document_of[key] for key in keys], dtype=np.int64)
    values = np.asarray(own_vectors[own_rows[cells.row], cells.col]).ravel()
    return np.bincount(cells.row, weights=cells.data * values, minlength=len(texts))


def own_document_vectors(documents: VideoDocuments, keys: list) -> sp.csr_matrix:
    """The unit tf-idf rows of the documents (column, sen_ids left out, each a caption of that column) of `keys`."""
    index_of = {(column, sen_id): index for index, (column, sen_id, _) in enumerate(documents.flat)}
    pairs = [(number, index_of[(column, sen_id)]) for number, (column, exclude) in enumerate(keys)
             for sen_id in exclude]
    left_out = sp.csr_matrix((np.ones(len(pairs)), ([number for number, _ in pairs], [index for _, index in pairs])),
                             shape=(len(keys), len(documents.flat)))
    own_documents = documents.document_counts[[column for column, _ in keys]] - left_out @ documents.caption_counts
    return weighted_unit_rows(own_documents, documents.idf)


def negatives_scores(rows: list, video_captions: list, idf_documents: list) -> np.ndarray:
    """The (rows, 1 + K) float32 matrix of PoSRank's rows (transforms/evaluation/posrank.py's MatrixRow order,
    kept as given): row i is rows[i], a (texts, own column, exclude) triple, its caption first then its
    negatives; every text of a row scored against the row's own video minus `exclude` (the caption the row is),
    as the matrix scores the caption; NaN after a row's last text."""
    texts = [BaselineText(text, column, tuple(exclude)) for row_texts, column, exclude in rows for text in row_texts]
    documents = video_documents([text.text for text in texts], video_captions, idf_documents)
    flat_scores = own_video_scores(documents, texts)
    width = max(len(row_texts) for row_texts, _, _ in rows)
    matrix = np.full((len(rows), width), np.nan, dtype=np.float32)
    start = 0
    for number, (row_texts, _, _) in enumerate(rows):
        matrix[number, :len(row_texts)] = flat_scores[start:start + len(row_texts)]
        start += len(row_texts)
    return matrix
