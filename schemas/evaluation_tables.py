"""The tables the evaluation commands write, one pyarrow schema each (the cleaning's are in tables.py)."""
import pyarrow as pa

from schemas.tables import optional, required

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

# overlap/: one row per query caption of `capclean overlap` (transforms/evaluation/overlap.py):
# its length in words and characters, the mean cosine similarity (character 5-gram tf-idf fitted
# on the queries) to its ten most similar training captions, whether its text (case and spacing
# aside) is a training caption, and the most similar training caption.
OVERLAP = pa.schema([
    required("sen_id", pa.int64()), required("video_id"), required("caption"), required("words", pa.int32()),
    required("characters", pa.int32()), required("mean_top10_similarity", pa.float64()),
    required("exact_match", pa.bool_()), required("nearest_sen_id", pa.int64()), required("nearest_caption"),
    required("nearest_similarity", pa.float64()),
])

# fn_candidates/: one row per (query caption, other video of the query split) where a caption of
# that video is a near-duplicate of the query by step III's similarity; the video's best caption.
FN_CANDIDATES = pa.schema([
    required("query_sen_id", pa.int64()), required("query_video_id"), required("query_caption"),
    required("candidate_video_id"), required("similarity", pa.float64()), required("matching_sen_id", pa.int64()),
    required("matching_caption"),
])

# relevance/proxy=NAME/: one row per (video, caption) pair whose relevance by that proxy is above 0
# (`capclean relevance`, transforms/evaluation/relevance.py); a video's own captions have 1.
RELEVANCE = pa.schema([required("video_id"), required("sen_id", pa.int64()), required("score", pa.float32())])

# hits/: one row per slot of a Direct Assessment HIT (`capclean da prepare`, transforms/da/hits.py). `kind` is
# system, reference, degraded or repeat; `system` the system judged ("reference" for the references; a
# degraded or repeat item's is that of the item it copies); `item_id` the judged (system, caption) item, the
# same for an original and its repeat, "<original item_id>#degraded" for a degraded copy; `original_slot`
# the slot (same HIT) of the item a degraded or repeat item copies, null for the others. `sen_id` is null
# for a caption that is not an MSR-VTT caption (a model's).
DA_HITS = pa.schema([
    required("hit_id"), required("slot", pa.int32()), required("kind"), required("system"), required("video_id"),
    optional("sen_id", pa.int64()), required("caption"), required("item_id"), optional("original_slot", pa.int32()),
])

# degraded/: one row per degraded item of the HITs (transforms/da/degrade.py): the original caption, the
# degraded one, the span replaced (its first word, 0-based, and its length in words), the donor caption and
# its video, and the seed that makes the row again.
DA_DEGRADED = pa.schema([
    required("item_id"), required("video_id"), optional("sen_id", pa.int64()), required("original"),
    required("degraded"), required("span_start", pa.int32()), required("span_length", pa.int32()),
    required("donor_caption"), required("donor_video_id"), required("seed", pa.int64()),
])

EVALUATION_TABLES = {"pos": POS, "hardneg": HARDNEG, "overlap": OVERLAP, "fn_candidates": FN_CANDIDATES,
                     "relevance": RELEVANCE, "hits": DA_HITS, "degraded": DA_DEGRADED}
