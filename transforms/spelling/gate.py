"""A learned check on step II's corrections: accept, choose another candidate, or abstain.

The ranked rule (transforms/spelling/) decides with hand-set thresholds, and
on the labelled dev set its errors are a long tail no further rule reaches:
"soilder" -> "solider" (soldier), "childrens eating" -> "children s". The gate
looks at every correction the rule makes (from the corpus, the context, the
clip or the common-misspellings list) and at every token it leaves flagged,
gathers the candidates for the token (the rule's own, Hunspell's suggestions,
the corpus's words within the edit distance), and scores each with a small
classifier trained on the dev set (training/spelling_gate.py):
gradient-boosted trees over the features below, exported to ONNX and run on
onnxruntime. The likeliest candidate replaces the token when its probability
reaches the threshold; otherwise a change the rule made is withdrawn and the
token flagged. A wrong correction is worse than none.

Everything here but `CorrectionGate` is a pure function of its arguments.
"""
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

import numpy as np
from rapidfuzz.distance import OSA

GATE_DIR = Path(__file__).resolve().parent / "gate_model"

# The rule decisions the gate checks: those that change a token on the corpus's evidence. The
# curated mappings (british, the split list, the vocabulary's misspellings) are not checked.
CHECKED_RULES = ("ranked", "context", "clip", "misspelling_list", "dropped_g", "plural_in_context", "split")
# Where a candidate comes from: the rule's own correction (by its rule) or flagged candidate,
# Hunspell's suggestions, and the corpus's words (written at least min_candidate_count times, or rarer).
SOURCES = CHECKED_RULES + ("flagged", "hunspell", "corpus", "rare")
# Why the rule flagged the token (the start of Decision.flag), one feature each.
FLAG_REASONS = ("no close word", "an uncommon typo", "the best candidate", "short token", "follows a name",
                "two known words", "no clear best")
HUNSPELL_SUGGESTIONS = 5  # the first suggestions that are candidates

FEATURES = (
    "distance", "distance_per_letter", "token_letters", "slip", "lacks_a_letter", "common_typo",
    "log_token_count", "log_token_videos", "log_candidate_count", "log_count_ratio",
    "candidate_in_clip", "token_in_clip", "hunspell_first", "hunspell_top3", "not_suggested",
    "log_candidate_context", "log_token_context", "candidate_accepted", "candidate_is_two_words",
    "same_first_letter", "candidate_is_name",
    *(f"source_{source}" for source in SOURCES), *(f"flag_{reason.replace(' ', '_')}" for reason in FLAG_REASONS),
    "bigram_fit", "bigram_fit_over_others", "bigram_fit_over_token", "candidates",
)


@dataclass(frozen=True)
class Evidence:
    """What the gate may know about words, as functions (RankedCorrection provides them)."""
    stats: dict  # word -> (count, videos) over the corpus
    phrases: dict  # "left right" -> count
    support: Callable  # (word, previous, following) -> how often the corpus writes the word beside them
    accepts: Callable  # Hunspell accepts the word as written
    is_name: Callable  # Hunspell knows the word only capitalised
    suggestions: Callable  # token -> Hunspell's suggestions, lower case
    is_slip: Callable  # (typo, word) -> a slip of the hand (transforms/spelling/typos.py)
    lacks_a_letter: Callable
    is_common_typo: Callable


def candidate_sources(token: str, proposal: Optional[str], proposal_source: str, suggestions: list,
                      corpus_words: list, rare_words: list) -> dict:
    """word -> where it came from, the rule's proposal first; never the token itself."""
    found = {}
    if proposal:
        found[proposal] = proposal_source
    for word in suggestions[:HUNSPELL_SUGGESTIONS]:
        if word.replace(" ", "").isalpha():
            found.setdefault(word, "hunspell")
    for source, words in (("corpus", corpus_words), ("rare", rare_words)):
        for word in words:
            found.setdefault(word, source)
    found.pop(token, None)
    return found


def bigram_fit(word: str, previous: str, following: str, stats: dict, phrases: dict) -> float:
    """log P(word | previous) + log P(following | word), from the corpus's two-word phrases (smoothed)."""
    first, last = word.split()[0], word.split()[-1]
    fit = 0.0
    if previous:
        fit += math.log((phrases.get(f"{previous} {first}", 0) + 0.1) / (stats.get(previous, (0, 0))[0] + 1))
    if following:
        fit += math.log((phrases.get(f"{last} {following}", 0) + 0.1) / (stats.get(last, (0, 0))[0] + 1))
    return fit


def candidate_features(token: str, candidates: dict, flag: Optional[str], previous: str, following: str,
                       in_clip: Callable, evidence: Evidence) -> list:
    """One row of FEATURES per candidate, in the order of `candidates`."""
    fits = {word: bigram_fit(word, previous, following, evidence.stats, evidence.phrases) for word in candidates}
    token_fit = bigram_fit(token, previous, following, evidence.stats, evidence.phrases)
    suggested = evidence.suggestions(token)
    token_count, token_videos = evidence.stats.get(token, (0, 0))
    rows = []
    for word, source in candidates.items():
        parts = word.split()
        one_word = len(parts) == 1
        distance = OSA.distance(token, word)
        rank = suggested.index(word) if word in suggested else None
        count = min(evidence.stats.get(part, (0, 0))[0] for part in parts)
        others = [fit for other, fit in fits.items() if other != word]
        rows.append([
            distance, distance / len(token), len(token),
            one_word and evidence.is_slip(token, word), one_word and evidence.lacks_a_letter(token, word),
            one_word and evidence.is_common_typo(token, word),
            math.log1p(token_count), math.log1p(token_videos), math.log1p(count),
            math.log1p(count) - math.log1p(token_count),
            all(in_clip(part) for part in parts), in_clip(token), rank == 0, rank is not None and rank < 3,
            rank is None,
            math.log1p(evidence.support(word, previous, following)),
            math.log1p(evidence.support(token, previous, following)),
            all(evidence.accepts(part) for part in parts), not one_word, token[0] == word[0],
            one_word and evidence.is_name(word),
            *(source == name for name in SOURCES), *(bool(flag) and flag.startswith(reason) for reason in FLAG_REASONS),
            fits[word], fits[word] - max(others, default=-30.0), fits[word] - token_fit, len(candidates),
        ])
    return [[float(value) for value in row] for row in rows]


def likeliest(candidates: dict, probabilities: list) -> tuple:
    """(word, probability) of the likeliest candidate; ties go to the first (the rule's own)."""
    best = max(range(len(probabilities)), key=lambda i: (probabilities[i], -i))
    return list(candidates)[best], probabilities[best]


@dataclass(frozen=True)
class GateCard:
    """What transforms/spelling/gate_model/model.json says about the classifier beside it."""
    features: tuple
    trained_on: str


def resolve_gate(gate: str) -> Path:
    """The gate's folder: `builtin` is the one versioned here (transforms/spelling/gate_model/), else a path."""
    return GATE_DIR if gate == "builtin" else Path(gate)


def read_gate_card(gate_dir) -> GateCard:
    card = json.loads((Path(gate_dir) / "model.json").read_text(encoding="utf-8"))
    return GateCard(tuple(card["features"]), str(card["trained_on"]))


class CorrectionGate:
    """The ONNX classifier, loaded once per worker; checks that it reads the features this module computes."""

    def __init__(self, gate_dir=GATE_DIR):
        import onnxruntime

        gate_dir = Path(gate_dir)
        for name in ("model.onnx", "model.json"):
            if not (gate_dir / name).is_file():
                raise FileNotFoundError(f"spelling gate file {gate_dir / name} not found (make spelling-train writes it)")
        self.card = read_gate_card(gate_dir)
        if self.card.features != FEATURES:
            raise ValueError(f"spelling gate {gate_dir} was trained on other features than transforms/spelling/gate.py "
                             "computes: train it again (make spelling-train)")
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = 1  # Beam runs one DoFn per core already
        self._session = onnxruntime.InferenceSession(str(gate_dir / "model.onnx"), options,
                                                     providers=["CPUExecutionProvider"])
        self._input = self._session.get_inputs()[0].name

    def probabilities(self, rows: list) -> list:
        """The probability that each candidate is the word the caption needs."""
        scores = self._session.run(["probabilities"], {self._input: np.asarray(rows, dtype=np.float32)})[0]
        return [float(score) for score in scores[:, 1]]
