"""`capclean ndcg`: a model's retrieval scores, or a baseline, against the graded relevance of
`capclean relevance`: nDCG per proxy and direction, linear and exponential gain, and mAP
(docs/commands/ndcg.md). What it reads is inputs.py, its page page.py; the method transforms/evaluation/ndcg.py.
With --protocol the scores are a model's matrix in a protocol's order, read as `capclean evaluate` reads it."""
import logging
import time
from dataclasses import dataclass
from pathlib import Path

from pipelines.commands.arguments import add_figure_file_arguments, add_protocol_arguments
from pipelines.commands.command import FILES, Command

WRITTEN_BY = "capclean ndcg"  # the mark of a JSON file this command wrote (and may replace)

# How tied scores are ranked, said in every output (evaluate's nDCG ranks them the same way).
TIES = ("nDCG: tied items share their ranks' discounts (the mean over the tie's orders); mAP: a tie counts "
        "against the model")

@dataclass(frozen=True)
class NdcgArgs:
    relevance: str
    scores: str
    captions: str | None = None
    cutoff: str = "relevant"
    json: str | None = None
    report: str | None = None
    no_agreement: bool = False
    protocol: str | None = None
    videos: str | None = None
    sen_ids: str | None = None
    orientation: str | None = None


class Ndcg(Command):
    name = "ndcg"
    help = ("nDCG per proxy (and mAP) of a model's scores, or of the random or oracle ranking, against the graded "
            "relevance of `capclean relevance`")
    Args = NdcgArgs
    writes = FILES
    example = ("--relevance", "{relevance}", "--scores", "random", "--json", "{out}/ndcg.json", "--report",
               "{out}/ndcg.html")

    def add_arguments(self, parser):
        parser.add_argument("--relevance", required=True, metavar="DIR", help="the output folder of capclean "
                            "relevance")
        parser.add_argument("--scores", required=True, metavar="FILE", help="the model's scores: Parquet or CSV with "
                            "columns sen_id, video_id, score, or .npz with scores (captions x videos), sen_ids, "
                            "video_ids; or, with --protocol, its similarity matrix in the protocol's order (.npy, or "
                            ".npz of one array); or 'random' (the exact expected value) or 'oracle' (ranked by the "
                            "relevance itself)")
        parser.add_argument("--captions", metavar="RUN_OR_RAW", help="a capclean output or raw MSR-VTT, for each "
                            "caption's own video (mAP) and, with --protocol, its captions (full-test, custom) or what "
                            "1k-A's sentences are matched to (default: the input the relevance output records)")
        add_protocol_arguments(parser, required=False)
        parser.add_argument("--cutoff", choices=["relevant", "all", "within-relevant"], default="relevant",
                            help="relevant: a query's DCG stops at its number of relevant items (the authors' code); "
                            "all: the whole gallery; within-relevant: only the relevant items are ranked "
                            "(default: %(default)s)")
        add_figure_file_arguments(parser, "ndcg", "the figures, the random baseline and the proxies' agreement")
        parser.add_argument("--no-agreement", action="store_true", help="leave the proxies' agreement out of "
                            "--report (on the full test split it costs about 2 minutes and every proxy's relevance "
                            "in memory at once)")

    def run(self, args: NdcgArgs) -> int:
        from pipelines.evaluation.evaluation_io import check_figure_files, write_figure_files
        from pipelines.evaluation.ndcg.inputs import NdcgInputError
        from pipelines.evaluation.ndcg.page import write_ndcg_report

        check_protocol_flags(args)
        # Both targets are checked before the long part, so a refused one costs nothing.
        json_path, report_path = check_figure_files(args.json, args.report, WRITTEN_BY, NdcgInputError, "ndcg.html")
        figures = ndcg_figures(args, with_page=report_path is not None)
        write_figure_files(figures, json_path, report_path, write_ndcg_report)
        return 0


def check_protocol_flags(args: NdcgArgs) -> None:
    """The protocol's flags go with --protocol, and a matrix without ids needs it: one line, before any work."""
    from pipelines.evaluation.ndcg.inputs import BASELINES, NdcgInputError
    from pipelines.evaluation.ndcg.protocol import is_matrix_file

    if args.protocol:
        if args.orientation and args.scores in BASELINES:
            raise NdcgInputError(f"--orientation says which way a matrix in --scores is; --scores {args.scores} has "
                                 "none: leave it out")
        return
    given = [flag for flag, value in (("--videos", args.videos), ("--sen-ids", args.sen_ids),
                                      ("--orientation", args.orientation)) if value]
    if given:
        raise NdcgInputError(f"{given[0]} goes with --protocol 1k-A|full-test|custom: give --protocol, or leave "
                             f"{given[0]} out")
    if is_matrix_file(args.scores):
        raise NdcgInputError(f"--scores {args.scores} is a matrix without ids, its rows and columns in a protocol's "
                             "order: give --protocol 1k-A (with --videos, the JSFusion CSV), full-test or custom "
                             "(with --videos and --sen-ids), and --orientation if it is square")


def ndcg_figures(args: NdcgArgs, with_page: bool) -> dict:
    """nDCG of every proxy and mAP, printed; with the page, also the random baseline, the relevance's
    settings and the proxies' agreement."""
    from pipelines.evaluation.ndcg.inputs import relevance_gallery, relevance_settings
    from pipelines.evaluation.ndcg.protocol import protocol_gallery
    from transforms.evaluation.agreement import proxy_agreement
    from transforms.evaluation.ndcg import NdcgOptions, map_table, ndcg_table, queries

    options = NdcgOptions(cutoff=args.cutoff)
    if args.protocol:
        scored = protocol_gallery(args.relevance, args.scores, args.captions,
                                  {"protocol": args.protocol, "videos": args.videos, "sen_ids": args.sen_ids,
                                   "orientation": args.orientation})
    else:
        scored = relevance_gallery(args.relevance, args.scores, args.captions)
    scores = args.scores
    figures = {"written_by": WRITTEN_BY, "relevance": str(Path(args.relevance).resolve()), "scores": scores,
               "cutoff": args.cutoff, "ties": TIES, "videos": scored.videos, "captions": scored.captions, "proxies": {}}
    if scored.protocol:
        figures["protocol"] = scored.protocol
    # The page shows the random baseline beside a model's (or the oracle's) figures: its closed form is one
    # pass over a matrix already read. The agreement needs every proxy's matrix at once, so only then are they kept.
    with_random = with_page and scores != "random"
    kept = {}
    progress = logging.getLogger("capclean.progress")  # silenced by --quiet, as every command's progress
    started = time.monotonic()
    for number, (proxy, relevance) in enumerate(scored.relevances, start=1):
        figures["proxies"][proxy] = ndcg_table(relevance, scored.ranking, options)
        progress.info("ndcg: proxy %s done, %d of %d proxies (%s videos x %s captions each), %.0f s", proxy, number,
                      scored.proxies, f"{scored.videos:,}", f"{scored.captions:,}", time.monotonic() - started)
        if with_random:
            figures.setdefault("random", {})[proxy] = ndcg_table(relevance, "random", options)
        if with_page and not args.no_agreement:
            kept[proxy] = queries(relevance, "v2t")  # one row per video: the paper's Fig. 8
    own = scored.own_rows
    if scores != "oracle" and own is not None:
        figures["map"] = map_table(own, scored.videos, scored.ranking, options)
    if with_random and own is not None:
        figures["map_random"] = map_table(own, scored.videos, "random", options)
    print(format_ndcg(figures))
    if with_page:
        figures["settings"] = relevance_settings(args.relevance)
        figures["agreement"] = proxy_agreement(kept) if not args.no_agreement else None
    return figures


def format_ndcg(figures: dict) -> str:
    """The table: one row per proxy and gain, nDCG of t2v, v2t and their mean, in percent."""
    lines = [f"capclean ndcg: {figures['scores']} on {gallery_text(figures)}; cut-off: {figures['cutoff']}",
             f"  {'proxy':<6}{'gain':<13}{'t2v':>7}{'v2t':>7}{'mean':>7}"]
    for proxy, table in figures["proxies"].items():
        for gain in table["mean"]:
            lines.append(f"  {proxy:<6}{gain:<13}" + "".join(f"{100 * table[key][gain]:>7.1f}"
                                                            for key in ("t2v", "v2t", "mean")))
    if "map" in figures:
        row = figures["map"]
        lines.append(f"  mAP (own captions): t2v {100 * row['t2v']:.1f}  v2t {100 * row['v2t']:.1f}  "
                     f"mean {100 * row['mean']:.1f}")
    elif figures["scores"] != "oracle":
        lines.append("  mAP: left out (no caption's own video: give --captions)")
    lines.append(f"  ties: {figures['ties']}")
    return "\n".join(lines)


def gallery_text(figures: dict) -> str:
    """'2 videos x 3 captions', or with a protocol '1k-A, 1,000 texts x 1,000 videos (texts-x-videos)'."""
    protocol = figures.get("protocol")
    if not protocol:
        return f"{figures['videos']:,} videos x {figures['captions']:,} captions"
    layout = f" ({protocol['scores']})" if protocol["scores"] else ""
    return f"{protocol['name']}, {figures['captions']:,} texts x {figures['videos']:,} videos{layout}"
