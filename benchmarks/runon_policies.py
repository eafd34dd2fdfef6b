"""Step IV's `first` and `merge` policies side by side, on the run-ons of a cleaning output.

    python benchmarks/runon_policies.py --run CLEANING_OUTPUT [--splits train,validate]
        [--judge-sample N --seed S --out FILE.tsv --key KEY.tsv]

For the split captions of the named splits (runon/), it prints the length in words of the
caption each policy would keep (the first sentence, or the sentences merged with "and")
beside the length of every caption of those splits in captions/: the mean, the median,
the 90th and 99th percentiles and the longest.

With --judge-sample it also writes N of those run-ons, drawn at random, as a blind
comparison sheet: for each, the two versions in a random order (columns `a`, `b`) and an
empty `better` column for a judge to fill with `a`, `b` or `same`. The key (which of a
and b is `first`) goes to a separate file, so the judge sees neither the policy nor the key.
"""
import argparse
import random
import statistics
import sys
from pathlib import Path

import pyarrow.parquet as pq

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from transforms.runon.step import merge_sentences  # noqa: E402


def lengths_summary(lengths: list) -> str:
    ordered = sorted(lengths)
    percentile = lambda p: ordered[min(len(ordered) - 1, int(p * len(ordered)))]  # noqa: E731
    return (f"{len(ordered):7} captions  mean {statistics.mean(ordered):5.1f}  median {statistics.median(ordered):4.0f}"
            f"  p90 {percentile(0.9):3}  p99 {percentile(0.99):3}  longest {ordered[-1]:3}")


def runons(run: Path, splits: tuple) -> list:
    """(sen_id, first sentence, merged sentences) of every split caption of `splits`."""
    rows = pq.read_table(run / "runon", columns=["sen_id", "split", "sentences"]).to_pylist()
    return [(row["sen_id"], row["sentences"][0], merge_sentences(row["sentences"]))
            for row in rows if row["split"] in splits]


def caption_lengths(run: Path, splits: tuple) -> list:
    table = pq.read_table(run / "captions", columns=["split", "caption"]).to_pydict()
    return [len(text.split()) for split, text in zip(table["split"], table["caption"]) if split in splits]


def write_judge_sheet(pairs: list, size: int, seed: int, sheet: Path, key: Path) -> None:
    rng = random.Random(seed)
    chosen = sorted(rng.sample(pairs, min(size, len(pairs))))
    with open(sheet, "w", encoding="utf-8") as out, open(key, "w", encoding="utf-8") as keys:
        out.write("sen_id\ta\tb\tbetter\n")
        keys.write("sen_id\tfirst_is\n")
        for sen_id, first, merged in chosen:
            first_is = rng.choice("ab")
            a, b = (first, merged) if first_is == "a" else (merged, first)
            out.write(f"{sen_id}\t{a}\t{b}\t\n")
            keys.write(f"{sen_id}\t{first_is}\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", required=True, type=Path, help="a capclean clean output (default profile)")
    parser.add_argument("--splits", default="train,validate")
    parser.add_argument("--judge-sample", type=int, default=0, metavar="N")
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--out", type=Path, help="with --judge-sample: the blind sheet")
    parser.add_argument("--key", type=Path, help="with --judge-sample: which version is `first`")
    args = parser.parse_args()
    splits = tuple(args.splits.split(","))
    pairs = runons(args.run, splits)
    print(f"run-ons of {', '.join(splits)}, length in words:")
    print(f"  every caption of captions/  {lengths_summary(caption_lengths(args.run, splits))}")
    print(f"  first sentence (`first`)    {lengths_summary([len(first.split()) for _, first, _ in pairs])}")
    print(f"  merged (`merge`)            {lengths_summary([len(merged.split()) for _, _, merged in pairs])}")
    if args.judge_sample:
        if not (args.out and args.key):
            parser.error("--judge-sample needs --out and --key")
        write_judge_sheet(pairs, args.judge_sample, args.seed, args.out, args.key)
        print(f"wrote {args.out} (blind) and {args.key}")


if __name__ == "__main__":
    main()
