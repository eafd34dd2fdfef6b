"""Graded relevance of every (video, caption) pair, from the captions alone (`capclean relevance`).

Wray, Doughty and Damen ("On Semantic Similarity in Video Retrieval", CVPR 2021) score a
retrieval model against graded relevance instead of "only the video's own captions count".
Three of their four proxies are an intersection over union (IoU) of two sets:

- bow: the words of the caption and of the video, stop words excluded;
- pos: the same per part of speech (verbs and nouns), summed with weights (0.5 each);
- syn: the same over WordNet synsets, each verb and noun's sense chosen by the Lesk algorithm.

For MSR-VTT a video's set holds the words "present in 25% or more" of its captions, and a
video's own captions have relevance 1. Every detail of the construction that the paper leaves
open is a field of RelevanceReading (relevance_reading.py, re-exported here), so that the readings
can be compared (issue 29's calibration); docs/commands/relevance.md says what the authors'
released scripts do and where capclean differs.

IoU is sparse algebra: with binary incidence matrices V (videos x vocabulary) and C (captions x
vocabulary), the intersections are V @ C.T, and the union of a pair is |v| + |c| - intersection.
A pair sharing nothing has IoU 0 and is never stored. Captions are taken a chunk at a time, so
memory is bounded by the chunk whatever the number of captions.

Usage (the caller tags the captions once, with transforms/evaluation/pos.py):

    sets = caption_sets(tagged_captions, "pos", reading)          # the slow part, reusable
    relevance = relevance_from_sets(sets, reading)                # Relevance: CSR + ids
"""
from dataclasses import dataclass
from typing import Iterator

import numpy as np
import scipy.sparse as sp

from transforms.errors import ConfigError
from transforms.evaluation.relevance_reading import (DEFAULT_PARTS, KNOWN_PARTS, PROXIES, STOP_LISTS,  # noqa: F401
                                                     TOKENIZATIONS, VIDEO_SETS, Part, RelevanceReading,
                                                     parts_from_weights)

# Pairs computed at once (float32 + int32 index each, a few times over while summing parts).
CHUNK_PAIRS = 20_000_000


@dataclass(frozen=True)
class CaptionSets:
    """The captions of one proxy as sets: per part (bow has one part, weight 1), one frozenset per caption."""
    proxy: str
    sen_ids: tuple
    video_ids: tuple  # the video of each caption
    weights: tuple  # one per part
    sets: tuple  # one tuple per part, of one frozenset per caption
    video_sets: tuple | None = None  # syn, video-context senses: per part, one frozenset per video



@dataclass(frozen=True)
class Relevance:
    """matrix[v, c]: the relevance of caption sen_ids[c] to video video_ids[v] (CSR, float32, zeros not stored)."""
    matrix: sp.csr_matrix
    video_ids: tuple  # in order of first appearance among the captions
    sen_ids: tuple  # in the order the captions were given


# --- A caption's sets ---------------------------------------------------------------------------

def stop_words(stop_list: str) -> frozenset:
    if stop_list == "none":
        return frozenset()
    from spacy.lang.en.stop_words import STOP_WORDS

    return frozenset(STOP_WORDS)


def bow_words(caption, reading: RelevanceReading, stops: frozenset) -> frozenset:
    """The caption's words (a TaggedCaption), stop words excluded. The stop list is lower case, so
    with lowercase=False a capitalised stop word ("The") stays, as in the authors' script."""
    if reading.tokens == "split":
        words = [word for word in caption.caption.split(" ") if word]
    else:
        # Punctuation tokens carry no content: a token counts when it holds a letter or a digit.
        chosen = caption.lemmas if reading.lemmas else caption.tokens
        words = [word for word, token in zip(chosen, caption.tokens) if any(ch.isalnum() for ch in token)]
    if reading.lowercase:
        words = [word.lower() for word in words]
    return frozenset(word for word in words if word not in stops)


def part_words(caption, part: Part, reading: RelevanceReading) -> list:
    """The caption's words tagged as the part, in order (duplicates kept; the caller makes a set)."""
    chosen = caption.lemmas if reading.lemmas else caption.tokens
    words = [word for word, pos in zip(chosen, caption.pos) if pos in part.tags]
    return [word.lower() for word in words] if reading.lowercase else words


class SynsetFinder:
    """A word's WordNet sense in its caption by NLTK's Lesk algorithm, as the authors' create_synsets.py:
    the word is lemmatised for its part of speech (NLTK's WordNetLemmatizer rule: the shortest of
    WordNet's base forms), Lesk picks among that lemma's synsets of the part of speech the one whose
    definition shares most words with the caption (split at spaces), and a word WordNet lacks
    stands for itself. Synset lists are looked up once per (lemma, part of speech)."""

    def __init__(self, wordnet):
        self._wordnet = wordnet
        self._lemmas = {}
        self._synsets = {}

    def lemma(self, word: str, wordnet_pos: str) -> str:
        key = (word, wordnet_pos)
        if key not in self._lemmas:
            forms = self._wordnet._morphy(word, wordnet_pos)  # what WordNetLemmatizer.lemmatize calls
            self._lemmas[key] = min(forms, key=len) if forms else word
        return self._lemmas[key]

    def sense(self, context: list, word: str, wordnet_pos: str) -> str:
        from nltk.wsd import lesk

        lemma = self.lemma(word, wordnet_pos)
        key = (lemma, wordnet_pos)
        if key not in self._synsets:
            self._synsets[key] = self._wordnet.synsets(lemma, wordnet_pos)
        synset = lesk(context, lemma, wordnet_pos, synsets=self._synsets[key]) if self._synsets[key] else None
        return synset.name() if synset is not None else word


def caption_sets(captions: list, proxy: str, reading: RelevanceReading, wordnet=None) -> CaptionSets:
    """The sets of each TaggedCaption for a proxy; `wordnet` (an NLTK WordNet reader) for syn only."""
    if proxy not in PROXIES:
        raise ConfigError(f"unknown proxy {proxy!r}: choose from {', '.join(PROXIES)}")
    sen_ids = tuple(caption.sen_id for caption in captions)
    video_ids = tuple(caption.video_id for caption in captions)
    if proxy == "bow":
        stops = stop_words(reading.stop_list)
        sets = (tuple(bow_words(caption, reading, stops) for caption in captions),)
        return CaptionSets(proxy, sen_ids, video_ids, (1.0,), sets)
    if proxy == "pos":
        sets = tuple(tuple(frozenset(part_words(caption, part, reading)) for caption in captions)
                     for part in reading.parts)
    else:
        if wordnet is None:
            raise ConfigError("the syn proxy needs WordNet")
        finder = SynsetFinder(wordnet)
        # Lesk's lemma is WordNet's, from the word as written, whatever reading.lemmas says.
        as_written = RelevanceReading(lowercase=reading.lowercase)
        sets = []
        for part in reading.parts:
            per_caption = []
            for caption in captions:
                # The authors' context is the caption split at spaces; lower-cased like the words.
                context = caption.caption.lower().split() if reading.lowercase else caption.caption.split()
                words = part_words(caption, part, as_written)
                per_caption.append(frozenset(finder.sense(context, word, part.wordnet_pos) for word in words))
            sets.append(tuple(per_caption))
        sets = tuple(sets)
        if reading.syn_video_senses == "video-context" and reading.video_sets == "threshold":
            video_sets = tuple(video_context_senses(captions, part, reading, finder) for part in reading.parts)
            return CaptionSets(proxy, sen_ids, video_ids, tuple(part.weight for part in reading.parts), sets,
                               video_sets)
    return CaptionSets(proxy, sen_ids, video_ids, tuple(part.weight for part in reading.parts), sets)


def video_context_senses(captions: list, part: Part, reading: RelevanceReading, finder: SynsetFinder) -> tuple:
    """Per video (in order of first appearance): the words of the part in at least video_threshold of
    its captions, each given its Lesk sense with all the video's captions, joined, as context."""
    as_written = RelevanceReading(lowercase=reading.lowercase)
    by_video = {}
    for caption in captions:
        by_video.setdefault(caption.video_id, []).append(caption)
    senses = []
    for video_captions in by_video.values():
        words = words_in_share([frozenset(part_words(caption, part, as_written)) for caption in video_captions],
                               reading.video_threshold)
        text = " ".join(caption.caption for caption in video_captions)
        context = text.lower().split() if reading.lowercase else text.split()
        senses.append(frozenset(finder.sense(context, word, part.wordnet_pos) for word in sorted(words)))
    return tuple(senses)


def words_in_share(word_sets: list, share: float) -> frozenset:
    """The words in at least `share` of the sets (and in one): one video's side of a "threshold" reading, for
    a few captions at a time (video_sets_by_threshold does every video at once)."""
    counts = {}
    for words in word_sets:
        for word in words:
            counts[word] = counts.get(word, 0) + 1
    # The same tolerance as video_sets_by_threshold: 0.1 * 30 is 3.0000000000000004.
    needed = share * len(word_sets) - 1e-9
    return frozenset(word for word, count in counts.items() if count >= needed)


def set_iou(left: frozenset, right: frozenset) -> float:
    """The IoU of two sets (0 when they share nothing): one pair of what iou() computes for all pairs."""
    shared = len(left & right)
    return shared / (len(left) + len(right) - shared) if shared else 0.0


# --- Sets as sparse matrices --------------------------------------------------------------------

def incidence(sets: tuple) -> sp.csr_matrix:
    """Binary (sets x vocabulary) matrix, float32; the vocabulary is the sorted union of the sets."""
    vocabulary = {word: column for column, word in enumerate(sorted(set().union(*sets)))}
    columns = np.fromiter((vocabulary[word] for words in sets for word in words), dtype=np.int64)
    pointers = np.concatenate([[0], np.cumsum([len(words) for words in sets])]).astype(np.int64)
    data = np.ones(len(columns), dtype=np.float32)
    return sp.csr_matrix((data, columns, pointers), shape=(len(sets), len(vocabulary)))


def video_membership(video_ids: tuple) -> tuple:
    """(the distinct videos in order of first appearance, the row of each caption's video)."""
    order = {}
    rows = np.fromiter((order.setdefault(video, len(order)) for video in video_ids), dtype=np.int64,
                       count=len(video_ids))
    return tuple(order), rows


def video_sets_by_threshold(captions: sp.csr_matrix, video_rows: np.ndarray, videos: int,
                            threshold: float) -> sp.csr_matrix:
    """Binary (videos x vocabulary): the words in at least `threshold` of the video's captions (and in one)."""
    membership = sp.csr_matrix((np.ones(len(video_rows), dtype=np.float32),
                                (video_rows, np.arange(len(video_rows)))), shape=(videos, len(video_rows)))
    counts = (membership @ captions).tocoo()
    captions_per_video = np.bincount(video_rows, minlength=videos).astype(np.float64)
    # A small tolerance: 0.1 * 30 is 3.0000000000000004 in floating point, and 3 of 30 is 10%.
    keep = counts.data >= threshold * captions_per_video[counts.row] - 1e-9
    return sp.csr_matrix((np.ones(keep.sum(), dtype=np.float32), (counts.row[keep], counts.col[keep])),
                         shape=counts.shape)


def iou(left: sp.csr_matrix, right: sp.csr_matrix) -> sp.csr_matrix:
    """IoU of every row of `left` with every row of `right` (binary, same vocabulary), as a sparse
    (left rows x right rows) float32 matrix; pairs sharing nothing (IoU 0) are not stored."""
    intersections = (left @ right.T).tocoo()
    left_sizes = np.asarray(left.sum(axis=1), dtype=np.float32).ravel()
    right_sizes = np.asarray(right.sum(axis=1), dtype=np.float32).ravel()
    unions = left_sizes[intersections.row] + right_sizes[intersections.col] - intersections.data
    return sp.csr_matrix((intersections.data / unions, (intersections.row, intersections.col)),
                         shape=intersections.shape, dtype=np.float32)


def aggregate_by_video(caption_pairs: sp.csr_matrix, video_rows: np.ndarray, videos: int,
                       how: str) -> sp.csr_matrix:
    """(chunk x all captions) IoU -> (videos x chunk): the mean or the maximum over each video's captions."""
    pairs = caption_pairs.tocoo()
    if how == "caption-mean":
        captions_per_video = np.bincount(video_rows, minlength=videos).astype(np.float32)
        scores = pairs.data / captions_per_video[video_rows[pairs.col]]
        # Duplicate (video, caption) entries are summed by the conversion: the mean's numerator.
        return sp.csr_matrix((scores, (video_rows[pairs.col], pairs.row)), shape=(videos, pairs.shape[0]),
                             dtype=np.float32)
    best = np.zeros((videos, pairs.shape[0]), dtype=np.float32)
    np.maximum.at(best, (video_rows[pairs.col], pairs.row), pairs.data)
    return sp.csr_matrix(best)


def with_own_captions(chunk: sp.csr_matrix, own_rows: np.ndarray) -> sp.csr_matrix:
    """The chunk with relevance 1 at (the caption's video, the caption), whatever was there."""
    pairs = chunk.tocoo()
    others = pairs.row != own_rows[pairs.col]
    rows = np.concatenate([pairs.row[others], own_rows])
    columns = np.concatenate([pairs.col[others], np.arange(len(own_rows))])
    data = np.concatenate([pairs.data[others], np.ones(len(own_rows), dtype=np.float32)])
    return sp.csr_matrix((data, (rows, columns)), shape=chunk.shape, dtype=np.float32)


def mean_set_sizes(sets: CaptionSets, reading: RelevanceReading) -> dict:
    """Per part (bow: "words"), the mean size of a caption's set and, for "threshold" readings, of a
    video's: what the IoUs are made of, for the docs and the calibration."""
    _, video_rows = video_membership(sets.video_ids)
    videos = int(video_rows.max()) + 1 if len(video_rows) else 0
    names = ("words",) if sets.proxy == "bow" else tuple(part.name for part in reading.parts)
    sizes = {}
    for name, part_sets in zip(names, sets.sets):
        matrix = incidence(part_sets)
        entry = {"caption": float(np.mean([len(words) for words in part_sets])) if part_sets else 0.0}
        if sets.video_sets is not None:  # syn with video-context senses: the videos' own sets
            number = names.index(name)
            entry["video"] = float(np.mean([len(senses) for senses in sets.video_sets[number]]))
        elif reading.video_sets == "threshold" and videos:
            video_side = video_sets_by_threshold(matrix, video_rows, videos, reading.video_threshold)
            entry["video"] = float(video_side.sum() / videos)
        sizes[name] = entry
    return sizes


# --- The relevance matrix -----------------------------------------------------------------------

def default_chunk(videos: int, captions: int, reading: RelevanceReading) -> int:
    """Captions per chunk so that a chunk is about CHUNK_PAIRS pairs: videos per caption for
    "threshold", every caption per caption for the caption-* readings."""
    partners = videos if reading.video_sets == "threshold" else captions
    return max(1, CHUNK_PAIRS // max(1, partners))


def relevance_chunks(sets: CaptionSets, reading: RelevanceReading,
                     chunk_captions: int | None = None) -> Iterator[tuple]:
    """(first caption index, (videos x chunk) CSR relevance) for consecutive chunks of the captions."""
    video_ids, video_rows = video_membership(sets.video_ids)
    videos, count = len(video_ids), len(sets.sen_ids)
    matrices = [incidence(part_sets) for part_sets in sets.sets]
    video_side = [video_sets_by_threshold(matrix, video_rows, videos, reading.video_threshold)
                  for matrix in matrices] if reading.video_sets == "threshold" else None
    if sets.video_sets is not None:
        # The videos' own sets: one vocabulary for both sides, videos in the first rows.
        joint = [incidence(video_sets + part_sets) for video_sets, part_sets in zip(sets.video_sets, sets.sets)]
        video_side = [matrix[:videos] for matrix in joint]
        matrices = [matrix[videos:] for matrix in joint]
    parts = [(video_side[number] if video_side is not None else None, matrix, matrix)
             for number, matrix in enumerate(matrices)]
    step = chunk_captions or default_chunk(videos, count, reading)
    for start in range(0, count, step):
        stop = min(start + step, count)
        yield start, chunk_relevance(parts, sets.weights, slice(start, stop), video_rows, videos, video_rows, reading)


def chunk_relevance(parts: list, weights, texts: slice, video_rows: np.ndarray, videos: int, own_rows: np.ndarray,
                    reading: RelevanceReading) -> sp.csr_matrix:
    """The (videos x texts) relevance of a slice of the texts: per part of the proxy (the videos' sets or None,
    the captions' incidence, the texts' incidence), the IoU of each text with each video's set, or with each
    caption aggregated by video, weighted and summed; a text's own video 1 when the reading says so."""
    total = sp.csr_matrix((videos, texts.stop - texts.start), dtype=np.float32)
    for (video_side, caption_matrix, text_matrix), weight in zip(parts, weights):
        if weight == 0:
            continue
        if video_side is not None:
            scores = iou(video_side, text_matrix[texts])
        else:
            scores = aggregate_by_video(iou(text_matrix[texts], caption_matrix), video_rows, videos,
                                        reading.video_sets)
        total = total + weight * scores
    if reading.own_captions_one:
        total = with_own_captions(total, own_rows[texts])
    total.eliminate_zeros()
    return total.astype(np.float32).tocsr()


def relevance_from_sets(sets: CaptionSets, reading: RelevanceReading,
                        chunk_captions: int | None = None) -> Relevance:
    """The whole (videos x captions) relevance of a proxy, from its CaptionSets."""
    video_ids, _ = video_membership(sets.video_ids)
    chunks = [chunk for _, chunk in relevance_chunks(sets, reading, chunk_captions)]
    matrix = sp.hstack(chunks, format="csr", dtype=np.float32) if chunks else sp.csr_matrix((0, 0), dtype=np.float32)
    return Relevance(matrix, video_ids, sets.sen_ids)


def relevance_matrix(captions: list, proxy: str, reading: RelevanceReading = RelevanceReading(), wordnet=None,
                     chunk_captions: int | None = None) -> Relevance:
    """The (videos x captions) relevance of a proxy for TaggedCaptions: caption_sets, then relevance_from_sets."""
    return relevance_from_sets(caption_sets(captions, proxy, reading, wordnet), reading, chunk_captions)


# --- The relevance of texts that are not (all) the videos' captions -----------------------------------

def query_relevance(captions: CaptionSets, queries: CaptionSets, reading: RelevanceReading,
                    chunk_queries: int | None = None) -> Relevance:
    """The (videos x queries) relevance of query texts to the videos of `captions`, as relevance_from_sets
    builds it for captions: a video's side comes from all its captions (`captions`, of the same proxy),
    a query's set from its own text (`queries`, whose video_ids are each query's own video, one of the
    videos). A retrieval protocol's rows (1k-A's sentences, or a list of captions) against its videos;
    when the queries are the captions themselves this is relevance_from_sets's matrix.

    Videos are in order of first appearance among `captions`, queries in the order given.
    """
    video_ids, video_rows = video_membership(captions.video_ids)
    videos, count = len(video_ids), len(queries.sen_ids)
    row_of = {video: row for row, video in enumerate(video_ids)}
    own_rows = np.array([row_of[video] for video in queries.video_ids], dtype=np.int64)
    sides = [part_sides(captions, number, query_sets, video_rows, videos, reading)
             for number, query_sets in enumerate(queries.sets)]
    step = chunk_queries or default_chunk(videos, len(captions.sen_ids), reading)
    chunks = [chunk_relevance(sides, captions.weights, slice(start, min(start + step, count)), video_rows, videos,
                              own_rows, reading) for start in range(0, count, step)]
    if not chunks:
        return Relevance(sp.csr_matrix((videos, 0), dtype=np.float32), video_ids, queries.sen_ids)
    return Relevance(sp.hstack(chunks, format="csr", dtype=np.float32), video_ids, queries.sen_ids)


def part_sides(captions: CaptionSets, number: int, query_sets: tuple, video_rows: np.ndarray, videos: int,
               reading: RelevanceReading) -> tuple:
    """(the videos' sets or None, the captions' incidence, the queries' incidence) of one part, over one
    vocabulary: the videos' sets for "threshold" readings, the captions themselves for the caption-* ones."""
    if captions.video_sets is not None:  # syn with video-context senses: the videos' own sets
        joint = incidence(captions.video_sets[number] + query_sets)
        return joint[:videos], None, joint[videos:]
    caption_sets_of_part = captions.sets[number]
    joint = incidence(caption_sets_of_part + query_sets)
    caption_matrix, query_matrix = joint[:len(caption_sets_of_part)], joint[len(caption_sets_of_part):]
    if reading.video_sets == "threshold":
        return video_sets_by_threshold(caption_matrix, video_rows, videos, reading.video_threshold), None, query_matrix
    return None, caption_matrix, query_matrix
