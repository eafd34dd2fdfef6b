"""Step II: spelling, with Hunspell and the profile's word lists.

Per token, in the published order: the British-to-American mapping, the
run-together-word mapping, then Hunspell (with the custom vocabulary added) on
every piece; a rejected piece takes a suggestion chosen by the profile's rule
(first_suggestion.py for the published rules, ranked.py for capclean's). The
ranked rule's layers, and the order in which they overrule each other, are
decisions.DECISION_CHAIN; in the default profile its last link is a learned
gate (gate.py, trained by training/spelling_gate.py).
The caption is lowercased afterwards, because suggestions can be capitalised.

The modules, each importing only those above it:
  wordlists.py         the profile's word lists
  hunspell.py          Hunspell, the gate's suggester, what the rules ask of them (Dictionary)
  typos.py             the shapes of typos and plurals, pure functions of two words
  candidates.py        the corpus words a token may stand for, and their weights
  gate.py              the learned gate: its candidates' features and the ONNX classifier
  context.py           the neighbouring words and the clip's other captions
  decisions.py         Decision and the ordered chain of decisions
  corpus_rule.py       the chain's first link: the decision on the corpus alone
  ranked.py            RankedCorrection: the chain with what it reads
  reach.py             which corpus figures a decision may read (the incremental recheck)
  first_suggestion.py  the published rules
  settings.py          the step's configuration section
  step.py              the step on captions and videos (Spelling)
"""
from transforms.spelling.context import NO_OTHER_CAPTIONS, OtherCaptions, captions_writing, reads_plural
from transforms.spelling.decisions import DECISION_CHAIN, KEEP, Decision, Token, is_checked
from transforms.spelling.first_suggestion import FirstSuggestion, choose_suggestion, is_plain
from transforms.spelling.hunspell import open_hunspell, open_suggester
from transforms.spelling.ranked import RankedCorrection
from transforms.spelling.settings import SpellingSettings
from transforms.spelling.step import STEP, Speller, Spelling, correct_caption, correct_video
from transforms.spelling.typos import (close_in_clip, is_common_typo, is_slip, lacks_a_letter, slip_variants,
                                       takes_plain_s)
from transforms.spelling.wordlists import (DictionaryFileError, WordLists, read_common_misspellings, read_mapping,
                                           read_word_list)

__all__ = [
    "STEP", "Spelling", "SpellingSettings", "Speller", "correct_caption", "correct_video",
    "RankedCorrection", "FirstSuggestion", "Decision", "Token", "KEEP", "DECISION_CHAIN", "is_checked",
    "OtherCaptions", "NO_OTHER_CAPTIONS", "captions_writing", "reads_plural",
    "WordLists", "DictionaryFileError", "read_word_list", "read_mapping", "read_common_misspellings",
    "open_hunspell", "open_suggester", "choose_suggestion", "is_plain",
    "is_slip", "slip_variants", "is_common_typo", "lacks_a_letter", "close_in_clip", "takes_plain_s",
]
