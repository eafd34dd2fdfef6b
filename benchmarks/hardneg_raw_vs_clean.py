"""Hard negatives built from raw and from cleaned captions: what cleaning spares them.

    python benchmarks/hardneg_raw_vs_clean.py --raw RAW_HARDNEG --clean CLEAN_HARDNEG --run CLEANING_OUTPUT

RAW_HARDNEG and CLEAN_HARDNEG are `capclean hardneg` outputs of the same videos, from the
raw annotations and from the cleaning output CLEANING_OUTPUT. For each part of speech it
counts the raw negatives that change a word capclean's spelling step corrected in that
caption (corrections/), or left flagged as unknown (flagged/), and those made from a
caption capclean removes as a near-duplicate (removed/, step dedup) or for another reason.
"""
import argparse
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq

PARTS = ("noun", "verb", "adjective", "adverb", "preposition")


def words_by_caption(table_dir: Path, word_column: str) -> dict:
    """sen_id -> the set of words (lower case) a table names for it."""
    table = pq.read_table(table_dir, columns=["sen_id", word_column]).to_pydict()
    words = {}
    for sen_id, word in zip(table["sen_id"], table[word_column]):
        words.setdefault(sen_id, set()).add(word.lower())
    return words


def removal_steps(run: Path) -> dict:
    removed = pq.read_table(run / "removed", columns=["sen_id", "step"]).to_pydict()
    return {sen_id: step for sen_id, step in zip(removed["sen_id"], removed["step"]) if sen_id is not None}


def compare(raw: Path, clean: Path, run: Path) -> dict:
    corrected = words_by_caption(run / "corrections", "original")
    flagged = words_by_caption(run / "flagged", "token")
    removed = removal_steps(run)
    raw_rows = pq.read_table(raw / "hardneg", columns=["sen_id", "part", "originals"]).to_pylist()
    counts = {part: Counter() for part in PARTS}
    for row in raw_rows:
        figures, originals = counts[row["part"]], {word.lower() for word in row["originals"]}
        figures["raw negatives"] += 1
        figures["change a word step II corrected"] += bool(originals & corrected.get(row["sen_id"], set()))
        figures["change a word step II flagged"] += bool(originals & flagged.get(row["sen_id"], set()))
        step = removed.get(row["sen_id"])
        figures["of a caption removed as a near-duplicate"] += step == "dedup"
        figures["of a caption removed otherwise"] += step is not None and step != "dedup"
    for part, n in Counter(pq.read_table(clean / "hardneg", columns=["part"])["part"].to_pylist()).items():
        counts[part]["cleaned negatives"] = n
    return counts


def markdown_table(counts: dict) -> str:
    rows = ["raw negatives", "change a word step II corrected", "change a word step II flagged",
            "of a caption removed as a near-duplicate", "of a caption removed otherwise", "cleaned negatives"]
    lines = ["| | " + " | ".join(PARTS) + " |", "| --- |" + " --- |" * len(PARTS)]
    for name in rows:
        lines.append(f"| {name} | " + " | ".join(f"{counts[part][name]:,}" for part in PARTS) + " |")
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--raw", required=True, type=Path)
    parser.add_argument("--clean", required=True, type=Path)
    parser.add_argument("--run", required=True, type=Path, help="the cleaning output the clean negatives read")
    args = parser.parse_args()
    print(markdown_table(compare(args.raw, args.clean, args.run)))


if __name__ == "__main__":
    main()
