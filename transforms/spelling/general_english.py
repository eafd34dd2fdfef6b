"""General English beside the corpus: word frequencies (wordfreq) and a symmetric-delete index of the
candidate words (symspellpy), for the close words of a token and the segmentation of a run-together one.

MSR-VTT writes many ordinary words too rarely to be candidates ("thermostat", "recklessly"), and its
counts say nothing of how common a word is in English. wordfreq's English list (many sources, in the
package) says it, as a Zipf value: log10 of a word's frequency per billion words (3 is once per
million; "the" is 7.7, "restaurant" 4.7, a typo such as "excersice" 0). symspellpy finds every indexed
word within an edit distance of a token (optimal string alignment, as the rule counts edits) by
looking up the token's deletes, and splits a run-together token into the likeliest words.
"""
import re
from functools import lru_cache
from typing import Callable, Optional

# Digits run into the word after them ("1cup", "2pets"): only a word of three letters or more, so that
# ordinals, decades, times and units stay as written ("5th", "90s", "3pm", "4k"). A word run into digits
# ("gta5", "victory1", "view47") is as often a name, a title or a user name: it stays.
DIGITS_AND_WORD = re.compile(r"^(?P<number>[0-9]+)(?P<word>[a-z]{3,})$")
# Words a caption runs into the word before it ("lakeon", "settwo", "womanher"): function words, pronouns
# and numbers, which no compound ends in ("a" and "an" end names: "rusha" is Russia). Those that begin compounds ("in", "on", "up", "out", "over":
# "inpacking" is "unpacking") are not taken before a word; RUN_ON_FIRST_WORDS are.
RUN_ON_WORDS = frozenset("""
the and or but then than is are was were be been has have had it its he she him her his they them their
we you your on in at of to for with from by as into onto about some many very only one two three four five six
seven eight nine ten this that these those there here while when who which also now just
""".split())
RUN_ON_FIRST_WORDS = frozenset("""
the and then is are was were it he she they we you his her their about some many very only one two three four
five six seven eight nine ten this that these those there while when who also just
""".split())

NUMBER_WORDS = frozenset("one two three four five six seven eight nine ten".split())


@lru_cache(maxsize=500_000)  # asked for the same tokens and candidates over and over
def zipf(word: str) -> float:
    """How common `word` is in English (wordfreq's Zipf value, 0 for a word it has never seen); a phrase
    weighs as its rarest word."""
    from wordfreq import zipf_frequency

    return min(zipf_frequency(part, "en") for part in word.split()) if word.strip() else 0.0


def common_english_words(min_zipf: float, accepts: Callable) -> dict:
    """word -> Zipf value of wordfreq's English words at least `min_zipf` common, made of ASCII letters,
    that `accepts` (Hunspell with the vocabulary)."""
    from wordfreq import iter_wordlist

    words = {}
    for word in iter_wordlist("en"):  # most common first
        value = zipf(word)
        if value < min_zipf:
            break
        if word.isalpha() and word.isascii() and accepts(word):
            words[word] = value
    return words


class WordIndex:
    """The words a token may stand for, found by symspellpy's symmetric deletes.

    `words`: word -> how common it is (a count; any positive scale: segmentation prefers the likelier
    split). Built once per worker (hunspell.shared); a lookup costs well under a millisecond.
    """

    def __init__(self, words: dict, max_distance: int):
        from symspellpy import SymSpell

        self.max_distance = max_distance
        self._index = SymSpell(max_dictionary_edit_distance=max_distance)
        for word, count in sorted(words.items()):
            self._index.create_dictionary_entry(word, max(int(count), 1))

    def __contains__(self, word: str) -> bool:
        return word in self._index.words

    def close(self, token: str, max_distance: int) -> list:
        """(word, distance) of every indexed word within `max_distance` of `token` (the token itself, if
        indexed, at distance 0), closest first."""
        from symspellpy import Verbosity

        found = self._index.lookup(token, Verbosity.ALL, min(max_distance, self.max_distance))
        return sorted(((item.term, item.distance) for item in found), key=lambda pair: (pair[1], pair[0]))

    def segment(self, token: str) -> list:
        """The likeliest words `token` runs together, as written (no letter changed): one word if none."""
        return self._index.word_segmentation(token, max_edit_distance=0).segmented_string.split()


def digits_and_word(token: str) -> tuple:
    """("1", "cup") for "1cup"; () when the token is not digits and then a word."""
    match = DIGITS_AND_WORD.match(token)
    return (match["number"], match["word"]) if match else ()


def past_given_ed(token: str) -> Optional[str]:
    """'stucked' -> 'stuck', 'maded' -> 'made', 'jumpeded' -> 'jumped': a past tense or participle given the
    regular ending once more (lemminflect's English inflections); None for any other token. A form that is
    also a verb of its own ("found", "fell": "founded", "felled") is left alone."""
    from lemminflect import getInflection, getLemma

    if not token.endswith("ed"):
        return None
    for stem in (token[:-2], token[:-1]):
        lemmas = getLemma(stem, upos="VERB") if len(stem) >= 3 else ()
        if lemmas and stem not in lemmas and any(
                stem in getInflection(lemma, "VBD") + getInflection(lemma, "VBN") for lemma in lemmas):
            return stem
    return None


def is_plausible_english_typo(token: str, word: str, distance: int) -> bool:
    """typos.is_plausible_typo, and a silent e added to a long word ("thermostate"): the corpus's words
    with a letter added at the end are more often names or run-ons, English words so written are not."""
    from transforms.spelling.typos import is_plausible_typo

    return is_plausible_typo(token, word, distance) or (token == word + "e" and len(word) >= 6)


def same_ending(token: str, word: str) -> bool:
    """A plural stays a plural, a past a past, an -ing an -ing: "occurences" is not "occurrence", nor
    "unravled" "unravel"."""
    return all(token.endswith(ending) == word.endswith(ending) for ending in ("s", "ed", "ing", "ly"))


class EnglishWords:
    """wordfreq's common English words that Hunspell accepts (word -> Zipf value), and their WordIndex,
    whose counts are the words' frequencies per billion (10 ** Zipf), for the segmentation.
    `mapped`: the words a mapping rewrites, which no candidate may be."""

    def __init__(self, accepts: Callable, mapped: frozenset, min_zipf: float, max_distance: int):
        self.zipf = {word: value for word, value in common_english_words(min_zipf, accepts).items()
                     if word not in mapped}
        self.index = WordIndex({word: 10 ** value for word, value in self.zipf.items()}, max_distance)

    def close(self, token: str, max_distance: int) -> list:
        """(word, distance, Zipf value) of the common English words within `max_distance` of `token`."""
        return [(word, distance, self.zipf[word]) for word, distance in self.index.close(token, max_distance)]
