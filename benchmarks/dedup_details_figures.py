"""Step III's removals in two cleaning outputs: word-for-word copies and the rest, and what moved.

    python benchmarks/dedup_details_figures.py --before OUTPUT_BEFORE --after OUTPUT_AFTER

Both are `capclean clean` outputs of the same input. A near-duplicate row (removed/, step
dedup) is word for word when its caption is the same text as the caption that stands for its
group (its `kept_sen_id`, in captions/); otherwise it is non-identical. It prints, for each
output, the removals (total, word for word, non-identical), and how many of BEFORE's
word-for-word removals AFTER still removes (as a near-duplicate), the figure issue 42 bounds
(at least 95%). The figures of docs/steps/dedup.md come from here.
"""
import argparse
from pathlib import Path

import pyarrow.parquet as pq


def near_duplicate_removals(output: Path) -> dict:
    """sen_id -> whether step III removed it word for word (same text as its kept caption)."""
    captions = pq.read_table(output / "captions", columns=["sen_id", "caption"]).to_pydict()
    text_of = dict(zip(captions["sen_id"], captions["caption"]))
    rows = pq.read_table(output / "removed", columns=["sen_id", "caption", "step", "kept_sen_id"]).to_pylist()
    return {row["sen_id"]: row["caption"] == text_of.get(row["kept_sen_id"])
            for row in rows if row["step"] == "dedup"}


def figures(before: Path, after: Path) -> dict:
    removed_before, removed_after = near_duplicate_removals(before), near_duplicate_removals(after)
    counts = {}
    for name, removed in (("before", removed_before), ("after", removed_after)):
        copies = sum(removed.values())
        counts[name] = {"removed": len(removed), "word for word": copies, "non-identical": len(removed) - copies}
    copies_before = [sen_id for sen_id, copy in removed_before.items() if copy]
    still = sum(sen_id in removed_after for sen_id in copies_before)
    counts["word-for-word removals of before still removed"] = (still, len(copies_before))
    non_identical_before = [sen_id for sen_id, copy in removed_before.items() if not copy]
    counts["non-identical removals of before kept now"] = (
        sum(sen_id not in removed_after for sen_id in non_identical_before), len(non_identical_before))
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--after", type=Path, required=True)
    args = parser.parse_args()
    counts = figures(args.before, args.after)
    print("| output | removed | word for word | non-identical |")
    print("| --- | --- | --- | --- |")
    for name in ("before", "after"):
        row = counts[name]
        print(f"| {name} | {row['removed']:,} | {row['word for word']:,} | {row['non-identical']:,} |")
    for name in ("word-for-word removals of before still removed", "non-identical removals of before kept now"):
        part, whole = counts[name]
        print(f"{name}: {part:,} of {whole:,} ({part / whole:.1%})" if whole else f"{name}: none")


if __name__ == "__main__":
    main()
