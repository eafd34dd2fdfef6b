"""Step I: special characters.

Each rule of METHOD.md is one small function; `normalize_caption` runs them in
the published order and says which of them changed the caption.
"""
import re
import unicodedata

from transforms.batch import rewrite_captions
from transforms.step import Step

_DROPPED_SYMBOLS = re.compile(r"[#*+.:=>\\]")
# A bracket pair goes with its content only when the content is plain words:
# "(kids)" is an aside, "(implying i am guessing climax" is not a pair.
_SQUARE_PAIR = re.compile(r"\[[\w /-]*\]")
_ROUND_PAIR = re.compile(r"\([\w /-]*\)")
_UNPAIRED_BRACKETS = re.compile(r"[\[\](]")
_SEPARATORS = re.compile(r"[-|\u2018\u2019@_/]")
_SPACE_RUNS = re.compile(r" +")
# Letters that look like a Latin letter but do not decompose into one.
_LOOKALIKE_LETTERS = {"в": "b", "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "х": "x", "у": "y", "к": "k", "м": "m", "т": "t", "н": "h"}


def collapse_whitespace(text: str) -> str:
    return " ".join(text.split())


def remove_symbols(text: str) -> str:
    return _DROPPED_SYMBOLS.sub("", text)


def remove_bracketed_asides(text: str) -> str:
    text = _SQUARE_PAIR.sub("", text)
    text = _ROUND_PAIR.sub("", text)
    return _SPACE_RUNS.sub(" ", text)


def remove_unpaired_brackets(text: str) -> str:
    return _UNPAIRED_BRACKETS.sub("", text)


def separators_to_spaces(text: str) -> str:
    return collapse_whitespace(_SEPARATORS.sub(" ", text))


def to_english_letters(text: str) -> str:
    """Map accented and look-alike letters to the closest English letter (é -> e, в -> b)."""
    if text.isascii():
        return text
    return "".join(_english_letter(char) for char in text)


def _english_letter(char: str) -> str:
    if char.isascii() or not char.isalpha():
        return char
    if char.lower() in _LOOKALIKE_LETTERS:
        return _LOOKALIKE_LETTERS[char.lower()]
    base = unicodedata.normalize("NFKD", char)[0]
    return base if base.isascii() else char


def ampersand_to_and(text: str) -> str:
    # Only a free-standing "&": "at&t" keeps its ampersand.
    return text.replace(" & ", " and ")


def remove_backquotes(text: str) -> str:
    return collapse_whitespace(text.replace("`s", " s").replace("`", ""))


RULES = (
    remove_symbols,
    remove_bracketed_asides,
    remove_unpaired_brackets,
    separators_to_spaces,
    to_english_letters,
    ampersand_to_and,
    remove_backquotes,
)


def normalize_caption(text: str) -> tuple:
    """Return the caption after every rule of step I, and the names of the rules that changed it."""
    fired = []
    for rule in RULES:
        new_text = rule(text)
        if new_text != text:
            fired.append(rule.__name__)
            text = new_text
    return text, ",".join(fired)


class Normalize(Step):
    """Step I: every caption of the video through normalize_caption."""
    name = "normalize"
    summary = "special characters"

    def process(self, video):
        return rewrite_captions(video, self.name, normalize_caption)
