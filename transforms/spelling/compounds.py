"""Compounds written apart: "game play", "some one", "in to", "make up", joined where the caption means the compound.

Annotators write many compounds as two words: "some one is cutting", "the game play of", "doing
her make up", "put it in to the blender". Each pair of neighbouring words x y whose join xy is a
word the dictionary accepts and the corpus writes far more often joined than apart
(`min_ratio` times, and at least `min_joined_count` times) is a candidate. But "make up a story",
"gives in to" and "every one of them" are two words, rightly. So each occurrence is decided by
which reading the corpus's two-word phrases make likelier between its neighbours p and n, a
small bigram model:

    joined:  P(xy | p) * P(n | xy)
    apart:   P(x | p) * P(y | x) * P(n | y)

with each P(b | a) smoothed towards b's share of all words (`SMOOTHING` words of it), so that a
phrase the corpus never writes counts as rare, not impossible. The pair is joined when the joined
reading is `margin` times likelier, and the corpus writes the compound beside p or n at least
`min_support` times (the same evidence the reviewed real-word list asks of a join). Every change
carries the counts it read (real_word.ContextEvidence) and the likelihood ratio, as columns of
`corrections/`.

Never candidates: a possessive or contraction split off ("guy s", "it s": the dataset's own way of
writing them, agreement.py reads the plurals among them), an article or a form of "be" ("a long
hair", "are a"), a one-letter word, and a word the profile's split list writes apart ("video
game"), so that the steps never undo each other. Each of the two words must be one the standard
dictionary accepts without the profile's vocabulary: a piece it rejects ("infor mation") is the
ranked rule's to decide, as every rejected token is, and one only the vocabulary knows is a domain
word annotators write alone ("nano technology", "lego sets"; the spelling dev set labels `nano` keep).

**General English beside the corpus** (`english_zipf`: word -> its Zipf frequency in English, from
wordfreq; None leaves it out). The corpus alone joins "back flip", which English writes apart as often as
solid: with `english_zipf`, a join the standard dictionary does not list must be a common English word
(Zipf at least `min_zipf`: "gameplay" 4.0 is, "backflip" 2.7 is not). And it joins two nouns the corpus
writes too rarely for the bigram model to judge ("hill side", "path way", "hand gun", "egg shells"): the
pair is a noun compound when the standard dictionary lists the join, English writes it at Zipf
NOUN_COMPOUND_MIN_ZIPF (2.4) or more, the corpus writes it joined at least `min_support` times and at
least as often as apart (a join it never writes is often a word of its own: "man handled", "show time"), and
each of the two words, never a closed-class word (CLOSED_CLASS: "call us", "knock down"), is a noun by the corpus (written after "the" or "a" at least `min_support` times and
at least as often as after "to", "are" or "is", never after "very", rarely after "it" or "he": so never
"make up", "in to", "home made", "may or", "red neck", "water falls"). Such a pair is joined in every
occurrence but one whose next word is the same join or a possessive `s`; rule `compound`, score None.
"""
import math
from functools import lru_cache, partial
from typing import Callable, Optional

from transforms.spelling.real_word import ContextEvidence, RealWordFix

# A phrase is smoothed towards its second word's share of all words, as if this many words followed the first.
SMOOTHING = 20.0
# Words never joined to a neighbour: articles, forms of "be", and the pieces the dataset writes for
# apostrophes ("guy s", "it s", "don t").
NEVER_JOINED = frozenset("a an the be is are was were am been s t d ll re ve m".split())
# "on" before "to" is most often an adverb of the verb before ("holds on to", "goes on to", "moves on to"),
# which two-word phrases cannot see: "onto" is left to the annotator. "the sun set" is as often a noun and
# its verb ("watches the sun set") as "sunset".
LEFT_APART = frozenset({("on", "to"), ("sun", "set")})
# A compound general English writes solid is written at least this often there (wordfreq's Zipf scale: log10
# of uses per billion words): "gameplay" 4.0, "hillside" 3.4, "eyeliner" 3.2; not "backflip" 2.7, "legos" 2.8.
ENGLISH_MIN_ZIPF = 3.0
# Two nouns are joined where English writes the join at least this often ("newscast" 2.7, "chalkboard" 2.8),
# the corpus at least min_support times and as often as the pair, and the standard dictionary lists it.
NOUN_COMPOUND_MIN_ZIPF = 2.4
# Closed-class words are never nouns, whatever the corpus writes before them ("call us", "knock down").
CLOSED_CLASS = frozenset("""
about above across after against along among around at before behind below beneath beside between beyond by
down during for from in inside into near of off on onto out outside over past through to toward towards under
up upon with within without i me my mine you your yours he him his she her hers it its we us our ours they
them their theirs this that these those and or but nor so yet if than then
""".split())
# What a noun is written after, and what a verb, a preposition or an adjective is (Compounds.is_noun).
NOUN_BEFORE = ("the", "a")
NOT_NOUN_BEFORE = ("to", "are", "is")
ADJECTIVE_BEFORE = "very"
# A word written after a subject pronoun in this share of its uses is (also) a verb: "the water falls over".
SUBJECTS = ("he", "she", "it", "who", "which")
VERB_SHARE = 0.02
# A word the corpus writes fewer times than this is a noun unless it is written after "to", "are" or "is"
# more often than after "the" or "a": most rare words are nouns ("eye liner", "mush room").
RARE_WORD_COUNT = 50


@lru_cache(maxsize=1)
def english_zipf() -> Callable:
    """word -> how common it is in English, on wordfreq's Zipf scale (log10 of uses per billion words).
    One per process: every Speller (step II and each recheck round) shares its remembered answers."""
    from wordfreq import zipf_frequency  # only with the compounds rule on
    return lru_cache(maxsize=200_000)(partial(zipf_frequency, lang="en"))


def phrase_log_probability(token_stats: dict, phrases: dict, total: int, word: str, following: str) -> float:
    """log P(following | word), smoothed towards `following`'s share of all `total` words (SMOOTHING); at the
    caption's start (no `word`) that share itself, and 0 at its end (no `following`)."""
    if not following:
        return 0.0
    share = max(token_stats.get(following, (0, 0))[0], 0.5) / total
    if not word:
        return math.log(share)
    return math.log((phrases.get(f"{word} {following}", 0) + SMOOTHING * share)
                    / (token_stats.get(word, (0, 0))[0] + SMOOTHING))


class Compounds:
    """`token_stats`: word -> (count, videos); `phrases`: "left right" -> count; `accepts(word)`: the
    dictionary's verdict on the join; `accepts_piece(word)`: on each of the two words (the standard
    dictionary, without the vocabulary; default `accepts`); `written_apart`: words the split list writes
    as two (never joined back)."""

    def __init__(self, token_stats: dict, phrases: dict, accepts: Callable, written_apart=frozenset(),
                 min_ratio: float = 1.5, min_joined_count: int = 10, margin: float = 3.0, min_support: int = 3,
                 accepts_piece: Optional[Callable] = None, english_zipf: Optional[Callable] = None,
                 min_zipf: float = ENGLISH_MIN_ZIPF):
        self._stats = token_stats or {}
        self._phrases = phrases or {}
        self._accepts = accepts
        self._accepts_piece = accepts_piece or accepts
        self._written_apart = frozenset(written_apart)
        self._min_ratio = min_ratio
        self._min_joined_count = min_joined_count
        self._log_margin = math.log(margin)
        self._min_support = min_support
        self._english_zipf = english_zipf
        self._min_zipf = min_zipf
        self._total = sum(count for count, _ in self._stats.values()) or 1
        self.is_candidate = lru_cache(maxsize=200_000)(self._is_candidate)
        self.is_noun_compound = lru_cache(maxsize=200_000)(self._is_noun_compound)

    def concerns(self, tokens: list) -> bool:
        return any(self.is_candidate(first, second) or self.is_noun_compound(first, second)
                   for first, second in zip(tokens, tokens[1:]))

    def _may_join(self, first: str, second: str) -> bool:
        """What every join asks: no piece never joined, both pieces accepted, the join not one the split list
        writes apart (module docstring)."""
        return not (first in NEVER_JOINED or second in NEVER_JOINED or (first, second) in LEFT_APART
                    or len(first) < 2 or len(second) < 2 or not (first + second).isalpha()
                    or first + second in self._written_apart
                    or not self._accepts_piece(first) or not self._accepts_piece(second))

    def _is_candidate(self, first: str, second: str) -> bool:
        """x y is a compound written apart: xy a word the corpus writes far more often joined (module docstring)."""
        if not self._may_join(first, second):
            return False
        joined = first + second
        joined_count = self._count(joined)
        return (joined_count >= self._min_joined_count
                and joined_count >= self._min_ratio * self._phrases.get(f"{first} {second}", 0)
                and bool(self._accepts(joined)) and self._english_allows(joined))

    def _english_allows(self, joined: str) -> bool:
        """Without general English, any join; with it, one the standard dictionary lists or English writes
        commonly ("gameplay", not "backflip")."""
        return (self._english_zipf is None or bool(self._accepts_piece(joined))
                or self._english_zipf(joined) >= self._min_zipf)

    def _is_noun_compound(self, first: str, second: str) -> bool:
        """x y are two nouns whose join general English and the corpus write solid (module docstring)."""
        if self._english_zipf is None or not self._may_join(first, second):
            return False
        joined = first + second
        joined_count = self._count(joined)
        return (joined_count >= max(self._min_support, self._phrases.get(f"{first} {second}", 0))
                and bool(self._accepts_piece(joined))
                and self._english_zipf(joined) >= NOUN_COMPOUND_MIN_ZIPF
                and self.is_noun(first) and self.is_noun(second))

    def is_noun(self, word: str) -> bool:
        """The corpus writes the word after "the" or "a" at least `min_support` times (or the word is rare:
        RARE_WORD_COUNT) and at least as often as after "to", "are" or "is", never after "very" (an
        adjective: "red neck", "high way"), and in under VERB_SHARE of its uses after a subject pronoun (a
        verb: "the water falls over the rocks")."""
        if word in CLOSED_CLASS:
            return False
        count = self._phrases.get
        after_article = sum(count(f"{before} {word}", 0) for before in NOUN_BEFORE)
        rare = self._count(word) < RARE_WORD_COUNT  # "liner", "mush": too rare to be written after "the" often
        after_subject = sum(count(f"{subject} {word}", 0) for subject in SUBJECTS)
        return ((after_article >= self._min_support or rare) and count(f"{ADJECTIVE_BEFORE} {word}", 0) == 0
                and after_article >= sum(count(f"{before} {word}", 0) for before in NOT_NOUN_BEFORE)
                and after_subject < VERB_SHARE * max(self._count(word), 1))

    def find(self, tokens: list, at: int, previous: str) -> Optional[RealWordFix]:
        """The join of tokens `at` and `at + 1`, if the occurrence means the compound. `previous`: the word
        before, as corrected."""
        if at + 1 >= len(tokens):
            return None
        first, second = tokens[at], tokens[at + 1]
        joined = first + second
        following = tokens[at + 2] if at + 2 < len(tokens) else ""
        if joined in (previous, following):
            return None  # "basketball basket ball": the annotator wrote the word already
        evidence = self.evidence(first, second, previous, following)
        if self.is_candidate(first, second):
            log_ratio = self.log_likelihood_ratio(first, second, previous, following)
            if (evidence.replacement_with_previous + evidence.replacement_with_following >= self._min_support
                    and log_ratio >= self._log_margin):
                return RealWordFix(at, 2, f"{first} {second}", joined, evidence, "compound", round(log_ratio, 3))
        if self.is_noun_compound(first, second) and following != "s":
            return RealWordFix(at, 2, f"{first} {second}", joined, evidence, "compound")
        return None

    def log_likelihood_ratio(self, first: str, second: str, previous: str, following: str) -> float:
        """log of P(joined reading) / P(apart reading) between the neighbours (module docstring)."""
        joined = first + second
        log_p = self._log_probability
        joined_reading = log_p(previous, joined) + log_p(joined, following)
        apart_reading = log_p(previous, first) + log_p(first, second) + log_p(second, following)
        return joined_reading - apart_reading

    def _log_probability(self, word: str, following: str) -> float:
        return phrase_log_probability(self._stats, self._phrases, self._total, word, following)

    def evidence(self, first: str, second: str, previous: str, following: str) -> ContextEvidence:
        phrase = self._phrases.get
        joined = first + second
        return ContextEvidence(
            original_count=phrase(f"{first} {second}", 0), replacement_count=self._count(joined),
            original_with_previous=phrase(f"{previous} {first}", 0) if previous else 0,
            replacement_with_previous=phrase(f"{previous} {joined}", 0) if previous else 0,
            original_with_following=phrase(f"{second} {following}", 0) if following else 0,
            replacement_with_following=phrase(f"{joined} {following}", 0) if following else 0)

    def _count(self, word: str) -> int:
        return self._stats.get(word, (0, 0))[0]
