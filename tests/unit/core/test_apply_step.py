"""The one Beam transform that runs any step gives what the step gives in memory."""
from dataclasses import replace

import apache_beam as beam
from apache_beam.runners.portability.fn_api_runner import FnApiRunner
from apache_beam.testing.util import assert_that, equal_to

from pipelines.cleaning.apply_step import ApplyStep, compute_figures
from pipelines.config import load_config
from transforms.batch import Caption, VideoBatch
from transforms.step import Aggregate, Step, run_step


class LongestCaption(Aggregate):
    def create(self):
        return 0

    def add(self, longest, video):
        return max([longest] + [len(c.text.split()) for c in video.captions])

    def merge(self, totals):
        return max(totals)


class PadToLongest(Step):
    """A stand-in step: pads every caption with 'x' up to the longest caption of the dataset."""
    name = "pad"

    def aggregates(self):
        return {"longest": LongestCaption()}

    def process(self, video, longest):
        return replace(video, captions=[Caption(c.sen_id, pad(c.text, longest)) for c in video.captions])


def pad(text, words):
    return " ".join(text.split() + ["x"] * (words - len(text.split())))


def videos():
    return [VideoBatch(f"video{n}", "train", 0, [Caption(n, " ".join(["w"] * n))]) for n in range(1, 6)]


def assert_beam_gives(transform_of, expected):
    """Run `transform_of` over videos() in Beam and check that it gives `expected` (video_id, caption) pairs."""
    with beam.Pipeline(runner=FnApiRunner()) as pipeline:
        done = transform_of(pipeline | beam.Create(videos()))
        assert_that(done | beam.Map(lambda v: (v.video_id, v.captions[0].text)), equal_to(expected))


def in_memory(*steps):
    done = videos()
    for step in steps:
        done = run_step(step, done)
    return sorted((v.video_id, v.captions[0].text) for v in done)


def test_a_step_with_a_figure_gives_in_beam_what_it_gives_in_memory():
    pad = PadToLongest(load_config("default"))
    assert in_memory(pad)[0] == ("video1", "w x x x x")
    assert_beam_gives(lambda collection: collection | ApplyStep(pad, compute_figures(collection, pad)), in_memory(pad))


class PadInLists(PadToLongest):
    """PadToLongest handed two videos at a time; it marks each caption with the size of its list."""
    videos_per_call = 2

    def process_videos(self, videos, longest):
        return [replace(video, captions=[Caption(c.sen_id, f"{pad(c.text, longest)} {len(videos)}")
                                         for c in video.captions]) for video in videos]


def test_a_step_that_takes_several_videos_at_once_gets_lists_of_at_most_that_many():
    step = PadInLists(load_config("default"))

    def check(done):
        texts = [text for _, text in done]
        plain = in_memory(PadToLongest(load_config("default")))
        assert sorted(text.rsplit(" ", 1)[0] for text in texts) == sorted(text for _, text in plain)
        assert all(text.endswith((" 1", " 2")) for text in texts) and any(text.endswith(" 2") for text in texts)

    with beam.Pipeline(runner=FnApiRunner()) as pipeline:
        collection = pipeline | beam.Create(videos())
        done = collection | ApplyStep(step, compute_figures(collection, step))
        assert_that(done | beam.Map(lambda v: (v.video_id, v.captions[0].text)), check)


def test_a_step_in_memory_gets_the_videos_in_lists_as_in_beam():
    done = in_memory(PadInLists(load_config("default")))  # five videos: lists of 2, 2 and 1
    assert [text.rsplit(" ", 1)[1] for _, text in done] == ["2", "2", "2", "2", "1"]
