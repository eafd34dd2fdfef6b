import pytest

from pipelines.cli import build_parser
from pipelines.commands.arguments import cleaning_configuration
from pipelines.config import ConfigError, config_from_dict, load_config


def test_both_profiles_load_into_the_typed_config():
    paper, default = load_config("paper"), load_config("default")
    assert paper.profile == "paper" and default.profile == "default"
    assert paper.dedup.edit_threshold == 0 and paper.dedup.similarity_threshold == 0.85
    assert paper.runon.splits == ("train", "validate") and paper.runon.std_multiplier == 2.0
    assert paper.spelling.suggestion == "first"
    assert paper.validation.split_video_ranges["validate"] == (6513, 7009)
    # default declares a stricter character set than paper's output needs
    assert set(default.validation.allowed_characters) < set(paper.validation.allowed_characters)


def test_unknown_profile_and_keys_are_refused():
    with pytest.raises(ConfigError, match="unknown profile 'fast'"):
        load_config("fast")
    with pytest.raises(ConfigError, match="unknown keys in section 'dedup': threshold"):
        config_from_dict({"dedup": {"threshold": 1}})
    with pytest.raises(ConfigError, match="steps must be"):
        config_from_dict({"steps": ["normalise"]})


def test_a_config_file_is_laid_over_the_profile(tmp_path):
    extra = tmp_path / "mine.yaml"
    extra.write_text("dedup:\n  similarity_threshold: 0.9\n")
    config = load_config("paper", str(extra))
    assert config.dedup.similarity_threshold == 0.9 and config.dedup.edit_threshold == 0
    assert config.spelling.custom_words == "paper/custom_words.txt"


def test_every_parameter_can_be_overridden_by_a_flag():
    args, beam_args = build_parser().parse_known_args([
        "clean", "--input", "in", "--output", "out", "--profile", "paper", "-e", "1", "-s", "0.9",
        "--steps", "dedup,normalize", "--runon-std-multiplier", "3", "--runon-splits", "train",
        "--custom-words", "/x/words.txt", "--hunspell-dictionary", "/x/en_GB", "--suggestion", "first_plain",
        "--direct_num_workers=2"])
    config = cleaning_configuration(args)
    assert (config.dedup.edit_threshold, config.dedup.similarity_threshold) == (1, 0.9)
    assert config.steps == ("normalize", "dedup")  # pipeline order, whatever the flag's order
    assert config.runon.std_multiplier == 3.0 and config.runon.splits == ("train",)
    assert config.spelling.custom_words == "/x/words.txt"
    assert config.spelling.hunspell_dictionary == "/x/en_GB"
    assert config.spelling.suggestion == "first_plain"
    assert beam_args == ["--direct_num_workers=2"]


def test_bad_flag_values_are_refused():
    args, _ = build_parser().parse_known_args(["clean", "--input", "i", "--output", "o", "-s", "1.5"])
    with pytest.raises(ConfigError, match="similarity_threshold"):
        cleaning_configuration(args)


def test_the_setup_file_ships_profiles_and_word_lists(tmp_path, repo):
    """What Beam's --setup_file builds for remote workers must carry the data files too."""
    import subprocess
    import sys
    import tarfile

    subprocess.run([sys.executable, "setup.py", "-q", "sdist", "-d", str(tmp_path)], cwd=repo, check=True,
                   capture_output=True)
    (archive,) = tmp_path.glob("capclean-*.tar.gz")
    names = {name.split("/", 1)[1] for name in tarfile.open(archive).getnames() if "/" in name}
    assert {"pipelines/profiles/paper.yaml", "pipelines/profiles/default.yaml",
            "dictionaries/paper/custom_words.txt", "dictionaries/paper/splits.txt",
            "dictionaries/msrvtt/vocabulary.dic", "dictionaries/msrvtt/british_to_american.txt",
            "transforms/spelling/__init__.py", "transforms/spelling/gate_model/model.onnx",
            "schemas/validation/suites.py"} <= names


def test_the_run_on_rule_is_truncate_or_model_and_the_model_threshold_a_probability():
    assert config_from_dict({"runon": {"rule": "model", "model_threshold": 0.7}}).runon.rule == "model"
    with pytest.raises(ConfigError, match="'truncate' or 'model', not 'senter'"):
        config_from_dict({"runon": {"rule": "senter"}})
    with pytest.raises(ConfigError, match="model_threshold must be between 0 and 1"):
        config_from_dict({"runon": {"rule": "model", "model_threshold": 1.5}})


def test_the_length_only_threshold_is_a_probability_too():
    assert config_from_dict({"runon": {"length_only_threshold": 0.98}}).runon.length_only_threshold == 0.98
    with pytest.raises(ConfigError, match="length_only_threshold must be between 0 and 1, not 0"):
        config_from_dict({"runon": {"length_only_threshold": 0}})
