"""The rows of the output tables: one small frozen dataclass per table of schemas/tables.py.

A video carries its lineage (what each step removed or changed, and why) as
lists of these rows; the writer turns them into Parquet with the table's
schema. Their fields mirror the schemas column for column (a unit test checks
that), so a step cannot add a column by accident, and a reader of a step sees
what it records. Rows are built here or by the constructors below, nowhere by
hand as dicts.
"""
from dataclasses import dataclass, fields
from typing import Optional


@dataclass(frozen=True)
class CaptionRow:
    """A caption of the cleaned dataset (`captions/`)."""
    video_id: str
    sen_id: int
    split: str
    category: int
    caption: str


@dataclass(frozen=True)
class RemovedRow:
    """An input caption that is not in `captions/`, with the step that took it out and why (`removed/`)."""
    sen_id: Optional[int]  # null only for a record whose own id was unusable
    video_id: Optional[str]
    split: Optional[str]
    caption: Optional[str]
    step: str
    reason: str
    # Step III's facts about a near-duplicate (None on the other steps' rows; schemas/tables.py says more):
    kept_sen_id: Optional[int] = None  # the caption that stands for its group in captions/
    opener_sen_id: Optional[int] = None  # the caption that opened its group
    compared_sen_id: Optional[int] = None  # the opener, or for the opener itself the caption its pass kept
    similarity: Optional[float] = None  # its similarity to `compared_sen_id`
    edit_threshold: Optional[int] = None  # e
    similarity_threshold: Optional[float] = None  # s
    dedup_pass: Optional[int] = None  # the pass of step III that removed it


@dataclass(frozen=True)
class EditRow:
    """A caption a step changed, before and after (`edits/`)."""
    sen_id: int
    video_id: str
    step: str
    rule: str
    before: str
    after: str
    word_limit: Optional[int] = None  # step IV's `truncate` rule: the words it cut the caption to


@dataclass(frozen=True)
class TokenRow:
    """A row about one token of a caption; `position` indexes the caption step II received."""
    sen_id: int
    position: int


@dataclass(frozen=True)
class CorrectionRow(TokenRow):
    """A token step II changed (`corrections/`)."""
    original: str
    replacement: str
    rule: str
    score: Optional[float] = None
    # The evidence of a real-word change (transforms/spelling/real_word.py, ContextEvidence); None elsewhere.
    original_count: Optional[int] = None
    replacement_count: Optional[int] = None
    original_with_previous: Optional[int] = None
    replacement_with_previous: Optional[int] = None
    original_with_following: Optional[int] = None
    replacement_with_following: Optional[int] = None


@dataclass(frozen=True)
class FlaggedRow(TokenRow):
    """A token Hunspell rejects that step II left as it was (`flagged/`)."""
    token: str
    reason: str
    candidate: Optional[str] = None
    # The best candidate's evidence (transforms/spelling/decisions.py, FlagEvidence); None where the rule has none.
    flagged_by: Optional[str] = None
    distance: Optional[int] = None
    score: Optional[float] = None
    token_count: Optional[int] = None
    token_videos: Optional[int] = None
    candidate_count: Optional[int] = None
    candidate_videos: Optional[int] = None


@dataclass(frozen=True)
class RunonRow:
    """A caption step IV split into sentences, and what its policy did (`runon/`)."""
    sen_id: int
    video_id: str
    split: Optional[str]
    sentences: tuple
    policy: str
    action: str
    new_sen_ids: tuple = ()
    rule: Optional[str] = None  # step IV's rule that found the sentences ("model")
    scored_for: Optional[str] = None  # why the boundary model scored the caption: "word cue" or "length only"
    threshold: Optional[float] = None  # the probability from which a word of it starts a sentence


# The row type of each table, in the order of schemas.tables.TABLES.
ROW_TYPES = {
    "captions": CaptionRow,
    "removed": RemovedRow,
    "edits": EditRow,
    "corrections": CorrectionRow,
    "flagged": FlaggedRow,
    "runon": RunonRow,
}


def column_names(row_type) -> list:
    return [field.name for field in fields(row_type)]


def removed(video, sen_id, caption, step: str, reason: str, **facts) -> RemovedRow:
    """A removed/ row for a caption of `video` (a VideoBatch); `facts`: the columns only some steps fill
    (step III's `kept_sen_id`, `similarity`, ...)."""
    return RemovedRow(sen_id, video.video_id, video.split, caption, step, reason, **facts)


def edit(video, sen_id: int, step: str, rule: str, before: str, after: str, **facts) -> EditRow:
    """An edits/ row for a caption of `video` (a VideoBatch); `facts`: the columns only some steps fill
    (step IV's `word_limit`)."""
    return EditRow(sen_id, video.video_id, step, rule, before, after, **facts)
