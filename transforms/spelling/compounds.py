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
"""
import math
from functools import lru_cache
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
                 accepts_piece: Optional[Callable] = None):
        self._stats = token_stats or {}
        self._phrases = phrases or {}
        self._accepts = accepts
        self._accepts_piece = accepts_piece or accepts
        self._written_apart = frozenset(written_apart)
        self._min_ratio = min_ratio
        self._min_joined_count = min_joined_count
        self._log_margin = math.log(margin)
        self._min_support = min_support
        self._total = sum(count for count, _ in self._stats.values()) or 1
        self.is_candidate = lru_cache(maxsize=200_000)(self._is_candidate)

    def concerns(self, tokens: list) -> bool:
        return any(self.is_candidate(first, second) for first, second in zip(tokens, tokens[1:]))

    def _is_candidate(self, first: str, second: str) -> bool:
        """x y is a compound written apart: xy a word the corpus writes far more often joined (module docstring)."""
        if (first in NEVER_JOINED or second in NEVER_JOINED or (first, second) in LEFT_APART or len(first) < 2
                or len(second) < 2 or not (first + second).isalpha()):
            return False
        joined = first + second
        joined_count = self._count(joined)
        return (joined_count >= self._min_joined_count
                and joined_count >= self._min_ratio * self._phrases.get(f"{first} {second}", 0)
                and joined not in self._written_apart and bool(self._accepts(joined))
                and bool(self._accepts_piece(first)) and bool(self._accepts_piece(second)))

    def find(self, tokens: list, at: int, previous: str) -> Optional[RealWordFix]:
        """The join of tokens `at` and `at + 1`, if the occurrence means the compound. `previous`: the word
        before, as corrected."""
        if at + 1 >= len(tokens) or not self.is_candidate(tokens[at], tokens[at + 1]):
            return None
        first, second = tokens[at], tokens[at + 1]
        joined = first + second
        following = tokens[at + 2] if at + 2 < len(tokens) else ""
        if joined in (previous, following):
            return None  # "basketball basket ball": the annotator wrote the word already
        evidence = self.evidence(first, second, previous, following)
        if evidence.replacement_with_previous + evidence.replacement_with_following < self._min_support:
            return None
        log_ratio = self.log_likelihood_ratio(first, second, previous, following)
        if log_ratio < self._log_margin:
            return None
        return RealWordFix(at, 2, f"{first} {second}", joined, evidence, "compound", round(log_ratio, 3))

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
