"""Clipped names: "lambo" for "lamborghini". A token that begins a name is kept, not corrected.

The learned gate takes candidates from Hunspell's suggestions, and for "lambo" the likeliest
was "lamb" (a letter added at a word's end, which the corpus rule never takes for a typo).
On MSR-VTT the tokens of four letters or more that begin a name the corpus writes often
(three letters or more longer) are "lambo" and "indi": clippings, not typos of a shorter word.
"""


class NameClippings:
    """`names`: the names the corpus writes often (words Hunspell knows only capitalised)."""

    MIN_LENGTH = 4  # a shorter token begins too many names
    MIN_CUT = 3  # letters the name has beyond the token: "lambo" of "lamborghini"

    def __init__(self, names):
        self._names = tuple(sorted(names))

    @classmethod
    def of_corpus(cls, token_stats: dict, is_name, min_count: int) -> "NameClippings":
        return cls(word for word, (count, _) in token_stats.items()
                   if count >= min_count and word.isalpha() and is_name(word))

    def clips(self, token: str) -> bool:
        return len(token) >= self.MIN_LENGTH and token.isalpha() and any(
            name.startswith(token) and len(name) >= len(token) + self.MIN_CUT for name in self._names)
