"""Step II over captions and videos: the mappings, then the profile's rule on every piece."""
from dataclasses import replace
from functools import lru_cache, partial
from typing import Callable, Optional

from transforms.batch import rewrite_captions
from transforms.corpus import corpus_aggregates
from transforms.lineage import CorrectionRow, FlaggedRow
from transforms.spelling.agreement import PluralWrittenApart, SingularAfterDeterminer
from transforms.spelling.compounds import Compounds, english_zipf
from transforms.spelling.confusions import Confusions
from transforms.spelling.context import NO_OTHER_CAPTIONS, OtherCaptions, captions_writing
from transforms.spelling.first_suggestion import FirstSuggestion
from transforms.spelling.gate import CorrectionGate, resolve_gate
from transforms.spelling.hunspell import (RememberingDictionary, open_hunspell, open_suggester, shared,
                                         suggestion_cache)
from transforms.spelling.possessive import Possessives
from transforms.spelling.ranked import RankedCorrection
from transforms.spelling.reach import MovedFigures, Reach
from transforms.spelling.real_word import RealWords
from transforms.spelling.settings import SpellingSettings
from transforms.spelling.wordlists import WordLists
from transforms.step import Step

STEP = "spelling"


def correction_row(position: int, original: str, replacement: str, rule: str, score=None, evidence=None) -> dict:
    """A row of corrections/, without its sen_id; `evidence`: a real_word.ContextEvidence, as columns."""
    row = {"position": position, "original": original, "replacement": replacement, "rule": rule, "score": score}
    return {**row, **evidence.as_columns()} if evidence is not None else row


def flagged_row(position: int, token: str, decision) -> dict:
    """A row of flagged/, without its sen_id: the flagged Decision's reason, candidate and evidence
    (decisions.FlagEvidence, as columns; null where the rule has none)."""
    row = {"position": position, "token": token, "reason": decision.flag, "candidate": decision.candidate}
    return {**row, **decision.evidence.as_columns()} if decision.evidence is not None else row


def of_caption(sen_id: int, rows: list, row_type) -> list:
    """The lineage rows (transforms/lineage.py) of one caption's rows."""
    return [row_type(sen_id=sen_id, **row) for row in rows]


def correct_caption(text: str, mappings: tuple, decide: Callable, is_plain: Callable = lambda token: False,
                    in_context: Optional[Callable] = None, drop_doubled: bool = False) -> tuple:
    """The corrected caption, its correction rows and its flagged rows (all without sen_id).

    `mappings` are (rule, {from: to}) pairs applied in turn to each token's
    pieces; then `decide(piece, previous, following)` returns the Decision for
    every piece, given the word before it (as corrected) and the word after it
    (as written). Lookups are one token at a time, as published, so mapping
    keys holding a space never apply. Positions are token indexes in the
    caption this step received. A token `is_plain` says no mapping or rule
    would change is kept without asking them.

    `in_context(tokens, position, previous)`, if given, is asked first about every token: a
    real_word.RealWordFix it returns (a real-word error, a possessive read in context) replaces
    the token, or two for a join, and the rest is not asked. `drop_doubled`: a split or join whose
    first or last word repeats its neighbour drops it ("warand and" -> "war and", not "war and
    and"), with a row of rule `doubled_word` (the word, replaced by nothing).
    """
    tokens = text.split()
    words, corrections, flagged = [], [], []
    joined = 0  # tokens a join has taken already
    for position, token in enumerate(tokens):
        if joined:
            joined -= 1
            continue
        fix = in_context(tokens, position, words[-1] if words else "") if in_context else None
        if fix is not None:
            corrections.append(correction_row(position, fix.original, fix.replacement, fix.rule, fix.score,
                                              fix.evidence))
            joined = fix.length - 1
            after_fix = tokens[position + fix.length] if position + fix.length < len(tokens) else ""
            pieces = fix.replacement.split()
            if drop_doubled:
                pieces = _without_doubles(pieces, words[-1] if words else "", after_fix, position, corrections)
            words.append(" ".join(pieces))  # as the rules' splits are: one entry
            continue
        if is_plain(token):
            words.append(token)
            continue
        start = len(words)
        pieces = [token]
        for rule, mapping in mappings:
            pieces = _map_pieces(pieces, mapping, rule, position, corrections)
        after_token = tokens[position + 1] if position + 1 < len(tokens) else ""
        for index, piece in enumerate(pieces):
            following = pieces[index + 1] if index + 1 < len(pieces) else after_token
            decision = decide(piece, words[-1] if words else "", following)
            if decision.replacement is not None and decision.replacement != piece:
                corrections.append(correction_row(position, piece, decision.replacement, decision.rule,
                                                  decision.score))
                piece = decision.replacement
            elif decision.flag:
                flagged.append(flagged_row(position, piece, decision))
            words.append(piece)
        if drop_doubled:
            written = " ".join(words[start:]).split()  # a split piece is one entry holding a space
            kept = _without_doubles(written, words[start - 1] if start else "", after_token, position, corrections)
            if len(kept) < len(written):
                words[start:] = kept
    return " ".join(words).lower(), corrections, flagged


def _without_doubles(pieces: list, previous: str, following: str, position: int, corrections: list) -> list:
    """The words a token was split into (or two were joined into), less a first word that repeats the word
    before or a last word that repeats the word after, each dropped with a `doubled_word` row. A token
    that stays one word keeps it ("sister sister" is a show's name)."""
    if len(pieces) > 1 and pieces[-1] == following:
        corrections.append(correction_row(position, pieces[-1], "", "doubled_word"))
        pieces = pieces[:-1]
    if len(pieces) > 1 and pieces[0] == previous:
        corrections.append(correction_row(position, pieces[0], "", "doubled_word"))
        pieces = pieces[1:]
    return pieces


def _map_pieces(pieces, mapping, rule, position, corrections):
    mapped = []
    for piece in pieces:
        if piece in mapping:
            corrections.append(correction_row(position, piece, mapping[piece], rule))
            mapped.extend(mapping[piece].split())
        else:
            mapped.append(piece)
    return mapped


def rule_for(config, word_lists: WordLists, checker, token_stats, phrases, use_gate: bool, dictionary=None):
    """The profile's rule: `ranked` (with the gate, if the profile names one) or a published one.
    `dictionary`: `checker`'s hunspell.Dictionary, if it has one already."""
    if config.suggestion != "ranked":
        return FirstSuggestion(checker, config.suggestion)
    gate = CorrectionGate(resolve_gate(config.gate)) if config.gate and use_gate else None
    suggester, suggestions = None, None
    if config.gate:
        key = ("suggester", config.hunspell_dictionary, tuple(config.vocabulary))
        suggester = shared(key, lambda: open_suggester(config.hunspell_dictionary, config.vocabulary))
        suggestions = shared(key + ("suggestions",), lambda: suggestion_cache(suggester))
    return RankedCorrection(checker, config, token_stats, phrases, word_lists.mapped, word_lists.plural_readings,
                            word_lists.common_misspellings, gate, suggester, dictionary, suggestions)


def in_context_rule(config, word_lists: WordLists, token_stats, phrases, accepts=None, accepts_standard=None) -> tuple:
    """(find, concerns) of the decisions asked about every token, accepted or not (correct_caption's
    `in_context`): possessives read in context, the reviewed real-word errors and confusions, plurals written as
    possessives, number after a determiner, then compounds written apart; (None, None) if the profile has
    none. `concerns(tokens)`: whether a caption holds anything they may change. `accepts(word)`: the
    dictionary's verdict (the plurals and compounds ask it); `accepts_standard(word)`: the standard
    dictionary's, without the vocabulary (a compound's pieces)."""
    readers = []
    if config.possessives and word_lists.plural_readings:
        readers.append(Possessives(word_lists.plural_readings, phrases, config.min_phrase_count))
    if word_lists.real_words:
        readers.append(RealWords(word_lists.real_words, token_stats, phrases, config.real_word_min_support,
                                 config.real_word_margin))
    if word_lists.confusions:
        readers.append(Confusions(word_lists.confusions, token_stats, phrases, config.confusion_margin,
                                  config.real_word_min_support))
    if config.number_agreement:
        readers.append(PluralWrittenApart(token_stats, phrases, word_lists.plural_readings, accepts_standard or accepts))
        readers.append(SingularAfterDeterminer(token_stats, phrases))
    if config.compounds:
        readers.append(Compounds(token_stats, phrases, accepts, frozenset(word_lists.splits),
                                 config.compound_min_ratio, config.compound_min_count, config.compound_margin,
                                 config.real_word_min_support, accepts_standard,
                                 english_zipf()))
    if not readers:
        return None, None

    def find(tokens: list, at: int, previous: str):
        return next((fix for reader in readers for fix in [reader.find(tokens, at, previous)] if fix), None)

    def concerns(tokens: list) -> bool:
        return any(reader.concerns(tokens) for reader in readers)

    return find, concerns


class Speller:
    """Step II ready to run: Hunspell with the vocabulary, the mappings and the profile's rule.

    `token_stats` and `phrases` are the corpus statistics the ranked rule reads.
    """

    def __init__(self, config, word_lists: WordLists, token_stats=None, phrases=None, use_gate: bool = True):
        """`use_gate=False`: the gate's candidates are gathered but the rule's decisions stand (to train the gate)."""
        # Hunspell and its answers are the process's for this configuration (hunspell.shared): the
        # recheck rounds ask about the tokens step II asked about, and the answers are the same.
        key = ("checker", config.hunspell_dictionary, tuple(word_lists.custom_words), tuple(config.vocabulary))
        self._checker = shared(key, lambda: open_hunspell(config.hunspell_dictionary, word_lists.custom_words,
                                                          config.vocabulary))
        self._word_lists = word_lists
        self._mapped = word_lists.mapped
        dictionary = shared(key + ("dictionary",), lambda: RememberingDictionary(self._checker))
        self.rule = rule_for(config, word_lists, self._checker, token_stats, phrases, use_gate, dictionary)
        standard = None
        if config.compounds or config.number_agreement:
            standard = shared(("standard", config.hunspell_dictionary),
                              lambda: RememberingDictionary(open_hunspell(config.hunspell_dictionary)))
        self._in_context, self._in_context_concerns = in_context_rule(
            config, word_lists, token_stats, phrases, dictionary.accepts, standard.accepts if standard else None)
        self._drop_doubled = config.drop_doubled_words
        self._plain_word = shared(key + ("plain words", word_lists.mapped),
                                  lambda: lru_cache(maxsize=500_000)(partial(is_plain_word, self._checker,
                                                                             word_lists.mapped)))
        self._reach = (Reach(config, phrases or {}, word_lists.plural_readings, word_lists.common_misspellings,
                             self.rule.suggestions)
                       if isinstance(self.rule, RankedCorrection) else None)
        self._token_stats = token_stats or {}
        self._plain_vocabulary = None  # the corpus words no rule is asked about, if may_change is asked

    def correct(self, text: str, clip: OtherCaptions = NO_OTHER_CAPTIONS) -> tuple:
        """(corrected caption, correction rows, flagged rows), rows without sen_id.

        `clip`: the words the other captions of the same clip write (OtherCaptions).
        """
        tokens = text.split()
        if all(map(self._plain_word, tokens)) and not (self._in_context and self._in_context_concerns(tokens)):
            # Most captions: every rule keeps an accepted word, so there is nothing to decide.
            return " ".join(tokens).lower(), [], []
        decide = partial(self.rule.decide, clip=clip)
        return correct_caption(text, self._word_lists.mappings, decide, self._plain_word, self._in_context,
                               self._drop_doubled)

    def may_change(self, text: str, moved: MovedFigures, clip_of: Callable = lambda text: NO_OTHER_CAPTIONS) -> bool:
        """Whether correcting `text` again may change it, when it was last corrected (and left as it
        was, in the same clip) with corpus figures that differ from this speller's only by `moved`
        (reach.py): a moved figure reaches a token the rule decides, before the gate or in the gate
        where the chain asks it; or a rule asked about every token is on. `clip_of(text)`: the
        caption's OtherCaptions, asked only where the gate's figures moved."""
        if self._reach is None or self._in_context is not None:
            return True
        if self._plain_vocabulary is None:
            self._plain_vocabulary = frozenset(word for word in self._token_stats if self._plain_word(word))
        tokens = text.split()
        if self._plain_vocabulary.issuperset(tokens):
            return False  # most captions: one set operation instead of a question a token
        for at, token in enumerate(tokens):
            if self._plain_word(token):
                continue  # no rule is asked
            if token in self._mapped:
                return True  # a mapping would rewrite it, whatever the figures
            previous = tokens[at - 1] if at else ""
            following = tokens[at + 1] if at + 1 < len(tokens) else ""
            if self._reach.reaches_before_gate(token, previous, following, moved) or (
                    self.rule.gate is not None and self._reach.reaches_the_gate(
                        token, previous, following, moved,
                        lambda: self.rule.asks_the_gate(token, previous, following, clip_of(text)))):
                return True
        return False


def is_plain_word(checker, mapped: frozenset, token: str) -> bool:
    """Hunspell accepts the token and no mapping rewrites it."""
    try:
        return token not in mapped and bool(checker.spell(token))
    except UnicodeError:
        return False


def correct_video(batch, speller, edit_rule_prefix: str = ""):
    """Step II on one video: its captions corrected, with their edits, corrections and flagged tokens."""
    corrections, flagged = [], []
    in_clip = captions_writing(caption.text for caption in batch.captions)

    def correct(caption):
        clip = OtherCaptions(in_clip, caption.text)
        new_text, rows, flags = speller.correct(caption.text, clip)
        corrections.extend(of_caption(caption.sen_id, rows, CorrectionRow))
        flagged.extend(of_caption(caption.sen_id, flags, FlaggedRow))
        return new_text, edit_rule_prefix + (",".join(sorted({row["rule"] for row in rows})) or "lowercase")

    corrected = rewrite_captions(batch, STEP, correct, pass_caption=True)
    return replace(corrected, corrections=batch.corrections + corrections, flagged=batch.flagged + flagged)


class Spelling(Step):
    """Step II. The ranked rule reads the corpus statistics, and the speller is built from them."""
    name = STEP
    summary = "spelling"
    Settings = SpellingSettings

    def __init__(self, config):
        super().__init__(config)
        # Read here, so that a missing list stops the run before any worker starts.
        self._word_lists = WordLists.read(self.settings)
        self._speller = None

    def aggregates(self) -> dict:
        return corpus_aggregates() if self.settings.suggestion == "ranked" else {}

    def setup(self):
        self._speller = None  # built on the first video: the ranked rule needs the figures

    def process(self, video, token_stats=None, phrases=None):
        if self._speller is None:
            self._speller = Speller(self.settings, self._word_lists, token_stats, phrases)
        return correct_video(video, self._speller)
