"""`capclean hardneg`: hard negatives of a split's captions, one word (or two) changed per part of speech
(docs/commands/hardneg.md). The Beam graph is graph.py, the page page.py, the method
transforms/evaluation/hardneg.py, the tables' schemas schemas/evaluation_tables.py."""
import logging
import time
from dataclasses import dataclass
from pathlib import Path

from pipelines.commands.arguments import (add_evaluation_io_arguments, add_split_and_videos_arguments,
                                          add_tags_argument, at_least, chosen_names)
from pipelines.commands.command import BeamOptions, Command
from transforms.errors import CapcleanError, ConfigError

log = logging.getLogger("capclean")


@dataclass(frozen=True)
class HardnegArgs:
    input: str
    output: str
    overwrite: bool
    split: str
    videos: str | None
    per_video: str
    k: int
    parts: str
    levels: str
    vocabulary_fallback: str
    seed: int
    beam: BeamOptions
    authors: str | None = None
    write_authors: bool = False
    tags: str | None = None


class Hardneg(Command):
    name = "hardneg"
    help = "hard negatives of a split's captions: one word (or two) changed per part of speech"
    Args = HardnegArgs
    takes_beam_options = True
    example = ("--input", "{run}", "--output", "{out}", "--per-video", "one", "--k", "3", "--write-authors")
    # --captions names a caption source (RUN_OR_RAW) in fire and ndcg: here it was which captions of a video.
    renamed = {"--captions": "--per-video"}

    def add_arguments(self, parser):
        from transforms.evaluation.pos import PARTS_OF_SPEECH

        parts = ",".join(PARTS_OF_SPEECH)
        add_evaluation_io_arguments(parser, "pos/, hardneg/, stats.json, report.html and manifest.json")
        which = parser.add_argument_group("captions")
        add_split_and_videos_arguments(which, "captions get negatives")
        which.add_argument("--per-video", choices=["all", "one"], default="all",
                           help="every caption of a video, or the one with the smallest sen_id (default: all)")
        add_tags_argument(which)
        method = parser.add_argument_group("negatives")
        method.add_argument("--k", type=int, default=20, help="negatives per caption, part of speech and level "
                            "(default: 20)")
        method.add_argument("--parts", default=parts, metavar="LIST", help=f"parts of speech (default: {parts})")
        method.add_argument("--levels", default="word", metavar="LIST", help="word (one word changed) and/or "
                            "phrase (two consecutive words) (default: word)")
        method.add_argument("--vocabulary-fallback", default=parts, metavar="LIST", help="parts whose negatives may "
                            "be random words of the captions' vocabulary when antonyms run out, or 'none' "
                            "(default: all)")
        method.add_argument("--seed", type=int, default=0, help="seed of the random draws (default: 0)")
        authors = parser.add_argument_group("the authors' format (Chen et al. 2024: JSON keyed video7960#7)")
        authors.add_argument("--authors", metavar="FILE_OR_DIR", help="read their negatives (a JSON file, or a "
                             "folder of them, one per part of speech) instead of making them; --input gives the "
                             "captions their keys number")
        authors.add_argument("--write-authors", action="store_true", help="also write the negatives in their "
                             "format, authors/ChangeNoun.json, ... in the output folder")

    def run(self, args: HardnegArgs) -> int:
        if args.authors:
            return run_authors_import(args)
        return run_hardneg(args, hardneg_settings(args))


def hardneg_settings(args: HardnegArgs):
    from transforms.evaluation.hardneg import LEVELS, HardnegSettings
    from transforms.evaluation.pos import PARTS_OF_SPEECH

    at_least("k", args.k, 1)
    parts = tuple(PARTS_OF_SPEECH)
    settings = HardnegSettings(k=args.k, parts=chosen_names("parts", args.parts, parts),
                               levels=chosen_names("levels", args.levels, LEVELS),
                               vocabulary_fallback=chosen_names("vocabulary-fallback", args.vocabulary_fallback, parts),
                               seed=args.seed)
    if not settings.parts or not settings.levels:
        raise ConfigError("--parts and --levels must each name at least one")
    return settings


def run_hardneg(args: HardnegArgs, settings) -> int:
    from pipelines.evaluation.evaluation_io import claim_output, seal_output
    from pipelines.output.folder import staging_for
    from pipelines.output.manifest import Clock, busy_seconds

    clock = Clock()
    output, input_and_run = claim_output(args.input, args.output, args.overwrite)
    from pipelines.evaluation.caption_input import CaptionSelection, read_caption_rows, read_video_ids, select_captions
    from pipelines.evaluation.evaluation_io import write_stats
    from pipelines.evaluation.hardneg.graph import build_hardneg, format_figures, hardneg_figures, write_empty_tables
    from pipelines.runtime.runner import build_and_run, check_beam_flags
    from pipelines.runtime.worker_errors import worker_errors_as_one_line
    from transforms.evaluation.lexicon import check_wordnet, default_wordnet_dir

    beam_args = list(args.beam.args)
    check_beam_flags(beam_args, args.beam.capclean_flags)
    check_wordnet(default_wordnet_dir())  # a missing WordNet is one line now, not a worker's traceback later
    if args.tags:
        from pipelines.evaluation.tags import check_tags_folder
        check_tags_folder(args.tags)
    selection = CaptionSelection(split=None if args.split == "all" else args.split,
                                 video_ids=read_video_ids(args.videos) if args.videos else None,
                                 one_per_video=args.per_video == "one", videos_file=args.videos)
    videos = select_captions(read_caption_rows(args.input), selection)
    if not videos:
        raise CapcleanError(f"no caption of {args.input} is in split {args.split}"
                            + (f" and in --videos {args.videos}" if args.videos else ""))
    known = {}
    if args.tags:
        from pipelines.evaluation.tags import read_known_tags
        known = read_known_tags(Path(args.tags), [caption for video in videos.values() for caption in video])
        log.info("tags of %d captions read from %s", len(known), args.tags)
    started = time.monotonic()
    log.info("hard negatives of %d captions of %d videos into %s", sum(map(len, videos.values())), len(videos),
             output)
    clock.phase("prepare")
    with staging_for(output) as staging:
        with worker_errors_as_one_line():
            result = build_and_run(beam_args, lambda pipeline: build_hardneg(pipeline, videos, str(staging), settings,
                                                                             str(default_wordnet_dir()), known))
        clock.phase("pipeline")
        write_empty_tables(str(staging))
        if args.write_authors:
            from pipelines.evaluation.hardneg.authors_files import captions_by_video, write_authors_files

            write_authors_files(staging, captions_by_video(read_caption_rows(args.input)))
        figures = hardneg_figures(str(staging), settings)
        write_stats(staging, figures)
        from pipelines.evaluation.hardneg.page import write_hardneg_report
        write_hardneg_report(str(staging))  # it names no folder, so it can be written before the swap
        clock.phase("report")
        # The tags' folder is provenance, not a setting of the method: recorded only when given.
        tags = {"tags": str(Path(args.tags).resolve())} if args.tags else {}
        seal_output(staging, output, "hardneg", args.input, input_and_run, figures, clock,
                    settings={**figures["settings"], "split": args.split, "videos": args.videos,
                              "per_video": args.per_video, **tags},
                    beam_args=beam_args, busy=busy_seconds(result))
    print(f"capclean hardneg: done in {time.monotonic() - started:.1f} s; output in {output}")
    print(format_figures(figures))
    print(f"  report: {output / 'report.html'}")
    return 0


def run_authors_import(args: HardnegArgs) -> int:
    """--authors: their negatives, keyed by the captions of --input, into hardneg/ (pos/ empty: nothing is
    tagged), stats.json and the manifest; no Beam, no report page."""
    from pipelines.evaluation.caption_input import read_caption_rows
    from pipelines.evaluation.evaluation_io import claim_output, seal_output, write_stats
    from pipelines.evaluation.hardneg.authors_files import (authors_figures, authors_files, captions_by_video,
                                                            read_authors_negatives, write_authors_files,
                                                            write_negative_table)
    from pipelines.evaluation.hardneg.graph import write_empty_tables
    from pipelines.output.folder import staging_for
    from pipelines.output.manifest import Clock

    if args.videos or args.split != "test" or args.per_video != "all" or args.tags:
        raise ConfigError("--authors reads their negatives as they are: --split, --videos, --per-video and --tags "
                          "do not apply")
    clock = Clock()
    output, input_and_run = claim_output(args.input, args.output, args.overwrite)
    files = authors_files(args.authors)
    captions_of = captions_by_video(read_caption_rows(args.input))
    rows = read_authors_negatives(args.authors, captions_of)
    if not rows:
        raise CapcleanError(f"--authors {args.authors}: no negatives")
    with staging_for(output) as staging:
        write_negative_table(rows, staging)
        write_empty_tables(str(staging))
        if args.write_authors:
            write_authors_files(staging, captions_of)
        figures = authors_figures(rows, args.authors, files)
        write_stats(staging, figures)
        seal_output(staging, output, "hardneg", args.input, input_and_run, figures, clock)
    print(f"capclean hardneg: {len(rows):,} negatives of {figures['captions']:,} captions read from {args.authors} "
          f"into {output}")
    for part, levels in figures["negatives"].items():
        for level, counts in levels.items():
            print(f"  {part:<12} {level:<7} {counts['total']:>10,}")
    return 0
