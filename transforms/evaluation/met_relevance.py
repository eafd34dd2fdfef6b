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
test split is 2,990 videos x 59,800 captions x 20 = 3.6 billion, out of reach on two cores
(docs/evaluation/meteor.md). So the pairs are named by the caller: some query captions against
every video (query_rows), or a list of (video, caption) pairs such as a model's top-k (pair_rows).
"""
from dataclasses import dataclass
from typing import Iterator, Literal

from transforms.evaluation.meteor import EncodedCaption, MeteorLexicon, MeteorParameters, single_meteor

Kernel = Literal["max", "mean", "match"]
KERNELS = ("max", "mean", "match")
OWN_VIDEO_RELEVANCE = 1.0


@dataclass(frozen=True)
class MetSettings:
    kernel: Kernel = "max"
    parameters: MeteorParameters = MeteorParameters()


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


def query_rows(queries: list, videos: dict, lexicon: MeteorLexicon,
               settings: MetSettings = MetSettings()) -> Iterator[tuple]:
    """(video_id, sen_id, score) of every query against every video of `videos` (video_id ->
    its encoded captions), score > 0 only, query by query in the order given."""
    for query in queries:
        for video_id, captions in videos.items():
            score = relevance(query, video_id, captions, lexicon, settings)
            if score > 0:
                yield video_id, query.sen_id, score


def pair_rows(pairs: list, queries: dict, videos: dict, lexicon: MeteorLexicon,
              settings: MetSettings = MetSettings()) -> Iterator[tuple]:
    """(video_id, sen_id, score) of the listed (video_id, sen_id) pairs, in their order, score > 0
    only. `queries`: sen_id -> Query; `videos`: video_id -> its encoded captions."""
    for video_id, sen_id in pairs:
        score = relevance(queries[sen_id], video_id, videos[video_id], lexicon, settings)
        if score > 0:
            yield video_id, sen_id, score
