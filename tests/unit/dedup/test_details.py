"""Step III's detail rule (transforms/details.py) and what it decides in a group (default's keep_details).

The issue 42 examples are here as cases worked by hand: each asserts the decision."""
import pytest

from transforms.batch import Caption, VideoBatch
from transforms.dedup import caption_similarity, remove_near_duplicates
from transforms.details import (
    FUNCTION_WORDS_FILE,
    NUMBERS_FILE,
    PERSON_WORDS_FILE,
    Detail,
    detail_rule,
    read_word_list,
)


@pytest.fixture(scope="module")
def rule():
    return detail_rule()


def details(rule, caption, kept):
    return rule.details(caption.split(), kept.split())


def video(texts):
    return VideoBatch("video1", "train", 1, [Caption(number, text) for number, text in enumerate(texts)])


def kept_and_removed(texts, rule):
    result = remove_near_duplicates(video(texts), 0, 0.85, until_stable=True, details=rule)
    return [c.sen_id for c in result.captions], {row.sen_id: row for row in result.removed}


# The words one caption holds and another lacks, judged alone.

def test_a_person_or_gender_word_the_kept_caption_lacks_is_a_detail(rule):
    # Issue 42: "a man is playing a video game" against "a person is ..." (no other caption says "man").
    assert details(rule, "a man is playing a video game", "a person is playing a video game") == [
        Detail("man", "person")]
    # Issue 42: "two men are jumping on a trampoline" against "two young people are ...".
    assert details(rule, "two men are jumping on a trampoline", "two young people are jumping on a trampoline") == [
        Detail("men", "person")]


def test_a_more_specific_word_covers_a_general_one_in_the_same_number(rule):
    # "man" is a hyponym of "person" in WordNet: the "person" caption adds nothing to the "man" one.
    assert details(rule, "a person is playing a video game", "a man is playing a video game") == []
    assert details(rule, "someone is cooking", "a woman is cooking") == []
    assert details(rule, "a man is driving a car", "a man is driving a jeep") == []  # a jeep is a car
    assert details(rule, "an animal is running", "a dog is running") == []
    assert details(rule, "a man is watching tv", "a man is watching television") == []  # one synset
    # ... but not the other way, nor across number: "men" do not say "a person", "people" are not "men".
    assert details(rule, "a man is cooking food", "a person is cooking food") == [Detail("man", "person")]
    assert details(rule, "a person is dancing", "men are dancing") == [Detail("person", "person")]
    assert details(rule, "two young people are jumping on a trampoline", "two men are jumping on a trampoline") == [
        Detail("young", "word"), Detail("people", "person")]


def test_another_noun_is_a_detail_both_ways(rule):
    # Issue 42: "the city" against "the landscape".
    assert details(rule, "a drone flies over the city at night", "a drone flies over the landscape at night") == [
        Detail("city", "word")]
    assert details(rule, "a drone flies over the landscape at night", "a drone flies over the city at night") == [
        Detail("landscape", "word")]


def test_a_number_is_a_detail_and_an_article_is_not(rule):
    # Issue 42: "two cows" against "the cows".
    assert details(rule, "two cows are eating grass", "the cows are eating grass") == [Detail("two", "number")]
    assert details(rule, "the cows are eating grass", "two cows are eating grass") == []
    assert details(rule, "3 cows are eating grass", "the cows are eating grass") == [Detail("3", "number")]


def test_another_form_of_a_kept_word_is_no_detail_but_the_other_number_of_a_noun_is(rule):
    assert details(rule, "a man is playing guitar", "a man plays the guitar") == []  # is, playing: no fact
    assert details(rule, "a big dog", "a bigger dog") == [Detail("big", "word")]  # a comparative is no verb form
    assert details(rule, "a cow is eating", "cows are eating") == [Detail("cow", "word")]  # one, not many
    assert details(rule, "cows are eating", "a cow is eating") == [Detail("cows", "word")]


def test_an_age_is_a_detail_and_a_word_is_read_in_its_usual_part_of_speech_and_first_sense(rule):
    # WordNet calls a girl a young woman, and one sense of "boy" is a grown man: the age tags keep them apart.
    assert details(rule, "a woman is dancing", "a girl is dancing") == [Detail("woman", "person")]
    assert details(rule, "a man is dancing", "a boy is dancing") == [Detail("man", "person")]
    assert details(rule, "a person is dancing", "a boy is dancing") == []  # no age to lose
    # "game" is read as a noun (its verb, to gamble, would cover "playing"); "computer" in its first
    # sense, a machine (its second, a person who computes, would cover "someone").
    assert details(rule, "a boy is playing", "a boy game") == [Detail("playing", "word")]
    assert details(rule, "someone uses it", "a computer uses it") == [Detail("someone", "person")]


def test_a_negation_and_a_verb_of_another_action_are_details(rule):
    assert details(rule, "a man is not smiling", "a man is smiling") == [Detail("not", "word")]
    assert details(rule, "a man is running", "a man is walking") == [Detail("running", "word")]


def test_lacking_lists_each_word_the_kept_caption_lacks_once_in_order(rule):
    assert rule.lacking("a man and a dog and a cat".split(), "a man".split()) == ["and", "dog", "cat"]
    # Within the edit threshold a word is not lacking (e > 0 compares words as the grouping does).
    assert rule.lacking("a man is cookin".split(), "a man is cooking".split(), 1) == []
    assert rule.lacking("a man is cookin".split(), "a man is cooking".split(), 0) == ["cookin"]


def test_the_word_lists_are_disjoint_and_hold_no_negation():
    function_words, numbers, people = (read_word_list(path) for path in
                                       (FUNCTION_WORDS_FILE, NUMBERS_FILE, PERSON_WORDS_FILE))
    assert not function_words & numbers and not function_words & people and not numbers & people
    assert {"a", "the", "is", "on", "and", "his"} <= function_words
    assert not {"not", "no", "never", "two", "man", "young"} & function_words
    assert {"two", "dozen", "several"} <= numbers and {"man", "women", "person", "people"} <= people


# What the step decides in a group (keep_details), against the paper's rule (keep the longest).

def test_the_man_caption_stays_and_the_person_caption_goes():
    texts = ["a person is playing a video game", "a man is playing a video game"]
    assert caption_similarity(*texts) == pytest.approx(6 / 7)  # >= 0.85: one group
    paper = remove_near_duplicates(video(texts), 0, 0.85)
    assert [c.sen_id for c in paper.captions] == [0]  # the longest: "man" was dropped (the case)
    kept, removed = kept_and_removed(texts, detail_rule())
    assert kept == [1] and removed[0].kept_sen_id == 1
    assert removed[0].reason.endswith("e=0, s=0.85; the group keeps the caption that holds the details of the most "
                                      "of its captions, then its longest; the words it has that the caption kept "
                                      "lacks, none a detail: person")


def test_two_cows_is_kept_and_the_cows_goes():
    texts = ["the cows are eating grass in a field", "two cows are eating grass in a field"]
    assert len(texts[0]) == len(texts[1]) and caption_similarity(*texts) == 0.875
    assert [c.sen_id for c in remove_near_duplicates(video(texts), 0, 0.85).captions] == [0]  # paper: the first
    kept, removed = kept_and_removed(texts, detail_rule())
    assert kept == [1] and list(removed) == [0]


def test_the_city_and_the_landscape_both_stay():
    texts = ["a drone flies over the city at night", "a drone flies over the landscape at night"]
    assert caption_similarity(*texts) == 0.875
    assert [c.sen_id for c in remove_near_duplicates(video(texts), 0, 0.85).captions] == [1]  # paper: the longest
    kept, removed = kept_and_removed(texts, detail_rule())
    assert kept == [0, 1] and removed == {}


def test_the_group_keeps_the_caption_with_every_detail_and_a_caption_with_its_own_stays():
    # 0 opens the group and takes 1 (6 of 7 words, 0.857) and 2 (0.9375). Keeping 2 leaves only 1
    # standing (its "men"); keeping 1 or 0 would leave two standing. The paper keeps 2, the longest,
    # and drops 1's "men" with 0.
    texts = ["two people are jumping on a trampoline", "two men are jumping on a trampoline",
             "two young people are jumping on a trampoline"]
    assert caption_similarity(texts[0], texts[1]) == pytest.approx(0.5 * (6 / 7 + 6 / 7))
    assert caption_similarity(texts[0], texts[2]) == pytest.approx(0.5 * (7 / 7 + 7 / 8))
    assert [c.sen_id for c in remove_near_duplicates(video(texts), 0, 0.85).captions] == [2]
    kept, removed = kept_and_removed(texts, detail_rule())
    assert kept == [1, 2] and list(removed) == [0] and removed[0].kept_sen_id == 2
    assert removed[0].reason.endswith("it has no word the caption kept lacks")


def test_word_for_word_copies_go_as_before():
    texts = ["a dog runs in a park", "a man throws a ball", "a dog runs in a park", "a dog runs in a park"]
    kept, removed = kept_and_removed(texts, detail_rule())
    assert kept == [0, 1] and sorted(removed) == [2, 3]
    assert all(row.kept_sen_id == 0 for row in removed.values())
    assert removed[2].reason.endswith("; it has no word the caption kept lacks")
    assert [c.sen_id for c in remove_near_duplicates(video(texts), 0, 0.85).captions] == kept  # as the paper's rule


def test_the_settings_turn_the_rule_on_in_default_only():
    from pipelines.config import load_config

    assert load_config("default").dedup.keep_details is True
    assert load_config("paper").dedup.keep_details is False


def test_copies_of_a_caption_that_stays_for_a_detail_do_not_both_stay():
    # 0 opens the group and takes 1 (13 of 15 and 14 words, 0.898), 2 and 3. Keeping 0 leaves 1 and 3
    # standing (their "woman"), keeping 1 leaves 0 and 2 (their "man"): a tie, and 0 is the longer.
    # 2 goes in favour of 0; then 1 and 3, which stayed, are decided among themselves: 3 goes for 1.
    man = "a man is cooking the pasta in a pan on the stove in a kitchen"
    woman = "a woman is cooking pasta in a pan on the stove in a kitchen"
    assert caption_similarity(man, woman) == pytest.approx(0.5 * (13 / 15 + 13 / 14))
    kept, removed = kept_and_removed([man, woman, man, woman], detail_rule())
    assert kept == [0, 1] and {sen_id: row.kept_sen_id for sen_id, row in removed.items()} == {2: 0, 3: 1}
    assert [c.sen_id for c in remove_near_duplicates(video([man, woman, man, woman]), 0, 0.85).captions] == [0]


def test_a_missing_wordnet_is_one_line_before_any_work(tmp_path, monkeypatch):
    import transforms.evaluation.wordnet_folder as wordnet_folder
    from pipelines.config import load_config
    from transforms.dedup import Dedup
    from transforms.errors import CapcleanError

    monkeypatch.setattr(wordnet_folder, "default_wordnet_dir", lambda: tmp_path / "wordnet")
    with pytest.raises(CapcleanError, match="WordNet not found in .*wordnet: run make install"):
        Dedup(load_config("default"))
    Dedup(load_config("paper"))  # the paper's rule reads no WordNet


def test_holds_detail_says_whether_details_finds_one(rule):
    # The grouping asks only whether a caption holds a detail; the rule stops at the first (issue 41).
    for caption, kept in [("a man is playing a video game", "a person is playing a video game"),
                          ("two cows are eating", "the cows are eating"),
                          ("a person is playing a video game", "a man is playing a video game"),
                          ("the cows are eating", "the cows are eating")]:
        assert rule.holds_detail(caption.split(), kept.split()) == bool(details(rule, caption, kept))
    assert rule.holds_detail("two cows are eating".split(), "the cows are eating".split())
    assert not rule.holds_detail("a person is playing".split(), "a man is playing".split())


def test_the_tagged_counts_are_nltks(rule):
    # Read once from cntlist.rev into a dict instead of NLTK's search of the file per lemma: the same counts.
    wordnet = rule._wordnet_reader()
    forms = [form for word in ("man", "play", "game", "dog", "run", "girl") for pos in ("n", "v")
             for sense in wordnet.synsets(word, pos) for form in sense.lemmas()]
    assert len(forms) > 100
    assert [rule._tagged_count(form) for form in forms] == [form.count() for form in forms]
    assert rule._tagged_count(wordnet.synset("man.n.01").lemmas()[0]) > 0


def test_a_kept_words_reading_is_asked_of_wordnet_once(rule):
    # It was asked again for every word it may cover, each time a search of cntlist.rev per sense.
    rule._reading.cache_clear()
    assert rule._reading("game") == "n" and rule._reading("playing") == "v"
    rule.covers("game", "activity"), rule.covers("game", "sport")
    assert rule._reading.cache_info().misses == 2


def test_building_step_three_checks_wordnet_without_importing_nltk():
    # The driver builds the steps before any work: NLTK's import (seconds, scipy.stats with it) waits for a
    # worker's first word that needs WordNet.
    import os
    import subprocess
    import sys
    from pathlib import Path

    repository = Path(__file__).resolve().parents[3]  # this checkout's code, not the venv's editable install
    check = ("import sys; from pipelines.config import load_config; from transforms.dedup import Dedup; "
             "Dedup(load_config('default')); print('nltk' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, check=True, cwd=repository,
                          env={**os.environ, "PYTHONPATH": str(repository)})
    assert done.stdout.strip() == "False"
