"""`capclean fire`: a model's ranked predictions scored with the original and the extra (FIRE) labels
(docs/commands/fire.md). What it reads is inputs.py, its figures figures.py, its page page.py; the
method transforms/evaluation/fire.py."""
from dataclasses import dataclass
from pathlib import Path

from pipelines.commands.command import Command


@dataclass(frozen=True)
class FireArgs:
    predictions: str
    labels: str
    predictions_b: str | None = None
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
        parser.add_argument("--predictions", required=True, metavar="FILE",
                            help="Parquet or CSV with columns sen_id, video_id, rank, score (and optionally caption)")
        parser.add_argument("--predictions-b", metavar="FILE", help="a second model's predictions, to compare with")
        parser.add_argument("--labels", required=True, metavar="FILE",
                            help="Parquet or CSV with columns query, video, label, source; or FIRE's released JSON")
        parser.add_argument("--captions", metavar="RUN_OR_RAW",
                            help="a capclean output or raw MSR-VTT: each query's caption (length bins, text queries)")
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
    return [path for path in (args.predictions, args.predictions_b, args.labels, args.captions) if path]


def check_settings(args: FireArgs) -> None:
    from pipelines.evaluation.fire.inputs import FireInputError

    if args.depth < 1:
        raise FireInputError(f"--depth must be at least 1, not {args.depth}")
    if not 0 < args.rbo_p < 1:
        raise FireInputError(f"--rbo-p must be between 0 and 1, not {args.rbo_p}")
    if args.resamples < 1:
        raise FireInputError(f"--resamples must be at least 1, not {args.resamples}")


def fire_figures(args: FireArgs) -> dict:
    """Every figure of one model (and of two, compared), from the files the arguments name."""
    from pipelines.evaluation.fire.figures import bootstrap_figures, model_figures
    from pipelines.evaluation.fire.inputs import (FireInputError, caption_texts, gold_from_labels, own_videos,
                                                  read_labels, read_predictions)
    from transforms.evaluation.fire import mean_overlaps

    rankings, texts = read_predictions(args.predictions, args.depth)
    rankings_b, texts_b = read_predictions(args.predictions_b, args.depth) if args.predictions_b else ({}, {})
    texts = {**caption_texts(args.captions), **texts, **texts_b} if args.captions else {**texts_b, **texts}
    queries = set(rankings) | set(rankings_b)
    originals, extra, unmatched = gold_from_labels(read_labels(args.labels), queries, texts, args.labels)
    if not any(originals.values()) and args.captions:
        originals = own_videos(args.captions, queries)
    if not any(originals.values()):
        raise FireInputError(f"{args.labels}: no original positive (source \"original\") for any predicted query, "
                             "and no --captions to take each query's own video from")
    normaliser = args.ap_normaliser
    figures = {"depth": args.depth, "ap_normaliser": normaliser, "unmatched_labels": unmatched,
               "a": model_figures(args.predictions, rankings, originals, extra, args.model, normaliser, texts)}
    if args.predictions_b:
        figures["b"] = model_figures(args.predictions_b, rankings_b, originals, extra, args.model_b, normaliser, texts)
        if not set(rankings) & set(rankings_b):
            raise FireInputError(f"{args.predictions} and {args.predictions_b} rank no query (sen_id) in common: "
                                 "there is nothing to compare")
        figures["overlap"] = mean_overlaps(rankings, rankings_b, 10, args.rbo_p)
        figures["bootstrap"] = bootstrap_figures(rankings, rankings_b, originals, extra, normaliser, args.resamples,
                                                 args.seed)
    return figures


def write_output(args: FireArgs, figures: dict) -> None:
    """--output: fire.json, capclean's marker and the manifest, swapped into place."""
    from pipelines.output.folder import put_in_place, staging_for, write_marker
    from pipelines.output.json_files import write_json
    from pipelines.output.manifest import Clock, build_manifest, files_record, write_manifest

    output = Path(args.output).resolve()
    files = {"--predictions": args.predictions, "--predictions-b": args.predictions_b, "--labels": args.labels,
             "--captions": args.captions}
    with staging_for(output) as staging:
        staging.mkdir()
        write_json(staging / "fire.json", figures, sort_keys=False)
        write_marker(staging, {"command": "fire"})
        write_manifest(staging, build_manifest("fire", input_info=files_record(files), stats=figures, clock=Clock(),
                                               settings={"model": args.model, "model_b": args.model_b,
                                                         "depth": args.depth, "ap_normaliser": args.ap_normaliser,
                                                         "rbo_p": args.rbo_p, "resamples": args.resamples,
                                                         "seed": args.seed}))
        put_in_place(staging, output, inputs_of(args))
    print(f"capclean: figures written to {Path(args.output) / 'fire.json'}")
