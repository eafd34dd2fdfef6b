"""PoSRank: how well a model tells each test caption from its hard negatives, per part of speech.

Chen, Doughty, Li, Snoek, "Beyond Coarse-Grained Matching in Video-Text Retrieval" (2024): each
test caption has up to K = 20 hard negatives per part of speech, each changing one word of that
part (word level) or two consecutive words (phrase level). A model scores every (video, text)
pair; PoSRank of a part is the mean over captions of 1 / rank of the true caption among itself
and its negatives of that part, all scored against the caption's own video. A scorer that
guesses gets H_(K+1) / (K+1), 0.174 for K = 20.

Pure functions, no files: `pipelines/evaluation/posrank/command.py` reads the `hardneg/` table and the scores.

- negatives: the columns of the `hardneg/` table (schemas/evaluation_tables.py's HARDNEG) as
  lists of one length, {"negative_id": [...], "sen_id": [...], ...}, what `pa.Table.to_pydict()`
  gives. Only NEGATIVE_COLUMNS are read.
- scores: {(video_id, text_id): score}, text_id a string: a negative's `negative_id`, or the
  true caption's sen_id written as a string ("123"). Higher means a better match.
- or a matrix of (captions, 1 + K) scores: one row per caption, part and level (`matrix_rows` gives
  them in their fixed order), column 0 the caption itself, column 1 + k its negative k, each
  scored against the caption's own video; a row with fewer than K negatives has NaN after them.
"""
from dataclasses import dataclass

from transforms.errors import CapcleanError
from transforms.evaluation.metrics import expected_random_reciprocal_rank, mean_reciprocal_rank
from transforms.evaluation.pos import PARTS_OF_SPEECH

PARTS = tuple(PARTS_OF_SPEECH)  # noun, verb, adjective, adverb, preposition: the paper's order
LEVELS = {"word": "one word changed", "phrase": "two consecutive words changed"}
NEGATIVE_COLUMNS = ("negative_id", "sen_id", "video_id", "part", "level")
# How many missing pairs the error names: enough to spot a pattern (ids written as 123.0,
# another split's videos), few enough for one line.
MISSING_PAIRS_NAMED = 3


class MissingScoresError(CapcleanError):
    """The scores lack (video, text) pairs the negatives need: a PoSRank without them would be wrong."""


class NegativesError(CapcleanError):
    """The negatives cannot be scored: a column, part or level PoSRank does not know."""


@dataclass
class CaptionNegatives:
    """One caption's hard negatives of one part and level, with what its scores are looked up by."""
    video_id: str
    true_text_id: str
    negative_ids: list


@dataclass(frozen=True)
class PartScore:
    """PoSRank of one part of speech at one level, over the captions that have negatives of it."""
    part: str
    level: str
    posrank: float
    chance: float  # what a random scorer expects, given each caption's own number of negatives
    captions: int
    negatives_per_caption: float


@dataclass(frozen=True)
class LevelMean:
    """The mean over parts at one level (the paper reports the mean of the five)."""
    level: str
    posrank: float
    chance: float
    parts: tuple  # the parts averaged: those with negatives at this level


@dataclass(frozen=True)
class PosrankResult:
    parts: dict  # (part, level) -> PartScore, word level first, parts in PARTS order
    means: dict  # level -> LevelMean

    def score(self, part: str, level: str = "word") -> PartScore:
        return self.parts[(part, level)]


# ---------------------------------------------------------------- grouping the negatives

def group_negatives(negatives) -> dict:
    """{(part, level): {sen_id: CaptionNegatives}}, in the order of the rows."""
    check_columns(negatives)
    groups = {}
    rows = zip(*(negatives[column] for column in NEGATIVE_COLUMNS))
    seen = set()
    for negative_id, sen_id, video_id, part, level in sorted(rows, key=negative_order):
        check_part_and_level(negative_id, part, level)
        if negative_id in seen:  # a repeated row would count one negative twice
            raise NegativesError(f"negative {negative_id} is listed twice")
        seen.add(negative_id)
        captions = groups.setdefault((part, level), {})
        caption = captions.setdefault(sen_id, CaptionNegatives(video_id, str(sen_id), []))
        if caption.video_id != video_id:
            raise NegativesError(f"negative {negative_id} is of video {video_id}, but caption {sen_id}'s other "
                                 f"negatives are of {caption.video_id}")
        caption.negative_ids.append(negative_id)
    if not groups:
        raise NegativesError("there are no hard negatives to score")
    return groups


def negative_order(row) -> tuple:
    """A row of NEGATIVE_COLUMNS' order: by sen_id, part (the paper's order), level (word first); a stable
    sort keeps a caption's negatives in the table's order, by k. The order of the hardneg table, and of the
    rows and columns of a (captions, 1 + K) matrix."""
    _, sen_id, _, part, level = row
    return (sen_id, PARTS.index(part) if part in PARTS else len(PARTS),
            list(LEVELS).index(level) if level in LEVELS else len(LEVELS))


def check_columns(negatives) -> None:
    missing = [column for column in NEGATIVE_COLUMNS if column not in negatives]
    if missing:
        raise NegativesError(f"the negatives lack column(s) {', '.join(missing)}; "
                             f"PoSRank needs {', '.join(NEGATIVE_COLUMNS)}")


def check_part_and_level(negative_id: str, part: str, level: str) -> None:
    if part not in PARTS:
        raise NegativesError(f"negative {negative_id} has part {part!r}; PoSRank knows {', '.join(PARTS)}")
    if level not in LEVELS:
        raise NegativesError(f"negative {negative_id} has level {level!r}; PoSRank knows {', '.join(LEVELS)}")


def in_table_order(groups: dict) -> list:
    """The (part, level) keys word level first, then phrase, parts in the paper's order."""
    return sorted(groups, key=lambda key: (list(LEVELS).index(key[1]), PARTS.index(key[0])))


# ---------------------------------------------------------------- the scores each caption needs

def needed_pairs(groups: dict) -> list:
    """Every (video_id, text_id) the negatives need a score for, each once, in the order met."""
    pairs = {}
    for captions in groups.values():
        for caption in captions.values():
            pairs[(caption.video_id, caption.true_text_id)] = None
            for negative_id in caption.negative_ids:
                pairs[(caption.video_id, negative_id)] = None
    return list(pairs)


def check_scores_cover(groups: dict, scores) -> None:
    """Refuse scores that lack a needed pair: skipping it would rank a caption against fewer negatives."""
    needed = needed_pairs(groups)
    missing = [pair for pair in needed if pair not in scores]
    if missing:
        first = ", ".join(f"({video_id}, {text_id})" for video_id, text_id in missing[:MISSING_PAIRS_NAMED])
        more = " ..." if len(missing) > MISSING_PAIRS_NAMED else ""
        raise MissingScoresError(f"scores miss {len(missing):,} of {len(needed):,} (video, text) pairs "
                                 f"the negatives need, first: {first}{more}")


# ---------------------------------------------------------------- PoSRank

def posrank_by_part(negatives, scores) -> PosrankResult:
    """PoSRank per (part, level) present in the negatives, and the mean over parts of each level.

    See the module's docstring for the shapes of `negatives` and `scores`. Every pair the
    negatives need must be scored (MissingScoresError otherwise); the reader
    (pipelines/evaluation/score_tables.py) refuses a scored pair the negatives do not have.
    """
    groups = group_negatives(negatives)
    check_scores_cover(groups, scores)
    return result_of_parts({key: score_part(*key, list(groups[key].values()), scores) for key in groups})


def score_part(part: str, level: str, captions: list, scores) -> PartScore:
    true_scores = [scores[(caption.video_id, caption.true_text_id)] for caption in captions]
    negative_scores = [[scores[(caption.video_id, negative_id)] for negative_id in caption.negative_ids]
                       for caption in captions]
    return part_score(part, level, true_scores, negative_scores)


def part_score(part: str, level: str, true_scores: list, negative_scores: list) -> PartScore:
    """PoSRank of one part and level from each caption's own score and its negatives' scores."""
    captions = len(true_scores)
    negative_counts = [len(scores) for scores in negative_scores]
    # Captions may have fewer than K negatives (a short caption has few nouns to change), so
    # chance is averaged caption by caption rather than taken at the mean K.
    chance = sum(expected_random_reciprocal_rank(count + 1) for count in negative_counts) / captions
    return PartScore(part=part, level=level, posrank=mean_reciprocal_rank(true_scores, negative_scores),
                     chance=chance, captions=captions, negatives_per_caption=sum(negative_counts) / captions)


def result_of_parts(parts: dict) -> PosrankResult:
    """The result of PartScores keyed (part, level), in table order, with the mean of each level."""
    parts = {key: parts[key] for key in in_table_order(parts)}
    levels = dict.fromkeys(level for _, level in parts)
    means = {level: level_mean(level, [part for part in parts.values() if part.level == level])
             for level in levels}
    return PosrankResult(parts, means)


# ---------------------------------------------------------------- a (captions, 1 + K) matrix

@dataclass(frozen=True)
class MatrixRow:
    """One row of a (captions, 1 + K) matrix: a caption and its negatives of one part and level, by k."""
    sen_id: int
    video_id: str
    part: str
    level: str
    negative_ids: tuple


def matrix_rows(negatives) -> list:
    """The rows of the matrix, in order: by sen_id, then part (the paper's order), then level (word first);
    each row's negatives by k. `capclean evaluate --write-texts --negatives` writes the texts in this order."""
    groups = group_negatives(negatives)
    rows = [MatrixRow(int(sen_id), caption.video_id, part, level, tuple(caption.negative_ids))
            for (part, level), captions in groups.items() for sen_id, caption in captions.items()]
    return sorted(rows, key=lambda row: (row.sen_id, PARTS.index(row.part), list(LEVELS).index(row.level)))


def matrix_width(rows: list) -> int:
    """1 + K: the caption and the most negatives of any row."""
    return 1 + max(len(row.negative_ids) for row in rows)


def posrank_of_matrix(rows: list, matrix) -> PosrankResult:
    """PoSRank per (part, level) of a (len(rows), 1 + K) matrix of float scores: row i is rows[i], column 0
    its caption, column 1 + k its negative k. The caller has checked the shape and that the cells a row
    uses are finite."""
    true_scores, negative_scores = {}, {}
    for row, scores in zip(rows, matrix):
        key = (row.part, row.level)
        true_scores.setdefault(key, []).append(float(scores[0]))
        negative_scores.setdefault(key, []).append([float(score) for score in scores[1:1 + len(row.negative_ids)]])
    return result_of_parts({key: part_score(*key, true_scores[key], negative_scores[key]) for key in true_scores})


def level_mean(level: str, part_scores: list) -> LevelMean:
    count = len(part_scores)
    return LevelMean(level=level, posrank=sum(part.posrank for part in part_scores) / count,
                     chance=sum(part.chance for part in part_scores) / count,
                     parts=tuple(part.part for part in part_scores))


# ---------------------------------------------------------------- output

def format_posrank(result: PosrankResult) -> str:
    """The table `capclean posrank` prints: per level, one row per part, then the mean over parts."""
    blocks = [format_level(result, level) for level in result.means]
    return "\n\n".join(blocks)


_HEADER = f"  {'part':<13}{'PoSRank':>8}{'chance':>8}{'captions':>10}{'negatives per caption':>23}"


def format_level(result: PosrankResult, level: str) -> str:
    lines = [f"PoSRank, {level} level ({LEVELS[level]})", _HEADER]
    for part in PARTS:
        score = result.parts.get((part, level))
        if score is None:
            lines.append(f"  {part:<13}{'-':>8}{'-':>8}{0:>10}{'no negatives':>23}")
        else:
            lines.append(f"  {part:<13}{score.posrank:>8.3f}{score.chance:>8.3f}{score.captions:>10,}"
                         f"{score.negatives_per_caption:>23.1f}")
    mean = result.means[level]
    lines.append(f"  {f'mean of {len(mean.parts)}':<13}{mean.posrank:>8.3f}{mean.chance:>8.3f}")
    return "\n".join(lines)


def posrank_figures(result: PosrankResult) -> dict:
    """The figures as plain values for JSON: {level: {part: {...}, ..., "mean": {...}}}."""
    figures = {level: {} for level in result.means}
    for (part, level), score in result.parts.items():
        figures[level][part] = {"posrank": score.posrank, "chance": score.chance, "captions": score.captions,
                                "negatives_per_caption": score.negatives_per_caption}
    for level, mean in result.means.items():
        figures[level]["mean"] = {"posrank": mean.posrank, "chance": mean.chance, "parts": list(mean.parts)}
    return figures
