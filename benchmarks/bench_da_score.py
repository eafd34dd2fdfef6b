"""`make bench`, da score: `capclean da score` on a large simulated Direct Assessment study.

Builds a study of --hits HITs in the default recipe's shape (100 slots: 70 system over five systems, 10
reference, 10 degraded, 10 repeat; transforms/da/crowd.py), judged by --workers simulated workers (90% diligent,
10% random clickers) who each rate --hits-per-worker HITs, written as a prepared folder (hits/) and one
judgments CSV in a temporary folder; then runs `capclean da score` on it as its own process
(benchmarks/measure.py: wall, CPU, peak memory) and prints the throughput in judgments a CPU second (the
figure to compare on a shared machine; a second of wall time beside it) and the peak memory a judgment.

The default size is the issue's "1,000 workers x 100 HITs": a study of 100 HITs that 1,000 workers share, each
rating 5 of them (50 judgments of every slot, 500,000 in all): a large crowd study, scored in well under a
minute here.
"""
import argparse
import csv
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.measure import run_measured  # noqa: E402
from pipelines.evaluation.evaluation_io import write_parquet_table  # noqa: E402
from schemas.evaluation_tables import DA_HITS  # noqa: E402
from transforms.da.crowd import crowd, simulate_judgments, study_hits  # noqa: E402

SYSTEMS = ("s1", "s2", "s3", "s4", "s5")
QUALITY = {"s1": 75.0, "s2": 65.0, "s3": 55.0, "s4": 45.0, "s5": 35.0, "reference": 85.0}


def write_study(folder: Path, hit_count: int, workers: int, hits_per_worker: int) -> tuple:
    """The prepared folder and the judgments file; returns (prepared, judgments, rows written)."""
    hits = study_hits(SYSTEMS, hit_count, seed=1)
    write_parquet_table(folder / "prepared" / "hits", DA_HITS, hits)
    random = workers // 10
    judgments = simulate_judgments(hits, QUALITY, crowd(workers - random, random), hits_per_worker, seed=1)
    with open(folder / "judgments.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, ["worker", "hit_id", "slot", "score", "seconds"])
        writer.writeheader()
        writer.writerows(judgments)
    return folder / "prepared", folder / "judgments.csv", len(judgments)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hits", type=int, default=100, help="HITs of 100 slots (default: %(default)s)")
    parser.add_argument("--workers", type=int, default=1000, help="simulated workers (default: %(default)s)")
    parser.add_argument("--hits-per-worker", type=int, default=5, help="HITs each worker rates (default: "
                        "%(default)s)")
    parser.add_argument("--capclean", default=str(Path(sys.executable).with_name("capclean")))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="capclean-bench-da-score-") as scratch:
        started = time.monotonic()
        prepared, judgments, rows = write_study(Path(scratch), args.hits, args.workers, args.hits_per_worker)
        simulated = time.monotonic() - started
        output = Path(scratch) / "scored"
        result = run_measured([args.capclean, "da", "score", "--hits", str(prepared), "--judgments", str(judgments),
                               "--output", str(output)])
        if result["returncode"] != 0:
            sys.exit(f"capclean da score failed:\n{result['output'][-2000:]}")
        stats = json.loads((output / "stats.json").read_text())
        size = judgments.stat().st_size
    print(f"capclean da score: {args.workers:,} simulated workers x {args.hits_per_worker} HITs each, over "
          f"{args.hits:,} HITs of 100 slots: {rows:,} judgments ({size / 2**20:.1f} MiB of CSV; simulated in "
          f"{simulated:.1f} s)")
    print(f"  wall {result['seconds']:.1f} s, CPU {result['cpu_seconds']:.1f} s, peak {result['peak_mib']:.0f} MiB")
    print(f"  {rows / result['cpu_seconds']:,.0f} judgments a CPU second ({rows / result['seconds']:,.0f} a second of "
          f"wall time); peak memory {result['peak_mib'] * 2**20 / rows / 1024:.2f} KiB a judgment, "
          f"{result['peak_mib'] * 2**20 / size:.0f} times the CSV")
    print(f"  workers kept {stats['workers']['kept']:,} of {stats['workers']['judged']:,}; systems in order "
          f"{', '.join(row['system'] for row in stats['systems'])}")


if __name__ == "__main__":
    main()
