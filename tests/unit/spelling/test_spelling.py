import pytest

from transforms.spelling import (
    DictionaryFileError,
    open_hunspell,
    Decision,
    FirstSuggestion,
    choose_suggestion,
    correct_caption,
    is_plain,
    read_mapping,
    read_word_list,
)

BRITISH = {"colour": "color", "vedio": "video"}
SPLITS = {"videogame": "video game", "doesn t": "does not", "eachother": "each other"}
MAPPINGS = (("british", BRITISH), ("split", SPLITS))


def suggesting(replacements):
    return lambda piece, previous, following: Decision(replacements.get(piece), "suggestion")


def test_mappings_apply_per_token_then_hunspell_on_every_piece():
    text, rows, flagged = correct_caption("a colour videogame vedio", MAPPINGS,
                                          suggesting({"game": "gamer"}))
    assert text == "a color video gamer video" and flagged == []
    assert rows == [
        {"position": 1, "original": "colour", "replacement": "color", "rule": "british", "score": None},
        {"position": 2, "original": "videogame", "replacement": "video game", "rule": "split", "score": None},
        {"position": 2, "original": "game", "replacement": "gamer", "rule": "suggestion", "score": None},
        {"position": 3, "original": "vedio", "replacement": "video", "rule": "british", "score": None},
    ]


def test_a_key_with_a_space_never_applies_because_lookup_is_per_token():
    text, rows, _ = correct_caption("he doesn t know", MAPPINGS, suggesting({}))
    assert text == "he doesn t know" and rows == []


def test_a_suggestion_equal_to_the_token_is_no_change_and_the_caption_is_lowercased():
    # Hunspell suggests "John" for "john"; lowercased back, it is not a change.
    text, rows, _ = correct_caption("john runs", (), suggesting({"john": "john"}))
    assert text == "john runs" and rows == []


def test_choose_suggestion_rules():
    suggestions = ["outdoors's", "disc-using", "café", "outdoors", "out doors"]
    assert choose_suggestion(suggestions, "first") == "outdoors's"
    assert choose_suggestion(suggestions, "first_plain") == "outdoors"
    assert choose_suggestion([], "first") is None
    assert choose_suggestion(["it's"], "first_plain") is None
    assert is_plain("mine craft") and not is_plain("café") and not is_plain("o'clock")


def test_word_lists_strip_crlf_and_blank_lines(tmp_path):
    words = tmp_path / "words.txt"
    words.write_bytes(b"minecraft\r\n\r\nspongebob\r\ngogh")
    assert read_word_list(str(words)) == ("minecraft", "spongebob", "gogh")
    mapping = tmp_path / "map.txt"
    mapping.write_text("seat/stroller -> seat \nisn t -> is not\n")
    assert read_mapping(str(mapping)) == {"seat/stroller": "seat", "isn t": "is not"}


def test_a_malformed_mapping_line_is_named(tmp_path):
    mapping = tmp_path / "map.txt"
    mapping.write_text("colour -> color\ncolour color\n")
    with pytest.raises(DictionaryFileError, match=r"map.txt, line 2"):
        read_mapping(str(mapping))


def test_a_missing_word_list_is_named(tmp_path):
    with pytest.raises(DictionaryFileError, match="nowhere.txt"):
        read_word_list(str(tmp_path / "nowhere.txt"))


def test_a_missing_hunspell_dictionary_is_named(tmp_path):
    with pytest.raises(DictionaryFileError, match=r"nothing.dic not found"):
        open_hunspell(str(tmp_path / "nothing"))


@pytest.fixture(scope="module")
def paper_speller():
    checker = open_hunspell("/usr/share/hunspell/en_US", read_word_list("paper/custom_words.txt"))
    return FirstSuggestion(checker, "first")


def test_paper_speller_takes_hunspells_first_suggestion(paper_speller):
    # The published rule's known weakness, reproduced: lego -> loge, discusing -> disusing.
    assert paper_speller.decide("lego").replacement == "loge"
    assert paper_speller.decide("discusing").replacement == "disusing"
    assert paper_speller.decide("woman").replacement is None


def test_custom_vocabulary_is_accepted_by_hunspell_itself(paper_speller):
    for word in ("minecraft", "spongebob", "gameplay", "legos"):
        assert paper_speller.decide(word).replacement is None


def test_decisions_are_cached_per_distinct_token(paper_speller):
    paper_speller._decide_cached.cache_clear()
    for _ in range(3):
        paper_speller.decide("vidio")
    info = paper_speller._decide_cached.cache_info()
    assert (info.misses, info.hits) == (1, 2)


# The ranked rule on hand-made corpus statistics, with a stand-in for Hunspell (the `fake_hunspell` fixture).
@pytest.fixture
def ranked_rule(fake_hunspell):
    """ranked_rule(stats, phrases=None, ...): the ranked rule, its checker accepting the fake Hunspell's words."""
    def make(stats, phrases=None, plural_readings=None, more_words=frozenset(), common_misspellings=None, **options):
        from transforms.spelling import SpellingSettings as SpellingConfig
        from transforms.spelling import RankedCorrection

        config = SpellingConfig(suggestion="ranked", min_name_count=20, **options)
        checker = fake_hunspell(fake_hunspell.LOWERCASE | fake_hunspell.NAMES_AND_ACRONYMS | more_words)
        return RankedCorrection(checker, config, stats, phrases or {}, plural_readings=plural_readings,
                                common_misspellings=common_misspellings)

    return make


def clip_of(caption, *others):
    """What the other captions of `caption`'s clip write (OtherCaptions), the clip being `others` and it."""
    from transforms.spelling import OtherCaptions, captions_writing

    return OtherCaptions(captions_writing(others + (caption,)), caption)


def test_is_slip_is_a_swap_a_doubled_letter_or_a_vowel_for_a_vowel():
    from transforms.spelling import is_slip

    assert is_slip("amatuer", "amateur") and is_slip("ploting", "plotting") and is_slip("coock", "cock")
    assert is_slip("seperated", "separated")
    assert not is_slip("ploting", "plowing") and not is_slip("grop", "grow") and not is_slip("coock", "cook")
    assert not is_slip("vedios", "videos")  # two edits


def test_a_slip_outweighs_a_more_common_substitution_but_not_a_much_more_common_one(ranked_rule):
    rule = ranked_rule({"ploting": (1, 1), "plotting": (5, 2), "plowing": (13, 4),
                        "coock": (3, 3), "cock": (6, 2), "cook": (2000, 900)})
    # 5 x 5 against 13: first, but not clearly enough to change the token without its context.
    assert rule.decide("ploting").candidate == "plotting" and rule.decide("ploting").replacement is None
    assert rule.decide("coock").replacement == "cook"  # 6 x 5 against 2000


def test_names_the_dictionary_knows_capitalised_are_candidates_when_common(ranked_rule):
    rule = ranked_rule({"obamma": (2, 2), "obama": (289, 36), "portugese": (1, 1), "portuguese": (9, 5)})
    assert (rule.decide("obamma").replacement, rule.decide("obamma").rule) == ("obama", "ranked")
    assert rule.decide("portugese").replacement is None  # "portuguese" is written fewer than 20 times


def test_the_context_chooses_when_the_corpus_alone_cannot(ranked_rule):
    stats = {"stle": (1, 1), "style": (280, 200), "sale": (61, 40), "hair": (900, 500)}
    rule = ranked_rule(stats, {"hair style": 40, "hair sale": 0, "for sale": 30})
    assert rule.decide("stle").flag.startswith("no clear best candidate")
    decision = rule.decide("stle", "hair", "")
    assert (decision.replacement, decision.rule) == ("style", "context")
    assert rule.decide("stle", "the", "").replacement is None  # nothing written around "the"


def test_a_short_token_is_corrected_only_where_its_context_chooses_the_candidate(ranked_rule):
    stats = {"hown": (3, 3), "horn": (19, 10), "is": (9000, 5000), "plad": (4, 3), "play": (2183, 1200),
             "plaid": (76, 40)}
    rule = ranked_rule(stats, {"a horn": 5, "a play": 40, "a plaid": 10})
    assert rule.decide("hown", "a", "").replacement == "horn"
    decision = rule.decide("hown", "is", "")
    assert decision.replacement is None and decision.candidate == "horn" and decision.flag
    # The corpus alone would choose "play"; "a play" against "a plaid" is no clear choice.
    decision = rule.decide("plad", "a", "shirt")
    assert decision.replacement is None and decision.candidate == "play"
    rule = ranked_rule(stats, {"a play": 5, "a plaid": 3, "plaid shirt": 30})
    assert rule.decide("plad", "a", "shirt").replacement == "plaid"


def test_a_rare_three_letter_acronym_may_be_a_slip_of_a_very_common_word(ranked_rule):
    stats = {"amd": (3, 3), "and": (42000, 8000), "ecg": (1, 1), "egg": (351, 87), "gloves": (50, 20), "four": (800, 500)}
    rule = ranked_rule(stats, {"gloves and": 4, "and four": 12})
    assert rule.decide("amd", "gloves", "four").replacement == "and"
    assert rule.decide("amd", "the", "chip").replacement is None and rule.decide("amd", "the", "chip").rule == "case"
    assert rule.decide("ecg", "an", "test").replacement is None  # "egg" is not common enough to override an acronym


def test_two_known_words_run_together_are_not_corrected_to_a_word_two_edits_away(ranked_rule):
    rule = ranked_rule({"carebear": (2, 2), "career": (58, 40), "care": (300, 200), "bear": (400, 150)})
    decision = rule.decide("carebear")
    assert decision.replacement is None and decision.flag == "two known words run together"


def test_curated_misspellings_apply_after_the_published_mappings():
    text, rows, _ = correct_caption("a dalmation runs", (("british", {}), ("split", {}),
                                                         ("vocabulary", {"dalmation": "dalmatian"})),
                                    suggesting({}))
    assert text == "a dalmatian runs" and rows[0]["rule"] == "vocabulary"


def test_decide_sees_the_word_before_as_corrected_and_the_word_after_as_written():
    seen = []

    def decide(piece, previous, following):
        seen.append((piece, previous, following))
        return Decision({"colour": "color"}.get(piece), "suggestion")

    correct_caption("red colour videogame", (("split", {"videogame": "video game"}),), decide)
    assert seen == [("red", "", "colour"), ("colour", "red", "videogame"), ("video", "color", "game"),
                    ("game", "video", "")]


def test_a_known_word_with_a_regular_ending_is_kept_unless_it_is_one_slip_from_a_word(ranked_rule):
    stats = {"puppeted": (1, 1), "puppets": (300, 90), "puppet": (200, 80),
             "swiming": (13, 12), "swimming": (900, 400), "swim": (100, 50)}
    rule = ranked_rule(stats, inflections=True)
    assert rule.decide("puppeted").replacement is None and rule.decide("puppeted").rule == "inflected"
    assert rule.decide("swiming").replacement == "swimming"  # "swim" is too short a stem, and it is a slip
    assert ranked_rule(stats, inflections=False).decide("puppeted").replacement == "puppets"


def test_takes_plain_s():
    from transforms.spelling import takes_plain_s

    assert takes_plain_s("volcano") and takes_plain_s("toy") and takes_plain_s("lamborghini")
    assert not any(takes_plain_s(word) for word in ("beach", "fry", "box", "bus", "dish", "waltz"))


def test_a_known_word_with_an_s_is_a_plural_only_where_a_bare_s_makes_the_plural(ranked_rule):
    stats = {"beachs": (2, 2), "beaches": (150, 80), "beach": (900, 400), "volcanos": (3, 2)}
    rule = ranked_rule(stats, regular_plurals=True)
    assert rule.decide("volcanos").rule == "plural"
    assert rule.decide("beachs").replacement == "beaches"
    assert ranked_rule(stats, regular_plurals=False).decide("beachs").rule == "plural"


def test_a_known_word_run_into_a_function_word_is_split(ranked_rule):
    rule = ranked_rule({"floorswith": (1, 1), "handlesand": (1, 1)}, split_before_words=("and", "with", "some"))
    assert rule.decide("floorswith").replacement == "floors with"
    assert rule.decide("handlesand").replacement == "handles and"
    assert rule.decide("thewith").replacement is None  # "the" is shorter than four letters
    assert ranked_rule({"floorswith": (1, 1)}).decide("floorswith").replacement is None  # off by default


def test_the_default_profile_splits_a_word_run_into_then_there_when_or_also(ranked_rule):
    from pipelines.config import load_config

    words = load_config("default").spelling.split_before_words
    tokens = {"reporterthere": "reporter there", "colorthen": "color then", "sharkwhen": "shark when",
              "videoalso": "video also", "runwaythe": "runway the", "clipwhile": "clip while"}
    known = frozenset("reporter color shark video runway clip disc discovery".split())
    rule = ranked_rule({token: (1, 1) for token in tokens}, split_before_words=words, more_words=known)
    assert {token: rule.decide(token).replacement for token in tokens} == tokens
    assert ranked_rule({"discvery": (1, 1), "discovery": (50, 40)}, split_before_words=words,
                       more_words=known).decide("discvery").replacement == "discovery"  # "very" is not one



def test_reads_plural_after_a_counting_word_or_before_what_a_possessive_cannot_take():
    from transforms.spelling import reads_plural

    assert reads_plural("two", "soccer") and reads_plural("the", "are") and reads_plural("to", "")
    assert not reads_plural("a", "soccer") and not reads_plural("", "plastic")


def test_a_run_together_possessive_is_the_plural_only_where_its_neighbours_read_plural(ranked_rule):
    stats = {"mens": (3, 3), "men": (500, 200), "soccer": (80, 40)}
    phrases = {"men s": 12}
    rule = ranked_rule(stats, phrases)
    rule_with_readings = ranked_rule(stats, phrases, plural_readings={"mens": "men"})
    assert rule_with_readings.decide("mens", "two", "are") == Decision("men", "plural_in_context", 1.0)
    assert rule_with_readings.decide("mens", "a", "soccer").replacement == "men s"  # the possessive
    assert rule.decide("mens", "two", "are").replacement == "men s"  # without the readings


def test_lacks_a_letter():
    from transforms.spelling import lacks_a_letter

    assert lacks_a_letter("stle", "style") and lacks_a_letter("towl", "towel") and lacks_a_letter("rock", "rocks")
    assert not lacks_a_letter("brnd", "band") and not lacks_a_letter("style", "stle")


def test_with_common_typos_only_the_context_chooses_no_candidate_another_typo_away(ranked_rule):
    stats = {"brnd": (1, 1), "band": (400, 100), "brand": (30, 10), "stle": (1, 1), "style": (280, 200),
             "sale": (61, 40), "hair": (900, 500)}
    phrases = {"rock band": 50, "hair style": 40}
    assert ranked_rule(stats, phrases).decide("brnd", "rock", "").replacement == "band"
    rule = ranked_rule(stats, phrases, context_common_typos=True)
    decision = rule.decide("brnd", "rock", "")  # "band" is a letter struck for another, not a common typo
    assert decision.replacement is None and decision.flag
    assert rule.decide("stle", "hair", "").replacement == "style"  # a letter left out


def test_slip_variants_are_the_words_one_slip_away():
    from transforms.spelling import slip_variants

    variants = slip_variants("recieve")
    assert {"receive", "reciieve", "racieve"} <= variants  # swapped, doubled, vowel for vowel
    assert "recive" not in variants  # a letter left out is not a slip, unless it was doubled
    assert "recieve" not in variants and "recieva" in variants and "rxcieve" not in variants
    assert "ploting" in slip_variants("plotting")  # a doubled letter written once


@pytest.mark.parametrize("typo, word, common", [
    ("seperated", "separated", True),  # a slip
    ("scence", "scene", True),  # a letter added
    ("stle", "style", True),  # a letter left out
    ("beutifull", "beautiful", True),  # a letter left out and a doubled letter
    ("proffesional", "professional", True),  # two slips
    ("roomo", "rooms", False),  # a consonant replaced
    ("lauch", "laugh", False),
    ("gocart", "goat", False),  # two edits, neither a slip
    ("churchs", "churros", False),
    ("playing", "play", False),  # three edits
])
def test_is_common_typo(typo, word, common):
    from transforms.spelling import is_common_typo

    assert is_common_typo(typo, word) is common


def test_other_captions_are_the_clip_s_words_this_caption_does_not_alone_write():
    from collections import Counter

    from transforms.spelling import OtherCaptions, captions_writing

    in_clip = captions_writing(["a man plays guitar", "a man plays a guitar", "a woman sings"])
    assert in_clip == Counter({"a": 3, "man": 2, "plays": 2, "guitar": 2, "woman": 1, "sings": 1})
    clip = OtherCaptions(in_clip, "a woman sings")
    assert "man" in clip and "a" in clip
    assert "woman" not in clip and "sings" not in clip and "dog" not in clip


def test_an_uncommon_typo_is_corrected_only_where_another_caption_of_the_clip_writes_the_word(ranked_rule):
    stats = {"shirf": (1, 1), "shirt": (500, 300)}
    assert ranked_rule(stats).decide("shirf", "a", "").replacement == "shirt"
    rule = ranked_rule(stats, clip_evidence=True)
    flagged = rule.decide("shirf", "a", "", clip=clip_of("a shirf", "a man in red"))
    assert flagged.replacement is None and flagged.flag.startswith("an uncommon typo") and flagged.candidate == "shirt"
    assert rule.decide("shirf", "a", "", clip=clip_of("a shirf", "a shirt")).replacement == "shirt"
    assert rule.decide("shrit", "a", "").replacement == "shirt"  # a common typo needs no evidence


def test_a_split_s_is_only_the_possessive_after_a_word(fake_hunspell):
    from transforms.spelling import SpellingSettings as SpellingConfig
    from transforms.spelling import RankedCorrection

    checker = fake_hunspell(fake_hunspell.LOWERCASE | {"S"})  # Hunspell accepts every letter in capitals
    rule = RankedCorrection(checker, SpellingConfig(suggestion="ranked"), {"ssome": (1, 1)},
                            {"s some": 20, "some s": 20})
    assert rule.decide("ssome").replacement is None
    assert rule.decide("somes").replacement == "some s"


@pytest.mark.parametrize("typo, word, distance", [
    ("sopa", "sofa", 1),
    ("aminated", "animated", 2),
    ("irections", "directions", 1),  # the first letter left out
    ("aldy", "lady", 1),  # the first two letters swapped
    ("comeon", "come", 0),  # the word is a piece of the token: a run-together
    ("videosa", "video", 0),
    ("millenials", "millennial", 0),  # a plural is no singular
    ("sopa", "soup", 0),  # two edits for a token of five letters or fewer
    ("aminated", "nominated", 0),  # another first letter
    ("restraunt", "restaurant", 0),  # three edits
])
def test_close_in_clip(typo, word, distance):
    from transforms.spelling import close_in_clip

    assert close_in_clip(typo, word) == distance


def test_a_flagged_token_is_corrected_to_the_one_close_word_the_clip_s_other_captions_write(ranked_rule):
    rule = ranked_rule({"rocl": (1, 1), "rock": (3, 3)}, clip_candidates=True)  # rock: too rare a candidate
    caption = "a band plays rocl"

    assert rule.decide("rocl", "plays", "").rule == "flagged"
    decision = rule.decide("rocl", "plays", "", clip=clip_of(caption, "a band plays rock"))
    assert (decision.replacement, decision.rule) == ("rock", "clip")
    # Two close words of the clip: no clear one. Another caption writes the token: annotators agree on it.
    assert rule.decide("rocl", "plays", "", clip=clip_of(caption, "rock", "a roll")).replacement is None
    assert rule.decide("rocl", "plays", "", clip=clip_of(caption, "rock", "they play rocl")).replacement is None
    assert ranked_rule({"rocl": (1, 1)}).decide("rocl", "plays", "", clip=clip_of(caption, "rock")).replacement is None


def test_a_dropped_g_is_the_ing_word_the_corpus_writes_not_a_split(ranked_rule):
    stats = {"puppetin": (1, 1), "lookin": (1, 1), "looking": (40, 30), "look": (90, 50)}
    phrases = {"look in": 30, "puppet in": 30}

    def rule(**options):
        return ranked_rule(stats, phrases, more_words={"in", "look", "looking"}, min_phrase_count=3, **options)

    assert rule(dropped_g=True).decide("lookin").replacement == "looking"
    assert rule(dropped_g=True).decide("puppetin").replacement == "puppet in"  # "puppeting": no word
    assert rule().decide("lookin").replacement == "look in"


def test_a_list_of_common_misspellings_keeps_only_typos_with_one_lowercase_correction(tmp_path):
    from transforms.spelling import read_common_misspellings

    listed = tmp_path / "misspellings.txt"
    listed.write_text("rythm->rhythm\nacheive->achieve\nbrige->bridge, brig,\nans->and, disabled for code\n"
                      "britian->Britain\ndidnt->didn't\n1nd->1st\nnot a pair\n", encoding="utf-8")
    assert read_common_misspellings(str(listed)) == {"rythm": "rhythm", "acheive": "achieve", "didnt": "didn t"}


def test_the_installed_codespell_list_is_read_and_a_missing_file_is_a_clear_error(tmp_path):
    from transforms.spelling import DictionaryFileError, read_common_misspellings

    listed = read_common_misspellings("codespell")
    assert listed["restuarant"] == "restaurant" and listed["occurences"] == "occurrences"
    assert "scence" not in listed  # codespell gives it several words (scene, science, sense)
    with pytest.raises(DictionaryFileError, match="cannot read word list"):
        read_common_misspellings(str(tmp_path / "missing.txt"))


def test_only_a_token_the_rule_leaves_flagged_takes_the_lists_correction(ranked_rule):
    listed = {"rythm": "rhythm", "vidoe": "vide", "didnt": "didn t", "wierdo": "weirdoh"}
    stats = {"vidoe": (1, 1), "video": (5000, 900), "rythm": (2, 2), "didnt": (3, 3), "wierdo": (1, 1)}
    rule = ranked_rule(stats, common_misspellings=listed, more_words={"rhythm", "video", "vide"})
    assert rule.decide("rythm") == Decision("rhythm", "misspelling_list", 1.0)  # no close word in the corpus
    assert rule.decide("vidoe").replacement == "video"  # the corpus settles it first
    assert rule.decide("didnt").rule == "flagged"  # "didn" is no word
    assert rule.decide("wierdo").rule == "flagged"  # the list's word is not in the dictionary
    assert ranked_rule(stats, more_words={"rhythm", "video"}).decide("rythm").rule == "flagged"  # no list, no change


def test_the_list_overrules_a_token_kept_as_a_plural_an_inflection_or_a_domain_word(ranked_rule):
    listed = {"heros": "heroes", "occured": "occurred", "speach": "speech"}
    stats = {"heros": (6, 6), "occured": (1, 1), "speach": (14, 14), "speech": (10, 8)}
    words = {"hero", "heroes", "occur", "occurred", "speech"}
    without_list = ranked_rule(stats, more_words=words)
    assert [without_list.decide(t).rule for t in ("heros", "occured", "speach")] == ["plural", "inflected", "domain"]
    rule = ranked_rule(stats, common_misspellings=listed, more_words=words)
    assert [rule.decide(t).replacement for t in ("heros", "occured", "speach")] == ["heroes", "occurred", "speech"]
    assert rule.decide("heros").rule == "misspelling_list"


def test_every_mapping_target_is_a_word_the_default_profile_accepts():
    """Otherwise the ranked rule could turn a mapped word back into the misspelling it replaced."""
    from pipelines.config import load_config
    from transforms.spelling import open_hunspell, read_mapping

    spelling = load_config("default").spelling
    checker = open_hunspell(spelling.hunspell_dictionary, (), spelling.vocabulary)
    for mapping in (spelling.british_to_american, spelling.splits):
        for target in read_mapping(mapping).values():
            for word in target.split():
                assert checker.spell(word) or checker.spell(word.capitalize()), (mapping, target)


def test_spellers_of_one_configuration_share_hunspell_and_its_answers():
    # Step II and the recheck rounds build a Speller each, on other figures: Hunspell's answers are the same.
    from pipelines.config import load_config
    from transforms.spelling import Speller, WordLists

    settings = load_config("default").spelling
    stats = {"man": (40, 30), "runs": (12, 10), "running": (30, 20)}
    first = Speller(settings, WordLists.read(settings), stats, {})
    second = Speller(settings, WordLists.read(settings), {**stats, "running": (2, 2)}, {})
    assert first._checker is second._checker and first.rule.dictionary is second.rule.dictionary
    first.correct("a man is runing")
    asked = second._plain_word.cache_info().misses
    second.correct("a man is runing")
    assert second._plain_word.cache_info().misses == asked  # the second asks Hunspell nothing the first asked


def test_a_remembering_dictionary_asks_hunspell_once_per_word(fake_hunspell):
    from transforms.spelling.hunspell import RememberingDictionary

    asked = []
    checker = fake_hunspell(fake_hunspell.LOWERCASE)
    spell = checker.spell
    checker.spell = lambda word: asked.append(word) or spell(word)
    dictionary = RememberingDictionary(checker)
    assert [dictionary.accepts(word) for word in ("girl", "girl", "zzq", "zzq")] == [True, True, False, False]
    assert asked == ["girl", "zzq"]
