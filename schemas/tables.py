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
REMOVED = pa.schema([
    optional("sen_id", pa.int64()), optional("video_id"), optional("split"), optional("caption"),
    required("step"), required("reason"), optional("kept_sen_id", pa.int64()),
])

# One row per caption per step that changed its text.
EDITS = pa.schema([
    required("sen_id", pa.int64()), required("video_id"), required("step"), required("rule"),
    required("before"), required("after"),
])

# One row per token the spelling step changed; `position` is the token's
# index in the caption as the spelling step received it. `score` is the
# confidence of a ranked correction (null for the fixed rules).
CORRECTIONS = pa.schema([
    required("sen_id", pa.int64()), required("position", pa.int32()), required("original"),
    required("replacement"), required("rule"), optional("score", pa.float64()),
])

# Tokens Hunspell rejects that the spelling step left as they were because no
# correction was clearly best; `candidate` is the best it had, if any.
FLAGGED = pa.schema([
    required("sen_id", pa.int64()), required("position", pa.int32()), required("token"), required("reason"),
    optional("candidate"),
])

# One row per caption step IV's `parse` or `model` rule split: its sentences (joined by
# spaces they give back the caption), the policy applied and what it did.
# `new_sen_ids` are the ids of the captions the `separate` policy made from
# sentences 2, 3, ... (empty for the other policies); `sen_id` keeps the first.
RUNON = pa.schema([
    required("sen_id", pa.int64()), required("video_id"), optional("split"),
    required("sentences", pa.list_(pa.string())), required("policy"), required("action"),
    required("new_sen_ids", pa.list_(pa.int64())),
])

TABLES = {
    "captions": CAPTIONS,
    "removed": REMOVED,
    "edits": EDITS,
    "corrections": CORRECTIONS,
    "flagged": FLAGGED,
    "runon": RUNON,
}
