"""The MET proxy's relevance written as `capclean relevance` writes the others:
relevance/proxy=met/part-NNNNN.parquet, one row (video_id, sen_id, score float32) per pair with
score > 0, a video's own captions at 1.

Which pairs (MetPairs):

- query captions against every video of the selection: all of them (sample None; MSR-VTT's
  test split is 179 million rows, about 30 CPU minutes with the max kernel, an hour with
  match: docs/evaluation/meteor.md), or a seeded sample;
- or a CSV of (video_id, sen_id) pairs, such as a model's top-k.

`write_met_relevance` is the whole command; `capclean relevance --proxies met` calls it with the
captions it has read. The method is transforms/evaluation/met_relevance.py.
"""
import csv
import random
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from schemas.evaluation_tables import RELEVANCE
from transforms.errors import CapcleanError
from transforms.evaluation.lexicon import default_wordnet_dir, open_wordnet
from transforms.evaluation.met_relevance import MetSettings, Query, pair_rows, query_relevance, video_side
from transforms.evaluation.meteor import MeteorLexicon

PROXY_FOLDER = Path("relevance") / "proxy=met"
# Query captions per part file: each against every video. 500 x 59,800 test captions = 30 million
# METEOR pairs (about 15 s on one core), 1.5 million rows.
QUERIES_PER_PART = 500
# Listed pairs per part file.
PAIRS_PER_PART = 50_000


@dataclass(frozen=True)
class MetPairs:
    """Which (video, caption) pairs to score: `sample` query captions drawn with `seed` (all the
    selection's captions when None) against every video, or the pairs of a CSV `pairs_file`."""
    sample: Optional[int] = 100
    seed: int = 0
    pairs_file: Optional[str] = None


@dataclass
class MetInputs:
    """The selection's captions encoded once: sen_id -> Query, video_id -> its encoded captions."""
    lexicon: MeteorLexicon
    queries: dict = field(default_factory=dict)
    videos: dict = field(default_factory=dict)


def encode_captions(captions: list, lexicon: MeteorLexicon) -> MetInputs:
    """`captions`: (sen_id, video_id, ...caption last) rows, as pipelines/evaluation/caption_input.py reads them."""
    inputs = MetInputs(lexicon)
    for row in sorted(captions):
        sen_id, video_id, text = row[0], row[1], row[-1]
        encoded = lexicon.encode(text or "")
        inputs.queries[sen_id] = Query(sen_id, video_id, encoded)
        inputs.videos.setdefault(video_id, []).append(encoded)
    return inputs


def sample_queries(inputs: MetInputs, sample: Optional[int], seed: int) -> list:
    """The query captions, by sen_id: a seeded sample, or all of them."""
    sen_ids = sorted(inputs.queries)
    if sample is not None and sample < len(sen_ids):
        sen_ids = sorted(random.Random(seed).sample(sen_ids, sample))
    return [inputs.queries[sen_id] for sen_id in sen_ids]


def read_pairs(path: str, inputs: MetInputs) -> list:
    """(video_id, sen_id) of a CSV with those two columns; a video or caption outside the selection is an error."""
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            rows = list(csv.DictReader(handle))
    except OSError as error:
        raise CapcleanError(f"cannot read the pairs file {path}: {error.strerror}") from None
    pairs = []
    for number, row in enumerate(rows, start=2):
        try:
            video_id, sen_id = row["video_id"], int(row["sen_id"])
        except (KeyError, TypeError, ValueError):
            raise CapcleanError(f"{path} line {number}: expected columns video_id and sen_id (an integer)") from None
        if video_id not in inputs.videos or sen_id not in inputs.queries:
            raise CapcleanError(f"{path} line {number}: video {video_id} or caption {sen_id} is not in the selection")
        pairs.append((video_id, sen_id))
    return pairs


def write_parts(output_dir: Path, tables) -> tuple:
    """One part file per table of (video_id, sen_id, score); the rows written and their scores' sum."""
    folder = Path(output_dir) / PROXY_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    written, score_sum = 0, 0.0
    for number, table in enumerate(tables):
        pq.write_table(table, folder / f"part-{number:05d}.parquet", compression="zstd")
        written += table.num_rows
        score_sum += float(np.sum(table["score"].to_numpy(), dtype=np.float64))
    return written, score_sum


def rows_table(video_ids, sen_ids, scores) -> pa.Table:
    return pa.Table.from_arrays([pa.array(video_ids, type=pa.string()), pa.array(sen_ids, type=pa.int64()),
                                 pa.array(scores, type=pa.float32())], schema=RELEVANCE)


def queries_table(queries: list, side, lexicon: MeteorLexicon, settings: MetSettings) -> pa.Table:
    """Each query against every video of the side, as rows with score > 0."""
    video_ids = np.array(side.video_ids, dtype=object)
    columns = ([], [], [])
    for query in queries:
        scores = query_relevance(query, side, lexicon, settings)
        kept = scores > 0
        columns[0].append(video_ids[kept])
        columns[1].append(np.full(int(kept.sum()), query.sen_id, dtype=np.int64))
        columns[2].append(scores[kept].astype(np.float32))
    return rows_table(*(np.concatenate(column) if column else [] for column in columns))


def _chunks(items: list, size: int):
    for start in range(0, len(items), size):
        yield items[start:start + size]


def write_met_relevance(output_dir: Path, captions: list, pairs: MetPairs = MetPairs(),
                        settings: MetSettings = MetSettings(), lexicon: Optional[MeteorLexicon] = None) -> dict:
    """Write relevance/proxy=met/ under `output_dir` for the selected `captions` (every video of
    them is a candidate); return the figures for stats.json, with the keys of the other proxies'
    (pairs: rows written, all_pairs: (video, caption) pairs scored). Without a lexicon, WordNet is
    opened from where `make install` puts it."""
    started, cpu_started = time.monotonic(), time.process_time()
    inputs = encode_captions(captions, lexicon or MeteorLexicon(open_wordnet(default_wordnet_dir())))
    if pairs.pairs_file:
        listed = read_pairs(pairs.pairs_file, inputs)
        chunks = (rows_table(*zip(*rows)) if rows else rows_table([], [], [])
                  for rows in (list(pair_rows(chunk, inputs.queries, inputs.videos, inputs.lexicon, settings))
                               for chunk in _chunks(listed, PAIRS_PER_PART)))
        scope = {"pairs_file": pairs.pairs_file}
        scored = len(listed)
    else:
        queries = sample_queries(inputs, pairs.sample, pairs.seed)
        side = video_side(inputs.videos, inputs.lexicon)
        chunks = (queries_table(chunk, side, inputs.lexicon, settings) for chunk in _chunks(queries, QUERIES_PER_PART))
        scope = {"queries": len(queries), "sample": pairs.sample, "seed": pairs.seed}
        scored = len(queries) * len(inputs.videos)
    rows, score_sum = write_parts(output_dir, chunks)
    return {"kernel": settings.kernel, "videos": len(inputs.videos), **scope, "pairs": rows, "all_pairs": scored,
            "density": rows / scored if scored else 0.0, "mean_score": score_sum / scored if scored else 0.0,
            "seconds": round(time.monotonic() - started, 3), "cpu_seconds": round(time.process_time() - cpu_started, 1)}
