"""Every configuration value is checked for its type and range when the profile and the --config file are read."""
import pytest

from pipelines.config import ConfigError, config_from_dict, load_config


@pytest.mark.parametrize("values, message", [
    ({"dedup": {"similarity_threshold": "high"}}, "dedup.similarity_threshold must be a number, not 'high'"),
    ({"spelling": {"min_candidate_count": "five"}}, "spelling.min_candidate_count must be a whole number"),
    ({"runon": {"splits": "train"}}, "runon.splits must be a list of strings, not 'train'"),
    ({"input": {"max_caption_words": True}}, "input.max_caption_words must be a whole number, not True"),
    ({"spelling": {"context": "yes"}}, "spelling.context must be true or false"),
    ({"validation": {"split_video_ranges": {"train": [0]}}}, "split_video_ranges must map each split"),
    ({"steps": "dedup"}, "steps must be a list of strings"),
    ({"dedup": [0.9]}, "section 'dedup' must be a mapping"),
    ({"input": {"max_file_megabytes": 0}}, "input.max_file_megabytes must be >= 1, not 0"),
    ({"input": {"max_record_kilobytes": -1}}, "input.max_record_kilobytes must be >= 1, not -1"),
])
def test_a_value_of_the_wrong_type_or_range_is_refused_with_its_name(values, message):
    with pytest.raises(ConfigError, match=message.replace("(", r"\(").replace("[", r"\[")):
        config_from_dict(values)


def test_a_whole_number_is_a_number_and_null_ranges_switch_the_check_off():
    config = config_from_dict({"dedup": {"similarity_threshold": 1}, "validation": {"split_video_ranges": None}})
    assert config.dedup.similarity_threshold == 1.0 and config.validation.split_video_ranges == {}


def test_a_config_file_can_switch_the_video_ranges_off(tmp_path):
    extra = tmp_path / "extra.yaml"
    extra.write_text("validation:\n  split_video_ranges: null\n")
    assert load_config("paper").validation.split_video_ranges
    assert load_config("paper", str(extra)).validation.split_video_ranges == {}
