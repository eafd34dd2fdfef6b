"""Step III: near-duplicate captions within a video.

s(a, b) = 0.5 * (m / len(a) + m / len(b)), m the longest common subsequence of
the two word lists, where two words are equal when their Levenshtein distance is
at most e. Grouping is greedy in sen_id order; each group keeps its longest
caption (in characters, the first on ties).
"""
from dataclasses import dataclass, replace

import numpy as np
from rapidfuzz.distance import LCSseq, Levenshtein
from rapidfuzz.process import cdist

from transforms import lineage
from transforms.errors import ConfigError
from transforms.step import Step

STEP = "dedup"


@dataclass(frozen=True)
class DedupSettings:
    edit_threshold: int = 0  # e: words within this Levenshtein distance count as equal
    similarity_threshold: float = 0.85  # s: a pair at or above it is a duplicate
    # Group again on the kept captions until nothing is removed, and again on the videos step IV
    # shortened, so that the output has no near-duplicate pair left (greedy grouping is not
    # transitive). The paper grouped once.
    until_stable: bool = False

    def __post_init__(self):
        if self.edit_threshold < 0:
            raise ConfigError("dedup.edit_threshold (e) must be >= 0")
        if not 0.0 < self.similarity_threshold <= 1.0:
            raise ConfigError("dedup.similarity_threshold (s) must be in (0, 1]")


def common_words(a: list, b: list, edit_threshold: int) -> int:
    """Length of the longest common subsequence of two word lists, words equal within the edit threshold."""
    if edit_threshold == 0:
        return LCSseq.similarity(a, b)  # exact word equality: rapidfuzz's C implementation
    return CloseWords([a, b], edit_threshold).common_words(0, 1)


class CloseWords:
    """Which words of a video's captions are within the edit threshold of each other, computed once per video.

    All word distances come from one rapidfuzz `cdist` over the video's vocabulary;
    each caption then keeps, per vocabulary word, a bit mask of its positions
    holding a close word, which is what the bit-parallel LCS below consumes.
    """

    def __init__(self, word_lists: list, edit_threshold: int):
        vocabulary = sorted({word for words in word_lists for word in words})
        index = {word: number for number, word in enumerate(vocabulary)}
        distances = cdist(vocabulary, vocabulary, scorer=Levenshtein.distance, dtype=np.int32)
        close = distances <= edit_threshold
        self._word_ids = [[index[word] for word in words] for words in word_lists]
        self._lengths = [len(words) for words in word_lists]
        self._masks = [_position_masks(close[:, ids]) if ids else [] for ids in self._word_ids]

    def common_words(self, i: int, j: int) -> int:
        if not self._lengths[i] or not self._lengths[j]:
            return 0  # an empty caption has no masks
        masks_of_j = self._masks[j]
        return bit_parallel_lcs([masks_of_j[word] for word in self._word_ids[i]], self._lengths[j])


def _position_masks(close_to_positions: np.ndarray) -> list:
    """Row w of a (vocabulary x positions) boolean matrix -> an int with bit p set where word w is close to position p."""
    packed = np.packbits(close_to_positions, axis=1, bitorder="little")
    return [int.from_bytes(row.tobytes(), "little") for row in packed]


def bit_parallel_lcs(match_masks: list, length: int) -> int:
    """LCS length from, for each word of one sequence, the mask of matching positions in the other.

    The bit-vector algorithm of Allison and Dix (Hyyrö's form): it needs only the
    match matrix, so a fuzzy word equality gives the same result as the
    dynamic programme, one machine-word operation per word instead of per pair.
    """
    full = (1 << length) - 1
    row = full
    for matches in match_masks:
        kept = row & matches
        row = ((row + kept) | (row - kept)) & full
    return length - row.bit_count()


def caption_similarity(a: str, b: str, edit_threshold: int = 0) -> float:
    return pairwise_similarity([a, b], edit_threshold)(0, 1)


def pairwise_similarity(texts: list, edit_threshold: int):
    """similarity(i, j) of the video's captions i and j, with per-video precomputation.

    With e = 0 the common-word counts of every pair come from one rapidfuzz
    `cdist` call (in C: no Python call per pair); with e > 0 a pair's count comes
    from the bit-parallel LCS over the video's close-word masks when it is asked for.
    """
    word_lists = [text.split() for text in texts]
    if edit_threshold == 0:
        common = cdist(word_lists, word_lists, scorer=LCSseq.similarity, dtype=np.int32).tolist()
        common_words_of = lambda i, j: common[i][j]  # noqa: E731
    else:
        common_words_of = CloseWords(word_lists, edit_threshold).common_words

    def similarity(i, j):
        a, b = word_lists[i], word_lists[j]
        if not a or not b:
            return 0.0
        m = common_words_of(i, j)
        return 0.5 * (m / len(a) + m / len(b))

    return similarity


def group_near_duplicates(texts: list, edit_threshold: int, similarity_threshold: float) -> list:
    """Greedy groups of indexes into `texts`: the first ungrouped caption opens a group
    and takes every later ungrouped caption similar to it (not transitively).
    Each group is a list of (index, similarity to the opener), the opener first."""
    similarity_of = pairwise_similarity(texts, edit_threshold)
    grouped = [False] * len(texts)
    groups = []
    for opener in range(len(texts)):
        if grouped[opener]:
            continue
        group = [(opener, 1.0)]
        for other in range(opener + 1, len(texts)):
            if grouped[other]:
                continue
            similarity = similarity_of(opener, other)
            if similarity >= similarity_threshold:
                group.append((other, similarity))
                grouped[other] = True
        groups.append(group)
    return groups


def caption_to_keep(texts: list, group: list) -> int:
    """The longest caption of the group in characters; the first in sen_id order on ties."""
    return max(group, key=lambda member: (len(texts[member[0]]), -member[0]))[0]


def remove_near_duplicates(batch, edit_threshold: int, similarity_threshold: float, until_stable: bool = False):
    """Step III on one video. With `until_stable`, the grouping runs again on the kept captions
    until it removes nothing: greedy grouping is not transitive, so once a group's opener
    has gone, two captions it kept can still be near-duplicates of each other, and a
    second cleaning of the output would remove them."""
    current, number = _remove_once(batch, edit_threshold, similarity_threshold, 1), 1
    while until_stable:
        number += 1
        again = _remove_once(current, edit_threshold, similarity_threshold, number)
        if len(again.captions) == len(current.captions):
            break
        current = again
    return replace(current, removed=_final_keepers(current.removed))


def _remove_once(batch, edit_threshold: int, similarity_threshold: float, number: int):
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
            again = f"; pass {number}, on the captions earlier passes kept" if number > 1 else ""
            reason = f"{how}; e={edit_threshold}, s={similarity_threshold}{again}; the group keeps its longest caption"
            removed.append(lineage.removed(batch, caption.sen_id, caption.text, STEP, reason, kept_sen_id=kept_id))
    captions = [caption for index, caption in enumerate(batch.captions) if index in keep]
    return replace(batch, captions=captions, removed=batch.removed + removed)


def _final_keepers(rows: list) -> list:
    """The video's removal rows with every near-duplicate's `kept_sen_id` pointing at a caption
    that stays: a keeper that a later pass removed hands its group on to its own keeper."""
    keeper_of = {row.sen_id: row.kept_sen_id for row in rows if row.step == STEP}
    final = []
    for row in rows:
        if row.step == STEP:
            kept = row.kept_sen_id
            while kept in keeper_of:
                kept = keeper_of[kept]
            row = replace(row, kept_sen_id=kept)
        final.append(row)
    return final


def remove_near_duplicates_with(batch, settings: DedupSettings):
    return remove_near_duplicates(batch, settings.edit_threshold, settings.similarity_threshold, settings.until_stable)


class Dedup(Step):
    """Step III: near-duplicate captions within a video."""
    name = STEP
    summary = "near-duplicate captions of a video removed"
    Settings = DedupSettings

    def process(self, video):
        return remove_near_duplicates_with(video, self.settings)
