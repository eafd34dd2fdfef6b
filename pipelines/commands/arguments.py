"""The flags several commands share, declared once, so that the same thing has the same name everywhere:
--input, --output, --overwrite, --limit, the cleaning configuration, and comma-separated lists."""
import argparse
from dataclasses import dataclass

from transforms.errors import ConfigError

BEAM_HELP = """\
Beam options: any other --flag is passed to Apache Beam. Without --runner,
capclean runs Beam's in-process FnApiRunner; --direct_num_workers=N with
--direct_running_mode=multi_processing uses N worker processes. --runner=DataflowRunner,
FlinkRunner, SparkRunner or DaskRunner (with their own options) and --setup_file=./setup.py
run the same pipeline elsewhere. --runner=DaskRunner without --dask_client_address starts
a local dask.distributed cluster of --dask_local_workers=N worker processes (default 2)."""


def comma_list(value) -> tuple | None:
    """'a, b,,c' -> ('a', 'b', 'c'); None or '' -> None."""
    return tuple(item.strip() for item in value.split(",") if item.strip()) if value else None


def chosen_names(flag: str, value: str | None, known: tuple) -> tuple:
    """The names of a comma-separated flag ('none': none), each one of `known`; a ConfigError names the others."""
    chosen = () if value == "none" else comma_list(value) or ()
    unknown = [name for name in chosen if name not in known]
    if unknown:
        raise ConfigError(f"--{flag}: unknown {', '.join(unknown)}; choose from {', '.join(known)}")
    return chosen


def at_least(flag: str, value, minimum) -> None:
    """A numeric flag below its minimum is one line."""
    if value is not None and value < minimum:
        raise ConfigError(f"--{flag} must be at least {minimum}, not {value}")


def add_output_folder_arguments(parser: argparse.ArgumentParser, input_help: str, writes: str) -> None:
    """--input, --output (a folder) and --overwrite."""
    io = parser.add_argument_group("input and output")
    io.add_argument("--input", required=True, metavar="PATH", help=input_help)
    io.add_argument("--output", required=True, metavar="DIR", help=f"folder for {writes}: a new or empty one, or "
                    "(with --overwrite) an earlier capclean output, replaced only when the new one is complete")
    io.add_argument("--overwrite", action="store_true",
                    help="replace the earlier capclean output at --output (never a folder capclean did not write)")


RAW_INPUT_HELP = ("folder with the MSR-VTT annotation files (the two zips as distributed, or the JSON files), "
                  "or one MSR-VTT-format JSON file")
RUN_OR_RAW_HELP = ("a capclean output folder (its captions/), or raw MSR-VTT-format annotations (a folder or "
                   "one file)")


def add_evaluation_io_arguments(parser: argparse.ArgumentParser, writes: str) -> None:
    """--input (a capclean output or raw annotations), --output and --overwrite of an evaluation command."""
    add_output_folder_arguments(parser, RUN_OR_RAW_HELP, writes)


def add_figure_file_arguments(parser: argparse.ArgumentParser, command: str, page_holds: str = "the figures") -> None:
    """--json and --report of a command that writes its figures to files (ndcg, evaluate)."""
    parser.add_argument("--json", metavar="FILE", help="also write the figures to this JSON file (a new file, or "
                        f"one capclean {command} wrote)")
    parser.add_argument("--report", metavar="FILE", help=f"also write {page_holds} as a self-contained HTML page "
                        "(a new file, or a page capclean wrote)")


def add_split_and_videos_arguments(group, split_holds: str) -> None:
    """--split and --videos: which captions an evaluation command reads (hardneg, relevance)."""
    group.add_argument("--split", default="test", help=f"the split whose {split_holds} (default: test; 'all' for "
                       "every split)")
    group.add_argument("--videos", metavar="FILE", help="only these videos: a CSV with a video_id column (as "
                       "retrieval_splits/MSRVTT_JSFUSION_test.csv, the 1k-A test split) or one id a line")


def add_tags_argument(group) -> None:
    """--tags: where a command that tags captions reads the tags made before (pipelines/evaluation/tags.py)."""
    group.add_argument("--tags", metavar="FOLDER", help="read the captions' part-of-speech tags from the pos/ table "
                       "of this capclean output (a hardneg output) and tag only the captions it lacks; refused "
                       "unless it has the same captions' texts and the same spaCy model (default: tag them all)")


def add_protocol_arguments(parser: argparse.ArgumentParser, required: bool, orientation: bool = True) -> None:
    """--protocol, --videos, --sen-ids (and --orientation, for a matrix): a retrieval protocol
    (transforms/evaluation/protocols.py) as evaluate, fire and overlap read it (protocol_files.py)."""
    from transforms.evaluation.protocols import ORIENTATIONS, PROTOCOLS

    parser.add_argument("--protocol", required=required, choices=PROTOCOLS,
                        help="1k-A: the JSFusion split's 1,000 videos x 1,000 sentences (--videos); full-test: "
                        "every test video x every test caption; custom: --videos x --sen-ids")
    parser.add_argument("--videos", metavar="FILE", help="1k-A: the JSFusion CSV (retrieval_splits/"
                        "MSRVTT_JSFUSION_test.csv: video_id, sentence); custom: the videos, a CSV with a "
                        "video_id column or one id a line, in the matrix's order")
    parser.add_argument("--sen-ids", metavar="FILE", help="custom: the captions, a CSV with a sen_id column or "
                        "one id a line, in the matrix's order")
    if orientation:
        parser.add_argument("--orientation", choices=ORIENTATIONS, help="which way the matrix is: needed when "
                            "it is square (1k-A); otherwise its shape says it")


def add_skip_unmatched_labels_argument(parser: argparse.ArgumentParser) -> None:
    """--skip-unmatched-labels: a label naming no query (or a video outside the gallery) is an error
    without it (fire, evaluate --fire-labels)."""
    parser.add_argument("--skip-unmatched-labels", action="store_true", help="leave out, and count, the labels "
                        "whose query matches no query text or sen_id (or whose video is not in the gallery); "
                        "without it such a label is an error naming it")


def add_limit_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--limit", type=int, metavar="N", help="only the first N videos (by video_id in natural "
                        "order: video2 before video10), for a quick trial; the output is marked partial")


def add_configuration_arguments(parser: argparse.ArgumentParser) -> None:
    """The profile, a YAML file over it, the steps, and step II's flags (clean and sweep)."""
    from pipelines.config import ALL_STEPS

    profile = parser.add_argument_group("configuration")
    profile.add_argument("--profile", default="default", choices=["default", "paper"],
                         help="'paper' reproduces the published cleaning exactly; 'default' is capclean's "
                              "recommended cleaning (default: %(default)s)")
    profile.add_argument("--config", metavar="FILE", help="YAML file laid over the profile (same sections as "
                         "pipelines/profiles/*.yaml)")
    profile.add_argument("--steps", metavar="LIST", help="comma-separated subset of "
                         f"{','.join(ALL_STEPS)} to run, always in that order (default: all)")
    spelling = parser.add_argument_group("step II, spelling")
    spelling.add_argument("--hunspell-dictionary", metavar="BASE",
                          help="Hunspell dictionary, path without .dic/.aff (default: /usr/share/hunspell/en_US)")
    spelling.add_argument("--custom-words", metavar="FILE", help="words Hunspell must accept, one a line "
                          "(relative paths are under dictionaries/)")
    spelling.add_argument("--british-to-american", metavar="FILE", help="'from -> to' mapping applied per token first")
    spelling.add_argument("--splits-mapping", metavar="FILE", help="'from -> to' mapping of run-together words")
    spelling.add_argument("--misspellings", metavar="FILE", help="'from -> to' mapping of reviewed misspellings "
                          "(default profile: msrvtt/misspellings.txt)")
    spelling.add_argument("--suggestion", choices=["first", "first_plain", "ranked"],
                          help="how a rejected token is replaced: 'first' Hunspell suggestion as published, "
                               "'first_plain' the first without punctuation or accents, 'ranked' capclean's "
                               "corpus-ranked correction (README)")
    spelling.add_argument("--vocabulary", metavar="LIST", help="comma-separated Hunspell .dic files of extra words "
                          "(relative paths are under dictionaries/)")


@dataclass(frozen=True)
class CleaningArgs:
    """The arguments of the flags `clean` and `sweep` share (add_output_folder_arguments' and
    add_configuration_arguments'), by their argparse dest; each command's Args extends it with its own."""
    input: str
    output: str
    overwrite: bool
    profile: str
    config: str | None
    steps: str | None
    hunspell_dictionary: str | None
    custom_words: str | None
    british_to_american: str | None
    splits_mapping: str | None
    misspellings: str | None
    suggestion: str | None
    vocabulary: str | None


def cleaning_configuration(args):
    """The profile, the --config file over it, then every configuration flag given (a command without a
    flag leaves its setting alone)."""
    from pipelines.config import ALL_STEPS, load_config, override

    flag = lambda name: getattr(args, name, None)  # noqa: E731
    config = load_config(args.profile, args.config)
    config = override(config, "", steps=comma_list(args.steps))
    config = override(config, "spelling", hunspell_dictionary=flag("hunspell_dictionary"),
                      custom_words=flag("custom_words"), british_to_american=flag("british_to_american"),
                      splits=flag("splits_mapping"), misspellings=flag("misspellings"), suggestion=flag("suggestion"),
                      vocabulary=comma_list(flag("vocabulary")))
    config = override(config, "dedup", edit_threshold=flag("edit_threshold"),
                      similarity_threshold=flag("similarity_threshold"))
    config = override(config, "runon", rule=flag("runon_rule"), std_multiplier=flag("runon_std_multiplier"),
                      splits=comma_list(flag("runon_splits")), policy=flag("runon_policy"))
    config = override(config, "validation", allowed_characters=flag("allowed_characters"))
    config = override(config, "output", sen_ids_per_file=flag("sen_ids_per_file"))
    # Run the steps in pipeline order whatever order the flag named them in.
    return override(config, "", steps=tuple(step for step in ALL_STEPS if step in config.steps))
