"""Direct Assessment judgments as rows (worker, hit_id, slot, score, seconds), checked against the HITs.

The judgments come in three shapes (pipelines/evaluation/da/score/judgment_files.py reads the files):
- a plain table, the rating page's CSV among them: worker, hit_id, slot, score, and optionally seconds;
- MTurk's batch results: one row per assignment, WorkerId, WorkTimeInSeconds, Input.hit_id and one
  Answer.score_<slot> column per slot (mturk_judgments turns such a row into one judgment per slot).
Whatever the shape, check_judgments holds every row to the HITs table (capclean da prepare's hits/): the
HIT and the slot exist, the score is a number from 0 to 100, and no worker rated a slot of a HIT twice.
Each failure is one CapcleanError naming the file and the row; nothing is dropped silently.
"""
import math
import re
from dataclasses import dataclass

import numpy as np

from transforms.errors import CapcleanError

# The columns of hits/ (capclean da prepare; docs/commands/da-prepare.md gives each).
HITS_COLUMNS = ("hit_id", "slot", "kind", "system", "video_id", "sen_id", "caption", "item_id", "original_slot")
KINDS = ("system", "reference", "degraded", "repeat")
CHECK_KINDS = ("degraded", "repeat")  # items copied from another slot of the HIT, for quality control
LOWEST_SCORE, HIGHEST_SCORE = 0.0, 100.0

PLAIN_COLUMNS = ("worker", "hit_id", "slot", "score")
MTURK_COLUMNS = ("WorkerId", "WorkTimeInSeconds", "Input.hit_id")
MTURK_ANSWER = re.compile(r"^Answer\.score_(\d+)$")


class JudgmentError(CapcleanError):
    """A judgment or a HITs table that cannot be used; the message names the file and the row."""


@dataclass(frozen=True)
class Hits:
    """The HITs table as columns (one entry per slot), and where each (hit_id, slot) is."""
    hit_id: list
    slot: list
    kind: list
    system: list
    video_id: list
    sen_id: list
    caption: list
    item_id: list
    original_slot: list
    row_of: dict  # (hit_id, slot) -> row
    hit_ids: frozenset

    def __len__(self):
        return len(self.hit_id)


def hits_from_columns(columns: dict, source: str) -> Hits:
    """The HITs table of `columns` (name -> list, as pyarrow's to_pydict gives), checked: known kinds, each
    (hit_id, slot) once, and a check item's original_slot a slot of its own HIT."""
    missing = [name for name in HITS_COLUMNS if name not in columns]
    if missing:
        raise JudgmentError(f"{source}: no column(s) {', '.join(missing)}; a HITs table has "
                            f"{', '.join(HITS_COLUMNS)}")
    row_of = {}
    for row, (hit_id, slot, kind) in enumerate(zip(columns["hit_id"], columns["slot"], columns["kind"])):
        if kind not in KINDS:
            raise JudgmentError(f"{source}: row {row + 1}: kind {kind!r} is not one of {', '.join(KINDS)}")
        if (hit_id, slot) in row_of:
            raise JudgmentError(f"{source}: row {row + 1}: HIT {hit_id} slot {slot} is also row "
                                f"{row_of[hit_id, slot] + 1}")
        row_of[hit_id, slot] = row
    for row, (hit_id, kind, original) in enumerate(zip(columns["hit_id"], columns["kind"], columns["original_slot"])):
        if kind in CHECK_KINDS and (hit_id, original) not in row_of:
            raise JudgmentError(f"{source}: row {row + 1}: the {kind} item of HIT {hit_id} copies slot {original}, "
                                "which the HIT does not have")
    return Hits(**{name: list(columns[name]) for name in HITS_COLUMNS}, row_of=row_of,
                hit_ids=frozenset(columns["hit_id"]))


@dataclass(frozen=True)
class RawJudgments:
    """Judgments as a file gave them, not yet checked: one entry per judgment in each list. `where` names
    each in an error ("line 3", "row 3, Answer.score_7")."""
    source: str
    where: list
    worker: list
    hit_id: list
    slot: list
    score: list
    seconds: list


def plain_judgments(rows: list, source: str) -> RawJudgments:
    """[(where, {column: value})] of a plain table (worker, hit_id, slot, score, optionally seconds)."""
    return RawJudgments(source, [where for where, _ in rows], [row["worker"] for _, row in rows],
                        [row["hit_id"] for _, row in rows], [row["slot"] for _, row in rows],
                        [row["score"] for _, row in rows], [row.get("seconds") for _, row in rows])


def is_mturk(columns) -> bool:
    """MTurk's batch results: its own columns and at least one Answer.score_<slot>."""
    return all(name in columns for name in MTURK_COLUMNS) and any(MTURK_ANSWER.match(name) for name in columns)


def mturk_judgments(rows: list, columns, source: str) -> RawJudgments:
    """One judgment per non-empty Answer.score_<slot> of each assignment (an empty one is no judgment: the
    HIT has fewer slots than the batch's widest). MTurk times the assignment, not the item: each judgment
    gets WorkTimeInSeconds shared evenly over the assignment's answers."""
    answers = sorted(((int(MTURK_ANSWER.match(name).group(1)), name) for name in columns if MTURK_ANSWER.match(name)))
    judged = RawJudgments(source, [], [], [], [], [], [])
    for where, row in rows:
        given = [(slot, name) for slot, name in answers if not is_empty(row.get(name))]
        seconds = number_or_none(row.get("WorkTimeInSeconds"))
        for slot, name in given:
            judged.where.append(f"{where}, {name}")
            judged.worker.append(row["WorkerId"])
            judged.hit_id.append(row["Input.hit_id"])
            judged.slot.append(slot)
            judged.score.append(row[name])
            judged.seconds.append(None if seconds is None else seconds / len(given))
    return judged


@dataclass(frozen=True)
class Judgments:
    """Checked judgments as arrays, one entry per judgment: the worker, the HITs table's row it rates,
    the score (0-100) and the seconds spent (NaN: not known)."""
    worker: np.ndarray  # str
    hit_row: np.ndarray  # int64
    score: np.ndarray  # float64
    seconds: np.ndarray  # float64

    def __len__(self):
        return len(self.score)


def check_judgments(raw_files: list, hits: Hits) -> Judgments:
    """The judgments of every file, checked against `hits`, by worker then by HITs-table row; a worker who
    rated the same slot of the same HIT twice, in one file or across files, is an error naming both places."""
    seen = {}  # (worker, hit row) -> where its first judgment is ("FILE: line N")
    workers, rows, scores, seconds = [], [], [], []
    for raw in raw_files:
        for at in range(len(raw.where)):
            where = f"{raw.source}: {raw.where[at]}"
            worker = text_cell(raw.worker[at], where, "worker")
            hit_id = text_cell(raw.hit_id[at], where, "hit_id")
            row = hits.row_of.get((hit_id, slot_number(raw.slot[at], where)))
            if row is None:
                problem = (f"HIT {hit_id} has no slot {raw.slot[at]}" if hit_id in hits.hit_ids
                           else f"unknown HIT {hit_id!r}")
                raise JudgmentError(f"{where}: {problem} in the HITs table")
            if (worker, row) in seen:
                raise JudgmentError(f"{where}: worker {worker} rated HIT {hit_id} slot {hits.slot[row]} twice "
                                    f"(first at {seen[worker, row]})")
            seen[worker, row] = where
            workers.append(worker)
            rows.append(row)
            scores.append(score_cell(raw.score[at], where))
            seconds.append(seconds_cell(raw.seconds[at], where))
    # One order whatever the files' (by worker, then by the HITs table's row): the same judgments, split over
    # files, ordered otherwise, or given as MTurk's results, make the same sums and the same tables.
    workers, rows = np.array(workers, dtype=object), np.array(rows, dtype=np.int64)
    order = np.lexsort((rows, workers.astype(str)))
    return Judgments(workers[order], rows[order], np.array(scores, dtype=np.float64)[order],
                     np.array(seconds, dtype=np.float64)[order])


def text_cell(value, where: str, column: str) -> str:
    if is_empty(value):
        raise JudgmentError(f"{where}: no {column}")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def slot_number(value, where: str) -> int:
    """A slot is a whole number (a CSV's "7" or a float 7.0 as pandas writes a column with gaps)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise JudgmentError(f"{where}: slot {value!r} is not a whole number") from None
    if isinstance(value, bool) or not number.is_integer():
        raise JudgmentError(f"{where}: slot {value!r} is not a whole number")
    return int(number)


def score_cell(value, where: str) -> float:
    """A score from 0 to 100; a NaN, a text or a number outside the scale is refused."""
    number = number_or_none(value)
    if number is None or isinstance(value, bool) or math.isnan(number):
        raise JudgmentError(f"{where}: score {value!r} is not a number")
    if not LOWEST_SCORE <= number <= HIGHEST_SCORE:
        raise JudgmentError(f"{where}: score {value!r} is outside 0-100")
    return number


def seconds_cell(value, where: str) -> float:
    """Seconds spent on the item, optional: empty is NaN (not known); a negative or non-number is refused."""
    if is_empty(value):
        return math.nan
    number = number_or_none(value)
    if number is None or math.isnan(number) or number < 0:
        raise JudgmentError(f"{where}: seconds {value!r} is not a time in seconds")
    return number


def number_or_none(value) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def is_empty(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip()) or (
        isinstance(value, float) and math.isnan(value))
