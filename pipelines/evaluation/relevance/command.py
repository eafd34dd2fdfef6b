"""`capclean relevance`: graded relevance of every (video, caption) pair (docs/commands/relevance.md).
The run is run.py (met: met.py), the method transforms/evaluation/relevance.py."""
import time
from dataclasses import dataclass
from pathlib import Path

from pipelines.commands.arguments import (add_evaluation_io_arguments, add_split_and_videos_arguments,
                                          add_tags_argument, at_least)
from pipelines.commands.command import Command
from transforms.errors import CapcleanError, ConfigError


@dataclass(frozen=True)
class RelevanceArgs:
    input: str
    output: str
    overwrite: bool
    split: str
    videos: str | None
    proxies: str
    met_kernel: str
    met_queries: int | None
    met_seed: int
    met_pairs: str | None
    video_threshold: float
    video_sets: str
    stop_list: str
    tokens: str
    keep_case: bool
    lemmas: bool
    pos_weights: str
    aux_as_verbs: bool
    syn_video_senses: str
    own_captions: str
    chunk_captions: int | None
    tags: str | None


class Relevance(Command):
    name = "relevance"
    help = "graded relevance of every (video, caption) pair: the bow, pos and syn proxies (met on request)"
    Args = RelevanceArgs
    example = ("--input", "{run}", "--output", "{out}", "--proxies", "bow,pos")

    def add_arguments(self, parser):
        add_relevance_arguments(parser)

    def run(self, args: RelevanceArgs) -> int:
        return run_relevance_command(args)


def add_relevance_arguments(command) -> None:
    from transforms.evaluation.relevance_reading import PROXIES, STOP_LISTS, TOKENIZATIONS, VIDEO_SETS, RelevanceReading

    default = RelevanceReading()
    add_evaluation_io_arguments(command, "relevance/, stats.json and manifest.json")
    which = command.add_argument_group("captions")
    add_split_and_videos_arguments(which, "videos and captions are paired")
    add_tags_argument(which)
    which.add_argument("--proxies", default=",".join(PROXIES), metavar="LIST",
                       help=f"comma-separated of {','.join(PROXIES + ('met',))} (default: %(default)s)")
    add_met_arguments(command)
    reading = command.add_argument_group("reading of the construction (defaults: the paper's, as docs/commands/"
                                         "relevance.md reads it)")
    reading.add_argument("--video-threshold", type=float, default=default.video_threshold, metavar="SHARE",
                         help="a video's set: the words in at least this share of its captions (default: "
                              "%(default)s; 0: the union of its captions)")
    reading.add_argument("--video-sets", choices=VIDEO_SETS, default=default.video_sets,
                         help="threshold: one set per video; caption-mean / caption-max: the mean / best IoU "
                              "with each of the video's captions (default: %(default)s)")
    reading.add_argument("--stop-list", choices=STOP_LISTS, default=default.stop_list,
                         help="bow's stop words: spaCy's English list or none (default: %(default)s)")
    reading.add_argument("--tokens", choices=TOKENIZATIONS, default=default.tokens,
                         help="bow's words: spaCy's tokens, punctuation dropped, or the caption split at spaces "
                              "as the authors' script (default: %(default)s)")
    reading.add_argument("--keep-case", action="store_true", help="compare words as written (the authors' "
                         "script) instead of lower-cased")
    reading.add_argument("--lemmas", action="store_true", help="bow and pos compare spaCy's lemmas, not the words")
    reading.add_argument("--pos-weights", default="verb=0.5,noun=0.5", metavar="LIST",
                         help="pos and syn: the parts of speech and their weights (default: %(default)s)")
    reading.add_argument("--aux-as-verbs", action="store_true", help="count auxiliaries (is, are) as verbs, as "
                         "spaCy 2 tagged them")
    reading.add_argument("--syn-video-senses", choices=["captions", "video-context"], default=default.syn_video_senses,
                         help="syn: a video's synsets are its captions' that pass the threshold, or its words' "
                              "that pass it, each given a Lesk sense in all its captions (default: %(default)s)")
    reading.add_argument("--own-captions", choices=["one", "iou"], default="one",
                         help="a video's own captions: relevance 1 (the paper) or their IoU (default: %(default)s)")
    command.add_argument("--chunk-captions", type=int, metavar="N", help="captions paired with every video at "
                         "once (default: about 20 million pairs a chunk)")


# transforms/evaluation/met_relevance.py's KERNELS, written out: importing it would load NLTK for every command.
MET_KERNELS = ("max", "mean", "match")


def add_met_arguments(command) -> None:
    met = command.add_argument_group("met (METEOR; docs/evaluation/meteor.md)")
    met.add_argument("--met-kernel", choices=MET_KERNELS, default="max", help="a caption against a video's "
                     "captions: the best METEOR (NLTK's several references), the mean, or the match kernel "
                     "(default: %(default)s)")
    met.add_argument("--met-queries", type=int, metavar="N", help="a seeded sample of N captions, each against "
                     "every video (default: every caption; the test split takes about 30 CPU minutes)")
    met.add_argument("--met-seed", type=int, default=0, help="the sample's seed (default: %(default)s)")
    met.add_argument("--met-pairs", metavar="FILE", help="only these pairs: a CSV with video_id and sen_id columns, "
                     "such as a model's top-k")


def reading_from_arguments(args):
    from transforms.evaluation.relevance_reading import RelevanceReading, parts_from_weights

    return RelevanceReading(video_threshold=args.video_threshold, video_sets=args.video_sets,
                            stop_list=args.stop_list, tokens=args.tokens, lowercase=not args.keep_case,
                            lemmas=args.lemmas, parts=parts_from_weights(args.pos_weights, args.aux_as_verbs),
                            own_captions_one=args.own_captions == "one", syn_video_senses=args.syn_video_senses)


def run_from_arguments(args):
    from pipelines.evaluation.relevance.run import RelevanceRun
    from transforms.evaluation.relevance_reading import PROXIES

    proxies = tuple(dict.fromkeys(name.strip() for name in args.proxies.split(",") if name.strip()))
    unknown = [name for name in proxies if name not in PROXIES + ("met",)]
    if unknown or not proxies:
        raise ConfigError(f"--proxies {args.proxies}: choose from {', '.join(PROXIES + ('met',))}")
    at_least("met-queries", args.met_queries, 1)
    at_least("chunk-captions", args.chunk_captions, 1)
    if not Path(args.input).exists():
        raise CapcleanError(f"--input {args.input}: no such file or folder")
    if args.tags:
        from pipelines.evaluation.tags import check_tags_folder
        check_tags_folder(args.tags)
    return RelevanceRun(args.input, None if args.split == "all" else args.split, args.videos, proxies,
                        args.chunk_captions, args.met_kernel, args.met_queries, args.met_seed, args.met_pairs,
                        args.tags)


def run_relevance_command(args: RelevanceArgs) -> int:
    """The command: checks, then the run in a staging folder swapped in at the end (as `capclean overlap`)."""
    from pipelines.evaluation.evaluation_io import claim_output, seal_output
    from pipelines.output.manifest import Clock
    from pipelines.evaluation.relevance.run import format_figures, run_relevance
    from pipelines.output.folder import staging_for

    clock = Clock()
    reading = reading_from_arguments(args)
    run = run_from_arguments(args)
    output, input_and_run = claim_output(args.input, args.output, args.overwrite)
    started = time.monotonic()
    clock.phase("prepare")
    with staging_for(output) as staging:
        figures = run_relevance(run, reading, staging)
        clock.phase("relevance")
        # The tags' folder is provenance, not a figure: in the manifest only, so stats.json is the same either way.
        settings = {**figures["settings"], "tags": str(Path(args.tags).resolve())} if args.tags else None
        seal_output(staging, output, "relevance", args.input, input_and_run, figures, clock, settings=settings)
    print(f"capclean relevance: done in {time.monotonic() - started:.1f} s; output in {output}")
    print(format_figures(figures))
    return 0
