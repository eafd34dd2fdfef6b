"""The output contract: one pyarrow schema per table capclean writes.

Every Parquet file under an output folder is written with one of these schemas,
so a reader (pandas, polars, duckdb, `datasets`) always sees the same column
names and types whatever the input was.
"""
import pyarrow as pa

CAPTIONS = pa.schema([
    pa.field("video_id", pa.string(), nullable=False),
    pa.field("sen_id", pa.int64(), nullable=False),
    pa.field("split", pa.string(), nullable=False),
    pa.field("category", pa.int32(), nullable=False),
    pa.field("caption", pa.string(), nullable=False),
])

# Every input caption that is not in `captions/`, with the step that took it
# out and why. `sen_id` is null only for a record whose own id was unusable.
REMOVED = pa.schema([
    pa.field("sen_id", pa.int64()),
    pa.field("video_id", pa.string()),
    pa.field("split", pa.string()),
    pa.field("caption", pa.string()),
    pa.field("step", pa.string(), nullable=False),
    pa.field("reason", pa.string(), nullable=False),
    pa.field("kept_sen_id", pa.int64()),
])

# One row per caption per step that changed its text.
EDITS = pa.schema([
    pa.field("sen_id", pa.int64(), nullable=False),
    pa.field("video_id", pa.string(), nullable=False),
    pa.field("step", pa.string(), nullable=False),
    pa.field("rule", pa.string(), nullable=False),
    pa.field("before", pa.string(), nullable=False),
    pa.field("after", pa.string(), nullable=False),
])

# One row per token the spelling step changed; `position` is the token's
# index in the caption as the spelling step received it. `score` is the
# confidence of a ranked correction (null for the fixed rules).
CORRECTIONS = pa.schema([
    pa.field("sen_id", pa.int64(), nullable=False),
    pa.field("position", pa.int32(), nullable=False),
    pa.field("original", pa.string(), nullable=False),
    pa.field("replacement", pa.string(), nullable=False),
    pa.field("rule", pa.string(), nullable=False),
    pa.field("score", pa.float64()),
])

# Tokens Hunspell rejects that the spelling step left as they were because no
# correction was clearly best; `candidate` is the best it had, if any.
FLAGGED = pa.schema([
    pa.field("sen_id", pa.int64(), nullable=False),
    pa.field("position", pa.int32(), nullable=False),
    pa.field("token", pa.string(), nullable=False),
    pa.field("reason", pa.string(), nullable=False),
    pa.field("candidate", pa.string()),
])

# One row per caption step IV's `parse` or `model` rule split: its sentences (joined by
# spaces they give back the caption), the policy applied and what it did.
# `new_sen_ids` are the ids of the captions the `separate` policy made from
# sentences 2, 3, ... (empty for the other policies); `sen_id` keeps the first.
RUNON = pa.schema([
    pa.field("sen_id", pa.int64(), nullable=False),
    pa.field("video_id", pa.string(), nullable=False),
    pa.field("split", pa.string()),
    pa.field("sentences", pa.list_(pa.string()), nullable=False),
    pa.field("policy", pa.string(), nullable=False),
    pa.field("action", pa.string(), nullable=False),
    pa.field("new_sen_ids", pa.list_(pa.int64()), nullable=False),
])

TABLES = {
    "captions": CAPTIONS,
    "removed": REMOVED,
    "edits": EDITS,
    "corrections": CORRECTIONS,
    "flagged": FLAGGED,
    "runon": RUNON,
}
