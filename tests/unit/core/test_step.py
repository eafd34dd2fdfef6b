"""The step interface: a step run in memory as a pipeline runs it, and the list of steps the rest derives from."""
from dataclasses import replace

import pytest

from pipelines.cleaning.steps import STEP_NAMES, STEPS, steps_to_run
from pipelines.config import ALL_STEPS, SECTIONS, ConfigError, config_from_dict, load_config
from transforms.batch import Caption, VideoBatch
from transforms.step import Aggregate, Step, aggregate_over, run_step, runs


def video(number, *texts):
    return VideoBatch(f"video{number}", "train", 0, [Caption(number * 10 + i, text) for i, text in enumerate(texts)])


class CaptionCount(Aggregate):
    def create(self):
        return 0

    def add(self, total, video):
        return total + len(video.captions)

    def merge(self, totals):
        return sum(totals)


class Tag(Step):
    """A stand-in step: appends the dataset's caption count, and whether it was set up, to every caption."""
    name = "tag"

    def aggregates(self):
        return {"captions": CaptionCount()}

    def setup(self):
        self.loaded = "set up"

    def process(self, video, captions):
        return replace(video, captions=[Caption(c.sen_id, f"{c.text} {captions} {self.loaded}") for c in video.captions])


def test_a_step_run_in_memory_gets_its_figures_and_its_setup_and_keeps_video_order():
    videos = [video(n, "a") for n in (3, 1, 2)]
    done = run_step(Tag(load_config("default")), videos)
    assert [v.video_id for v in done] == ["video3", "video1", "video2"]
    assert [v.captions[0].text for v in done] == ["a 3 set up"] * 3


def test_an_aggregate_over_videos_in_memory():
    assert aggregate_over(CaptionCount(), [video(1, "a", "b"), video(2, "c")]) == 3


def test_the_step_list_is_the_one_the_configuration_and_the_tables_follow():
    names = [step.name for step in STEPS]
    assert STEP_NAMES == ("read", *names)
    assert ALL_STEPS == tuple(step.name for step in STEPS if step.optional)
    assert list(SECTIONS) == ["input"] + [step.name for step in STEPS if step.Settings] + ["validation", "output"]
    assert all(step.summary for step in STEPS)


def test_screening_always_runs_and_the_others_as_the_configuration_asks():
    config = config_from_dict({"steps": ["dedup"]})
    assert [step.name for step in steps_to_run(config)] == ["screen", "dedup"]
    assert not runs(STEPS[0], config)


def test_each_step_section_checks_its_own_values():
    with pytest.raises(ConfigError, match="similarity_threshold"):
        config_from_dict({"dedup": {"similarity_threshold": 1.5}})
    with pytest.raises(ConfigError, match="runon.policy"):
        config_from_dict({"runon": {"policy": "all"}})
    with pytest.raises(ConfigError, match="unknown keys in section 'dedup'"):
        config_from_dict({"dedup": {"threshold": 0.9}})


def test_a_step_reads_its_own_section():
    config = load_config("paper")
    assert [step.settings for step in steps_to_run(config) if step.Settings] == [
        config.spelling, config.dedup, config.runon]
