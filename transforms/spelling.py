"""Step II: spelling, with Hunspell and the profile's word lists.

Per token, in the published order: the British-to-American mapping, the
run-together-word mapping, then Hunspell (with the custom vocabulary added) on
every piece; a rejected piece takes a suggestion chosen by the profile's rule.
The caption is lowercased afterwards, because suggestions can be capitalised.
"""
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Callable, Optional

import apache_beam as beam

from dictionaries import resolve
from transforms.batch import rewrite_captions
from transforms.errors import CapcleanError

STEP = "spelling"


class DictionaryFileError(CapcleanError):
    """A word list or Hunspell dictionary that cannot be read."""


def read_word_list(path: str) -> tuple:
    """One word a line; blank lines and surrounding white space (including CR) are ignored."""
    return tuple(line.strip() for line in _read_lines(path) if line.strip())


def read_mapping(path: str) -> dict:
    """`from -> to`, one pair a line, stripped as the published run did."""
    mapping = {}
    for number, line in enumerate(_read_lines(path), start=1):
        if not line.strip():
            continue
        parts = line.strip().split(" -> ")
        if len(parts) != 2:
            raise DictionaryFileError(f"{path}, line {number}: expected 'from -> to', got {line.strip()!r}")
        mapping[parts[0]] = parts[1]
    return mapping


def _read_lines(path: str) -> list:
    try:
        return resolve(path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise DictionaryFileError(f"cannot read word list {resolve(path)}: {error}") from None


def is_plain(suggestion: str) -> bool:
    """Letters a-z, digits and spaces only: no punctuation or accents a caption did not have."""
    return all(char == " " or (char.isascii() and char.isalnum()) for char in suggestion)


def choose_suggestion(suggestions: list, rule: str) -> Optional[str]:
    if rule == "first":
        return suggestions[0] if suggestions else None
    return next((s for s in suggestions if is_plain(s)), None)


def correct_caption(text: str, british: dict, splits: dict, replacement_for: Callable) -> tuple:
    """The corrected caption and its correction rows (without sen_id).

    `replacement_for(piece)` returns the (lowercased) replacement of a piece
    Hunspell rejects, or None to keep it. Lookups are one token at a time, as
    published, so mapping keys holding a space never apply. Positions are
    token indexes in the caption this step received.
    """
    words, corrections = [], []
    for position, token in enumerate(text.split()):
        pieces = _map_pieces([token], british, "british", position, corrections)
        pieces = _map_pieces(pieces, splits, "split", position, corrections)
        for piece in pieces:
            replacement = replacement_for(piece)
            if replacement is not None and replacement != piece:
                corrections.append(_correction(position, piece, replacement, "suggestion"))
                piece = replacement
            words.append(piece)
    return " ".join(words).lower(), corrections


def _map_pieces(pieces, mapping, rule, position, corrections):
    mapped = []
    for piece in pieces:
        if piece in mapping:
            corrections.append(_correction(position, piece, mapping[piece], rule))
            mapped.extend(mapping[piece].split())
        else:
            mapped.append(piece)
    return mapped


def _correction(position, original, replacement, rule):
    return {"position": position, "original": original, "replacement": replacement, "rule": rule}


class HunspellSpeller:
    """Hunspell with the custom vocabulary, and a cache of decisions per distinct token.

    Built on the worker (the Hunspell object cannot be pickled); a suggestion
    costs milliseconds, and MSR-VTT repeats its rare tokens many times.
    """

    def __init__(self, dictionary_base: str, custom_words: tuple, suggestion_rule: str):
        import hunspell  # imported here: workers build it in DoFn.setup

        dic, aff = Path(dictionary_base + ".dic"), Path(dictionary_base + ".aff")
        for path in (dic, aff):
            if not path.is_file():
                raise DictionaryFileError(
                    f"Hunspell dictionary file {path} not found (Debian: apt-get install hunspell-en-us)")
        self._hunspell = hunspell.HunSpell(str(dic), str(aff))
        for word in custom_words:
            self._hunspell.add(word)
        self._rule = suggestion_rule
        self.replacement_for = lru_cache(maxsize=500_000)(self._replacement_for)

    def _replacement_for(self, piece: str) -> Optional[str]:
        try:
            if self._hunspell.spell(piece):
                return None
            suggestion = choose_suggestion(self._hunspell.suggest(piece), self._rule)
        except UnicodeError:
            return None  # a token Hunspell cannot encode is left as it is
        return suggestion.lower() if suggestion is not None else None


class CorrectSpellingFn(beam.DoFn):
    def __init__(self, config):
        self._config = config
        # Word lists are small: read them once here so workers need only the Hunspell dictionary.
        self._custom_words = read_word_list(config.custom_words)
        self._british = read_mapping(config.british_to_american)
        self._splits = read_mapping(config.splits)

    def setup(self):
        self._speller = HunspellSpeller(self._config.hunspell_dictionary, self._custom_words, self._config.suggestion)

    def process(self, batch):
        corrections = []

        def correct(caption):
            new_text, rows = correct_caption(caption.text, self._british, self._splits, self._speller.replacement_for)
            corrections.extend({"sen_id": caption.sen_id, **row} for row in rows)
            return new_text, ",".join(sorted({row["rule"] for row in rows})) or "lowercase"

        corrected = rewrite_captions(batch, STEP, correct, pass_caption=True)
        yield replace(corrected, corrections=batch.corrections + corrections)


class CorrectSpelling(beam.PTransform):
    """Step II over a PCollection of VideoBatch."""

    def __init__(self, config):
        super().__init__()
        self._config = config

    def expand(self, batches):
        return batches | "CorrectSpelling" >> beam.ParDo(CorrectSpellingFn(self._config))
