"""`capclean fire`: a model's ranked predictions, or its score matrix on a protocol, scored with the original
and the extra (FIRE) labels (docs/commands/fire.md). What it reads is inputs.py (a matrix and its protocol as
`capclean evaluate` reads them, the labels pipelines/evaluation/label_files.py), its figures figures.py, its
page page.py; the method transforms/evaluation/fire.py."""
from dataclasses import dataclass
from pathlib import Path

from pipelines.commands.arguments import add_protocol_arguments, add_skip_unmatched_labels_argument
from pipelines.commands.command import Command

# A ranked table's ranks are taken as they are (a --scores matrix's ties: transforms/evaluation/fire.py).
TABLE_TIES = "the ranks as --predictions gives them"


@dataclass(frozen=True)
class FireArgs:
    labels: str
    predictions: str | None = None
    scores: str | None = None
    predictions_b: str | None = None
    scores_b: str | None = None
    protocol: str | None = None
    videos: str | None = None
    sen_ids: str | None = None
    orientation: str | None = None
    skip_unmatched_labels: bool = False
    captions: str | None = None
    output: str | None = None
    overwrite: bool = False
    report: str | None = None
    model: str | None = None
    model_b: str | None = None
    depth: int = 20
    ap_normaliser: str = "retrieved"
    rbo_p: float = 0.9
    resamples: int = 1000
    seed: int = 0


class Fire(Command):
    name = "fire"
    help = "Correct@K and mAP of ranked predictions with the original and extra (FIRE) labels; two models' " \
           "overlap and the bootstrap"
    Args = FireArgs
    example = ("--predictions", "{predictions}", "--labels", "{labels}", "--captions", "{run}", "--output", "{out}",
               "--resamples", "20")
    renamed = {"--out": "--output"}

    def add_arguments(self, parser):
        model_a = parser.add_mutually_exclusive_group(required=True)
        model_a.add_argument("--predictions", metavar="FILE",
                             help="Parquet or CSV with columns sen_id, video_id, rank, score (and optionally caption)")
        model_a.add_argument("--scores", metavar="FILE", help="or the model's similarity matrix in --protocol's "
                             "order, as capclean evaluate reads it (.npy, .npz)")
        model_b = parser.add_mutually_exclusive_group()
        model_b.add_argument("--predictions-b", metavar="FILE", help="a second model's predictions, to compare with")
        model_b.add_argument("--scores-b", metavar="FILE", help="a second model's similarity matrix, to compare with")
        parser.add_argument("--labels", required=True, metavar="FILE",
                            help="Parquet or CSV with columns query, video, label, source (capclean overlap's "
                            "labelling sheet is one); or FIRE's released JSON")
        add_protocol_arguments(parser, required=False)
        add_skip_unmatched_labels_argument(parser)
        parser.add_argument("--captions", metavar="RUN_OR_RAW",
                            help="a capclean output or raw MSR-VTT: each query's caption (length bins, text queries); "
                            "with --protocol, what its texts are matched to")
        parser.add_argument("--output", metavar="DIR", help="also write the figures to DIR/fire.json, with "
                            "manifest.json: a new or empty folder, or (with --overwrite) an earlier capclean output")
        parser.add_argument("--overwrite", action="store_true", help="replace the earlier capclean output at --output")
        parser.add_argument("--report", metavar="FILE", help="also write the figures as a self-contained HTML page "
                            "(a new file, or a page capclean wrote)")
        parser.add_argument("--model", metavar="NAME", help="the model of --predictions as the label sources name "
                            "it (for the labels from other models' pools only)")
        parser.add_argument("--model-b", metavar="NAME", help="the same for --predictions-b")
        parser.add_argument("--depth", type=int, default=20, help="ranks scored per query (default: %(default)s, "
                            "as FIRE)")
        parser.add_argument("--ap-normaliser", default="retrieved", choices=["retrieved", "labelled"],
                            help="AP divided by the relevant videos retrieved within the depth (FIRE's code) or by "
                            "all labelled relevant (default: %(default)s)")
        parser.add_argument("--rbo-p", type=float, default=0.9, help="rank-biased overlap's persistence "
                            "(default: %(default)s)")
        parser.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples (default: %(default)s)")
        parser.add_argument("--seed", type=int, default=0, help="bootstrap seed (default: %(default)s)")

    def run(self, args: FireArgs) -> int:
        from pipelines.evaluation.fire.figures import format_fire
        from pipelines.evaluation.fire.inputs import FireInputError
        from pipelines.output.folder import check_target
        from pipelines.output.page_files import check_page_target

        # Both targets are checked before the long part, so a refused one costs nothing.
        if args.output:
            check_target(Path(args.output), inputs_of(args), args.overwrite)
        if args.report:
            check_page_target(args.report, "--report", FireInputError, "fire.html")
        check_settings(args)
        figures = fire_figures(args)
        print(format_fire(figures))
        if args.output:
            write_output(args, figures)
        if args.report:
            from pipelines.evaluation.fire.page import write_fire_report
            print(f"capclean: report written to {write_fire_report(figures, args.report)}")
        return 0


def inputs_of(args: FireArgs) -> list:
    return [path for path in (args.predictions, args.scores, args.predictions_b, args.scores_b, args.labels,
                              args.captions, args.videos, args.sen_ids) if path]


def check_settings(args: FireArgs) -> None:
    from pipelines.evaluation.fire.inputs import FireInputError

    if args.depth < 1:
        raise FireInputError(f"--depth must be at least 1, not {args.depth}")
    if not 0 < args.rbo_p < 1:
        raise FireInputError(f"--rbo-p must be between 0 and 1, not {args.rbo_p}")
    if args.resamples < 1:
        raise FireInputError(f"--resamples must be at least 1, not {args.resamples}")
    if (args.scores or args.scores_b) and not args.protocol:
        raise FireInputError("--scores is a matrix in a protocol's order: give --protocol (and --videos, "
                             "--sen-ids or --captions as it needs)")
    if args.predictions_b and args.scores or args.scores_b and args.predictions:
        raise FireInputError("compare two models of one kind: --predictions with --predictions-b, or --scores "
                             "with --scores-b")


def fire_figures(args: FireArgs) -> dict:
    """Every figure of one model (and of two, compared), from the files the arguments name."""
    from pipelines.evaluation.protocol_files import read_protocol
    from pipelines.evaluation.fire.figures import bootstrap_figures, model_figures, ranked
    from pipelines.evaluation.fire.inputs import FireInputError
    from transforms.evaluation.fire import MATRIX_TIES, mean_overlaps

    protocol = (read_protocol(args.protocol, args.captions, args.videos, args.sen_ids, "--captions")
                if args.protocol else None)
    name_a, name_b = args.predictions or args.scores, args.predictions_b or args.scores_b
    model_a, texts = read_model(args.predictions, args.scores, args, protocol)
    model_b, texts_b = read_model(args.predictions_b, args.scores_b, args, protocol) if name_b else ({}, {})
    keys_a, keys_b = query_keys(model_a), query_keys(model_b)
    texts = {**caption_texts_of(args, keys_a | keys_b), **texts_b, **texts}
    originals, extra, skipped = gold_of(args, protocol, model_a, keys_a | keys_b, texts)
    normaliser, depth = args.ap_normaliser, args.depth
    figures = {"depth": depth, "ap_normaliser": normaliser, "ties": MATRIX_TIES if args.scores else TABLE_TIES,
               "unmatched_labels": skipped,
               "a": model_figures(name_a, model_a, originals, extra, args.model, normaliser, texts, depth)}
    if name_b:
        figures["b"] = model_figures(name_b, model_b, originals, extra, args.model_b, normaliser, texts, depth)
        if not keys_a & keys_b:
            raise FireInputError(f"{name_a} and {name_b} rank no query (sen_id) in common: there is nothing to "
                                 "compare")
        figures["overlap"] = mean_overlaps(ranked(model_a, originals, depth), ranked(model_b, originals, depth), 10,
                                           args.rbo_p)
        figures["bootstrap"] = bootstrap_figures(model_a, model_b, originals, extra, normaliser, args.resamples,
                                                 args.seed, depth)
    return figures


def gold_of(args: FireArgs, protocol, model_a, keys: set, texts: dict) -> tuple:
    """({key: original positives}, [(key, video, sources) of extra positives], labels left out): the labels
    matched to the queries; a label that would be lost is an error unless --skip-unmatched-labels."""
    from pipelines.evaluation.fire.inputs import FireInputError, own_videos
    from pipelines.evaluation.label_files import gold_from_matches, read_labels, refuse_unmatched
    from transforms.evaluation.fire import match_labels

    matched, unmatched = match_labels(read_labels(args.labels), label_queries(protocol, args, keys, texts),
                                      protocol.video_ids if protocol else None)
    skipped = refuse_unmatched(unmatched, args.labels, args.skip_unmatched_labels, matching_hint(args, unmatched))
    originals, extra = gold_from_matches(matched, keys)
    if args.scores:  # the protocol's ground truth: each row's own video, as FIRE's gold set starts
        for key, query in zip(model_a.keys, protocol.queries):
            originals[key].add(query.video_id)
    if not any(originals.values()) and args.captions:
        originals = own_videos(args.captions, keys)
    if not any(originals.values()):
        raise FireInputError(f"{args.labels}: no original positive (source \"original\") for any predicted query, "
                             "and no --captions to take each query's own video from")
    return originals, extra, skipped


def read_model(predictions: str | None, scores: str | None, args: FireArgs, protocol) -> tuple:
    """(a ranked table's {sen_id: ranking} or a ScoreMatrix, {query key: its text}) of one model. A matrix's
    rows are keyed by their place in the protocol ("0", "1", ...) and their text is the protocol's."""
    from pipelines.evaluation.evaluate.scores import read_scores
    from pipelines.evaluation.fire.inputs import read_predictions
    from transforms.evaluation.fire import ScoreMatrix

    if predictions:
        return read_predictions(predictions, args.depth)
    matrix, _ = read_scores(scores, args.orientation, protocol)
    keys = tuple(str(row) for row in range(len(protocol.queries)))
    return ScoreMatrix(matrix, keys, protocol.video_ids), dict(zip(keys, (query.text for query in protocol.queries)))


def query_keys(model) -> set:
    from transforms.evaluation.fire import ScoreMatrix

    return set(model.keys) if isinstance(model, ScoreMatrix) else set(model)


def caption_texts_of(args: FireArgs, keys: set) -> dict:
    """{sen_id: caption} from --captions, for a ranked table's queries (a matrix's have the protocol's)."""
    from pipelines.evaluation.fire.inputs import caption_texts

    return caption_texts(args.captions) if args.captions and (args.predictions or args.predictions_b) else {}


def label_queries(protocol, args: FireArgs, keys: set, texts: dict) -> list:
    """The queries a label may name. A matrix's: the protocol's rows. A ranked table's: its sen_ids with
    their captions, and with --protocol each of the protocol's texts (1k-A's sentences), standing for the
    predicted sen_ids it matched."""
    from transforms.evaluation.fire import LabelQuery

    if args.scores:
        return [LabelQuery(query.text, query.sen_ids, (str(row),)) for row, query in enumerate(protocol.queries)]
    queries = [LabelQuery(texts.get(key, ""), (key,), (key,)) for key in sorted(keys)]
    if protocol:
        queries += [LabelQuery(query.text, query.sen_ids, tuple(str(sen_id) for sen_id in query.sen_ids
                                                                if str(sen_id) in keys))
                    for query in protocol.queries]
    return queries


def matching_hint(args: FireArgs, unmatched: list) -> str:
    """What to try when a label keyed by text is lost: FIRE names its queries by the JSFusion CSV's sentences,
    which differ from the raw captions in 35 of 1k-A's 1,000."""
    if args.protocol or not unmatched or unmatched[0][0].query.isdigit():
        return ""
    return ("; labels keyed by 1k-A's sentences (FIRE's) are matched by --protocol 1k-A --videos "
            "MSRVTT_JSFUSION_test.csv --captions RAW")


def write_output(args: FireArgs, figures: dict) -> None:
    """--output: fire.json, capclean's marker and the manifest, swapped into place."""
    from pipelines.output.folder import put_in_place, staging_for, write_marker
    from pipelines.output.json_files import write_json
    from pipelines.output.manifest import Clock, build_manifest, files_record, write_manifest

    output = Path(args.output).resolve()
    files = {"--predictions": args.predictions, "--scores": args.scores, "--predictions-b": args.predictions_b,
             "--scores-b": args.scores_b, "--labels": args.labels, "--captions": args.captions, "--videos": args.videos,
             "--sen-ids": args.sen_ids}
    with staging_for(output) as staging:
        staging.mkdir()
        write_json(staging / "fire.json", figures, sort_keys=False)
        write_marker(staging, {"command": "fire"})
        write_manifest(staging, build_manifest("fire", input_info=files_record(files), stats=figures, clock=Clock(),
                                               settings={"protocol": args.protocol,
                                                         "orientation": args.orientation,
                                                         "skip_unmatched_labels": args.skip_unmatched_labels,
                                                         "model": args.model, "model_b": args.model_b,
                                                         "depth": args.depth, "ap_normaliser": args.ap_normaliser,
                                                         "rbo_p": args.rbo_p, "resamples": args.resamples,
                                                         "seed": args.seed}))
        put_in_place(staging, output, inputs_of(args))
    print(f"capclean: figures written to {Path(args.output) / 'fire.json'}")
