"""Step IV's `parse` rule: pre-filter, boundary rule, policies, ids, and the dev-set floors."""
import pytest

from pipelines.config import ConfigError, config_from_dict, load_config
from transforms.batch import Caption, VideoBatch
from transforms.runon import apply_policy, load_spacy, max_sen_id, new_sen_id, sentence_finder
from transforms.sentences import BoundaryRule, Prefilter, boundary_words, is_candidate, split_at
from transforms.sentences_lexicon import load_lexicon

PREFILTER = Prefilter(load_lexicon())

# Real MSR-VTT captions (and the examples): one sentence each.
ONE_SENTENCE = [
    "a man is showing how you can hold a phone in a vest he is wearing",
    "a very drunk woman asks a man if he is wearing a wizard hat then tells people to vote for her for lobster queen",
    "a boy with a headset speaks of the video game he is playing",
    "a young man discusses a new puppy he is transporting",
    "a man holds a big plate of food and he weighs 910 pounds",
    "city busses drive around while a female narrator discusses how easy it is to use the bus system",
    "a person saying you should have pedialyte on hand in case a puppy becomes dehydrated",
    "on a straight road a man rides on a new model bike with so much of facilities",
    "men kick a soccer ball at a goal tender who has his back turned to them",
    "a woman is telling her friends she is going to the party tonight",
]
# Real run-ons: the sentences as a careful annotator splits them.
RUN_ONS = [
    ["a girl is playing with a doll and baby dolls", "she is pretending they can talk and has to change their diapers"],
    ["a cat is afraid of an stuffed animal", "he is trying to figure it out"],
    ["a woman s hands place uncooked shrimp into a glass bowl", "she pours a measuring cup full of juice on top of the shrimp"],
    ["there is a guy in a church", "he wants salvation"],
    ["a tree with fresh green leaves in a forest", "it has grown very tall"],
    ["it starts off with a man laying on the floor", "then it goes into showing two hockey players fighting"],
    ["a woman in red is standing with a group of people", "a woman with blonde hair is slowly raising her head"],
]


@pytest.fixture(scope="module")
def nlp():
    return load_spacy()


@pytest.fixture(scope="module")
def find(nlp):
    return sentence_finder(nlp, load_config("default").runon)


def test_prefilter_lets_through_captions_with_a_second_unjoined_clause():
    assert is_candidate("a cat is afraid of an stuffed animal he is trying to figure it out", PREFILTER)
    assert is_candidate("a woman with blonde hair is standing near a car a man is opening its door", PREFILTER)


def test_prefilter_turns_away_short_joined_or_single_clause_captions():
    assert not is_candidate("a man talks he sings", PREFILTER)  # fewer than 7 words
    assert not is_candidate("a man is playing a guitar on a stage in a park", PREFILTER)
    assert not is_candidate("a man is cooking in a kitchen and he is talking", PREFILTER)
    assert not is_candidate("a woman is talking while she is cooking some food", PREFILTER)


@pytest.mark.parametrize("sentences", RUN_ONS, ids=lambda s: s[0][:30])
def test_the_rule_splits_real_run_ons_where_an_annotator_does(find, sentences):
    assert find([" ".join(sentences)]) == [sentences]


@pytest.mark.parametrize("caption", ONE_SENTENCE, ids=lambda c: c[:30])
def test_the_rule_leaves_one_sentence_captions_whole(find, caption):
    assert find([caption]) == [[caption]]


# --- One test per named rule, with hand-made captions (README, step IV) --------------------------------------


def test_rule_pronoun_verb_lets_through_a_verb_the_word_list_lacks():
    caption = "the two players win the game then they show their country flag"
    assert "show" not in PREFILTER.finite_verbs  # only the rule can let it through
    assert is_candidate(caption, PREFILTER)
    # The word after the pronoun must be its verb: not a conjunction, "too", or a participle.
    assert not is_candidate("the old man and the boy and he and she walk", PREFILTER)
    assert not is_candidate("a woman sits in the park with her dog they playing", PREFILTER)


def test_rule_determiner_clause_lets_through_a_subject_after_a_fragment():
    assert is_candidate("a clip of a woman preparing food a person pours some oil", PREFILTER)
    assert is_candidate("we see four tomatoes on a vine a narrator talks", PREFILTER)
    # A determiner after a verb or a preposition opens an object, not a subject.
    assert not is_candidate("a man is holding a cup of tea in a kitchen with a smile", PREFILTER)
    assert not is_candidate("a boy with a hat walks down the road to the shop", PREFILTER)


def test_rule_fragment_then_clause_splits_after_a_fragment_with_a_verb(find):
    assert find(["a clip of a woman preparing food a person pours some liquid into a container"]) == [
        ["a clip of a woman preparing food", "a person pours some liquid into a container"]]
    # A fronted phrase without a verb is no sentence: already in ONE_SENTENCE ("on a straight road a man rides").
    caption = "on a straight road a man rides on a new model bike with so much of facilities"
    assert find([caption]) == [[caption]]


# Rules whose whole effect is to keep a caption whole: rule -> (why, a caption it keeps whole).
KEPT_WHOLE_BY_RULE = {
    "about-to": (
        "the object gap after 'about to'",
        "the woman talks about the ingredients for the dish she is about to cook"),
    "question-phrase": (
        "a clause after 'which' and a noun phrase",
        "a woman is explaining which flat iron extension she will use to straighten her hair"),
    "an-for-and": (
        "'an' before a determiner read as 'and'",
        "a man is cooking food an a baby is laughing"),
    "quote-after-speech": (
        "the words sung",
        "a band is singing i love rock and roll to a crowd"),
    "quote-after-speech, title": (
        "a song title after 'performing'",
        "a group of kids are performing we will rock you on a stage"),
}


@pytest.mark.parametrize("rule_name", KEPT_WHOLE_BY_RULE)
def test_rules_that_keep_a_clause_with_its_sentence(find, rule_name):
    _, caption = KEPT_WHOLE_BY_RULE[rule_name]
    assert find([caption]) == [[caption]]


def test_rule_no_gap_splits_a_passive_or_there_clause_after_a_noun(find):
    assert find(["a man is talking to another man a trailer for superman is shown"]) == [
        ["a man is talking to another man", "a trailer for superman is shown"]]
    assert find(["two frying pans are placed on a stove top there is a person in the kitchen"]) == [
        ["two frying pans are placed on a stove top", "there is a person in the kitchen"]]
    # A pronoun clause with a transitive verb and no object is still a reduced relative clause.
    caption = "a young man discusses a new puppy he is transporting"
    assert find([caption]) == [[caption]]


@pytest.fixture(scope="module")
def rule():
    from transforms.runon import rule_and_prefilter

    return rule_and_prefilter(load_config("default").runon)[0]


def parsed_split(nlp, rule, text):
    """The boundary rule alone (no pre-filter), as pieces."""
    return split_at(text, boundary_words(nlp(text), rule))


def test_rule_clause_verb_tag_reads_show_as_a_noun_when_tagged_so(nlp, rule):
    assert parsed_split(nlp, rule, "a young girl sings on a tv show a reality show is going on") == [
        "a young girl sings on a tv show", "a reality show is going on"]
    assert parsed_split(nlp, rule, "a man shows the kids how to draw a cat") == ["a man shows the kids how to draw a cat"]


def test_rule_open_ending_lets_a_unit_end_with_a_determiner_standing_alone(nlp, rule):
    assert parsed_split(nlp, rule, "a woman pours mix from one bowl to another a person is putting some food in a tray") == [
        "a woman pours mix from one bowl to another", "a person is putting some food in a tray"]


def test_rule_verb_ends_clause_after_a_passive_or_intransitive_participle(nlp, rule):
    assert parsed_split(nlp, rule, "a humorous trailer for a movie is being presented there is army training going on") == [
        "a humorous trailer for a movie is being presented", "there is army training going on"]
    assert parsed_split(nlp, rule, "a woman is talking she is talking to a camera about her day") == [
        "a woman is talking", "she is talking to a camera about her day"]
    # A participle that takes a clause keeps it: "is hoping he can".
    assert parsed_split(nlp, rule, "a man is hoping he can win the race today") == ["a man is hoping he can win the race today"]


def test_rule_parsed_relative_keeps_a_past_tense_relative_clause(find):
    caption = "a boy is luring in a fish he caught with his rod"
    assert find([caption]) == [[caption]]
    # A present tense after "noun + pronoun" is still a new sentence.
    assert find(["a man is laying down with a woman he tosses and turns on the bed in pain"]) == [
        ["a man is laying down with a woman", "he tosses and turns on the bed in pain"]]


def test_rule_pronoun_not_last_never_ends_a_sentence_with_a_subject_pronoun(nlp, rule):
    caption = "a group of kids are posing for a picture behind the name of the show they all starred in"
    assert parsed_split(nlp, rule, caption) == [caption]


def test_rule_title_after_work_keeps_a_title_after_the_movie(nlp, rule, find):
    caption = "a man is watching the movie the dark knight rises on a big screen"
    assert parsed_split(nlp, rule, caption) == [caption]
    assert find(["a band plays a song the characters argue over the winner"]) == [
        ["a band plays a song", "the characters argue over the winner"]]


def test_rule_condition_clause_keeps_a_long_subordinate_clause_with_its_main_clause(find):
    for caption in ["in a grocery store a man grabs an item and when he gets back to his shopping cart it s different",
                    "while one animated figure is talking other animated figures are shown in various scenes"]:
        assert find([caption]) == [[caption]]


def test_rule_fragment_then_clause_without_a_verb_needs_a_long_phrase_and_no_the(find):
    assert find(["a short clip of a music video a man sings into a microphone"]) == [
        ["a short clip of a music video", "a man sings into a microphone"]]
    caption = "a doll of ariel the little mermaid sits still on a plastic rock"
    assert find([caption]) == [[caption]]


def test_boundaries_fall_only_between_whitespace_words(nlp):
    # spaCy splits "100%" and "$5" into two tokens; no boundary may fall inside a word.
    doc = nlp("a man sells 100% cotton shirts for $5 he is happy about it")
    words = doc.text.split()
    assert all(0 < b < len(words) for b in boundary_words(doc, BoundaryRule()))


def test_split_at_gives_back_the_caption_when_joined():
    text = "a cat is afraid he is trying to figure it out"
    assert split_at(text, [4]) == ["a cat is afraid", "he is trying to figure it out"]
    assert split_at(text, []) == [text]
    assert split_at(text, [0, 4, 4, 99]) == ["a cat is afraid", "he is trying to figure it out"]
    for cuts in ([1], [2, 5], [3, 6, 9]):
        assert " ".join(split_at(text, cuts)) == text


def batch(split="train"):
    return VideoBatch("video1", split, 0, [Caption(3, "a b c d e f"), Caption(7, "g h i")])


SPLIT = [["a b c", "d e", "f"], ["g h i"]]


def test_policy_first_keeps_the_first_sentence_and_records_the_rest():
    result = apply_policy(batch(), SPLIT, "first")
    assert [(c.sen_id, c.text) for c in result.captions] == [(3, "a b c"), (7, "g h i")]
    assert result.edits == [{"sen_id": 3, "video_id": "video1", "step": "runon", "rule": "parse:first",
                             "before": "a b c d e f", "after": "a b c"}]
    assert result.runon == [{"sen_id": 3, "video_id": "video1", "split": "train", "sentences": ["a b c", "d e", "f"],
                             "policy": "first", "action": "kept the first of 3 sentences", "new_sen_ids": []}]


def test_policy_separate_makes_one_caption_per_sentence_with_new_ids():
    result = apply_policy(batch(), SPLIT, "separate", id_stride=100)
    assert [(c.sen_id, c.text) for c in result.captions] == [(3, "a b c"), (7, "g h i"), (103, "d e"), (203, "f")]
    assert result.runon[0]["new_sen_ids"] == [103, 203]
    assert result.runon[0]["action"] == "made 3 captions"


def test_policy_whole_changes_no_caption():
    result = apply_policy(batch(), SPLIT, "whole")
    assert result.captions == batch().captions and result.edits == []
    assert result.runon[0]["sentences"] == ["a b c", "d e", "f"] and result.runon[0]["new_sen_ids"] == []


def test_new_ids_are_above_every_input_id_and_never_collide():
    inputs = range(0, 50)
    stride = max(inputs) + 1
    made = [new_sen_id(sen_id, piece, stride) for sen_id in inputs for piece in (1, 2, 3)]
    assert len(set(made)) == len(made)
    assert min(made) > max(inputs)


def test_max_sen_id_counts_removed_captions_too():
    video = VideoBatch("video1", "train", 0, [Caption(3, "a b")],
                       removed=[{"sen_id": 9}, {"sen_id": None}])
    assert max_sen_id(video) == 9


def test_config_rejects_an_unknown_policy_or_rule():
    with pytest.raises(ConfigError, match="runon.policy"):
        config_from_dict({"runon": {"rule": "parse", "policy": "both"}})
    with pytest.raises(ConfigError, match="runon.rule"):
        config_from_dict({"runon": {"rule": "split"}})


def test_profiles_keep_truncate_for_paper_and_the_model_for_default():
    assert load_config("paper").runon.rule == "truncate"
    default = load_config("default").runon
    assert (default.rule, default.policy) == ("model", "first")


# Floors a little under what benchmarks/runon_devset.py prints for the default settings. The rule was developed on
# samples 1 to 7; `held-out` (samples 12 and 13) was labelled blind and scored once before it joined (README, step IV).
FLOORS = {
    "first": {"precision": 0.88, "recall": 0.75, "false_split_rate": 0.015},
    "second": {"precision": 0.84, "recall": 0.67, "false_split_rate": 0.01},
    "held-out": {"precision": 0.80, "recall": 0.38, "false_split_rate": 0.02},
    "synthetic": {"precision": 0.93, "recall": 0.35, "false_split_rate": 0.005},
}


@pytest.mark.parametrize("name", ["first", "second", "held-out", "synthetic"])
def test_floors_on_the_dev_sets(find, msrvtt_dir, name):
    from benchmarks.runon_devset import HELD_OUT, load_devset, predict, score, synthetic_devset, train_videos_captions

    if name == "synthetic":
        rows = synthetic_devset(train_videos_captions(msrvtt_dir))
    else:
        rows = load_devset(sample={"first": "1", "second": "2", "held-out": HELD_OUT}[name])
    figures = score(rows, predict(find, [text for text, _ in rows]))
    floors = FLOORS[name]
    assert figures["precision"] >= floors["precision"]
    assert figures["recall"] >= floors["recall"]
    assert figures["false_split_rate"] <= floors["false_split_rate"]


def test_the_dev_set_holds_forty_one_disjoint_samples():
    from benchmarks.runon_devset import DEVSET, SAMPLE_NAMES

    rows = [line.split("\t") for line in DEVSET.read_text(encoding="utf-8").splitlines()[1:]]
    # 14 to 17 and 46 to 49 are held-out sets of the boundary model, kept outside the repo.
    assert list(SAMPLE_NAMES) == [*map(str, range(1, 14)), *map(str, range(18, 46))]
    samples = {sample: {row[0] for row in rows if row[2] == sample} for sample in SAMPLE_NAMES}
    assert {row[2] for row in rows} == set(samples)
    assert all(len(ids) >= 150 for ids in samples.values())
    assert sum(map(len, samples.values())) == len({row[0] for row in rows})  # no caption in two samples


def test_the_dev_set_labels_give_back_their_captions():
    from benchmarks.runon_devset import DEVSET, labelled, load_devset

    rows = load_devset()
    assert len(rows) >= 150 and sum(1 for _, boundaries in rows if boundaries) >= 25
    for line in DEVSET.read_text(encoding="utf-8").splitlines()[1:]:
        text, boundaries = labelled(line.split("\t")[3])
        assert " ".join(line.split("\t")[3].replace(" | ", " ").split()) == text and all(boundaries)


# --- Rules added for the misses of the second sample (issue 4) ------------------------------------------------


def test_rule_then_after_pronoun_is_no_reduced_relative_clause(nlp, rule):
    assert parsed_split(nlp, rule, "a man is reading a word on a word search he then prepares to eat with a child") == [
        "a man is reading a word on a word search", "he then prepares to eat with a child"]


def test_rule_noun_tagged_in_lets_a_unit_end_with_a_noun_tagged_as_a_preposition(nlp, rule):
    caption = "two boys are playing rugby a man kicks the ball"
    assert nlp(caption)[4].tag_ == "IN"  # the tagger's error the rule answers
    assert parsed_split(nlp, rule, caption) == ["two boys are playing rugby", "a man kicks the ball"]


def test_rule_subject_after_verb_splits_before_a_subject_pronoun_after_a_verb(nlp, rule):
    assert parsed_split(nlp, rule, "a man is cooking he is adding salt to the pot") == [
        "a man is cooking", "he is adding salt to the pot"]
    # Not after a verb that takes a clause without "that".
    assert parsed_split(nlp, rule, "a man is betting he can eat the whole pizza") == [
        "a man is betting he can eat the whole pizza"]


def test_rule_condition_answered_splits_after_a_subordinate_clause_and_its_main_clause(nlp, rule):
    assert parsed_split(nlp, rule, "a man is jogging and while running he is breathing hard and his legs are moving "
                                   "it is good for his heart") == [
        "a man is jogging and while running he is breathing hard and his legs are moving", "it is good for his heart"]


def test_rule_noun_tagged_verb_reads_a_listed_verb_tagged_as_a_plural_noun_as_a_verb(nlp, rule):
    caption = "we see three apples on a tree a narrator talks about the apple harvest"
    assert nlp(caption)[9].tag_ == "NNS"  # the tagger's error the rule answers
    assert parsed_split(nlp, rule, caption) == [
        "we see three apples on a tree", "a narrator talks about the apple harvest"]
    # After a verb or an adjective the phrase is an object.
    caption = "a man reviews top 10 tv shows in german"
    assert parsed_split(nlp, rule, caption) == [caption]


def test_rule_with_subject_lets_through_a_subject_with_a_with_phrase():
    assert is_candidate("a man sits on a bench near a lake a girl with long red hair and a hat is singing", PREFILTER)
    # The verb must follow the phrase, not be an -ing form inside it.
    assert not is_candidate("a man sits on a bench near a lake a girl with a dog running around", PREFILTER)


def test_rule_modal_relative_keeps_a_modal_clause_on_the_noun_before(nlp, rule):
    caption = "the coach talks to the players about the route they should run during the game"
    assert parsed_split(nlp, rule, caption) == [caption]


def test_rule_make_not_before_subject_splits_before_a_subject_pronoun_after_make(nlp, rule):
    assert parsed_split(nlp, rule, "a cook is showing the spices for the soup she will make she explains each one") == [
        "a cook is showing the spices for the soup she will make", "she explains each one"]


def test_rule_fronted_subordinate_opens_the_sentence_at_the_subordinator(nlp, rule):
    assert parsed_split(nlp, rule, "this video shows some funny cats in a garden if we want we can share it") == [
        "this video shows some funny cats in a garden", "if we want we can share it"]
    assert parsed_split(nlp, rule, "a man stands next to a tree in the rain when the storm ends he walks home") == [
        "a man stands next to a tree in the rain", "when the storm ends he walks home"]


def test_rule_condition_clause_holds_a_clause_after_an_opening_as(nlp, rule):
    caption = "as the man gets the signal from his coach he starts riding his bike"
    assert parsed_split(nlp, rule, caption) == [caption]


def test_rule_phrase_before_auxiliary_finds_the_subject_the_parser_made_an_object(nlp, rule):
    assert parsed_split(nlp, rule, "one person painting a wall two persons are dancing in the room") == [
        "one person painting a wall", "two persons are dancing in the room"]
    # A number and a measure noun are no subject.
    caption = "a woman who won the race four times is interviewed on tv"
    assert parsed_split(nlp, rule, caption) == [caption]


def test_rule_its_for_it_is_reads_its_before_an_article_or_adverb_as_it_is(find):
    assert find(["a woman is painting a small wooden box its a gift for her mother"]) == [
        ["a woman is painting a small wooden box", "its a gift for her mother"]]
    caption = "a dog is chasing its tail in the green garden"
    assert find([caption]) == [[caption]]


def test_rule_then_scene_splits_before_then_and_a_noun_phrase_doing_something(find):
    assert find(["a boy riding a bike in the park then a dog chasing a ball then two girls dancing on a stage"]) == [
        ["a boy riding a bike in the park", "then a dog chasing a ball", "then two girls dancing on a stage"]]
    # Without a noun it is the same subject's next action.
    caption = "a man cutting an onion in half then slicing each half into pieces"
    assert find([caption]) == [[caption]]


def test_rule_then_subject_splits_before_then_and_a_subject(find):
    # With a verb the parse gave the first clause ...
    assert find(["a street with traffic shown first then a setting of custom made cars are being displayed"]) == [
        ["a street with traffic shown first", "then a setting of custom made cars are being displayed"]]
    # ... and a scene without a verb, after a fragment that opens with "then" itself.
    assert find(["men with guns stand over a person then a man in a lab coat in a room then a bald man outside"]) == [
        ["men with guns stand over a person", "then a man in a lab coat in a room", "then a bald man outside"]]
    # Before a verb, "then" joins two predicates of one subject.
    caption = "a woman talks on the phone for a while then texts a friend about the party"
    assert find([caption]) == [[caption]]
    # "and then" joins.
    caption = "a man is holding a piece of wood and then a man beside him talks as well"
    assert find([caption]) == [[caption]]


def test_prefilter_lets_through_then_before_a_subject():
    assert is_candidate("a street with traffic shown first then a setting of custom cars", Prefilter(frozenset()))
    assert not is_candidate("a man picks up a ball and then a bat from the grass", Prefilter(frozenset()))


def test_rule_scene_after_clause_splits_before_a_noun_phrase_doing_something(find):
    assert find(["two boys are playing football in a park another boy riding a bike on the road"]) == [
        ["two boys are playing football in a park", "another boy riding a bike on the road"]]
    # Two objects of one verb are one sentence.
    caption = "a woman is feeding two horses an apple standing in the field"
    assert find([caption]) == [[caption]]


def test_rule_in_case_reads_case_as_embedding_only_after_in(nlp, rule):
    assert parsed_split(nlp, rule, "a man discusses a difficult case he is talking about a thief") == [
        "a man discusses a difficult case", "he is talking about a thief"]


def test_rule_particle_ends_clause_lets_a_unit_end_with_a_preposition_without_object(nlp, rule):
    assert parsed_split(nlp, rule, "a woman is cooking with a voice over she is talking about pasta") == [
        "a woman is cooking with a voice over", "she is talking about pasta"]


def test_a_caption_of_always_parse_words_is_parsed_whatever_its_words():
    from dataclasses import replace

    from transforms.sentences import is_candidate

    # 23 words with no finite verb the word list knows and no clause-opening word.
    caption = "a view of the big city lights from the top of a tall tower at night with music and a slow camera pan"
    assert len(caption.split()) == 23 and not is_candidate(caption, PREFILTER)
    assert is_candidate(caption, replace(PREFILTER, always_parse_words=20))
    assert not is_candidate(caption, replace(PREFILTER, always_parse_words=24))
    assert not is_candidate("a red car", replace(PREFILTER, always_parse_words=2))  # min_words still holds
    one_clause = "a man is playing a guitar on a stage in a park with his friends"  # 15 words, no second clause
    run_on = "a cat is afraid of an stuffed animal he is trying to figure it out"
    assert not is_candidate(one_clause, PREFILTER) and is_candidate(run_on, PREFILTER)
    assert is_candidate(one_clause, replace(PREFILTER, always_parse_words=15))
    assert not is_candidate(one_clause, replace(PREFILTER, always_parse_words=16))
