"""Confusions decided by a bigram model: "a man taking about a car" -> talking, "hockey an basketball" -> and.

Some words are written for another word one edit away often enough to matter, yet used rightly
far more often: `taking` for `talking` ("a man taking about", 60 of its 1,152 uses), `an` for
`and` ("hockey an basketball") or for `a` ("an car"), `though` for `through` ("running though
the snow"). A list cannot say "always the other word" (real_word.py) for these. Each
occurrence is decided instead by which word the corpus's two-word phrases make likelier between
its neighbours p and n:

    P(w | p) * P(n | w)  for the word as written and for each alternative,

each P smoothed as in compounds.py. An alternative replaces the word when it is `margin` times
likelier than the word as written (a large margin: the word as written is right most of the
time) and the corpus writes it beside each neighbour at least `min_support` times ("man
talking", "talking about"), and the word as written does not take a larger share of its own uses
before the next word than the alternative does ("taking his picture" stays: `taking his` is 9 of
1,152 uses, `talking his` 5 of 18,893). An article is changed only before a word of letters
beginning with a consonant ("an apple", "an f1 driver" stay).

The pairs are a reviewed list (dictionaries/msrvtt/confusions.txt): mined with
training/mine_real_words.py (words one common typo from a word written at least twice as often),
then kept only where a read of the occurrences the model would change found them right. Every
change carries its counts (real_word.ContextEvidence) and the log of the likelihood ratio.
"""
import math
from functools import partial
from typing import Optional

from transforms.spelling.compounds import phrase_log_probability
from transforms.spelling.real_word import ContextEvidence, RealWordFix

ARTICLES = frozenset({"a", "an"})
VOWELS = frozenset("aeiou")


class Confusions:
    """`alternatives`: word -> the words it may be written for (confusions.txt); `token_stats`: word ->
    (count, videos); `phrases`: "left right" -> count."""

    def __init__(self, alternatives: dict, token_stats: dict, phrases: dict, margin: float = 150.0,
                 min_support: int = 3):
        self._alternatives = alternatives
        self._stats = token_stats or {}
        self._phrases = phrases or {}
        self._log_margin = math.log(margin)
        self._min_support = min_support
        self._total = sum(count for count, _ in self._stats.values()) or 1

    def concerns(self, tokens: list) -> bool:
        return not self._alternatives.keys().isdisjoint(tokens)

    def find(self, tokens: list, at: int, previous: str) -> Optional[RealWordFix]:
        word = tokens[at]
        if word not in self._alternatives:
            return None
        following = tokens[at + 1] if at + 1 < len(tokens) else ""
        if not following:
            return None  # "children over there": the caption's last word has one neighbour to decide it
        if word in ARTICLES and not (following.isalpha() and following[0] not in VOWELS):
            return None  # "an apple", "an f1 driver": the article may well be right
        fit = {candidate: self.log_fit(previous, candidate, following)
               for candidate in self._alternatives[word]
               if self._supported(previous, candidate, following) and not self._speaks_for(word, candidate, following)
               and not self._either_side_prefers(word, candidate, previous, following)}
        if not fit:
            return None
        best = max(sorted(fit), key=fit.get)
        log_ratio = fit[best] - self.log_fit(previous, word, following)
        if log_ratio < self._log_margin:
            return None
        return RealWordFix(at, 1, word, best, self.evidence(word, best, previous, following), "confusion",
                           round(log_ratio, 3))

    def log_fit(self, previous: str, word: str, following: str) -> float:
        """log P(word | previous) + log P(following | word)."""
        log_p = phrase_log_probability
        return (log_p(self._stats, self._phrases, self._total, previous, word)
                + log_p(self._stats, self._phrases, self._total, word, following))

    def _speaks_for(self, word: str, candidate: str, following: str) -> bool:
        """The word as written takes a larger share of its uses before the next word than the candidate does of
        its own ("taking his picture": 9 of `taking`'s 1,152 uses, 5 of `talking`'s 18,893)."""
        if not following:
            return False
        count = lambda token: self._stats.get(token, (0, 0))[0] or 1  # noqa: E731
        return (self._phrases.get(f"{word} {following}", 0) / count(word)
                > self._phrases.get(f"{candidate} {following}", 0) / count(candidate))

    def _either_side_prefers(self, word: str, candidate: str, previous: str, following: str) -> bool:
        """One neighbour alone makes the word as written likelier than the candidate: "she s been able" stays
        (the corpus writes "s been" more often than "s being"), whatever the other side says."""
        log_p = partial(phrase_log_probability, self._stats, self._phrases, self._total)
        return (log_p(previous, word) > log_p(previous, candidate)
                or log_p(word, following) > log_p(candidate, following))

    def _supported(self, previous: str, candidate: str, following: str) -> bool:
        count = self._phrases.get
        return all(not neighbour or count(phrase, 0) >= self._min_support
                   for neighbour, phrase in ((previous, f"{previous} {candidate}"),
                                             (following, f"{candidate} {following}")))

    def evidence(self, word: str, replacement: str, previous: str, following: str) -> ContextEvidence:
        phrase = self._phrases.get
        count = lambda token: self._stats.get(token, (0, 0))[0]  # noqa: E731
        return ContextEvidence(
            original_count=count(word), replacement_count=count(replacement),
            original_with_previous=phrase(f"{previous} {word}", 0) if previous else 0,
            replacement_with_previous=phrase(f"{previous} {replacement}", 0) if previous else 0,
            original_with_following=phrase(f"{word} {following}", 0) if following else 0,
            replacement_with_following=phrase(f"{replacement} {following}", 0) if following else 0)
