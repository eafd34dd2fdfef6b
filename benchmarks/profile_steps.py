"""cProfile of each step's core over the whole input, one process, no Beam: where the time goes.

    .venv/bin/python benchmarks/profile_steps.py --input ../shared/data/msrvtt [--profile default] [--top 12]

For each step it prints its wall time and the functions that take the most
time of their own (tottime), which is where a step is worth making faster.
"""
import argparse
import cProfile
import io
import pstats
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from benchmarks.bench_pipeline import run_steps  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--input", required=True)
    parser.add_argument("--profile", default="default")
    parser.add_argument("--top", type=int, default=12, help="functions listed per step")
    args = parser.parse_args()

    def profiled(step, thunk):
        profiler = cProfile.Profile()
        started = time.perf_counter()
        result = profiler.runcall(thunk)
        seconds = time.perf_counter() - started
        report = io.StringIO()
        pstats.Stats(profiler, stream=report).sort_stats("tottime").print_stats(args.top)
        lines = [line for line in report.getvalue().splitlines() if line.strip()]
        start = next(i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls"))
        print(f"== {step}: {seconds:.2f} s (under the profiler)")
        print("\n".join(lines[start:]))
        return result

    run_steps(args.input, args.profile, profiled)
    return 0


if __name__ == "__main__":
    sys.exit(main())
