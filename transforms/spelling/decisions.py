"""What the ranked rule does with a token: a chain of decisions, each free to overrule the one before.

DECISION_CHAIN below is the whole order. Each link takes the decision so far,
the token (with its neighbours and its clip) and the rule (ranked.py's
RankedCorrection: the settings and what the links read), and returns that
decision or a new one.
"""
from dataclasses import asdict, dataclass, replace
from typing import Optional

from transforms.spelling.context import OtherCaptions, clip_choice, reads_plural
from transforms.spelling.gate import CHECKED_RULES, FEATURES, likeliest
from transforms.spelling.typos import is_common_typo

# Decisions to keep a token that the list of common misspellings overrules: a flagged token, and one kept
# only because it looks like a plural ("ballons", "heros"), a regular inflection ("argueing", "occured") or a
# word of many videos ("speach"). The corpus had no better candidate; the list knows the typo.
LIST_OVERRULES = frozenset(("flagged", "plural", "inflected", "domain"))
# What an apostrophe leaves behind when captions write it as a space ("didn t", "they re").
CLITICS = frozenset(("s", "t", "d", "m", "ll", "re", "ve"))


@dataclass(frozen=True)
class FlagEvidence:
    """What the rule knew of a flagged token's best candidate, as flagged/'s columns (schemas/tables.py)."""
    flagged_by: str  # the link that flagged it: corpus, context, clip_evidence, clipped_name or gate
    distance: Optional[int] = None  # the candidate's edit distance, as the rule or the gate measured it
    score: Optional[float] = None  # the gate's probability for the candidate, where the gate looked at it
    token_count: Optional[int] = None  # the corpus statistics the rule read (with_counts below)
    token_videos: Optional[int] = None
    candidate_count: Optional[int] = None  # a two-word candidate: how often the corpus writes the phrase
    candidate_videos: Optional[int] = None  # null for a two-word candidate

    def as_columns(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Decision:
    """What the step does with a token Hunspell rejects: replace it, keep it, or keep it and flag it."""
    replacement: Optional[str] = None  # None: the token stays
    rule: str = "accepted"  # the rule that decided; "accepted": Hunspell knows the token
    score: Optional[float] = None  # confidence of a ranked decision
    flag: Optional[str] = None  # why a token that stays is flagged for review
    candidate: Optional[str] = None  # the best candidate of a flagged token
    # Candidates (word, distance, weight) of a token the context-free rule could not decide; the context may.
    candidates: tuple = ()
    evidence: Optional[FlagEvidence] = None  # a flagged token's: its best candidate's evidence


KEEP = Decision()


def flagged(reason: str, candidate: Optional[str], candidates: tuple, by: str) -> Decision:
    """The token stays, flagged for review by the link `by`; the candidate's distance is the one the rule
    ranked it at, when it is among `candidates` ((word, distance, weight) triples)."""
    distance = next((found for word, found, _ in candidates if word == candidate), None)
    return Decision(None, "flagged", flag=reason, candidate=candidate, candidates=candidates,
                    evidence=FlagEvidence(by, distance))


def with_counts(decision: Decision, token: str, stats: dict, phrases: dict) -> Decision:
    """A flagged decision with the corpus counts the rule read of its token and its candidate (0 for a word
    the corpus does not write, as the rule reads them)."""
    token_count, token_videos = stats.get(token, (0, 0))
    candidate = decision.candidate
    if candidate is None:
        candidate_count, candidate_videos = None, None
    elif " " in candidate:
        candidate_count, candidate_videos = phrases.get(candidate, 0), None
    else:
        candidate_count, candidate_videos = stats.get(candidate, (0, 0))
    return replace(decision, evidence=replace(decision.evidence, token_count=token_count, token_videos=token_videos,
                                              candidate_count=candidate_count, candidate_videos=candidate_videos))


def is_checked(decision: Decision) -> bool:
    """A decision the gate checks: a change on the corpus's evidence, or a flagged token."""
    return decision.rule in CHECKED_RULES or decision.rule == "flagged"


@dataclass(frozen=True)
class Token:
    """A piece of a caption to decide, with the word before it (as corrected), the word after it
    (as written) and the words the other captions of its clip write (context.OtherCaptions)."""
    text: str
    previous: str
    following: str
    clip: OtherCaptions


def decide_on_corpus(decision: Decision, token: Token, rule) -> Decision:
    """The start: Hunspell and the corpus alone (corpus_rule.py) accept, keep, split or correct the token,
    or leave its candidates to the context."""
    # After a name ("russell crowe", "jim carrey") an unknown word is most likely a surname.
    return rule.corpus_rule.decide(token.text, rule.dictionary.is_name(token.previous))


def decide_in_context(decision: Decision, token: Token, rule) -> Decision:
    """Candidates the corpus left open: the one the neighbouring words clearly choose (context.py)."""
    if not (rule.config.context and decision.candidates):
        return decision
    chosen = rule.context_choice.choose(token.text, token.previous, token.following, decision.candidates)
    if chosen is not None:
        return Decision(chosen[0], "context", chosen[1])
    if decision.rule == "ranked":
        # A short token has many neighbours one edit away ("plad": play, plaid, plan):
        # the corpus alone does not choose for it, the context must.
        return flagged("short token: its context does not choose a candidate", decision.replacement,
                       decision.candidates, "context")
    return decision


def read_plural_in_context(decision: Decision, token: Token, rule) -> Decision:
    """A run-together possessive the word lists read as a plural ("mens" -> "men") where its
    neighbours read plural ("two mens are"), whatever the corpus made of it."""
    plural = rule.plural_readings.get(token.text)
    if plural is not None and reads_plural(token.previous, token.following):
        return Decision(plural, "plural_in_context", 1.0)
    return decision


def require_clip_evidence(decision: Decision, token: Token, rule) -> Decision:
    """A correction to a word an uncommon typo away stands only if another caption of the clip writes it."""
    if not (rule.config.clip_evidence and decision.rule in ("ranked", "context")):
        return decision
    if is_common_typo(token.text, decision.replacement) or decision.replacement in token.clip:
        return decision
    return flagged("an uncommon typo, and no other caption of the clip writes the word", decision.replacement,
                   decision.candidates, "clip_evidence")


def correct_from_clip(decision: Decision, token: Token, rule) -> Decision:
    """A flagged token takes the one close word the clip's other captions write (context.clip_choice)."""
    if not (rule.config.clip_candidates and decision.rule == "flagged"):
        return decision
    chosen = clip_choice(token.text, token.clip, rule.candidates, rule.dictionary, rule.mapped)
    return decision if chosen is None else Decision(chosen[0], "clip", chosen[1])


def correct_from_list(decision: Decision, token: Token, rule) -> Decision:
    """A token the rule keeps (LIST_OVERRULES) takes the list of common misspellings' one correction, when
    its words are words ("restuarant", "rythm": the corpus writes the word too rarely, or not close enough)."""
    word = rule.common_misspellings.get(token.text) if decision.rule in LIST_OVERRULES else None
    if word is None or not all(rule.candidates.is_split_word(part) or part in CLITICS for part in word.split()):
        return decision
    return Decision(word, "misspelling_list", 1.0)


def keep_name_clippings(decision: Decision, token: Token, rule) -> Decision:
    """A token that begins a name the corpus writes often ("lambo" of "lamborghini") is a clipping, not a
    typo of a shorter word (clippings.py): it stays, flagged for review, and the gate is not asked."""
    if rule.clippings is None or not is_checked(decision) or not rule.clippings.clips(token.text):
        return decision
    candidate = decision.replacement or decision.candidate
    distance = decision.evidence.distance if decision.evidence and candidate == decision.candidate else None
    return Decision(None, "clipped_name", flag="begins a name the corpus writes often: a clipping",
                    candidate=candidate, evidence=FlagEvidence("clipped_name", distance))


def check_with_gate(decision: Decision, token: Token, rule) -> Decision:
    """The learned gate (gate.py) on a checked decision: its likeliest candidate replaces the token
    if it trusts it enough; else the token stays, flagged. No gate: the decision stands."""
    if rule.gate is None or not is_checked(decision):
        return decision
    candidates, rows = rule.gate_candidates(token, decision)
    if not candidates:
        return decision
    word, probability = likeliest(candidates, rule.gate.probabilities(rows))
    distance = int(rows[list(candidates).index(word)][FEATURES.index("distance")])
    return gate_verdict(decision, word, probability, rule.config.gate_threshold, distance)


def gate_verdict(decision: Decision, word: str, probability: float, threshold: float,
                 distance: Optional[int] = None) -> Decision:
    """The gate's likeliest candidate `word` replaces the token at `threshold` or more; else the token stays,
    flagged, with the gate's candidate, its `distance` (the gate's feature) and its probability as evidence."""
    score = round(probability, 4)
    if probability >= threshold:
        return replace(decision, score=score) if word == decision.replacement else Decision(word, "gate", score)
    if decision.replacement is None:
        flagged_by = decision.evidence.flagged_by if decision.evidence else "gate"
        return replace(decision, candidate=word, evidence=FlagEvidence(flagged_by, distance, score))
    doubt = f"the gate doubts the {decision.rule} correction ({decision.replacement})"
    reason = f"{doubt}: it scores {score}" if word == decision.replacement else \
        f"{doubt}; its likeliest candidate {word} scores {score}"
    return Decision(None, "flagged", flag=reason, candidate=word, evidence=FlagEvidence("gate", distance, score))


# The order in which the ranked rule's layers overrule each other, first to last.
DECISION_CHAIN = (
    decide_on_corpus,
    decide_in_context,
    read_plural_in_context,
    require_clip_evidence,
    correct_from_clip,
    correct_from_list,
    keep_name_clippings,
    check_with_gate,
)


# The chain up to the gate: whether the gate is asked, and what it is asked about (spelling/reach.py).
BEFORE_THE_GATE = DECISION_CHAIN[:DECISION_CHAIN.index(check_with_gate)]


def decide(token: Token, rule, chain: tuple = DECISION_CHAIN) -> Decision:
    decision = KEEP
    for link in chain:
        decision = link(decision, token, rule)
    if decision.evidence is not None:
        decision = with_counts(decision, token.text, rule.candidates.stats, rule.candidates.phrases)
    return decision
