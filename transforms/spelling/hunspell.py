"""Hunspell: the checker the step asks, the gate's suggester, and what the ranked rule asks of them."""
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path

from dictionaries import resolve
from transforms.spelling.wordlists import DictionaryFileError


def open_hunspell(dictionary_base: str, custom_words: tuple = (), vocabulary_files: tuple = ()):
    """Hunspell with the custom words added one by one and the vocabulary .dic files added whole.

    Built on the worker: the Hunspell object cannot be pickled.
    """
    import hunspell

    dic, aff = Path(dictionary_base + ".dic"), Path(dictionary_base + ".aff")
    for path in (dic, aff):
        if not path.is_file():
            raise DictionaryFileError(
                f"Hunspell dictionary file {path} not found (Debian: apt-get install hunspell-en-us)")
    checker = hunspell.HunSpell(str(dic), str(aff))
    for word in custom_words:
        checker.add(word)
    for path in vocabulary_files:
        if not resolve(path).is_file():
            raise DictionaryFileError(f"vocabulary file {resolve(path)} not found")
        checker.add_dic(str(resolve(path)))  # Hunspell's own .dic format, affix flags and all
    return checker


def open_suggester(dictionary_base: str, vocabulary_files: tuple = ()):
    """Hunspell for the gate's suggestions: the same dictionary without n-gram or compound suggestions.

    With them a suggestion costs about 23 ms; without n-grams 2 ms, and without compound
    words too 0.4 ms. On MSR-VTT's 8,957 rejected tokens the last two give the same
    suggestions but for two numbers ("183th"), and n-grams add little the corpus's own
    words do not give. Hunspell reads these settings only from the .aff file, so a copy
    with `MAXNGRAMSUGS 0` and `MAXCPDSUGS 0` added is written to a temporary folder
    (Hunspell reads it when it opens, so the folder goes at once).
    """
    import tempfile

    aff, dic = Path(dictionary_base + ".aff"), Path(dictionary_base + ".dic")
    if not (aff.is_file() and dic.is_file()):
        return open_hunspell(dictionary_base)  # which names the missing file
    with tempfile.TemporaryDirectory(prefix="capclean-hunspell-") as folder:
        base = Path(folder) / dic.stem
        Path(f"{base}.aff").write_bytes(aff.read_bytes() + b"\nMAXNGRAMSUGS 0\nMAXCPDSUGS 0\n")
        Path(f"{base}.dic").symlink_to(dic.resolve())
        return open_hunspell(str(base), (), vocabulary_files)


# Step II and every recheck round ask Hunspell about the same tokens, and no corpus figure changes its
# answers: one Hunspell per configuration, and one cache of its answers, serve them all in a process.
_SHARED = {}


def shared(key: tuple, make):
    """`make()`, once per process for `key` (the configuration the object depends on)."""
    if key not in _SHARED:
        _SHARED[key] = make()
    return _SHARED[key]


class SuggestionCache:
    """token -> Hunspell's suggestions (lower case, a tuple), remembered (past `maxsize` tokens, the least
    recently asked is forgotten). `known(token)`: whether they are remembered, so that asking is free (the
    recheck's reach asks them first then, and last otherwise: spelling/reach.py)."""

    def __init__(self, suggester, maxsize: int = 100_000):
        self._suggester = suggester
        self._maxsize = maxsize
        self._remembered = OrderedDict()

    def __call__(self, token: str) -> tuple:
        found = self._remembered.get(token)
        if found is not None:
            self._remembered.move_to_end(token)
            return found
        found = self._remembered[token] = tuple(word.lower() for word in suggestions_of(self._suggester, token))
        if len(self._remembered) > self._maxsize:
            self._remembered.popitem(last=False)
        return found

    def known(self, token: str) -> bool:
        return token in self._remembered


def suggestion_cache(suggester, maxsize: int = 100_000) -> SuggestionCache:
    return SuggestionCache(suggester, maxsize)


def suggestions_of(checker, token: str) -> list:
    try:
        return checker.suggest(token)
    except UnicodeError:
        return []


class Dictionary:
    """Whether Hunspell (with the custom words and the vocabulary) knows a word, in the ways the
    ranked rule asks: as written, capitalised or in capitals, or only capitalised (a name)."""

    def __init__(self, checker):
        self._checker = checker
        # Asked for the word before every rejected token; a plain dict per instance would grow without bound.
        self._is_name = lru_cache(maxsize=100_000)(self._known_only_capitalised)

    def accepts(self, word: str) -> bool:
        try:
            return self._checker.spell(word)
        except UnicodeError:
            return False  # a word Hunspell cannot encode is no word it knows

    def accepts_in_some_case(self, word: str) -> bool:
        return self.accepts(word.capitalize()) or self.accepts(word.upper())

    def accepts_in_any_case(self, word: str) -> bool:
        return self.accepts(word) or self.accepts_in_some_case(word)

    def is_name(self, word: str) -> bool:
        """A word Hunspell knows only capitalised: a proper name."""
        return self._is_name(word)

    def _known_only_capitalised(self, word: str) -> bool:
        return bool(word) and word.isalpha() and not self.accepts(word) and self.accepts(word.capitalize())


class RememberingDictionary(Dictionary):
    """A Dictionary that remembers what Hunspell accepted: for a checker nothing adds words to any more
    (step II's, shared by the recheck rounds)."""

    def __init__(self, checker, maxsize: int = 1_000_000):
        super().__init__(checker)
        self._accepts = lru_cache(maxsize=maxsize)(super().accepts)

    def accepts(self, word: str) -> bool:
        return self._accepts(word)
