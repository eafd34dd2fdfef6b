"""`capclean posrank`: PoSRank of a model's scores on the hard negatives of `capclean hardneg`
(docs/commands/posrank.md). What it reads is inputs.py; the method transforms/evaluation/posrank.py;
its page is hardneg's (pipelines/evaluation/hardneg/page.py) with a PoSRank section."""
from dataclasses import dataclass

from pipelines.commands.command import FILES, Command

WRITTEN_BY = "capclean posrank"  # the mark of a JSON file this command wrote (and may replace)


@dataclass(frozen=True)
class PosrankArgs:
    negatives: str
    scores: str
    json: str | None = None
    report: str | None = None


class Posrank(Command):
    name = "posrank"
    help = "PoSRank of a model's scores on the hard negatives of `capclean hardneg`"
    Args = PosrankArgs
    writes = FILES
    example = ("--negatives", "{hardneg}", "--scores", "{scores_for_hardneg}", "--json", "{out}/posrank.json",
               "--report", "{out}/posrank.html")

    def add_arguments(self, parser):
        parser.add_argument("--negatives", required=True, metavar="DIR", help="the output folder of capclean "
                            "hardneg (or its hardneg/ folder)")
        parser.add_argument("--scores", required=True, metavar="FILE",
                            help="the model's scores: Parquet or CSV with columns video_id, text_id, score; or a "
                            "(captions, 1 + K) .npy in the order `capclean evaluate --write-texts --negatives` writes")
        parser.add_argument("--json", metavar="FILE", help="also write the figures to this JSON file (a new file, "
                            "or one capclean posrank wrote)")
        parser.add_argument("--report", metavar="FILE", help="also write the hard-negative report with this model's "
                            "PoSRank to this HTML file (a new file, or a page capclean wrote)")

    def run(self, args: PosrankArgs) -> int:
        from pipelines.evaluation.posrank.inputs import (NegativesFolderError, hardneg_output_folder,
                                                         posrank_of_scores, read_negatives)
        from pipelines.output.json_files import check_json_target, write_json
        from pipelines.output.page_files import check_page_target
        from transforms.evaluation.posrank import format_posrank, posrank_figures

        # Checked before scoring, so a folder without stats.json, or a user's file at --json or --report, is
        # refused before the long part.
        json_path = check_json_target(args.json, WRITTEN_BY, NegativesFolderError) if args.json else None
        output_dir = hardneg_output_folder(args.negatives) if args.report else None
        if args.report:
            check_page_target(args.report, "--report", NegativesFolderError, "report.html")
        result = posrank_of_scores(read_negatives(args.negatives), args.scores)
        print(format_posrank(result))
        if json_path:
            write_json(json_path, {"written_by": WRITTEN_BY, **posrank_figures(result)}, sort_keys=False)
            print(f"capclean: figures written to {json_path}")
        if args.report:
            from pipelines.evaluation.hardneg.page import write_hardneg_report

            path = write_hardneg_report(output_dir, posrank_figures(result), args.report)
            print(f"capclean: report written to {path}")
        return 0
