"""The statistics of `capclean da score`, on cases worked by hand and against scipy."""
from dataclasses import replace

import numpy as np
import pytest
from scipy import stats

from transforms.da.judgments import Judgments
from transforms.da.scoring import (CONSTANT, INCONSISTENT, KEPT, NOT_SIGNIFICANT, TOO_FEW_PAIRS, CaptionScore,
                                   ScoringSettings, bootstrap_interval, caption_scores, check_pairs, clusters,
                                   one_sided_p, pairwise_wins, rank_ranges, replication, system_scores,
                                   two_sided_p, worker_quality, worker_status, z_scores)


def judgments(rows: list) -> Judgments:
    """[(worker, hit row, score)] -> Judgments (seconds not known)."""
    workers, hit_rows, scores = zip(*rows)
    return Judgments(np.array(workers, dtype=object), np.array(hit_rows), np.array(scores, float),
                     np.full(len(rows), np.nan))


# ---------------------------------------------------------------- the tests

def test_wilcoxon_exact_by_hand():
    # Five positive differences of distinct sizes: W+ = 1+2+3+4+5 = 15, the largest of 2^5 equally likely sign
    # patterns, so p = 1/32.
    statistic, p = one_sided_p("wilcoxon", [11, 12, 13, 14, 15], [10, 10, 10, 10, 10])
    assert statistic == 15 and p == pytest.approx(1 / 32)


def test_wilcoxon_with_ties_as_scipy_approximates_it():
    good = [80, 70, 60, 90, 50, 85, 75, 65, 95, 55]
    bad = [40, 72, 30, 50, 20, 45, 70, 66, 60, 10]
    expected = stats.wilcoxon(good, bad, alternative="greater", method="approx")
    assert one_sided_p("wilcoxon", good, bad) == (pytest.approx(expected.statistic), pytest.approx(expected.pvalue))
    assert one_sided_p("wilcoxon", good, bad)[1] < 0.01


def test_paired_t_by_hand():
    # Differences 2, 4, 6: mean 4, sd 2, t = 4 / (2 / sqrt 3) = 3.4641 on 2 degrees of freedom, whose upper tail
    # is 1/2 - t / (2 sqrt(t^2 + 2)) = 0.03709.
    statistic, p = one_sided_p("t-test", [12, 14, 16], [10, 10, 10])
    assert statistic == pytest.approx(3.4641, abs=1e-4) and p == pytest.approx(0.03709, abs=1e-5)


def test_mann_whitney_by_hand():
    # Every one of 3 originals above both copies: U = 6, the largest of C(5, 2) = 10 equally likely orders.
    statistic, p = one_sided_p("mann-whitney", [3, 4, 5], [1, 2])
    assert statistic == 6 and p == pytest.approx(0.1)


def test_nothing_to_test_is_p_one_and_a_constant_gap_is_p_zero():
    assert one_sided_p("wilcoxon", [50, 50, 50], [50, 50, 50]) == (None, 1.0)
    assert one_sided_p("t-test", [60, 60, 60], [55, 55, 55]) == (None, 0.0)  # no variance, all one way
    assert one_sided_p("t-test", [50, 50, 50], [55, 55, 55]) == (None, 1.0)


def test_the_repeat_check_is_two_sided():
    first, again = [80, 60, 70, 90, 50, 40, 30, 20, 10, 66], [30, 10, 20, 40, 5, 0, 1, 2, 3, 16]
    assert two_sided_p("wilcoxon", first, again)[1] == pytest.approx(
        stats.wilcoxon(first, again, alternative="two-sided", method="approx").pvalue)
    assert two_sided_p("wilcoxon", again, first)[1] == pytest.approx(two_sided_p("wilcoxon", first, again)[1])


# ---------------------------------------------------------------- quality control and z

def test_check_pairs_pair_each_copy_with_its_original(tiny_hits):
    # Worker w1 rates every slot; w2 rates the degraded copy but not its original: no pair.
    judged = judgments([("w1", 0, 90), ("w1", 1, 70), ("w1", 2, 95), ("w1", 3, 20), ("w1", 4, 75), ("w1", 5, 60),
                        ("w2", 3, 10)])
    pairs = check_pairs(judged, tiny_hits)
    assert list(zip(pairs.worker, pairs.kind, pairs.original_score, pairs.copy_score)) == [
        ("w1", "degraded", 90.0, 20.0), ("w1", "repeat", 70.0, 75.0)]


def test_worker_mean_and_sd_are_over_real_captions_and_z_by_hand(tiny_hits):
    # System 50 and 90, reference 70, repeat 70: mean 70, sd (n-1) sqrt((400+400+0+0)/3) = 16.33; the degraded
    # copy's 10 is left out of both.
    judged = judgments([("w1", 0, 50), ("w1", 1, 90), ("w1", 2, 70), ("w1", 3, 10), ("w1", 4, 70)])
    settings = ScoringSettings(min_pairs=1, worker_alpha=1.0)
    [quality] = worker_quality(judged, tiny_hits, check_pairs(judged, tiny_hits), settings)
    assert quality.mean == 70 and quality.sd == pytest.approx(np.sqrt(800 / 3))
    assert (quality.judgments, quality.hits, quality.pairs, quality.repeat_pairs) == (5, 1, 1, 1)
    assert quality.original_mean == 50 and quality.degraded_mean == 10
    z = z_scores(judged, [replace(quality, status=KEPT)])
    assert z == pytest.approx(np.array([-20, 20, 0, -60, 0]) / np.sqrt(800 / 3))


def test_a_worker_is_kept_for_the_first_reason_that_applies():
    settings = ScoringSettings(min_pairs=10, worker_alpha=0.05)
    assert worker_status(9, None, 10.0, True, settings) == TOO_FEW_PAIRS
    assert worker_status(10, 0.01, 0.0, True, settings) == CONSTANT
    assert worker_status(10, 0.05, 10.0, True, settings) == NOT_SIGNIFICANT  # p must be below alpha
    assert worker_status(10, 0.01, 10.0, False, settings) == KEPT  # repeats are reported only, by default
    assert worker_status(10, 0.01, 10.0, False, ScoringSettings(drop_inconsistent_repeats=True)) == INCONSISTENT


def test_a_worker_not_kept_has_no_z(tiny_hits):
    judged = judgments([("w1", 0, 50), ("w1", 1, 90), ("w1", 3, 10)])
    qualities = worker_quality(judged, tiny_hits, check_pairs(judged, tiny_hits), ScoringSettings())
    assert qualities[0].status == TOO_FEW_PAIRS and np.isnan(z_scores(judged, qualities)).all()


# ---------------------------------------------------------------- captions, systems, wins

def test_caption_scores_leave_checks_out(tiny_hits):
    # z given by hand: slot 1 (A/v1) 1.0, slot 2 (B/v2) 0.5, its repeat (slot 5) -1.0, the degraded copy -2.0.
    judged = judgments([("w1", 0, 80), ("w1", 1, 60), ("w1", 3, 10), ("w1", 4, 40), ("w2", 0, 60)])
    z = np.array([1.0, 0.5, -2.0, -1.0, 0.0])
    captions = caption_scores(judged, tiny_hits, z)
    assert [(c.item_id, c.kind, c.n, c.raw_mean, c.z_mean) for c in captions] == [
        ("A/v1", "system", 2, 70.0, 0.5), ("B/v2", "system", 1, 60.0, 0.5)]


def caption(system, z, raw=50.0, n=1):
    return CaptionScore(f"{system}/{z}", "system", system, "v", None, "c", n, raw, z)


def test_system_scores_are_the_mean_of_their_captions_with_a_seeded_interval():
    captions = [caption("A", 1.0, 80), caption("A", 0.0, 60), caption("B", -1.0, 40, n=3)]
    settings = ScoringSettings(bootstrap=500, seed=3)
    first, second = system_scores(captions, settings), system_scores(captions, settings)
    assert first == second
    assert [(s.system, s.captions, s.n, s.raw_mean, s.z_mean) for s in first] == [("A", 2, 2, 70.0, 0.5),
                                                                                   ("B", 1, 3, 40.0, -1.0)]
    assert 0.0 <= first[0].z_low <= 0.5 <= first[0].z_high <= 1.0
    assert (first[1].z_low, first[1].z_high) == (-1.0, -1.0)  # one caption: every resample is the same


def test_the_bootstrap_interval_by_the_percentiles():
    rng = np.random.default_rng(0)
    values = np.arange(10.0)
    low, high = bootstrap_interval(values, 2000, rng)
    assert low < 4.5 < high and high - low == pytest.approx(2 * 1.96 * values.std() / np.sqrt(10), rel=0.15)


def test_pairwise_wins_are_one_sided_rank_sum_tests():
    captions = [caption("A", z) for z in (3, 4, 5)] + [caption("B", z) for z in (1, 2)]
    pairs = pairwise_wins(captions, ["A", "B"], win_alpha=0.15)
    assert [(p.system, p.other, p.statistic, p.p_value, p.wins) for p in pairs] == [
        ("A", "B", 6.0, pytest.approx(0.1), True), ("B", "A", 0.0, pytest.approx(1.0), False)]


def test_clusters_and_rank_ranges_by_hand():
    # A beats B, C, D; B beats C and D; C and D tie.
    ranked = ["A", "B", "C", "D"]
    wins = {("A", "B"), ("A", "C"), ("A", "D"), ("B", "C"), ("B", "D")}
    assert clusters(ranked, wins) == {"A": 1, "B": 2, "C": 3, "D": 3}
    assert rank_ranges(ranked, wins) == {"A": (1, 1), "B": (2, 2), "C": (3, 4), "D": (3, 4)}
    # B not beaten by A: one cluster; C beaten by both: a new one.
    assert clusters(["A", "B", "C"], {("A", "C"), ("B", "C")}) == {"A": 1, "B": 1, "C": 2}
    assert rank_ranges(["A", "B", "C"], {("A", "C"), ("B", "C")}) == {"A": (1, 2), "B": (1, 2), "C": (3, 3)}


def test_replication_is_pearson_of_the_system_means():
    from transforms.da.scoring import SystemScore

    def run(values):
        return [SystemScore(name, "system", 1, 1, raw, z, z, z) for name, raw, z in values]

    first = run([("A", 70, 1.0), ("B", 50, 0.0), ("C", 30, -1.0)])
    second = run([("C", 35, -0.5), ("A", 72, 0.5), ("B", 50, 0.25)])
    figures = replication(first, second)
    assert figures["systems"] == 3
    assert figures["pearson_raw"] == pytest.approx(stats.pearsonr([70, 50, 30], [72, 50, 35]).statistic)
    assert figures["pearson_z"] == pytest.approx(stats.pearsonr([1, 0, -1], [0.5, 0.25, -0.5]).statistic)
    assert replication(first[:2], second)["pearson_raw"] is None
