"""Possessive, plural or singular: "womans", "mans" and their kind read from their neighbours.

Annotators run the possessive together ("a womans hair" for "a woman s hair", the dataset's
possessive), but they also write these forms for the plural ("two womans are", "army mans
are") and for the singular ("a mans is walking"). `mans` is even a word (he mans the boat), so
Hunspell never rejects it. The words around the token say which it is:

- before a plural verb, a conjunction, a preposition or the caption's end ("are", "and",
  "in"): the plural noun ("women", "men"), rule `plural_in_context`; but after a singular
  determiner ("a", "another", "this") and before a singular verb or those words ("a mans is
  walking"): the singular noun, rule `singular_in_context`;
- after a subject ("he", "who"): the verb `mans` stays;
- before a verb ending in -ing (one the corpus writes after "are" more often than after "the":
  "army mans running"): the noun itself, singular after a singular determiner, else plural (a
  verb owns nothing, and the "s walking" of "he s walking" is no possessive); "mens",
  "womens", "childrens" without a counting word before are left to the other rules ("mens
  running" may be a race for men; "s running" is as often "he s running");
- before a noun: a word the corpus writes after the possessive s ("s hand"), or, after a
  determiner or a counting word ("a", "the", "two"), a word it writes after "the" ("the
  pocket"): the possessive ("a mans hand" -> "a man s hand"), rule `possessive_in_context`. The
  owner is the plural after a counting word ("two mens ghosts" -> "two men s ghosts") and where
  the corpus writes the owned word after the plural at least `min_count` times and three times
  as often as after the singular ("a womans soccer game" -> "a women s soccer game"); for a
  token Hunspell rejects the spelling step's split does much the same;
- otherwise after a counting word or a plural determiner ("two", "several"): the plural.

Elsewhere the token is left to the spelling step's other rules.
"""
from typing import Optional

from transforms.spelling.agreement import is_verb_like
from transforms.spelling.context import AFTER_A_PLURAL, COUNTING_WORDS
from transforms.spelling.real_word import RealWordFix

SINGULAR_DETERMINERS = frozenset("a an another this that one each every".split())
PLURAL_VERBS = frozenset("are were have do".split())
SINGULAR_VERBS = frozenset("is was has does".split())
SUBJECTS = frozenset("he she it who which that".split())
DETERMINERS = SINGULAR_DETERMINERS | frozenset("the other his her their its".split())
# Neither a plural's nor a singular's next word tells a possessive: these follow either.
FUNCTION_WORDS = AFTER_A_PLURAL | PLURAL_VERBS | SINGULAR_VERBS | SINGULAR_DETERMINERS | frozenset(
    "the is a an to of for from by as s".split())


class Possessives:
    """`plurals`: the run-together forms and their plurals ("mens" -> "men", plural_readings.txt);
    `phrases`: the corpus's two-word phrases ("s hand" -> count); `min_count`: how often the corpus
    must write the possessive s before the next word for that word to be read as owned."""

    def __init__(self, plurals: dict, phrases: dict, min_count: int = 3):
        self._plurals = plurals
        self._phrases = phrases or {}
        self._min_count = min_count
        self.first_words = frozenset(plurals)

    def concerns(self, tokens: list) -> bool:
        return not self.first_words.isdisjoint(tokens)

    def find(self, tokens: list, at: int, previous: str) -> Optional[RealWordFix]:
        token = tokens[at]
        if token not in self._plurals:
            return None
        following = tokens[at + 1] if at + 1 < len(tokens) else ""
        reading = self.reading(token, previous, following)
        if reading is None:
            return None
        replacement, rule = reading
        return RealWordFix(at, 1, token, replacement, None, rule)

    def reading(self, token: str, previous: str, following: str) -> Optional[tuple]:
        """(replacement, rule) for the token between these neighbours, or None to leave it to the other rules."""
        singular = token[:-1]  # "womans" -> "woman"; for "mens" it is the plural itself
        plural = self._plurals[token]
        if previous in SUBJECTS:
            return None  # "he mans the boat": a verb
        ends_phrase = following == "" or following in AFTER_A_PLURAL
        if previous in SINGULAR_DETERMINERS and singular != plural and (ends_phrase or following in SINGULAR_VERBS):
            return singular, "singular_in_context"
        if ends_phrase or following in PLURAL_VERBS:
            return plural, "plural_in_context"
        counted = previous in COUNTING_WORDS
        if following.endswith("ing") and is_verb_like(self._phrases, following):
            # "army mans running", "a mans walking", "two mens wrestling": a verb owns nothing, so the token is the
            # noun itself. "mens running" alone may be a race for men (an s added to a plural is its possessive):
            # left to the other rules, since "s running" is as often "he s running" as a possessive.
            if singular == plural and not counted:
                return None
            if previous in SINGULAR_DETERMINERS and singular != plural:
                return singular, "singular_in_context"
            return plural, "plural_in_context"
        if following not in FUNCTION_WORDS and self._is_owned(following, previous in DETERMINERS or counted):
            # "a childrens toy" is a toy for children: the determiner is the owned noun's, so "womens" stays
            # "women s" after "a" too (tried: "woman s" there made more wrong changes than right ones).
            # "a womans soccer game" is the same: where the corpus writes the owned word after the plural
            # clearly more often than after the singular ("women soccer"), the owner is the plural; and so it is
            # after a counting word ("two mens ghosts").
            owner = plural if counted or self._follows_plural(plural, singular, following) else singular
            return f"{owner} s", "possessive_in_context"
        if counted:
            return plural, "plural_in_context"
        return None

    def _follows_plural(self, plural: str, singular: str, following: str) -> bool:
        """The corpus writes the word after the plural at least `min_count` times, and three times as often as
        after the singular."""
        count = self._phrases.get
        after_plural = count(f"{plural} {following}", 0)
        return after_plural >= self._min_count and after_plural >= 3 * count(f"{singular} {following}", 0)

    def _is_owned(self, word: str, after_determiner: bool) -> bool:
        """A noun a possessive can own: written after the possessive s, or (after a determiner, where a
        verb cannot follow the token) after "the"."""
        count = self._phrases.get
        return count(f"s {word}", 0) >= self._min_count or (
            after_determiner and count(f"the {word}", 0) >= self._min_count)
