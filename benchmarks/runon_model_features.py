"""Features of the word gaps of a parsed caption, for the learned boundary scorer of issue 4.

An experiment, not part of the pipeline: benchmarks/runon_model.py trains an
L2-regularised logistic regression on these features over the hand labels of
tests/data/runon_dev.tsv and scores it leave-one-sample-out against step IV's
rule. It did not beat the rule (README, step IV), so the pipeline does not use it.

"Does a sentence start at word i?" is asked of every gap; the features are the
rule's own verdicts there (its boundary, its candidate subjects and which veto
turned each away) and what the parse says about the words around the gap.
Everything here is a pure function of a spaCy Doc.
"""
from transforms.sentences import (
    AUXILIARY_VERBS, CLAUSE_VERBS, FINITE_TAGS, JOINING_WORDS, NOUN_TAGS, OPEN_ENDING_TAGS, SEQUENCE_ADVERBS,
    SUBJECT_DEPS,
    SUBJECT_PRONOUNS, WORK_NOUNS, BoundaryRule, boundary_tokens, finite_marker, fronted_subordinator,
    has_finite_clause, is_not_a_sentence_start, is_reduced_relative, joined_by_words, subject_starts,
    word_starts,
)

# Coarse tags (the first two letters of the fine tag: NN, VB, JJ, PR, DT, IN ...) at i-1, i and i+1: step IV's
# pipeline runs no attribute ruler, so spaCy's universal `pos_` is empty.
# Dependencies of word i worth a feature of their own; the others share "other".
GAP_DEPS = frozenset({"nsubj", "nsubjpass", "expl", "det", "dobj", "pobj", "compound", "amod", "advmod", "nummod",
                      "poss", "conj", "cc", "prep", "ROOT", "ccomp", "relcl", "advcl", "npadvmod", "appos", "attr"})
# Dependencies of the verb that word i's clause hangs on: how the parser joined the clause.
CLAUSE_DEPS = frozenset({"ROOT", "conj", "ccomp", "relcl", "advcl", "acl", "xcomp", "pcomp", "dep", "parataxis"})
DETERMINERS = frozenset({"a", "an", "the", "another", "some", "this", "these", "one", "two", "three"})


def rule_verdicts(doc, rule: BoundaryRule) -> dict:
    """token index -> the names of what the rule says there, read from one parse.

    `cand`: some clause's subject starts here; `veto:*`: which tests turned it
    away (each test run with the whole caption before it, so the verdicts do
    not depend on the rule's earlier boundaries); `fronted`: a fronted
    subordinate clause opens here; `boundary`: the rule's own boundary.
    """
    verdicts = {}

    def add(i, name):
        verdicts.setdefault(i, set()).add(name)

    for subject, start in subject_starts(doc, rule):
        if start <= 0 or start >= len(doc):
            continue
        add(start, "cand")
        if subject.lower_ in SUBJECT_PRONOUNS:
            add(start, "cand:pronoun")
        if start < rule.min_left_words or len(doc) - start < rule.min_right_words:
            add(start, "veto:short")
            continue
        if joined_by_words(doc, start, 0, rule):
            add(start, "veto:joined")
        if is_not_a_sentence_start(doc[0:start], subject, doc[start - 1], doc[start]):
            add(start, "veto:not-start")
        if is_reduced_relative(subject, subject.head, start, rule.transitive_verbs):
            add(start, "veto:relative")
        fronted = fronted_subordinator(doc, subject, start, 0, rule)
        if fronted is not None:
            add(fronted, "fronted")
    for i in boundary_tokens(doc, rule):
        add(i, "boundary")
    return verdicts


def gap_features(doc, i: int, verdicts: dict, rule_words: frozenset, word_index: int, word_count: int) -> list:
    """The names of the binary features, and (name, value) of the real ones, of the gap before token `i`.

    `rule_words`: the word indices where the rule (pieces parsed again) puts a boundary in this caption.
    """
    token, before = doc[i], doc[i - 1]
    after = doc[i + 1] if i + 1 < len(doc) else None
    names = ["bias"]
    names += [f"rule:{name}" for name in sorted(verdicts.get(i, ()))]
    if word_index in rule_words:
        names.append("rule:final")
    names += [f"tag-1={coarse(before)}", f"tag0={coarse(token)}",
              f"tag+1={coarse(after) if after is not None else 'END'}"]
    names.append(f"tag-1,0={coarse(before)},{coarse(token)}")
    names.append(f"dep0={token.dep_ if token.dep_ in GAP_DEPS else 'other'}")
    names.append(f"dep-1={before.dep_ if before.dep_ in GAP_DEPS else 'other'}")
    names += word_class_features(token, before)
    names += clause_features(doc, i)
    reals = [("position", word_index / word_count), ("left-words", min(word_index, 12) / 12),
             ("right-words", min(word_count - word_index, 12) / 12),
             ("since-finite", min(words_since_finite(doc, i), 10) / 10)]
    return names + reals


def coarse(token) -> str:
    """The first two letters of the token's fine tag (VBZ, VBD ... -> VB; PRP, PRP$ -> PR)."""
    return token.tag_[:2] or "none"


def word_class_features(token, before) -> list:
    """What the words at the gap are: pronoun, determiner, joining word, verb that takes a clause ..."""
    word, previous = token.lower_, before.lower_
    names = ["w0:subject-pronoun"] if word in SUBJECT_PRONOUNS else []
    if word in ("it", "there", "this", "its"):
        names.append(f"w0={word}")
    for name, words in (("w0:sequence", SEQUENCE_ADVERBS), ("w0:determiner", DETERMINERS)):
        if word in words:
            names.append(name)
    for name, words in (("w-1:joining", JOINING_WORDS), ("w-1:clause-verb", CLAUSE_VERBS),
                        ("w-1:auxiliary", AUXILIARY_VERBS), ("w-1:work-noun", WORK_NOUNS)):
        if previous in words:
            names.append(name)
    if before.tag_ in NOUN_TAGS and before.dep_ in ("dobj", "pobj", "attr"):
        names.append("w-1:object-noun")
    return names


def clause_features(doc, i: int) -> list:
    """Is word i (or the noun phrase it opens) a subject of a finite verb, and how is that verb attached?"""
    names = []
    subject = phrase_subject(doc, i)
    if subject is not None:
        verb = subject.head
        names.append("subject")
        names.append(f"subject-verb-dep={verb.dep_ if verb.dep_ in CLAUSE_DEPS else 'other'}")
        if any(child.dep_ in ("cc", "mark") for child in verb.children if child.i < subject.i):
            names.append("subject-verb-joined")
    if has_finite_clause(doc[:i]):
        names.append("left-finite")
    if has_finite_clause(doc[i:]):
        names.append("right-finite")
    if any(t.tag_ in FINITE_TAGS for t in doc[i:i + 5]):
        names.append("finite-within-5")
    return names


def phrase_subject(doc, i: int):
    """The subject of a finite verb among the first four tokens from `i` on, if it is in the phrase `i` opens."""
    for token in doc[i:i + 4]:
        if token.dep_ in SUBJECT_DEPS and token.left_edge.i >= i and finite_marker(token.head) is not None:
            return token
    return None


def words_since_finite(doc, i: int) -> int:
    """Tokens back from `i` to the nearest finite verb or auxiliary (a large number when there is none)."""
    for back, token in enumerate(reversed(doc[:i]), start=1):
        if token.tag_ in FINITE_TAGS:
            return back
    return 99


def caption_gaps(doc, rule: BoundaryRule, rule_words=()) -> list:
    """(word index, features) of every gap where a boundary may fall: between whitespace words, with at least
    `rule.min_left_words` words before it and `rule.min_right_words` after it."""
    starts = word_starts(doc)
    word_count = len(starts)
    verdicts = rule_verdicts(doc, rule)
    rule_words = frozenset(rule_words)
    gaps = []
    for i, word_index in starts.items():
        if rule.min_left_words <= word_index <= word_count - rule.min_right_words:
            gaps.append((word_index, gap_features(doc, i, verdicts, rule_words, word_index, word_count)))
    return gaps


def piece_features(left, right) -> list:
    """Features of the two pieces of a gap, each parsed alone (spaCy Docs): does each stand as a clause, and
    does the right one open with its subject? Parsed alone, "a man goes through his morning routine" shows
    the subject that the whole caption's parse made an object ("the word destiny flashes a man goes ...")."""
    names = side_features(left, "L") + side_features(right, "R")
    if left[len(left) - 1].tag_ in OPEN_ENDING_TAGS:
        names.append("L:open-end")
    if "R:opens-with-subject" in names:
        names.append("LR:clause-clause" if "L:finite-clause" in names else "LR:phrase-clause")
    return names


def side_features(doc, side: str) -> list:
    root = next(token for token in doc if token.dep_ == "ROOT")
    names = [f"{side}:root={coarse(root)}"]
    finite = finite_marker(root) is not None
    if finite:
        names.append(f"{side}:root-finite")
    if has_finite_clause(doc[:]):
        names.append(f"{side}:finite-clause")
    subjects = [child for child in root.children if child.dep_ in SUBJECT_DEPS]
    if finite and subjects and subjects[0].left_edge.i == 0:
        names.append(f"{side}:opens-with-subject")
    return names


def decode(scored: list, threshold: float, min_gap_words: int) -> list:
    """The boundaries (word indices, sorted) among (word index, probability) pairs: those above `threshold`,
    best first, each at least `min_gap_words` words from every boundary already taken."""
    taken = []
    for word_index, probability in sorted(scored, key=lambda pair: -pair[1]):
        if probability < threshold:
            break
        if all(abs(word_index - other) >= min_gap_words for other in taken):
            taken.append(word_index)
    return sorted(taken)
