"""The shapes of typos and of English plurals: pure functions of the words they are given."""
from functools import lru_cache

from rapidfuzz.distance import OSA

VOWELS = "aeiou"


def is_plausible_typo(piece: str, word: str, distance: int) -> bool:
    """Shapes of a misspelling that the dev set shows are usually another word, not a typo."""
    # Annotators rarely miss a word's first letter (two letters, two edits away).
    # (CorpusCandidates.close_words relies on this: it compares only words with the token's first letter.)
    if piece[: distance] != word[: distance]:
        return False
    # "rusha", "showere": a word with a letter added at its end is more often a name or a run-on.
    if piece.startswith(word) and piece[len(word):] != word[-1] * (len(piece) - len(word)):
        return False
    return True


def lacks_a_letter(typo: str, word: str) -> bool:
    """The word with one of its letters left out ("stle" for "style", "towl" for "towel")."""
    return len(word) == len(typo) + 1 and any(word[:at] + word[at + 1:] == typo for at in range(len(word)))


def is_slip(typo: str, word: str) -> bool:
    """One edit that is a slip: two neighbouring letters swapped ("amatuer"), a doubled
    letter written once or a letter doubled ("ploting"), a vowel for another ("seperated").

    A neighbouring key struck ("grop" read as "grip") is not counted: on the dev
    set that made more wrong changes than right ones.
    """
    if OSA.distance(typo, word) != 1:
        return False
    if len(typo) == len(word):
        # At distance one, either two neighbours swapped or one letter replaced: a vowel for
        # another is the commonest misspelling of all ("seperated"), other letters are not slips.
        differences = [(a, b) for a, b in zip(typo, word) if a != b]
        return len(differences) == 2 or all(letter in VOWELS for letter in differences[0])
    shorter, longer = sorted((typo, word), key=len)
    at = next((i for i, (a, b) in enumerate(zip(shorter, longer)) if a != b), len(shorter))
    # The extra letter repeats its neighbour: a doubled letter dropped or added.
    return longer[at] == longer[at - 1] if at > 0 else longer[0] == longer[1]


def slip_variants(typo: str) -> set:
    """Every word one slip (see is_slip) away from `typo`."""
    variants = set()
    for at, letter in enumerate(typo):
        variants.add(typo[:at] + typo[at + 1: at + 2] + letter + typo[at + 2:])  # swapped with the next letter
        variants.add(typo[:at] + letter + typo[at:])  # doubled
        if at > 0 and typo[at - 1] == letter:
            variants.add(typo[:at] + typo[at + 1:])  # a doubled letter written once
        if letter in VOWELS:
            variants.update(typo[:at] + vowel + typo[at + 1:] for vowel in VOWELS)
    variants.discard(typo)
    return variants


@lru_cache(maxsize=100_000)  # asked again for every caption that writes the same typo
def is_common_typo(typo: str, word: str) -> bool:
    """Whether `typo` misspells `word` in a way annotators often do: one slip (is_slip), one
    letter left out or added, or a slip and one more edit ("beutifull", "proffesional").

    What is left, a consonant replaced ("roomo" for "rooms") or two edits of which neither
    is a slip ("gocart" for "goat"), is on the dev set as often another word as a typo.
    """
    distance = OSA.distance(typo, word)
    if distance == 1:
        return abs(len(typo) - len(word)) == 1 or is_slip(typo, word)
    return distance == 2 and any(OSA.distance(variant, word) == 1 for variant in slip_variants(typo))


def close_in_clip(typo: str, word: str) -> int:
    """The edit distance from `typo` to `word` when `typo` is a plausible misspelling of that
    word of its clip, else 0.

    One edit for a token of five letters or fewer, two for a longer one. The first
    letter stays, is left out ("irections") or swapped with the second ("aldy"). The
    word is no piece of the token: "comeon" is not "come", nor "videosa" "video" (a
    run-together or a longer word). A plural stays a plural ("millenials" is not
    "millennial").
    """
    if typo == word or word in typo:
        return 0
    distance = int(OSA.distance(typo, word, score_cutoff=2))
    if distance > (1 if len(typo) <= 5 else 2):
        return 0
    if not (typo[0] == word[0] or typo == word[1:] or typo[:2] == word[1::-1]):
        return 0
    if len(typo) >= 5 and typo.endswith("s") != word.endswith("s"):
        return 0
    return distance


def takes_plain_s(word: str) -> bool:
    """Whether the plural of `word` is written by adding a bare s: not after s, x, z, ch or sh
    ("beaches", not "beachs") nor after a consonant and y ("fries", not "frys")."""
    if word.endswith(("s", "x", "z", "ch", "sh")):
        return False
    return not (word.endswith("y") and len(word) > 1 and word[-2] not in VOWELS)
