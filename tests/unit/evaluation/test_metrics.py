"""Each metric against small cases worked out by hand; the arithmetic is in the comments."""
from itertools import permutations

import numpy as np
import pytest

from transforms.evaluation.metrics import (
    average_precision,
    correct_at_k,
    dcg,
    expected_random_reciprocal_rank,
    first_relevant_ranks,
    ideal_dcg,
    mean_average_precision,
    mean_correct_at_k,
    mean_ndcg,
    mean_rank,
    mean_reciprocal_rank,
    median_rank,
    precision_at_k,
    ndcg,
    ranked_relevance,
    recall_at_k,
    reciprocal_rank,
    relevance_from_items,
    relevant_counts,
    retrieval_summary,
    tie_averaged_dcg,
)

HAND = 1e-4  # hand arithmetic is carried to four decimals or more


# --- PoSRank ---------------------------------------------------------------------------------

def test_reciprocal_rank_of_a_true_item_above_every_other_is_one():
    assert reciprocal_rank(0.9, [0.1, 0.5, 0.3]) == 1.0


def test_reciprocal_rank_counts_a_tie_against_the_true_item():
    # Others >= 0.5: 0.9 and the tied 0.5, so rank = 1 + 2 = 3 (not 2).
    assert reciprocal_rank(0.5, [0.9, 0.5, 0.1]) == pytest.approx(1 / 3)


def test_a_constant_scorer_gets_the_worst_reciprocal_rank():
    # All 20 hard negatives tie with the true caption: rank 21.
    assert reciprocal_rank(0.2, [0.2] * 20) == pytest.approx(1 / 21)


def test_reciprocal_rank_of_a_true_item_below_every_other():
    # Four others all above: rank 5.
    assert reciprocal_rank(0.0, [0.4, 0.3, 0.2, 0.1]) == pytest.approx(1 / 5)


def test_mean_reciprocal_rank_over_captions_with_different_numbers_of_negatives():
    # Ranks: 0.9 above [0.1, 0.2] -> 1; 0.5 below [0.9] -> 2; 0.1 below [0.5, 0.3, 0.2] -> 4.
    # Mean = (1 + 1/2 + 1/4) / 3 = 1.75 / 3 = 0.5833.
    value = mean_reciprocal_rank([0.9, 0.5, 0.1], [[0.1, 0.2], [0.9], [0.5, 0.3, 0.2]])
    assert value == pytest.approx(0.5833, abs=HAND)


def test_expected_random_reciprocal_rank_by_hand():
    assert expected_random_reciprocal_rank(1) == 1.0
    # (1 + 1/2) / 2 = 0.75
    assert expected_random_reciprocal_rank(2) == pytest.approx(0.75)
    # H_21 = 1 + 1/2 + ... + 1/21 = 3.6454; / 21 = 0.1736 (K = 20 hard negatives).
    assert expected_random_reciprocal_rank(21) == pytest.approx(0.1736, abs=HAND)


def test_expected_random_reciprocal_rank_is_the_mean_over_every_order():
    # All 4! orders of four distinct scores, the true item being the first score.
    orders = list(permutations([0.0, 1.0, 2.0, 3.0]))
    exhaustive = np.mean([reciprocal_rank(order[0], order[1:]) for order in orders])
    assert expected_random_reciprocal_rank(4) == pytest.approx(exhaustive)


def test_random_scores_give_the_chance_posrank_and_true_first_gives_one():
    scores = np.random.default_rng(20240).random((20_000, 21))
    true_scores, hard_negative_scores = scores[:, 0], scores[:, 1:]
    # A statistical check, fixed by the seed: the standard error is about 0.25 / sqrt(20000) = 0.0018.
    assert mean_reciprocal_rank(true_scores, hard_negative_scores) == pytest.approx(0.174, abs=0.005)
    # Scores lie in [0, 1), so adding 1 puts every true caption first.
    assert mean_reciprocal_rank(true_scores + 1.0, hard_negative_scores) == 1.0


def test_a_nan_score_is_refused_rather_than_ranked_first():
    with pytest.raises(ValueError, match="NaN"):
        reciprocal_rank(float("nan"), [0.1, 0.2])
    with pytest.raises(ValueError):
        mean_reciprocal_rank([0.5, 0.4], [[0.1]])


# --- Retrieval: R@K, MdR, MnR ------------------------------------------------------------------

SIMILARITY = np.array([
    [0.9, 0.1, 0.3, 0.2],  # relevant {0}: nothing above it -> rank 1
    [0.8, 0.4, 0.6, 0.4],  # relevant {1}: 0.8, 0.6 and the tied 0.4 of item 3 -> rank 4
    [0.5, 0.7, 0.2, 0.9],  # relevant {0, 2}: best relevant 0.5; 0.7 and 0.9 above -> rank 3
])
RELEVANT_ITEMS = [{0}, {1}, {0, 2}]


def test_relevance_from_items():
    expected = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [1, 0, 1, 0]], dtype=bool)
    assert (relevance_from_items(RELEVANT_ITEMS, 4) == expected).all()
    with pytest.raises(ValueError):
        relevance_from_items([{-1}], 4)


def test_first_relevant_ranks_with_ties_and_several_relevant_items():
    ranks = first_relevant_ranks(SIMILARITY, relevance_from_items(RELEVANT_ITEMS, 4))
    assert ranks.tolist() == [1, 4, 3]


def test_recall_median_and_mean_rank_by_hand():
    ranks = [1, 4, 3]
    assert recall_at_k(ranks, 1) == pytest.approx(1 / 3)
    assert recall_at_k(ranks, 3) == pytest.approx(2 / 3)
    assert recall_at_k(ranks, 10) == 1.0  # K larger than the 4-item gallery: every query is a hit
    assert median_rank(ranks) == 3.0
    assert mean_rank(ranks) == pytest.approx(8 / 3)  # (1 + 4 + 3) / 3 = 2.6667


def test_retrieval_summary():
    summary = retrieval_summary(SIMILARITY, relevance_from_items(RELEVANT_ITEMS, 4), ks=(1, 5))
    assert summary == pytest.approx({"R@1": 1 / 3, "R@5": 1.0, "MdR": 3.0, "MnR": 8 / 3})


def test_two_relevant_items_tied_at_the_top_rank_first():
    # The other relevant item does not push the first one down: no irrelevant item is >= 0.5.
    assert first_relevant_ranks([[0.5, 0.5, 0.1]], [[True, True, False]]).tolist() == [1]


def test_a_constant_scorer_gets_the_last_rank():
    ranks = first_relevant_ranks([[0.3, 0.3, 0.3, 0.3]], [[False, False, True, False]])
    assert ranks.tolist() == [4]
    assert recall_at_k(ranks, 1) == 0.0


def test_a_query_with_nothing_to_find_has_no_rank():
    with pytest.raises(ValueError, match="query 1"):
        first_relevant_ranks([[0.2, 0.1], [0.2, 0.1]], [[True, False], [False, False]])


# --- Correct@K and average precision ---------------------------------------------------------

def test_ranked_relevance_puts_the_irrelevant_item_first_in_a_tie():
    # Scores 0.9 (irrelevant), then 0.5 and 0.5 (relevant, irrelevant: the irrelevant first), then 0.2 (relevant).
    assert ranked_relevance([0.2, 0.9, 0.5, 0.5], [1, 0, 1, 0]).tolist() == [0, 0, 1, 1]


def test_correct_at_k_by_hand():
    # FIRE's Correct@K: is there a relevant item in the top K (not how many).
    ranked = [False, True, True, False, False]
    assert correct_at_k(ranked, 1) == 0.0
    assert correct_at_k(ranked, 2) == 1.0  # precision at 2 would be 1/2
    assert correct_at_k(ranked, 10) == 1.0  # K beyond the 5 items
    assert correct_at_k([False, False, False], 2) == 0.0  # nothing relevant


def test_precision_at_k_by_hand():
    ranked = [True, False, True, False, False]
    assert precision_at_k(ranked, 2) == pytest.approx(1 / 2)
    assert precision_at_k(ranked, 3) == pytest.approx(2 / 3)
    assert precision_at_k(ranked, 10) == pytest.approx(0.2)  # K beyond the 5 items: 2 relevant / 10
    assert precision_at_k([True, True, False], 2) == 1.0  # perfect


def test_average_precision_by_hand():
    # Relevant at ranks 1 and 3: P@1 = 1, P@3 = 2/3; AP = (1 + 0.6667) / 2 = 0.8333.
    assert average_precision([1, 0, 1, 0]) == pytest.approx(0.8333, abs=HAND)
    assert average_precision([1, 1, 0, 0]) == 1.0  # perfect
    # Worst: relevant at ranks 3 and 4: P@3 = 1/3, P@4 = 2/4; AP = (0.3333 + 0.5) / 2 = 0.4167.
    assert average_precision([0, 0, 1, 1]) == pytest.approx(0.4167, abs=HAND)
    assert average_precision([0, 0, 0]) == 0.0  # nothing relevant


TIED_SIMILARITY = np.array([[0.5, 0.5, 0.1], [0.1, 0.9, 0.2]])
TIED_RELEVANCE = np.array([[1, 0, 0], [1, 0, 1]], dtype=bool)


def test_mean_average_precision_counts_ties_against_the_model():
    # Query 0: the tie puts the irrelevant item first: [0, 1, 0]; AP = P@2 = 1/2.
    # Query 1: [0, 1, 1]; AP = (P@2 + P@3) / 2 = (1/2 + 2/3) / 2 = 0.5833.
    # mAP = (0.5 + 0.5833) / 2 = 0.5417.
    assert mean_average_precision(TIED_SIMILARITY, TIED_RELEVANCE) == pytest.approx(0.5417, abs=HAND)


def test_mean_correct_at_k_counts_ties_against_the_model():
    # Top 1 of both queries is irrelevant ([0, 1, 0] and [0, 1, 1]): 0. Top 2 holds a relevant item in both: 1.
    assert mean_correct_at_k(TIED_SIMILARITY, TIED_RELEVANCE, 1) == 0.0
    assert mean_correct_at_k(TIED_SIMILARITY, TIED_RELEVANCE, 2) == 1.0


# --- nDCG ------------------------------------------------------------------------------------

def test_dcg_with_linear_and_exponential_gain():
    # Linear: 3/log2(2) + 2/log2(3) + 0 = 3 + 1.2619 = 4.2619.
    assert dcg([3, 2, 0]) == pytest.approx(4.2619, abs=HAND)
    # Exponential: (2^3 - 1)/1 + (2^2 - 1)/1.5850 = 7 + 1.8928 = 8.8928.
    assert dcg([3, 2, 0], gain="exponential") == pytest.approx(8.8928, abs=HAND)
    assert dcg([3, 2, 0], k=1) == 3.0
    assert ideal_dcg([0, 3, 2]) == pytest.approx(4.2619, abs=HAND)


SCORES = [0.1, 0.9, 0.5]  # ranks the items 1, 2, 0
RELEVANCES = [3, 2, 0]  # in ranked order: 2, 0, 3


def test_ndcg_by_hand():
    # DCG = 2/1 + 0/1.5850 + 3/log2(4) = 2 + 1.5 = 3.5; IDCG = 4.2619; nDCG = 0.8212.
    assert ndcg(SCORES, RELEVANCES) == pytest.approx(0.8212, abs=HAND)
    # k = 2: DCG = 2 + 0 = 2; IDCG = 3 + 1.2619 = 4.2619; nDCG = 0.4693.
    assert ndcg(SCORES, RELEVANCES, k=2) == pytest.approx(0.4693, abs=HAND)
    # Exponential: DCG = 3/1 + 0 + 7/2 = 6.5; IDCG = 8.8928; nDCG = 0.7309.
    assert ndcg(SCORES, RELEVANCES, gain="exponential") == pytest.approx(0.7309, abs=HAND)
    # K larger than the gallery is the whole gallery.
    assert ndcg(SCORES, RELEVANCES, k=10) == pytest.approx(0.8212, abs=HAND)


def test_ndcg_of_the_perfect_and_the_worst_ranking():
    assert ndcg([0.9, 0.5, 0.1], RELEVANCES) == pytest.approx(1.0)
    # Worst order 0, 2, 3: DCG = 0 + 2/1.5850 + 3/2 = 1.2619 + 1.5 = 2.7619; / 4.2619 = 0.6480.
    assert ndcg([0.9, 0.5, 0.1], [0, 2, 3]) == pytest.approx(0.6480, abs=HAND)


def test_ndcg_of_a_query_with_nothing_relevant_is_zero():
    assert ndcg([0.3, 0.2, 0.1], [0, 0, 0]) == 0.0


def test_ndcg_averages_over_the_orders_of_tied_items():
    # Orders [1, 0]: DCG = 1; [0, 1]: DCG = 1/log2(3) = 0.6309. Mean 0.8155; IDCG = 1.
    assert ndcg([0.5, 0.5], [1, 0]) == pytest.approx(0.8155, abs=HAND)
    # Three tied items, one relevant, k = 1: it is first in 1 order of 3, so DCG = 1/3; IDCG@1 = 1.
    assert ndcg([0.5, 0.5, 0.5], [1, 0, 0], k=1) == pytest.approx(1 / 3)


def test_tie_averaged_dcg_equals_the_mean_over_every_order_of_the_tie():
    # 0.7 (relevance 0) first, then three items tied at 0.5 (relevances 3, 1, 0), then 0.2 (relevance 2).
    scores, relevances = [0.7, 0.5, 0.5, 0.5, 0.2], [0, 3, 1, 0, 2]
    # By hand, k = 3: the tie holds ranks 2..4, mean discount (1/log2(3) + 1/log2(4) + 0) / 3
    # = (0.6309 + 0.5) / 3 = 0.3770; DCG = 0 + (3 + 1 + 0) * 0.3770 = 1.5080.
    assert tie_averaged_dcg(scores, relevances, k=3) == pytest.approx(1.5080, abs=HAND)
    every_order = [dcg([0, *tied, 2], k=3) for tied in permutations([3, 1, 0])]
    assert tie_averaged_dcg(scores, relevances, k=3) == pytest.approx(np.mean(every_order))


def test_mean_ndcg_with_one_or_per_query_cut_offs():
    similarity = [SCORES, [0.3, 0.2, 0.1]]
    relevance = [RELEVANCES, [0, 0, 0]]
    # (0.8212 + 0) / 2 = 0.4106
    assert mean_ndcg(similarity, relevance) == pytest.approx(0.4106, abs=HAND)
    # Wray et al.'s cut-off, the count of relevant items: 2 and 0. (0.4693 + 0) / 2 = 0.2346.
    assert relevant_counts(relevance).tolist() == [2, 0]
    assert mean_ndcg(similarity, relevance, k=relevant_counts(relevance)) == pytest.approx(0.2346, abs=HAND)


def test_ndcg_refuses_what_would_leave_zero_to_one():
    with pytest.raises(ValueError):
        ndcg([0.2, 0.1], [1, -1])
    with pytest.raises(ValueError):
        ndcg([0.2, 0.1], [1, 0], gain="cubic")
    with pytest.raises(ValueError):
        mean_ndcg([[0.2, 0.1]], [[1, 0], [0, 1]])
