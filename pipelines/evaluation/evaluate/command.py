"""`capclean evaluate`: a retrieval model's similarity matrix on a protocol (1k-A, full-test, custom): R@1/5/10,
median and mean rank, text-to-video and video-to-text, beside the exact random baseline; or, with
--write-texts, the texts the model must encode, in the protocol's order (docs/commands/evaluate.md).
The protocol is pipelines/evaluation/protocol_files.py (shared with baseline, fire and overlap), the scores
scores.py, the page page.py; the method transforms/evaluation/protocols.py and retrieval.py."""
from dataclasses import dataclass

from pipelines.commands.arguments import RUN_OR_RAW_HELP, add_figure_file_arguments, add_protocol_arguments
from pipelines.commands.command import FILES, Command
from pipelines.evaluation.evaluate.fire_figures import add_fire_arguments
from pipelines.evaluation.evaluate.ndcg_figures import add_ndcg_arguments

WRITTEN_BY = "capclean evaluate"  # the mark of a --json file this command wrote (and may replace)
TEXTS_WRITTEN_BY = "capclean evaluate --write-texts"  # the mark of a --write-texts file
TIES = "a tie counts against the model: rank = 1 + the items that are not positives scoring at least as high"
V2T_POSITIVES = "a video's rank is that of the best-ranked of its texts"


@dataclass(frozen=True)
class EvaluateArgs:
    protocol: str
    scores: str | None = None
    write_texts: str | None = None
    orientation: str | None = None
    input: str | None = None
    videos: str | None = None
    sen_ids: str | None = None
    negatives: str | None = None
    negatives_scores: str | None = None
    json: str | None = None
    report: str | None = None
    fire_labels: str | None = None
    skip_unmatched_labels: bool = False
    proxies: str | None = None
    relevance: str | None = None


class Evaluate(Command):
    name = "evaluate"
    help = ("R@1/5/10, median and mean rank, text-to-video and video-to-text, of a retrieval model's similarity "
            "matrix on a protocol (1k-A, full-test, custom), beside a random ranking; or the texts to encode")
    Args = EvaluateArgs
    writes = FILES
    example = ("--protocol", "full-test", "--input", "{raw}", "--scores", "{similarity}", "--orientation",
               "texts-x-videos", "--json", "{out}/evaluate.json", "--report", "{out}/evaluate.html",
               "--negatives", "{hardneg}", "--negatives-scores", "{scores_for_hardneg}")

    def add_arguments(self, parser):
        add_protocol_arguments(parser, required=True)
        task = parser.add_mutually_exclusive_group(required=True)
        task.add_argument("--scores", metavar="FILE", help="the model's similarity matrix: .npy, or .npz with one "
                          "array (or one named scores), its rows and columns in the protocol's order; or, for "
                          "full-test and custom, scores keyed by id as capclean ndcg reads them (Parquet or CSV "
                          "of sen_id, video_id, score; .npz with scores, sen_ids, video_ids)")
        task.add_argument("--write-texts", metavar="FILE", help="write the protocol's texts and videos, in the "
                          "order the matrix must have, to this JSON file (a new file, or one it wrote), and stop")
        parser.add_argument("--input", metavar="RUN_OR_RAW", help=RUN_OR_RAW_HELP + ": the captions (full-test, "
                            "custom; for 1k-A, what each sentence is matched to, to report its sen_ids)")
        parser.add_argument("--negatives", metavar="DIR", help="a capclean hardneg output of the protocol's videos: "
                            "with --write-texts, also write the negatives' texts in the order to score them; with "
                            "--negatives-scores, PoSRank")
        parser.add_argument("--negatives-scores", metavar="FILE", help="the model's scores of the negatives: a "
                            "(captions, 1 + K) .npy in the order --write-texts wrote (column 0 the caption), or "
                            "Parquet or CSV of video_id, text_id, score as capclean posrank reads it")
        add_figure_file_arguments(parser, "evaluate", "the figures and the random baseline")
        add_fire_arguments(parser)
        add_ndcg_arguments(parser)

    def run(self, args: EvaluateArgs) -> int:
        from pipelines.evaluation.evaluate.ndcg_figures import chosen_proxies
        from pipelines.evaluation.evaluate.page import write_evaluate_report
        from pipelines.evaluation.evaluate.posrank_figures import (check_negatives_flags, format_posrank_section,
                                                                   negatives_texts, posrank_section)
        from pipelines.evaluation.protocol_files import EvaluateInputError, read_protocol
        from pipelines.evaluation.evaluation_io import check_figure_files, write_figure_files
        from pipelines.output.json_files import check_json_target, write_json

        if args.write_texts and (args.json or args.report):
            raise EvaluateInputError("--json and --report go with --scores, not --write-texts")
        if args.write_texts and args.fire_labels:
            raise EvaluateInputError("--fire-labels goes with --scores, not --write-texts")
        # Every target is checked before the protocol and the matrix are read, so a refused one costs nothing.
        texts_path = (check_json_target(args.write_texts, TEXTS_WRITTEN_BY, EvaluateInputError, "--write-texts")
                      if args.write_texts else None)
        chosen_proxies(args.proxies, args.relevance)
        json_path, report_path = check_figure_files(args.json, args.report, WRITTEN_BY, EvaluateInputError,
                                                    "evaluate.html")
        check_negatives_flags(args.negatives, args.negatives_scores)
        protocol = read_protocol(args.protocol, args.input, args.videos, args.sen_ids)
        if texts_path:
            document = texts_document(protocol, args)
            if args.negatives:
                document["negatives"] = negatives_texts(args.negatives, protocol)
            write_json(texts_path, document, sort_keys=False, ensure_ascii=False)
            print(f"capclean: {len(protocol.queries):,} texts and {len(protocol.video_ids):,} videos of "
                  f"{protocol.name} written to {texts_path}")
            return 0
        figures = evaluate_figures(protocol, args)
        if args.negatives_scores:
            figures["posrank"] = posrank_section(args.negatives, args.negatives_scores, protocol)
        print(format_figures(figures))
        if args.negatives_scores:
            print(format_posrank_section(figures["posrank"]))
        write_figure_files(figures, json_path, report_path, write_evaluate_report)
        return 0


def texts_document(protocol, args: EvaluateArgs) -> dict:
    """The texts to encode (the matrix's rows) and the videos (its columns), in order, with each text's
    own video and the sen_ids it is."""
    return {"written_by": TEXTS_WRITTEN_BY, "protocol": protocol.name, "input": args.input,
            "rows": "texts", "columns": "videos", "matching": matching(protocol, args),
            "videos": list(protocol.video_ids),
            "texts": [{"text": query.text, "video_id": query.video_id, "sen_ids": list(query.sen_ids),
                       "match": query.match} for query in protocol.queries]}


def matching(protocol, args: EvaluateArgs) -> dict | None:
    """How 1k-A's sentences matched the captions of --input (None: not matched, or not 1k-A)."""
    from transforms.evaluation.protocols import match_counts

    return match_counts(protocol) if protocol.name == "1k-A" and args.input else None


def evaluate_figures(protocol, args: EvaluateArgs) -> dict:
    """The figures of the model's matrix and of a random ranking, with what they were computed on."""
    from pipelines.evaluation.evaluate.scores import read_scores
    from transforms.evaluation.retrieval import random_retrieval, retrieval_figures

    from pipelines.evaluation.evaluate.ndcg_figures import chosen_proxies, ndcg_figures

    similarity, orientation = read_scores(args.scores, args.orientation, protocol)
    own_columns = protocol.own_columns()
    figures = {"written_by": WRITTEN_BY, "protocol": protocol.name, "scores": args.scores, "orientation": orientation,
            "input": args.input, "texts": len(protocol.queries), "videos": len(protocol.video_ids),
            "ties": TIES, "v2t_positives": V2T_POSITIVES, "matching": matching(protocol, args),
            "model": retrieval_figures(similarity, own_columns),
            "random": random_retrieval(own_columns, len(protocol.video_ids)),
            "ndcg": ndcg_figures(protocol, similarity, args.input, chosen_proxies(args.proxies, args.relevance),
                                 args.relevance)}
    if args.fire_labels:
        from pipelines.evaluation.evaluate.fire_figures import fire_figures

        figures["fire"] = fire_figures(protocol, similarity, args.fire_labels, args.skip_unmatched_labels)
    return figures


FIGURES = ("R@1", "R@5", "R@10", "MdR", "MnR")


def format_figures(figures: dict) -> str:
    """One row per direction, the model's then random's: R@K in percent, MdR and MnR as ranks; then nDCG."""
    from pipelines.evaluation.evaluate.ndcg_figures import format_ndcg

    lines = [f"capclean evaluate: {figures['protocol']}, {figures['texts']:,} texts x {figures['videos']:,} videos; "
             "ties count against the model",
             f"  {'':<12}" + "".join(f"{name:>9}" for name in FIGURES)]
    for direction in ("t2v", "v2t"):
        for source in ("model", "random"):
            row = figures[source][direction]
            lines.append(f"  {direction + ' ' + source:<12}" + "".join(figure_text(name, row[name]).rjust(9)
                                                                     for name in FIGURES))
    counts = figures.get("matching")
    if counts:
        lines.append(f"  sentences matched to captions: {counts['exact']:,} exactly, {counts['normalised']:,} once "
                     f"normalised, {counts['edited']:,} through an earlier text (edits/), {counts['unmatched']:,} "
                     f"not; {counts['several_sen_ids']:,} match several")
    if figures.get("fire"):
        from pipelines.evaluation.evaluate.fire_figures import fire_lines

        lines += fire_lines(figures["fire"])
    return "\n".join(lines + format_ndcg(figures.get("ndcg")))


def figure_text(name: str, value: float) -> str:
    """R@K in percent, one decimal; a rank with one decimal (a median of an even count may end in .5)."""
    return f"{100 * value:.1f}" if name.startswith("R@") else f"{value:.1f}"
