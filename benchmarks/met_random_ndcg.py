"""The MET proxy's random-ranking nDCG on MSR-VTT's test split, per kernel, beside the published 80.4.

A random ranking's nDCG depends only on the relevance matrix, so it tells which reading of the
paper's "many-to-many matching with a non-Mercer match kernel" builds the matrix as theirs was
(issue 29). For each kernel of transforms/evaluation/met_relevance.py this prints the exact
expected nDCG of a uniformly random ranking (no seeds: the expectation of the gain at rank j is
the mean relevance), with the released code's linear gain S / log2(j + 1) and the paper's
exponential gain 2^S - 1, text-to-video over a sample of query captions (each against the
2,990 videos) and video-to-text over a sample of videos (each against the 59,800 captions).

A written relevance/proxy=met/ (every query of `capclean relevance --proxies met`, one kernel)
is scored by `capclean ndcg --relevance DIR --scores random --cutoff all`, every caption and every
video a query.

One more reading is printed, not a kernel capclean offers: "first caption", each video standing
for its first caption alone (one text a video, as the released create_relevancy_matrix.py
scores one video text against one caption).
"""
import argparse
import random
import sys
from pathlib import Path

import numpy as np
import scipy.sparse as sp

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pipelines.evaluation.caption_input import read_caption_rows  # noqa: E402
from transforms.evaluation.lexicon import default_wordnet_dir, open_wordnet  # noqa: E402
from transforms.evaluation.met_relevance import OWN_VIDEO_RELEVANCE, video_side  # noqa: E402
from transforms.evaluation.ndcg import random_ndcgs  # noqa: E402
from transforms.evaluation.meteor import MeteorLexicon  # noqa: E402
from transforms.evaluation.meteor_batch import scores_against  # noqa: E402

PUBLISHED = 80.4
KERNELS = ("max", "mean", "match")
READINGS = KERNELS + ("first caption",)


def expected_random_ndcg(relevance: np.ndarray, exponential: bool) -> float:
    """E[nDCG] of a random ranking of one query's items (transforms/evaluation/ndcg.py), the whole gallery ranked."""
    one_query = sp.csr_matrix(relevance[None, :])
    return float(random_ndcgs(one_query, "exponential" if exponential else "linear", "all")[0])


def kernels(as_hypothesis: np.ndarray, as_reference: np.ndarray, axis: int) -> dict:
    """Each kernel from the METEOR scores with the video's captions along `axis`."""
    best = as_hypothesis.max(axis=axis)
    first = as_hypothesis[0] if axis == 0 else as_hypothesis[:, 0]
    return {"max": best, "mean": as_hypothesis.mean(axis=axis), "match": 0.5 * (best + as_reference.mean(axis=axis)),
            "first caption": first}


def text_to_video(queries: list, side, lexicon) -> dict:
    """kernel -> the relevance of each query caption to every video (a list of arrays)."""
    found = {kernel: [] for kernel in READINGS}
    for _, video_id, caption in queries:
        as_hypothesis = scores_against(caption, side.batch, lexicon, query_is_reference=False)
        as_reference = scores_against(caption, side.batch, lexicon, query_is_reference=True)
        per_video = {kernel: np.zeros(len(side.video_ids)) for kernel in READINGS}
        for index, (start, count) in enumerate(zip(side.starts, side.counts)):
            scores = kernels(as_hypothesis[start:start + count], as_reference[start:start + count], axis=0)
            for kernel in READINGS:
                per_video[kernel][index] = scores[kernel]
        own = side.video_ids.index(video_id)
        for kernel in READINGS:
            per_video[kernel][own] = OWN_VIDEO_RELEVANCE
            found[kernel].append(per_video[kernel])
    return found


def video_to_text(video_indices: list, side, lexicon) -> dict:
    """kernel -> the relevance of every caption to each video (a list of arrays)."""
    found = {kernel: [] for kernel in READINGS}
    for index in video_indices:
        start, count = side.starts[index], side.counts[index]
        own = side.batch.captions[start:start + count]
        # Row y: METEOR(reference y, hypothesis each caption) and the reverse.
        as_hypothesis = np.array([scores_against(y, side.batch, lexicon, query_is_reference=True) for y in own])
        as_reference = np.array([scores_against(y, side.batch, lexicon, query_is_reference=False) for y in own])
        scores = kernels(as_hypothesis, as_reference, axis=0)
        for kernel in READINGS:
            scores[kernel][start:start + count] = OWN_VIDEO_RELEVANCE
            found[kernel].append(scores[kernel])
    return found


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", required=True, help="raw MSR-VTT or a capclean output")
    parser.add_argument("--queries", type=int, default=300, help="query captions, text to video (default: %(default)s)")
    parser.add_argument("--videos", type=int, default=60, help="query videos, video to text (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    lexicon = MeteorLexicon(open_wordnet(default_wordnet_dir()))
    captions = sorted(row for row in read_caption_rows(args.input) if row[2] == "test")
    videos = {}
    for _, video_id, _, text in captions:
        videos.setdefault(video_id, []).append(lexicon.encode(text))
    side = video_side(videos, lexicon)
    rng = random.Random(args.seed)
    queries = [(sen_id, video_id, lexicon.encode(text))
               for sen_id, video_id, _, text in rng.sample(captions, args.queries)]
    directions = {"text-to-video": text_to_video(queries, side, lexicon),
                  "video-to-text": video_to_text(rng.sample(range(len(side.video_ids)), args.videos), side, lexicon)}
    print(f"MET random-ranking nDCG on MSR-VTT's test split ({args.queries} query captions, "
          f"{args.videos} query videos; published {PUBLISHED})")
    print(f"  {'reading':<15}{'gain':<13}{'text-to-video':>14}{'video-to-text':>14}{'mean':>7}")
    for kernel in READINGS:
        for gain, exponential in (("linear", False), ("exponential", True)):
            figures = [100 * np.mean([expected_random_ndcg(row, exponential) for row in directions[name][kernel]])
                       for name in ("text-to-video", "video-to-text")]
            print(f"  {kernel:<15}{gain:<13}{figures[0]:>14.1f}{figures[1]:>14.1f}{np.mean(figures):>7.1f}")


if __name__ == "__main__":
    main()
