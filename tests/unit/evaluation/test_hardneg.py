"""Hard negatives of hand-tagged captions, with a stand-in lexicon: priority of the sources, K, the
vocabulary fallback, no false negatives, exactly the stated tokens changed, the same bytes per seed."""
from dataclasses import replace

import random

from transforms.evaluation.hardneg import (CaptionText, HardnegSettings, NegativeColumns, NegativePicker,
                                           add_video_negatives, build_vocabulary, draw_word_negatives, lexicon_words,
                                           same_text, video_negatives)
from transforms.evaluation.lexicon import Lexicon, inflect_like
from transforms.evaluation.pos import TaggedCaption


def tagged(sen_id, words, video_id="video1"):
    """A caption from (token, universal pos, penn tag, lemma) tuples, one space between tokens."""
    tokens, pos, tags, lemmas = zip(*words)
    return TaggedCaption(sen_id, video_id, "test", " ".join(tokens), tokens, pos, tags, lemmas,
                         tuple([True] * (len(tokens) - 1) + [False]))


MAN_OPENING_DOOR = [("a", "DET", "DT", "a"), ("man", "NOUN", "NN", "man"), ("is", "AUX", "VBZ", "be"),
                    ("opening", "VERB", "VBG", "open"), ("a", "DET", "DT", "a"), ("door", "NOUN", "NN", "door")]


class StandInLexicon(Lexicon):
    """A Lexicon whose antonyms come from these dicts instead of WordNet; it inflects with lemminflect."""
    ANTONYMS = {("open", "VERB"): ["close", "shut"], ("man", "NOUN"): ["woman"]}
    RELATED = {("man", "NOUN"): ["child", "girl"], ("door", "NOUN"): ["window"]}

    def __init__(self):
        super().__init__(None, {})

    def _look_up_antonyms(self, lemma, pos):
        return self.ANTONYMS.get((lemma, pos), [])

    def _look_up_related_antonyms(self, lemma, pos):
        return self.RELATED.get((lemma, pos), [])


VOCABULARY = {"NOUN": ("cat", "car", "dog", "door", "man", "tree"), "VERB": ("jump", "open", "sing", "walk")}
WORDS_ONLY = HardnegSettings(k=20, parts=("noun", "verb"), vocabulary_fallback=())


def negatives(captions, settings=WORDS_ONLY, vocabulary=VOCABULARY):
    return video_negatives(captions, StandInLexicon(), vocabulary, settings)


def test_antonyms_come_first_then_antonyms_of_related_words_inflected_like_the_original():
    found = negatives([tagged(7, MAN_OPENING_DOOR)])
    verbs = [n for n in found if n.part == "verb"]
    assert sorted(n.text for n in verbs) == ["a man is closing a door", "a man is shutting a door"]
    assert {n.source for n in verbs} == {"antonym"}
    nouns = [(n.text, n.source) for n in found if n.part == "noun"]
    assert nouns[0] == ("a woman is opening a door", "antonym")
    assert sorted(nouns[1:]) == [("a child is opening a door", "related_antonym"),
                                 ("a girl is opening a door", "related_antonym"),
                                 ("a man is opening a window", "related_antonym")]
    assert [n.k for n in found if n.part == "noun"] == [0, 1, 2, 3]
    assert found[0].negative_id == f"7-{found[0].part}-word-0"


def test_each_negative_changes_exactly_its_stated_tokens():
    caption = tagged(7, MAN_OPENING_DOOR)
    settings = replace(WORDS_ONLY, vocabulary_fallback=("noun", "verb"), levels=("word", "phrase"))
    for negative in negatives([caption], settings):
        changed = [i for i, (a, b) in enumerate(zip(caption.tokens, negative.text.split(" "))) if a != b]
        assert tuple(changed) == negative.positions, negative
        assert negative.originals == tuple(caption.tokens[i] for i in changed)
        assert negative.replacements == tuple(negative.text.split(" ")[i] for i in changed)
        assert len(negative.text.split(" ")) == len(caption.tokens)


def test_a_negative_never_reads_as_a_caption_of_the_same_video():
    video = [tagged(7, MAN_OPENING_DOOR),
             tagged(8, [("A", "DET", "DT", "a"), ("man", "NOUN", "NN", "man"), ("is", "AUX", "VBZ", "be"),
                        ("closing", "VERB", "VBG", "close"), ("a", "DET", "DT", "a"), ("door", "NOUN", "NN", "door")])]
    texts = {same_text(n.text) for n in negatives(video) if n.sen_id == 7}
    assert "a man is shutting a door" in texts
    assert "a man is closing a door" not in texts  # caption 8, in other case: a false negative


def test_k_bounds_the_negatives_and_the_vocabulary_fills_up_to_it_only_where_allowed():
    caption = tagged(7, MAN_OPENING_DOOR)
    settings = HardnegSettings(k=3, parts=("noun", "verb"), vocabulary_fallback=("verb",))
    found = negatives([caption], settings)
    assert sum(n.part == "noun" for n in found) == 3  # four lexical nouns, K = 3
    assert {n.source for n in found if n.part == "noun"} <= {"antonym", "related_antonym"}
    verbs = [n for n in found if n.part == "verb"]
    assert len(verbs) == 3 and [n.source for n in verbs] == ["antonym", "antonym", "vocabulary"]
    assert verbs[2].replacements[0] in {"jumping", "singing", "walking"}
    without_fallback = negatives([caption], replace(settings, vocabulary_fallback=()))
    assert sum(n.part == "verb" for n in without_fallback) == 2


def test_the_same_seed_gives_the_same_negatives_in_any_order_and_another_seed_other_draws():
    captions = [tagged(sen_id, MAN_OPENING_DOOR) for sen_id in range(5)]
    settings = HardnegSettings(k=6, parts=("noun", "verb"))
    first = negatives(captions, settings)
    by_id = lambda found: sorted(found, key=lambda n: n.negative_id)  # noqa: E731
    assert by_id(negatives(list(reversed(captions)), settings)) == by_id(first)
    assert negatives(captions, settings) == first
    other = negatives(captions, replace(settings, seed=1))
    assert [n.text for n in other] != [n.text for n in first]


def test_phrase_negatives_change_a_word_of_the_part_and_the_next_content_word():
    caption = tagged(7, MAN_OPENING_DOOR)
    settings = HardnegSettings(k=20, parts=("verb",), levels=("phrase",), vocabulary_fallback=())
    found = negatives([caption], settings)
    # "opening" (3) and "a" (4, a determiner) do not make a phrase; nothing else is a verb.
    assert found == []
    noun_phrase = HardnegSettings(k=20, parts=("noun",), levels=("phrase",), vocabulary_fallback=("noun",))
    caption = tagged(9, [("man", "NOUN", "NN", "man"), ("opening", "VERB", "VBG", "open"),
                         ("door", "NOUN", "NN", "door")])
    found = negatives([caption], noun_phrase)
    assert found and all(n.positions == (0, 1) for n in found)
    # Both words' antonyms first (man/woman with open/close and open/shut), in a seeded order.
    assert {n.text for n in found[:2]} == {"woman closing door", "woman shutting door"}
    assert [n.source for n in found[:2]] == ["antonym", "antonym"]
    # Then a related antonym of "man" (child, girl) with an antonym of "opening": the pair's source
    # is its weaker word's; then random words of the vocabulary.
    assert [n.source for n in found[2:6]] == ["related_antonym"] * 4
    assert all(n.source == "vocabulary" for n in found[6:]) and len(found) > 6


def test_the_vocabulary_keeps_words_seen_often_enough_with_their_part_of_speech():
    captions = [tagged(i, MAN_OPENING_DOOR) for i in range(3)] + [tagged(9, [("dor", "NOUN", "NN", "dor")])]
    vocabulary = build_vocabulary(captions, min_count=3)
    assert vocabulary["NOUN"] == ("door", "man") and vocabulary["VERB"] == ("open",)
    assert "dor" not in vocabulary["NOUN"]


def test_the_records_hold_their_tables_columns_in_order():
    # pipelines/evaluation/hardneg/graph.py writes a record as a tuple in the schema's column order.
    from dataclasses import fields

    from schemas.evaluation_tables import HARDNEG, POS
    from transforms.evaluation.hardneg import Negative

    assert [field.name for field in fields(TaggedCaption)] == POS.names
    assert [field.name for field in fields(Negative)] == HARDNEG.names


def test_a_caption_text_with_words_changed_is_the_captions_text_with_them():
    caption = TaggedCaption(1, "video1", "test", "A man  opens it.", ("A", "man", " ", "opens", "it", "."),
                            ("DET", "NOUN", "SPACE", "VERB", "PRON", "PUNCT"), ("DT", "NN", "_SP", "VBZ", "PRP", "."),
                            ("a", "man", " ", "open", "it", "."), (True, True, False, True, False, False))
    text = CaptionText(caption)
    for positions, words in [((0,), ("The",)), ((1,), ("woman",)), ((5,), ("!",)), ((1, 3), ("boy", "shuts"))]:
        assert text.with_words(positions, words) == caption.text_with(dict(zip(positions, words)))
    assert text.with_words((1,), ("woman",)) == "A woman  opens it."


def test_the_lexicon_words_are_the_alphabetic_words_of_the_changed_parts():
    caption = tagged(7, MAN_OPENING_DOOR + [("on", "ADP", "IN", "on"), ("TV2", "NOUN", "NN", "tv2"),
                                            ("quickly", "ADV", "RB", "quickly"), ("red", "ADJ", "JJ", "red")])
    assert lexicon_words([caption]) == {("man", "NOUN"), ("open", "VERB"), ("door", "NOUN"), ("on", "ADP"),
                                        ("quickly", "ADV"), ("red", "ADJ")}


def test_the_vocabulary_draws_pick_as_rng_choice_picks():
    # draw_word_negatives inlines Random.choice (for speed); the words drawn must stay those rng.choice
    # draws, whatever the number of positions and of vocabulary words (powers of two, one, odd counts); a
    # draw of the word's own lemma, or of a text already picked, is spent without a negative.
    caption = tagged(7, [("A", "DET", "DT", "a")] + MAN_OPENING_DOOR[1:])
    for positions in ([1], [1, 5], [0, 1, 5], [0, 1, 3, 5]):
        for size in (1, 2, 3, 4, 5, 17, 64, 1000):
            choices = tuple(sorted(["man", "door"] + [f"word{index}" for index in range(size - 2)]))[:size]
            rng, seen, expected = random.Random(f"0:{size}"), {same_text(caption.caption)}, []
            for _ in range(50):
                position, lemma = rng.choice(positions), rng.choice(choices)
                if lemma == caption.lemmas[position]:
                    continue
                word = inflect_like(lemma, caption.tags[position])
                word = word.capitalize() if position == 0 else word
                text = caption.text_with({position: word})
                if same_text(text) not in seen:
                    seen.add(same_text(text))
                    expected.append((position, word, text))
            for k in (1000, 3):
                picked = NegativePicker(caption, k, frozenset())
                draw_word_negatives(picked, CaptionText(caption), positions, choices, random.Random(f"0:{size}"),
                                    StandInLexicon(), 50)
                assert list(zip(picked.positions, picked.replacements, picked.texts)) == expected[:k]
                assert picked.sources == ["vocabulary"] * len(expected[:k])
                assert picked.widths == [1] * len(expected[:k])


def test_the_columns_give_the_records_of_every_caption_part_and_level_in_order():
    video = [tagged(7, MAN_OPENING_DOOR), tagged(8, MAN_OPENING_DOOR[:4])]
    settings = replace(WORDS_ONLY, k=3, vocabulary_fallback=("noun",), levels=("word", "phrase"))
    columns = NegativeColumns()
    add_video_negatives(lambda caption: columns, video, StandInLexicon(), VOCABULARY, settings)
    records = columns.records()
    assert len(records) == len(columns) == len(columns.texts)
    assert [(n.sen_id, n.part, n.level) for n in records] == sorted(
        [(n.sen_id, n.part, n.level) for n in records],
        key=lambda key: (key[0], ("word", "phrase").index(key[2]), ("noun", "verb").index(key[1])))
    for negative in records:
        assert negative.negative_id == f"{negative.sen_id}-{negative.part}-{negative.level}-{negative.k}"
        caption = video[0] if negative.sen_id == 7 else video[1]
        assert negative.originals == tuple(caption.tokens[position] for position in negative.positions)
        assert len(negative.positions) == (1 if negative.level == "word" else 2)
