"""`capclean report`: a run's report.html again, or two runs side by side (docs/commands/report.md).
The page is pipelines/cleaning/report/."""
from dataclasses import dataclass
from pathlib import Path

from pipelines.commands.command import FILES, Command
from transforms.errors import CapcleanError


@dataclass(frozen=True)
class ReportArgs:
    run: str
    other: str | None
    output: str | None


class Report(Command):
    name = "report"
    help = "write report.html for a run, or two runs side by side"
    Args = ReportArgs
    writes = FILES
    example = ("{run}", "--output", "{out}/report.html")
    renamed = {"--to": "--output"}
    local_paths_only = ("run",)  # without --output, the page is written into the run's folder

    def add_arguments(self, parser):
        parser.add_argument("run", help="output folder of a run")
        parser.add_argument("other", nargs="?", help="a second run's output folder to compare with (e.g. paper)")
        parser.add_argument("--output", metavar="FILE", help="where to write the page: a new file, or a page "
                            "capclean wrote (default: RUN/report.html)")

    def run(self, args: ReportArgs) -> int:
        from pipelines.cleaning.report import write_report
        from pipelines.output.page_files import check_page_target

        for folder in (args.run, args.other):
            if folder and not (Path(folder) / "stats.json").is_file():
                raise CapcleanError(f"{folder} is not a capclean output folder (no stats.json)")
        if args.output:
            check_page_target(args.output, "--output", CapcleanError, "report.html")
        path = write_report(args.run, args.other, args.output)
        print(f"capclean: report written to {path}")
        return 0
