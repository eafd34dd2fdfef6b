"""Simulated judgments of a prepared Direct Assessment study, standing in for people (docs/da-study.md).

    python benchmarks/da_simulated_crowd.py --hits DIR --output FILE.csv [--mturk]
        [--quality raw=60,cleaned=64,reference=70] [--diligent 136] [--random 15] [--hits-per-worker 2] [--seed 1]

Reads the hits/ table of a `capclean da prepare` output and writes what a crowd would hand back: the rating
page's CSV (worker, hit_id, slot, score, seconds), or with --mturk MTurk's batch results CSV for the batch the
command exported (mturk/batch.csv). The workers are transforms/da/crowd.py's: diligent ones score each
caption's quality (its system's, plus a spread per caption) with their own noise, the first harsh and the second
lenient; random clickers score anything. Worker i rates HITs i*k ... i*k+k-1 (k = --hits-per-worker), round the
study. Nothing here is a finding about captions: the qualities are the simulation's assumptions.
"""
import argparse
import csv
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pyarrow.parquet as pq  # noqa: E402

from transforms.da.crowd import crowd, mturk_results, simulate_judgments  # noqa: E402


def parse_quality(text: str) -> dict:
    """'raw=60,cleaned=64,reference=70' -> {'raw': 60.0, ...}."""
    quality = {}
    for part in text.split(","):
        system, _, value = part.partition("=")
        quality[system.strip()] = float(value)
    return quality


def write_rows(path: Path, rows: list) -> None:
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hits", required=True, help="a capclean da prepare output")
    parser.add_argument("--output", required=True, help="the judgments CSV to write (a new file)")
    parser.add_argument("--mturk", action="store_true", help="write MTurk's batch results for mturk/batch.csv")
    parser.add_argument("--quality", default="raw=60,cleaned=64,reference=70",
                        help="each system's mean quality, 0-100 (default: %(default)s)")
    parser.add_argument("--diligent", type=int, default=136, help="diligent workers (default: %(default)s)")
    parser.add_argument("--random", type=int, default=15, help="random clickers (default: %(default)s)")
    parser.add_argument("--hits-per-worker", type=int, default=2, help="HITs each worker rates (default: "
                        "%(default)s)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    output = Path(args.output)
    if output.exists():
        sys.exit(f"{output} exists; name a new file")
    hits = pq.read_table(Path(args.hits) / "hits").to_pylist()
    judgments = [{**judgment, "score": int(judgment["score"])}  # whole numbers, as the slider gives
                 for judgment in simulate_judgments(hits, parse_quality(args.quality),
                                                    crowd(args.diligent, args.random), args.hits_per_worker,
                                                    seed=args.seed)]
    if args.mturk:
        with open(Path(args.hits) / "mturk" / "batch.csv", newline="", encoding="utf-8") as handle:
            write_rows(output, mturk_results(list(csv.DictReader(handle)), judgments))
    else:
        write_rows(output, judgments)
    workers = args.diligent + args.random
    print(f"{len(judgments):,} judgments by {workers:,} simulated workers ({args.diligent:,} diligent, "
          f"{args.random:,} random), {args.hits_per_worker} HITs each; written to {output}")


if __name__ == "__main__":
    main()
