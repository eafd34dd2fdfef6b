"""The recheck's corpus totals brought up to date with the videos a round changed (transforms/corpus.py,
CorpusTotals) instead of counted again: the same figures, in memory and in a Beam pipeline."""
from dataclasses import replace

import apache_beam as beam
from apache_beam.runners.portability.fn_api_runner import FnApiRunner
from apache_beam.testing.util import assert_that, equal_to

from pipelines.cleaning.recheck_rounds import RecheckRounds
from transforms.batch import Caption, VideoBatch
from transforms.corpus import AFTER, BEFORE, CorpusChange, CorpusTotals, PhraseCounts, TokenStats
from transforms.recheck import RecheckInMemory, sides_of_change
from transforms.step import aggregate_over


def video(video_id, *texts):
    captions = [Caption(int(video_id[-1]) * 10 + number, text) for number, text in enumerate(texts)]
    return VideoBatch(video_id, "train", 5, captions, input_records=len(texts))


def test_token_stats_without_some_videos_counts_the_rest():
    stats = {"a": (5, 3), "dog": (2, 1), "runs": (1, 1)}
    part = {"a": (2, 1), "dog": (2, 1)}
    assert TokenStats().without(stats, part) == {"a": (3, 2), "runs": (1, 1)}  # "dog": nobody else writes it


def test_phrase_counts_without_some_videos_counts_the_rest_and_extract_keeps_those_written_twice():
    from collections import Counter
    left = PhraseCounts().without(Counter({"a dog": 3, "dog runs": 1, "a cat": 2}), Counter({"a dog": 2, "dog runs": 1}))
    assert left == Counter({"a dog": 1, "a cat": 2}) and "dog runs" not in left
    assert PhraseCounts().extract(left) == {"a cat": 2}


# Before: "a dgo runs" (video1) and "a dog sits" (video2). video1 changes to "a dog runs":
# "dgo" goes, "dog" is written twice in two videos, and "a dog" twice (now a phrase the rule reads).
def test_totals_changed_by_some_videos_are_those_counted_again():
    entering = [video("video1", "a dgo runs"), video("video2", "a dog sits")]
    left = [replace(entering[0], captions=[Caption(10, "a dog runs")]), entering[1]]
    change = aggregate_over(CorpusChange(), sides_of_change(entering, left))
    updated = CorpusTotals.over(entering).changed(change)
    assert updated.figures() == CorpusTotals.over(left).figures()
    assert updated.figure("token_stats") == {"a": (2, 2), "dog": (2, 2), "runs": (1, 1), "sits": (1, 1)}
    assert updated.figure("phrases") == {"a dog": 2}
    # The totals it was brought up from are as they were (a Beam side input is never changed).
    assert CorpusTotals.over(entering).figure("token_stats")["dgo"] == (1, 1)


def test_the_sides_of_a_change_are_the_videos_a_stage_changed_as_they_entered_and_as_they_left():
    entered = [video("video1", "a dgo runs"), video("video2", "a dog sits")]
    left = [video("video1", "a dog runs"), entered[1]]
    assert sides_of_change(entered, left) == [(BEFORE, entered[0]), (AFTER, left[0])]


def test_each_round_in_memory_reads_the_totals_of_the_videos_that_enter_it(tiger_config, tiger_videos, monkeypatch):
    import transforms.recheck as recheck
    counted = []
    real_changed = CorpusTotals.changed

    def noted(totals, change):
        counted.append(real_changed(totals, change))
        return counted[-1]
    monkeypatch.setattr(recheck.CorpusTotals, "changed", noted)
    rounds = RecheckInMemory(tiger_config)
    first = rounds.round(1, tiger_videos())
    second = rounds.round(2, first)
    rounds.round(3, second)
    assert [totals.figures() for totals in counted] == [CorpusTotals.over(first).figures(),
                                                        CorpusTotals.over(second).figures()]
    assert counted[0].figure("token_stats")["tiger"] == (5, 2)  # "tger" corrected in round 1


def as_facts(batch):
    return (batch.video_id, tuple(caption.text for caption in batch.captions),
            tuple((row.sen_id, row.rule, row.before, row.after) for row in batch.edits))


def test_the_pipeline_rounds_give_what_rounds_deciding_every_video_give(tiger_config, tiger_videos):
    expected = [as_facts(batch) for batch in RecheckInMemory(tiger_config, incremental=False).all_rounds(tiger_videos())]
    assert ("video2", ("the tiger sleeps", "a cat sleeps")) == expected[1][:2]  # round 2's correction
    with beam.Pipeline(runner=FnApiRunner()) as pipeline:
        done = pipeline | beam.Create(tiger_videos()) | RecheckRounds(tiger_config, 3)
        assert_that(done | beam.Map(as_facts), equal_to(expected))
