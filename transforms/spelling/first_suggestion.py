"""The published rule (the paper profile): a rejected token takes Hunspell's first suggestion."""
from functools import lru_cache
from typing import Optional

from transforms.spelling.context import NO_OTHER_CAPTIONS, OtherCaptions
from transforms.spelling.decisions import KEEP, Decision


def is_plain(suggestion: str) -> bool:
    """Letters a-z, digits and spaces only: no punctuation or accents a caption did not have."""
    return all(char == " " or (char.isascii() and char.isalnum()) for char in suggestion)


def choose_suggestion(suggestions: list, rule: str) -> Optional[str]:
    if rule == "first":
        return suggestions[0] if suggestions else None
    return next((s for s in suggestions if is_plain(s)), None)


class FirstSuggestion:
    """A rejected token takes Hunspell's first suggestion (`first`) or its first plain one (`first_plain`).

    Decisions are cached per distinct token: a suggestion costs milliseconds,
    and MSR-VTT repeats its rare tokens many times.
    """

    def __init__(self, checker, suggestion_rule: str):
        self._hunspell = checker
        self._rule = suggestion_rule
        self._decide_cached = lru_cache(maxsize=500_000)(self._decide)

    def decide(self, piece: str, previous: str = "", following: str = "",
               clip: OtherCaptions = NO_OTHER_CAPTIONS) -> Decision:
        return self._decide_cached(piece)  # the published rule ignores context and clip

    def _decide(self, piece: str) -> Decision:
        try:
            if self._hunspell.spell(piece):
                return KEEP
            suggestion = choose_suggestion(self._hunspell.suggest(piece), self._rule)
        except UnicodeError:
            return KEEP  # a token Hunspell cannot encode is left as it is
        return Decision(suggestion.lower(), "suggestion") if suggestion is not None else Decision(None, "no_suggestion")
