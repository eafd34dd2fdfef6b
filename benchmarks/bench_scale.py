"""`make bench-scale`: the default cleaning of synthetic corpora 1 and 10 times MSR-VTT on two engines, in one run.

For each scale, benchmarks/make_scaled_corpus.py writes the corpus into a
scratch folder (never the repository) and `capclean clean` runs on it as its
own process, once per engine:

  fnapi  Beam's FnApiRunner with --workers SDK worker processes (multi_processing)
  dask   Beam's DaskRunner (pipelines/runtime/dask_runner.py) on a local
         dask.distributed cluster of --workers worker processes

and, at the smallest scale only, once more on the in-process FnApiRunner: the
reference every engine's output must equal byte for byte. What is comparable is
the same corpus: a 10x corpus is other data than the 1x one (its captions are
new draws, and the corpus counts steps II and III decide by grow with it), so its
two engines are compared with each other, not with the 1x run; an in-process run
of 10x (the serial cost of the whole run, about an hour) is not made.

Every process of a run is measured (benchmarks/measure.py): the driver (which
also runs the local dask scheduler), the SDK workers, the dask workers. Printed
per run: wall and CPU time, the CPU of each kind of process, the peak memory of
the whole run and of its largest process, and per caption; then the ratios the
scale target names: time per caption at the largest scale over the smallest,
the FnApiRunner's peak, the Dask workers' peak per worker across scales, and
the Dask run's CPU per caption over the FnApiRunner's on the same data.
While developing, a part of MSR-VTT is a scale below 1 (`--scales 0.2`).
"""
import argparse
import contextlib
import hashlib
import os
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.make_scaled_corpus import write_scaled_corpus  # noqa: E402
from benchmarks.measure import run_measured  # noqa: E402
from pipelines.output.manifest import read_parquet_provenance  # noqa: E402

ENGINES = ("fnapi", "dask")
REFERENCE = "in-process"
# The targets (issue 41, "make bench-scale").
PER_CAPTION_GROWTH_LIMIT = 1.1
FNAPI_PEAK_LIMIT_MIB = 4 * 1000**3 / 2**20  # 4 GB
DASK_CPU_LIMIT = 1.3


def parse_scales(text: str) -> list:
    """'1,10' -> [1, 10]; a scale below 1 is a part of MSR-VTT ('0.2'); whole numbers stay ints."""
    scales = []
    for item in text.split(","):
        value = float(item)
        if value <= 0 or (value > 1 and value != int(value)):
            raise ValueError(f"--scales {text}: {item} is neither a whole number nor a fraction below 1")
        scales.append(int(value) if value == int(value) else value)
    return sorted(set(scales))


def engine_args(engine: str, workers: int) -> list:
    if engine == "fnapi":
        return [f"--direct_num_workers={workers}", "--direct_running_mode=multi_processing"]
    if engine == "dask":
        return ["--runner=DaskRunner", f"--dask_local_workers={workers}"]
    return []  # the in-process reference


def output_digest(output: Path) -> dict:
    """sha256 of every Parquet file and of stats.json, by path (what tests/integration/test_runners.py compares)."""
    paths = sorted(output.rglob("*.parquet")) + [output / "stats.json"]
    return {str(path.relative_to(output)): hashlib.sha256(path.read_bytes()).hexdigest() for path in paths}


def checkout_env() -> dict:
    """The environment of a run: this checkout's code first on PYTHONPATH. The venv's `capclean` otherwise
    loads the checkout the venv was installed from (an editable install), whatever checkout the bench is
    run in, and a checkout that moves during the bench would give its engines different code."""
    paths = [str(REPO)] + [path for path in os.environ.get("PYTHONPATH", "").split(os.pathsep) if path]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths)}


def clean_measured(corpus: Path, output: Path, profile: str, beam_args: list) -> dict:
    capclean = str(Path(sys.executable).parent / "capclean")
    result = run_measured([capclean, "clean", "--input", str(corpus), "--output", str(output),
                           "--profile", profile, "--config", str(corpus / "ranges.yaml")] + beam_args,
                          env=checkout_env())
    if result["returncode"] != 0:
        print(result["output"])
        raise SystemExit(f"bench-scale: the run {' '.join(beam_args) or 'in-process'} on {corpus} failed")
    provenance = read_parquet_provenance(output / "captions") or {}
    return {**result, "digest": output_digest(output), "commit": provenance.get("commit")}


def worker_peak_mib(result: dict, engine: str) -> float:
    """The largest peak of one worker process of the run (SDK worker or dask worker)."""
    role = "dask worker" if engine == "dask" else "sdk worker"
    return result["processes"].get(role, {}).get("peak_mib", 0.0)


def per_caption(result: dict, captions: int) -> dict:
    return {"wall": result["seconds"] / captions, "cpu": result["cpu_seconds"] / captions}


def scale_ratios(runs: dict, scales: list) -> dict:
    """The target's ratios from runs[(scale, engine)] = {"seconds", "cpu_seconds", "captions", "peak_mib",
    "worker_peak_mib"}: per engine, time and CPU per caption and the worker's peak at the largest scale over
    the smallest; per scale, the Dask run's CPU per caption over the FnApiRunner's."""
    first, last = scales[0], scales[-1]
    ratios = {"growth": {}, "dask_over_fnapi_cpu": {}}
    for engine in ENGINES:
        if (first, engine) not in runs or (last, engine) not in runs:
            continue
        small, large = runs[(first, engine)], runs[(last, engine)]
        small_per, large_per = per_caption(small, small["captions"]), per_caption(large, large["captions"])
        ratios["growth"][engine] = {"wall_per_caption": large_per["wall"] / small_per["wall"],
                                    "cpu_per_caption": large_per["cpu"] / small_per["cpu"],
                                    "worker_peak": large["worker_peak_mib"] / small["worker_peak_mib"],
                                    "peak": large["peak_mib"] / small["peak_mib"]}
    for scale in scales:
        if (scale, "dask") in runs and (scale, "fnapi") in runs:
            dask, fnapi = runs[(scale, "dask")], runs[(scale, "fnapi")]
            ratios["dask_over_fnapi_cpu"][scale] = (dask["cpu_seconds"] / dask["captions"]) / \
                (fnapi["cpu_seconds"] / fnapi["captions"])
    return ratios


def print_runs(runs: dict) -> None:
    print(f"  {'scale':<7}{'engine':<12}{'captions':>9}{'wall s':>8}{'CPU s':>8}{'driver':>8}{'workers':>8}"
          f"{'wall us/cap':>12}{'CPU us/cap':>11}{'peak MiB':>9}{'largest':>8}{'worker':>7}")
    for (scale, engine), run in runs.items():
        processes = run["processes"]
        workers_cpu = sum(figures["cpu_seconds"] for role, figures in processes.items() if role != "driver")
        print(f"  {str(scale) + 'x':<7}{engine:<12}{run['captions']:>9}{run['seconds']:>8.1f}{run['cpu_seconds']:>8.1f}"
              f"{processes.get('driver', {}).get('cpu_seconds', 0):>8.1f}{workers_cpu:>8.1f}"
              f"{1e6 * run['seconds'] / run['captions']:>12.0f}{1e6 * run['cpu_seconds'] / run['captions']:>11.0f}"
              f"{run['peak_mib']:>9.0f}{run['peak_process_mib']:>8.0f}{run['worker_peak_mib']:>7.0f}")
    print("  (CPU s: every process of the run; driver: the command's own process, which runs the local dask "
          "scheduler; workers: the rest, sampled;\n   peak MiB: all processes at once; largest: one process; "
          "worker: the largest worker process)")


def print_ratios(ratios: dict, runs: dict, scales: list) -> None:
    first, last = scales[0], scales[-1]
    for engine, growth in ratios["growth"].items():
        print(f"  {engine}: {last}x / {first}x per caption: wall {growth['wall_per_caption']:.2f}x, "
              f"CPU {growth['cpu_per_caption']:.2f}x (target at most {PER_CAPTION_GROWTH_LIMIT}x); "
              f"peak of a worker {growth['worker_peak']:.2f}x, of the run {growth['peak']:.2f}x")
    if (last, "fnapi") in runs:
        peak = runs[(last, "fnapi")]["peak_mib"]
        print(f"  fnapi peak at {last}x: {peak:.0f} MiB = {peak / FNAPI_PEAK_LIMIT_MIB:.2f} of the 4 GB target")
    for scale, ratio in ratios["dask_over_fnapi_cpu"].items():
        print(f"  dask CPU per caption / fnapi's at {scale}x: {ratio:.2f}x (target at most {DASK_CPU_LIMIT}x)")


def compare_outputs(runs: dict, scales: list) -> bool:
    """Each run's bytes against the in-process run of its scale, or else the FnApiRunner's; prints the verdicts."""
    same = True
    for scale in scales:
        reference_engine = REFERENCE if (scale, REFERENCE) in runs else "fnapi"
        reference = runs.get((scale, reference_engine))
        for (run_scale, engine), run in runs.items():
            if run_scale != scale or engine == reference_engine or reference is None:
                continue
            differing = sorted(path for path in set(run["digest"]) | set(reference["digest"])
                               if run["digest"].get(path) != reference["digest"].get(path))
            same &= not differing
            print(f"  {scale}x {engine} vs {reference_engine}: {len(reference['digest'])} files, "
                  f"{'byte-identical' if not differing else 'DIFFERENT: ' + ', '.join(differing)}")
            if differing and run.get("commit") != reference.get("commit"):
                print(f"    (the two runs loaded different commits, {reference.get('commit')} and {run.get('commit')}, "
                      "which every Parquet file names: the checkout changed during the bench)")
    return same


def scratch_folder(parent, keep: bool):
    """A new folder for the corpora and outputs under parent (default: the system's temporary folder), as a
    context manager: removed at the end unless kept, when its path is printed first so it can be looked at."""
    if not keep:
        return tempfile.TemporaryDirectory(prefix="capclean-scale-", dir=parent)
    kept = tempfile.mkdtemp(prefix="capclean-scale-", dir=parent)
    print(f"bench-scale: corpora and outputs kept in {kept}", flush=True)
    return contextlib.nullcontext(kept)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--input", required=True, help="the MSR-VTT annotations the corpora are drawn from")
    parser.add_argument("--profile", default="default")
    parser.add_argument("--scales", default="1,10",
                        help="comma-separated scales of MSR-VTT (default 1,10; below 1: a part of it)")
    parser.add_argument("--workers", type=int, default=2, help="worker processes of each engine (default 2)")
    parser.add_argument("--engines", default=",".join(ENGINES), help=f"of {', '.join(ENGINES)} (default both)")
    parser.add_argument("--no-reference", action="store_true",
                        help="skip the in-process run at the smallest scale (the engines are then compared "
                             "with each other only)")
    parser.add_argument("--scratch", default=None, help="folder for the corpora and outputs (default: a temporary one)")
    parser.add_argument("--keep", action="store_true",
                        help="keep the folder of the corpora and outputs (its path is printed) to compare them")
    args = parser.parse_args()
    scales = parse_scales(args.scales)
    engines = [engine for engine in args.engines.split(",") if engine]
    if set(engines) - set(ENGINES):
        parser.error(f"--engines: one of {', '.join(ENGINES)}")
    runs = {}
    with scratch_folder(args.scratch, args.keep) as scratch:
        for scale in scales:
            corpus = Path(scratch) / f"corpus-{scale}x"
            totals = write_scaled_corpus(args.input, corpus, scale, seed=0, videos_per_file=2500)
            names = list(engines) + ([REFERENCE] if scale == scales[0] and not args.no_reference else [])
            for engine in names:
                result = clean_measured(corpus, Path(scratch) / f"out-{scale}x-{engine}", args.profile,
                                        engine_args(engine, args.workers))
                result.update(captions=totals["captions"], worker_peak_mib=worker_peak_mib(result, engine))
                runs[(scale, engine)] = result
                print(f"  {scale}x {engine} done: {result['seconds']:.1f} s, CPU {result['cpu_seconds']:.1f} s",
                      flush=True)

    print(f"capclean bench-scale (profile {args.profile}, {args.workers} workers per engine)")
    print_runs(runs)
    print_ratios(scale_ratios(runs, scales), runs, scales)
    return 0 if compare_outputs(runs, scales) else 1


if __name__ == "__main__":
    sys.exit(main())
