"""Scores of a stand-in model for every (video, text) pair a `capclean hardneg` output needs: the
check that `capclean posrank` gives chance for random scores and 1.000 for an oracle.

    python benchmarks/scores_for_negatives.py --negatives DIR --to scores.parquet --model random
    capclean posrank --negatives DIR --scores scores.parquet

`random`: a seeded uniform score per pair. `oracle`: 1 for the true caption, 0 for its negatives.
"""
import argparse
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipelines.evaluation.posrank.inputs import read_negatives  # noqa: E402


def stand_in_scores(negatives: dict, model: str, seed: int) -> pa.Table:
    true_pairs = sorted(set(zip(negatives["video_id"], (str(sen_id) for sen_id in negatives["sen_id"]))))
    negative_pairs = list(zip(negatives["video_id"], negatives["negative_id"]))
    video_ids = [video_id for video_id, _ in true_pairs + negative_pairs]
    text_ids = [text_id for _, text_id in true_pairs + negative_pairs]
    if model == "oracle":
        scores = [1.0] * len(true_pairs) + [0.0] * len(negative_pairs)
    else:
        scores = np.random.default_rng(seed).random(len(video_ids)).tolist()
    return pa.table({"video_id": video_ids, "text_id": text_ids, "score": scores})


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--negatives", required=True, help="a capclean hardneg output folder")
    parser.add_argument("--to", required=True, help="the Parquet file of scores to write")
    parser.add_argument("--model", choices=["random", "oracle"], default="random")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    table = stand_in_scores(read_negatives(args.negatives), args.model, args.seed)
    pq.write_table(table, args.to)
    print(f"{table.num_rows:,} {args.model} scores written to {args.to}")


if __name__ == "__main__":
    main()
