"""`capclean export`: a run's captions in other formats, written into the run (docs/commands/export.md).
The formats are pipelines/cleaning/exports.py."""
import logging
from dataclasses import dataclass
from pathlib import Path

from pipelines.commands.arguments import chosen_names
from pipelines.commands.command import FILES, Command
from transforms.errors import CapcleanError

log = logging.getLogger("capclean")
EXPORT_NAMES = ("msrvtt-json", "coco", "hf")  # pipelines/cleaning/exports.py's EXPORTS, without its imports


@dataclass(frozen=True)
class ExportArgs:
    run: str
    formats: str
    input: str | None


class Export(Command):
    name = "export"
    help = "write a run's captions in other formats"
    Args = ExportArgs
    writes = FILES
    example = ("{run}", "--formats", "coco,hf")
    local_paths_only = ("run",)  # the exports are written into the run's folder

    def add_arguments(self, parser):
        parser.add_argument("run", help="output folder of a run")
        parser.add_argument("--formats", default=",".join(EXPORT_NAMES), metavar="LIST",
                            help="comma-separated of msrvtt-json (reads the run's input), coco, hf (default: all)")
        parser.add_argument("--input", metavar="PATH", help="the run's original annotations (for msrvtt-json; "
                            "default: the input the run's manifest.json records, if its files are unchanged)")

    def run(self, args: ExportArgs) -> int:
        from pipelines.cleaning.exports import EXPORTS, run_exports

        if not (Path(args.run) / "stats.json").is_file():
            raise CapcleanError(f"{args.run} is not a capclean output folder (no stats.json)")
        names = chosen_names("formats", args.formats, EXPORTS)
        input_path = args.input
        if input_path is None and "msrvtt-json" in names:
            from pipelines.output.manifest import recorded_input
            input_path = recorded_input(args.run)  # checked: it exists, and its files have the sha256 recorded
            log.info("the run's input, from its manifest: %s", input_path)
        for path in run_exports(names, args.run, input_path):
            print(f"capclean: exported {path}")
        return 0
