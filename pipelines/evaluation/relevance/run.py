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
from transforms.errors import CapcleanError, ConfigError

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


def add_relevance_arguments(command) -> None:
    from pipelines.evaluation.evaluation_io import add_evaluation_io_arguments
    from transforms.evaluation.relevance_reading import PROXIES, STOP_LISTS, TOKENIZATIONS, VIDEO_SETS, RelevanceReading

    default = RelevanceReading()
    add_evaluation_io_arguments(command, "relevance/, stats.json and manifest.json")
    which = command.add_argument_group("captions")
    which.add_argument("--split", default="test", help="the split whose videos and captions are paired (default: "
                       "test; 'all' for every split)")
    which.add_argument("--videos", metavar="FILE", help="only these videos: a CSV with a video_id column (as "
                       "retrieval_splits/MSRVTT_JSFUSION_test.csv) or one id a line")
    which.add_argument("--proxies", default=",".join(PROXIES), metavar="LIST",
                       help=f"comma-separated of {','.join(PROXIES + ('met',))} (default: %(default)s)")
    add_met_arguments(command)
    reading = command.add_argument_group("reading of the construction (defaults: the paper's, as docs/commands/"
                                         "relevance.md reads it)")
    reading.add_argument("--video-threshold", type=float, default=default.video_threshold, metavar="SHARE",
                         help="a video's set: the words in at least this share of its captions (default: "
                              "%(default)s; 0: the union of its captions)")
    reading.add_argument("--video-sets", choices=VIDEO_SETS, default=default.video_sets,
                         help="threshold: one set per video; caption-mean / caption-max: the mean / best IoU "
                              "with each of the video's captions (default: %(default)s)")
    reading.add_argument("--stop-list", choices=STOP_LISTS, default=default.stop_list,
                         help="bow's stop words: spaCy's English list or none (default: %(default)s)")
    reading.add_argument("--tokens", choices=TOKENIZATIONS, default=default.tokens,
                         help="bow's words: spaCy's tokens, punctuation dropped, or the caption split at spaces "
                              "as the authors' script (default: %(default)s)")
    reading.add_argument("--keep-case", action="store_true", help="compare words as written (the authors' "
                         "script) instead of lower-cased")
    reading.add_argument("--lemmas", action="store_true", help="bow and pos compare spaCy's lemmas, not the words")
    reading.add_argument("--pos-weights", default="verb=0.5,noun=0.5", metavar="LIST",
                         help="pos and syn: the parts of speech and their weights (default: %(default)s)")
    reading.add_argument("--aux-as-verbs", action="store_true", help="count auxiliaries (is, are) as verbs, as "
                         "spaCy 2 tagged them")
    reading.add_argument("--syn-video-senses", choices=["captions", "video-context"], default=default.syn_video_senses,
                         help="syn: a video's synsets are its captions' that pass the threshold, or its words' "
                              "that pass it, each given a Lesk sense in all its captions (default: %(default)s)")
    reading.add_argument("--own-captions", choices=["one", "iou"], default="one",
                         help="a video's own captions: relevance 1 (the paper) or their IoU (default: %(default)s)")
    command.add_argument("--chunk-captions", type=int, metavar="N", help="captions paired with every video at "
                         "once (default: about 20 million pairs a chunk)")


# transforms/evaluation/met_relevance.py's KERNELS, written out: importing it would load NLTK for every command.
MET_KERNELS = ("max", "mean", "match")


def add_met_arguments(command) -> None:
    met = command.add_argument_group("met (METEOR; docs/evaluation/meteor.md)")
    met.add_argument("--met-kernel", choices=MET_KERNELS, default="max", help="a caption against a video's "
                     "captions: the best METEOR (NLTK's several references), the mean, or the match kernel "
                     "(default: %(default)s)")
    met.add_argument("--met-queries", type=int, metavar="N", help="a seeded sample of N captions, each against "
                     "every video (default: every caption; the test split takes about 30 CPU minutes)")
    met.add_argument("--met-seed", type=int, default=0, help="the sample's seed (default: %(default)s)")
    met.add_argument("--met-pairs", metavar="FILE", help="only these pairs: a CSV with video_id and sen_id columns, "
                     "such as a model's top-k")


def reading_from_arguments(args):
    from transforms.evaluation.relevance_reading import RelevanceReading, parts_from_weights

    return RelevanceReading(video_threshold=args.video_threshold, video_sets=args.video_sets,
                            stop_list=args.stop_list, tokens=args.tokens, lowercase=not args.keep_case,
                            lemmas=args.lemmas, parts=parts_from_weights(args.pos_weights, args.aux_as_verbs),
                            own_captions_one=args.own_captions == "one", syn_video_senses=args.syn_video_senses)


def run_from_arguments(args) -> RelevanceRun:
    from transforms.evaluation.relevance_reading import PROXIES

    proxies = tuple(dict.fromkeys(name.strip() for name in args.proxies.split(",") if name.strip()))
    unknown = [name for name in proxies if name not in PROXIES + ("met",)]
    if unknown or not proxies:
        raise ConfigError(f"--proxies {args.proxies}: choose from {', '.join(PROXIES + ('met',))}")
    if args.met_queries is not None and args.met_queries < 1:
        raise ConfigError(f"--met-queries must be at least 1, not {args.met_queries}")
    if args.chunk_captions is not None and args.chunk_captions < 1:
        raise ConfigError(f"--chunk-captions must be at least 1, not {args.chunk_captions}")
    if not Path(args.input).exists():
        raise CapcleanError(f"--input {args.input}: no such file or folder")
    return RelevanceRun(args.input, None if args.split == "all" else args.split, args.videos, proxies,
                        args.chunk_captions, args.met_kernel, args.met_queries, args.met_seed, args.met_pairs)


def selected_captions(run: RelevanceRun) -> list:
    """(sen_id, video_id, split, caption) of the run's videos, by sen_id."""
    from pipelines.evaluation.caption_input import CaptionSelection, read_captions, read_video_ids, select_captions

    selection = CaptionSelection(split=run.split,
                                 video_ids=read_video_ids(run.videos_file) if run.videos_file else None)
    captions = sorted(caption for video in select_captions(read_captions(run.input_path), selection).values()
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
    from transforms.evaluation.pos import SPACY_MODEL, load_tagger, tag_captions

    started = time.monotonic()
    rows = selected_captions(run)
    wordnet = None
    if "syn" in run.proxies or "met" in run.proxies:
        from transforms.evaluation.lexicon import default_wordnet_dir, open_wordnet
        wordnet = open_wordnet(default_wordnet_dir())  # missing: one line now, before the tagging
    read_seconds = time.monotonic() - started
    set_proxies = [proxy for proxy in run.proxies if proxy != "met"]  # met needs no tagging
    if set_proxies:
        log.info("tagging %d captions of %d videos", len(rows), len({row[1] for row in rows}))
        tagged = tag_captions(load_tagger(), rows)
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


def relevance_command(args) -> int:
    """The command: checks, then the run in a staging folder swapped in at the end (as `capclean overlap`)."""
    from pipelines.evaluation.evaluation_io import claim_output, seal_output
    from pipelines.output.manifest import Clock
    from pipelines.output.folder import staging_for

    clock = Clock()
    reading = reading_from_arguments(args)
    run = run_from_arguments(args)
    output, input_and_run = claim_output(args.input, args.output, args.overwrite)
    started = time.monotonic()
    clock.phase("prepare")
    with staging_for(output) as staging:
        figures = run_relevance(run, reading, staging)
        clock.phase("relevance")
        seal_output(staging, output, "relevance", args.input, input_and_run, figures, clock)
    print(f"capclean relevance: done in {time.monotonic() - started:.1f} s; output in {output}")
    print(format_figures(figures))
    return 0
