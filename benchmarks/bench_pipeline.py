"""`make bench`: the full default cleaning of MSR-VTT against its I/O floor, and the sweep, in one run.

The I/O floor is the same Beam pipeline with the same reader and writer and no
cleaning: what any run must pay. Each is run as its own process so that its
peak memory (all Beam worker processes included) is its own. Then each step's
core functions are timed alone over the whole dataset, in this process.
"""
import argparse
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.measure import run_measured  # noqa: E402


def run_floor(input_path, output_dir, beam_args):
    """The I/O floor: read the annotations, write the same rows as Parquet."""
    from pipelines.cleaning.steps import STEP_NAMES
    from pipelines.config import load_config
    from pipelines.runtime.runner import make_pipeline
    from pipelines.cleaning.read_source import ReadMsrVtt
    from transforms.read import find_annotation_files
    from pipelines.cleaning.write_tables import WriteTables

    pipeline = make_pipeline(beam_args)
    sources = find_annotation_files(input_path)
    _ = (pipeline | "Read" >> ReadMsrVtt(sources)
         | "Write" >> WriteTables(output_dir, load_config("default").output.sen_ids_per_file, STEP_NAMES))
    pipeline.run().wait_until_finish()


def load_batches(input_path):
    """Every video of the input as a VideoBatch, as the reader assembles them (one process, no Beam)."""
    from transforms.read import read_input

    return read_input(input_path)


def step_cores(config):
    """(step, function from all videos to all videos) for the steps and the recheck rounds: each
    step as the pipeline runs it (its figures over the dataset, its setup, its groups)."""
    from pipelines.cleaning.steps import steps_to_run
    from transforms.recheck import recheck_round
    from transforms.step import run_step

    def run_one(step):
        return lambda videos: run_step(step, videos)

    def recheck(videos):
        for round_number in range(1, config.spelling.recheck_rounds + 1):
            for stage in recheck_round(config, round_number):
                videos = run_step(stage, videos)
        return videos

    cores = [(step.name, run_one(step)) for step in steps_to_run(config)]
    return cores + [("recheck", recheck)] if config.spelling.recheck_rounds else cores


def run_steps(input_path, profile, measure):
    """Read, then each step over the whole dataset, each one called through `measure(step, thunk)`."""
    from pipelines.config import load_config

    batches = measure("read", lambda: load_batches(input_path))
    for step, core in step_cores(load_config(profile)):
        batches = measure(step, lambda: core(batches))
    return batches


def time_steps(input_path, profile):
    """CPU seconds each step's core takes over the whole dataset, one process, no Beam.

    CPU time of this process: on an idle machine its wall time, on a shared one not stretched by the others' load.
    """
    seconds = {}

    def timed(step, thunk):
        started = time.process_time()
        result = thunk()
        seconds[step] = time.process_time() - started
        return result

    run_steps(input_path, profile, timed)
    return seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--input", required=True)
    parser.add_argument("--profile", default="default")
    parser.add_argument("--floor-only", metavar="OUTPUT", help=argparse.SUPPRESS)
    args, beam_args = parser.parse_known_args()
    if args.floor_only:
        run_floor(args.input, args.floor_only, beam_args)
        return 0

    with tempfile.TemporaryDirectory(prefix="capclean-bench-") as scratch:
        floor = run_measured([sys.executable, __file__, "--input", args.input, "--floor-only",
                              f"{scratch}/floor"] + beam_args)
        capclean = str(Path(sys.executable).parent / "capclean")
        full = run_measured([capclean, "clean", "--input", args.input, "--output", f"{scratch}/full",
                             "--profile", args.profile] + beam_args)
        sweep = run_measured([capclean, "sweep", "--input", args.input, "--output", f"{scratch}/sweep",
                              "--profile", args.profile] + beam_args)
    for name, result in (("I/O floor", floor), ("full run", full), ("sweep", sweep)):
        if result["returncode"] != 0:
            print(result["output"])
            raise SystemExit(f"bench: the {name} failed")
    steps = time_steps(args.input, args.profile)

    print(f"capclean bench on {args.input} (profile {args.profile}; Beam args: {' '.join(beam_args) or 'none'})")
    print(f"  {'':<22}{'wall s':>9}{'CPU s':>8}{'peak MiB':>10}")
    for name, result in (("I/O floor", floor), (f"full run ({args.profile})", full), ("sweep, 8 points", sweep)):
        print(f"  {name:<22}{result['seconds']:>9.1f}{result['cpu_seconds']:>8.1f}{result['peak_mib']:>10.0f}")
    print(f"  ratio full / floor: time {full['seconds'] / floor['seconds']:.1f}x, "
          f"CPU {full['cpu_seconds'] / floor['cpu_seconds']:.1f}x, memory {full['peak_mib'] / floor['peak_mib']:.1f}x")
    print(f"  ratio sweep / full run: time {sweep['seconds'] / full['seconds']:.2f}x "
          f"(8 separate full runs would be 8x)")
    total = sum(steps.values())
    print("  step cores alone, one process, no Beam (CPU time):")
    for step, seconds in steps.items():
        print(f"    {step:<10}{seconds:>8.1f} s  {100 * seconds / total:>5.1f}%")
    from pipelines.config import load_config

    rest = total - steps["runon"]
    print(f"  ratio step IV ({load_config(args.profile).runon.rule}) / the other steps together: "
          f"{steps['runon'] / rest:.2f}x; / the rest of the full run (its CPU less step IV's core): "
          f"{steps['runon'] / (full['cpu_seconds'] - steps['runon']):.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
