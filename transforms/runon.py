"""Step IV: run-on captions, by one of two rules.

The `model` rule (default profile) finds the sentence boundaries of run-on
captions with a trained token classifier (transforms/boundary_model.py), in
the captions a word-level pre-filter lets through (transforms/runon_prefilter.py),
and applies a policy to the sentences: keep the first, make each its own
caption, or keep them whole.

The `truncate` rule is the paper's: a train or validate caption longer than
mean + k standard deviations of the caption length in words (over all splits,
after step III) is cut to that many words. The length statistics are a global
figure, so they come from a combine over the whole dataset, fed back to every
worker as a side input.
"""
import math
import zlib
from dataclasses import replace

import apache_beam as beam

from transforms.batch import Caption, rewrite_captions
from transforms.boundary_model import MODEL_DIR, BoundaryModel, boundaries_from_probabilities
from transforms.runon_prefilter import FINITE_VERBS, Prefilter, is_candidate, load_lexicon, split_at

STEP = "runon"


def length_moments(batch) -> tuple:
    """(count, sum, sum of squares) of the caption lengths in words: integers, so the global sum is exact."""
    lengths = [len(caption.text.split()) for caption in batch.captions]
    return len(lengths), sum(lengths), sum(length * length for length in lengths)


def add_moments(moments) -> tuple:
    count = total = squares = 0
    for c, s, q in moments:
        count, total, squares = count + c, total + s, squares + q
    return count, total, squares


def word_limit(moments: tuple, std_multiplier: float) -> int:
    """floor(mean + k * std) of the caption lengths, std of the population (as numpy's default)."""
    count, total, squares = moments
    if count == 0:
        return 0
    mean = total / count
    variance = max(squares / count - mean * mean, 0.0)
    return math.floor(mean + std_multiplier * math.sqrt(variance))


def truncate_caption(text: str, limit: int) -> str:
    words = text.split()
    return text if len(words) <= limit else " ".join(words[:limit])


def truncate_long_captions(batch, limit: int, splits: tuple):
    if batch.split not in splits:
        return batch
    return rewrite_captions(batch, STEP, lambda text: (truncate_caption(text, limit), f"truncate>{limit}"))


class WordLimit(beam.PTransform):
    """VideoBatch -> the single word limit floor(mean + k std) over all captions."""

    def __init__(self, std_multiplier: float):
        super().__init__()
        self._std_multiplier = std_multiplier

    def expand(self, batches):
        return (
            batches
            | "LengthMoments" >> beam.Map(length_moments)
            | "AddMoments" >> beam.CombineGlobally(add_moments)
            | "WordLimit" >> beam.Map(word_limit, self._std_multiplier)
        )


class TruncateLongCaptions(beam.PTransform):
    """Step IV (`truncate`) over a PCollection of VideoBatch, given the word limit as a one-element PCollection."""

    def __init__(self, word_limit, splits: tuple):
        super().__init__()
        self._word_limit = word_limit
        self._splits = tuple(splits)

    def expand(self, batches):
        return batches | "TruncateLongCaptions" >> beam.Map(
            truncate_long_captions, beam.pvalue.AsSingleton(self._word_limit), self._splits)


# --- The `model` rule: split run-ons at sentence boundaries -------------------

# What each policy does with the sentences of a run-on caption.
POLICIES = ("first", "separate", "whole")
# Videos go through step IV in this many groups (about 150 MSR-VTT videos each). The groups were made
# so that spaCy parsed many videos' captions in one batch; the model scores each caption alone.
VIDEO_GROUPS = 64
# How many times the pieces of a split caption are scored again (a caption of MSR-VTT has at most 4 sentences).
MAX_SPLIT_ROUNDS = 4


def model_sentence_finder(model, config, finite_verbs=None):
    """texts -> the sentences of each (a one-item list when it is one sentence), by the trained boundary
    model (transforms/boundary_model.py), which scores only the texts the pre-filter lets through."""
    prefilter = Prefilter(load_lexicon() if finite_verbs is None else finite_verbs,
                          config.min_words, config.cue_after_words, config.always_parse_words)

    def boundaries(texts):
        return (boundaries_from_probabilities(probabilities, config.model_threshold,
                                              config.min_left_words, config.min_right_words)
                for probabilities in model.word_probabilities(texts))

    return split_candidates(prefilter, boundaries)


def split_candidates(prefilter, boundaries):
    """texts -> sentences: the texts the pre-filter lets through are cut where `boundaries`
    (candidate texts -> their boundary word indices, in order) says, and the pieces again
    until none splits."""
    def split_once(texts):
        sentences = [[text] for text in texts]
        candidates = [i for i, text in enumerate(texts) if is_candidate(text, prefilter)]
        for i, found in zip(candidates, boundaries([texts[i] for i in candidates])):
            sentences[i] = split_at(texts[i], found)
        return sentences

    return until_no_piece_splits(split_once)


def until_no_piece_splits(split_once):
    """`split_once` applied again to the pieces it splits, until none splits.

    A sentence seen alone can show a boundary that the longer caption hid, and
    cleaning the output again would find it.
    """
    def find(texts, rounds=MAX_SPLIT_ROUNDS):
        sentences = split_once(list(texts))
        split = [i for i, pieces in enumerate(sentences) if len(pieces) > 1]
        if split and rounds > 1:
            again = iter(find([piece for i in split for piece in sentences[i]], rounds - 1))
            for i in split:
                sentences[i] = [sentence for _ in sentences[i] for sentence in next(again)]
        return sentences

    return find


def load_sentence_finder(config, finite_verbs=None):
    """The sentence finder of `config.rule`, with its model loaded once (a second or so)."""
    if config.rule != "model":
        raise ValueError(f"step IV's rule {config.rule!r} finds no sentences: only `model` does")
    return model_sentence_finder(BoundaryModel(config.model_dir or MODEL_DIR), config, finite_verbs)


def new_sen_id(sen_id: int, piece: int, id_stride: int) -> int:
    """The id of sentence number `piece` (1, 2, ...) of a caption split by `separate`.

    `id_stride` is one more than the largest input sen_id, so every new id is
    above every input id, and (sen_id, piece) -> id is one-to-one. The id
    depends only on the caption, never on which worker split it.
    """
    return piece * id_stride + sen_id


def apply_policy(batch, sentences: list, policy: str, id_stride: int = 0, detector: str = "parse"):
    """A new VideoBatch with each split caption handled as `policy` says, and its lineage.

    `sentences[i]` are the sentences of `batch.captions[i]`; a caption with one
    sentence is left as it is. Every split caption gets a `runon/` row; a
    caption whose text changes gets an `edits/` row, whose rule names the
    detector that found the sentences and the policy ("model:first").
    """
    captions, edits, runon_rows = [], [], []
    for caption, pieces in zip(batch.captions, sentences):
        if len(pieces) < 2:
            captions.append(caption)
            continue
        new_ids = []
        if policy == "whole":
            captions.append(caption)
            action = f"kept whole: {len(pieces)} sentences in one caption"
        else:
            captions.append(Caption(caption.sen_id, pieces[0]))
            edits.append({"sen_id": caption.sen_id, "video_id": batch.video_id, "step": STEP,
                          "rule": f"{detector}:{policy}", "before": caption.text, "after": pieces[0]})
            if policy == "first":
                action = f"kept the first of {len(pieces)} sentences"
            else:
                new_ids = [new_sen_id(caption.sen_id, n, id_stride) for n in range(1, len(pieces))]
                captions += [Caption(sen_id, text) for sen_id, text in zip(new_ids, pieces[1:])]
                action = f"made {len(pieces)} captions"
        runon_rows.append({"sen_id": caption.sen_id, "video_id": batch.video_id, "split": batch.split,
                           "sentences": list(pieces), "policy": policy, "action": action,
                           "new_sen_ids": new_ids})
    captions.sort(key=lambda c: c.sen_id)
    return replace(batch, captions=captions, edits=batch.edits + edits, runon=batch.runon + runon_rows)


def max_sen_id(batch) -> int:
    """The largest sen_id this video had at input, kept or removed."""
    ids = [c.sen_id for c in batch.captions] + [row["sen_id"] for row in batch.removed if row["sen_id"] is not None]
    return max(ids, default=-1)


def video_group(video_id: str) -> int:
    """The group a video is parsed with: a stable hash, so the groups are the same on every run."""
    return zlib.crc32(video_id.encode("utf-8")) % VIDEO_GROUPS


def split_videos(batches: list, find, config, id_stride: int = 0) -> list:
    """Step IV (`parse` or `model`) on several videos at once: one `find` call (one batched parse or model run)."""
    todo = [batch for batch in batches if batch.split in config.splits and batch.captions]
    sentences = iter(find(caption.text for batch in todo for caption in batch.captions))
    done = {id(batch): apply_policy(batch, [next(sentences) for _ in batch.captions], config.policy, id_stride,
                                     config.rule)
            for batch in todo}
    return [done.get(id(batch), batch) for batch in batches]


class SplitRunonsFn(beam.DoFn):
    """Step IV (`model` or `parse`) on one group of videos: find the sentences of the candidates, apply the policy."""

    def __init__(self, config):
        self._config = config
        # Read here, so that the word lists travel inside the pipeline to remote workers.
        self._finite_verbs = load_lexicon(FINITE_VERBS)
        self._find = None

    def setup(self):
        # Loaded once per worker: either model takes about a second to load.
        self._find = load_sentence_finder(self._config, self._finite_verbs)

    def process(self, group, id_stride=0):
        _, batches = group
        yield from split_videos(sorted(batches, key=lambda b: b.video_id), self._find, self._config, id_stride)


class SplitRunons(beam.PTransform):
    """Step IV (`model` or `parse`) over a PCollection of VideoBatch.

    Videos are grouped (VIDEO_GROUPS groups by a hash of the video id) so that
    spaCy parses the candidates of many videos in one batch: parsing video by
    video costs twice as much. With the `separate` policy, new captions get
    ids above the largest input sen_id, which a combine over the whole dataset
    finds (a side input).
    """

    def __init__(self, config):
        super().__init__()
        self._config = config

    def expand(self, batches):
        grouped = (batches
                   | "KeyByVideoGroup" >> beam.Map(lambda batch: (video_group(batch.video_id), batch))
                   | "GroupVideos" >> beam.GroupByKey())
        if self._config.policy != "separate":
            return grouped | "SplitRunons" >> beam.ParDo(SplitRunonsFn(self._config))
        id_stride = batches | "IdStride" >> IdStride()
        return grouped | "SplitRunons" >> beam.ParDo(SplitRunonsFn(self._config), beam.pvalue.AsSingleton(id_stride))


class IdStride(beam.PTransform):
    """VideoBatch -> one more than the largest sen_id of the dataset, kept or removed (see new_sen_id)."""

    def expand(self, batches):
        return (batches
                | "MaxSenId" >> beam.Map(max_sen_id)
                | "GlobalMax" >> beam.CombineGlobally(lambda ids: max(ids, default=-1))
                | "PlusOne" >> beam.Map(lambda top: top + 1))


def split_some_captions(batch, sen_ids: set, find, config, id_stride: int = 0):
    """Step IV (`model` or `parse`) on the captions of one video whose id is in `sen_ids`; the others are left.

    A caption split before (a recheck changed it) keeps one runon/ row: the
    earlier one, with its first sentence replaced by the sentences it splits into now.
    """
    if batch.split not in config.splits:
        return batch
    chosen = [caption for caption in batch.captions if caption.sen_id in sen_ids]
    found = dict(zip((caption.sen_id for caption in chosen), find(caption.text for caption in chosen)))
    sentences = [found.get(caption.sen_id, [caption.text]) for caption in batch.captions]
    done = apply_policy(replace(batch, runon=[]), sentences, config.policy, id_stride, config.rule)
    return replace(done, runon=_merge_runon_rows(batch.runon, done.runon))


def _merge_runon_rows(earlier: list, later: list) -> list:
    later_by_id = {row["sen_id"]: row for row in later}
    merged = []
    for row in earlier:
        again = later_by_id.pop(row["sen_id"], None)
        if again is not None:
            rest = [] if row["policy"] == "whole" else row["sentences"][1:]
            row = {**again, "sentences": again["sentences"] + rest,
                   "new_sen_ids": list(row["new_sen_ids"]) + list(again["new_sen_ids"]),
                   "action": f"{again['action']}, after a recheck of step II changed the caption split before"}
        merged.append(row)
    return merged + list(later_by_id.values())
