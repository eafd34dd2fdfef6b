"""The MET proxy's relevance of a video to a caption: METEOR against the video's captions.

Wray, Doughty and Damen score MSR-VTT with "many-to-many matching with a non-Mercer match
kernel" between a caption and the video's captions. Their released scripts
(mwray/Semantic-Video-Retrieval, create_relevancy_matrix.py) only compute METEOR between one
video text and one caption: NLTK's single_meteor_score(reference = the video's text,
hypothesis = the caption). How MSR-VTT's twenty captions a video were combined is not in them,
so the combination is a choice (Kernel), named in the output's settings:

- "max": the best METEOR of the caption against each of the video's captions as reference:
  NLTK's own meteor_score(video captions, caption), its answer for several references.
- "mean": the mean of those METEOR scores.
- "match": the match kernel of Wallraven, Caputo and Graf (ICCV 2003), the non-Mercer kernel
  between two sets of local features, K(X, Y) = 1/2 [mean over x of max over y of k(x, y) +
  mean over y of max over x of k(y, x)], here with X = {the caption}, Y = the video's captions
  and k(a, b) = METEOR(reference b, hypothesis a): 1/2 [max_y k(c, y) + mean_y k(y, c)].

Whatever the kernel, a video's own captions have relevance 1, as in the paper.

Every video-caption pair costs one METEOR per caption of the video (two for "match"): MSR-VTT's
test split is 2,990 videos x 59,800 captions x 20 = 3.6 billion METEOR pairs. A query caption
against every video goes through transforms/evaluation/meteor_batch.py (query_relevance, about
0.5 us a pair); a list of (video, caption) pairs, such as a model's top-k, pair by pair
(pair_rows, about 6 us a pair). docs/evaluation/meteor.md gives the costs on MSR-VTT.
"""
from dataclasses import dataclass
from typing import Iterator, Literal

import numpy as np

from transforms.errors import ConfigError
from transforms.evaluation.meteor import EncodedCaption, MeteorLexicon, MeteorParameters, single_meteor
from transforms.evaluation.meteor_batch import CaptionBatch, build_batch, scores_against

Kernel = Literal["max", "mean", "match"]
KERNELS = ("max", "mean", "match")
OWN_VIDEO_RELEVANCE = 1.0


@dataclass(frozen=True)
class MetSettings:
    kernel: Kernel = "max"
    parameters: MeteorParameters = MeteorParameters()

    def __post_init__(self):
        if self.kernel not in KERNELS:  # otherwise an unknown name would silently mean "match"
            raise ConfigError(f"MET kernel {self.kernel!r}: choose from {', '.join(KERNELS)}")


@dataclass(frozen=True)
class Query:
    """A caption whose relevance to videos is wanted."""
    sen_id: int
    video_id: str
    caption: EncodedCaption


def video_relevance(caption: EncodedCaption, video_captions: list, lexicon: MeteorLexicon,
                    settings: MetSettings = MetSettings()) -> float:
    """The kernel between one caption and a video's captions (not its own video: see relevance)."""
    if not video_captions:
        return 0.0
    as_hypothesis = [single_meteor(other, caption, lexicon, settings.parameters) for other in video_captions]
    if settings.kernel == "max":
        return max(as_hypothesis)
    if settings.kernel == "mean":
        return sum(as_hypothesis) / len(as_hypothesis)
    as_reference = [single_meteor(caption, other, lexicon, settings.parameters) for other in video_captions]
    return 0.5 * (max(as_hypothesis) + sum(as_reference) / len(as_reference))


def relevance(query: Query, video_id: str, video_captions: list, lexicon: MeteorLexicon,
              settings: MetSettings = MetSettings()) -> float:
    if query.video_id == video_id:
        return OWN_VIDEO_RELEVANCE
    return video_relevance(query.caption, video_captions, lexicon, settings)


@dataclass(frozen=True)
class VideoSide:
    """Every candidate video's captions as one batch, video after video: video i's captions are
    batch captions starts[i] to starts[i] + counts[i]."""
    video_ids: tuple
    starts: np.ndarray
    counts: np.ndarray
    batch: CaptionBatch


def video_side(videos: dict, lexicon: MeteorLexicon) -> VideoSide:
    """`videos`: video_id -> its encoded captions (at least one each)."""
    video_ids = tuple(videos)
    counts = np.array([len(videos[video_id]) for video_id in video_ids], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    captions = [caption for video_id in video_ids for caption in videos[video_id]]
    return VideoSide(video_ids, starts, counts, build_batch(captions, lexicon))


def query_relevance(query: Query, side: VideoSide, lexicon: MeteorLexicon,
                    settings: MetSettings = MetSettings()) -> np.ndarray:
    """The query's relevance to every video of the side (in its order): video_relevance, 1 for its own video."""
    as_hypothesis = scores_against(query.caption, side.batch, lexicon, False, settings.parameters)
    best = np.maximum.reduceat(as_hypothesis, side.starts)
    if settings.kernel == "max":
        scores = best
    elif settings.kernel == "mean":
        scores = np.add.reduceat(as_hypothesis, side.starts) / side.counts
    else:
        as_reference = scores_against(query.caption, side.batch, lexicon, True, settings.parameters)
        scores = 0.5 * (best + np.add.reduceat(as_reference, side.starts) / side.counts)
    scores[[index for index, video_id in enumerate(side.video_ids) if video_id == query.video_id]] = (
        OWN_VIDEO_RELEVANCE)
    return scores


def pair_rows(pairs: list, queries: dict, videos: dict, lexicon: MeteorLexicon,
              settings: MetSettings = MetSettings()) -> Iterator[tuple]:
    """(video_id, sen_id, score) of the listed (video_id, sen_id) pairs, in their order, score > 0
    only. `queries`: sen_id -> Query; `videos`: video_id -> its encoded captions."""
    for video_id, sen_id in pairs:
        score = relevance(queries[sen_id], video_id, videos[video_id], lexicon, settings)
        if score > 0:
            yield video_id, sen_id, score
