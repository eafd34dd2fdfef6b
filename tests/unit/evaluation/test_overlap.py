"""The overlap method (transforms/evaluation/overlap.py) on inputs small enough to compute by hand."""
import math

import numpy as np
import pytest
from scipy.sparse import csr_matrix

from transforms.dedup import caption_similarity, similarity_matrix
from transforms.evaluation.overlap import (Caption, candidate_figures, fit_vectorizer, fn_candidates,
                                           length_correlations, list_key, overlap_figures, overlap_rows,
                                           OverlapRow, similarity_by_length, top_k_similarities)


def test_the_top_k_of_unit_rows_is_their_dot_products_by_hand():
    query = csr_matrix(np.array([[1.0, 0.0, 0.0]]))
    train = csr_matrix(np.array([[0.6, 0.8, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0], [0.8, 0.6, 0.0]]))
    best, nearest = top_k_similarities(query, train, k=2)
    assert best.tolist() == [[1.0, 0.8]]  # mean 0.9
    assert nearest.tolist() == [2]
    best3, _ = top_k_similarities(query, train, k=3)
    assert best3[0].mean() == pytest.approx((1.0 + 0.8 + 0.6) / 3)


def test_the_tfidf_is_character_5_grams_fitted_on_the_queries():
    # "abcde" and "vwxyz" are one 5-gram each, both in one query: equal idf, one-hot rows.
    vectorizer = fit_vectorizer(["abcde", "vwxyz"])
    assert sorted(vectorizer.vocabulary_) == ["abcde", "vwxyz"]
    rows = vectorizer.transform(["abcdef", "abcde vwxyz", "qqqqq"]).toarray()
    assert rows[0].tolist() == [1.0, 0.0]  # "bcdef" is no query's 5-gram: not in the vocabulary
    assert rows[1] == pytest.approx([1 / math.sqrt(2), 1 / math.sqrt(2)])
    assert rows[2].tolist() == [0.0, 0.0]


def test_overlap_rows_mean_of_the_ten_most_similar_an_exact_leak_and_the_nearest():
    queries = [Caption(1, "video1", "abcde"), Caption(2, "video2", "vwxyz")]
    train = ([Caption(10, "video9", "ABCDE "), Caption(11, "video9", "abcdef"), Caption(12, "video8", "abcde vwxyz")]
             + [Caption(20 + n, "video7", "qqqqq") for n in range(8)])
    first, second = overlap_rows(queries, train)
    assert first.mean_top10_similarity == pytest.approx((1.0 + 1.0 + 1 / math.sqrt(2)) / 10)
    assert first.exact_match and (first.words, first.characters) == (1, 5)
    assert (first.nearest_sen_id, first.nearest_similarity) == (10, pytest.approx(1.0))  # tie: the first
    assert second.mean_top10_similarity == pytest.approx(1 / math.sqrt(2) / 10)
    assert not second.exact_match
    assert (second.nearest_sen_id, second.nearest_caption) == (12, "abcde vwxyz")
    figures = overlap_figures([first, second])
    assert (figures["exact_leaks"], figures["exact_leak_share"]) == (1, 0.5)


def test_chunks_give_the_same_result_as_one_block():
    rng = np.random.default_rng(0)
    words = ["man", "woman", "dog", "runs", "talking", "a", "is", "the", "car", "cooking", "song"]
    texts = [" ".join(rng.choice(words, size=rng.integers(2, 8))) for _ in range(60)]
    vectorizer = fit_vectorizer(texts[:15])
    queries, train = vectorizer.transform(texts[:15]), vectorizer.transform(texts[15:])
    whole = top_k_similarities(queries, train, k=10, chunk_rows=10_000)
    for chunk in (1, 3, 7):
        chunked = top_k_similarities(queries, train, k=10, chunk_rows=chunk)
        np.testing.assert_allclose(chunked[0], whole[0])
        assert chunked[1].tolist() == whole[1].tolist()
    tied = csr_matrix(np.array([[0.0, 1.0], [1.0, 0.0], [1.0, 0.0]]))  # rows 1 and 2 tie for the nearest
    for chunk in (1, 2, 3):
        assert top_k_similarities(csr_matrix(np.array([[1.0, 0.0]])), tied, k=2, chunk_rows=chunk)[1].tolist() == [1]
    brute = (queries @ train.T).toarray()
    np.testing.assert_allclose(whole[0], -np.sort(-brute, axis=1)[:, :10])


def test_the_four_correlations_by_hand():
    # ranks of the similarities 1,4,3,2 against lengths 1,2,3,4: sum d^2 = 8, rho = 1 - 6*8/(4*15) = 0.2;
    # 3 concordant and 3 discordant pairs, tau = 0.
    figures = length_correlations([0.1, 0.4, 0.3, 0.2], [1, 2, 3, 4], [4, 3, 2, 1])
    assert figures["spearman_words"]["coefficient"] == pytest.approx(0.2)
    assert figures["kendall_words"]["coefficient"] == pytest.approx(0.0)
    assert figures["spearman_characters"]["coefficient"] == pytest.approx(-0.2)
    assert figures["kendall_characters"]["coefficient"] == pytest.approx(0.0)
    falling = length_correlations([0.9, 0.5, 0.2], [3, 6, 9], [10, 30, 50])
    assert {name: round(value["coefficient"], 9) for name, value in falling.items()} == {
        "spearman_words": -1.0, "kendall_words": -1.0, "spearman_characters": -1.0, "kendall_characters": -1.0}


def overlap_row(words: int, similarity: float) -> OverlapRow:
    return OverlapRow(0, "video0", "caption", words, 5 * words, similarity, False, 1, "nearest", similarity)


def test_the_mean_similarity_per_length_bin():
    # 3 and 5 words share the bin 1-5: (0.6 + 0.4) / 2; 13 and 30 words are both 13+; 6-12 have no query.
    rows = [overlap_row(3, 0.6), overlap_row(5, 0.4), overlap_row(13, 0.2), overlap_row(30, 0.1)]
    by_length = similarity_by_length(rows)
    assert list(by_length) == ["1-5", "6-7", "8-9", "10-12", "13+"]
    assert by_length["1-5"] == {"queries": 2, "mean_top10_similarity": pytest.approx(0.5)}
    assert by_length["13+"] == {"queries": 2, "mean_top10_similarity": pytest.approx(0.15)}
    assert by_length["6-7"] == {"queries": 0, "mean_top10_similarity": None}
    assert overlap_figures(rows)["by_length"] == by_length


def test_the_similarity_matrix_is_step_iii_similarity():
    a = ["a man is talking", "a dog runs on the grass", ""]
    b = ["a man is talking about cars", "the dog runs fast", "a man talking", "a dog runs on grass"]
    matrix = similarity_matrix(a, b)
    assert matrix.tolist() == [[caption_similarity(x, y) for y in b] for x in a]
    assert matrix[0][2] == pytest.approx(0.5 * (3 / 4 + 3 / 3))


def test_a_candidate_is_found_its_own_video_and_a_dissimilar_one_are_not():
    queries = [Caption(1, "video1", "a man is talking about cars"), Caption(5, "video5", "a cat sleeps on a sofa")]
    pool = [Caption(1, "video1", "a man is talking about cars"), Caption(2, "video1", "a man is talking about cars"),
            Caption(3, "video2", "a man is talking about a car"),  # 5 of 6 and 7 words: 0.774
            Caption(4, "video3", "a man talking about cars"),  # 5 of 6 and 5: 0.917
            Caption(6, "video3", "a man is talking about cars"),  # 1.0, the best of video3
            Caption(5, "video5", "a cat sleeps on a sofa"), Caption(7, "video4", "a woman is cooking pasta")]
    found = fn_candidates(queries, pool, threshold=0.85)
    assert [(c.query_sen_id, c.candidate_video_id, c.matching_sen_id) for c in found] == [(1, "video3", 6)]
    assert found[0].similarity == 1.0
    lower = fn_candidates(queries, pool, threshold=0.75)
    assert sorted(c.candidate_video_id for c in lower) == ["video2", "video3"]
    assert fn_candidates(queries, pool, threshold=0.85, query_chunk=1) == found
    figures = candidate_figures(queries, found)
    assert (figures["with_candidate"], figures["queries"]) == (1, 2)
    assert figures["by_length"]["6-7"] == {"queries": 2, "with_candidate": 1, "share": 0.5}


def test_a_list_sentence_matches_its_caption_without_punctuation():
    assert list_key("call of duty: black ops & t-shirts ") == list_key("Call of duty black ops t shirts")
