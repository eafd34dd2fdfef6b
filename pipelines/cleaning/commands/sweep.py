"""`capclean sweep`: step III over a grid of (e, s), steps I-II run once (docs/commands/sweep.md).
The pipeline is pipelines/cleaning/sweep.py."""
import json
import logging
import time
from dataclasses import dataclass
from pathlib import Path

from pipelines.commands.arguments import (RAW_INPUT_HELP, CleaningArgs, add_configuration_arguments,
                                          add_limit_argument, add_output_folder_arguments, at_least,
                                          cleaning_configuration)
from pipelines.commands.command import BeamOptions, Command
from transforms.errors import ConfigError

log = logging.getLogger("capclean")


@dataclass(frozen=True)
class SweepArgs(CleaningArgs):
    grid: str | None
    limit: int | None
    beam: BeamOptions


class Sweep(Command):
    name = "sweep"
    help = "remaining captions of step III over a grid of (e, s); steps I-II run once"
    Args = SweepArgs
    takes_beam_options = True
    example = ("--input", "{raw}", "--output", "{out}", "--steps", "normalize", "--grid", "0:0.9,1:0.9")

    def add_arguments(self, parser):
        add_output_folder_arguments(parser, RAW_INPUT_HELP, "sweep.csv, sweep.json and sweep.png")
        add_configuration_arguments(parser)
        parser.add_argument("--grid", metavar="E:S,...", help="grid points (default: the paper's eight, "
                            "e in 0,1,2 at s=0.9 and s in 0.75..1.00 at e=0)")
        add_limit_argument(parser)

    def run(self, args: SweepArgs) -> int:
        from pipelines.cleaning.sweep import PAPER_GRID, parse_grid

        config = cleaning_configuration(args)
        at_least("limit", args.limit, 1)
        try:
            grid = parse_grid(args.grid) if args.grid else PAPER_GRID
        except ValueError as error:
            raise ConfigError(str(error)) from None
        return run_sweep(args, config, grid)


def run_sweep(args: SweepArgs, config, grid) -> int:
    from pipelines.output.folder import check_target, put_in_place, staging_for, write_marker
    from pipelines.output.manifest import Clock, build_manifest, busy_seconds, input_record, write_manifest
    from pipelines.runtime.worker_errors import worker_errors_as_one_line
    from transforms.read import find_annotation_files

    clock = Clock()
    sources = find_annotation_files(args.input, config.input.size_limits)
    output = Path(args.output)
    check_target(output, [args.input], args.overwrite)
    from pipelines.cleaning.sweep import build_sweep
    from pipelines.runtime.runner import build_and_run, check_beam_flags

    beam_args = list(args.beam.args)
    check_beam_flags(beam_args, args.beam.capclean_flags)
    output = output.resolve()
    started = time.monotonic()
    input_info = input_record(args.input, sources)
    clock.phase("prepare")
    log.info("sweep of %d grid points on %s (steps before dedup: %s)", len(grid), args.input,
             ",".join(step for step in config.steps if step in ("normalize", "spelling")) or "none")
    with staging_for(output) as staging:
        with worker_errors_as_one_line():
            result = build_and_run(beam_args, lambda pipeline: build_sweep(pipeline, sources, str(staging), config,
                                                                           grid, args.limit))
        clock.phase("pipeline")
        write_marker(staging, {"command": "sweep", "profile": config.profile})
        rows = json.loads((staging / "sweep.json").read_text())
        write_manifest(staging, build_manifest(
            "sweep", input_info=input_info, beam_args=beam_args, config=config, limit=args.limit,
            settings={"grid": [list(point) for point in grid]}, stats={"sweep": rows}, clock=clock,
            busy=busy_seconds(result)))
        put_in_place(staging, output, [args.input])
    print(f"capclean sweep: done in {time.monotonic() - started:.1f} s, profile {config.profile}")
    print(f"  {'e':>3} {'s':>5} {'remaining':>10} {'removed':>8} {'videos':>7}")
    for row in rows:
        print(f"  {row['e']:>3} {row['s']:>5.2f} {row['remaining']:>10} {row['removed']:>8} {row['videos_touched']:>7}")
    print(f"  table: {output / 'sweep.csv'}, plot: {output / 'sweep.png'}")
    return 0
