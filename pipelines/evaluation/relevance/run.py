"""`capclean relevance`: the relevance of every (video, caption) pair of a split by the proxies
bow, pos and syn, and met on request, written as relevance/proxy=NAME/part-*.parquet, with
stats.json and manifest.json. met (METEOR) is pipelines/evaluation/relevance/met.py.

The input is read as `capclean overlap` reads it (pipelines/evaluation/caption_input.py); the captions are
tagged once by spaCy (transforms/evaluation/pos.py) for every proxy. The method is
transforms/evaluation/relevance.py; docs/commands/relevance.md says how to use it and what it
costs on MSR-VTT. No Beam: sparse products in one process, one chunk of captions at a time, each
chunk written as it is made, so memory holds one chunk of pairs, not the ~180 million.
"""
import json
import logging
import resource
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from pipelines.evaluation.evaluation_io import write_stats
from transforms.errors import CapcleanError

log = logging.getLogger("capclean")


@dataclass(frozen=True)
class RelevanceRun:
    """What `capclean relevance` was asked for, besides the reading of the construction."""
    input_path: str
    split: str | None  # None: every split
    videos_file: str | None
    proxies: tuple
    chunk_captions: int | None  # None: about CHUNK_PAIRS pairs a chunk
    met_kernel: str = "max"
    met_queries: int | None = None  # met: None, every caption against every video; else a sample
    met_seed: int = 0
    met_pairs_file: str | None = None  # met: only the pairs of this CSV
    tags_dir: str | None = None  # --tags: a folder whose pos/ has these captions' tags (pipelines/evaluation/tags.py)


def selected_captions(run: RelevanceRun) -> list:
    """(sen_id, video_id, split, caption) of the run's videos, by sen_id."""
    from pipelines.evaluation.caption_input import CaptionSelection, read_caption_rows, read_video_ids, select_captions

    selection = CaptionSelection(split=run.split,
                                 video_ids=read_video_ids(run.videos_file) if run.videos_file else None,
                                 videos_file=run.videos_file)
    captions = sorted(caption for video in select_captions(read_caption_rows(run.input_path), selection).values()
                      for caption in video)
    if not captions:
        raise CapcleanError(f"no caption of {run.input_path} is in split {run.split or 'all'}"
                            + (f" and in --videos {run.videos_file}" if run.videos_file else ""))
    return captions


def peak_memory_mib() -> float:
    """This process's peak resident memory so far (Linux reports kilobytes)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def write_chunk(folder: Path, number: int, chunk, video_ids, sen_ids, start: int) -> int:
    """One part file of a (videos x chunk) relevance: rows by caption, then video; returns the rows.
    `video_ids`: a pyarrow string array, taken by index (no Python string per row)."""
    import pyarrow as pa  # loaded only when a run writes: `capclean --help` stays quick
    import pyarrow.parquet as pq

    from schemas.evaluation_tables import RELEVANCE

    by_caption = chunk.T.tocsr()
    by_caption.sort_indices()
    counts = np.diff(by_caption.indptr)
    table = pa.Table.from_arrays([
        video_ids.take(pa.array(by_caption.indices)),
        pa.array(np.repeat(np.asarray(sen_ids[start:start + chunk.shape[1]], dtype=np.int64), counts)),
        pa.array(by_caption.data.astype(np.float32)),
    ], schema=RELEVANCE)
    pq.write_table(table, folder / f"part-{number:05d}.parquet", compression="zstd")
    return table.num_rows


def write_proxy(output_dir: Path, proxy: str, captions: list, reading, chunk_captions, wordnet) -> dict:
    """relevance/proxy=NAME/ of one proxy; its figures."""
    import pyarrow as pa

    from transforms.evaluation.relevance import caption_sets, mean_set_sizes, relevance_chunks, video_membership

    started = time.monotonic()
    sets = caption_sets(captions, proxy, reading, wordnet)
    sets_seconds = time.monotonic() - started
    video_ids, _ = video_membership(sets.video_ids)
    folder = output_dir / "relevance" / f"proxy={proxy}"
    folder.mkdir(parents=True)
    videos_array = pa.array(video_ids, pa.string())
    pairs = chunks = 0
    score_sum = 0.0
    for number, (start, chunk) in enumerate(relevance_chunks(sets, reading, chunk_captions)):
        pairs += write_chunk(folder, number, chunk, videos_array, sets.sen_ids, start)
        score_sum += float(chunk.data.sum(dtype=np.float64))
        chunks += 1
    all_pairs = len(video_ids) * len(sets.sen_ids)
    return {"pairs": pairs, "all_pairs": all_pairs, "density": pairs / all_pairs if all_pairs else 0.0,
            "mean_score": score_sum / all_pairs if all_pairs else 0.0, "chunks": chunks,
            "mean_set_sizes": mean_set_sizes(sets, reading),
            "sets_seconds": round(sets_seconds, 3), "seconds": round(time.monotonic() - started, 3),
            "peak_memory_mib_so_far": round(peak_memory_mib(), 1)}


def write_met(output_dir: Path, captions: list, run: RelevanceRun, wordnet) -> dict:
    """relevance/proxy=met/: METEOR needs no tags, only the captions and WordNet."""
    from pipelines.evaluation.relevance.met import MetPairs, write_met_relevance
    from transforms.evaluation.met_relevance import MetSettings
    from transforms.evaluation.meteor import MeteorLexicon

    pairs = MetPairs(sample=run.met_queries, seed=run.met_seed, pairs_file=run.met_pairs_file)
    figures = write_met_relevance(output_dir, captions, pairs, MetSettings(kernel=run.met_kernel),
                                  MeteorLexicon(wordnet))
    return {**figures, "peak_memory_mib_so_far": round(peak_memory_mib(), 1)}


def run_relevance(run: RelevanceRun, reading, output_dir: Path) -> dict:
    """Write relevance/ and stats.json into `output_dir`; return the figures."""
    from transforms.evaluation.pos import SPACY_MODEL, load_tagger, tag_missing

    started = time.monotonic()
    rows = selected_captions(run)
    wordnet = None
    if "syn" in run.proxies or "met" in run.proxies:
        from transforms.evaluation.lexicon import default_wordnet_dir, open_wordnet
        wordnet = open_wordnet(default_wordnet_dir())  # missing: one line now, before the tagging
    read_seconds = time.monotonic() - started
    set_proxies = [proxy for proxy in run.proxies if proxy != "met"]  # met needs no tagging
    if set_proxies:
        known = {}
        if run.tags_dir:
            from pipelines.evaluation.tags import read_known_tags
            known = read_known_tags(Path(run.tags_dir), rows)
            log.info("tags of %d captions read from %s", len(known), run.tags_dir)
        log.info("tagging %d captions of %d videos", len(rows) - len(known), len({row[1] for row in rows}))
        tagged = tag_missing(rows, known, load_tagger)
    tag_seconds = time.monotonic() - started - read_seconds
    figures = {"captions": len(rows), "videos": len({row[1] for row in rows}),
               "seconds": {"read": round(read_seconds, 3), "tag": round(tag_seconds, 3)}, "proxies": {}}
    for proxy in run.proxies:
        log.info("relevance by %s", proxy)
        if proxy == "met":
            figures["proxies"][proxy] = write_met(output_dir, rows, run, wordnet)
        else:
            figures["proxies"][proxy] = write_proxy(output_dir, proxy, tagged, reading, run.chunk_captions, wordnet)
    figures["peak_memory_mib"] = round(peak_memory_mib(), 1)
    figures["settings"] = {"split": run.split or "all", "videos": run.videos_file, "proxies": list(run.proxies),
                           "chunk_captions": run.chunk_captions, "tagger": SPACY_MODEL,
                           "met": {"kernel": run.met_kernel, "queries": run.met_queries, "seed": run.met_seed,
                                   "pairs_file": run.met_pairs_file},
                           "reading": json.loads(json.dumps(asdict(reading)))}
    write_stats(output_dir, figures)
    return figures


def format_figures(figures: dict) -> str:
    seconds = figures["seconds"]
    lines = [f"  {figures['captions']:,} captions of {figures['videos']:,} videos; read {seconds['read']:.1f} s, "
             f"tagged {seconds['tag']:.1f} s; peak memory {figures['peak_memory_mib']:,.0f} MiB",
             f"  {'proxy':<6} {'pairs > 0':>13} {'density':>8} {'mean':>7} {'seconds':>8}"]
    for proxy, entry in figures["proxies"].items():
        lines.append(f"  {proxy:<6} {entry['pairs']:>13,} {100 * entry['density']:>7.2f}% {entry['mean_score']:>7.4f} "
                     f"{entry['seconds']:>8.1f}")
    return "\n".join(lines)
