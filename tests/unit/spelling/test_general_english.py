"""General English beside the corpus (transforms/spelling/general_english.py, `general_english`): wordfreq's
frequencies and symspellpy's index, on the issue's examples (issue 42, item 1)."""
import pytest

from transforms.spelling.general_english import (WordIndex, digits_and_word, past_given_ed,
                                                 is_plausible_english_typo, zipf)


@pytest.mark.parametrize("token, parts", [
    ("1cup", ("1", "cup")), ("2cups", ("2", "cups")), ("200mph", ("200", "mph")),
    # Ordinals, decades, times and units stay as written, and so do words run into digits (names, titles).
    ("5th", ()), ("90s", ()), ("3pm", ()), ("4k", ()), ("1080p", ()), ("cup", ()), ("12", ()),
    ("mp3", ()), ("ps4", ()), ("gta5", ()), ("xbox360", ()), ("victory1", ()),
])
def test_digits_and_a_word_of_three_letters_or_more(token, parts):
    assert digits_and_word(token) == parts


@pytest.mark.parametrize("token, past", [
    ("stucked", "stuck"), ("maded", "made"), ("caughted", "caught"),
    ("builded", None),  # the regular ending on the verb itself, not on its past (the misspelling list knows it)
    ("founded", None),  # found is a verb of its own: founded is its past
    ("jumpeded", "jumped"), ("walked", None), ("stuck", None), ("red", None),
])
def test_a_past_given_the_regular_ending_again(token, past):
    assert past_given_ed(token) == past


def test_a_silent_e_on_a_long_english_word_is_a_plausible_typo_unlike_other_added_letters():
    assert is_plausible_english_typo("thermostate", "thermostat", 1)
    assert not is_plausible_english_typo("rusha", "rush", 1)  # a name or a run-on, as for corpus words
    assert not is_plausible_english_typo("parke", "park", 1)  # a short word: as likely a name ("Parke")


def test_zipf_is_how_common_a_word_is_in_english_and_a_phrase_weighs_as_its_rarest_word():
    assert zipf("restaurant") > 4.0 > zipf("thermostat") > 2.0
    assert zipf("excersice") == zipf("thermostate") == 0.0  # typos English never writes
    assert zipf("set two") == min(zipf("set"), zipf("two")) and zipf("") == 0.0


def test_the_index_finds_close_words_and_segments_a_run_together_token():
    index = WordIndex({"thermostat": 1259, "thermostats": 347, "set": 199526, "two": 630957, "sett": 12,
                       "wot": 50, "cup": 128825}, max_distance=2)
    assert index.close("thermostate", 2) == [("thermostat", 1), ("thermostats", 1)]
    assert index.close("thermostate", 1) == [("thermostat", 1), ("thermostats", 1)]
    assert index.close("cupp", 1) == [("cup", 1)]
    assert index.segment("settwo") == ["set", "two"]  # not "sett wo", nor "set t wo"
    assert "cup" in index and "cupp" not in index


# The ranked rule with `general_english`, on hand-made corpus counts and a stand-in Hunspell that accepts
# the words given: the common English words are wordfreq's (general_min_zipf 3.0: once per million words).
ENGLISH_WORDS = frozenset(("thermostat", "thermostats", "recklessly", "restaurant", "restraint", "cup", "set",
                           "two", "stuck", "stick", "stack", "stacked", "sucked", "care", "bear", "limbo", "lamb"))


@pytest.fixture(scope="module")
def english_rule(fake_hunspell):
    from transforms.spelling import RankedCorrection, SpellingSettings

    def make(stats, **options):
        config = SpellingSettings(suggestion="ranked", min_name_count=20, general_english=True, **options)
        checker = fake_hunspell(fake_hunspell.LOWERCASE | ENGLISH_WORDS)
        return RankedCorrection(checker, config, stats, {})

    return make


STATS = {"thermostate": (1, 1), "stacked": (40, 30), "sucked": (12, 10), "restaurant": (300, 200),
         "cup": (500, 300), "set": (800, 600), "two": (9000, 5000), "lambo": (4, 3)}


def test_a_typo_of_a_word_the_corpus_lacks_takes_the_common_english_word(english_rule):
    decision = english_rule(STATS).decide("thermostate", "the", "")
    assert (decision.replacement, decision.rule) == ("thermostat", "english") and decision.score > 0.99


def test_without_general_english_the_same_token_stays_flagged(fake_hunspell):
    from transforms.spelling import RankedCorrection, SpellingSettings

    config = SpellingSettings(suggestion="ranked", min_name_count=20)
    rule = RankedCorrection(fake_hunspell(fake_hunspell.LOWERCASE | ENGLISH_WORDS), config, STATS, {})
    decision = rule.decide("thermostate", "the", "")
    assert decision.replacement is None and decision.flag == "no close word in the corpus"


def test_digits_run_into_a_word_are_split(english_rule):
    decision = english_rule(STATS).decide("1cup", "add", "of")
    assert (decision.replacement, decision.rule) == ("1 cup", "digits")
    assert english_rule(STATS).decide("1zzq", "add", "of").replacement is None  # not a word: kept


def test_a_flagged_token_of_two_common_words_run_together_is_split(english_rule):
    decision = english_rule(STATS).decide("settwo", "a", "of")
    assert (decision.replacement, decision.rule) == ("set two", "segment")


def test_two_other_words_run_together_are_not_split(english_rule):
    decision = english_rule(STATS).decide("carebear", "a", "toy")  # a compound as often as two words
    assert decision.replacement is None and decision.rule == "flagged"


def test_an_past_given_ed_is_the_past_not_a_word_one_letter_away(english_rule):
    decision = english_rule(STATS).decide("stucked", "car", "in")  # not "stacked", which the corpus writes
    assert (decision.replacement, decision.rule) == ("stuck", "irregular_past")


def test_a_token_english_knows_is_no_typo_of_a_word_it_is_close_to(english_rule):
    # "lambo" (Zipf 2.6: slang for a Lamborghini) is not a hundred times rarer than "limbo" or "lamb".
    decision = english_rule({**STATS, "lambo": (4, 3)}).decide("lambo", "a", "")
    assert decision.rule != "english"


def test_a_domain_word_of_many_videos_is_never_an_english_typo(english_rule):
    decision = english_rule({"thermostate": (30, 12)}).decide("thermostate", "the", "")
    assert decision.replacement is None and decision.rule == "domain"
