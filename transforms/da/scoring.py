"""Direct Assessment scoring (Graham, Awad and Smeaton 2018): which workers to trust, their scores
standardised, per caption, per system, and which system significantly beats which.

1. Quality control, per worker: each degraded item is paired with the worker's score of the item it
   copies (the check pairs); a one-sided paired test says whether the worker scored the originals
   higher. A worker with fewer than `min_pairs` pairs, or p >= `worker_alpha`, or the same score for
   everything, is not kept. Repeats are paired likewise and tested two-sided: a significant difference
   is reported (and, with `drop_inconsistent_repeats`, the worker is not kept).
2. z per kept worker: (score - the worker's mean) / the worker's standard deviation (n-1), both over
   the worker's scores of real captions: system, reference and repeat items. Degraded copies are left
   out: they are bad on purpose, and how many a worker sees depends on the recipe, not on the worker.
3. Per caption (item_id): the mean raw score and mean z of the system and reference slots that show it.
   Check items (degraded copies and repeats) never enter a caption's or a system's score.
4. Per system: its captions' mean raw and mean z, and a bootstrap 95% interval of the mean z
   (captions resampled with replacement, seeded).
5. Between systems: a one-sided Wilcoxon rank-sum test (Mann-Whitney U) of one system's captions' z
   against another's; p < `win_alpha` is a win. Clusters and rank ranges follow from the wins
   (clusters, rank_ranges).
"""
from dataclasses import dataclass

import numpy as np
from scipy import stats

from transforms.da.judgments import CHECK_KINDS, Hits, Judgments
from transforms.da.worker_tests import WORKER_TESTS

Z_KINDS = ("system", "reference", "repeat")  # the scores a worker's mean and standard deviation are taken over
SCORED_KINDS = ("system", "reference")  # the slots whose scores make a caption's (and a system's) score
KEPT, TOO_FEW_PAIRS, CONSTANT, NOT_SIGNIFICANT, INCONSISTENT = (
    "kept", "too few pairs", "constant scores", "not significant", "inconsistent repeats")


@dataclass(frozen=True)
class ScoringSettings:
    worker_test: str = "wilcoxon"
    worker_alpha: float = 0.05
    min_pairs: int = 10
    drop_inconsistent_repeats: bool = False
    win_alpha: float = 0.05
    bootstrap: int = 1000
    seed: int = 0


# ---------------------------------------------------------------- the tests

def one_sided_p(test: str, original, copy) -> tuple:
    """(statistic, p) of the test that the originals score higher than their copies; p is 1.0 when there
    is nothing to test (every pair equal, or too few values), so such a worker is never kept."""
    return _p_value(test, np.asarray(original, float), np.asarray(copy, float), "greater")


def two_sided_p(test: str, original, copy) -> tuple:
    """(statistic, p) of the test that originals and copies differ, either way (the repeat check)."""
    return _p_value(test, np.asarray(original, float), np.asarray(copy, float), "two-sided")


def _p_value(test: str, a: np.ndarray, b: np.ndarray, alternative: str) -> tuple:
    if test == "mann-whitney":  # not paired: the two samples are compared as they are
        if len(a) < 2 or len(b) < 2:
            return (None, 1.0)
        result = stats.mannwhitneyu(a, b, alternative=alternative)
        return (float(result.statistic), float(result.pvalue))
    differences = a - b
    if len(a) < 2 or not differences.any():
        return (None, 1.0)
    if test == "t-test" and np.ptp(differences) == 0:
        # Differences that are all the same have no variance, and t no value: their direction decides.
        return (None, 0.0 if differences[0] > 0 or alternative == "two-sided" else 1.0)
    if test == "wilcoxon":
        result = stats.wilcoxon(a, b, alternative=alternative, method=wilcoxon_method(differences))
    elif test == "t-test":
        result = stats.ttest_rel(a, b, alternative=alternative)
    else:
        raise ValueError(f"unknown test {test!r}; one of {', '.join(WORKER_TESTS)}")
    return (float(result.statistic), float(result.pvalue))


def wilcoxon_method(differences: np.ndarray) -> str:
    """The exact distribution when it holds (up to 50 pairs, no zero difference, no tie); the normal
    approximation otherwise. (scipy's own choice for that case, a permutation test, is exact too, but takes
    a quarter of a second a worker: slider scores tie often.)"""
    magnitudes = np.abs(differences)
    exact = len(differences) <= 50 and np.all(magnitudes > 0) and len(np.unique(magnitudes)) == len(magnitudes)
    return "exact" if exact else "approx"


# ---------------------------------------------------------------- quality control

@dataclass(frozen=True)
class CheckPairs:
    """The check pairs of every worker, one entry per pair: the worker, the HIT, the check's kind, the
    original's and the copy's HITs-table rows and their scores."""
    worker: list
    kind: list
    original_row: list
    copy_row: list
    original_score: list
    copy_score: list


def check_pairs(judgments: Judgments, hits: Hits) -> CheckPairs:
    """Each degraded or repeat judgment beside the same worker's judgment of the slot it copies (a check
    whose original the worker did not rate makes no pair)."""
    judged = {(worker, row): at for at, (worker, row) in enumerate(zip(judgments.worker, judgments.hit_row))}
    pairs = CheckPairs([], [], [], [], [], [])
    for at, (worker, row) in enumerate(zip(judgments.worker, judgments.hit_row)):
        kind = hits.kind[row]
        if kind not in CHECK_KINDS:
            continue
        original_row = hits.row_of[hits.hit_id[row], hits.original_slot[row]]
        original_at = judged.get((worker, original_row))
        if original_at is None:
            continue
        pairs.worker.append(worker)
        pairs.kind.append(kind)
        pairs.original_row.append(original_row)
        pairs.copy_row.append(int(row))
        pairs.original_score.append(float(judgments.score[original_at]))
        pairs.copy_score.append(float(judgments.score[at]))
    return pairs


@dataclass(frozen=True)
class WorkerQuality:
    worker: str
    judgments: int
    hits: int
    pairs: int  # good/degraded pairs
    original_mean: float | None
    degraded_mean: float | None
    statistic: float | None
    p_value: float | None
    repeat_pairs: int
    repeat_p_value: float | None
    repeat_consistent: bool | None
    mean: float | None  # over the Z_KINDS scores
    sd: float | None
    seconds_per_item: float | None
    status: str

    @property
    def kept(self) -> bool:
        return self.status == KEPT


def worker_quality(judgments: Judgments, hits: Hits, pairs: CheckPairs, settings: ScoringSettings) -> list:
    """One WorkerQuality per worker, by worker id."""
    by_worker = {}
    for at, worker in enumerate(pairs.worker):
        by_worker.setdefault(worker, {"degraded": ([], []), "repeat": ([], [])})
        originals, copies = by_worker[worker][pairs.kind[at]]
        originals.append(pairs.original_score[at])
        copies.append(pairs.copy_score[at])
    z_slot = np.isin(np.array(hits.kind, dtype=object)[judgments.hit_row], Z_KINDS)
    hit_of_row = np.array(hits.hit_id, dtype=object)
    qualities = []
    for worker, mine in zip(*by_value(judgments.worker)):
        scores = judgments.score[mine[z_slot[mine]]]
        seconds = judgments.seconds[mine]
        known_seconds = seconds[~np.isnan(seconds)]
        empty = ([], [])
        good, degraded = by_worker.get(worker, {}).get("degraded", empty)
        first, repeat = by_worker.get(worker, {}).get("repeat", empty)
        statistic, p = one_sided_p(settings.worker_test, good, degraded) if len(good) >= settings.min_pairs \
            else (None, None)
        repeat_p = two_sided_p(settings.worker_test, first, repeat)[1] if len(first) >= 2 else None
        consistent = None if repeat_p is None else bool(repeat_p >= settings.worker_alpha)
        sd = float(np.std(scores, ddof=1)) if len(scores) >= 2 else None
        status = worker_status(len(good), p, sd, consistent, settings)
        qualities.append(WorkerQuality(
            worker=worker, judgments=len(mine), hits=len(set(hit_of_row[judgments.hit_row[mine]])),
            pairs=len(good), original_mean=mean_or_none(good), degraded_mean=mean_or_none(degraded),
            statistic=statistic, p_value=p, repeat_pairs=len(first), repeat_p_value=repeat_p,
            repeat_consistent=consistent, mean=mean_or_none(scores), sd=sd,
            seconds_per_item=float(known_seconds.mean()) if len(known_seconds) else None, status=status))
    return qualities


def by_value(values: np.ndarray) -> tuple:
    """(the distinct values, sorted; for each, the positions that hold it)."""
    names, which = np.unique(values.astype(str), return_inverse=True)
    order = np.argsort(which, kind="stable")
    return list(names), np.split(order, np.cumsum(np.bincount(which, minlength=len(names)))[:-1])


def worker_status(pairs: int, p: float | None, sd: float | None, consistent: bool | None,
                  settings: ScoringSettings) -> str:
    """Why a worker is kept or not, the first reason that applies."""
    if pairs < settings.min_pairs:
        return TOO_FEW_PAIRS
    if not sd:
        return CONSTANT  # no spread: z is undefined
    if p >= settings.worker_alpha:
        return NOT_SIGNIFICANT
    if settings.drop_inconsistent_repeats and consistent is False:
        return INCONSISTENT
    return KEPT


def mean_or_none(values) -> float | None:
    return float(np.mean(values)) if len(values) else None


# ---------------------------------------------------------------- z, captions, systems

def z_scores(judgments: Judgments, qualities: list) -> np.ndarray:
    """Each judgment's z by its worker's mean and standard deviation; NaN for a worker not kept."""
    kept = {quality.worker: quality for quality in qualities if quality.kept}
    z = np.full(len(judgments), np.nan)
    for worker, mine in zip(*by_value(judgments.worker)):
        if worker in kept:
            z[mine] = (judgments.score[mine] - kept[worker].mean) / kept[worker].sd
    return z


@dataclass(frozen=True)
class CaptionScore:
    item_id: str
    kind: str
    system: str
    video_id: str
    sen_id: int | None
    caption: str
    n: int
    raw_mean: float
    z_mean: float


def caption_scores(judgments: Judgments, hits: Hits, z: np.ndarray) -> list:
    """Per item shown in a system or reference slot, the mean raw score and mean z of the kept workers'
    judgments of those slots; by system, then item_id."""
    kinds = np.array(hits.kind, dtype=object)[judgments.hit_row]
    scored = np.isin(kinds, SCORED_KINDS) & ~np.isnan(z)
    rows = judgments.hit_row[scored]
    items = np.array(hits.item_id, dtype=object)[rows]
    names, which = np.unique(items.astype(str), return_inverse=True)
    counts = np.bincount(which, minlength=len(names))
    raw = np.bincount(which, weights=judgments.score[scored], minlength=len(names)) / np.maximum(counts, 1)
    zs = np.bincount(which, weights=z[scored], minlength=len(names)) / np.maximum(counts, 1)
    first_row = {}
    for row, item in zip(rows, items):
        first_row.setdefault(item, int(row))
    captions = []
    for at, item in enumerate(names):
        row = first_row[item]
        captions.append(CaptionScore(item, hits.kind[row], hits.system[row], hits.video_id[row], hits.sen_id[row],
                                     hits.caption[row], int(counts[at]), float(raw[at]), float(zs[at])))
    return sorted(captions, key=lambda caption: (caption.system, caption.item_id))


@dataclass(frozen=True)
class SystemScore:
    system: str
    kind: str  # system or reference
    captions: int
    n: int
    raw_mean: float
    z_mean: float
    z_low: float
    z_high: float


def system_scores(captions: list, settings: ScoringSettings) -> list:
    """Per system, its captions' mean raw and mean z with a bootstrap 95% interval of the mean z (the
    captions resampled with replacement, `settings.bootstrap` times, by `settings.seed`); best z first."""
    by_system = {}
    for caption in captions:
        by_system.setdefault(caption.system, []).append(caption)
    rng = np.random.default_rng(settings.seed)
    scores = []
    for system in sorted(by_system):  # sorted, so each system's resamples do not depend on dict order
        own = by_system[system]
        z = np.array([caption.z_mean for caption in own])
        low, high = bootstrap_interval(z, settings.bootstrap, rng)
        scores.append(SystemScore(system, own[0].kind, len(own), sum(caption.n for caption in own),
                                  float(np.mean([caption.raw_mean for caption in own])), float(z.mean()), low, high))
    return sorted(scores, key=lambda score: (-score.z_mean, score.system))


def bootstrap_interval(values: np.ndarray, resamples: int, rng) -> tuple:
    """The 2.5th and 97.5th percentiles of the mean of `values` resampled with replacement."""
    draws = rng.integers(0, len(values), size=(resamples, len(values)))
    means = values[draws].mean(axis=1)
    return float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


# ---------------------------------------------------------------- systems compared

@dataclass(frozen=True)
class SystemPair:
    system: str
    other: str
    statistic: float
    p_value: float
    wins: bool  # system's captions' z significantly higher than other's


def pairwise_wins(captions: list, ranked: list, win_alpha: float) -> list:
    """For every ordered pair of systems, the one-sided Wilcoxon rank-sum (Mann-Whitney U) test that the
    first's captions have higher z than the second's; in rank order."""
    z_of = {}
    for caption in captions:
        z_of.setdefault(caption.system, []).append(caption.z_mean)
    pairs = []
    for system in ranked:
        for other in ranked:
            if other == system:
                continue
            result = stats.mannwhitneyu(z_of[system], z_of[other], alternative="greater")
            pairs.append(SystemPair(system, other, float(result.statistic), float(result.pvalue),
                                    bool(result.pvalue < win_alpha)))
    return pairs


def clusters(ranked: list, wins: set) -> dict:
    """system -> cluster number (1 the best). In rank order, a system starts a new cluster when every
    system ranked above it beats it significantly (WMT's rule); otherwise it joins the cluster above."""
    cluster, numbers = 1, {}
    for at, system in enumerate(ranked):
        if at and all((above, system) in wins for above in ranked[:at]):
            cluster += 1
        numbers[system] = cluster
    return numbers


def rank_ranges(ranked: list, wins: set) -> dict:
    """system -> (best rank, worst rank) it could have given the significant wins: 1 + the systems that
    beat it, and the number of systems less those it beats."""
    return {system: (1 + sum((other, system) in wins for other in ranked),
                     len(ranked) - sum((system, other) in wins for other in ranked)) for system in ranked}


def replication(first: list, second: list) -> dict:
    """Pearson's r of the systems' raw means and z means in two separate runs, over the systems both scored
    (None with fewer than three: two points always correlate perfectly)."""
    second_of = {score.system: score for score in second}
    shared = [score for score in first if score.system in second_of]
    if len(shared) < 3:
        return {"systems": len(shared), "pearson_raw": None, "pearson_z": None}
    raw = stats.pearsonr([score.raw_mean for score in shared], [second_of[score.system].raw_mean for score in shared])
    z = stats.pearsonr([score.z_mean for score in shared], [second_of[score.system].z_mean for score in shared])
    return {"systems": len(shared), "pearson_raw": float(raw.statistic), "pearson_z": float(z.statistic)}
