"""Retrieval protocols as data: which texts a model scores against which videos, in what order, and which
video is each text's own.

A protocol is the rows (texts, the queries of text-to-video retrieval) and the columns (videos) of the
similarity matrix a model writes, and the ground truth: each text's own video. Three are built here
(docs/commands/evaluate.md):

- 1k-A: the JSFusion split (retrieval_splits/MSRVTT_JSFUSION_test.csv): 1,000 videos in the CSV's
  order, one query each, the CSV's `sentence` as the text; row i's own video is column i.
- full-test: every test video in natural order (video7010 before video10000), and every caption of
  them by sen_id; each video has all its captions (20 on MSR-VTT) as positives.
- custom: a list of videos (the columns, in the list's order) and a list of sen_ids (the rows).

A 1k-A query is also resolved to the sen_id(s) of its video's captions whose text it is (`match_sentence`):
the figures do not need it (the ground truth is the video), but labels keyed by sen_id do (FIRE), and the
text-only baseline leaves those captions out of the video. Against a capclean output, a sentence that matches
none of its video's captions as cleaned is matched against their earlier texts (edits/' `before`): the caption
the cleaning corrected is still the sentence's caption.
"""
import re
from dataclasses import dataclass

PROTOCOLS = ("1k-A", "full-test", "custom")
# The two ways a model's matrix may be laid out: its rows are the texts, or the videos.
TEXTS_X_VIDEOS = "texts-x-videos"
VIDEOS_X_TEXTS = "videos-x-texts"
ORIENTATIONS = (TEXTS_X_VIDEOS, VIDEOS_X_TEXTS)

# How a JSFusion sentence was resolved to captions of its video.
EXACT = "exact"  # the caption's text, character for character
NORMALISED = "normalised"  # equal once both are normalised (`normalised_text`)
EDITED = "edited"  # an earlier text of a caption the cleaning changed (edits/), exactly or once normalised
UNMATCHED = "unmatched"  # no caption of the video: the query keeps its text and video, with no sen_id
OWN_CAPTION = "caption"  # full-test and custom: the text is a caption itself

# The JSFusion CSV drops ':' and '/' (joining what they separated: "10:30" -> "1030"), turns other
# punctuation ('-', '&', ...) into spaces, and collapses runs of spaces; found by comparing its
# 1,000 sentences with MSR-VTT's raw captions.
DROPPED = re.compile(r"[:/]")
SEPARATORS = re.compile(r"[^\w']+")


@dataclass(frozen=True)
class Query:
    """One row of the matrix: the text to encode, its own video, and the captions it is."""
    text: str
    video_id: str
    sen_ids: tuple  # 1k-A: every caption of the video the sentence matches (empty: none); else (its sen_id,)
    match: str  # EXACT, NORMALISED, EDITED, UNMATCHED or OWN_CAPTION


@dataclass(frozen=True)
class Protocol:
    """The rows (queries) and columns (video_ids) of a model's similarity matrix, and its ground truth."""
    name: str
    video_ids: tuple
    queries: tuple

    def own_columns(self) -> list:
        """The column of each row's own video."""
        column_of = {video: column for column, video in enumerate(self.video_ids)}
        return [column_of[query.video_id] for query in self.queries]

    def shape(self) -> tuple:
        """(texts, videos)."""
        return len(self.queries), len(self.video_ids)


def normalised_text(text: str) -> str:
    """The text as the JSFusion CSV writes captions: lower case, ':' and '/' dropped, any other run of
    punctuation or spaces one space."""
    return " ".join(SEPARATORS.sub(" ", DROPPED.sub("", text.lower())).split())


def match_sentence(sentence: str, captions: list) -> tuple:
    """(sen_ids, how) of the captions, (sen_id, text) of the sentence's video, whose text the sentence is.

    Exact matches win; only when there is none are the normalised texts compared. Every caption that
    matches is kept (a video may have the same caption twice or more), by sen_id; none is an UNMATCHED
    query, never a dropped one.
    """
    exact = sorted(sen_id for sen_id, text in captions if text == sentence)
    if exact:
        return tuple(exact), EXACT
    wanted = normalised_text(sentence)
    close = sorted(sen_id for sen_id, text in captions if normalised_text(text) == wanted)
    return (tuple(close), NORMALISED) if close else ((), UNMATCHED)


def jsfusion_protocol(rows: list, captions_of: dict, earlier_of: dict | None = None) -> Protocol:
    """1k-A from the JSFusion CSV's rows ({video_id, sentence}), in its order; `captions_of`:
    video_id -> [(sen_id, text)] of the captions the sentences are matched to ({} to match none);
    `earlier_of`: video_id -> [(sen_id, earlier text)] of those captions, tried for a sentence that matches
    none of them (a capclean output's edits/; None or {} for raw captions)."""
    queries = []
    for row in rows:
        sen_ids, how = match_sentence(row["sentence"], captions_of.get(row["video_id"], []))
        if how == UNMATCHED and earlier_of:
            sen_ids, how = match_sentence(row["sentence"], earlier_of.get(row["video_id"], []))
            how = EDITED if sen_ids else UNMATCHED
        queries.append(Query(row["sentence"], row["video_id"], sen_ids, how))
    return Protocol("1k-A", tuple(row["video_id"] for row in rows), tuple(queries))


def caption_protocol(name: str, video_ids: list, captions: list) -> Protocol:
    """A protocol whose texts are captions, `captions` (sen_id, video_id, text), against `video_ids`, both in
    the order given. Every caption's video must be one of the videos."""
    videos = set(video_ids)
    strangers = [sen_id for sen_id, video_id, _ in captions if video_id not in videos]
    if strangers:
        raise ValueError(f"caption {strangers[0]}'s video is not among the protocol's videos")
    queries = tuple(Query(text, video_id, (sen_id,), OWN_CAPTION) for sen_id, video_id, text in captions)
    return Protocol(name, tuple(video_ids), queries)


def match_counts(protocol: Protocol) -> dict:
    """How the queries were resolved: {EXACT, NORMALISED, EDITED, UNMATCHED: queries, "several_sen_ids": queries
    that match more than one caption}."""
    counts = {how: sum(query.match == how for query in protocol.queries)
              for how in (EXACT, NORMALISED, EDITED, UNMATCHED)}
    counts["several_sen_ids"] = sum(len(query.sen_ids) > 1 for query in protocol.queries)
    return counts
