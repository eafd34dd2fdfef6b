"""Scoring a run against labelled samples of an earlier run's output: cases worked by hand."""
from benchmarks.score_output_samples import error_pairs, holds_words, score_dedup, score_untouched


def test_error_pairs_read_each_wrong_and_intended_form():
    assert error_pairs("preforms -> performs ; some one -> someone") == [("preforms", "performs"),
                                                                       ("some one", "someone")]
    assert error_pairs("") == []


def test_words_are_matched_whole_and_in_a_row():
    assert holds_words("a band preforms a song", "preforms")
    assert not holds_words("a band preformss a song", "preforms")
    assert holds_words("he is some one", "some one") and not holds_words("someone is here", "some one")


def test_an_error_still_written_is_missed_and_an_ok_caption_changed_is_counted():
    labelled = [
        {"sen_id": "1", "caption": "a band preforms a song", "label": "error", "intended": "preforms -> performs"},
        {"sen_id": "2", "caption": "poring milk", "label": "error", "intended": "poring -> pouring"},
        {"sen_id": "3", "caption": "a cat sleeps", "label": "ok", "intended": ""},
        {"sen_id": "4", "caption": "a dog runs", "label": "ok", "intended": ""},
    ]
    labelled.append({"sen_id": "5", "caption": "a cow grazes", "label": "ok", "intended": ""})
    now = {1: "a band performs a song", 2: "poring milk", 3: "a cat sleeps", 4: "a dog run"}
    assert score_untouched(labelled, now) == {"errors": 2, "missed": ["2"], "ok": 3, "changed_ok": ["4"],
                                              "gone_ok": ["5"]}


def test_a_removal_counts_only_while_its_kept_caption_is_the_one_labelled():
    labelled = [
        {"sen_id": "10", "kept_sen_id": "9", "kept_lacks_detail": "yes"},
        {"sen_id": "11", "kept_sen_id": "9", "kept_lacks_detail": "no"},
        {"sen_id": "12", "kept_sen_id": "9", "kept_lacks_detail": "yes"},
        {"sen_id": "13", "kept_sen_id": "9", "kept_lacks_detail": "no"},
    ]
    result = score_dedup(labelled, {10: 9, 11: 9, 13: 8})
    assert result == {"sample": 4, "still_removed_same_kept": 2, "lose_detail": ["10"], "kept_changed": ["13"],
                      "no_longer_removed": 1}
