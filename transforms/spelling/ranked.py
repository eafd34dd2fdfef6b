"""capclean's ranked rule: what decisions.py's chain reads, gathered once per worker."""
from typing import Optional

from transforms.spelling.candidates import CorpusCandidates
from transforms.spelling.clippings import NameClippings
from transforms.spelling.context import NO_OTHER_CAPTIONS, ContextChoice, OtherCaptions
from transforms.spelling.corpus_rule import CorpusRule
from transforms.spelling.decisions import BEFORE_THE_GATE, Decision, Token, decide, is_checked
from transforms.spelling.gate import Evidence, candidate_features, candidate_sources
from transforms.spelling.hunspell import Dictionary, suggestion_cache
from transforms.spelling.typos import is_common_typo, is_slip, lacks_a_letter


class RankedCorrection:
    """capclean's rule: accept what the dictionary knows in any case, keep domain words,
    correct only to a clearly best candidate the corpus attests, and flag the rest.

    Candidates are the words of the corpus that Hunspell accepts (and, as an
    option, the names it knows capitalised), within a small edit distance, and
    the two-word split the corpus writes apart. They are ranked by edit
    distance, then by their weight: how often the corpus writes them, times
    `slip_weight` for a slip of the hand (a noisy channel in which such typos
    are likelier than other edits). When that leaves no clear winner, the words
    around the token decide, if the corpus writes one candidate there clearly
    more often. The clip's other captions, the list of common misspellings and
    the learned gate may overrule that, in the order of decisions.DECISION_CHAIN.

    `gate`: the learned gate (gate.CorrectionGate; None: the rule's decisions stand); `suggester`: the
    Hunspell its candidates come from besides the rule's (hunspell.open_suggester). `dictionary` (a
    hunspell.Dictionary of `checker`) and `suggestions` (hunspell.suggestion_cache of `suggester`):
    given, they are used instead of new ones (the recheck rounds share step II's, and their answers).
    """

    def __init__(self, checker, config, token_stats: dict, phrases: dict, mapped: frozenset = frozenset(),
                 plural_readings: Optional[dict] = None, common_misspellings: Optional[dict] = None,
                 gate=None, suggester=None, dictionary=None, suggestions=None):
        self.config = config
        self.dictionary = dictionary or Dictionary(checker)
        self.mapped = mapped
        self.plural_readings = plural_readings or {}  # "mens" -> "men", where the context reads a plural
        self.common_misspellings = common_misspellings or {}  # "restuarant" -> "restaurant"
        self.candidates = CorpusCandidates(token_stats, phrases, self.dictionary, mapped, config,
                                           rare_words=suggester is not None)
        self.corpus_rule = CorpusRule(self.dictionary, self.candidates, mapped, config)
        self.context_choice = ContextChoice(self.candidates, config)
        self.gate = gate
        self.clippings = (NameClippings.of_corpus(token_stats or {}, self.dictionary.is_name, config.min_name_count)
                          if config.keep_name_clippings else None)  # "lambo": kept (decisions.keep_name_clippings)
        self.suggestions = None  # token -> Hunspell's suggestions, if the gate asks them
        if suggester is not None:
            self.suggestions = suggestions or suggestion_cache(suggester)
            self._evidence = Evidence(token_stats, phrases, self.candidates.support, self.dictionary.accepts,
                                      self.dictionary.is_name, self.suggestions, is_slip, lacks_a_letter,
                                      is_common_typo)

    def decide(self, piece: str, previous: str = "", following: str = "",
               clip: OtherCaptions = NO_OTHER_CAPTIONS) -> Decision:
        """`clip`: the words the other captions of the token's clip write."""
        return decide(Token(piece, previous, following, clip), self)

    def asks_the_gate(self, piece: str, previous: str = "", following: str = "",
                      clip: OtherCaptions = NO_OTHER_CAPTIONS) -> bool:
        """Whether deciding the token asks the gate: the chain before it makes a decision the gate checks."""
        return self.gate is not None and is_checked(decide(Token(piece, previous, following, clip), self,
                                                           BEFORE_THE_GATE))

    def gate_candidates(self, token: Token, decision: Decision) -> tuple:
        """(candidate -> its source, one feature row per candidate) of a decision the gate checks."""
        piece = token.text
        proposal = decision.replacement or decision.candidate
        source = decision.rule if decision.replacement else "flagged"
        alpha = piece.isalpha()
        candidates = candidate_sources(
            piece, proposal, source, list(self.suggestions(piece)),
            [word for word, _, _ in self.candidates.close_words(piece, 3)] if alpha else [],
            [word for word, _, _ in self.candidates.close_words(piece, 3, rare=True)] if alpha else [])
        return candidates, candidate_features(piece, candidates, decision.flag, token.previous, token.following,
                                              token.clip.__contains__, self._evidence)
