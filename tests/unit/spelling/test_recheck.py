"""The spelling recheck (transforms/recheck.py) and step IV on chosen captions, on hand-made videos."""
from dataclasses import replace

import pytest

from pipelines.cleaning.steps import STEP_NAMES
from pipelines.config import ConfigError, load_config, override
from pipelines.cleaning.stats import video_counts
from transforms.batch import Caption, VideoBatch
from transforms.lineage import CorrectionRow, EditRow, FlaggedRow, RunonRow
from transforms.recheck import recheck_spelling, respelled_ids
from transforms.runon.step import split_some_captions


class WordSwapper:
    """A stand-in speller: replaces the words of `fixes` and flags the words of `flags`."""

    def __init__(self, fixes: dict, flags: tuple = ()):
        self._fixes, self._flags = fixes, flags

    def correct(self, text, clip=None):  # the clip: unused here
        words, rows, flagged = [], [], []
        for position, word in enumerate(text.split()):
            if word in self._fixes:
                rows.append({"position": position, "original": word, "replacement": self._fixes[word],
                             "rule": "ranked", "score": 0.9})
                word = self._fixes[word]
            elif word in self._flags:
                flagged.append({"position": position, "token": word, "reason": "unclear", "candidate": None})
            words.append(word)
        return " ".join(words), rows, flagged


def cleaned_video():
    """A video as steps II-IV left it: one caption corrected before, two tokens flagged by step II."""
    batch = VideoBatch("video3", "train", 5, [Caption(1, "a man plays batmanton"), Caption(2, "a gril sings")],
                       input_records=2)
    batch.edits = [EditRow(2, "video3", "spelling", "ranked", "a gril sngs", "a gril sings")]
    batch.corrections = [CorrectionRow(2, 2, "sngs", "sings", "ranked", 0.9)]
    batch.flagged = [FlaggedRow(1, 3, "batmanton", "rare", "badminton"), FlaggedRow(2, 1, "gril", "unclear", "girl")]
    return batch


def test_a_round_that_changes_nothing_returns_the_video_as_it_was():
    batch = cleaned_video()
    again = recheck_spelling(batch, WordSwapper({}, flags=("batmanton", "gril")), 1)
    assert again is batch and respelled_ids(again, 1) == set()


def test_a_round_adds_its_corrections_and_unflags_what_it_corrected():
    again = recheck_spelling(cleaned_video(), WordSwapper({"batmanton": "badminton"}, ("gril",)), 2)
    assert respelled_ids(again, 2) == {1} and respelled_ids(again, 1) == set()
    assert [c.text for c in again.captions] == ["a man plays badminton", "a gril sings"]
    assert [(row.sen_id, row.rule) for row in again.edits] == [(2, "ranked"), (1, "recheck 2: ranked")]
    assert [row.original for row in again.corrections] == ["sngs", "batmanton"]
    # Still flagged once, not twice: the round's own flags of unchanged tokens are not added.
    assert [row.token for row in again.flagged] == ["gril"]


def test_the_figures_give_the_captions_each_round_changed_and_zero_for_a_round_that_changed_none():
    again = recheck_spelling(cleaned_video(), WordSwapper({"batmanton": "badminton"}), 1)
    counts = video_counts(again, STEP_NAMES, recheck_rounds=2)
    assert counts["steps/spelling/recheck_captions_changed/round_1"] == 1
    assert "steps/spelling/recheck_captions_changed/round_2" in counts
    assert counts["steps/spelling/recheck_captions_changed/round_2"] == 0
    assert counts["steps/spelling/captions_changed"] == 2


def split_on_then(texts):
    """A stand-in sentence finder: a boundary before every 'then'."""
    found = []
    for text in texts:
        parts = text.split(" then ")
        found.append([parts[0]] + [f"then {part}" for part in parts[1:]])
    return found


def test_step_four_on_chosen_captions_parses_only_those():
    config = replace(load_config("default").runon, policy="first")
    batch = VideoBatch("video3", "train", 5, [Caption(1, "a man sings then he dances"),
                                              Caption(2, "a girl sings then she bows")], input_records=2)
    done = split_some_captions(batch, {2}, split_on_then, config)
    assert [c.text for c in done.captions] == ["a man sings then he dances", "a girl sings"]
    assert [(row.sen_id, row.sentences) for row in done.runon] == [(2, ("a girl sings", "then she bows"))]


def test_a_caption_split_again_keeps_one_runon_row_with_all_its_sentences():
    config = replace(load_config("default").runon, policy="first")
    batch = VideoBatch("video3", "train", 5, [Caption(1, "a man sings then he dances")], input_records=1)
    batch.runon = [RunonRow(1, "video3", "train", ("a man sings then he dances", "and the crowd cheers"), "first",
                            "kept the first of 2 sentences")]
    done = split_some_captions(batch, {1}, split_on_then, config)
    assert [c.text for c in done.captions] == ["a man sings"]
    assert len(done.runon) == 1
    assert done.runon[0].sentences == ("a man sings", "then he dances", "and the crowd cheers")


def test_step_four_leaves_a_split_the_policy_does_not_cover():
    config = override(load_config("default"), "runon", splits=("test",)).runon
    batch = VideoBatch("video3", "train", 5, [Caption(1, "a man sings then he dances")], input_records=1)
    assert split_some_captions(batch, {1}, split_on_then, config) is batch


def test_a_recheck_needs_the_ranked_rule():
    with pytest.raises(ConfigError, match="recheck_rounds needs spelling.suggestion: ranked"):
        override(load_config("paper"), "spelling", recheck_rounds=1)
    assert load_config("paper").spelling.recheck_rounds == 0
    assert load_config("default").spelling.recheck_rounds == 3
