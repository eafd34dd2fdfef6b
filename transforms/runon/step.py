"""Step IV: run-on captions, by one of two rules.

The `model` rule (default profile) finds the sentence boundaries of run-on
captions with a trained token classifier (transforms/runon/boundary_model.py), in
the captions a word-level pre-filter lets through (transforms/runon/prefilter.py),
and applies a policy to the sentences: keep the first, make each its own
caption, or keep them whole.

The `truncate` rule is the paper's: a train or validate caption longer than
mean + k standard deviations of the caption length in words (over all splits,
after step III) is cut to that many words. The length statistics are a global
figure, so they come from a combine over the whole dataset, fed back to every
worker as a side input.
"""
import math
from dataclasses import dataclass, replace

from transforms import lineage
from transforms.batch import Caption, rewrite_captions
from transforms.runon.boundary_model import MODEL_DIR, boundaries_from_probabilities, shared_boundary_model
from transforms.dedup import remove_near_duplicates_with
from transforms.errors import CapcleanError, ConfigError
from transforms.runon.prefilter import FINITE_VERBS, caption_scoring, load_lexicon, split_at
from transforms.step import Aggregate, Step

STEP = "runon"

# Step IV's rules, and those of them that split a caption into its sentences.
RUNON_RULES = ("truncate", "model")
# What each policy does with the sentences of a run-on caption.
POLICIES = ("first", "separate", "whole", "merge")
# The policies that drop words from a caption or move them to a new one: after them, a
# caption may be a near-duplicate of another one of its clip.
CUTTING_POLICIES = ("first", "separate")
# How `merge` joins two sentences: the conjunction the captions themselves join clauses with
# most (on MSR-VTT "and" before a subject or "then" stands 7,536 times, "while" 1,922, "as" 1,754).
MERGE_JOINER = "and"


@dataclass(frozen=True)
class SplitPolicies:
    """Step IV's policy per split: the same for every split ("first"), or one per split
    ({"train": "first", "validate": "first", "test": "merge"}, on the command line
    "train=first,validate=first,test=merge")."""
    by_split: tuple = ()  # ((split, policy), ...) in the order given; empty: `every` for all
    every: str = "first"

    @classmethod
    def from_config(cls, setting: str, value) -> "SplitPolicies":
        if isinstance(value, SplitPolicies):
            return value
        if isinstance(value, str) and "=" in value:
            value = dict(pair.split("=", 1) for pair in value.split(","))
        if isinstance(value, str):
            policies = cls(every=value.strip())
        elif isinstance(value, dict) and value:
            policies = cls(by_split=tuple((str(split).strip(), str(policy).strip()) for split, policy in value.items()))
        else:
            raise ConfigError(f"{setting} must be a policy or a mapping split: policy, not {value!r}")
        for policy in policies.named():
            if policy not in POLICIES:
                raise ConfigError(f"{setting} must be one of {', '.join(POLICIES)}, not {policy!r}")
        return policies

    def named(self) -> tuple:
        return tuple(policy for _, policy in self.by_split) if self.by_split else (self.every,)

    def for_split(self, split: str) -> str:
        return dict(self.by_split).get(split, "") if self.by_split else self.every

    def uses(self, policy: str) -> bool:
        return policy in self.named()

    def __str__(self) -> str:
        return ",".join(f"{split}={policy}" for split, policy in self.by_split) if self.by_split else self.every


@dataclass(frozen=True)
class RunonSettings:
    # `truncate`: cut captions longer than mean + k std words (the paper's train/validate rule).
    # `model`: split run-on captions at the sentence boundaries a trained token classifier finds
    # (transforms/runon/boundary_model.py), and apply `policy` to the sentences.
    rule: str = "truncate"
    std_multiplier: float = 2.0  # truncate: k
    splits: tuple = ("train", "validate")
    # model, per split (one name for all, or split -> name): `first` keeps the first sentence,
    # `separate` makes each sentence its own caption (new ids above the largest input sen_id),
    # `whole` keeps the caption as it is, `merge` joins the sentences into one with "and".
    policy: SplitPolicies = SplitPolicies()
    # model, pre-filter: captions shorter than min_words are never scored; longer ones only
    # when they hold two finite verbs not joined by a conjunction, or a subject pronoun,
    # "there" or "then" (after cue_after_words words) before a finite verb.
    min_words: int = 8
    cue_after_words: int = 3
    always_parse_words: int = 0  # ...and every caption this long (0: none on length alone)
    # model: words a sentence needs before and after a boundary.
    min_left_words: int = 3
    min_right_words: int = 3
    # model: its folder ("": the one shipped, transforms/runon/model), and the probability
    # from which a word starts a new sentence. It scores the captions the pre-filter lets through:
    # model_threshold applies to those with a word cue, length_only_threshold to those scored
    # only for being always_parse_words long.
    model_dir: str = ""
    model_threshold: float = 0.6
    length_only_threshold: float = 0.6

    @property
    def splits_sentences(self) -> bool:
        """`model` finds sentences (and applies the policy); `truncate` cuts."""
        return self.rule == "model"

    def __post_init__(self):
        if self.rule not in RUNON_RULES:
            raise ConfigError(f"runon.rule must be 'truncate' or 'model', not {self.rule!r}")
        for name in ("model_threshold", "length_only_threshold"):
            if not 0.0 < getattr(self, name) < 1.0:
                raise ConfigError(f"runon.{name} must be between 0 and 1, not {getattr(self, name)!r}")
        # A policy given as a name or a mapping (a profile, a flag, a caller) is read here.
        object.__setattr__(self, "policy", SplitPolicies.from_config("runon.policy", self.policy))
        unnamed = [split for split in self.splits if not self.policy.for_split(split)]
        if unnamed:
            raise ConfigError(f"runon.policy names no policy for the split {unnamed[0]!r} of runon.splits")
        if min(self.min_words, self.min_left_words, self.min_right_words) < 1:
            raise ConfigError("runon.min_words, min_left_words and min_right_words must be >= 1")


def length_moments(batch) -> tuple:
    """(count, sum, sum of squares) of the caption lengths in words: integers, so the global sum is exact."""
    lengths = [len(caption.text.split()) for caption in batch.captions]
    return len(lengths), sum(lengths), sum(length * length for length in lengths)


def add_moments(moments) -> tuple:
    count = total = squares = 0
    for c, s, q in moments:
        count, total, squares = count + c, total + s, squares + q
    return count, total, squares


class WordLimit(Aggregate):
    """The single word limit floor(mean + k std) over all captions of the dataset."""

    def __init__(self, std_multiplier: float):
        self._std_multiplier = std_multiplier

    def create(self):
        return 0, 0, 0

    def add(self, total, video):
        return add_moments([total, length_moments(video)])

    def merge(self, totals):
        return add_moments(totals)

    def extract(self, total):
        return word_limit(total, self._std_multiplier)


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
    return rewrite_captions(batch, STEP, lambda text: (truncate_caption(text, limit), f"truncate>{limit}"),
                            word_limit=limit)


# --- The `model` rule: split run-ons at sentence boundaries -------------------

# How many videos' captions the `model` rule scores together: on MSR-VTT a video has about four run-on
# candidates, of some twenty lengths in word pieces, so 256 videos give batches of some 30-60 captions
# (benchmarks/bench_runon_batches.py). A worker holds that many videos at once, a few MB.
VIDEOS_SCORED_TOGETHER = 256
# How many times the pieces of a split caption are scored again (a caption of MSR-VTT has at most 4 sentences).
MAX_SPLIT_ROUNDS = 4


def model_sentence_finder(model, config, finite_verbs=None):
    """texts -> the sentences of each (a one-item list when it is one sentence), by the trained boundary
    model (transforms/runon/boundary_model.py), which scores only the texts the pre-filter lets through, each
    at the threshold of the reason it is scored for."""
    scoring = caption_scoring(config, finite_verbs)

    def threshold_for(text):
        scored = scoring(text)
        return None if scored is None else scored.threshold

    def boundaries(texts, text_thresholds):
        return (boundaries_from_probabilities(probabilities, threshold, config.min_left_words, config.min_right_words)
                for probabilities, threshold in zip(model.word_probabilities(texts), text_thresholds))

    return split_candidates(threshold_for, boundaries)


def split_candidates(threshold_for, boundaries):
    """texts -> sentences: the texts to which `threshold_for` gives a threshold (None: not scored) are cut
    where `boundaries` (candidate texts, their thresholds -> their boundary word indices, in order) says,
    and the pieces again until none splits."""
    def split_once(texts):
        sentences = [[text] for text in texts]
        thresholds = [threshold_for(text) for text in texts]
        candidates = [i for i, threshold in enumerate(thresholds) if threshold is not None]
        found_per_candidate = boundaries([texts[i] for i in candidates], [thresholds[i] for i in candidates])
        for i, found in zip(candidates, found_per_candidate):
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
    """The sentence finder of `config.rule`, with its model loaded once per process (a second or so)."""
    if config.rule != "model":
        raise ValueError(f"step IV's rule {config.rule!r} finds no sentences: only `model` does")
    return model_sentence_finder(shared_boundary_model(config.model_dir or MODEL_DIR), config, finite_verbs)


# The largest id a Parquet int64 column (and Beam's coder) holds.
LARGEST_ID = 2**63 - 1


class NewIdError(CapcleanError):
    """A caption the `separate` policy cannot give new ids to; the message names it."""


def new_sen_id(sen_id: int, piece: int, id_stride: int) -> int:
    """The id of sentence number `piece` (1, 2, ...) of a caption split by `separate`.

    `id_stride` is one more than the largest input sen_id, so every new id is
    above every input id, and (sen_id, piece) -> id is one-to-one for sen_ids of 0
    or more. The id depends only on the caption, never on which worker split it.
    """
    if sen_id < 0:
        # piece * stride + a negative id can be another caption's id.
        raise NewIdError(f"sen_id {sen_id}: the runon policy `separate` needs sen_ids of 0 or more to number "
                         "the sentences it makes; use the policy `first` or `whole` for this input")
    new_id = piece * id_stride + sen_id
    if new_id > LARGEST_ID:
        raise NewIdError(f"sen_id {sen_id}: the id of its sentence {piece + 1} ({piece} x {id_stride} + {sen_id}) "
                         "would not fit in 64 bits; use the runon policy `first` or `whole` for this input")
    return new_id


def apply_policy(batch, sentences: list, policy: str, id_stride: int = 0, detector: str = "model", scoring=None):
    """A new VideoBatch with each split caption handled as `policy` says, and its lineage.

    `sentences[i]` are the sentences of `batch.captions[i]`; a caption with one
    sentence is left as it is. Every split caption gets a `runon/` row; a
    caption whose text changes gets an `edits/` row, whose rule names the
    detector that found the sentences and the policy ("model:first").
    `scoring`: text -> its Scoring (caption_scoring), for the runon/ rows' `scored_for` and
    `threshold`; without it (sentences found otherwise) those are null.
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
        elif policy == "merge":
            merged = merge_sentences(pieces)
            captions.append(Caption(caption.sen_id, merged))
            if merged == caption.text:
                continue  # its sentences are already joined by "and": nothing to merge
            edits.append(lineage.edit(batch, caption.sen_id, STEP, f"{detector}:{policy}", caption.text, merged))
            action = f"merged {len(pieces)} sentences into one"
        else:
            captions.append(Caption(caption.sen_id, pieces[0]))
            edits.append(lineage.edit(batch, caption.sen_id, STEP, f"{detector}:{policy}", caption.text, pieces[0]))
            if policy == "first":
                action = f"kept the first of {len(pieces)} sentences"
            else:
                new_ids = [new_sen_id(caption.sen_id, n, id_stride) for n in range(1, len(pieces))]
                captions += [Caption(sen_id, text) for sen_id, text in zip(new_ids, pieces[1:])]
                action = f"made {len(pieces)} captions"
        runon_rows.append(runon_row(batch, caption, pieces, policy, action, new_ids, detector, scoring))
    captions.sort(key=lambda c: c.sen_id)
    return replace(batch, captions=captions, edits=batch.edits + edits, runon=batch.runon + runon_rows)


def runon_row(batch, caption, pieces, policy: str, action: str, new_ids: list, detector: str, scoring):
    """The runon/ row of a split caption of `batch`. Its `scored_for` and `threshold` are those of the caption
    as step IV received it, which the model split first (a piece it split again was scored at its own)."""
    scored = scoring(caption.text) if scoring is not None else None
    return lineage.RunonRow(caption.sen_id, batch.video_id, batch.split, tuple(pieces), policy, action,
                            tuple(new_ids), rule=detector, scored_for=scored.scored_for if scored else None,
                            threshold=scored.threshold if scored else None)


def merge_sentences(sentences: list) -> str:
    """The sentences of a run-on as one sentence: each joined to the one before by "and", unless it
    already opens with it ("a person reads a note | then a child walks by" -> "a person reads a
    note and then a child walks by"). Every word of every sentence stays, in its order."""
    return " ".join(merged_words(sentences)[0])


def merged_words(sentences: list) -> tuple:
    """(the words of the merged sentences, for each the index of the word in the sentences joined
    by spaces, or None for a joining "and" the merge added)."""
    words, origins, start = [], [], 0
    for sentence in sentences:
        sentence_words = sentence.split()
        if words and MERGE_JOINER not in (words[-1], sentence_words[0]):
            words.append(MERGE_JOINER)
            origins.append(None)
        words += sentence_words
        origins += range(start, start + len(sentence_words))
        start += len(sentence_words)
    return words, origins


def piece_starts(pieces: list) -> list:
    """The word indices where the second and later pieces start."""
    starts, position = [], 0
    for piece in pieces[:-1]:
        position += len(piece.split())
        starts.append(position)
    return starts


def merge_until_stable(texts: list, sentences: list, find, rounds: int = MAX_SPLIT_ROUNDS) -> list:
    """For `merge`: the sentences of each text, with the boundaries the merged caption shows again.

    Merging puts words side by side that the model saw apart, and it may find a boundary there
    that the caption hid. The merged caption is searched again until it shows no new boundary,
    so step IV on its own output finds nothing to merge (cleaning the output again changes
    nothing). A boundary next to an added "and" is one already known.
    """
    sentences = list(sentences)
    pending = [i for i, pieces in enumerate(sentences) if len(pieces) > 1]
    for _ in range(rounds):
        if not pending:
            break
        merged = [merged_words(sentences[i]) for i in pending]
        found = find([" ".join(words) for words, _ in merged])
        grown = []
        for i, (_, origins), pieces in zip(pending, merged, found):
            known = set(piece_starts(sentences[i]))
            new = {origins[start] for start in piece_starts(pieces)} - known - {None}
            if new:
                sentences[i] = split_at(texts[i], sorted(known | new))
                grown.append(i)
        pending = grown
    return sentences


def max_sen_id(batch) -> int:
    """The largest sen_id this video had at input, kept or removed."""
    ids = [c.sen_id for c in batch.captions] + [row.sen_id for row in batch.removed if row.sen_id is not None]
    return max(ids, default=-1)


class LargestId(Aggregate):
    """The largest sen_id of the dataset, kept or removed: one less than the stride of new_sen_id.

    The figure is the id itself, not the stride, because it crosses Beam's coder, which
    holds 64-bit integers: the largest id fits, one more may not.
    """

    def create(self):
        return -1

    def add(self, top, video):
        return max(top, max_sen_id(video))

    def merge(self, tops):
        return max(tops, default=-1)


def split_sentences(video, find, config, id_stride: int = 0, scoring=None):
    """Step IV (`model`) on one video: the sentences of its captions found, the policy applied.
    `scoring`: how `find` scores a caption (caption_scoring), recorded in the runon/ rows."""
    if video.split not in config.splits or not video.captions:
        return video
    texts = [caption.text for caption in video.captions]
    policy = config.policy.for_split(video.split)
    return apply_policy(video, find_for_policy(texts, find, policy), policy, id_stride, config.rule, scoring)


def split_sentences_of_videos(videos: list, find, config, id_stride: int = 0, scoring=None) -> list:
    """split_sentences on several videos, their captions scored together.

    The model scores captions in batches of captions of the same length (boundary_model.py), and
    a video holds few run-on candidates of any one length: the captions of many videos fill the
    batches. A text's sentences depend on that text alone, so each video gets exactly what
    split_sentences gives it alone.
    """
    chosen = [video for video in videos if video.split in config.splits and video.captions]
    sentences = {}
    for policy in dict.fromkeys(config.policy.for_split(video.split) for video in chosen):
        same_policy = [video for video in chosen if config.policy.for_split(video.split) == policy]
        texts = [caption.text for video in same_policy for caption in video.captions]
        found = iter(find_for_policy(texts, find, policy))
        for video in same_policy:
            sentences[id(video)] = [next(found) for _ in video.captions]
    return [apply_policy(video, sentences[id(video)], config.policy.for_split(video.split), id_stride, config.rule,
                         scoring) if id(video) in sentences else video for video in videos]


def find_for_policy(texts: list, find, policy: str) -> list:
    """The sentences of each text as `policy` needs them: as found, or for `merge` until stable."""
    sentences = find(texts)
    return merge_until_stable(texts, sentences, find) if policy == "merge" else sentences


def split_some_captions(batch, sen_ids: set, find, config, id_stride: int = 0, scoring=None):
    """Step IV (`model`) on the captions of one video whose id is in `sen_ids`; the others are left.

    A caption split before (a recheck changed it) keeps one runon/ row: the
    earlier one, with its first sentence replaced by the sentences it splits into now
    (and the scoring of its text now). `scoring` as for split_sentences.
    """
    if batch.split not in config.splits:
        return batch
    chosen = [caption for caption in batch.captions if caption.sen_id in sen_ids]
    policy = config.policy.for_split(batch.split)
    found = dict(zip((caption.sen_id for caption in chosen),
                     find_for_policy([caption.text for caption in chosen], find, policy)))
    sentences = [found.get(caption.sen_id, [caption.text]) for caption in batch.captions]
    done = apply_policy(replace(batch, runon=[]), sentences, policy, id_stride, config.rule, scoring)
    return replace(done, runon=_merge_runon_rows(batch.runon, done.runon))


def _merge_runon_rows(earlier: list, later: list) -> list:
    later_by_id = {row.sen_id: row for row in later}
    merged = []
    for row in earlier:
        again = later_by_id.pop(row.sen_id, None)
        if again is not None:
            rest = row.sentences[1:] if row.policy in CUTTING_POLICIES else ()
            row = replace(again, sentences=again.sentences + rest, new_sen_ids=row.new_sen_ids + again.new_sen_ids,
                          action=f"{again.action}, after a recheck of step II changed the caption split before")
        merged.append(row)
    return merged + list(later_by_id.values())


class Runon(Step):
    """Step IV, by the `truncate` rule or the `model` rule.

    When step III runs until stable, it runs again here on the videos whose captions were cut
    to their first sentence (or into several captions): such a caption can be a near-duplicate of
    another one now. A merged caption keeps every word, so it is not checked again.
    """
    name = STEP
    summary = "run-on captions"
    Settings = RunonSettings

    def __init__(self, config):
        super().__init__(config)
        dedup_again = "dedup" in config.steps and config.dedup.until_stable and self.settings.splits_sentences
        self._dedup_settings = config.dedup if dedup_again else None
        # Read here, so that the word list travels inside the pipeline to remote workers.
        self._finite_verbs = load_lexicon(FINITE_VERBS) if self.settings.splits_sentences else None
        self._find = self._scoring = None

    @property
    def reported_figures(self) -> tuple:
        return () if self.settings.splits_sentences else ("word_limit",)

    def aggregates(self) -> dict:
        if not self.settings.splits_sentences:
            return {"word_limit": WordLimit(self.settings.std_multiplier)}
        if self.settings.policy.uses("separate"):
            return {"largest_id": LargestId()}
        return {}

    def setup(self):
        if self.settings.splits_sentences:
            self._find = load_sentence_finder(self.settings, self._finite_verbs)  # about a second to load
            self._scoring = caption_scoring(self.settings, self._finite_verbs)

    @property
    def videos_per_call(self) -> int:
        """The `model` rule scores the captions of this many videos together (process_videos)."""
        return VIDEOS_SCORED_TOGETHER if self.settings.splits_sentences else 1

    def process(self, video, word_limit=None, largest_id=-1):
        return self.process_videos([video], word_limit, largest_id)[0]

    def process_videos(self, videos, word_limit=None, largest_id=-1):
        if not self.settings.splits_sentences:
            return [truncate_long_captions(video, word_limit, tuple(self.settings.splits)) for video in videos]
        done = split_sentences_of_videos(videos, self._find, self.settings, largest_id + 1, self._scoring)
        return [self._dedup_again(video) for video in done]

    def _dedup_again(self, video):
        if self._dedup_settings is not None and cut_by_runon(video):
            return remove_near_duplicates_with(video, self._dedup_settings)
        return video


def cut_by_runon(video, since: int = 0) -> bool:
    """Whether step IV cut one of the video's captions, in its edits from number `since` on
    (`merge` and `whole` keep every word where it was)."""
    return any(row.step == STEP and row.rule.rsplit(":", 1)[-1] in CUTTING_POLICIES for row in video.edits[since:])
