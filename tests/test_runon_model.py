"""Issue 4's learned boundary scorer (an experiment in benchmarks/, not used by the pipeline): its pure parts."""
import numpy as np
import pytest

from benchmarks.runon_devset import boundaries_of
from benchmarks.runon_model import choose_threshold, fit, leave_one_sample_out, paired_bootstrap, train
from benchmarks.runon_model_features import (
    caption_gaps, decode, gap_features, piece_features, rule_verdicts, words_since_finite,
)
from pipelines.config import load_config
from transforms.runon import load_spacy, rule_and_prefilter


@pytest.fixture(scope="module")
def nlp():
    return load_spacy()


@pytest.fixture(scope="module")
def rule():
    return rule_and_prefilter(load_config("default").runon)[0]


def test_decode_keeps_the_gaps_above_the_threshold_best_first_and_apart():
    scored = [(3, 0.9), (4, 0.8), (8, 0.6), (10, 0.2)]
    assert decode(scored, 0.5, 3) == [3, 8]  # 4 is too close to 3, which scores higher
    assert decode(scored, 0.7, 3) == [3]
    assert decode(scored, 0.95, 3) == []
    assert decode([(4, 0.8), (3, 0.9)], 0.5, 1) == [3, 4]


def test_fit_learns_a_separable_feature_and_leaves_the_bias_unpenalised():
    # column 0 the bias, column 1 a feature on exactly the positive rows
    matrix = np.array([[1.0, 1.0]] * 10 + [[1.0, 0.0]] * 90)
    labels = np.array([1.0] * 10 + [0.0] * 90)
    weights = fit(matrix, labels, l2=1.0)
    assert weights[1] > 3.0 and weights[0] < -3.0
    probabilities = 1 / (1 + np.exp(-(matrix @ weights)))
    assert probabilities[:10].min() > 0.5 > probabilities[10:].max()
    # a stronger penalty shrinks the feature's weight
    assert fit(matrix, labels, l2=50.0)[1] < weights[1]


def test_train_names_its_weights_by_feature():
    gaps = [(0, 3, ["bias", "x"], True), (0, 4, ["bias"], False), (1, 3, ["bias", ("r", 0.5)], False)]
    weights = train(gaps)
    assert list(weights) == ["bias", "r", "x"] and weights["x"] > 0


def test_boundaries_of_gives_the_word_index_where_each_later_piece_starts():
    assert boundaries_of(["a cat sleeps", "he is tired", "it rains"]) == [3, 6]
    assert boundaries_of(["one piece only"]) == []


def test_the_rule_verdicts_mark_its_boundary_and_its_vetoes(nlp, rule):
    doc = nlp("a cat is afraid of a stuffed animal he is trying to figure it out")
    verdicts = rule_verdicts(doc, rule)
    assert {"cand", "cand:pronoun", "boundary"} <= verdicts[8]  # "he"
    relative = rule_verdicts(nlp("a boy with a headset speaks of the video game he is playing"), rule)
    assert "veto:relative" in relative[10] and "boundary" not in relative[10]  # "he"


def test_gap_features_read_the_words_and_the_parse_around_the_gap(nlp, rule):
    doc = nlp("a cat is afraid of a stuffed animal he is trying to figure it out")
    features = gap_features(doc, 8, rule_verdicts(doc, rule), frozenset({8}), 8, len(doc))
    names = {f for f in features if isinstance(f, str)}
    assert {"bias", "rule:boundary", "rule:final", "w0:subject-pronoun", "tag0=PR", "tag-1=NN", "subject",
            "left-finite", "right-finite"} <= names
    reals = dict(f for f in features if isinstance(f, tuple))
    assert reals["position"] == pytest.approx(8 / 15)
    after_and = gap_features(doc, 5, rule_verdicts(doc, rule), frozenset(), 5, len(doc))
    assert "w-1:joining" in after_and and "rule:final" not in after_and


def test_words_since_finite_counts_back_to_the_nearest_finite_verb(nlp):
    doc = nlp("a man is cooking food he adds salt")
    assert words_since_finite(doc, 5) == 3  # "is" three tokens before "he"
    assert words_since_finite(doc, 1) == 99


def test_caption_gaps_leave_room_for_three_words_each_side(nlp, rule):
    doc = nlp("a man is cooking food he adds salt")
    assert [word for word, _ in caption_gaps(doc, rule)] == [3, 4, 5]


def test_the_threshold_is_chosen_without_the_sample_scored():
    """Leave-one-sample-out: a sample whose labels contradict the others cannot lift its own figures."""
    rows = [(sample, "w w w w w w", [3] if sample != "5" else []) for sample in "12345" for _ in range(4)]
    gaps = [(i, 3, ["bias", "cue"], bool(row[2])) for i, row in enumerate(rows)]
    assert choose_threshold(rows, gaps, set(range(16)), 1.0, 3) <= 0.9
    rule_found, found, _, ids = leave_one_sample_out(rows, gaps, [[] for _ in rows], 1.0, 3)["5"]
    assert found == [[3]] * 4  # trained on samples 1-4 only, it splits sample 5, where the labels say no


def test_the_paired_bootstrap_tells_a_real_difference_from_none():
    labelled_rows = [("w w w w w w", [3])] * 20 + [("w w w w w w", [])] * 20
    right = [[3]] * 20 + [[]] * 20
    half = [[3]] * 10 + [[]] * 30
    low, mean, high = paired_bootstrap(labelled_rows, right, half, rounds=200)
    assert 0 < low <= mean <= high  # finding every boundary beats finding half of them in every resample
    assert paired_bootstrap(labelled_rows, half, half, rounds=50) == (0.0, 0.0, 0.0)


def test_piece_features_tell_a_clause_opening_with_its_subject(nlp):
    names = piece_features(nlp("a cat is afraid of a stuffed animal"), nlp("a man goes through his morning routine"))
    assert {"L:root-finite", "R:root-finite", "R:opens-with-subject", "LR:clause-clause"} <= set(names)
    # the tagger makes "flashes" a plural noun, so the left piece is a phrase
    names = piece_features(nlp("the word destiny flashes"), nlp("a man goes through his morning routine"))
    assert "LR:phrase-clause" in names and "L:root-finite" not in names
    object_after_verb = piece_features(nlp("a man is playing"), nlp("a guitar on a stage"))
    assert "R:opens-with-subject" not in object_after_verb and "R:root-finite" not in object_after_verb
