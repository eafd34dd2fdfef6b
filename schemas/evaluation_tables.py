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

# `capclean da score` (transforms/da/scoring.py; docs/commands/da-score.md gives every column).
# da_workers/: one row per worker: the quality-control test of their good/degraded pairs, the repeat check,
# the mean and standard deviation their z scores use, and `status` (kept, or why not).
DA_WORKERS = pa.schema([
    required("worker"), required("judgments", pa.int64()), required("hits", pa.int32()), required("pairs", pa.int32()),
    optional("original_mean", pa.float64()), optional("degraded_mean", pa.float64()),
    optional("statistic", pa.float64()), optional("p_value", pa.float64()), required("repeat_pairs", pa.int32()),
    optional("repeat_p_value", pa.float64()), optional("repeat_consistent", pa.bool_()),
    optional("mean", pa.float64()), optional("sd", pa.float64()), optional("seconds_per_item", pa.float64()),
    required("kept", pa.bool_()), required("status"),
])

# da_checks/: one row per check pair of a worker: a degraded or repeat slot beside the slot it copies.
DA_CHECKS = pa.schema([
    required("worker"), required("hit_id"), required("kind"), required("item_id"), required("original_slot", pa.int32()),
    required("slot", pa.int32()), required("original_score", pa.float64()), required("check_score", pa.float64()),
])

# da_captions/: one row per caption judged in a system or reference slot: the kept workers' mean raw score and z.
DA_CAPTIONS = pa.schema([
    required("system"), required("kind"), required("item_id"), required("video_id"), optional("sen_id", pa.int64()),
    required("caption"), required("n", pa.int32()), required("raw_mean", pa.float64()),
    required("z_mean", pa.float64()),
])

# da_systems/: one row per system, best mean z first: its score, the bootstrap 95% interval of its mean z,
# its significance cluster and the range of ranks the significant wins allow.
DA_SYSTEMS = pa.schema([
    required("rank", pa.int32()), required("system"), required("kind"), required("captions", pa.int32()),
    required("n", pa.int64()), required("raw_mean", pa.float64()), required("z_mean", pa.float64()),
    required("z_low", pa.float64()), required("z_high", pa.float64()), required("cluster", pa.int32()),
    required("best_rank", pa.int32()), required("worst_rank", pa.int32()),
])

# da_pairs/: one row per ordered pair of systems: the one-sided Wilcoxon rank-sum test that `system`'s
# captions have higher z than `other`'s, and whether it is a win (p below --win-alpha).
DA_PAIRS = pa.schema([
    required("system"), required("other"), required("statistic", pa.float64()), required("p_value", pa.float64()),
    required("wins", pa.bool_()),
])

EVALUATION_TABLES = {"pos": POS, "hardneg": HARDNEG, "overlap": OVERLAP, "fn_candidates": FN_CANDIDATES,
                     "relevance": RELEVANCE, "hits": DA_HITS, "degraded": DA_DEGRADED,
                     "da_workers": DA_WORKERS, "da_checks": DA_CHECKS, "da_captions": DA_CAPTIONS,
                     "da_systems": DA_SYSTEMS, "da_pairs": DA_PAIRS}
