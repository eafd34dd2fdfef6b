"""nDCG and mAP over a sparse relevance matrix, against hand arithmetic, brute force over every
permutation, and the dense one-query functions of metrics.py."""
from itertools import permutations

import numpy as np
import pytest
import scipy.sparse as sp

from transforms.evaluation.metrics import dcg, mean_average_precision, mean_ndcg, relevant_counts
from transforms.evaluation.ndcg import (
    NdcgOptions,
    average_precisions,
    cumulative_discounts,
    cutoffs,
    dense_score_blocks,
    expected_random_average_precision,
    expected_random_dcg,
    map_table,
    model_ndcgs,
    ndcg_table,
    oracle_score_blocks,
    queries,
    random_ndcgs,
)

HAND = 1e-4
LOG2_3 = np.log2(3)  # 1.58496: the discount of rank 2 is 1 / log2(3) = 0.63093

# Two videos x three captions: caption 0 is video 0's (1.0) and shares words with nothing else;
# caption 1 is half-relevant to video 0; caption 2 is video 1's.
RELEVANCE = sp.csr_matrix(np.array([[1.0, 0.5, 0.0],
                                    [0.0, 0.0, 1.0]]))


# --- Directions and cut-offs ---------------------------------------------------------------------

def test_v2t_queries_are_the_rows_and_t2v_queries_the_columns():
    assert queries(RELEVANCE, "v2t").toarray().tolist() == [[1.0, 0.5, 0.0], [0.0, 0.0, 1.0]]
    assert queries(RELEVANCE, "t2v").toarray().tolist() == [[1.0, 0.0], [0.5, 0.0], [0.0, 1.0]]


def test_the_relevant_cutoff_is_the_number_of_items_above_zero_and_all_is_the_gallery():
    assert cutoffs(queries(RELEVANCE, "v2t"), "relevant").tolist() == [2, 1]
    assert cutoffs(queries(RELEVANCE, "v2t"), "all").tolist() == [3, 3]


def test_cumulative_discounts_sum_one_over_log2_of_rank_plus_one():
    # 0; 1/log2(2) = 1; + 1/log2(3) = 1.63093; + 1/log2(4) = 0.5 -> 2.13093.
    assert cumulative_discounts(3) == pytest.approx([0.0, 1.0, 1.63093, 2.13093], abs=HAND)


# --- The random ranking's expectation ------------------------------------------------------------

def test_expected_random_dcg_is_the_sum_of_gains_times_the_mean_discount():
    # Gains 1 + 0.5 = 1.5; mean discount over 3 ranks = 2.13093 / 3 = 0.71031 -> 1.06546.
    assert expected_random_dcg(np.array([1.0, 0.5]), 3, 3) == pytest.approx(1.06546, abs=HAND)
    # Cut off at 1: only rank 1 counts, mean discount 1/3 -> 0.5.
    assert expected_random_dcg(np.array([1.0, 0.5]), 3, 1) == pytest.approx(0.5, abs=HAND)


def test_random_ndcg_by_hand_without_a_cutoff():
    # Video 0: E[DCG] = 1.06546 (above), IDCG = 1 + 0.5 x 0.63093 = 1.31546 -> 0.80996.
    # Video 1: gain 1 alone: E[DCG] = 0.71031, IDCG = 1 -> 0.71031.
    values = random_ndcgs(queries(RELEVANCE, "v2t"), "linear", "all")
    assert values == pytest.approx([0.80996, 0.71031], abs=HAND)


def test_random_ndcg_by_hand_with_the_relevant_cutoff():
    # Video 0, k = 2: E[DCG] = 1.5 x 1.63093 / 3 = 0.81546; IDCG@2 = 1.31546 -> 0.61990.
    # Video 1, k = 1: E[DCG] = 1 x 1 / 3; IDCG = 1 -> 0.33333.
    values = random_ndcgs(queries(RELEVANCE, "v2t"), "linear", "relevant")
    assert values == pytest.approx([0.61990, 0.33333], abs=HAND)


@pytest.mark.parametrize("gain", ["linear", "exponential"])
@pytest.mark.parametrize("cutoff", ["relevant", "all"])
def test_random_ndcg_is_the_average_over_every_permutation(gain, cutoff):
    # Brute force: every order of each query's four items is equally likely.
    relevance = sp.csr_matrix(np.array([[0.9, 0.0, 0.3, 0.3],
                                        [0.0, 0.0, 0.0, 0.7],
                                        [0.2, 0.4, 0.6, 0.8]]))
    by_query = queries(relevance, "v2t")
    ks = cutoffs(by_query, cutoff)
    for query, row in enumerate(relevance.toarray()):
        best = dcg(np.sort(row)[::-1], int(ks[query]), gain)
        average = np.mean([dcg(row[list(order)], int(ks[query]), gain) for order in permutations(range(4))]) / best
        assert random_ndcgs(by_query, gain, cutoff)[query] == pytest.approx(average, abs=1e-12)


@pytest.mark.parametrize("gain", ["linear", "exponential"])
def test_random_ndcg_within_the_relevant_items_is_the_average_over_their_permutations(gain):
    # Only the items with relevance > 0 are ranked: every order of them is equally likely.
    relevance = sp.csr_matrix(np.array([[0.9, 0.0, 0.3, 0.3, 0.0],
                                        [0.2, 0.4, 0.6, 0.8, 1.0]]))
    values = random_ndcgs(queries(relevance, "v2t"), gain, "within-relevant")
    for query, row in enumerate(relevance.toarray()):
        grades = row[row > 0]
        best = dcg(np.sort(grades)[::-1], None, gain)
        average = np.mean([dcg(grades[list(order)], None, gain) for order in permutations(range(grades.size))])
        assert values[query] == pytest.approx(average / best, abs=1e-12)


def test_random_ndcg_within_the_relevant_items_by_hand():
    # Video 0's relevant captions: 1 and 0.5, ranked in either order: E[DCG] = 1.5 x 1.63093 / 2 = 1.22320;
    # IDCG = 1.31546 -> 0.92987. Video 1 has one relevant caption: always first, 1.
    values = random_ndcgs(queries(RELEVANCE, "v2t"), "linear", "within-relevant")
    assert values == pytest.approx([0.92987, 1.0], abs=HAND)


def test_model_ndcg_within_the_relevant_items_ranks_them_among_themselves():
    # Relevant captions 1 (1.0, score 0.1) and 2 (0.5, score 0.5); caption 0 (score 0.9) is not ranked.
    # Order: 2 then 1: DCG = 0.5 + 1 x 0.63093 = 1.13093; IDCG = 1.31546 -> 0.85972.
    relevance = sp.csr_matrix(np.array([[0.0, 1.0, 0.5]]))
    blocks = dense_score_blocks(np.array([[0.9, 0.1, 0.5]]))
    values = model_ndcgs(blocks, queries(relevance, "v2t"), "v2t", "linear", "within-relevant")
    assert values[0] == pytest.approx(0.85972, abs=HAND)


def test_a_query_with_nothing_relevant_scores_zero():
    relevance = sp.csr_matrix(np.array([[0.0, 0.0], [1.0, 0.0]]))
    assert random_ndcgs(queries(relevance, "v2t"), "linear", "all").tolist() == [0.0, pytest.approx(0.81546, abs=HAND)]


def test_expected_random_average_precision_by_hand_and_by_brute_force():
    # n = 3, R = 2: H_3 = 1.83333; (1.83333 + (1/2)(3 - 1.83333)) / 3 = 0.80556. By hand over the
    # three placements of the two relevant items: {1,2}: 1; {1,3}: (1 + 2/3)/2; {2,3}: (1/2 + 2/3)/2.
    assert expected_random_average_precision(2, 3) == pytest.approx(0.80556, abs=HAND)
    labels = np.array([1, 1, 0, 0, 1])
    brute = np.mean([mean_average_precision([[5, 4, 3, 2, 1]], [labels[list(order)]])
                     for order in permutations(range(5))])
    assert expected_random_average_precision(3, 5) == pytest.approx(brute, abs=1e-12)
    # One relevant item: the expected reciprocal rank H_n / n; all relevant: 1.
    assert expected_random_average_precision(1, 4) == pytest.approx((1 + 1 / 2 + 1 / 3 + 1 / 4) / 4)
    assert expected_random_average_precision(4, 4) == pytest.approx(1.0)


# --- A model's scores ----------------------------------------------------------------------------

def test_model_ndcg_by_hand_linear_and_exponential():
    # One video over three captions, scores 0.9, 0.5, 0.1 and relevances 0, 1, 0.5; k = 2 items
    # relevant. Linear: DCG@2 = 0 + 1/log2(3) = 0.63093; IDCG@2 = 1 + 0.5 x 0.63093 = 1.31546 -> 0.47963.
    # Exponential: gains 1 and 2^0.5 - 1 = 0.41421; IDCG@2 = 1 + 0.41421 x 0.63093 = 1.26134 -> 0.50021.
    relevance = sp.csr_matrix(np.array([[0.0, 1.0, 0.5]]))
    blocks = dense_score_blocks(np.array([[0.9, 0.5, 0.1]]))
    by_query = queries(relevance, "v2t")
    assert model_ndcgs(blocks, by_query, "v2t", "linear", "relevant")[0] == pytest.approx(0.47963, abs=HAND)
    assert model_ndcgs(blocks, by_query, "v2t", "exponential", "relevant")[0] == pytest.approx(0.50021, abs=HAND)


def test_model_ndcg_averages_a_tie_over_its_ranks():
    # Captions 0 and 1 tie for ranks 1-2; the relevant one (k = 1) is at rank 1 half the time: 0.5.
    relevance = sp.csr_matrix(np.array([[0.0, 1.0, 0.0]]))
    blocks = dense_score_blocks(np.array([[0.5, 0.5, 0.1]]))
    assert model_ndcgs(blocks, queries(relevance, "v2t"), "v2t", "linear", "relevant")[0] == pytest.approx(0.5)


@pytest.mark.parametrize("gain", ["linear", "exponential"])
def test_model_ndcg_agrees_with_the_dense_functions_in_both_directions_and_blocks(gain):
    generator = np.random.default_rng(7)
    dense = np.where(generator.random((5, 9)) < 0.4, generator.random((5, 9)), 0.0)
    dense[np.arange(5), np.arange(5)] = 1.0  # every video and caption has something relevant
    scores = np.round(generator.random((5, 9)), 1)  # one decimal: many ties
    relevance = sp.csr_matrix(dense)
    for direction, (similarity, grades) in {"v2t": (scores, dense), "t2v": (scores.T, dense.T)}.items():
        by_query = queries(relevance, direction)
        for chunk_cells in (1, 10, 1000):  # a query a block, a few, all at once
            values = model_ndcgs(dense_score_blocks(scores), by_query, direction, gain, "relevant", chunk_cells)
            assert np.mean(values) == pytest.approx(mean_ndcg(similarity, grades, relevant_counts(grades), gain))
        values = model_ndcgs(dense_score_blocks(scores), by_query, direction, gain, "all")
        assert np.mean(values) == pytest.approx(mean_ndcg(similarity, grades, None, gain))


def test_the_oracle_ranks_every_query_ideally():
    table = ndcg_table(RELEVANCE, "oracle", NdcgOptions(cutoff="relevant"))
    assert table == {key: {"linear": 1.0, "exponential": 1.0} for key in ("t2v", "v2t", "mean")}


def test_the_table_of_the_random_ranking_by_hand():
    # v2t without a cut-off: (0.80996 + 0.71031) / 2 = 0.76014. t2v: each caption has one video of
    # two relevant: mean discount (1 + 0.63093) / 2 = 0.81546 for all three. Mean = 0.78780.
    table = ndcg_table(RELEVANCE, "random", NdcgOptions(cutoff="all", gains=("linear",)))
    assert table["v2t"]["linear"] == pytest.approx(0.76014, abs=HAND)
    assert table["t2v"]["linear"] == pytest.approx(0.81546, abs=HAND)
    assert table["mean"]["linear"] == pytest.approx(0.78780, abs=HAND)


def test_options_refuse_an_unknown_cutoff_or_gain():
    with pytest.raises(ValueError, match="cut-off"):
        NdcgOptions(cutoff="top10")
    with pytest.raises(ValueError, match="gains"):
        NdcgOptions(gains=("cubic",))


# --- mAP ----------------------------------------------------------------------------------------

def test_average_precision_counts_a_tie_against_the_model():
    # Caption 2 scores 0.9 (irrelevant), the relevant caption 0 ties with irrelevant caption 1 at
    # 0.5, so it ranks third: AP = 1/3 (metrics' rule gives the same).
    labels = sp.csr_matrix(np.array([[1.0, 0.0, 0.0]]))
    scores = np.array([[0.5, 0.5, 0.9]])
    assert average_precisions(dense_score_blocks(scores), labels, "v2t")[0] == pytest.approx(1 / 3)
    assert mean_average_precision(scores, labels.toarray()) == pytest.approx(1 / 3)


def test_average_precision_agrees_with_metrics_on_random_ties():
    generator = np.random.default_rng(3)
    labels = (generator.random((6, 12)) < 0.3).astype(float)
    labels[:, 0] = 1.0
    scores = np.round(generator.random((6, 12)), 1)
    values = average_precisions(dense_score_blocks(scores), sp.csr_matrix(labels), "v2t", chunk_cells=25)
    assert np.mean(values) == pytest.approx(mean_average_precision(scores, labels))


def test_map_of_own_captions_by_hand():
    # Captions 0, 1 are video 0's, caption 2 video 1's. Scores (videos x captions):
    # t2v: caption 0 ranks video 0 first (AP 1), caption 1 ranks video 1 first (AP 1/2), caption 2
    # ranks video 1 first (AP 1): 0.83333. v2t: video 0 ranks captions 0 (0.9), 2 (0.5), 1 (0.2):
    # (1/1 + 2/3)/2 = 0.83333; video 1 ranks caption 2 first: 1. v2t = 0.91667; mean 0.875.
    scores = np.array([[0.9, 0.2, 0.5], [0.1, 0.6, 0.8]])
    table = map_table(np.array([0, 0, 1]), 2, dense_score_blocks(scores))
    assert table["t2v"] == pytest.approx(0.83333, abs=HAND)
    assert table["v2t"] == pytest.approx(0.91667, abs=HAND)
    assert table["mean"] == pytest.approx(0.875, abs=HAND)


def test_map_of_the_random_ranking_is_the_exact_expectation():
    # t2v: each caption, 1 relevant of 2 videos: H_2 / 2 = 0.75. v2t: video 0, 2 of 3 captions:
    # 0.80556; video 1, 1 of 3: H_3 / 3 = 0.61111; mean 0.70833.
    table = map_table(np.array([0, 0, 1]), 2, "random")
    assert table["t2v"] == pytest.approx(0.75, abs=HAND)
    assert table["v2t"] == pytest.approx(0.70833, abs=HAND)


def test_ndcg_table_tells_its_progress_with_the_total():
    from transforms.evaluation.ndcg import dense_score_blocks, ndcg_table

    relevance = sp.csr_matrix(np.array([[1.0, 0.5], [0.0, 1.0]], dtype=np.float32))
    told = []
    ndcg_table(relevance, dense_score_blocks(np.array([[0.9, 0.1], [0.2, 0.8]])),
               progress=lambda done, total: told.append((done, total)))
    assert told == [(1, 4), (2, 4), (3, 4), (4, 4)]
