"""Step II again, on the cleaned captions, with the corpus statistics counted from them.

The ranked spelling rule decides on corpus counts, and the cleaning changes
those counts: step III removes captions, and every correction adds to its
candidate's count. Cleaning the output again would therefore count otherwise,
and decide a few tokens near a threshold otherwise (about 50 of MSR-VTT's 1.6
million). A recheck round counts the statistics on the captions as steps II-IV
left them and runs step II again; a video whose captions it changes goes
through steps III and IV again. A round that changes nothing has counted what a
second cleaning of the output would count, so that cleaning changes nothing
either. stats.json gives the captions each round changed
(`steps/spelling/recheck_captions_changed`).

A round is three stages, each a Step (pipelines/cleaning/steps.py runs them in a row,
with the figures counted on the videos that enter the round): Respell, then
DedupRespelled and RunonRespelled on the videos Respell changed.

Incremental: from the second round on, the figures are not counted on every video
again: the round before's totals are brought up to date with the videos it changed
(transforms/corpus.py, CorpusTotals: less what they wrote as they entered it, plus what
they write as they left it). And Respell decides again only the videos the round
before changed and those holding a token that a figure moved since (the figures of
the two rounds, compared: transforms/spelling/reach.py says which figures a token's
decision may read). Every other video's tokens were last decided on the same
captions with figures that agree on all their decision reads, and left the video as
it was; deciding them again would leave it so.

Lineage: a round's edits are step `spelling` with the rule prefixed by
`recheck <n>:`; its corrections are added to the earlier ones (positions in the
caption the round received); a flagged token it corrects is no longer flagged.
"""
from dataclasses import replace

from transforms.corpus import AFTER, BEFORE, CorpusChange, CorpusTotals, corpus_aggregates
from transforms.dedup import remove_near_duplicates_with
from transforms.runon.step import LargestId, cut_by_runon, load_sentence_finder, split_some_captions
from transforms.runon.prefilter import FINITE_VERBS, caption_scoring, load_lexicon
from transforms.spelling import OtherCaptions, Speller, WordLists, captions_writing, correct_video
from transforms.spelling.reach import MovedFigures
from transforms.step import Step, aggregate_over


def recheck_label(round_number: int) -> str:
    """The prefix of the `rule` of the edits a recheck round makes."""
    return f"recheck {round_number}: "


def respelled_ids(video, round_number: int) -> set:
    """The sen_ids of the captions that recheck round `round_number` changed."""
    label = recheck_label(round_number)
    return {row.sen_id for row in video.edits if row.step == "spelling" and row.rule.startswith(label)}


def recheck_spelling(batch, speller, round_number: int):
    """Step II again on one video.

    Only this round's rows are added to the lineage, and the flagged rows of
    the tokens it corrected are dropped.
    """
    fresh = replace(batch, edits=[], removed=[], corrections=[], flagged=[], runon=[])
    done = correct_video(fresh, speller, recheck_label(round_number))
    if not done.edits and not done.removed:
        return batch
    corrected = {(row.sen_id, row.original) for row in done.corrections}
    still_flagged = [row for row in batch.flagged if (row.sen_id, row.token) not in corrected]
    return replace(done, edits=batch.edits + done.edits, removed=batch.removed + done.removed,
                   corrections=batch.corrections + done.corrections, flagged=still_flagged, runon=batch.runon)


class Respell(Step):
    """A round's step II, with the statistics counted on the captions that enter the round.

    Given the figures the round before counted (`earlier_token_stats`, `earlier_phrases`), it
    decides again only the videos that round changed and those a moved figure reaches (the module's
    docstring); `incremental=False`: every video, whatever it is given (the benchmark's "before")."""
    name = "spelling"

    def __init__(self, config, round_number: int, incremental: bool = True):
        super().__init__(config)
        self.round_number = round_number
        self.incremental = incremental
        # Read here, so that the word lists travel inside the pipeline to remote workers.
        self._word_lists = WordLists.read(self.settings)
        self._speller = self._moved = None

    def aggregates(self) -> dict:
        return corpus_aggregates()

    def setup(self):
        self._speller = self._moved = None  # built on the first video: they need the figures

    def process(self, video, token_stats, phrases, earlier_token_stats=None, earlier_phrases=None):
        if self._speller is None:
            self._speller = Speller(self.settings, self._word_lists, token_stats, phrases)
            if self.incremental and earlier_token_stats is not None:
                self._moved = MovedFigures.between((earlier_token_stats, earlier_phrases), (token_stats, phrases))
        if self._moved is not None and not self._to_decide_again(video):
            return video
        return recheck_spelling(video, self._speller, self.round_number)

    def _to_decide_again(self, video) -> bool:
        """The round before changed the video (its clip is another), or a moved figure reaches a token."""
        if respelled_ids(video, self.round_number - 1):
            return True
        in_clip = []  # counted only if a caption needs its clip

        def clip_of(text):
            if not in_clip:
                in_clip.append(captions_writing(caption.text for caption in video.captions))
            return OtherCaptions(in_clip[0], text)
        return any(self._speller.may_change(caption.text, self._moved, clip_of) for caption in video.captions)


class DedupRespelled(Step):
    """Step III again on the videos the round's step II changed."""
    name = "dedup"

    def __init__(self, config, round_number: int):
        super().__init__(config)
        self.round_number = round_number

    def process(self, video):
        if not respelled_ids(video, self.round_number):
            return video
        return remove_near_duplicates_with(video, self.settings)


class RunonRespelled(Step):
    """Step IV (a sentence rule) again on the captions the round's step II changed, and step III
    again where it cut one. Screening and the `truncate` rule are not run again: the spelling
    step writes only letters it found in the corpus, and `truncate` is the paper's, which has
    no recheck."""
    name = "runon"

    def __init__(self, config, round_number: int):
        super().__init__(config)
        self.round_number = round_number
        self._dedup = config.dedup if "dedup" in config.steps else None
        # Read here, so that the word lists travel inside the pipeline to remote workers.
        self._finite_verbs = load_lexicon(FINITE_VERBS)
        self._find = self._scoring = None

    def aggregates(self) -> dict:
        # Above every id in the data now, including those step IV made: new ids stay unique.
        return {"largest_id": LargestId()} if self.settings.policy.uses("separate") else {}

    def setup(self):
        self._find = None  # loaded only if a changed caption must be split

    def process(self, video, largest_id=-1):
        changed = respelled_ids(video, self.round_number)
        if not changed:
            return video
        if self._find is None:
            self._find = load_sentence_finder(self.settings, self._finite_verbs)
            self._scoring = caption_scoring(self.settings, self._finite_verbs)
        split = split_some_captions(video, changed, self._find, self.settings, largest_id + 1, self._scoring)
        if self._dedup is not None and cut_by_runon(split, since=len(video.edits)):
            split = remove_near_duplicates_with(split, self._dedup)  # a caption cut short may be a near-duplicate now
        return split


def recheck_round(config, round_number: int, incremental: bool = True) -> list:
    """The stages of one recheck round, in order, as the configuration's steps ask."""
    stages = [Respell(config, round_number, incremental)]
    if "dedup" in config.steps:
        stages.append(DedupRespelled(config, round_number))
    if "runon" in config.steps and config.runon.splits_sentences:
        stages.append(RunonRespelled(config, round_number))
    return stages


def earlier_figures(figures: dict) -> dict:
    """A round's Respell figures under the names the next round's Respell takes them."""
    return {f"earlier_{name}": figure for name, figure in figures.items()}


def sides_of_change(entered, left) -> list:
    """CorpusChange's elements for one stage: each video the stage changed, as it entered (BEFORE) and as it
    left (AFTER). The changes of a round's stages, one after the other, add up to the round's: a video two
    stages changed is taken out as it entered the first, and put in as it left the second."""
    return [side for entering, leaving in zip(entered, left) if leaving is not entering
            for side in ((BEFORE, entering), (AFTER, leaving))]


class RecheckInMemory:
    """The recheck rounds over videos in memory, one call a round, as the pipeline runs them (each round's
    Respell given the figures of the round before; the figures of a round after the first, the totals of
    the round before brought up to date with the videos it changed). For benchmarks and tests.
    `incremental=False`: every round counts and decides every video, as the rounds did before."""

    def __init__(self, config, incremental: bool = True):
        self._config = config
        self._incremental = incremental
        self._earlier = {}
        self._totals = self._change = None  # the round before's CorpusTotals, and what it changed

    def round(self, round_number: int, videos: list) -> list:
        respell, *others = recheck_round(self._config, round_number, self._incremental)
        if self._totals is None or not self._incremental:
            totals = CorpusTotals.over(videos)
        else:
            totals = self._totals.changed(self._change)
        figures = totals.figures()
        # The other stages' figures, as Respell's, counted on the videos that enter the round.
        others_figures = [{name: aggregate_over(aggregate, videos) for name, aggregate in stage.aggregates().items()}
                          for stage in others]
        respell.setup()
        respelled = [respell.process(video, **figures, **self._earlier) for video in videos]
        sides = sides_of_change(videos, respelled)
        for stage, stage_figures in zip(others, others_figures):
            stage.setup()
            entered, respelled = respelled, [stage.process(video, **stage_figures) for video in respelled]
            sides += sides_of_change(entered, respelled)
        self._earlier = earlier_figures(figures)
        self._totals = totals
        self._change = aggregate_over(CorpusChange(), sides)
        return respelled

    def all_rounds(self, videos: list) -> list:
        for round_number in range(1, self._config.spelling.recheck_rounds + 1):
            videos = self.round(round_number, videos)
        return videos
