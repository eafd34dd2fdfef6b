"""The `capclean` command line: clean, sweep, report, export."""
import argparse
import json
import logging
import re
import sys
import time
from pathlib import Path

from pipelines.config import ALL_STEPS, ConfigError, load_config, override
from pipelines.runtime.logs import add_logging_arguments, chosen_level, configure_logging, one_line_on_interrupt
from pipelines.evaluation.evaluation_io import add_evaluation_io_arguments, claim_output, seal_output
from pipelines.output.folder import check_target, put_in_place, staging_for, write_marker
from transforms.errors import CapcleanError, find_error_line
from transforms.read import find_annotation_files
from transforms.runon.step import RUNON_RULES

log = logging.getLogger("capclean")

EXIT_VALIDATION_FAILED = 1
EXIT_USAGE = 2  # a usage, configuration, input or output error, and any failure of the system (disk, memory)
EXIT_INTERRUPTED = 130  # Ctrl-C, as shells report it
INTERRUPTED = "capclean: interrupted; the earlier output, if any, is as it was"
EXPORT_NAMES = ("msrvtt-json", "coco", "hf")
EXPORTS_HELP = ("msrvtt-json (the MSR-VTT JSON format)", "coco (validate and test references)",
                "hf (Hugging Face datasets layout)")

BEAM_HELP = """\
Beam options: any other --flag is passed to Apache Beam. Without --runner,
capclean runs Beam's in-process FnApiRunner; --direct_num_workers=N with
--direct_running_mode=multi_processing uses N worker processes. --runner=DataflowRunner,
FlinkRunner, SparkRunner or DaskRunner (with their own options) and --setup_file=./setup.py
run the same pipeline elsewhere. --runner=DaskRunner without --dask_client_address starts
a local dask.distributed cluster of --dask_local_workers=N worker processes (default 2)."""


class VersionAction(argparse.Action):
    """--version: one line, the version and the git commit (found only when asked for)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from pipelines.output.manifest import version_line

        print(version_line())
        parser.exit()


def add_limit_argument(command):
    command.add_argument("--limit", type=int, metavar="N", help="only the first N videos (by video_id in natural "
                         "order: video2 before video10), for a quick trial; the output is marked partial")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="capclean", description="Clean a crowd-sourced video-caption dataset "
                                     "(MSR-VTT format) into validated Parquet tables.")
    parser.add_argument("--version", action=VersionAction, help="print capclean's version (and git commit) and exit")
    commands = parser.add_subparsers(dest="command", required=True)
    formatter = argparse.RawDescriptionHelpFormatter
    clean = commands.add_parser("clean", help="run the cleaning pipeline", epilog=BEAM_HELP,
                                formatter_class=formatter)
    clean.add_argument("--version", action=VersionAction, help="print capclean's version (and git commit) and exit")
    add_input_arguments(clean, "output folder: a new or empty one, or (with --overwrite) an earlier capclean "
                               "output, replaced only when the new output has passed validation")
    add_limit_argument(clean)
    add_step_arguments(clean)
    clean.add_argument("--export", metavar="LIST", default="",
                       help=f"also write these exports into the output: comma-separated of {','.join(EXPORTS_HELP)}")
    sweep = commands.add_parser("sweep", formatter_class=formatter, epilog=BEAM_HELP,
                                help="remaining captions of step III over a grid of (e, s); steps I-II run once")
    add_input_arguments(sweep, "folder for sweep.csv, sweep.json and sweep.png: a new or empty one, or (with "
                               "--overwrite) an earlier capclean output")
    sweep.add_argument("--grid", metavar="E:S,...", help="grid points (default: the paper's eight, "
                       "e in 0,1,2 at s=0.9 and s in 0.75..1.00 at e=0)")
    add_limit_argument(sweep)
    report = commands.add_parser("report", help="write report.html for a run, or two runs side by side")
    report.add_argument("run", help="output folder of a run")
    report.add_argument("other", nargs="?", help="a second run's output folder to compare with (e.g. paper)")
    report.add_argument("--to", metavar="FILE", help="where to write the page (default: RUN/report.html)")
    vocab = commands.add_parser("vocab", help="the tokens Hunspell rejects, with the default rule's decision, "
                                "as a TSV table to review")
    vocab.add_argument("--input", required=True, metavar="PATH", help="MSR-VTT-format annotations")
    vocab.add_argument("--output", required=True, metavar="FILE", help="the TSV table to write")
    vocab.add_argument("--profile", default="default", choices=["default", "paper"],
                       help="whose vocabulary and ranking options to use (default: %(default)s)")
    add_hardneg_arguments(commands.add_parser(
        "hardneg", formatter_class=formatter, epilog=BEAM_HELP,
        help="hard negatives of a split's captions: one word (or two) changed per part of speech"))
    add_overlap_arguments(commands.add_parser(
        "overlap", formatter_class=formatter,
        help="train/test overlap of query captions (tf-idf, exact leaks) and false-negative candidates"))
    from pipelines.evaluation.relevance.run import add_relevance_arguments
    add_relevance_arguments(commands.add_parser(
        "relevance", help="graded relevance of every (video, caption) pair: the bow, pos and syn proxies"))
    posrank = commands.add_parser("posrank", help="PoSRank of a model's scores on the hard negatives of "
                                  "`capclean hardneg`")
    posrank.add_argument("--negatives", required=True, metavar="DIR", help="the output folder of capclean hardneg "
                         "(or its hardneg/ folder)")
    posrank.add_argument("--scores", required=True, metavar="FILE",
                         help="the model's scores: Parquet or CSV with columns video_id, text_id, score")
    posrank.add_argument("--json", metavar="FILE", help="also write the figures to this JSON file")
    posrank.add_argument("--report", metavar="FILE", help="also write the hard-negative report with this model's "
                         "PoSRank to this HTML file")
    fire = commands.add_parser("fire", help="Correct@K and mAP of ranked predictions with the original and extra "
                               "(FIRE) labels; two models' overlap and the bootstrap")
    fire.add_argument("--predictions", required=True, metavar="FILE",
                      help="Parquet or CSV with columns sen_id, video_id, rank, score (and optionally caption)")
    fire.add_argument("--predictions-b", metavar="FILE", help="a second model's predictions, to compare with")
    fire.add_argument("--labels", required=True, metavar="FILE",
                      help="Parquet or CSV with columns query, video, label, source; or FIRE's released JSON")
    fire.add_argument("--captions", metavar="RUN_OR_RAW",
                      help="a capclean output or raw MSR-VTT: each query's caption (length bins, text queries)")
    fire.add_argument("--out", metavar="DIR", help="also write the figures to DIR/fire.json")
    fire.add_argument("--report", metavar="FILE", help="also write the figures as a self-contained HTML page")
    fire.add_argument("--model", metavar="NAME", help="the model of --predictions as the label sources name it "
                      "(for the labels from other models' pools only)")
    fire.add_argument("--model-b", metavar="NAME", help="the same for --predictions-b")
    fire.add_argument("--depth", type=int, default=20, help="ranks scored per query (default: %(default)s, as FIRE)")
    fire.add_argument("--ap-normaliser", default="retrieved", choices=["retrieved", "labelled"],
                      help="AP divided by the relevant videos retrieved within the depth (FIRE's code) or by "
                      "all labelled relevant (default: %(default)s)")
    fire.add_argument("--rbo-p", type=float, default=0.9, help="rank-biased overlap's persistence (default: %(default)s)")
    fire.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples (default: %(default)s)")
    fire.add_argument("--seed", type=int, default=0, help="bootstrap seed (default: %(default)s)")
    ndcg = commands.add_parser("ndcg", help="nDCG per proxy (and mAP) of a model's scores, or of the random or "
                               "oracle ranking, against the graded relevance of `capclean relevance`")
    ndcg.add_argument("--relevance", required=True, metavar="DIR", help="the output folder of capclean relevance")
    ndcg.add_argument("--scores", required=True, metavar="FILE", help="the model's scores: Parquet or CSV with columns "
                      "sen_id, video_id, score, or .npz with scores (captions x videos), sen_ids, video_ids; or "
                      "'random' (the exact expected value) or 'oracle' (ranked by the relevance itself)")
    ndcg.add_argument("--captions", metavar="RUN_OR_RAW", help="a capclean output or raw MSR-VTT, for each "
                      "caption's own video (mAP; default: the input the relevance output records)")
    ndcg.add_argument("--cutoff", choices=["relevant", "all", "within-relevant"], default="relevant",
                      help="relevant: a query's DCG stops at its number of relevant items (the authors' code); all: "
                      "the whole gallery; within-relevant: only the relevant items are ranked (default: %(default)s)")
    ndcg.add_argument("--json", metavar="FILE", help="also write the figures to this JSON file (a new file, or "
                      "one capclean ndcg wrote)")
    ndcg.add_argument("--report", metavar="FILE", help="also write the figures, the random baseline and the proxies' "
                      "agreement as a self-contained HTML page (a new file, or one capclean ndcg wrote)")
    ndcg.add_argument("--no-agreement", action="store_true", help="leave the proxies' agreement out of --report "
                      "(on the full test split it costs about 2 minutes and every proxy's relevance in memory at once)")
    export = commands.add_parser("export", help="write a run's captions in other formats")
    export.add_argument("run", help="output folder of a run")
    export.add_argument("--formats", default=",".join(EXPORT_NAMES), metavar="LIST",
                        help="comma-separated of msrvtt-json (reads the run's input), coco, hf (default: all)")
    export.add_argument("--input", metavar="PATH", help="the run's original annotations (for msrvtt-json; default: "
                        "the input the run's manifest.json records, if its files are unchanged)")
    for command in commands.choices.values():
        add_logging_arguments(command)
    return parser


def add_input_arguments(command, output_help):
    io = command.add_argument_group("input and output")
    io.add_argument("--input", required=True, metavar="PATH",
                    help="folder with the MSR-VTT annotation files (the two zips as distributed, or the JSON files), "
                         "or one MSR-VTT-format JSON file")
    io.add_argument("--output", required=True, metavar="DIR", help=output_help)
    io.add_argument("--overwrite", action="store_true",
                    help="replace the earlier capclean output at --output (never a folder capclean did not write)")
    profile = command.add_argument_group("configuration")
    profile.add_argument("--profile", default="default", choices=["default", "paper"],
                         help="'paper' reproduces the published cleaning exactly; 'default' is capclean's "
                              "recommended cleaning (default: %(default)s)")
    profile.add_argument("--config", metavar="FILE", help="YAML file laid over the profile (same sections as "
                         "pipelines/profiles/*.yaml)")
    profile.add_argument("--steps", metavar="LIST", help="comma-separated subset of "
                         f"{','.join(ALL_STEPS)} to run, always in that order (default: all)")
    spelling = command.add_argument_group("step II, spelling")
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


def add_hardneg_arguments(hardneg):
    from transforms.evaluation.pos import PARTS_OF_SPEECH

    parts = ",".join(PARTS_OF_SPEECH)
    add_evaluation_io_arguments(hardneg, "pos/, hardneg/ and stats.json")
    which = hardneg.add_argument_group("captions")
    which.add_argument("--split", default="test", help="the split whose captions get negatives (default: test; "
                       "'all' for every split)")
    which.add_argument("--videos", metavar="FILE", help="only these videos: a CSV with a video_id column (as "
                       "retrieval_splits/MSRVTT_JSFUSION_test.csv, the 1k-A test split) or one id a line")
    which.add_argument("--captions", choices=["all", "one"], default="all",
                       help="every caption of a video, or the one with the smallest sen_id (default: all)")
    method = hardneg.add_argument_group("negatives")
    method.add_argument("--k", type=int, default=20, help="negatives per caption, part of speech and level "
                        "(default: 20)")
    method.add_argument("--parts", default=parts, metavar="LIST", help=f"parts of speech (default: {parts})")
    method.add_argument("--levels", default="word", metavar="LIST", help="word (one word changed) and/or phrase "
                        "(two consecutive words) (default: word)")
    method.add_argument("--vocabulary-fallback", default=parts, metavar="LIST", help="parts whose negatives may be "
                        "random words of the captions' vocabulary when antonyms run out, or 'none' (default: all)")
    method.add_argument("--seed", type=int, default=0, help="seed of the random draws (default: 0)")


def add_overlap_arguments(overlap):
    add_evaluation_io_arguments(overlap, "overlap/, fn_candidates/, stats.json, report.html and manifest.json")
    which = overlap.add_argument_group("captions")
    which.add_argument("--queries", default="first-of-split:test", metavar="SPEC",
                       help="the query captions: split:NAME (every caption of the split), first-of-split:NAME "
                            "(the caption with the smallest sen_id of each video of it) or list:FILE (a CSV with "
                            "video_id and sentence columns, as retrieval_splits/MSRVTT_JSFUSION_test.csv: that "
                            "caption of each video; without sentence, each listed video's first caption) "
                            "(default: %(default)s)")
    which.add_argument("--train", default="splits:train,validate", metavar="SPEC",
                       help="the training side: splits:NAME,NAME or list:FILE (a CSV with a video_id column, as "
                            "retrieval_splits/MSRVTT_train.9k.csv, or one id a line) (default: %(default)s)")
    method = overlap.add_argument_group("false-negative candidates")
    method.add_argument("--fn-threshold", type=float, default=0.85, metavar="S",
                        help="a video of the queries' split is a candidate for a query when one of its captions "
                             "has step III similarity of at least S to it (default: %(default)s, step III's)")
    method.add_argument("--no-fn-candidates", action="store_true", help="skip the candidates (overlap/ only)")
    method.add_argument("--chunk-rows", type=int, metavar="N", help="training captions compared at once (default: "
                        "4 million similarities a chunk)")


def hardneg_settings(args):
    from transforms.evaluation.hardneg import LEVELS, HardnegSettings
    from transforms.evaluation.pos import PARTS_OF_SPEECH

    def names(flag, value, known):
        chosen = () if value == "none" else _comma_list(value) or ()
        unknown = [name for name in chosen if name not in known]
        if unknown:
            raise ConfigError(f"--{flag}: unknown {', '.join(unknown)}; choose from {', '.join(known)}")
        return chosen

    if args.k < 1:
        raise ConfigError(f"--k must be at least 1, not {args.k}")
    settings = HardnegSettings(k=args.k, parts=names("parts", args.parts, tuple(PARTS_OF_SPEECH)),
                               levels=names("levels", args.levels, LEVELS),
                               vocabulary_fallback=names("vocabulary-fallback", args.vocabulary_fallback,
                                                         tuple(PARTS_OF_SPEECH)),
                               seed=args.seed)
    if not settings.parts or not settings.levels:
        raise ConfigError("--parts and --levels must each name at least one")
    return settings


def add_step_arguments(clean):
    dedup = clean.add_argument_group("step III, near-duplicates")
    dedup.add_argument("-e", "--edit-threshold", type=int, metavar="E",
                       help="two words are equal when their Levenshtein distance is at most E (paper: 0)")
    dedup.add_argument("-s", "--similarity-threshold", type=float, metavar="S",
                       help="two captions are near-duplicates when their similarity is at least S (paper: 0.85)")
    runon = clean.add_argument_group("step IV, run-on captions")
    runon.add_argument("--runon-rule", choices=RUNON_RULES,
                       help="'truncate': cut captions longer than mean + K std words (paper); "
                            "'model': split run-on captions at the sentence boundaries a trained model finds")
    runon.add_argument("--runon-policy", metavar="POLICY",
                       help="model: keep the 'first' sentence, make each sentence a 'separate' caption, 'merge' the "
                            "sentences into one with 'and', or keep the caption 'whole' and only record its sentences "
                            "in runon/; one for every split, or per split: train=first,validate=first,test=merge")
    runon.add_argument("--runon-std-multiplier", type=float, metavar="K", help="K of the word limit (paper: 2)")
    runon.add_argument("--runon-splits", metavar="LIST", help="splits the rule applies to (paper: train,validate)")
    out = clean.add_argument_group("validation and files")
    out.add_argument("--allowed-characters", metavar="CHARS", help="characters a cleaned caption may hold")
    out.add_argument("--sen-ids-per-file", type=int, metavar="N", help="sen_id range each Parquet file covers")


def config_from_arguments(args):
    """The profile, the --config file over it, then every flag given (commands without a flag leave it alone)."""
    flag = lambda name: getattr(args, name, None)  # noqa: E731
    config = load_config(args.profile, args.config)
    config = override(config, "", steps=_comma_list(args.steps))
    config = override(config, "spelling", hunspell_dictionary=flag("hunspell_dictionary"),
                      custom_words=flag("custom_words"), british_to_american=flag("british_to_american"),
                      splits=flag("splits_mapping"), misspellings=flag("misspellings"), suggestion=flag("suggestion"),
                      vocabulary=_comma_list(flag("vocabulary")))
    config = override(config, "dedup", edit_threshold=flag("edit_threshold"),
                      similarity_threshold=flag("similarity_threshold"))
    config = override(config, "runon", rule=flag("runon_rule"), std_multiplier=flag("runon_std_multiplier"),
                      splits=_comma_list(flag("runon_splits")), policy=flag("runon_policy"))
    config = override(config, "validation", allowed_characters=flag("allowed_characters"))
    config = override(config, "output", sen_ids_per_file=flag("sen_ids_per_file"))
    # Run the steps in pipeline order whatever order the flag named them in.
    return override(config, "", steps=tuple(step for step in ALL_STEPS if step in config.steps))


def _comma_list(value):
    return tuple(item.strip() for item in value.split(",") if item.strip()) if value else None


def main(argv=None) -> int:
    """The command line; Ctrl-C at any point is one line and exit code 130."""
    with one_line_on_interrupt():
        try:
            return run_command(argv)
        except KeyboardInterrupt:
            print(INTERRUPTED, file=sys.stderr)
            return EXIT_INTERRUPTED


def run_command(argv=None) -> int:
    configure_logging()
    parser = build_parser()
    args, beam_args = parser.parse_known_args(argv)
    try:
        configure_logging(chosen_level(args))
    except ConfigError as error:
        print(f"capclean: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    beam_args = join_flag_values(beam_args)
    unknown = [arg for arg in beam_args if not arg.startswith("--")]
    if unknown or (beam_args and args.command in ("report", "export", "vocab", "posrank", "fire", "overlap",
                                                  "relevance", "ndcg")):
        print(f"capclean: unexpected arguments: {' '.join(beam_args)}", file=sys.stderr)
        return EXIT_USAGE
    try:
        if args.command == "report":
            return report_command(args)
        if args.command == "export":
            return export_command(args)
        if args.command == "vocab":
            return vocab_command(args)
        if args.command == "posrank":
            from pipelines.evaluation.posrank.command import posrank_command
            return posrank_command(args.negatives, args.scores, args.json, args.report)
        if args.command == "fire":
            from pipelines.evaluation.fire.command import fire_command
            return fire_command(args.predictions, args.labels, args.predictions_b, args.captions, args.out,
                                args.model, args.model_b, args.depth, args.ap_normaliser, args.rbo_p,
                                args.resamples, args.seed, args.report)
        if args.command == "ndcg":
            from pipelines.evaluation.ndcg.command import ndcg_command
            return ndcg_command(args.relevance, args.scores, args.json, args.cutoff, args.captions, args.report,
                                not args.no_agreement)
        if args.command == "overlap":
            return overlap_command(args)
        if args.command == "relevance":
            from pipelines.evaluation.relevance.run import relevance_command
            return relevance_command(args)
        if args.command == "hardneg":
            return hardneg_command(args, hardneg_settings(args), beam_args, own_flags(parser))
        config = config_from_arguments(args)
        if args.limit is not None and args.limit < 1:
            raise ConfigError(f"--limit must be at least 1, not {args.limit}")
        if args.command == "sweep":
            return sweep_command(args, config, beam_args, own_flags(parser))
        exports = _comma_list(args.export) or ()
        check_export_names(exports)
        return run_clean(args.input, args.output, config, beam_args, exports, args.overwrite, own_flags(parser),
                         limit=args.limit)
    except (ConfigError, CapcleanError) as error:
        print(f"capclean: error: {find_error_line(error) or error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(INTERRUPTED, file=sys.stderr)
        return EXIT_INTERRUPTED
    except (OSError, MemoryError) as error:
        print(f"capclean: error: {system_error_line(error)}", file=sys.stderr)
        return EXIT_USAGE


def system_error_line(error: BaseException) -> str:
    """One line for a failure of the system: a file that cannot be written, a full disk, no memory."""
    if isinstance(error, MemoryError):
        return "out of memory; give the run more memory, or fewer worker processes (--direct_num_workers)"
    where = f" ({error.filename})" if getattr(error, "filename", None) else ""
    return f"{error.strerror or error}{where}" if isinstance(error, OSError) else str(error)


def join_flag_values(beam_args: list) -> list:
    """`--runner DaskRunner` -> `--runner=DaskRunner`: a Beam flag may take its value as the next word."""
    joined = []
    for arg in beam_args:
        if joined and not arg.startswith("-") and joined[-1].startswith("--") and "=" not in joined[-1]:
            joined[-1] = f"{joined[-1]}={arg}"
        else:
            joined.append(arg)
    return joined


def check_export_names(names):
    unknown = [name for name in names if name not in EXPORT_NAMES]
    if unknown:
        raise ConfigError(f"unknown export {', '.join(unknown)}; exports: {', '.join(EXPORT_NAMES)}")


def own_flags(parser: argparse.ArgumentParser) -> list:
    """Every --flag of every capclean command."""
    commands = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    return sorted({flag for command in commands.choices.values() for action in command._actions
                   for flag in action.option_strings if flag.startswith("--")})


def run_clean(input_path, output_dir, config, beam_args, exports=(), overwrite=False, capclean_flags=(),
              limit=None) -> int:
    from pipelines.output.manifest import (Clock, build_manifest, busy_seconds, input_record, parquet_metadata,
                                    parquet_provenance, write_manifest)

    clock = Clock()
    # The input and the output are checked before Beam is loaded (seconds, and memory), so that
    # a refusal is immediate.
    sources = find_annotation_files(input_path, config.input.size_limits)
    check_target(Path(output_dir), [input_path], overwrite)
    from pipelines.runtime.runner import check_beam_flags, run_pipeline  # Beam is imported only when a pipeline runs

    check_beam_flags(beam_args, capclean_flags)
    output = Path(output_dir).resolve()
    started = time.monotonic()
    input_info = input_record(input_path, sources)
    metadata = parquet_metadata(parquet_provenance(config, input_info, limit))
    clock.phase("prepare")
    log.info("cleaning %s into %s (profile %s, steps %s%s)", input_path, output, config.profile,
             ",".join(config.steps), f", first {limit} videos" if limit is not None else "")
    with staging_for(output) as staging:
        with worker_errors_as_one_line():
            pipeline_result = run_pipeline(input_path, str(staging), config, beam_args, limit, metadata)
        clock.phase("pipeline")
        result = json.loads((staging / "validation" / "result.json").read_text())

        def manifest():
            return build_manifest("clean", input_info=input_info, beam_args=beam_args, config=config, limit=limit,
                                  stats=json.loads((staging / "stats.json").read_text()), validation=result,
                                  clock=clock, busy=busy_seconds(pipeline_result))
        if not result["success"]:
            write_manifest(staging, manifest())
            print(f"capclean: the output failed validation; it is left in {staging}:", file=sys.stderr)
            for failure in result["failures"]:
                print(f"  - {failure}", file=sys.stderr)
            return EXIT_VALIDATION_FAILED
        log.info("pipeline and validation done in %.0f s; writing the report", time.monotonic() - started)
        write_marker(staging, {"profile": config.profile})
        write_manifest(staging, manifest())  # the report reads it
        write_report_and_exports(staging, output, input_path, exports, clock)
        write_manifest(staging, manifest())  # again, with the report's and the exports' times
        put_in_place(staging, output, [input_path])
    stats = json.loads((output / "stats.json").read_text())
    print(format_summary(stats, time.monotonic() - started))
    print(f"  validation passed; output in {output}\n  report: {output / 'report.html'}, "
          f"Data Docs: {output / 'validation' / 'index.html'}")
    return 0


def write_report_and_exports(staging: Path, output: Path, input_path, exports, clock=None):
    """The report and the exports, written into the staging folder; the report names `output`.
    `clock`: the run's Clock, which times them."""
    from pipelines.cleaning.report import write_report

    write_report(str(staging), shown_as=str(output))
    if clock is not None:
        clock.phase("report")
    if exports:
        from pipelines.cleaning.exports import run_exports
        paths = run_exports(exports, str(staging), input_path)
        log.info("exported %s", ", ".join(str(Path(path).relative_to(staging)) for path in paths))
        if clock is not None:
            clock.phase("exports")


# A failure of the system that a worker raised, as the runner's wrapping text shows it.
WORKER_SYSTEM_ERROR = re.compile(r"\b(?:[A-Za-z]+Error): \[Errno (\d+)\] ([^\n'\"]*)|\bMemoryError\b")


class worker_errors_as_one_line:
    """Turn a capclean error, a failed write or a lack of memory raised on a worker (wrapped by the
    runner in its own exception and traceback) back into the error it was, for one line."""

    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        if error is None or isinstance(error, (CapcleanError, OSError, MemoryError)):
            return False
        if not isinstance(error, Exception):
            return False  # KeyboardInterrupt, SystemExit
        message = find_error_line(error)
        if message is not None:
            raise CapcleanError(message) from None
        system = WORKER_SYSTEM_ERROR.search(str(error))
        if system is None:
            return False
        if system.group(1) is None:
            raise MemoryError() from None
        raise OSError(int(system.group(1)), system.group(2).split(" [while running")[0].strip()) from None


def sweep_command(args, config, beam_args, capclean_flags=()) -> int:
    from pipelines.output.manifest import Clock, build_manifest, busy_seconds, input_record, write_manifest

    clock = Clock()
    sources = find_annotation_files(args.input, config.input.size_limits)
    output = Path(args.output)
    check_target(output, [args.input], args.overwrite)
    from pipelines.runtime.runner import build_and_run, check_beam_flags
    from pipelines.cleaning.sweep import PAPER_GRID, build_sweep, parse_grid

    try:
        grid = parse_grid(args.grid) if args.grid else PAPER_GRID
    except ValueError as error:
        raise ConfigError(str(error)) from None
    check_beam_flags(beam_args, capclean_flags)
    output = output.resolve()
    started = time.monotonic()
    input_info = input_record(args.input, sources)
    clock.phase("prepare")
    log.info("sweep of %d grid points on %s (steps before dedup: %s)", len(grid), args.input,
             ",".join(step for step in config.steps if step in ("normalize", "spelling")) or "none")
    with staging_for(output) as staging:
        with worker_errors_as_one_line():
            result = build_and_run(beam_args, lambda pipeline: build_sweep(pipeline, sources, str(staging), config,
                                                                           grid, args.limit))
        clock.phase("pipeline")
        write_marker(staging, {"command": "sweep", "profile": config.profile})
        rows = json.loads((staging / "sweep.json").read_text())
        write_manifest(staging, build_manifest(
            "sweep", input_info=input_info, beam_args=beam_args, config=config, limit=args.limit,
            settings={"grid": [list(point) for point in grid]}, stats={"sweep": rows}, clock=clock,
            busy=busy_seconds(result)))
        put_in_place(staging, output, [args.input])
    print(f"capclean sweep: done in {time.monotonic() - started:.1f} s, profile {config.profile}")
    print(f"  {'e':>3} {'s':>5} {'remaining':>10} {'removed':>8} {'videos':>7}")
    for row in rows:
        print(f"  {row['e']:>3} {row['s']:>5.2f} {row['remaining']:>10} {row['removed']:>8} {row['videos_touched']:>7}")
    print(f"  table: {output / 'sweep.csv'}, plot: {output / 'sweep.png'}")
    return 0


def hardneg_command(args, settings, beam_args, capclean_flags=()) -> int:
    from pipelines.output.manifest import Clock, busy_seconds

    clock = Clock()
    output, input_and_run = claim_output(args.input, args.output, args.overwrite)
    from pipelines.evaluation.caption_input import CaptionSelection, read_captions, read_video_ids, select_captions
    from pipelines.evaluation.evaluation_io import write_stats
    from pipelines.evaluation.hardneg.graph import build_hardneg, format_figures, hardneg_figures, write_empty_tables
    from pipelines.runtime.runner import build_and_run, check_beam_flags
    from transforms.evaluation.lexicon import default_wordnet_dir, open_wordnet

    check_beam_flags(beam_args, capclean_flags)
    open_wordnet(default_wordnet_dir())  # a missing WordNet is one line now, not a worker's traceback later
    selection = CaptionSelection(split=None if args.split == "all" else args.split,
                                 video_ids=read_video_ids(args.videos) if args.videos else None,
                                 one_per_video=args.captions == "one")
    videos = select_captions(read_captions(args.input), selection)
    if not videos:
        raise CapcleanError(f"no caption of {args.input} is in split {args.split}"
                            + (f" and in --videos {args.videos}" if args.videos else ""))
    started = time.monotonic()
    log.info("hard negatives of %d captions of %d videos into %s", sum(map(len, videos.values())), len(videos),
             output)
    clock.phase("prepare")
    with staging_for(output) as staging:
        with worker_errors_as_one_line():
            result = build_and_run(beam_args, lambda pipeline: build_hardneg(pipeline, videos, str(staging), settings,
                                                                             str(default_wordnet_dir())))
        clock.phase("pipeline")
        write_empty_tables(str(staging))
        figures = hardneg_figures(str(staging), settings)
        write_stats(staging, figures)
        from pipelines.evaluation.hardneg.page import write_hardneg_report
        write_hardneg_report(str(staging))  # it names no folder, so it can be written before the swap
        clock.phase("report")
        seal_output(staging, output, "hardneg", args.input, input_and_run, figures, clock,
                    settings={**figures["settings"], "split": args.split, "videos": args.videos,
                              "captions": args.captions},
                    beam_args=beam_args, busy=busy_seconds(result))
    print(f"capclean hardneg: done in {time.monotonic() - started:.1f} s; output in {output}")
    print(format_figures(figures))
    print(f"  report: {output / 'report.html'}")
    return 0


def overlap_command(args) -> int:
    from pipelines.output.manifest import Clock
    from pipelines.evaluation.overlap.run import QUERY_KINDS, TRAIN_KINDS, format_figures, parse_spec, run_overlap

    clock = Clock()
    queries = parse_spec("--queries", args.queries, QUERY_KINDS)
    train = parse_spec("--train", args.train, TRAIN_KINDS)
    if not 0.0 < args.fn_threshold <= 1.0:
        raise ConfigError(f"--fn-threshold must be in (0, 1], not {args.fn_threshold}")
    if args.chunk_rows is not None and args.chunk_rows < 1:
        raise ConfigError(f"--chunk-rows must be at least 1, not {args.chunk_rows}")
    for spec, flag in ((queries, "--queries"), (train, "--train")):
        if spec.kind == "list" and not Path(spec.value).is_file():
            raise CapcleanError(f"{flag} list:{spec.value}: no such file")
    if not Path(args.input).exists():
        raise CapcleanError(f"--input {args.input}: no such file or folder")
    output, input_and_run = claim_output(args.input, args.output, args.overwrite)
    started = time.monotonic()
    clock.phase("prepare")
    with staging_for(output) as staging:
        figures = run_overlap(args.input, queries, train, staging, None if args.no_fn_candidates else args.fn_threshold,
                              args.chunk_rows)
        clock.phase("overlap")
        from pipelines.evaluation.overlap.page import write_overlap_report
        write_overlap_report(staging)  # it names no folder, so it can be written before the swap
        clock.phase("report")
        seal_output(staging, output, "overlap", args.input, input_and_run, figures, clock)
    print(f"capclean overlap: done in {time.monotonic() - started:.1f} s; output in {output}")
    print(format_figures(figures))
    print(f"  report: {output / 'report.html'}")
    return 0


def report_command(args) -> int:
    from pipelines.cleaning.report import write_report

    from pipelines.output.page_files import check_page_target

    for folder in (args.run, args.other):
        if folder and not (Path(folder) / "stats.json").is_file():
            raise CapcleanError(f"{folder} is not a capclean output folder (no stats.json)")
    if args.to:
        check_page_target(args.to, "--to", CapcleanError, "report.html")
    path = write_report(args.run, args.other, args.to)
    print(f"capclean: report written to {path}")
    return 0


def vocab_command(args) -> int:
    from pipelines.cleaning.vocab import write_vocabulary_table

    rows = write_vocabulary_table(args.input, args.output, args.profile)
    print(f"capclean: {rows} rejected tokens written to {args.output}")
    return 0


def export_command(args) -> int:
    from pipelines.cleaning.exports import run_exports

    if not (Path(args.run) / "stats.json").is_file():
        raise CapcleanError(f"{args.run} is not a capclean output folder (no stats.json)")
    names = _comma_list(args.formats) or ()
    check_export_names(names)
    input_path = args.input
    if input_path is None and "msrvtt-json" in names:
        from pipelines.output.manifest import recorded_input
        input_path = recorded_input(args.run)  # checked: it exists, and its files have the sha256 recorded
        log.info("the run's input, from its manifest: %s", input_path)
    for path in run_exports(names, args.run, input_path):
        print(f"capclean: exported {path}")
    return 0


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
    if stats.get("partial"):
        limit = stats.get("limit") or {}
        lines.append(f"  partial: the first {limit.get('videos')} videos of {limit.get('videos_in_input')} (--limit)")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
