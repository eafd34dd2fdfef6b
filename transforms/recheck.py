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

Lineage: a round's edits are step `spelling` with the rule prefixed by
`recheck <n>:`; its corrections are added to the earlier ones (positions in the
caption the round received); a flagged token it corrects is no longer flagged.
"""
from dataclasses import replace

import apache_beam as beam

from transforms.corpus import CorpusStatistics
from transforms.dedup import remove_near_duplicates
from transforms.runon import IdStride, load_sentence_finder, split_some_captions
from transforms.runon_prefilter import FINITE_VERBS, load_lexicon
from transforms.spelling import Speller, WordLists, correct_video


def recheck_label(round_number: int) -> str:
    """The prefix of the `rule` of the edits a recheck round makes."""
    return f"recheck {round_number}: "


def recheck_spelling(batch, speller, round_number: int):
    """Step II again on one video: (the video, the sen_ids of the captions it changed).

    Only this round's rows are added to the lineage, and the flagged rows of
    the tokens it corrected are dropped.
    """
    fresh = replace(batch, edits=[], removed=[], corrections=[], flagged=[], runon=[])
    done = correct_video(fresh, speller, recheck_label(round_number))
    changed = {row["sen_id"] for row in done.edits}
    if not changed and not done.removed:
        return batch, changed
    corrected = {(row["sen_id"], row["original"]) for row in done.corrections}
    still_flagged = [row for row in batch.flagged if (row["sen_id"], row["token"]) not in corrected]
    return replace(done, edits=batch.edits + done.edits, removed=batch.removed + done.removed,
                   corrections=batch.corrections + done.corrections, flagged=still_flagged,
                   runon=batch.runon), changed


class RecheckFn(beam.DoFn):
    """One recheck round on one video: step II with the recounted statistics, then III and IV if it changed."""

    def __init__(self, config, round_number: int):
        self._config = config
        self._round = round_number
        # Read here, so that the word lists travel inside the pipeline to remote workers.
        self._word_lists = WordLists.read(config.spelling)
        self._runon_lexicon = load_lexicon(FINITE_VERBS)

    def setup(self):
        self._speller = None  # built on the first video: it needs the side inputs
        self._find = None  # step IV's detector, loaded only if a changed caption must be split

    def process(self, batch, token_stats, phrases, id_stride=0):
        if self._speller is None:
            self._speller = Speller(self._config.spelling, self._word_lists, token_stats, phrases)
        batch, changed = recheck_spelling(batch, self._speller, self._round)
        if changed:
            batch = self._steps_after_spelling(batch, changed, id_stride)
        yield batch

    def _steps_after_spelling(self, batch, changed: set, id_stride: int):
        steps, dedup, runon = self._config.steps, self._config.dedup, self._config.runon
        deduplicate = (lambda b: remove_near_duplicates(b, dedup.edit_threshold, dedup.similarity_threshold,
                                                        dedup.until_stable))
        if "dedup" in steps:
            batch = deduplicate(batch)
        # Screening is not run again: the spelling step writes only letters it found in the corpus.
        # The `truncate` rule is not either: it is the paper's, which has no recheck.
        if "runon" in steps and runon.splits_sentences:
            if self._find is None:
                self._find = load_sentence_finder(runon, self._runon_lexicon)
            split = split_some_captions(batch, changed, self._find, runon, id_stride)
            if "dedup" in steps and len(split.edits) != len(batch.edits):
                split = deduplicate(split)  # a caption cut to its first sentence may be a near-duplicate now
            batch = split
        return batch


class RecheckSpelling(beam.PTransform):
    """One recheck round over a PCollection of VideoBatch (the default profile runs two)."""

    def __init__(self, config, round_number: int):
        super().__init__()
        self._config = config
        self._round = round_number

    def expand(self, batches):
        token_stats, phrases = batches | "CorpusStatistics" >> CorpusStatistics()
        side_inputs = dict(token_stats=beam.pvalue.AsSingleton(token_stats), phrases=beam.pvalue.AsSingleton(phrases))
        if self._config.runon.policy == "separate":
            # Above every id in the data now, including those step IV made: new ids stay unique.
            side_inputs["id_stride"] = beam.pvalue.AsSingleton(batches | "IdStride" >> IdStride())
        return batches | "Recheck" >> beam.ParDo(RecheckFn(self._config, self._round), **side_inputs)

