"""The corpus words a rejected token may stand for, and how strongly the corpus speaks for each.

Generating and weighing candidates only: what the rules make of them is decided
in corpus_rule.py, context.py and decisions.py.
"""
from rapidfuzz.distance import OSA
from rapidfuzz.process import extract

from transforms.spelling.typos import is_plausible_typo, is_slip


class CorpusCandidates:
    """Candidates from the corpus statistics: close words, two-word splits, phrase counts.

    `stats`: word -> (count, videos); `phrases`: "left right" -> count; `dictionary`: a
    hunspell.Dictionary; `mapped`: the words a mapping rewrites, which no candidate may be.
    `rare_words`: also keep the words written fewer than min_candidate_count times (the
    gate's candidates).
    """

    def __init__(self, stats: dict, phrases: dict, dictionary, mapped: frozenset, config, rare_words: bool = False):
        self.stats = stats
        self.phrases = phrases
        self._dictionary = dictionary
        self._mapped = mapped
        self._config = config
        self._trusted_by_shape = self._words_by_shape(config.min_candidate_count, config.name_candidates)
        self._rare_by_shape = self._words_by_shape(1, False) if rare_words else {}

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
        by_shape = self._rare_by_shape if rare else self._trusted_by_shape
        max_distance = self._config.max_edit_distance if len(piece) > 5 else 1
        found = []
        for length in range(len(piece) - max_distance, len(piece) + max_distance + 1):
            words = by_shape.get((length, piece[0]))
            if not words:
                continue
            for word, distance, _ in extract(piece, words, scorer=OSA.distance, score_cutoff=max_distance,
                                             limit=None):
                if is_plausible_typo(piece, word, int(distance)):
                    found.append((word, int(distance), self.weight(piece, word)))
        return found

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

    def _words_by_shape(self, min_count: int, names: bool) -> dict:
        """Corpus words annotators write at least `min_count` times, that Hunspell accepts (or knows as names,
        if `names`), by (length, first letter): a candidate keeps the token's first letter (is_plausible_typo),
        so only those words need comparing."""
        accepts = self._dictionary.accepts
        by_shape = {}
        for word, (count, _) in self.stats.items():
            if count >= min_count and word.isalpha() and word not in self._mapped and (
                    accepts(word) or (names and count >= self._config.min_name_count
                                      and accepts(word.capitalize()))):
                by_shape.setdefault((len(word), word[0]), []).append(word)
        return {shape: sorted(words) for shape, words in by_shape.items()}
