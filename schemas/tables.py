"""The output contract: one pyarrow schema per table capclean writes.

Every Parquet file under an output folder is written with one of these schemas,
so a reader (pandas, polars, duckdb, `datasets`) always sees the same column
names and types whatever the input was.
"""
import pyarrow as pa


def required(name: str, arrow_type=pa.string()) -> pa.Field:
    """A column that is never null."""
    return pa.field(name, arrow_type, nullable=False)


def optional(name: str, arrow_type=pa.string()) -> pa.Field:
    """A column that may be null."""
    return pa.field(name, arrow_type)


CAPTIONS = pa.schema([
    required("video_id"), required("sen_id", pa.int64()), required("split"), required("category", pa.int32()),
    required("caption"),
])

# Every input caption that is not in `captions/`, with the step that took it
# out and why. `sen_id` is null only for a record whose own id was unusable.
# The columns after `reason` are step III's facts about a near-duplicate, null on
# the other steps' rows: the caption kept for its group (in the output), the
# caption that opened the group, the caption it was compared with and their
# similarity (a caption that joined the group: the opener, by which it joined;
# the opener itself: the caption its pass kept, the pair that made the group),
# the edit threshold e and similarity threshold s it was grouped by, and the
# pass of step III that removed it (2, 3, ... are until_stable's further passes).
REMOVED = pa.schema([
    optional("sen_id", pa.int64()), optional("video_id"), optional("split"), optional("caption"),
    required("step"), required("reason"), optional("kept_sen_id", pa.int64()),
    optional("opener_sen_id", pa.int64()), optional("compared_sen_id", pa.int64()),
    optional("similarity", pa.float64()), optional("edit_threshold", pa.int32()),
    optional("similarity_threshold", pa.float64()), optional("dedup_pass", pa.int32()),
])

# One row per caption per step that changed its text. `word_limit`: the number of
# words step IV's `truncate` rule cut the caption to (null on the other rows).
EDITS = pa.schema([
    required("sen_id", pa.int64()), required("video_id"), required("step"), required("rule"),
    required("before"), required("after"), optional("word_limit", pa.int32()),
])

# One row per token the spelling step changed; `position` is the token's
# index in the caption as the spelling step received it. `score` is the
# confidence of a ranked correction (null for the fixed rules). The six counts are the
# evidence of a real-word change (rule `real_word`; null on other rows): how often the
# corpus writes the original and the replacement, and each after the word before and
# before the word after.
CORRECTIONS = pa.schema([
    required("sen_id", pa.int64()), required("position", pa.int32()), required("original"),
    required("replacement"), required("rule"), optional("score", pa.float64()),
    optional("original_count", pa.int64()), optional("replacement_count", pa.int64()),
    optional("original_with_previous", pa.int64()), optional("replacement_with_previous", pa.int64()),
    optional("original_with_following", pa.int64()), optional("replacement_with_following", pa.int64()),
])

# Tokens Hunspell rejects that the spelling step left as they were because no
# correction was clearly best; `candidate` is the best it had, if any. The columns
# after it are that candidate's evidence, as the rule had it (null where it had none):
# the link of the rule that flagged the token (`corpus`, `context`, `clip_evidence`,
# `clipped_name` or `gate`), the candidate's edit distance, the gate's probability
# for it, and the corpus counts (occurrences, videos) of the token and of the
# candidate (a two-word candidate: the phrase's count, and null videos).
FLAGGED = pa.schema([
    required("sen_id", pa.int64()), required("position", pa.int32()), required("token"), required("reason"),
    optional("candidate"), optional("flagged_by"), optional("distance", pa.int32()),
    optional("score", pa.float64()), optional("token_count", pa.int64()), optional("token_videos", pa.int64()),
    optional("candidate_count", pa.int64()), optional("candidate_videos", pa.int64()),
])

# One row per caption step IV's `model` rule split: its sentences (joined by
# spaces they give back the caption), the policy applied and what it did.
# `new_sen_ids` are the ids of the captions the `separate` policy made from
# sentences 2, 3, ... (empty for the other policies); `sen_id` keeps the first.
# `rule` is step IV's rule that found the sentences; `scored_for` why its
# pre-filter sent the caption to the boundary model ("word cue" or "length only"),
# and `threshold` the probability from which a word of it starts a sentence.
RUNON = pa.schema([
    required("sen_id", pa.int64()), required("video_id"), optional("split"),
    required("sentences", pa.list_(pa.string())), required("policy"), required("action"),
    required("new_sen_ids", pa.list_(pa.int64())),
    optional("rule"), optional("scored_for"), optional("threshold", pa.float64()),
])

TABLES = {
    "captions": CAPTIONS,
    "removed": REMOVED,
    "edits": EDITS,
    "corrections": CORRECTIONS,
    "flagged": FLAGGED,
    "runon": RUNON,
}
