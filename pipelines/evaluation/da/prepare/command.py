"""`capclean da prepare`: captions to judge laid out in Direct Assessment HITs with hidden checks, and the HITs
for MTurk, Label Studio and a rating page (docs/commands/da-prepare.md). What is judged: judged.py; the
method: transforms/da/degrade.py and hits.py; the exports: exports.py; the page: page.py."""
import time
from dataclasses import dataclass
from pathlib import Path

from pipelines.commands.arguments import add_output_folder_arguments
from pipelines.commands.command import Command
from transforms.errors import CapcleanError

DEFAULT_SPANS = "3:1,4:2,5:2,6-7:3,8-14:4,15-19:5,20+:25%"  # transforms/da/degrade.py's GRAHAM_SPANS


@dataclass(frozen=True)
class DaPrepareArgs:
    input: str
    output: str
    overwrite: bool
    systems: str | None
    raw: str | None
    all_captions: bool
    split: str
    seed: int
    items_per_hit: int
    degraded_per_hit: int
    repeats_per_hit: int
    references_per_hit: int
    blocks_per_hit: int
    span_lengths: str
    video_url: str
    completion_code: str | None


class DaPrepare(Command):
    name = "da prepare"
    help = "Direct Assessment: captions to judge in HITs with hidden checks, for MTurk, Label Studio or a rating page"
    Args = DaPrepareArgs
    example = ("--input", "{run}", "--output", "{out}", "--all-captions", "--items-per-hit", "10",
               "--degraded-per-hit", "1", "--repeats-per-hit", "1", "--references-per-hit", "1",
               "--blocks-per-hit", "2")

    def add_arguments(self, parser):
        add_output_folder_arguments(parser, "a capclean output: its raw and cleaned captions are the systems raw "
                                    "and cleaned; with --systems, the human captions (a capclean output or raw "
                                    "MSR-VTT annotations) that are the references",
                                    "hits/, degraded/, the exports, rating.html, stats.json and manifest.json")
        what = parser.add_argument_group("what is judged")
        what.add_argument("--systems", metavar="FILE", help="judge these captions instead: a table of video_id, "
                          "system, caption (.csv, .parquet or .jsonl), as a captioning model's output")
        what.add_argument("--raw", metavar="PATH", help="the run's raw annotations (default: the input its "
                          "manifest.json records, if its files are unchanged)")
        what.add_argument("--all-captions", action="store_true", help="judge every caption the run kept, not only "
                          "those the cleaning changed (one caption of each video is kept out as its reference)")
        what.add_argument("--split", default="test", help="the split whose captions are judged and are the "
                          "references and donors (default: %(default)s; 'all' for every split)")
        recipe = parser.add_argument_group("the HITs (default: Graham's 10 blocks of 7 system items, a degraded "
                                           "copy, a repeat and a reference)")
        recipe.add_argument("--seed", type=int, default=0, help="every random choice follows it (default: 0)")
        recipe.add_argument("--items-per-hit", type=int, default=100, metavar="N", help="slots of a HIT "
                            "(default: %(default)s)")
        recipe.add_argument("--degraded-per-hit", type=int, default=10, metavar="N", help="degraded copies of a "
                            "HIT's items (default: %(default)s)")
        recipe.add_argument("--repeats-per-hit", type=int, default=10, metavar="N", help="exact repeats of a "
                            "HIT's items (default: %(default)s)")
        recipe.add_argument("--references-per-hit", type=int, default=10, metavar="N", help="human references "
                            "(default: %(default)s)")
        recipe.add_argument("--blocks-per-hit", type=int, default=10, metavar="N", help="blocks the checks are "
                            "spread over; a check copies an item half a HIT away (default: %(default)s)")
        recipe.add_argument("--span-lengths", default=DEFAULT_SPANS, metavar="TABLE", help="words replaced in a "
                            "degraded copy by caption length: WORDS:SPAN, WORDS-WORDS:SPAN, WORDS+:SPAN or "
                            "WORDS+:SHARE%% (default, Graham's scripts: %(default)s)")
        shown = parser.add_argument_group("what workers see")
        shown.add_argument("--video-url", default="{video_id}.mp4", metavar="TEMPLATE", help="where a video is: a "
                           "URL or a path beside the page, with {video_id} (default: %(default)s)")
        shown.add_argument("--completion-code", metavar="CODE", help="the code the rating page shows at the end "
                           "(a Prolific study's; default: one per HIT, from the seed)")

    def run(self, args: DaPrepareArgs) -> int:
        from pipelines.evaluation.da.prepare.rater import check_video_url
        from transforms.da.degrade import parse_span_table
        from transforms.da.hits import Recipe

        recipe = Recipe(args.items_per_hit, args.degraded_per_hit, args.repeats_per_hit, args.references_per_hit,
                        args.blocks_per_hit)
        spans = parse_span_table(args.span_lengths)
        check_video_url(args.video_url)
        for flag, path in (("--input", args.input), ("--systems", args.systems), ("--raw", args.raw)):
            if path is not None and not Path(path).exists():
                raise CapcleanError(f"{flag} {path}: no such file or folder")
        if args.systems and (args.raw or args.all_captions):
            raise CapcleanError("--raw and --all-captions choose captions of a run; with --systems they mean nothing")
        from pipelines.evaluation.da.prepare.run import prepare

        started = time.monotonic()
        output, figures = prepare(args, recipe, spans)
        print(f"capclean da prepare: done in {time.monotonic() - started:.1f} s; output in {output}")
        print(format_figures(figures))
        return 0


def format_figures(figures: dict) -> str:
    systems = ", ".join(f"{name} {count:,}" for name, count in figures["judged"]["items_per_system"].items())
    hits, degraded = figures["hits"], figures["degraded"]
    lines = [f"  items to judge: {systems}",
             f"  {hits['hits']:,} HITs of {hits['slots_per_hit']} slots ({hits['system']} system, "
             f"{hits['degraded']} degraded, {hits['repeat']} repeat, {hits['reference']} reference); "
             f"good/degraded pairs per HIT: at least {hits['min_degraded_pairs']}",
             f"  degraded captions: {degraded['captions']:,} (span lengths {figures['settings']['span_lengths']}; "
             f"each less like its video's other captions); never degraded: {degraded['items_too_short']:,} "
             f"items too short, {degraded['items_without_damaging_copy']:,} with no damaging draw",
             "  rating page: rating.html; MTurk: mturk/batch.csv, mturk/template.html; Label Studio: "
             "labelstudio/tasks.json, labelstudio/config.xml"]
    return "\n".join(lines)
