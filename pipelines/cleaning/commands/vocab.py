"""`capclean vocab`: the tokens Hunspell rejects, with the default rule's decision, as a TSV table to
review (docs/commands/vocab.md). The table is pipelines/cleaning/vocab.py."""
from dataclasses import dataclass
from pathlib import Path

from pipelines.commands.arguments import RAW_INPUT_HELP
from pipelines.commands.command import FILES, Command
from transforms.errors import CapcleanError


@dataclass(frozen=True)
class VocabArgs:
    input: str
    output: str
    profile: str


class Vocab(Command):
    name = "vocab"
    help = "the tokens Hunspell rejects, with the default rule's decision, as a TSV table to review"
    Args = VocabArgs
    writes = FILES
    example = ("--input", "{raw}", "--output", "{out}/vocab.tsv")

    def add_arguments(self, parser):
        parser.add_argument("--input", required=True, metavar="PATH", help=RAW_INPUT_HELP)
        parser.add_argument("--output", required=True, metavar="FILE", help="the TSV table to write: a new file, or "
                            "a table capclean vocab wrote")
        parser.add_argument("--profile", default="default", choices=["default", "paper"],
                            help="whose vocabulary and ranking options to use (default: %(default)s)")

    def run(self, args: VocabArgs) -> int:
        from pipelines.cleaning.vocab import COLUMNS, write_vocabulary_table

        check_table_target(Path(args.output), "\t".join(COLUMNS))
        Path(args.output).parent.mkdir(parents=True, exist_ok=True)  # as the other commands make their folders
        rows = write_vocabulary_table(args.input, args.output, args.profile)
        print(f"capclean: {rows} rejected tokens written to {args.output}")
        return 0


def check_table_target(target: Path, header: str) -> None:
    """A new file, or a table this command wrote (its first line is the table's header): never another file."""
    if target.is_dir():
        raise CapcleanError(f"--output {target} is a folder; name the table's file")
    if target.exists():
        with target.open(encoding="utf-8", errors="replace") as handle:
            first_line = handle.readline().rstrip("\r\n")
        if first_line != header:
            raise CapcleanError(f"--output {target} exists and is not a table capclean vocab wrote; name a new file")
