"""The `capclean` command line."""
import argparse
import json
import logging
import os
import shutil
import sys
import time
import uuid
from pathlib import Path

from pipelines.config import ALL_STEPS, ConfigError, load_config, override
from transforms.errors import CapcleanError, find_error_line

log = logging.getLogger("capclean")

EXIT_VALIDATION_FAILED = 1
EXIT_USAGE = 2

BEAM_HELP = """\
Beam options: any other --flag is passed to Apache Beam. Without --runner,
capclean runs Beam's in-process FnApiRunner; --direct_num_workers=N with
--direct_running_mode=multi_processing uses N worker processes. --runner=DataflowRunner,
FlinkRunner, SparkRunner or DaskRunner (with their own options) and --setup_file=./setup.py
run the same pipeline elsewhere."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="capclean", description="Clean a crowd-sourced video-caption dataset "
                                     "(MSR-VTT format) into validated Parquet tables.")
    commands = parser.add_subparsers(dest="command", required=True)
    clean = commands.add_parser("clean", help="run the cleaning pipeline", epilog=BEAM_HELP,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    add_clean_arguments(clean)
    return parser


def add_clean_arguments(clean):
    io = clean.add_argument_group("input and output")
    io.add_argument("--input", required=True, metavar="PATH",
                    help="folder with the MSR-VTT annotation files (the two zips as distributed, or the JSON files), "
                         "or one MSR-VTT-format JSON file")
    io.add_argument("--output", required=True, metavar="DIR",
                    help="output folder; replaced only when the new output has passed validation")
    profile = clean.add_argument_group("configuration")
    profile.add_argument("--profile", default="default", choices=["default", "paper"],
                         help="'paper' reproduces the published cleaning exactly; 'default' is capclean's "
                              "recommended cleaning (default: %(default)s)")
    profile.add_argument("--config", metavar="FILE", help="YAML file laid over the profile (same sections as "
                         "pipelines/profiles/*.yaml)")
    profile.add_argument("--steps", metavar="LIST", help="comma-separated subset of "
                         f"{','.join(ALL_STEPS)} to run, always in that order (default: all)")
    spelling = clean.add_argument_group("step II, spelling")
    spelling.add_argument("--hunspell-dictionary", metavar="BASE",
                          help="Hunspell dictionary, path without .dic/.aff (default: /usr/share/hunspell/en_US)")
    spelling.add_argument("--custom-words", metavar="FILE", help="words Hunspell must accept, one a line "
                          "(relative paths are under dictionaries/)")
    spelling.add_argument("--british-to-american", metavar="FILE", help="'from -> to' mapping applied per token first")
    spelling.add_argument("--splits-mapping", metavar="FILE", help="'from -> to' mapping of run-together words")
    spelling.add_argument("--suggestion", choices=["first", "first_plain"],
                          help="which Hunspell suggestion replaces a rejected token: 'first' as published, "
                               "'first_plain' the first without punctuation or accents")
    dedup = clean.add_argument_group("step III, near-duplicates")
    dedup.add_argument("-e", "--edit-threshold", type=int, metavar="E",
                       help="two words are equal when their Levenshtein distance is at most E (paper: 0)")
    dedup.add_argument("-s", "--similarity-threshold", type=float, metavar="S",
                       help="two captions are near-duplicates when their similarity is at least S (paper: 0.85)")
    runon = clean.add_argument_group("step IV, run-on captions")
    runon.add_argument("--runon-rule", choices=["truncate"],
                       help="'truncate': cut captions longer than mean + K std words (paper)")
    runon.add_argument("--runon-std-multiplier", type=float, metavar="K", help="K of the word limit (paper: 2)")
    runon.add_argument("--runon-splits", metavar="LIST", help="splits the rule applies to (paper: train,validate)")
    out = clean.add_argument_group("validation and files")
    out.add_argument("--allowed-characters", metavar="CHARS", help="characters a cleaned caption may hold")
    out.add_argument("--sen-ids-per-file", type=int, metavar="N", help="sen_id range each Parquet file covers")


def config_from_arguments(args):
    config = load_config(args.profile, args.config)
    config = override(config, "", steps=_comma_list(args.steps))
    config = override(config, "spelling", hunspell_dictionary=args.hunspell_dictionary,
                      custom_words=args.custom_words, british_to_american=args.british_to_american,
                      splits=args.splits_mapping, suggestion=args.suggestion)
    config = override(config, "dedup", edit_threshold=args.edit_threshold,
                      similarity_threshold=args.similarity_threshold)
    config = override(config, "runon", rule=args.runon_rule, std_multiplier=args.runon_std_multiplier,
                      splits=_comma_list(args.runon_splits))
    config = override(config, "validation", allowed_characters=args.allowed_characters)
    config = override(config, "output", sen_ids_per_file=args.sen_ids_per_file)
    # Run the steps in pipeline order whatever order the flag named them in.
    return override(config, "", steps=tuple(step for step in ALL_STEPS if step in config.steps))


def _comma_list(value):
    return tuple(item.strip() for item in value.split(",") if item.strip()) if value else None


def quiet_logging():
    logging.basicConfig(level=logging.INFO, format="%(asctime)s capclean: %(message)s", datefmt="%H:%M:%S")
    for noisy in ("apache_beam", "great_expectations"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    # Beam's GCP module warns at import about optional Google clients a local run never uses.
    for handler in logging.getLogger().handlers:
        handler.addFilter(lambda record: not str(record.msg).startswith("apitools not found"))


def main(argv=None) -> int:
    quiet_logging()
    args, beam_args = build_parser().parse_known_args(argv)
    unknown = [arg for arg in beam_args if not arg.startswith("--")]
    if unknown:
        print(f"capclean: unexpected arguments: {' '.join(unknown)}", file=sys.stderr)
        return EXIT_USAGE
    try:
        config = config_from_arguments(args)
        return run_clean(args.input, args.output, config, beam_args)
    except (ConfigError, CapcleanError) as error:
        print(f"capclean: error: {find_error_line(error) or error}", file=sys.stderr)
        return EXIT_USAGE


def run_clean(input_path, output_dir, config, beam_args) -> int:
    from pipelines.run import run_pipeline  # Beam is imported only when a pipeline runs

    output = Path(output_dir).resolve()
    staging = output.parent / f".{output.name}.partial-{uuid.uuid4().hex[:8]}"
    staging.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    log.info("cleaning %s into %s (profile %s, steps %s)", input_path, output, config.profile, ",".join(config.steps))
    try:
        run_pipeline(input_path, str(staging), config, beam_args)
    except CapcleanError:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    except Exception as error:  # a runner wraps worker errors; show ours as one line
        shutil.rmtree(staging, ignore_errors=True)
        message = find_error_line(error)
        if message is None:
            raise
        raise CapcleanError(message) from None
    result = json.loads((staging / "validation" / "result.json").read_text())
    if not result["success"]:
        print("capclean: the output failed validation; it is left in " f"{staging}:", file=sys.stderr)
        for failure in result["failures"]:
            print(f"  - {failure}", file=sys.stderr)
        return EXIT_VALIDATION_FAILED
    replace_folder(staging, output)
    stats = json.loads((output / "stats.json").read_text())
    print(format_summary(stats, time.monotonic() - started))
    print(f"  validation passed; output in {output}, Data Docs in {output / 'validation' / 'index.html'}")
    return 0


def replace_folder(new: Path, target: Path) -> None:
    """Put `new` at `target`; an existing `target` is moved aside first and deleted last."""
    old = None
    if target.exists():
        old = target.parent / f".{target.name}.old-{uuid.uuid4().hex[:8]}"
        os.rename(target, old)
    os.rename(new, target)
    if old is not None:
        shutil.rmtree(old)


def format_summary(stats, seconds) -> str:
    lines = [f"capclean: done in {seconds:.1f} s, profile {stats['profile']}",
             f"  input: {stats['input']['captions']} captions, {stats['input'].get('videos', 0)} videos",
             f"  {'step':<10} {'changed':>8} {'removed':>8} {'videos':>8} {'tokens':>8}"]
    for step in ("read",) + tuple(stats["steps_run"]):
        figures = stats["steps"].get(step, {})
        lines.append(f"  {step:<10} {figures.get('captions_changed', 0):>8} {figures.get('captions_removed', 0):>8} "
                     f"{figures.get('videos_touched', 0):>8} {figures.get('tokens_changed', 0):>8}")
    by_split = ", ".join(f"{split} {n}" for split, n in stats["output"].get("captions_by_split", {}).items())
    lines.append(f"  output: {stats['output'].get('captions', 0)} captions ({by_split})")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
