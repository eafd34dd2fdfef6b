"""Step II's learned gate (transforms/spelling/gate.py). (The pure parts of its training:
tests/unit/training/test_spelling_gate_training.py.)"""
import json

import pytest

from transforms.spelling.gate import (FEATURES, GATE_DIR, SOURCES, CorrectionGate, Evidence, bigram_fit,
                                      candidate_features, candidate_sources, likeliest, resolve_gate)


def test_candidates_are_the_rules_then_hunspells_first_five_then_the_corpus_words():
    found = candidate_sources("soilder", "solider", "ranked", ["soldier", "solider", "soil der", "sol-dier", "a", "b", "c"],
                              ["soldier", "solder"], ["soldiers", "soilder"])
    assert list(found.items()) == [("solider", "ranked"), ("soldier", "hunspell"), ("soil der", "hunspell"),
                                   ("a", "hunspell"), ("solder", "corpus"), ("soldiers", "rare")]


def test_a_flagged_token_without_a_candidate_still_gets_hunspells():
    assert candidate_sources("vedio", None, "flagged", ["video"], [], []) == {"video": "hunspell"}


def test_the_bigram_fit_prefers_the_word_the_corpus_writes_between_the_neighbours():
    stats = {"a": (1000, 1), "soldier": (40, 1), "solider": (2, 1), "talks": (300, 1)}
    phrases = {"a soldier": 30, "soldier talks": 5}
    assert bigram_fit("soldier", "a", "talks", stats, phrases) > bigram_fit("solider", "a", "talks", stats, phrases)
    assert bigram_fit("soldier", "", "", stats, phrases) == 0.0  # no neighbours, no evidence


def evidence(stats, phrases=None, words=(), suggestions=()):
    phrases = phrases or {}

    def support(word, previous, following):
        return phrases.get(f"{previous} {word}", 0) + phrases.get(f"{word} {following}", 0)

    return Evidence(stats, phrases, support, lambda word: word in words, lambda word: False,
                    lambda token: list(suggestions), lambda typo, word: False, lambda typo, word: False,
                    lambda typo, word: False)


def test_each_candidate_gets_one_row_of_every_feature():
    stats = {"soilder": (2, 2), "soldier": (40, 30), "solider": (3, 3)}
    candidates = {"solider": "ranked", "soldier": "hunspell"}
    rows = candidate_features("soilder", candidates, None, "a", "talks", lambda word: word == "soldier",
                              evidence(stats, words={"soldier", "solider"}, suggestions=["soldier"]))
    assert len(rows) == 2 and all(len(row) == len(FEATURES) for row in rows)
    named = [dict(zip(FEATURES, row)) for row in rows]
    assert named[0]["source_ranked"] == 1.0 and named[0]["source_hunspell"] == 0.0
    assert named[1]["source_hunspell"] == 1.0 and named[1]["hunspell_first"] == 1.0
    assert named[0]["not_suggested"] == 1.0 and named[1]["candidate_in_clip"] == 1.0
    assert named[1]["distance"] == 2.0 and named[0]["distance"] == 1.0
    assert named[1]["candidates"] == 2.0 and sum(named[0][f"source_{s}"] for s in SOURCES) == 1.0


def test_the_flag_reason_is_a_feature():
    rows = candidate_features("zzap", {"zap": "flagged"}, "no close word in the corpus", "", "", lambda word: False,
                              evidence({}))
    assert dict(zip(FEATURES, rows[0]))["flag_no_close_word"] == 1.0


def test_the_likeliest_candidate_wins_and_a_tie_goes_to_the_first():
    assert likeliest({"a": "ranked", "b": "corpus"}, [0.4, 0.9]) == ("b", 0.9)
    assert likeliest({"a": "ranked", "b": "corpus"}, [0.8, 0.8]) == ("a", 0.8)


class GateByWord:
    """Stands in for the classifier: each candidate's probability looked up by its word."""

    def __init__(self, by_word):
        self.by_word = by_word
        self.words = []  # the candidates of the last check, in order
        self.asked = 0

    def probabilities(self, rows):
        self.asked += 1
        assert len(rows) == len(self.words)
        return [self.by_word.get(word, 0.0) for word in self.words]


class FakeSuggester:
    def __init__(self, suggestions):
        self._suggestions = list(suggestions)

    def suggest(self, token):
        return self._suggestions


@pytest.fixture
def gated_rule(fake_hunspell):
    """gated_rule(by_word, stats, suggestions=(), **options): the ranked rule on hand-made statistics, its gate
    a GateByWord and Hunspell's suggestions given."""
    def make(by_word, stats, suggestions=(), **options):
        from transforms.spelling import SpellingSettings as SpellingConfig
        from transforms.spelling import RankedCorrection

        config = SpellingConfig(suggestion="ranked", min_name_count=20, **options)
        gate = GateByWord(by_word)
        rule = RankedCorrection(fake_hunspell(fake_hunspell.LOWERCASE | fake_hunspell.NAMES_AND_ACRONYMS), config,
                                stats, {}, gate=gate, suggester=FakeSuggester(suggestions))
        gather = rule.gate_candidates

        def gather_and_tell_the_gate(*args):
            candidates, rows = gather(*args)
            gate.words = list(candidates)
            return candidates, rows

        rule.gate_candidates = gather_and_tell_the_gate
        return rule

    return make


COOK_STATS = {"coock": (3, 3), "cock": (6, 2), "cook": (2000, 900)}


def test_the_gate_keeps_a_correction_it_trusts_with_its_probability_as_score(gated_rule):
    decision = gated_rule({"cook": 0.95}, COOK_STATS).decide("coock")
    assert (decision.replacement, decision.rule, decision.score) == ("cook", "ranked", 0.95)


def test_the_gate_withdraws_a_correction_it_doubts_and_flags_the_token(gated_rule):
    decision = gated_rule({"cook": 0.4, "cock": 0.1}, COOK_STATS).decide("coock")
    assert decision.replacement is None and decision.rule == "flagged" and decision.candidate == "cook"
    assert decision.flag == "the gate doubts the ranked correction (cook): it scores 0.4"
    other = gated_rule({"cook": 0.3, "cock": 0.5}, COOK_STATS).decide("coock")
    assert other.flag == "the gate doubts the ranked correction (cook); its likeliest candidate cock scores 0.5"
    assert other.candidate == "cock"


def test_the_gate_may_choose_another_candidate_than_the_rule(gated_rule):
    decision = gated_rule({"cook": 0.3, "cock": 0.9}, COOK_STATS).decide("coock")
    assert (decision.replacement, decision.rule, decision.score) == ("cock", "gate", 0.9)


def test_the_gate_corrects_a_flagged_token_when_a_candidate_is_likely_enough(gated_rule):
    stats = {"qwzxv": (1, 1)}
    assert gated_rule({}, stats).decide("qwzxv").rule == "flagged"  # no candidate at all: stays flagged
    decision = gated_rule({"quiz": 0.85}, stats, suggestions=["quiz"]).decide("qwzxv")
    assert (decision.replacement, decision.rule) == ("quiz", "gate")
    stays = gated_rule({"quiz": 0.5}, stats, suggestions=["quiz"]).decide("qwzxv")
    assert stays.replacement is None and stays.candidate == "quiz"


def test_the_gate_never_checks_a_word_hunspell_accepts_or_knows_capitalised(gated_rule):
    rule = gated_rule({"obama": 1.0}, {"obama": (300, 40)})
    assert rule.decide("cook").rule == "accepted" and rule.decide("obama").rule == "case"
    assert rule.gate.asked == 0


def test_the_gate_threshold_is_the_profiles(gated_rule):
    decision = gated_rule({"cook": 0.75}, COOK_STATS, gate_threshold=0.8).decide("coock")
    assert decision.replacement is None and decision.rule == "flagged"


def test_the_versioned_gate_reads_the_features_this_module_computes():
    gate = CorrectionGate(resolve_gate("builtin"))
    assert gate.card.features == FEATURES and "samples" in gate.card.trained_on
    probabilities = gate.probabilities([[0.0] * len(FEATURES), [1.0] * len(FEATURES)])
    assert len(probabilities) == 2 and all(0.0 <= p <= 1.0 for p in probabilities)


def test_a_gate_trained_on_other_features_is_refused(tmp_path):
    (tmp_path / "model.onnx").write_bytes((GATE_DIR / "model.onnx").read_bytes())
    card = json.loads((GATE_DIR / "model.json").read_text())
    (tmp_path / "model.json").write_text(json.dumps({**card, "features": card["features"][:-1]}))
    with pytest.raises(ValueError, match="trained on other features"):
        CorrectionGate(tmp_path)


def test_a_missing_gate_file_is_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="model.onnx"):
        CorrectionGate(tmp_path)


def test_the_suggesting_hunspell_suggests_without_ngrams_and_names_a_missing_dictionary(tmp_path):
    from transforms.spelling import DictionaryFileError, open_suggester

    checker = open_suggester("/usr/share/hunspell/en_US")
    assert checker.suggest("vedio")[0] == "video"
    with pytest.raises(DictionaryFileError, match=str(tmp_path / "en_US.dic")):
        open_suggester(str(tmp_path / "en_US"))


def test_the_gate_needs_the_ranked_rule_and_a_threshold_in_range():
    from pipelines.config import ConfigError, load_config, override

    with pytest.raises(ConfigError, match="spelling.gate needs"):
        override(load_config("paper"), "spelling", gate="builtin")
    with pytest.raises(ConfigError, match="gate_threshold"):
        override(load_config("default"), "spelling", gate_threshold=1.5)


def test_a_token_the_gate_leaves_flagged_carries_the_gates_candidate_distance_and_probability(gated_rule):
    from transforms.spelling.decisions import FlagEvidence

    withdrawn = gated_rule({"cook": 0.4, "cock": 0.1}, COOK_STATS).decide("coock")
    assert withdrawn.evidence == FlagEvidence("gate", 1, 0.4, 3, 3, 2000, 900)
    # Flagged by the corpus rule (no close word), confirmed by the gate: its candidate is the gate's.
    stays = gated_rule({"quiz": 0.5}, {"qwzxv": (1, 1)}, suggestions=["quiz"]).decide("qwzxv")
    assert stays.evidence == FlagEvidence("corpus", 4, 0.5, 1, 1, 0, 0)
    corrected = gated_rule({"cook": 0.95}, COOK_STATS).decide("coock")
    assert corrected.evidence is None
