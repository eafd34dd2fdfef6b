"""`make bench`: the full default cleaning of MSR-VTT against its floors, where its time goes, and the sweep, in one run.

Two floors are measured in the same run. The Beam I/O floor is the same Beam
pipeline with the same reader and writer and no cleaning: what any Beam run
must pay. The plain pyarrow floor parses the annotation zips' JSON with the
standard library and writes the captions table with pyarrow: no Beam at all.
The full run is `make run`'s (the default profile, its exports). Each is run as
its own process, so its peak memory (all Beam worker processes included) is its
own.

Then where the time goes:
- the fixed cost in its parts: process start, capclean's imports (`capclean --help`),
  Beam (import, pipeline construction, worker start, a few elements), Great
  Expectations' import; and, on the full run's own output, what the launcher does
  after the pipeline: the tables read back once, the validation, the report (from
  the frames read) and the exports;
- every stage of the run, one after the other in this process (no Beam): read,
  each step, each recheck round, the writing of the tables, the validation, the
  report, the exports; wall, CPU and peak memory of each;
- the recheck rounds again on the same input, each deciding every video again as they
  did before the incremental recheck (transforms/recheck.py): the same videos out, and
  the CPU of the rounds as shipped beside theirs;
- the full run's own phases and the busy time of its Beam stages (its manifest).
"""
import argparse
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.measure import measure_in_process, run_measured  # noqa: E402

# `make run`'s exports (Makefile EXPORTS): the full default run writes them.
FULL_RUN_EXPORTS = "msrvtt-json,coco,hf"


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
    read = pipeline | "Read" >> ReadMsrVtt(sources)
    _ = read["videos"] | "Write" >> WriteTables(output_dir, load_config("default").output.sen_ids_per_file, STEP_NAMES)
    pipeline.run().wait_until_finish()


def run_pyarrow_floor(input_path, output_dir):
    """The plain pyarrow floor: every annotation file's JSON (in its zip, or as such) parsed with the
    standard library, each sentence joined to its video, the captions table written with pyarrow (one
    file, zstd). No Beam."""
    import json
    import zipfile

    import pyarrow as pa
    import pyarrow.parquet as pq

    from schemas.tables import CAPTIONS
    from transforms.read import find_annotation_files

    columns = {name: [] for name in CAPTIONS.names}
    for source in find_annotation_files(input_path):
        if source.member:
            with zipfile.ZipFile(source.path) as archive:
                document = json.loads(archive.read(source.member))
        else:
            document = json.loads(Path(source.path).read_bytes())
        videos = {video["video_id"]: video for video in document["videos"]}
        for sentence in document["sentences"]:
            video = videos[sentence["video_id"]]
            columns["video_id"].append(sentence["video_id"])
            columns["sen_id"].append(sentence["sen_id"])
            columns["split"].append(video["split"])
            columns["category"].append(video["category"])
            columns["caption"].append(sentence["caption"])
    Path(output_dir).mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pydict(columns, schema=CAPTIONS), f"{output_dir}/captions.parquet",
                   compression="zstd")


def run_beam_start(beam_args):
    """Beam's own fixed cost: import it, build a pipeline with the run's options, start its workers
    and pass four elements through."""
    import apache_beam as beam

    from pipelines.runtime.runner import make_pipeline

    pipeline = make_pipeline(beam_args)
    _ = pipeline | beam.Create(range(4)) | beam.Map(lambda number: number + 1)
    pipeline.run().wait_until_finish()


def fixed_cost_parts(beam_args) -> dict:
    """name -> run_measured result of each part of the fixed cost, each its own process."""
    python, capclean = sys.executable, str(Path(sys.executable).parent / "capclean")
    return {
        "process start": run_measured([python, "-c", "pass"]),
        "capclean --help": run_measured([capclean, "--help"]),
        "Beam start": run_measured([python, __file__, "--input", "-", "--beam-start-only"] + beam_args),
        "GE import": run_measured([python, "-c", "import great_expectations"]),
    }


def finishing_stages(output_dir, input_path, profile, scratch) -> dict:
    """What the launcher does after the pipeline, again, on the full run's written tables, in this process:
    the tables read back once, their validation, the report from the frames read, the exports; stage ->
    measure_in_process figures. What they write goes to `scratch`. First what the launcher imports in a
    thread while the pipeline runs (Great Expectations, the report's modules), measured apart."""
    from pipelines.cleaning.exports import export_coco, export_hf, export_msrvtt_json, read_captions_table
    from pipelines.cleaning.run import import_in_background
    from pipelines.cleaning.steps import STEP_NAMES
    from pipelines.cleaning.verdict import output_expectations
    from pipelines.config import load_config
    from schemas.validation import read_output, validate_frames

    figures = {}
    _, figures["imports (during the pipeline)"] = measure_in_process(lambda: import_in_background().join())
    from pipelines.cleaning.report import write_report

    stats = json.loads((Path(output_dir) / "stats.json").read_text())
    expectations = output_expectations(load_config(profile), stats, STEP_NAMES)
    (frames, read_failures), figures["tables read once"] = measure_in_process(lambda: read_output(output_dir))

    def exports():
        captions = read_captions_table(output_dir)
        export_msrvtt_json(output_dir, input_path, f"{scratch}/exports/msrvtt.json", captions)
        export_coco(output_dir, f"{scratch}/exports/coco", captions=captions)
        export_hf(output_dir, f"{scratch}/exports/hf", captions)

    stages = {"validation": lambda: validate_frames(frames, read_failures, expectations, f"{scratch}/validation"),
              "report": lambda: write_report(output_dir, report_path=f"{scratch}/report.html", tables=frames),
              "exports": exports}
    figures.update({name: measure_in_process(stage)[1] for name, stage in stages.items()})
    return figures


def load_batches(input_path):
    """Every video of the input as a VideoBatch, as the reader assembles them (one process, no Beam)."""
    from transforms.read import read_input

    return read_input(input_path)


def step_cores(config):
    """(step, function from all videos to all videos) for the steps and the recheck rounds: each
    step as the pipeline runs it (its figures over the dataset, its setup, its groups)."""
    from pipelines.cleaning.steps import steps_to_run
    from transforms.step import run_step

    def run_one(step):
        return lambda videos: run_step(step, videos)

    cores = [(step.name, run_one(step)) for step in steps_to_run(config)]
    return cores + recheck_cores(config)


def recheck_cores(config, incremental: bool = True) -> list:
    """(f"recheck {n}", function from all videos to all videos) for each recheck round, each round handed
    the figures of the one before as the pipeline hands them; `incremental=False`: every video decided again."""
    from pipelines.cleaning.steps import recheck_rounds
    from transforms.recheck import RecheckInMemory

    rounds = RecheckInMemory(config, incremental)
    return [(f"recheck {number}", lambda videos, number=number: rounds.round(number, videos))
            for number in range(1, recheck_rounds(config) + 1)]


def run_steps(input_path, profile, measure, entering: dict | None = None):
    """Read, then each step over the whole dataset, each one called through `measure(step, thunk)`.
    `entering`: if given, it gets the videos that enter the first recheck round, under "recheck 1"."""
    from pipelines.config import load_config

    batches = measure("read", lambda: load_batches(input_path))
    for step, core in step_cores(load_config(profile)):
        if entering is not None and step == "recheck 1":
            entering[step] = batches
        batches = measure(step, lambda: core(batches))
    return batches


def write_tables(batches, output_dir, profile):
    """The tables of `batches` written as the pipeline writes them (its files, its row order), in this process."""
    from pipelines.cleaning.steps import STEP_NAMES
    from pipelines.cleaning.write_tables import rows_by_file, table_file_path, write_table_file
    from pipelines.config import load_config

    # The configuration is read once: read per batch (10,000 times), it once cost 60 s of this stage's figure.
    sen_ids_per_file = load_config(profile).output.sen_ids_per_file
    files = {}
    for batch in batches:
        for key, rows in rows_by_file(batch, sen_ids_per_file):
            files.setdefault(key, []).extend(rows)
    for (table, number), rows in files.items():
        write_table_file(rows, table, table_file_path(output_dir, table, number), STEP_NAMES)


def time_steps(input_path, profile, scratch) -> tuple:
    """(stage -> {"seconds", "cpu_seconds", "peak_mib"} of read, each step's core over the whole dataset, each
    recheck round and the writing of the tables: one process, no Beam, one stage after the other;
    the same of each recheck round deciding every video again, on the same input, after them).

    CPU time of this process: on an idle machine its wall time, on a shared one not stretched by the others' load.
    """
    from pipelines.config import load_config

    figures, every_video = {}, {}

    def measured(step, thunk, into=figures):
        result, into[step] = measure_in_process(thunk)
        return result

    entering = {}
    batches = run_steps(input_path, profile, measured, entering)
    measured("write", lambda: write_tables(batches, f"{scratch}/stages", profile))
    videos = entering.get("recheck 1")
    for name, core in recheck_cores(load_config(profile), incremental=False):
        videos = measured(name, lambda: core(videos), every_video)
    if every_video and videos != batches:
        raise SystemExit("bench: the recheck rounds that decide every video again gave other videos")
    return figures, every_video


def print_recheck_comparison(stages: dict, every_video: dict):
    """The rounds as shipped beside the rounds deciding every video again, CPU s, and their ratio."""
    print("  the recheck rounds, as shipped (incremental) and deciding every video again, same input, CPU s:")
    for name, before in every_video.items():
        after = stages[name]["cpu_seconds"]
        print(f"  {name:<26}{after:>9.1f}{before['cpu_seconds']:>8.1f}  ratio {after / before['cpu_seconds']:.2f}x")
    after = sum(stages[name]["cpu_seconds"] for name in every_video)
    before = sum(figures["cpu_seconds"] for figures in every_video.values())
    print(f"  {'all rounds':<26}{after:>9.1f}{before:>8.1f}  ratio {after / before:.2f}x (same videos out)")


def print_row(name, result, width=26):
    print(f"  {name:<{width}}{result['seconds']:>9.1f}{result['cpu_seconds']:>8.1f}{result['peak_mib']:>10.0f}")


def print_stages(stages: dict):
    print("  the run's stages one after the other, one process, no Beam (peak: the process's during the stage):")
    total_cpu = sum(figures["cpu_seconds"] for figures in stages.values())
    for name, figures in stages.items():
        print(f"  {name:<26}{figures['seconds']:>9.1f}{figures['cpu_seconds']:>8.1f}{figures['peak_mib']:>10.0f}"
              f"  {100 * figures['cpu_seconds'] / total_cpu:>5.1f}% of their CPU")


def print_fixed_cost(parts, finishing):
    start = parts["process start"]
    print("  fixed cost, its parts (each its own process; 'less start': less the process start):")
    print(f"  {'':<26}{'wall s':>9}{'CPU s':>8}{'peak MiB':>10}{'less start':>12}")
    for name, result in parts.items():
        extra = "" if name == "process start" else f"{result['seconds'] - start['seconds']:>11.2f}s"
        print(f"  {name:<26}{result['seconds']:>9.2f}{result['cpu_seconds']:>8.2f}{result['peak_mib']:>10.0f}{extra:>12}")
    print("  on the full run's written tables, in this process (as the launcher does after the pipeline):")
    for name, result in finishing.items():
        print_row(name, result)


def print_processes(name, result):
    """The processes of a run by role (the driver, Beam's SDK workers and the `sh` that starts each)."""
    roles = ", ".join(f"{role} x{figures['processes']} {figures['cpu_seconds']:.1f} s CPU, peak {figures['peak_mib']:.0f} MiB"
                      for role, figures in result["processes"].items())
    print(f"  the {name}'s processes: {roles}")


def print_run_times(manifest):
    times = manifest.get("times", {})
    phases = ", ".join(f"{name} {seconds:.1f}" for name, seconds in times.get("phases_seconds", {}).items())
    busy = ", ".join(f"{name} {seconds:.1f}" for name, seconds in times.get("busy_seconds", {}).items())
    print(f"  the full run's phases (wall s, its manifest): {phases}")
    print(f"  its Beam stages' busy time (s, summed over workers): {busy}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--input", required=True)
    parser.add_argument("--profile", default="default")
    parser.add_argument("--no-sweep", action="store_true", help="leave out the sweep (shorter)")
    parser.add_argument("--no-stages", action="store_true",
                        help="leave out the stages one after the other in this process (shorter)")
    parser.add_argument("--stages-only", action="store_true",
                        help="only the stages one after the other in this process and the recheck's comparison")
    parser.add_argument("--floor-only", metavar="OUTPUT", help=argparse.SUPPRESS)
    parser.add_argument("--pyarrow-floor-only", metavar="OUTPUT", help=argparse.SUPPRESS)
    parser.add_argument("--beam-start-only", action="store_true", help=argparse.SUPPRESS)
    args, beam_args = parser.parse_known_args()
    if args.floor_only:
        run_floor(args.input, args.floor_only, beam_args)
        return 0
    if args.pyarrow_floor_only:
        run_pyarrow_floor(args.input, args.pyarrow_floor_only)
        return 0
    if args.beam_start_only:
        run_beam_start(beam_args)
        return 0
    if args.stages_only:
        with tempfile.TemporaryDirectory(prefix="capclean-bench-") as scratch:
            stages, every_video = time_steps(args.input, args.profile, scratch)
        print(f"capclean bench on {args.input} (profile {args.profile}; stages only)")
        print_stages(stages)
        if every_video:
            print_recheck_comparison(stages, every_video)
        return 0

    with tempfile.TemporaryDirectory(prefix="capclean-bench-") as scratch:
        pyarrow_floor = run_measured([sys.executable, __file__, "--input", args.input, "--pyarrow-floor-only",
                                      f"{scratch}/pyarrow-floor"])
        floor = run_measured([sys.executable, __file__, "--input", args.input, "--floor-only",
                              f"{scratch}/floor"] + beam_args)
        capclean = str(Path(sys.executable).parent / "capclean")
        full = run_measured([capclean, "clean", "--input", args.input, "--output", f"{scratch}/full",
                             "--profile", args.profile, "--export", FULL_RUN_EXPORTS] + beam_args)
        runs = {"plain pyarrow floor": pyarrow_floor, "Beam I/O floor": floor, f"full run ({args.profile})": full}
        if not args.no_sweep:
            runs["sweep, 8 points"] = run_measured([capclean, "sweep", "--input", args.input, "--output",
                                                    f"{scratch}/sweep", "--profile", args.profile] + beam_args)
        for name, result in runs.items():
            if result["returncode"] != 0:
                print(result["output"])
                raise SystemExit(f"bench: the {name} failed")
        manifest = json.loads((Path(scratch) / "full" / "manifest.json").read_text())
        parts = fixed_cost_parts(beam_args)
        finishing = finishing_stages(f"{scratch}/full", args.input, args.profile, f"{scratch}/finishing")
        stages, every_video = ({}, {}) if args.no_stages else time_steps(args.input, args.profile, scratch)

    print(f"capclean bench on {args.input} (profile {args.profile}; Beam args: {' '.join(beam_args) or 'none'})")
    print(f"  {'':<26}{'wall s':>9}{'CPU s':>8}{'peak MiB':>10}")
    for name, result in runs.items():
        print_row(name, result)
    print_processes("full run", full)
    print_run_times(manifest)
    print_fixed_cost(parts, finishing)
    if stages:
        print_stages(stages)
    if every_video:
        print_recheck_comparison(stages, every_video)
    print("  ratios (each beside its floor, this run):")
    for floor_name in ("plain pyarrow floor", "Beam I/O floor"):
        base = runs[floor_name]
        print(f"    full run / {floor_name}: time {full['seconds'] / base['seconds']:.1f}x, "
              f"CPU {full['cpu_seconds'] / base['cpu_seconds']:.1f}x, memory {full['peak_mib'] / base['peak_mib']:.1f}x")
    print(f"    Beam I/O floor / plain pyarrow floor: time {floor['seconds'] / pyarrow_floor['seconds']:.1f}x, "
          f"CPU {floor['cpu_seconds'] / pyarrow_floor['cpu_seconds']:.1f}x")
    if "sweep, 8 points" in runs:
        print(f"    sweep / full run: time {runs['sweep, 8 points']['seconds'] / full['seconds']:.2f}x "
              f"(8 separate full runs would be 8x)")
    if stages and "runon" in stages:
        from pipelines.config import load_config

        runon = stages["runon"]["cpu_seconds"]
        steps_cpu = sum(figures["cpu_seconds"] for name, figures in stages.items() if name not in ("read", "write"))
        print(f"    step IV ({load_config(args.profile).runon.rule}) / the other steps and rounds together: "
              f"{runon / (steps_cpu - runon):.2f}x; / the rest of the full run (its CPU less step IV's core): "
              f"{runon / (full['cpu_seconds'] - runon):.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
