"""How much two relevance proxies agree: Spearman's rank correlation per query (issue 29, item 5).

Wray, Doughty and Damen (CVPR 2021, Fig. 8) compare their proxies by the rank correlation of the
relevances they give, per video; they find every pair at 0.5 or above on MSR-VTT. Here a
query's two relevance vectors cover the whole gallery (items of relevance 0 included: ranking
them last is part of what a proxy says), ties get the mean of their ranks, and the
correlation is Pearson's of those ranks, which is Spearman's rho with ties.
"""
from itertools import combinations

import numpy as np
import scipy.sparse as sp
from scipy.stats import rankdata


def ranks_with_zeros(row: sp.csr_matrix) -> np.ndarray:
    """The tie-averaged ranks (1 = lowest) of one sparse row of relevances >= 0, zeros included.

    The z zeros are the lowest z values, so they share rank (z + 1) / 2; the stored values are
    ranked among themselves and moved up by z.
    """
    n_items = row.shape[1]
    zeros = n_items - row.nnz
    ranks = np.full(n_items, (zeros + 1) / 2.0)
    if row.nnz:
        ranks[row.indices] = rankdata(row.data) + zeros
    return ranks


def spearman(first: sp.csr_matrix, second: sp.csr_matrix) -> float:
    """Spearman's rho of two sparse rows (1 x items); NaN when either is constant (no ranking to compare)."""
    a, b = ranks_with_zeros(first), ranks_with_zeros(second)
    a, b = a - a.mean(), b - b.mean()
    spread = np.sqrt(np.sum(a * a) * np.sum(b * b))
    return float(np.sum(a * b) / spread) if spread > 0 else float("nan")


def spearman_per_query(first: sp.csr_matrix, second: sp.csr_matrix) -> np.ndarray:
    """rho of each row (query) of two relevance matrices of one shape (queries x items)."""
    if first.shape != second.shape:
        raise ValueError(f"relevance matrices {first.shape} and {second.shape} must have one shape")
    first, second = sp.csr_matrix(first), sp.csr_matrix(second)
    return np.array([spearman(first[query], second[query]) for query in range(first.shape[0])])


def agreement_summary(values: np.ndarray, at_least: float = 0.5) -> dict:
    """Mean, median and minimum of the per-query rho, and the share of queries at `at_least` or above
    (queries whose rho is undefined are left out and counted)."""
    defined = values[~np.isnan(values)]
    if defined.size == 0:
        raise ValueError("no query has a defined rank correlation")
    return {"queries": int(defined.size), "undefined": int(values.size - defined.size),
            "mean": float(defined.mean()), "median": float(np.median(defined)), "min": float(defined.min()),
            f"share_at_least_{at_least}": float(np.mean(defined >= at_least))}


def proxy_agreement(matrices: dict, at_least: float = 0.5) -> dict:
    """{"first-second": summary} for each pair of proxies, in the order of `matrices` ({proxy: queries x
    items}). A pair whose rho is undefined for every query (a proxy that finds nothing relevant) is
    {"queries": 0, "undefined": n} rather than an error, so one empty proxy does not hide the others."""
    pairs = {}
    for first, second in combinations(matrices, 2):
        values = spearman_per_query(matrices[first], matrices[second])
        try:
            pairs[f"{first}-{second}"] = agreement_summary(values, at_least)
        except ValueError:
            pairs[f"{first}-{second}"] = {"queries": 0, "undefined": int(values.size)}
    return pairs
