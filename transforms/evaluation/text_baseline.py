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


def baseline_scores(texts: list, video_captions: list, idf_documents: list, out: np.ndarray | None = None,
                    progress: Callable[[int, int], None] | None = None) -> np.ndarray:
    """The (texts x videos) tf-idf cosine of each BaselineText against each video's document.

    video_captions: per column, the (sen_id, caption) of that video. `out`: a float32 array of that shape
    to fill (a memory-mapped .npy for full-test); `progress(done, total)` is told of each block of rows.
    """
    flat = [(column, sen_id, caption) for column, captions in enumerate(video_captions)
            for sen_id, caption in captions]
    words = fit_words([text.text for text in texts], [caption for _, _, caption in flat])
    idf = idf_weights(words, idf_documents, len(words.vocabulary_))
    caption_counts = words.transform([caption for _, _, caption in flat])
    membership = sp.csr_matrix((np.ones(len(flat)), ([column for column, _, _ in flat], np.arange(len(flat)))),
                               shape=(len(video_captions), len(flat)))
    document_counts = membership @ caption_counts  # a video's document: the sum of its captions' counts
    text_vectors = weighted_unit_rows(words.transform([text.text for text in texts]), idf)
    documents = weighted_unit_rows(document_counts, idf).T.tocsc()
    shape = (len(texts), len(video_captions))
    scores = np.zeros(shape, dtype=np.float32) if out is None else out
    rows = max(1, BLOCK_CELLS // max(1, shape[1]))
    for start in range(0, shape[0], rows):
        stop = min(start + rows, shape[0])
        scores[start:stop] = (text_vectors[start:stop] @ documents).toarray()
        if progress:
            progress(stop, shape[0])
    own_cells = own_video_cells(texts, flat, caption_counts, document_counts, text_vectors, idf)
    for row, (column, value) in own_cells.items():
        scores[row, column] = value
    return scores


def own_video_cells(texts: list, flat: list, caption_counts, document_counts, text_vectors, idf) -> dict:
    """{row: (own column, the cosine with the own video's document minus the text's own captions)} for
    the rows that have captions to leave out."""
    index_of = {sen_id: index for index, (_, sen_id, _) in enumerate(flat)}
    rows = [row for row, text in enumerate(texts) if text.exclude]
    if not rows:
        return {}
    own = {(column, sen_id) for column, sen_id, _ in flat}
    strangers = [(row, sen_id) for row in rows for sen_id in texts[row].exclude
                 if (texts[row].own_column, sen_id) not in own]
    if strangers:
        raise ValueError(f"text {strangers[0][0]}: sen_id {strangers[0][1]} is not a caption of its own video")
    pairs = [(number, index_of[sen_id]) for number, row in enumerate(rows) for sen_id in texts[row].exclude]
    left_out = sp.csr_matrix((np.ones(len(pairs)), tuple(zip(*pairs))), shape=(len(rows), len(flat)))
    own_documents = document_counts[[texts[row].own_column for row in rows]] - left_out @ caption_counts
    own_vectors = weighted_unit_rows(own_documents, idf)
    values = np.asarray(text_vectors[rows].multiply(own_vectors).sum(axis=1)).ravel()
    return {row: (texts[row].own_column, float(value)) for row, value in zip(rows, values)}
