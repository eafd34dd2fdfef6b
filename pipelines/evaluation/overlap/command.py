"""`capclean overlap`: train/test overlap of query captions and false-negative candidates
(docs/commands/overlap.md). The run is run.py, the page page.py, the method transforms/evaluation/overlap.py."""
import time
from dataclasses import dataclass
from pathlib import Path

from pipelines.commands.arguments import add_evaluation_io_arguments, add_protocol_arguments, at_least
from pipelines.commands.command import Command
from transforms.errors import CapcleanError, ConfigError


@dataclass(frozen=True)
class OverlapArgs:
    input: str
    output: str
    overwrite: bool
    queries: str | None
    train: str
    fn_threshold: float
    no_fn_candidates: bool
    chunk_rows: int | None
    protocol: str | None = None
    videos: str | None = None
    sen_ids: str | None = None


class Overlap(Command):
    name = "overlap"
    help = "train/test overlap of query captions (tf-idf, exact leaks) and false-negative candidates"
    Args = OverlapArgs
    example = ("--input", "{run}", "--output", "{out}")

    def add_arguments(self, parser):
        add_evaluation_io_arguments(parser, "overlap/, fn_candidates/, labelling_sheet.csv, stats.json, report.html "
                                    "and manifest.json")
        which = parser.add_argument_group("captions")
        which.add_argument("--queries", metavar="SPEC",
                           help="the query captions: split:NAME (every caption of the split), first-of-split:NAME "
                                "(the caption with the smallest sen_id of each video of it) or list:FILE (a CSV with "
                                "video_id and sentence columns, as retrieval_splits/MSRVTT_JSFUSION_test.csv: that "
                                "caption of each video; without sentence, each listed video's first caption) "
                                "(default: first-of-split:test)")
        which.add_argument("--train", default="splits:train,validate", metavar="SPEC",
                           help="the training side: splits:NAME,NAME or list:FILE (a CSV with a video_id column, as "
                                "retrieval_splits/MSRVTT_train.9k.csv, or one id a line) (default: %(default)s)")
        add_protocol_arguments(which, required=False, orientation=False)
        method = parser.add_argument_group("false-negative candidates")
        method.add_argument("--fn-threshold", type=float, default=0.85, metavar="S",
                            help="a video of the queries' split is a candidate for a query when one of its captions "
                                 "has step III similarity of at least S to it (default: %(default)s, step III's)")
        method.add_argument("--no-fn-candidates", action="store_true", help="skip the candidates (overlap/ only)")
        method.add_argument("--chunk-rows", type=int, metavar="N", help="training captions compared at once "
                            "(default: 4 million similarities a chunk)")

    def run(self, args: OverlapArgs) -> int:
        from pipelines.evaluation.evaluation_io import claim_output, seal_output
        from pipelines.evaluation.overlap.page import write_overlap_report
        from pipelines.evaluation.overlap.run import (DEFAULT_QUERIES, QUERY_KINDS, TRAIN_KINDS, format_figures,
                                                      parse_spec, run_overlap)
        from pipelines.output.folder import staging_for
        from pipelines.output.manifest import Clock

        clock = Clock()
        if args.protocol and args.queries:
            raise ConfigError("--queries and --protocol both name the queries: give one")
        if (args.videos or args.sen_ids) and not args.protocol:
            raise ConfigError("--videos and --sen-ids name a protocol's videos and captions: give --protocol too")
        queries = parse_spec("--queries", args.queries or DEFAULT_QUERIES, QUERY_KINDS)
        train = parse_spec("--train", args.train, TRAIN_KINDS)
        if not 0.0 < args.fn_threshold <= 1.0:
            raise ConfigError(f"--fn-threshold must be in (0, 1], not {args.fn_threshold}")
        at_least("chunk-rows", args.chunk_rows, 1)
        for spec, flag in ((queries, "--queries"), (train, "--train")):
            if spec.kind == "list" and not Path(spec.value).is_file():
                raise CapcleanError(f"{flag} list:{spec.value}: no such file")
        if not Path(args.input).exists():
            raise CapcleanError(f"--input {args.input}: no such file or folder")
        output, input_and_run = claim_output(args.input, args.output, args.overwrite)
        started = time.monotonic()
        protocol = read_gallery(args)
        clock.phase("prepare")
        with staging_for(output) as staging:
            figures = run_overlap(args.input, queries, train, staging,
                                  None if args.no_fn_candidates else args.fn_threshold, args.chunk_rows, protocol,
                                  protocol_files(args))
            clock.phase("overlap")
            write_overlap_report(staging)  # it names no folder, so it can be written before the swap
            clock.phase("report")
            seal_output(staging, output, "overlap", args.input, input_and_run, figures, clock)
        print(f"capclean overlap: done in {time.monotonic() - started:.1f} s; output in {output}")
        print(format_figures(figures))
        print(f"  report: {output / 'report.html'}")
        return 0


def read_gallery(args: OverlapArgs):
    """The protocol --protocol names (its texts the queries, its videos the candidates' gallery), or None."""
    if not args.protocol:
        return None
    from pipelines.evaluation.protocol_files import read_protocol

    return read_protocol(args.protocol, args.input, args.videos, args.sen_ids)


def protocol_files(args: OverlapArgs) -> dict | None:
    """{flag: path as given} of the protocol's lists, for the settings."""
    files = {flag: path for flag, path in (("--videos", args.videos), ("--sen-ids", args.sen_ids)) if path}
    return files if args.protocol else None
