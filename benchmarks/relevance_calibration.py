"""Which reading of Wray et al.'s relevance construction reproduces their random baseline?

    nice -n 10 python benchmarks/relevance_calibration.py --input /work/shared/data/msrvtt \
        [--readings literal,union,...] [--proxies bow,pos,syn] [--videos-sample N] [--json FILE]

A random ranking's nDCG depends only on the relevance matrix, so the paper's random row on the
2,990-video MSR-VTT test split (BoW 34.0, PoS 30.0, SYN 11.6, MET 80.4: supplementary Table 3)
tests whether a matrix is built as theirs was. For each named reading (READINGS below: each a
transforms/evaluation/relevance_reading.RelevanceReading) and proxy, this builds the test split's
relevance with the relevance module's pure functions, and prints the exact expected nDCG of a
random ranking (transforms/evaluation/ndcg.py), mean of text-to-video and video-to-text, with
both cut-offs (each query's relevant items, as the authors' code; the whole gallery) and both
gains, beside the published figure. The captions are tagged once; a proxy's caption sets are
made once per distinct set of the options they depend on.

--videos-sample N keeps N videos (every k-th in natural order) for a quick look; the figures in
docs/commands/ndcg.md are of the whole split.
"""
import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from transforms.evaluation.ndcg import CUTOFFS, GAINS, NdcgOptions, ndcg_table  # noqa: E402
from transforms.evaluation.relevance_reading import PAPER_TEXT, PROXIES, parts_from_weights  # noqa: E402

PUBLISHED = {"bow": 34.0, "pos": 30.0, "syn": 11.6, "met": 80.4}  # Wray et al. 2021, supp. Table 3, random row

LITERAL = PAPER_TEXT  # the paper's words as capclean reads them
AUX_VERBS = parts_from_weights("verb=0.5,noun=0.5", aux_as_verbs=True)
# The readings tried, by name. Each changes one or two details of the literal reading.
READINGS = {
    "literal": LITERAL,
    "authors-split": replace(LITERAL, tokens="split", lowercase=False),
    "lemmas": replace(LITERAL, lemmas=True),
    "aux-verbs": replace(LITERAL, parts=AUX_VERBS),
    "threshold-0.20": replace(LITERAL, video_threshold=0.20),
    "threshold-0.15": replace(LITERAL, video_threshold=0.15),
    "threshold-0.10": replace(LITERAL, video_threshold=0.10),
    "union": replace(LITERAL, video_threshold=0.0),
    "union-lemmas": replace(LITERAL, video_threshold=0.0, lemmas=True),
    "union-aux-verbs": replace(LITERAL, video_threshold=0.0, parts=AUX_VERBS),
    "threshold-0.10-syn-context": replace(LITERAL, video_threshold=0.10, syn_video_senses="video-context"),
    "union-syn-context": replace(LITERAL, video_threshold=0.0, syn_video_senses="video-context"),
    "caption-max": replace(LITERAL, video_sets="caption-max"),
    "caption-mean": replace(LITERAL, video_sets="caption-mean"),
}
# The options a caption's sets depend on (the rest only shape the video's side).
SET_OPTIONS = ("stop_list", "tokens", "lowercase", "lemmas", "parts")


def test_captions(input_path: str, sample: int | None) -> list:
    """(sen_id, video_id, split, caption) of the test split, by sen_id; every k-th video with --videos-sample."""
    from pipelines.evaluation.caption_input import CaptionSelection, read_caption_rows, select_captions
    from transforms.read import video_order

    by_video = select_captions(read_caption_rows(input_path), CaptionSelection(split="test"))
    videos = sorted(by_video, key=video_order)
    if sample:
        videos = videos[::max(1, len(videos) // sample)][:sample]
    return sorted(caption for video in videos for caption in by_video[video])


def random_figures(relevance) -> dict:
    """{cut-off: {gain: mean of the two directions}} of the random ranking, in percent."""
    figures = {}
    for cutoff in CUTOFFS:
        table = ndcg_table(relevance, "random", NdcgOptions(cutoff=cutoff))
        figures[cutoff] = {gain: round(100 * table["mean"][gain], 2) for gain in GAINS}
        figures[cutoff]["t2v_linear"] = round(100 * table["t2v"]["linear"], 2)
        figures[cutoff]["v2t_linear"] = round(100 * table["v2t"]["linear"], 2)
    return figures


def calibrate(tagged: list, readings: dict, proxies: tuple, wordnet) -> list:
    """One row per (reading, proxy): the relevance's density and its random-ranking figures."""
    from transforms.evaluation.relevance import caption_sets, relevance_from_sets

    sets_cache, rows = {}, []
    for name, reading in readings.items():
        for proxy in proxies:
            key = (proxy,) + tuple(getattr(reading, option) for option in SET_OPTIONS)
            if key not in sets_cache:
                sets_cache[key] = caption_sets(tagged, proxy, reading, wordnet if proxy == "syn" else None)
            started = time.monotonic()
            matrix = relevance_from_sets(sets_cache[key], reading).matrix
            row = {"reading": name, "proxy": proxy, "published": PUBLISHED[proxy],
                   "density": round(100 * matrix.nnz / (matrix.shape[0] * matrix.shape[1]), 2),
                   **random_figures(matrix), "seconds": round(time.monotonic() - started, 1)}
            rows.append(row)
            print(format_row(row), flush=True)
    return rows


def format_row(row: dict) -> str:
    figures = "".join(f"{row[cutoff][gain]:>9.1f}" for cutoff in CUTOFFS for gain in GAINS)
    return (f"{row['reading']:<16}{row['proxy']:<5}{row['published']:>6.1f}{row['density']:>8.1f}{figures}"
            f"   (relevant, linear: t2v {row['relevant']['t2v_linear']:.1f}, v2t {row['relevant']['v2t_linear']:.1f})")


# rel: the ranking cut at the query's relevant count (the authors' code); all: no cut-off;
# within: only the relevant items ranked (Eq. 2-3 read literally). lin/exp: the gain.
HEADER = (f"{'reading':<16}{'proxy':<5}{'paper':>6}{'dens.%':>8}"
          + "".join(f"{cutoff[:6] + '.' + gain[:3]:>9}" for cutoff in CUTOFFS for gain in GAINS))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", required=True, help="raw MSR-VTT or a capclean output")
    parser.add_argument("--readings", default=",".join(READINGS), help="comma-separated names of READINGS")
    parser.add_argument("--proxies", default=",".join(PROXIES), help="comma-separated of bow,pos,syn")
    parser.add_argument("--videos-sample", type=int, help="only this many test videos, spread over the split")
    parser.add_argument("--json", help="also write the rows to this JSON file")
    args = parser.parse_args(argv)
    unknown = [name for name in args.readings.split(",") if name not in READINGS]
    if unknown:
        parser.error(f"unknown reading {', '.join(unknown)}; known: {', '.join(READINGS)}")
    readings = {name: READINGS[name] for name in args.readings.split(",")}
    proxies = tuple(args.proxies.split(","))

    from transforms.evaluation.pos import load_tagger, tag_captions

    started = time.monotonic()
    tagged = tag_captions(load_tagger(), test_captions(args.input, args.videos_sample))
    print(f"{len(tagged):,} test captions of {len({c.video_id for c in tagged}):,} videos from {args.input}, "
          f"tagged in {time.monotonic() - started:.0f} s")
    wordnet = None
    if "syn" in proxies:
        from transforms.evaluation.lexicon import default_wordnet_dir, open_wordnet
        wordnet = open_wordnet(default_wordnet_dir())
    print(HEADER)
    rows = calibrate(tagged, readings, proxies, wordnet)
    if args.json:
        Path(args.json).write_text(json.dumps({"input": args.input, "videos_sample": args.videos_sample,
                                               "rows": rows}, indent=2) + "\n",
                                   encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
