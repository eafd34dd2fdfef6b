"""`capclean vocab`: the tokens Hunspell rejects, with the default rule's decision, as a TSV table to
review; and, with --reviewed, the reviewed table turned into the reviewed list a later run applies
(docs/commands/vocab.md). The table is pipelines/cleaning/vocab.py, its verdicts review_table.py."""
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from pipelines.commands.arguments import RAW_INPUT_HELP
from pipelines.commands.command import FILES, Command
from transforms.errors import CapcleanError


@dataclass(frozen=True)
class VocabArgs:
    input: Optional[str]
    reviewed: Optional[str]
    output: str
    profile: str


class Vocab(Command):
    name = "vocab"
    help = "the tokens Hunspell rejects, with the default rule's decision, as a TSV table to review"
    Args = VocabArgs
    writes = FILES
    example = ("--input", "{raw}", "--output", "{out}/vocab.tsv")

    def add_arguments(self, parser):
        source = parser.add_mutually_exclusive_group(required=True)
        source.add_argument("--input", metavar="PATH", help=RAW_INPUT_HELP)
        source.add_argument("--reviewed", metavar="FILE", help="a table capclean vocab wrote (or an export of "
                            "flagged/) with the columns verdict and correct_to filled in: write the reviewed list "
                            "it gives (spelling.reviewed) instead of a table")
        parser.add_argument("--output", required=True, metavar="FILE", help="the TSV table (or, with --reviewed, "
                            "the reviewed list) to write: a new file, or one capclean vocab wrote")
        parser.add_argument("--profile", default="default", choices=["default", "paper"],
                            help="whose vocabulary and ranking options to use (default: %(default)s)")

    def run(self, args: VocabArgs) -> int:
        from pipelines.cleaning.vocab import COLUMNS, write_reviewed_list, write_vocabulary_table
        from transforms.spelling.wordlists import REVIEWED_LIST_HEADER

        what = "reviewed list" if args.reviewed else "table"
        check_table_target(Path(args.output), REVIEWED_LIST_HEADER if args.reviewed else "\t".join(COLUMNS), what)
        Path(args.output).parent.mkdir(parents=True, exist_ok=True)  # as the other commands make their folders
        if args.reviewed:
            reviewed = write_reviewed_list(args.reviewed, args.output)
            print(f"capclean: {len(reviewed.fixes)} corrections and {len(reviewed.keeps)} kept words written to "
                  f"{args.output}; a run applies them with spelling: {{reviewed: [{Path(args.output).resolve()}]}}")
            return 0
        rows = write_vocabulary_table(args.input, args.output, args.profile)
        print(f"capclean: {rows} rejected tokens written to {args.output}")
        return 0


def check_table_target(target: Path, header: str, what: str = "table") -> None:
    """A new file, or a file this command wrote (its first line is `header`): never another file."""
    if target.is_dir():
        raise CapcleanError(f"--output {target} is a folder; name the {what}'s file")
    if target.exists():
        with target.open(encoding="utf-8", errors="replace") as handle:
            first_line = handle.readline().rstrip("\r\n")
        if first_line != header:
            raise CapcleanError(f"--output {target} exists and is not a {what} capclean vocab wrote; name a new file")
