"""Step IV's pre-filter: which captions could be run-ons, told from their words alone.

MSR-VTT captions are lowercase and unpunctuated, and some are two or three
sentences run together ("a cat is afraid of a stuffed animal he is trying to
figure it out"). The boundary model (transforms/runon/boundary_model.py) scores only
the captions this pre-filter lets through: those with a second clause that
nothing joins to the first, told by word tests that cost microseconds, and
those long enough to hide one (`always_parse_words`). On MSR-VTT 11,409 of
the 200,000 captions pass (5.7%, README step IV).

Finite verbs are told by a word list built offline from spaCy's tags of the
train captions (training/runon_lexicon.py, `make runon-lexicon`) and versioned
with the code (transforms/runon/finite_verbs.txt): a run only reads it, and
needs no spaCy. The word tests were written for the spaCy parse rule this
pre-filter once fed (docs/experiments.md); their names (`then-scene`,
`its-for-it-is`, ...) are those rules'.

A caption is cut only between whitespace words (split_at), so the pieces
joined by one space always give back the caption.
"""
from dataclasses import dataclass
from pathlib import Path

FINITE_VERBS = Path(__file__).resolve().parent / "finite_verbs.txt"

# Pronouns that can only be a subject (not "it" or "you", which are also objects:
# "figure it out", "tells you").
SUBJECT_PRONOUNS = frozenset({"he", "she", "they", "i", "we"})

# Words that join what follows to what precedes: a clause right after one is no new sentence.
JOINING_WORDS = frozenset("""
and or but nor so yet plus because while whilst when whenever as if that which who whom whose where wherever
what whatever why how until till since after before though although whereas than like unless once
whether about of to for with by from into onto at in on everytime everywhere wherever
""".split())
# Verbs that take a clause as object without "that" ("he says he is tired").
CLAUSE_VERBS = frozenset("""
say says said saying state states stated stating tell tells told telling show shows showed showing
think thinks thought thinking know knows knew knowing explain explains explained explaining
describe describes described describing believe believes believed feel feels felt see sees saw seeing
hear hears heard hope hopes hoped wish wishes wished wishing mention mentions mentioned
claim claims claimed guess guesses guessed suppose supposes decide decides decided deciding
realize realizes realized notice notices noticed pretend pretends pretending pretended
demonstrate demonstrates demonstrating announce announces announcing ask asks asked asking
discuss discusses discussing reveal reveals revealing suggest suggests suggesting find finds found finding
imagine imagines learn learns learning make makes making let lets letting watch watches watching
want wants wanted
""".split())
# Verbs that need what follows them: "a man is | a black cape plays guitar" is one garbled sentence.
AUXILIARY_VERBS = frozenset({"is", "are", "was", "were", "be", "been", "am", "has", "have", "had", "do", "does", "did",
                             "can", "could", "will", "would", "should", "may", "might", "must", "s", "re"})


@dataclass(frozen=True)
class Prefilter:
    """Which captions the boundary model scores: cheap tests on the words alone."""

    finite_verbs: frozenset  # words that are mostly finite verbs (FINITE_VERBS)
    min_words: int = 8  # shorter captions are never split
    cue_after_words: int = 3  # a clause-opening word counts only after this many words
    always_parse_words: int = 0  # a caption this long is scored whatever its words (0: never on length alone)


# Words that open a second clause when nothing joins them to the first.
CUE_WORDS = SUBJECT_PRONOUNS | {"there", "it", "then", "now"}
# Words after which a cue word or a finite verb is not the start of a new clause.
NOT_AFTER = JOINING_WORDS | CLAUSE_VERBS | frozenset({"a", "an", "the", "his", "her", "their", "its", "my", "your", "our"})
# Conjunctions and subordinators: a finite verb after one of them belongs to a joined clause.
# ("so", "like" and "than" are mostly adverbs or prepositions inside a clause: "with so much of".)
JOINERS = JOINING_WORDS - frozenset({"about", "of", "to", "for", "with", "by", "from", "into", "onto", "at", "in", "on",
                                     "so", "like", "than"})


def is_candidate(text: str, prefilter: Prefilter) -> bool:
    """Could this caption be a run-on? True sends it to the boundary model."""
    return why_scored(text, prefilter) is not None


# Why the boundary model scores a caption (why_scored): its words, or its length alone.
WORD_CUE, LENGTH_ONLY = "word cue", "length only"


def why_scored(text: str, prefilter: Prefilter):
    """WORD_CUE, LENGTH_ONLY, or None when the caption is not scored.

    It must have `min_words` words and one of these (WORD_CUE):
    - two finite verbs with no conjunction or subordinator between them
      ("the word destiny flashes a man goes");
    - a subject pronoun, "there" or "then" after the first few words, not
      joined to what precedes, with a finite verb right after it ("... in a
      forest it has grown"); after "he", "she", "they", "i", "we" any verb
      counts ("... win game then they show their flag"), see has_clause_cue;
    - a determiner-led subject after the first few words, not after a verb
      or joining word, with a finite verb right after it ("a clip of a woman
      preparing food a person pours ..."), see has_determiner_clause.
    Finite verbs are told by a word list, so this costs microseconds. A caption of
    `always_parse_words` words or more is scored anyway (LENGTH_ONLY): the longest
    captions hide run-ons the word tests miss. The two are told apart because the
    model is less often right on captions without a cue (docs/steps/runon.md).
    """
    words = text.split()
    if len(words) < prefilter.min_words:
        return None
    if (has_unjoined_finite_verbs(words, prefilter.finite_verbs) or has_clause_cue(words, prefilter)
            or has_determiner_clause(words, prefilter)):
        return WORD_CUE
    if 0 < prefilter.always_parse_words <= len(words):
        return LENGTH_ONLY
    return None


@dataclass(frozen=True)
class Scoring:
    """How the boundary model scores a caption: why the pre-filter lets it through (WORD_CUE or LENGTH_ONLY),
    and the probability from which a word of it starts a new sentence (step IV's threshold for that reason)."""
    scored_for: str
    threshold: float


def caption_scoring(config, finite_verbs=None):
    """text -> its Scoring under `config` (step IV's RunonSettings), or None when the pre-filter keeps it from
    the model."""
    prefilter = Prefilter(load_lexicon() if finite_verbs is None else finite_verbs,
                          config.min_words, config.cue_after_words, config.always_parse_words)
    thresholds = {WORD_CUE: config.model_threshold, LENGTH_ONLY: config.length_only_threshold}

    def scoring(text):
        reason = why_scored(text, prefilter)
        return None if reason is None else Scoring(reason, thresholds[reason])

    return scoring


def has_unjoined_finite_verbs(words: list, finite_verbs: frozenset) -> bool:
    previous = None
    for i, word in enumerate(words):
        if word not in finite_verbs or (i > 0 and (words[i - 1] in NOT_AFTER or words[i - 1] in AUXILIARY_VERBS)):
            continue  # not a verb after a determiner or a joining word, nor a second one after "is", "has" ...
        if i == 1 and words[0] == "there":
            continue  # "there is a woman is singing": one garbled sentence, common in MSR-VTT
        between = words[previous + 1:i] if previous is not None else []
        if previous is not None and not any(w in JOINERS and not is_demonstrative(between, j)
                                            for j, w in enumerate(between)):
            # A bare form after "is ... " is mostly a verb inside the clause: "are watching a cat walk".
            if word in AUXILIARY_VERBS or word.endswith(("s", "ed")) or words[previous] not in AUXILIARY_VERBS:
                return True
        previous = i
    return False


def is_demonstrative(words: list, i: int) -> bool:
    """Is words[i] the demonstrative "that" of a phrase such as "at that time" (not a joining "that")?"""
    return words[i] == "that" and i > 0 and words[i - 1] in ("at", "in", "on", "after", "of", "like", "by")


def has_clause_cue(words: list, prefilter: Prefilter) -> bool:
    for i in range(max(prefilter.cue_after_words, 1), len(words)):
        if words[i] in CUE_WORDS and words[i - 1] not in NOT_AFTER:
            if any(w in prefilter.finite_verbs for w in words[i + 1:i + 4]):
                return True
            if is_bare_verb_after_pronoun(words, i):
                return True
        if words[i] == "its" and words[i - 1] not in NOT_AFTER and is_its_for_it_is(words[i + 1:i + 2]):
            return True
        if words[i] == "then" and words[i - 1] not in NOT_AFTER and words[i - 1] not in AUXILIARY_VERBS \
                and (has_scene_after_then(words, i) or has_subject_after_then(words, i)):
            return True
    return False


def has_scene_after_then(words: list, i: int) -> bool:
    """Rule `then-scene`: "then", one to three words that are no verb or joining word, and
    an -ing form: "a man talking to a woman then woman spinning in a dress"."""
    for j in range(i + 2, min(i + 5, len(words))):
        if words[j].endswith("ing"):
            return True
        if words[j] in NOT_AFTER and words[j] not in SUBJECT_OPENERS or words[j] in AUXILIARY_VERBS:
            return False
    return False


# Words after which "its" is a typed "it s" (it is): "... some spices | its like soup", "its in pink color".
AFTER_ITS_FOR_IT_IS = frozenset({"a", "an", "the", "in", "very", "so", "not", "like", "really", "just", "too"})


def is_its_for_it_is(following: list) -> bool:
    """Rule `its-for-it-is`: annotators often write "its" for "it s". A possessive "its" is followed by a noun
    or adjective, so before an article, a preposition or an adverb it is "it is" and opens a clause:
    "a person shows some tool made of plastic | its a multi purpose opener". `following`: the next word."""
    return bool(following) and following[0] in AFTER_ITS_FOR_IT_IS


# Words that follow a subject pronoun without being its verb ("he and she", "they both", "he too").
NOT_VERBS_AFTER_PRONOUN = JOINING_WORDS | AUXILIARY_VERBS | frozenset({"both", "all", "too", "also", "just", "then"})


def is_bare_verb_after_pronoun(words: list, i: int) -> bool:
    """Rule `pronoun-verb`: "he", "she", "they", "i", "we" can only be a subject, so the word after one is
    nearly always its verb, even a verb form the word list lacks ("then they show their flag", "he styles").
    (A listed verb or auxiliary is already a cue; this adds the forms the list misses.)"""
    return (words[i] in SUBJECT_PRONOUNS and i + 1 < len(words)
            and words[i + 1] not in NOT_VERBS_AFTER_PRONOUN and not words[i + 1].endswith("ing"))


# Words that open a noun phrase which can be a new clause's subject ("... on a vine a narrator talks").
SUBJECT_OPENERS = frozenset({"a", "an", "the", "another", "one", "two", "three", "four", "some", "many", "other"})

# Words that open a subject right after "then": a determiner, a number or a subject pronoun.
OPENERS_AFTER_THEN = SUBJECT_OPENERS | SUBJECT_PRONOUNS | frozenset({"you", "it", "this", "several", "both"})


def has_subject_after_then(words: list, i: int) -> bool:
    """Rule `then-subject`: "then" before a determiner, number or subject pronoun."""
    return i + 1 < len(words) and words[i + 1] in OPENERS_AFTER_THEN


# Words that open a noun phrase doing something after a clause, as a scene of its own (not "the", which
# mostly opens an object: "a man is watching the woman singing").
FRAGMENT_OPENERS = frozenset({"a", "an", "another", "one", "two", "three", "four", "some"})


def has_determiner_clause(words: list, prefilter: Prefilter) -> bool:
    """Rule `determiner-clause`: a determiner after the first few words, not after a joining word, a verb
    or another determiner, followed by one to three words (no verb, no joining word) and a listed
    finite verb: "we see four tomatoes on a vine a narrator talks", "... preparing food a person pours".
    The words before it are then most likely a unit of their own (the model decides)."""
    finite = prefilter.finite_verbs
    for i in range(max(prefilter.cue_after_words, 1), len(words) - 2):
        before = words[i - 1]
        if words[i] not in SUBJECT_OPENERS or before in NOT_AFTER or before in SUBJECT_OPENERS:
            continue
        if before in finite or before in AUXILIARY_VERBS or before.endswith(("ing", "ed")):
            continue  # the object of a verb: "is playing a guitar", "holds a cup"
        for j in range(i + 2, min(i + 5, len(words))):
            if words[j] in finite:
                return True
            if words[j] == "with" and has_verb_after_with_phrase(words, j, finite):
                return True
            if words[j].endswith("ing") and words[i] in FRAGMENT_OPENERS and any(w in finite for w in words[:i]):
                return True  # rule `scene-after-clause`: "... in a park another boy riding a bike"
            if words[j] in NOT_AFTER or words[j] in AUXILIARY_VERBS:
                break
    return False


# Words a "with" phrase describing a subject may hold besides adjectives and nouns: "with long hair and a hat".
WITH_PHRASE_WORDS = frozenset({"and", "a", "an", "his", "her", "their", "some"})
WITH_PHRASE_WORDS_MAX = 7


def has_verb_after_with_phrase(words: list, j: int, finite: frozenset) -> bool:
    """Rule `with-subject`: the determiner-led subject may carry a "with" phrase before its finite verb
    ("... by a window another woman with wavy brown hair and curved eyebrows is speaking"): a listed
    finite verb within WITH_PHRASE_WORDS_MAX words after "with", with no other joining word or verb
    between, where a verb could not follow the words before it. The model then decides."""
    for k in range(j + 1, min(j + 1 + WITH_PHRASE_WORDS_MAX, len(words))):
        word = words[k]
        if word in finite:
            return k > j + 1 and words[k - 1] not in WITH_PHRASE_WORDS
        if (word in NOT_AFTER and word not in WITH_PHRASE_WORDS) or word in AUXILIARY_VERBS or word.endswith("ing"):
            return False
    return False


def split_at(text: str, boundaries: list) -> list:
    """The caption cut before each word index in `boundaries`; " ".join(pieces) == text (single-spaced)."""
    words = text.split()
    cuts = [0] + sorted(set(b for b in boundaries if 0 < b < len(words))) + [len(words)]
    return [" ".join(words[a:b]) for a, b in zip(cuts, cuts[1:])]


def load_lexicon(path=FINITE_VERBS) -> frozenset:
    with open(path, encoding="utf-8") as handle:
        return frozenset(line.strip() for line in handle if line.strip() and not line.startswith("#"))
