"""Number agreement: "a women is" -> "a woman is", "two man are" -> "two men are", "some guy s are" -> "some guys are".

Two kinds of real-word error that a dictionary cannot see and that the words around them decide:

- **A noun whose number its determiner contradicts** (`SingularAfterDeterminer`, rule
  `singular_after_determiner`; and the reverse, rule `plural_after_number`). "a women is cooking",
  "one women making rice", "a men in a suit": after a singular determiner (`a`, `an`, `one`,
  `another`, `each`, `every`) `women` and `men` are the singular. "two woman are", "three man
  talking": after a number or a plural determiner (`several`, `these`) `woman` and `man` are the
  plural. Left alone: a possessive after it ("a women s magazine": the determiner is the
  magazine's), a plural verb after a singular determiner ("a men are running": which word is wrong
  is not clear), and a next word the corpus writes no more often after the replacement than after the
  form as written: an attributive noun ("a women soccer team", "a two man band") or one it cannot
  tell ("a women jackpot").
- **A plural written as the dataset's possessive** (`PluralWrittenApart`, rule `plural_written_apart`).
  The dataset writes "guy's" as "guy s", so an annotator's "guy's" for the plural arrives as "some
  guy s are giving". The pair is the plural where it cannot be a possessive: after a counting word
  ("two", "some", "several") and before a plural verb, a conjunction, a preposition, the caption's
  end or a verb ("two man s giving"), or, after no singular determiner, before "are", "were" or
  "have" ("the guy s are"). A possessive owns the noun after it ("two dog s tails") and stays.
  The plural is the irregular one of `plural_readings` ("man s" -> "men") or the word with `s`
  when the corpus writes it at least `min_plural_count` times and the dictionary accepts it
  ("guys", "cars"; not "freddys"); the word must be a noun (the corpus writes it after "the" or
  "a", and more often than after "to", so "it s", "let s" and "that s" stay).

Every change carries its counts (real_word.ContextEvidence) as columns of `corrections/`.
"""
from typing import Callable, Optional

from transforms.spelling.context import AFTER_A_PLURAL, COUNTING_WORDS
from transforms.spelling.real_word import ContextEvidence, RealWordFix

SINGULAR_DETERMINERS = frozenset("a an one another each every".split())
# Words that count more than one; "some" and "all" also go with a singular ("some woman", "all man").
PLURAL_DETERMINERS = COUNTING_WORDS - frozenset({"some", "all"})
PLURAL_VERBS = frozenset("are were have".split())
# "a group of woman", "a couple of man": a word that counts its "of" phrase's noun as more than one.
COLLECTIVES = frozenset("group groups couple bunch lot lots crowd pair team number few many several both".split())
COORDINATORS = frozenset("and or with".split())
# Words that end the noun phrase before a noun: determiners, prepositions, verbs, coordinators. The plural
# is read only where none stands between the counting words and the noun ("a group of young woman are"), or
# before it at the caption's start ("woman are", "two young woman are"; not "photos of a young woman are").
PHRASE_BOUNDARIES = SINGULAR_DETERMINERS | COORDINATORS | frozenset(
    "the this that his her their its my our your of from in on at by for to into about is are was were".split())
# The irregular plurals whose singular an annotator writes after a number, and the reverse.
SINGULARS = {"women": "woman", "men": "man"}
PLURALS = {singular: plural for plural, singular in SINGULARS.items()}


def _count(stats: dict, word: str) -> int:
    return stats.get(word, (0, 0))[0]


def _evidence(stats, phrases, original, replacement, previous, following, first=None, last=None) -> ContextEvidence:
    """The counts of the original (its first and last word: `first`, `last`) and the replacement beside the
    neighbours; an original of two words is counted as a phrase."""
    first, last = first or original, last or original
    phrase = phrases.get
    return ContextEvidence(
        original_count=phrase(original, 0) if " " in original else _count(stats, original),
        replacement_count=_count(stats, replacement),
        original_with_previous=phrase(f"{previous} {first}", 0) if previous else 0,
        replacement_with_previous=phrase(f"{previous} {replacement}", 0) if previous else 0,
        original_with_following=phrase(f"{last} {following}", 0) if following else 0,
        replacement_with_following=phrase(f"{replacement} {following}", 0) if following else 0)


def is_verb_like(phrases: dict, word: str) -> bool:
    """The corpus writes the word after "are" more often than after "the" ("giving", not "clothing")."""
    return phrases.get(f"are {word}", 0) > phrases.get(f"the {word}", 0)


class SingularAfterDeterminer:
    """"a women" -> "a woman" and "two woman" -> "two women" (module docstring). `token_stats`: word ->
    (count, videos); `phrases`: "left right" -> count."""

    def __init__(self, token_stats: dict, phrases: dict):
        self._stats = token_stats or {}
        self._phrases = phrases or {}
        self.first_words = frozenset(SINGULARS) | frozenset(PLURALS)

    def concerns(self, tokens: list) -> bool:
        return not self.first_words.isdisjoint(tokens)

    def find(self, tokens: list, at: int, previous: str) -> Optional[RealWordFix]:
        token = tokens[at]
        following = tokens[at + 1] if at + 1 < len(tokens) else ""
        before_previous = tokens[at - 2] if at >= 2 else ""
        if token in SINGULARS and previous in SINGULAR_DETERMINERS and (
                following not in PLURAL_VERBS or before_previous in COORDINATORS):
            # "a man and a women are sitting": the plural verb is the two nouns', the determiner the word's own
            replacement, rule = SINGULARS[token], "singular_after_determiner"
        elif token in PLURALS and (previous in PLURAL_DETERMINERS or self._counted_by_of(tokens, at)
                                   or self._plural_subject(tokens, at, previous, following)):
            replacement, rule = PLURALS[token], "plural_after_number"
        else:
            return None
        counted_by_of = rule == "plural_after_number" and self._counted_by_of(tokens, at)
        if following == "s" or (following not in PLURAL_VERBS and not counted_by_of
                                and self._writes_as_is(token, replacement, following)):
            # a verb after it is no attributive noun ("a man and a women are"), and after "a group of" the
            # plural stands before one too ("a group of woman doctors")
            return None
        evidence = _evidence(self._stats, self._phrases, token, replacement, previous, following)
        return RealWordFix(at, 1, token, replacement, evidence, rule)

    @staticmethod
    def _counted_by_of(tokens: list, at: int) -> bool:
        """"a group of woman", "a couple of young man": an "of" phrase after a word that counts more than one,
        with at most two words between "of" and the noun, none of them a PHRASE_BOUNDARIES word."""
        for of in range(at - 1, max(at - 4, 0), -1):
            if tokens[of] == "of":
                return tokens[of - 1] in COLLECTIVES and PHRASE_BOUNDARIES.isdisjoint(tokens[of + 1:at])
        return False

    @staticmethod
    def _plural_subject(tokens: list, at: int, previous: str, following: str) -> bool:
        """"woman are playing", "two young woman are": the caption's subject before a plural verb, with no
        determiner, preposition, verb or "and" before it ("photos of a young woman are shown", "a man and woman
        are" stay)."""
        return following in PLURAL_VERBS and PHRASE_BOUNDARIES.isdisjoint(tokens[:at])

    def _writes_as_is(self, token: str, replacement: str, following: str) -> bool:
        """The corpus writes the next word after the replacement no more often than after the token: an
        attributive noun ("women soccer", "man band") or a word it cannot tell ("a women jackpot")."""
        count = self._phrases.get
        return bool(following) and count(f"{token} {following}", 0) >= count(f"{replacement} {following}", 0)


class PluralWrittenApart:
    """"some guy s are" -> "some guys are" (module docstring). `plurals`: plural_readings ("mans" -> "men");
    `accepts(word)`: the dictionary's verdict."""

    def __init__(self, token_stats: dict, phrases: dict, plurals: dict, accepts: Callable, min_plural_count: int = 20,
                 min_noun_count: int = 3):
        self._stats = token_stats or {}
        self._phrases = phrases or {}
        self._plurals = plurals or {}
        self._accepts = accepts
        self._min_plural_count = min_plural_count
        self._min_noun_count = min_noun_count

    def concerns(self, tokens: list) -> bool:
        return "s" in tokens

    def find(self, tokens: list, at: int, previous: str) -> Optional[RealWordFix]:
        if at + 1 >= len(tokens) or tokens[at + 1] != "s":
            return None
        word = tokens[at]
        following = tokens[at + 2] if at + 2 < len(tokens) else ""
        if not self._reads_plural(previous, following):
            return None
        plural = self.plural(word)
        if plural is None:
            return None
        evidence = _evidence(self._stats, self._phrases, f"{word} s", plural, previous, following, word, "s")
        return RealWordFix(at, 2, f"{word} s", plural, evidence, "plural_written_apart")

    def _reads_plural(self, previous: str, following: str) -> bool:
        if previous in COUNTING_WORDS:
            return (following == "" or following in AFTER_A_PLURAL
                    or (following != "s" and is_verb_like(self._phrases, following)))
        return previous not in SINGULAR_DETERMINERS and following in PLURAL_VERBS

    def is_noun(self, word: str) -> bool:
        """The corpus writes the word after "the" or "a" at least `min_noun_count` times, and more often than after
        "to" ("let s have fun" stays)."""
        count = self._phrases.get
        after_article = count(f"the {word}", 0) + count(f"a {word}", 0)
        return word.isalpha() and after_article >= self._min_noun_count and after_article > count(f"to {word}", 0)

    def plural(self, word: str) -> Optional[str]:
        """The plural of a noun, or None: irregular from plural_readings, else the word with s, written often
        and accepted (module docstring)."""
        if not self.is_noun(word):
            return None
        if word + "s" in self._plurals:
            return self._plurals[word + "s"]
        plural = word + "s"
        if _count(self._stats, plural) >= self._min_plural_count and self._accepts(plural):
            return plural
        return None
