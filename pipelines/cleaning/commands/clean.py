"""`capclean clean`: the cleaning pipeline (docs/commands/clean.md). The run itself is pipelines/cleaning/run.py."""
from dataclasses import dataclass

from pipelines.commands.arguments import (RAW_INPUT_HELP, CleaningArgs, add_configuration_arguments,
                                          add_limit_argument, add_output_folder_arguments, at_least, chosen_names,
                                          cleaning_configuration)
from pipelines.commands.command import BeamOptions, Command

EXPORTS_HELP = ("msrvtt-json (the MSR-VTT JSON format)", "coco (validate and test references)",
                "hf (Hugging Face datasets layout)")


@dataclass(frozen=True)
class CleanArgs(CleaningArgs):
    limit: int | None
    edit_threshold: int | None
    similarity_threshold: float | None
    runon_rule: str | None
    runon_policy: str | None
    runon_std_multiplier: float | None
    runon_splits: str | None
    allowed_characters: str | None
    sen_ids_per_file: int | None
    export: str
    beam: BeamOptions


class Clean(Command):
    name = "clean"
    help = "run the cleaning pipeline"
    Args = CleanArgs
    takes_beam_options = True
    example = ("--input", "{raw}", "--output", "{out}", "--steps", "normalize,dedup")

    def add_arguments(self, parser):
        add_output_folder_arguments(parser, RAW_INPUT_HELP, "the cleaned tables, stats.json, report.html, "
                                    "validation/ and manifest.json")
        add_configuration_arguments(parser)
        add_limit_argument(parser)
        add_step_arguments(parser)
        parser.add_argument("--export", metavar="LIST", default="", help="also write these exports into the "
                            f"output: comma-separated of {','.join(EXPORTS_HELP)}")

    def run(self, args: CleanArgs) -> int:
        from pipelines.cleaning.exports import EXPORTS
        from pipelines.cleaning.run import run_clean

        config = cleaning_configuration(args)
        at_least("limit", args.limit, 1)
        exports = chosen_names("export", args.export, EXPORTS)
        return run_clean(args.input, args.output, config, list(args.beam.args), exports, args.overwrite,
                         args.beam.capclean_flags, limit=args.limit)


def add_step_arguments(parser) -> None:
    """Steps III and IV's flags, and the output's."""
    from transforms.runon import RUNON_RULES

    dedup = parser.add_argument_group("step III, near-duplicates")
    dedup.add_argument("-e", "--edit-threshold", type=int, metavar="E",
                       help="two words are equal when their Levenshtein distance is at most E (paper: 0)")
    dedup.add_argument("-s", "--similarity-threshold", type=float, metavar="S",
                       help="two captions are near-duplicates when their similarity is at least S (paper: 0.85)")
    runon = parser.add_argument_group("step IV, run-on captions")
    runon.add_argument("--runon-rule", choices=RUNON_RULES,
                       help="'truncate': cut captions longer than mean + K std words (paper); "
                            "'model': split run-on captions at the sentence boundaries a trained model finds")
    runon.add_argument("--runon-policy", metavar="POLICY",
                       help="model: keep the 'first' sentence, make each sentence a 'separate' caption, 'merge' the "
                            "sentences into one with 'and', or keep the caption 'whole' and only record its sentences "
                            "in runon/; one for every split, or per split: train=first,validate=first,test=merge")
    runon.add_argument("--runon-std-multiplier", type=float, metavar="K", help="K of the word limit (paper: 2)")
    runon.add_argument("--runon-splits", metavar="LIST", help="splits the rule applies to (paper: train,validate)")
    out = parser.add_argument_group("validation and files")
    out.add_argument("--allowed-characters", metavar="CHARS", help="characters a cleaned caption may hold")
    out.add_argument("--sen-ids-per-file", type=int, metavar="N", help="sen_id range each Parquet file covers")
