"""Spearman's rank correlation of two proxies per query, by hand and against SciPy's spearmanr."""
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.stats import spearmanr

from transforms.evaluation.agreement import (agreement_summary, proxy_agreement, ranks_with_zeros, spearman,
                                             spearman_per_query)


def test_zeros_share_the_lowest_ranks_and_values_rank_above_them():
    # Values 0, 0.5, 0, 0.2, 0.5: the two zeros share ranks 1-2 (1.5), 0.2 is rank 3, the two 0.5s share 4-5 (4.5).
    row = sp.csr_matrix(np.array([[0.0, 0.5, 0.0, 0.2, 0.5]]))
    assert ranks_with_zeros(row).tolist() == [1.5, 4.5, 1.5, 3.0, 4.5]


def test_spearman_by_hand():
    # Ranks a = 1.5, 4.5, 1.5, 3, 4.5 and b = 1, 2, 3, 4, 5 (b strictly increasing). Centred on 3:
    # a: -1.5, 1.5, -1.5, 0, 1.5; b: -2, -1, 0, 1, 2. Sum of products = 3 - 1.5 + 0 + 0 + 3 = 4.5;
    # sums of squares 9 and 10: rho = 4.5 / sqrt(90) = 0.47434.
    a = sp.csr_matrix(np.array([[0.0, 0.5, 0.0, 0.2, 0.5]]))
    b = sp.csr_matrix(np.array([[0.1, 0.2, 0.3, 0.4, 0.5]]))
    assert spearman(a, b) == pytest.approx(0.47434, abs=1e-4)


def test_spearman_per_query_agrees_with_scipy_and_flags_a_constant_row():
    generator = np.random.default_rng(5)
    first = np.where(generator.random((4, 30)) < 0.4, np.round(generator.random((4, 30)), 1), 0.0)
    second = np.where(generator.random((4, 30)) < 0.4, np.round(generator.random((4, 30)), 1), 0.0)
    second[3] = 0.0  # a query the second proxy finds nothing relevant for: rho undefined
    values = spearman_per_query(sp.csr_matrix(first), sp.csr_matrix(second))
    for query in range(3):
        assert values[query] == pytest.approx(spearmanr(first[query], second[query]).statistic)
    assert np.isnan(values[3])


def test_summary_leaves_out_undefined_queries():
    summary = agreement_summary(np.array([0.9, 0.4, np.nan, 0.6]))
    assert summary["queries"] == 3 and summary["undefined"] == 1
    assert summary["mean"] == pytest.approx(0.63333, abs=1e-4)
    assert summary["min"] == pytest.approx(0.4)
    assert summary["share_at_least_0.5"] == pytest.approx(2 / 3)


def test_proxy_agreement_takes_every_pair_in_order_and_keeps_an_undefined_pair():
    # The per-video rows of test_ndcg_report.py: bow-pos rho 1 and 0.866 (worked out there); "none" finds
    # nothing relevant, so its pairs have no defined rho.
    bow = sp.csr_matrix(np.array([[1.0, 1.0, 0.5], [0.25, 0.0, 1.0]]))
    pos = sp.csr_matrix(np.array([[1.0, 1.0, 0.0], [0.0, 0.0, 1.0]]))
    none = sp.csr_matrix((2, 3))
    pairs = proxy_agreement({"bow": bow, "pos": pos, "none": none})
    assert list(pairs) == ["bow-pos", "bow-none", "pos-none"]
    assert pairs["bow-pos"]["min"] == pytest.approx(0.86603, abs=1e-5)
    assert pairs["bow-pos"]["mean"] == pytest.approx(0.93301, abs=1e-5)
    assert pairs["bow-pos"]["share_at_least_0.5"] == 1.0
    assert pairs["bow-none"] == {"queries": 0, "undefined": 2}
