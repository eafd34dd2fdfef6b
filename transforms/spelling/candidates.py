"""The corpus words a rejected token may stand for, and how strongly the corpus speaks for each.

Generating and weighing candidates only: what the rules make of them is decided
in corpus_rule.py, context.py and decisions.py.
"""

from transforms.spelling.general_english import (NUMBER_WORDS, RUN_ON_FIRST_WORDS, RUN_ON_WORDS, WordIndex,
                                                 is_plausible_english_typo, zipf)
from transforms.spelling.typos import is_plausible_typo, is_slip


class CorpusCandidates:
    """Candidates from the corpus statistics: close words, two-word splits, phrase counts; and, given
    `english` (general_english.EnglishWords), the common English words close to a token.

    `stats`: word -> (count, videos); `phrases`: "left right" -> count; `dictionary`: a
    hunspell.Dictionary; `mapped`: the words a mapping rewrites, which no candidate may be.
    `rare_words`: also keep the words written fewer than min_candidate_count times (the
    gate's candidates).
    """

    def __init__(self, stats: dict, phrases: dict, dictionary, mapped: frozenset, config, rare_words: bool = False,
                 english=None):
        self.stats = stats
        self.phrases = phrases
        self._dictionary = dictionary
        self._mapped = mapped
        self._config = config
        self.english = english
        self._trusted = self._corpus_words(config.min_candidate_count, config.name_candidates)
        self._rare = self._corpus_words(1, False) if rare_words else frozenset()
        # symspellpy's symmetric deletes find a token's close words (the search this module once did by hand).
        self._index = WordIndex({word: self.count(word) for word in self._trusted | self._rare},
                                config.max_edit_distance)

    def count(self, word: str) -> int:
        return self.stats.get(word, (0, 0))[0]

    def weight(self, piece: str, word: str) -> float:
        """How often the corpus writes `word`, times `slip_weight` if `piece` is a slip of it: a noisy
        channel in which a slip of the hand is likelier than other edits."""
        return self.stats[word][0] * (self._config.slip_weight if is_slip(piece, word) else 1)

    def support(self, word: str, previous: str, following: str) -> int:
        """How often the corpus writes `word` after `previous` or before `following`."""
        return self.phrases.get(f"{previous} {word}", 0) + self.phrases.get(f"{word} {following}", 0)

    def close_words(self, piece: str, min_length: int, rare: bool = False) -> list:
        """(word, distance, weight) of the trusted corpus words (or, if `rare`, of every corpus word
        Hunspell accepts) within the edit distance allowed for the token's length."""
        if len(piece) < min_length:
            return []  # too short to tell a typo from an abbreviation or a name
        words = self._rare if rare else self._trusted
        return [(word, distance, self.weight(piece, word))
                for word, distance in self._index.close(piece, self.max_distance(piece))
                if word in words and is_plausible_typo(piece, word, distance)]

    def english_words(self, piece: str, min_length: int) -> list:
        """(word, distance, Zipf value) of the common English words (general_english.py) within the edit
        distance allowed for the token's length, of a plausible typo's shape; [] without `english`."""
        if self.english is None or len(piece) < min_length:
            return []
        return [(word, distance, value) for word, distance, value in self.english.close(piece, self.max_distance(piece))
                if is_plausible_english_typo(piece, word, distance)]

    def english_split(self, piece: str):
        """'settwo' -> 'set two', 'lakeon' -> 'lake on': symspellpy's segmentation of a run-together token
        into two words, each accepted by Hunspell as written and common English, `general_zipf_margin` more
        common than the token, one of them a RUN_ON_WORDS word, which a compound does not hold. None otherwise
        (and without `english`): two other words are a compound as often as two words ("powertool", but
        "longboard", "waterslide")."""
        if self.english is None:
            return None
        words = self.english.index.segment(piece)
        least = max(self._config.general_min_zipf, zipf(piece) + self._config.general_zipf_margin)
        if len(words) != 2 or not all(self._dictionary.accepts(word) and word not in self._mapped
                                      and zipf(word) >= least for word in words):
            return None
        first, second = words
        # A short word before a function word is as likely a name ("faris": far is), not before a number.
        shortest = 3 if second in NUMBER_WORDS else 4
        if (second in RUN_ON_WORDS and len(first) >= shortest) or (first in RUN_ON_FIRST_WORDS and len(second) >= 4):
            return " ".join(words)
        return None

    def max_distance(self, piece: str) -> int:
        return self._config.max_edit_distance if len(piece) > 5 else 1

    def three_letter_candidates(self, piece: str) -> tuple:
        """Words one edit from a three-letter token that the corpus writes very often ("and", "the", "with").

        Rarer ones are as likely an abbreviation the dictionary lacks ("ecg", "taj") as a typo.
        """
        return tuple(c for c in self.close_words(piece, min_length=3)
                     if c[2] >= self._config.three_letter_candidate_min_count)

    def attested_splits(self, piece: str) -> list:
        """'eachother' -> ('each other', n) when both words are known (or the second is the
        dataset's possessive "s") and the corpus writes them apart n times. Of one-letter
        words only "a" and "i" are words."""
        splits = []
        for cut in range(1, len(piece)):
            phrase = f"{piece[:cut]} {piece[cut:]}"
            count = self.phrases.get(phrase, 0)
            first, second = phrase.split()
            if count >= self._config.min_phrase_count and self.is_split_word(first) and (
                    second == "s" or self.is_split_word(second)):
                splits.append((phrase, count))
        return splits

    def is_split_word(self, word: str) -> bool:
        """A word that may stand alone where a token is split."""
        # Hunspell accepts every letter in capitals ("S"); "ssomeone" is not "s someone".
        a_word_alone = len(word) > 1 or word in ("a", "i")
        return a_word_alone and self._dictionary.accepts_in_any_case(word) and word not in self._mapped

    def _corpus_words(self, min_count: int, names: bool) -> frozenset:
        """Corpus words annotators write at least `min_count` times, that Hunspell accepts (or knows as names,
        if `names`)."""
        accepts = self._dictionary.accepts
        return frozenset(word for word, (count, _) in self.stats.items()
                         if count >= min_count and word.isalpha() and word not in self._mapped and (
                             accepts(word) or (names and count >= self._config.min_name_count
                                               and accepts(word.capitalize()))))
