"""The tables the evaluation commands write, one pyarrow schema each (the cleaning's are in tables.py)."""
import pyarrow as pa

from schemas.tables import required

# pos/: each caption tagged once (transforms/evaluation/pos.py), one row per caption; the lists
# have one item per token.
POS = pa.schema([
    required("sen_id", pa.int64()), required("video_id"), required("split"), required("caption"),
    required("tokens", pa.list_(pa.string())), required("pos", pa.list_(pa.string())),
    required("tags", pa.list_(pa.string())), required("lemmas", pa.list_(pa.string())),
    required("spaces", pa.list_(pa.bool_())),
])

# hardneg/: one row per hard negative of a caption (transforms/evaluation/hardneg.py).
# `negative_id` is the text_id a model's scores name it by; `part` is noun, verb, adjective,
# adverb or preposition; `level` word (one token changed) or phrase (two consecutive tokens);
# `k` its rank among the caption's negatives of that part and level (0 first); `positions`,
# `originals` and `replacements` the changed tokens, in order; `source` antonym,
# related_antonym (of a hypernym or hyponym) or vocabulary (a word of the same part of speech
# drawn from the captions), the lowest-priority source among the changed tokens.
HARDNEG = pa.schema([
    required("negative_id"), required("sen_id", pa.int64()), required("video_id"), required("part"),
    required("level"), required("k", pa.int32()), required("text"), required("caption"),
    required("positions", pa.list_(pa.int32())), required("originals", pa.list_(pa.string())),
    required("replacements", pa.list_(pa.string())), required("source"),
])

EVALUATION_TABLES = {"pos": POS, "hardneg": HARDNEG}
