"""METEOR of one caption against many at once, with numpy: the MET kernel's inner loop.

transforms/evaluation/meteor.py scores a pair in about 6 us of Python; the MET proxy needs
3.6 billion pairs on MSR-VTT's test split. Here one caption (the query) is scored against every
caption of a CaptionBatch in a few array operations, and the few pairs those cannot settle are
handed to the pair-at-a-time code, so every score is the one meteor.py gives.

Why arrays suffice for most pairs:

- NLTK's exact and stem stages only pair occurrences of one stem, the k-th last on one side with
  the k-th last on the other (meteor.py). When a stem stands for one word on each side, the two
  stages together pair exactly the occurrences with equal (stem, rank from the end), whichever
  side is the hypothesis: a sorted search of each token's key stem x key_base + rank among the
  query's keys.
- The synonym stage is greedy (hypothesis from its last token, each taking the last free
  reference token among its synonyms), but when no two candidate pairs share a token, every
  candidate pair is taken, whatever the order.
- Chunks are the matches minus the continuations: tokens t, t + 1 of one caption matched to
  query positions p, p + 1.

The pair-at-a-time code takes the rest: a shared stem that stands for two different words on one
side ("play", "plays": the exact stage then decides), or synonym candidates sharing a token.
"""
from dataclasses import dataclass

import numpy as np

from transforms.evaluation.meteor import EncodedCaption, MeteorLexicon, MeteorParameters, single_meteor


@dataclass(frozen=True)
class CaptionBatch:
    """Many encoded captions as flat token arrays (caption after caption).

    stems, keys: each token's stem id, and stem x key_base + its rank among the caption's tokens
    of that stem counted from the end. caption_of: each token's caption; offsets: where each
    caption's tokens start (and, last, the token count). continues: the next token is in the same
    caption. mixed: the token's stem stands for two words in its caption. stems_reaching: stem id
    -> the batch's stems that have it as a WordNet synonym.
    """
    captions: tuple
    lengths: np.ndarray
    stems: np.ndarray
    keys: np.ndarray
    caption_of: np.ndarray
    offsets: np.ndarray
    continues: np.ndarray
    mixed: np.ndarray
    stems_reaching: dict
    key_base: int


def build_batch(captions: list, lexicon: MeteorLexicon) -> CaptionBatch:
    """The captions (encoded with `lexicon`) as one batch."""
    key_base = max([len(caption.stems) for caption in captions] + [1])
    stems, keys, caption_of, mixed = [], [], [], []
    for index, caption in enumerate(captions):
        stems += caption.stems
        keys += [stem * key_base + rank for stem, rank in zip(caption.stems, ranks_from_end(caption.stems))]
        caption_of += [index] * len(caption.stems)
        mixed += [stem in caption.mixed_stems for stem in caption.stems]
    stems_reaching = {}
    for stem in set(stems):
        for synonym in lexicon.synonyms(stem):
            stems_reaching.setdefault(synonym, []).append(stem)
    caption_of = np.array(caption_of, dtype=np.int64)
    lengths = np.array([len(caption.stems) for caption in captions], dtype=np.int64)
    continues = np.zeros(len(caption_of), dtype=bool)
    continues[:-1] = caption_of[1:] == caption_of[:-1]
    return CaptionBatch(tuple(captions), lengths, np.array(stems, dtype=np.int64), np.array(keys, dtype=np.int64),
                        caption_of, np.concatenate([[0], np.cumsum(lengths)]), continues, np.array(mixed, dtype=bool),
                        stems_reaching, key_base)


def ranks_from_end(stems: tuple) -> list:
    """Each token's rank among the caption's tokens of its stem, the last one 0."""
    ranks, seen = [0] * len(stems), {}
    for position in range(len(stems) - 1, -1, -1):
        ranks[position] = seen.get(stems[position], 0)
        seen[stems[position]] = ranks[position] + 1
    return ranks


def scores_against(query: EncodedCaption, batch: CaptionBatch, lexicon: MeteorLexicon, query_is_reference: bool,
                   parameters: MeteorParameters = MeteorParameters()) -> np.ndarray:
    """METEOR of the query against each caption of the batch: single_meteor(reference = each
    caption, hypothesis = query), or with the roles swapped when query_is_reference."""
    count = len(batch.captions)
    if not query.stems or count == 0:
        return np.zeros(count)
    tables = _Tables(query, batch)
    query_position = _stem_stage_matches(query, batch)
    tokens, positions = _synonym_candidates(query, batch, lexicon, query_position, query_is_reference, tables)
    tangled = _tangled_captions(batch, tokens, positions, len(query.stems))
    taken = ~tangled[batch.caption_of[tokens]]
    query_position[tokens[taken]] = positions[taken]

    matched = query_position >= 0
    runs_on = matched & batch.continues
    runs_on[:-1] &= query_position[1:] == query_position[:-1] + 1
    matches = _per_caption(batch, matched)
    query_length = np.full(count, len(query.stems))
    hyp_lengths, ref_lengths = (batch.lengths, query_length) if query_is_reference else (query_length, batch.lengths)
    scores = _formula(matches, matches - _per_caption(batch, runs_on), hyp_lengths, ref_lengths, parameters)
    for index in np.flatnonzero(tangled | _mixed_captions(query, batch, tables)):
        other = batch.captions[index]
        reference, hypothesis = (query, other) if query_is_reference else (other, query)
        scores[index] = single_meteor(reference, hypothesis, lexicon, parameters)
    return scores


class _Tables:
    """Boolean tables over stem ids, large enough for the batch's and the query's stems and synonyms."""

    def __init__(self, query: EncodedCaption, batch: CaptionBatch):
        self.size = 1 + max([int(batch.stems.max(initial=0))] + list(query.stem_set) + list(query.synonym_reach))

    def of(self, ids) -> np.ndarray:
        table = np.zeros(self.size, dtype=bool)
        table[[item for item in ids if item < self.size]] = True  # a larger id is no batch stem
        return table


def _stem_stage_matches(query: EncodedCaption, batch: CaptionBatch) -> np.ndarray:
    """For each batch token, the query position with the same (stem, rank from the end), or -1.
    A rank no batch caption reaches gets key -1, which matches nothing."""
    query_keys = np.array([stem * batch.key_base + rank if rank < batch.key_base else -1
                           for stem, rank in zip(query.stems, ranks_from_end(query.stems))])
    order = np.argsort(query_keys)
    query_keys = query_keys[order]
    found = np.minimum(np.searchsorted(query_keys, batch.keys), len(query_keys) - 1)
    return np.where(query_keys[found] == batch.keys, order[found], -1)


def _synonym_candidates(query: EncodedCaption, batch: CaptionBatch, lexicon: MeteorLexicon,
                        query_position: np.ndarray, query_is_reference: bool, tables: _Tables) -> tuple:
    """(batch tokens, query positions): the pairs, both free after the stem stage, that the synonym
    stage may match: the hypothesis side's stem has the reference side's stem as a synonym."""
    free = query_position < 0
    query_taken = np.zeros((len(batch.captions), len(query.stems)), dtype=bool)
    query_taken[batch.caption_of[~free], query_position[~free]] = True
    all_tokens, all_positions = [], []
    for position, stem in enumerate(query.stems):
        if query_is_reference:
            reaching = batch.stems_reaching.get(stem, ())
        else:
            reaching = lexicon.synonyms(stem)
        if not reaching:
            continue
        tokens = np.flatnonzero(tables.of(reaching)[batch.stems] & free)
        tokens = tokens[~query_taken[batch.caption_of[tokens], position]]
        all_tokens.append(tokens)
        all_positions.append(np.full(len(tokens), position))
    if not all_tokens:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(all_tokens), np.concatenate(all_positions)


def _tangled_captions(batch: CaptionBatch, tokens: np.ndarray, positions: np.ndarray, query_length: int) -> np.ndarray:
    """The captions where two synonym candidates share a token or a query position: the greedy order decides."""
    tangled = np.zeros(len(batch.captions), dtype=bool)
    captions = batch.caption_of[tokens]
    for key in (tokens, captions * query_length + positions):
        _, first, counts = np.unique(key, return_index=True, return_counts=True)
        tangled[captions[first[counts > 1]]] = True
    return tangled


def _mixed_captions(query: EncodedCaption, batch: CaptionBatch, tables: _Tables) -> np.ndarray:
    """The captions sharing with the query a stem that stands for two words on one side."""
    doubtful = tables.of(query.stem_set)[batch.stems] & batch.mixed
    if query.mixed_stems:
        doubtful |= tables.of(query.mixed_stems)[batch.stems]
    return _per_caption(batch, doubtful) > 0


def _per_caption(batch: CaptionBatch, flags: np.ndarray) -> np.ndarray:
    """How many of each caption's tokens are flagged (a caption without tokens: 0)."""
    running = np.concatenate([[0], np.cumsum(flags, dtype=np.int64)])
    return running[batch.offsets[1:]] - running[batch.offsets[:-1]]


def _formula(matches, chunks, hyp_lengths, ref_lengths, parameters: MeteorParameters) -> np.ndarray:
    """meteor.meteor_from_counts on arrays, its operations in its order; 0 where nothing matches."""
    scores = np.zeros(len(matches))
    some = matches > 0
    matches, chunks = matches[some].astype(float), chunks[some].astype(float)
    precision = matches / hyp_lengths[some]
    recall = matches / ref_lengths[some]
    fmean = (precision * recall) / (parameters.alpha * precision + (1 - parameters.alpha) * recall)
    penalty = parameters.gamma * (chunks / matches) ** parameters.beta
    scores[some] = (1 - penalty) * fmean
    return scores
