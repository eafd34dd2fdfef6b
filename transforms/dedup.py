"""Step III: near-duplicate captions within a video.

s(a, b) = 0.5 * (m / len(a) + m / len(b)), m the longest common subsequence of
the two word lists, where two words are equal when their Levenshtein distance is
at most e. Grouping is greedy in sen_id order; each group keeps its longest
caption (in characters, the first on ties).
"""
from dataclasses import replace

import apache_beam as beam
import numpy as np
from rapidfuzz.distance import LCSseq, Levenshtein

from transforms.batch import removed_row

STEP = "dedup"


def common_words(a: list, b: list, edit_threshold: int) -> int:
    """Length of the longest common subsequence of two word lists, words equal within the edit threshold."""
    if edit_threshold == 0:
        return LCSseq.similarity(a, b)  # exact word equality: rapidfuzz's C implementation
    matches = np.array([[Levenshtein.distance(x, y) <= edit_threshold for y in b] for x in a], dtype=bool)
    return _lcs_over_matches(matches)


def _lcs_over_matches(matches: np.ndarray) -> int:
    rows, cols = matches.shape
    previous = np.zeros(cols + 1, dtype=np.int64)
    for i in range(rows):
        current = np.zeros(cols + 1, dtype=np.int64)
        for j in range(cols):
            if matches[i, j]:
                current[j + 1] = previous[j] + 1
            else:
                current[j + 1] = max(previous[j + 1], current[j])
        previous = current
    return int(previous[cols])


def caption_similarity(a: str, b: str, edit_threshold: int = 0) -> float:
    words_a, words_b = a.split(), b.split()
    if not words_a or not words_b:
        return 0.0
    m = common_words(words_a, words_b, edit_threshold)
    return 0.5 * (m / len(words_a) + m / len(words_b))


def group_near_duplicates(texts: list, edit_threshold: int, similarity_threshold: float) -> list:
    """Greedy groups of indexes into `texts`: the first ungrouped caption opens a group
    and takes every later ungrouped caption similar to it (not transitively).
    Each group is a list of (index, similarity to the opener), the opener first."""
    grouped = [False] * len(texts)
    groups = []
    for opener, opener_text in enumerate(texts):
        if grouped[opener]:
            continue
        group = [(opener, 1.0)]
        for other in range(opener + 1, len(texts)):
            if grouped[other]:
                continue
            similarity = caption_similarity(opener_text, texts[other], edit_threshold)
            if similarity >= similarity_threshold:
                group.append((other, similarity))
                grouped[other] = True
        groups.append(group)
    return groups


def caption_to_keep(texts: list, group: list) -> int:
    """The longest caption of the group in characters; the first in sen_id order on ties."""
    return max(group, key=lambda member: (len(texts[member[0]]), -member[0]))[0]


def remove_near_duplicates(batch, edit_threshold: int, similarity_threshold: float):
    texts = [caption.text for caption in batch.captions]
    keep, removed = set(), []
    for group in group_near_duplicates(texts, edit_threshold, similarity_threshold):
        kept = caption_to_keep(texts, group)
        keep.add(kept)
        opener_id = batch.captions[group[0][0]].sen_id
        kept_id = batch.captions[kept].sen_id
        for index, similarity in group:
            if index == kept:
                continue
            caption = batch.captions[index]
            if caption.sen_id == opener_id:
                how = "opened a near-duplicate group"
            else:
                how = f"near-duplicate of sen_id {opener_id} (similarity {similarity:.3f})"
            reason = f"{how}; e={edit_threshold}, s={similarity_threshold}; the group keeps its longest caption"
            removed.append(removed_row(batch, caption.sen_id, caption.text, STEP, reason, kept_sen_id=kept_id))
    captions = [caption for index, caption in enumerate(batch.captions) if index in keep]
    return replace(batch, captions=captions, removed=batch.removed + removed)


class RemoveNearDuplicates(beam.PTransform):
    """Step III over a PCollection of VideoBatch."""

    def __init__(self, config):
        super().__init__()
        self._config = config

    def expand(self, batches):
        return batches | "RemoveNearDuplicates" >> beam.Map(
            remove_near_duplicates, self._config.edit_threshold, self._config.similarity_threshold)
