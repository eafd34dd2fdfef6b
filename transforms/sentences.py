"""Sentence boundaries inside run-on captions, from a spaCy dependency parse.

MSR-VTT captions are lowercase and unpunctuated, and some are two or three
sentences run together ("a cat is afraid of a stuffed animal he is trying to
figure it out"). spaCy's own sentence segmentation puts no boundary inside
them; its parser does find the second clause, but hangs it on the first as a
relative clause, a complement or a conjunct. The rule here reads the parse:

  a new sentence starts at the first word of a subject whose verb is finite,
  when the words before it are a complete unit of their own (a clause, or a
  phrase of at least `min_left_words` words for a pronoun subject) and no word
  joins the two: no conjunction, subordinator, relative or question word,
  preposition, determiner, or verb that takes a clause ("says", "shows").

A pronoun subject right after a noun, whose transitive verb lacks its object,
is a reduced relative clause ("a vest he is wearing", "the game they are
playing"), not a new sentence; so is a clause that ends at its verb. A piece
without a finite verb stands as a sentence only when it opens with a noun
phrase ("a tree with green leaves in a forest | it has grown very tall"), not
a fronted preposition ("in the beginning it shows ..."). An adverb or phrase of
sequence before the subject ("then", "at that time") starts the new sentence, and so
does a subordinate clause that fronts the next clause ("... events | if we want we can
subscribe"). A few scenes without a finite verb are sentences too: "then" and a subject
("... | then a man in a lab coat in a room"), and "another" and a noun phrase doing
something after a clause ("... | another person floating in the water").

Boundaries fall only between whitespace words, so the pieces joined by one
space always give back the caption: a split never loses, reorders or changes a
word. Everything here is a pure function of the text or of a parsed spaCy Doc;
the Beam step that loads spaCy is in transforms/runon.py.
"""
from dataclasses import dataclass

# Pronouns that can only be a subject (not "it" or "you", which are also objects:
# "figure it out", "tells you"), and those that are subjects as well.
SUBJECT_PRONOUNS = frozenset({"he", "she", "they", "i", "we"})
PRONOUN_SUBJECTS = SUBJECT_PRONOUNS | {"it", "you", "there", "this"}

# Finite verb tags: a clause with one of these (or with such an auxiliary) is finite.
FINITE_TAGS = frozenset({"VBZ", "VBD", "VBP", "MD"})
SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "expl"})

# Words that join what follows to what precedes: never a boundary right after one.
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
# Nouns a clause without "that" describes: "the reason she comes", "a way you can learn".
RELATIVE_NOUNS = frozenset({"way", "ways", "reason", "reasons", "time", "times", "place", "places", "moment", "day",
                            "thing", "things", "stuff", "something", "anything", "everything", "one", "kind", "type"})
# Subordinators whose clause wants a main clause after it: "if they don t get a trophy they won t ...".
CONDITION_WORDS = frozenset({"if", "when", "whenever", "unless", "although", "though", "once", "because", "since"})
# Phrases of time that open the new sentence with its subject ("... at that time the sheep is afraid").
SEQUENCE_PHRASES = tuple(tuple(phrase.split()) for phrase in (
    "at that time", "after that", "after this", "in the end", "at the end", "after a while", "at last", "later on"))
# Verbs that take a person and then a clause: "tells her she is ...", "shows viewers they can ...".
OBJECT_CLAUSE_VERBS = frozenset("""
tell tells told telling show shows showed showing ask asks asked asking teach teaches taught teaching remind reminds
reminding warn warns warning convince convinces promise promises inform informs informing assure assures
""".split())
AUDIENCES = frozenset({"people", "viewers", "everyone", "audience", "kids", "children", "users", "fans", "us", "them"})
NOUN_TAGS = frozenset({"NN", "NNS", "NNP", "NNPS"})
# Adverbs of sequence that open the new sentence with its subject ("... then he enters a room").
SEQUENCE_ADVERBS = frozenset({"then", "now", "later", "next", "meanwhile", "afterwards", "finally", "suddenly"})
# Dependents that make a clause's verb complete on its own: with none of them a pronoun
# clause after a noun is read as a reduced relative clause ("the game they are playing").
# (Not "dative": "the speech he is giving to an audience" has its gap before it.)
OBJECT_DEPS = frozenset({"dobj", "ccomp", "xcomp", "attr", "acomp", "oprd", "prt"})
# Prepositions the tagger calls adverbs when they end a clause: "the podium he is standing behind".
STRANDED = frozenset({"behind", "on", "in", "with", "at", "to", "from", "about", "for", "into", "over", "under", "around"})
# Words that make the subject after them part of their own clause: "how easy it is", "in case a puppy ...".
EMBEDDING_WORDS = frozenset({"how", "what", "why", "where", "when", "which", "who", "whether", "if", "case", "that"})
# Subjects that belong to the clause before them (relative and question words).
RELATIVE_SUBJECTS = frozenset({"that", "which", "who", "whom", "whose", "what", "whoever", "whatever"})
# Adjectives that take a clause without "that": "sure she wants it", "happy he won".
CLAUSE_ADJECTIVES = frozenset({"sure", "glad", "happy", "sorry", "afraid", "surprised", "excited", "proud", "certain",
                               "aware", "confident", "worried", "amazed", "shocked"})
# Tags a piece without a finite verb may open with to stand as a sentence: a noun phrase
# ("a tree with green leaves in a forest"), not a fronted preposition or participle.
PHRASE_OPENING_TAGS = frozenset({"DT", "CD", "JJ", "JJR", "JJS", "NN", "NNS", "NNP", "NNPS", "PRP", "PRP$", "EX", "PDT"})
# Tags of words a unit cannot end with: determiners, prepositions, possessives, conjunctions.
OPEN_ENDING_TAGS = frozenset({"DT", "IN", "CC", "PRP$", "WDT", "WP", "WP$", "WRB", "TO", "POS", "PDT"})


@dataclass(frozen=True)
class BoundaryRule:
    """The rule's parameters (RunonConfig carries the numbers)."""

    min_left_words: int = 3  # words before a boundary, at least
    min_right_words: int = 3  # words after it, at least
    # Verb forms that mostly take a direct object (transforms/sentences_transitive_verbs.txt):
    # without one, a pronoun clause after a noun is a reduced relative clause.
    transitive_verbs: frozenset = frozenset()
    # Words that are mostly finite verbs (transforms/sentences_finite_verbs.txt): one the tagger made a
    # plural noun after a noun phrase may be that phrase's verb (see noun_tagged_verbs).
    finite_verbs: frozenset = frozenset()


@dataclass(frozen=True)
class Prefilter:
    """Which captions are worth a parse: cheap tests on the words alone."""

    finite_verbs: frozenset  # words that are mostly finite verbs (transforms/sentences_finite_verbs.txt)
    min_words: int = 8  # shorter captions are never split
    cue_after_words: int = 3  # a clause-opening word counts only after this many words
    always_parse_words: int = 0  # a caption this long is parsed whatever its words (0: never on length alone)


# Words that open a second clause when nothing joins them to the first.
CUE_WORDS = SUBJECT_PRONOUNS | {"there", "it", "then", "now"}
# Words after which a cue word or a finite verb is not the start of a new clause.
NOT_AFTER = JOINING_WORDS | CLAUSE_VERBS | frozenset({"a", "an", "the", "his", "her", "their", "its", "my", "your", "our"})
# Conjunctions and subordinators: a finite verb after one of them belongs to a joined clause.
# ("so", "like" and "than" are mostly adverbs or prepositions inside a clause: "with so much of".)
JOINERS = JOINING_WORDS - frozenset({"about", "of", "to", "for", "with", "by", "from", "into", "onto", "at", "in", "on",
                                     "so", "like", "than"})


def is_candidate(text: str, prefilter: Prefilter) -> bool:
    """Could this caption be a run-on? True sends it to the parser.

    It must have `min_words` words and one of these:
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
    `always_parse_words` words or more is parsed anyway: the longest captions hide
    run-ons the word tests miss.
    """
    words = text.split()
    if len(words) < prefilter.min_words:
        return False
    if 0 < prefilter.always_parse_words <= len(words):
        return True
    return (has_unjoined_finite_verbs(words, prefilter.finite_verbs) or has_clause_cue(words, prefilter)
            or has_determiner_clause(words, prefilter))


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
    """Pre-filter side of rule `then-scene`: "then", one to three words that are no verb or joining word, and
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
    """Pre-filter side of rule `then-subject`: "then" before a determiner, number or subject pronoun."""
    return i + 1 < len(words) and words[i + 1] in OPENERS_AFTER_THEN


def has_determiner_clause(words: list, prefilter: Prefilter) -> bool:
    """Rule `determiner-clause`: a determiner after the first few words, not after a joining word, a verb
    or another determiner, followed by one to three words (no verb, no joining word) and a listed
    finite verb: "we see four tomatoes on a vine a narrator talks", "... preparing food a person pours".
    The words before it are then most likely a unit of their own (the parser decides)."""
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
                return True  # rule `scene-after-clause`, see scene_after_clause
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
    between, where a verb could not follow the words before it. The parser then decides."""
    for k in range(j + 1, min(j + 1 + WITH_PHRASE_WORDS_MAX, len(words))):
        word = words[k]
        if word in finite:
            return k > j + 1 and words[k - 1] not in WITH_PHRASE_WORDS
        if (word in NOT_AFTER and word not in WITH_PHRASE_WORDS) or word in AUXILIARY_VERBS or word.endswith("ing"):
            return False
    return False


def word_starts(doc) -> dict:
    """token index -> word index, for the tokens that begin a whitespace word."""
    starts, word = {}, 0
    text = doc.text
    for token in doc:
        if token.idx == 0 or text[token.idx - 1] == " ":
            starts[token.i] = word
            word += 1
    return starts


def finite_marker(verb):
    """The token that makes `verb` finite (itself or a finite auxiliary), or None."""
    if verb.tag_ in FINITE_TAGS:
        return verb
    for child in verb.children:
        if child.dep_ in ("aux", "auxpass") and child.tag_ in FINITE_TAGS:
            return child
    return None


def has_finite_clause(span) -> bool:
    """A subject in `span` whose verb and finite marker are in `span` too, after it."""
    for token in span:
        if token.dep_ in SUBJECT_DEPS and span.start <= token.head.i < span.end:
            marker = finite_marker(token.head)
            if marker is not None and token.i < marker.i < span.end:
                return True
    return False


def is_reduced_relative(subject, verb, start, transitive_verbs: frozenset) -> bool:
    """`noun + pronoun + verb` with a gap for the noun: "the vest he is wearing", "the recipe she is going to
    use", "the chair he sits on". An intransitive verb has no gap ("the car he is talking next to a suv"),
    nor has a verb with its object, complement or particle ("a dog he lies down")."""
    if start == 0 or start != subject.left_edge.i or subject.lower_ == "its":
        return False  # ("its" for "it s" has its verb in it: see is_its_for_it_is)
    doc = subject.doc
    before = doc[start - 1]
    if before.tag_ not in NOUN_TAGS and before.lower_ not in RELATIVE_NOUNS:
        return False
    pronoun = subject.lower_ in PRONOUN_SUBJECTS
    if pronoun and before.lower_ in RELATIVE_NOUNS:
        return True  # "the reason she comes", "from the time it was born"
    stranded = doc[len(doc) - 1].tag_ == "IN" or doc[len(doc) - 1].lower_ in STRANDED
    if is_without_object_slot(subject, verb, transitive_verbs) and not stranded:
        return False  # "... on a show an old clip is shown", "... in a pan there is a person", "people are interacting"
    if verb.i == len(doc) - 1:
        return True  # nothing after the verb: "a new puppy he is transporting", "the board their company had made"
    if not pronoun:
        return False  # a noun subject with words after its verb: mostly a new sentence ("a man drops onto ...")
    if has_sequence_adverb_before(verb, subject):
        return False
    if stranded:
        return True  # a stranded preposition: "the chair he sits on"
    if is_parsed_relative(verb, before) or is_modal_relative(verb, before):
        return True
    return has_object_gap(verb, transitive_verbs)


def has_sequence_adverb_before(verb, subject) -> bool:
    """Rule `then-after-pronoun`: an adverb of sequence between a pronoun and its verb ("... on a word search
    he then prepares to eat") tells the next event, which a relative clause describing the noun does not:
    "the dish he then eats" is rare where "he then eats" opens a sentence."""
    return any(token.lower_ in SEQUENCE_ADVERBS for token in subject.doc[subject.i + 1:verb.i])


def is_parsed_relative(verb, noun) -> bool:
    """Rule `parsed-relative`: a past-tense verb the parser hangs on the noun before it as a relative clause,
    with no object: "the fish he caught with his rod", "a facebook video she saw". Captions tell what
    happens in the present, so a past tense right after "noun + pronoun" mostly describes the noun; the
    transitive word list may lack the verb ("caught" is mostly a passive participle). A present-tense verb
    still needs the list ("a woman he tosses and turns" is a new sentence)."""
    return (verb.dep_ == "relcl" and verb.tag_ == "VBD" and verb.head.i == noun.i
            and has_object_gap(verb, transitive_verbs=None))


# Dependents that complete a verb in a modal relative clause; not "ccomp", under which the parser hangs the
# next sentence ("the dish he will make | he mentions ...").
MODAL_OBJECT_DEPS = OBJECT_DEPS - {"ccomp"}


def is_modal_relative(verb, noun) -> bool:
    """Rule `modal-relative`: "noun + pronoun + modal + verb" that the parser reads as a relative clause on the
    noun and whose verb has no object is one, even for a verb that mostly takes none: "about the direction
    they should walk during the show", "the dish he will make". A modal clause tells what is to be done
    with the noun; a new sentence in a caption tells what happens now."""
    if verb.dep_ != "relcl" or verb.head.i > noun.i:
        return False  # (the parser may hang it on an earlier noun: "the ingredients for the dish he will make")
    if not any(child.tag_ == "MD" and child.dep_ == "aux" for child in verb.children):
        return False
    return not any(child.dep_ in MODAL_OBJECT_DEPS for child in verb.children if child.i > verb.i)


def is_without_object_slot(subject, verb, transitive_verbs: frozenset) -> bool:
    """Rule `no-gap`: a clause whose verb can take no object has no gap for the noun before it, so it is not
    a reduced relative clause: an expletive "there" ("... there is a person"), a passive ("a trailer is
    shown"), or a noun subject whose verb is not a transitive form ("some people are interacting")."""
    if subject.dep_ in ("expl", "nsubjpass") or subject.lower_ == "there":
        return True
    return subject.lower_ not in PRONOUN_SUBJECTS and verb.tag_.startswith("VB") and verb.lower_ not in transitive_verbs


def has_object_gap(verb, transitive_verbs) -> bool:
    """A transitive verb (at the end of its chain of "to" complements) with nothing that completes it.
    `transitive_verbs` None counts every verb as transitive (only the missing object is looked for)."""
    later = [child for child in verb.children if child.i > verb.i]
    for child in later:
        if child.dep_ == "xcomp":
            return has_object_gap(child, transitive_verbs)
        if child.lower_ == "about" and any(c.dep_ == "xcomp" for c in child.children):
            # "the dish she is about to cook": like "going to", the gap is in the verb after "about to".
            return has_object_gap(next(c for c in child.children if c.dep_ == "xcomp"), transitive_verbs)
    if any(child.dep_ in OBJECT_DEPS or (child.dep_ == "advmod" and child.tag_ == "JJ") for child in later):
        return False
    conjuncts = [child for child in later if child.dep_ == "conj"]
    if conjuncts and not all(has_object_gap(child, transitive_verbs) or child.i == len(child.doc) - 1
                             for child in conjuncts):
        return False  # "a dog he lies down and tries to look sorry"; not "a game he is playing and streaming"
    return transitive_verbs is None or verb.lower_ in transitive_verbs


def boundary_tokens(doc, rule: BoundaryRule) -> list:
    """Token indices where a new sentence starts (sorted), by the rule of the module docstring."""
    starts = word_starts(doc)
    found = []
    last = 0
    for subject, start in subject_starts(doc, rule):
        if start not in starts or start <= last:
            continue
        fronted = fronted_subordinator(doc, subject, start, last, rule)
        if fronted is not None and fronted in starts:
            found.append(fronted)
            last = start  # the clause at `start` is the main clause of the sentence that opens at `fronted`
            continue
        if not opens_sentence(doc, subject, start, last, rule):
            continue
        found.append(start)
        last = start
    return sorted(found)


# Subordinators whose clause, between two clauses, mostly opens the second: "... events | if we want we can
# subscribe", "three women cook in a kitchen | as one of them squeezes lime juice she recounts ...".
FRONTING_SUBORDINATORS = frozenset({"if", "when", "as", "while", "once", "whenever"})


def fronted_subordinator(doc, subject, start, last, rule: BoundaryRule):
    """Rule `fronted-subordinate`: a subordinate clause between a complete clause and a clause of a subject
    pronoun belongs to the second, as its fronted condition or time, when nothing joins the second to it:
    "and this is about some funny videos of the basket ball events | if we want we can subscribe". The index
    of the subordinator, where the new sentence then starts, or None. The subordinate clause has one
    subject and a finite verb, and the clause before it is finite and ends with a noun, pronoun or adverb."""
    if subject.lower_ not in SUBJECT_PRONOUNS or doc[start - 1].lower_ in JOINING_WORDS:
        return None
    for token in reversed(doc[last + rule.min_left_words:start]):
        if token.lower_ in FRONTING_SUBORDINATORS and token.dep_ in ("mark", "advmod"):
            return token.i if is_fronted_clause(doc, token, subject, start, last, rule) else None
        if token.lower_ in JOINERS:
            return None
    return None


def is_fronted_clause(doc, subordinator, subject, start, last, rule: BoundaryRule) -> bool:
    """Does the clause of `subordinator` (one subject, a finite verb) stand between a finite clause that ends
    with a noun, pronoun or adverb and the clause of `subject`, which nothing else joins to it? Not after a
    verb that takes a clause ("tells the woman if he can ...", "asking his son a question if ...")."""
    inner = [t for t in doc[subordinator.i + 1:start] if t.dep_ in SUBJECT_DEPS]
    verb = subordinator.head
    if len(inner) != 1 or inner[0].head.i != verb.i or verb.i > start or finite_marker(verb) is None:
        return False  # (a verb after `start`: "when a man she knows approaches her" is one clause)
    if doc[subordinator.i - 1].tag_ not in UNIT_ENDING_TAGS or not has_finite_clause(doc[last:subordinator.i]):
        return False
    told = doc[max(subordinator.i - 6, last):subordinator.i]
    if any(t.lower_ in CLAUSE_VERBS or t.lower_ in OBJECT_CLAUSE_VERBS for t in told):
        return False
    if len(doc) - subordinator.i < rule.min_right_words:
        return False
    return not (joined_by_words(doc, start, subordinator.i + 1, rule)
                or is_reduced_relative(subject, subject.head, start, rule.transitive_verbs))


def subject_starts(doc, rule: BoundaryRule = BoundaryRule()):
    """(subject token, index of the first word of its clause) for every finite clause, left to right.

    A clause's subject is the parser's, or, for a finite verb the parser gave
    none, the noun phrase right before the verb (the parser often takes the
    subject of a run-on's second sentence as the first one's object: "... and
    talk the woman reaches into a tank").
    """
    for verb in doc:
        subjects = parsed_subjects(verb)
        for subject in subjects:
            yield subject, with_sequence_adverb(doc, subject.left_edge.i)
        phrase = phrase_before(verb)
        if phrase is not None and phrase not in subjects:
            yield phrase, with_sequence_adverb(doc, noun_phrase_start(verb))
        yield from unparsed_clause_starts(verb, subjects, rule)


def unparsed_clause_starts(token, subjects: list, rule: BoundaryRule):
    """(subject, clause start) of the clauses at `token` that the parse hides, by the rules of issue 4: a verb
    the tagger made a noun, "its" for "it s", a noun phrase before an auxiliary, and scenes without a finite
    verb after "then" or after a clause."""
    doc = token.doc
    if is_noun_tagged_verb(token, rule.finite_verbs):
        yield doc[token.i - 1], with_sequence_adverb(doc, noun_phrase_start(token))
    if token.lower_ == "its" and is_its_for_it_is([t.lower_ for t in doc[token.i + 1:token.i + 2]]):
        yield token, with_sequence_adverb(doc, token.i)  # "its" is both subject and verb
    phrase = phrase_before_auxiliary(token)
    if phrase is not None and phrase not in subjects:
        yield phrase, with_sequence_adverb(doc, noun_phrase_start(finite_marker(token)))
    for scene in (scene_after_then(token), scene_after_clause(token, rule.finite_verbs)):
        if scene is not None:
            yield scene, token.i
    subject = subject_after_then(token)
    if subject is not None:
        yield subject, token.i


# Words that open a noun phrase doing something after a clause, as a scene of its own (not "the", which
# mostly opens an object: "a man is watching the woman singing").
FRAGMENT_OPENERS = frozenset({"a", "an", "another", "one", "two", "three", "four", "some"})


def scene_after_clause(token, finite_verbs: frozenset):
    """Rule `scene-after-clause`: after a finite clause that ends with a noun, a noun phrase led by "a",
    "another" or a number and doing something (an -ing form) is the next scene, a sentence without a finite
    verb: "two persons are fighting with sward | another person floating the water". The head noun of the
    phrase, or None. Not after a verb, whose object the phrase is ("a man is watching a woman singing")."""
    if token.lower_ not in FRAGMENT_OPENERS or token.i < 3 or token.tag_ not in ("DT", "CD"):
        return None
    doc = token.doc
    before = doc[token.i - 1]
    if (before.tag_ not in ("NN", "NNS") or before.dep_ == "dative" or before.lower_ in finite_verbs
            or not has_finite_clause(doc[:token.i])):
        return None  # (a name, an indirect object or a verb tagged as a noun before: "talks about iran a
        # country striving to ...", "drives down a street and witnesses a car spinning")
    head = noun_phrase_doing(doc, token.i + 1)
    if head is None or head.dep_ in ("appos", "npadvmod"):
        return None  # the parser's apposition or adverbial phrase: "on board a ship doing work"
    if head.dep_ == "dobj" and before.dep_ == "dobj" and head.head.i == before.head.i:
        return None  # two objects of one verb: "is feeding two monkeys a banana"
    return head


def noun_phrase_doing(doc, i: int):
    """The head noun of a noun phrase of one to three adjectives and nouns from token `i` on, right before an
    -ing form ("woman spinning", "two persons helping"), or None."""
    nouns, end = [], i
    while end < len(doc) and end - i < 3 and doc[end].tag_ in NOUN_PHRASE_TAGS:
        if doc[end].tag_ in NOUN_TAGS:
            nouns.append(doc[end])
        end += 1
    if not nouns or end >= len(doc) or doc[end].tag_ != "VBG":
        return None
    return nouns[-1]


def scene_after_then(token):
    """Rule `then-scene`: "then" and a noun phrase doing something (an -ing form) tells the next scene, as
    a sentence of its own even without a finite verb: "a man talking to a woman | then woman spinning in a
    dress | then a plane crashing through trees". The head noun of the phrase, or None. (Without a noun,
    "then slicing each half", it is the same subject's next action.)"""
    if token.lower_ != "then":
        return None
    doc = token.doc
    i = token.i + 1
    if i < len(doc) and doc[i].tag_ in ("DT", "CD"):
        i += 1
    return noun_phrase_doing(doc, i)


def subject_after_then(token):
    """Rule `then-subject`: "then" right before a subject ("... shown first | then a setting of custom made
    cars are being displayed", "a man is talking to a woman | then a bird bites him") opens the next
    sentence, with or without a verb the parse found; before a verb it joins two predicates ("picks it up
    then throws it"). The subject's word (the noun its determiner belongs to), or None."""
    if token.lower_ != "then" or token.i + 1 >= len(token.doc):
        return None
    opener = token.doc[token.i + 1]
    if opener.lower_ not in OPENERS_AFTER_THEN:
        return None
    return opener.head if opener.tag_ in ("DT", "CD", "PRP$") and opener.head.tag_ in NOUN_TAGS else opener


def phrase_before_auxiliary(verb):
    """Rule `phrase-before-auxiliary`: like phrase_before, for a verb made finite by an auxiliary: the
    determiner- or number-led noun phrase right before the auxiliary, which the parser took for an object
    and whose verb it gave an earlier subject: "one person cleaning a car | two persons are fighting"."""
    marker = finite_marker(verb)
    if marker is None or marker is verb or marker.i < 2 or verb.i < marker.i:
        return None
    before = verb.doc[marker.i - 1]
    start = noun_phrase_start(marker)
    if before.tag_ not in NOUN_TAGS or before.dep_ in SUBJECT_DEPS or start is None:
        return None
    opener = verb.doc[start]
    if opener.tag_ == "PRP$" or (opener.tag_ == "CD" and before.lower_ in MEASURE_NOUNS):
        return None  # a title or a measure: "a cake made to represent my little mermaid is shown", "four times"
    return before


# Nouns a number before them makes a measure, not a subject: "won the lottery four times", "12 years a slave".
MEASURE_NOUNS = frozenset("times years days months weeks hours minutes seconds".split())


# Tags of a word that can end a clause before a new subject: a noun, a pronoun object, an adverb or particle.
UNIT_ENDING_TAGS = NOUN_TAGS | {"PRP", "RB", "RP"}
# Tags of the word after a verb the tagger made a noun: what a verb takes (preposition, object, adverb).
AFTER_VERB_TAGS = frozenset({"IN", "TO", "DT", "PRP$", "RB", "RP"})


def is_noun_tagged_verb(token, finite_verbs: frozenset) -> bool:
    """Rule `noun-tagged-verb`: the tagger makes some verbs plural nouns after a noun phrase ("on a vine | a
    narrator talks about the health benefits", `talks` NNS, parsed as the head of "a narrator talks"). A word
    that is mostly a finite verb, right after a determiner-led noun phrase and followed by a preposition,
    determiner or adverb, is that phrase's verb: the phrase is its subject. Only after a finite clause that
    ends with a noun, pronoun or adverb: after a verb or adjective the phrase is an object ("a man reviews top
    10 tv shows in german"), and a phrase without a clause is no sentence ("a man with a bow an arrow shoots").
    """
    doc = token.doc
    if not (token.tag_ == "NNS" and token.lower_ in finite_verbs and token.i + 1 < len(doc)
            and doc[token.i - 1].tag_ in NOUN_TAGS and doc[token.i + 1].tag_ in AFTER_VERB_TAGS):
        return False
    start = noun_phrase_start(token)
    return (start is not None and start > 0 and doc[start - 1].tag_ in UNIT_ENDING_TAGS
            and has_finite_clause(doc[:start]))


def with_sequence_adverb(doc, start: int) -> int:
    """Move a clause's start back over "then", "now", "at that time" ... unless "and" joins them to what precedes."""
    for phrase in SEQUENCE_PHRASES:
        if start >= len(phrase) and tuple(t.lower_ for t in doc[start - len(phrase):start]) == phrase:
            start -= len(phrase)
            break
    else:
        if start > 0 and doc[start - 1].lower_ in SEQUENCE_ADVERBS:
            start -= 1
    if start > 0 and doc[start - 1].lower_ == "and":
        return start + 1 if doc[start].lower_ in SEQUENCE_ADVERBS else start
    return start


def parsed_subjects(verb) -> list:
    """The subjects the parser gave `verb`, if the verb is finite after them."""
    marker = finite_marker(verb)
    if marker is None:
        return []
    return [child for child in verb.children
            if child.dep_ in SUBJECT_DEPS and child.i < marker.i and child.lower_ not in RELATIVE_SUBJECTS]


def phrase_before(verb):
    """The head of a noun phrase right before a finite main verb, which the parser may have
    taken for the object of what precedes: "... and talk the woman reaches into a tank"."""
    if verb.tag_ not in ("VBZ", "VBD") or verb.dep_ in ("aux", "auxpass") or verb.i < 2:
        return None
    before = verb.doc[verb.i - 1]
    if (before.tag_ not in NOUN_TAGS and before.tag_ != "DT") or noun_phrase_start(verb) is None:
        return None
    return before


# Tags inside a noun phrase before its verb (nouns and adjectives).
NOUN_PHRASE_TAGS = NOUN_TAGS | {"JJ", "JJR", "JJS"}


def noun_phrase_start(verb):
    """The determiner (or number, possessive) that opens the noun phrase right before `verb`, if there is one."""
    doc = verb.doc
    i = verb.i - 1
    if doc[i].lower_ in ("both", "all", "everyone", "someone", "everybody", "somebody"):
        return i  # a subject on its own: "then both pushes the car"
    while i >= 0 and doc[i].tag_ in NOUN_PHRASE_TAGS:
        i -= 1
    if i < 0 or i == verb.i - 1 or doc[i].tag_ not in ("DT", "CD", "PRP$") or doc[i].lower_ in ("that", "which", "this"):
        return None
    return i


def opens_sentence(doc, subject, start, last, rule: BoundaryRule) -> bool:
    """Does the clause of `subject`, starting at token `start`, open a new sentence?

    Each test turns away one way a clause joins what precedes it; the rule
    keeps a boundary only when none applies (precision first).
    """
    left = doc[last:start]
    if len(left) < rule.min_left_words or len(doc) - start < rule.min_right_words:
        return False
    return not (joined_by_words(doc, start, last, rule)
                or is_not_a_sentence_start(left, subject, doc[start - 1], doc[start])
                or is_reduced_relative(subject, subject.head, start, rule.transitive_verbs))


def joined_by_words(doc, start, last, rule: BoundaryRule) -> bool:
    """Do the words just before `start` join the clause to what precedes it?"""
    before, opener = doc[start - 1], doc[start]
    by_sequence = opener.lower_ in SEQUENCE_ADVERBS  # "... then he enters a room"
    if before.lower_ in JOINING_WORDS or is_open_ending(before) or is_clause_verb(before, opener):
        return True
    if before.lower_ in SEQUENCE_ADVERBS or before.lower_ in CLAUSE_ADJECTIVES:
        return True  # "and then he ...", "sure she wants it"
    if before.lower_ in SUBJECT_PRONOUNS:
        return True  # rule `pronoun-not-last`: "the show they | all starred in" (a subject ends no sentence)
    if is_title_after_work(before, opener) or is_an_for_and(doc, start) or is_quote_after_speech(before, opener):
        return True
    if (not by_sequence and (before.tag_.startswith("VB") or before.tag_ == "RP")
            and not ends_its_clause(before, rule.transitive_verbs) and not is_subject_after_verb(before, opener)):
        # The phrase after a verb is mostly its object or clause ("climbs the rocky mountain", "a man wearing
        # a red hat"); only a determiner-led subject after an intransitive verb opens a sentence ("the word
        # destiny flashes a man goes ...").
        if (before.tag_ == "RP" or before.lower_ in rule.transitive_verbs or before.lower_ in AUXILIARY_VERBS
                or opener.tag_ not in ("DT", "CD", "PRP$")):
            return True
    told = [t for t in doc[max(start - 5, last):start - 1]
            if t.lower_ in OBJECT_CLAUSE_VERBS and t.tag_.startswith("VB")]
    if told and opener.tag_ in ("PRP", "EX") and (before.tag_ in NOUN_TAGS or before.tag_ == "PRP"
                                                  or before.lower_ in AUDIENCES):
        return True  # "tells her she is", "shows people they can", "telling her friends she is"
    if any(is_embedding_word(token) for token in doc[max(start - 3, last):start]):
        return True  # "how easy it is", "in case a puppy becomes"
    if is_after_question_phrase(doc, start, last):
        return True  # "explaining which flat iron extension she will use"
    if any(token.lower_ in CONDITION_WORDS for token in doc[max(start - 6, last):start]):
        return True  # "if they don t get a trophy they won t ..."
    if opens_with_condition(doc, start, last):
        return True
    return is_second_conjunct(doc, start, last)  # "a woman is speaking and in a hand there is a mouse"


# Nouns of works that a title follows: "the movie the dark knight rises", "the group the backstreet boys".
WORK_NOUNS = frozenset("""
movie movies film films show shows song songs series game games book books album band group channel program
programme episode novel play musical cartoon sitcom documentary videogame title trailer
""".split())


# Tags between "the" and a noun of works ("the new animated movie").
WORK_TITLE_TAGS = NOUN_TAGS | {"JJ", "VBG"}


def is_title_after_work(before, opener) -> bool:
    """Rule `title-after-work`: "the" right after "the" + a noun that names a work mostly opens its title, not
    a new sentence: "a clip from the movie the dark knight rises", "the singing group the backstreet boys
    stands". After "a" + such a noun it is a new subject: "a band plays a song | the characters argue"."""
    if before.lower_ not in WORK_NOUNS or opener.lower_ != "the":
        return False
    i = before.i - 1
    while i >= 0 and before.doc[i].tag_ in WORK_TITLE_TAGS:
        i -= 1
    return i >= 0 and before.doc[i].lower_ == "the"


# Words after which a first-person clause is what is sung or said: "a girl sings i wish that i could ...".
SPEECH_WORDS = frozenset("""
sing sings singing sang chant chants chanting yell yells yelling shout shouts shouting scream screams screaming
song songs lyrics lyric words comment quote quotes saying
play plays playing played perform performs performing performed preforming
""".split())


def is_quote_after_speech(before, opener) -> bool:
    """Rule `quote-after-speech`: captions speak of people in the third person, so "i" or "we" right after
    a word of singing or saying opens the words sung or said, not a new sentence: "a band is singing i love
    rock and roll to a crowd", "a group of kids performing i m yours" (a song title)."""
    return before.lower_ in SPEECH_WORDS and opener.lower_ in ("i", "we")


def is_an_for_and(doc, start) -> bool:
    """Rule `an-for-and`: "an" before another determiner is a typed "and": "cooking food an a baby is laughing"."""
    return doc[start].lower_ == "an" and start + 1 < len(doc) and doc[start + 1].tag_ in ("DT", "PRP$")


# Subordinators that open a clause wanting a main clause after it.
OPENING_CONDITION_WORDS = CONDITION_WORDS | {"before", "while", "as"}


def opens_with_condition(doc, start, last) -> bool:
    """Rule `condition-clause`: a subordinate clause that opens the piece, or follows its "and", wants the
    main clause after it, however long it is: "and when he gets back to his shopping cart | it s different",
    "while one animated figure is talking | other figures are shown",
    "before purchasing an expensive product ... | we always take suggestion"."""
    for token in doc[last:start]:
        if token.lower_ in OPENING_CONDITION_WORDS and (token.i == last or doc[token.i - 1].lower_ == "and"):
            return not has_main_clause_after(doc, token.i, start)
    return False


def has_main_clause_after(doc, condition, start) -> bool:
    """Rule `condition-answered`: two subjects or more between a subordinator and the clause at `start` mean
    the subordinate clause has had its main clause already, so it no longer holds the clause at `start`: "and
    while running what are the things we should keep in mind and the bones are getting exercised ... | it is
    very good for health". (The subordinate clause has one subject at most: "when he gets back ...".)"""
    subjects = [token for token in doc[condition + 1:start]
                if token.dep_ in SUBJECT_DEPS and token.lower_ not in RELATIVE_SUBJECTS]
    return len(subjects) >= 2


# Clause verbs whose clause has an object and a verb ("makes him cry", "lets them go", "wants him to go"),
# never a subject pronoun.
OBJECT_VERB_CLAUSE_VERBS = frozenset({"make", "makes", "making", "let", "lets", "letting", "want", "wants", "wanted"})


def is_clause_verb(token, opener) -> bool:
    """Rule `clause-verb-tag`: a verb that takes a clause ("says he is", "shows they can") joins the clause
    after it, but only as a verb: "on a tv show | a reality show is going on" has the noun. Rule
    `make-not-before-subject`: "make" and "let" take an object pronoun ("makes him cry"), so a subject
    pronoun after one opens a sentence: "the dish he will make | he mentions tomato paste"."""
    if token.lower_ in OBJECT_VERB_CLAUSE_VERBS and opener.lower_ in SUBJECT_PRONOUNS:
        return False
    return token.lower_ in CLAUSE_VERBS and token.tag_.startswith("VB")


# Dependencies of a noun: a word the tagger calls a preposition but the parser uses as one is a noun.
NOUN_DEPS = frozenset({"dobj", "pobj"})


def is_open_ending(token) -> bool:
    """A word a unit cannot end with (a determiner, preposition ...), unless it is a pronoun-like
    determiner standing alone as an object: "talking to one another | a woman speaks", or a noun the tagger
    took for a preposition (see is_noun_tagged_preposition)."""
    if token.tag_ == "DT" and token.dep_ in NOUN_DEPS:
        return False
    return token.tag_ in OPEN_ENDING_TAGS and not is_noun_tagged_preposition(token) and not is_particle(token)


def is_particle(token) -> bool:
    """Rule `particle-ends-clause`: a preposition the parser gives no object is a particle or an adverb that
    ends its clause ("with a voice over | she is talking about skincare", "the lights go off | a man ...")."""
    return (token.tag_ == "IN" and token.lower_ in PARTICLES and token.dep_ in ("prep", "prt", "advmod")
            and not any(token.children))


# Prepositions that are also particles or adverbs ("goes down", "a voice over"); not "during", which is
# mostly written for "while" ("got kicked during he was reporting").
PARTICLES = frozenset("over out off up down inside outside through around away back along in on by".split())


def is_embedding_word(token) -> bool:
    """A word that makes the subject after it part of its clause (EMBEDDING_WORDS). Rule `in-case`: "case"
    only in "in case" ("in case a puppy becomes ..."); the noun does not ("discusses a criminal case | he is
    talking about some other man")."""
    if token.lower_ == "case":
        return token.i > 0 and token.doc[token.i - 1].lower_ == "in"
    return token.lower_ in EMBEDDING_WORDS


def is_noun_tagged_preposition(token) -> bool:
    """Rule `noun-tagged-in`: the tagger calls some nouns prepositions ("two teams are playing rugby | a man
    runs", `rugby` IN), but the parser still makes them the object of the verb before. A real preposition
    is never a verb's direct object, and one that is the object of a preposition is a word that is not."""
    return token.tag_ == "IN" and token.dep_ in NOUN_DEPS and token.head.i < token.i


# Participles that take an object or a clause even in a passive ("is shown a video", "is told he won").
OBJECT_PARTICIPLES = frozenset({"shown", "told", "asked", "taught", "given", "sent", "offered", "promised", "warned",
                                "hoping", "wondering", "complaining", "bragging", "joking", "arguing", "insisting",
                                "admitting", "remembering", "worrying", "praying", "promising", "assuming", "figuring",
                                "confirming", "warning", "answering", "replying", "commenting", "noting", "adding",
                                "feeling", "thinking", "knowing", "saying", "realizing", "pretending", "guessing"})


def ends_its_clause(verb, transitive_verbs: frozenset) -> bool:
    """Rule `verb-ends-clause`: a past participle ("a humorous trailer is being presented | there is army
    training") or an -ing form of a verb that takes no object ("a woman is talking | she is talking") ends
    its clause, so a subject after it starts a new one. Not a participle that takes an object or a clause."""
    word = verb.lower_
    if (word in OBJECT_PARTICIPLES or word in CLAUSE_VERBS or word in MORE_CLAUSE_VERBS
            or verb.dep_ in ("aux", "auxpass")):
        return False
    return verb.tag_ == "VBN" or (verb.tag_ == "VBG" and word not in transitive_verbs)


# Verbs beyond CLAUSE_VERBS and OBJECT_PARTICIPLES that take a clause without "that" ("bets he can ...").
MORE_CLAUSE_VERBS = frozenset("""
bet bets betting swear swears swearing hope hoping wish pray prays admit admits insist insists agree agrees
agreeing prove proves proving figure figures mean means meaning remember remembers forget forgets forgot
understand understands understanding doubt doubts expect expects expecting assume assumes
""".split())


def is_subject_after_verb(before, opener) -> bool:
    """Rule `subject-after-verb`: "he", "she", "they", "i" and "we" can only be subjects, so one right after
    a verb is not its object, and opens a new clause: "a man is cooking | he is adding salt". Not after a
    verb that takes a clause without "that" ("says he", "tells her she", "is hoping she"), nor after an
    auxiliary ("can i"), a participle that is a clause verb, or a verb the tagger may have made of a noun."""
    if opener.lower_ not in SUBJECT_PRONOUNS or not before.tag_.startswith("VB"):
        return False
    word = before.lower_
    if word in OBJECT_VERB_CLAUSE_VERBS:
        return True  # "make" and "let" take no subject pronoun (see is_clause_verb)
    return not (word in AUXILIARY_VERBS or word in CLAUSE_VERBS or word in OBJECT_CLAUSE_VERBS
                or word in OBJECT_PARTICIPLES or word in MORE_CLAUSE_VERBS or before.dep_ in ("aux", "auxpass"))


# Tags a noun phrase after "which", "what" or "whose" may hold.
QUESTION_PHRASE_TAGS = NOUN_TAGS | {"JJ", "JJR", "JJS", "DT", "CD", "IN", "PRP$"}


def is_after_question_phrase(doc, start, last) -> bool:
    """Rule `question-phrase`: a question or relative determiner ("which", "what", "whose") and then only a
    noun phrase right before the subject make the clause part of the question ("which flat iron extension
    she will use", "what kind of music they like"); a longer phrase than the three words before the subject
    that EMBEDDING_WORDS looks at."""
    for token in reversed(doc[max(start - 6, last):start]):
        if token.lower_ in ("which", "what", "whose"):
            return True
        if token.tag_ not in QUESTION_PHRASE_TAGS or token.lower_ in JOINERS:
            return False
    return False


def is_not_a_sentence_start(left, subject, before, opener) -> bool:
    """Is the piece before the clause a fronted phrase, or the clause's subject part of a compound?"""
    pronoun = subject.lower_ in PRONOUN_SUBJECTS or subject.lower_ == "its"
    if not has_finite_clause(left):
        if left[0].tag_ not in PHRASE_OPENING_TAGS and scene_after_then(left[0]) is None \
                and subject_after_then(left[0]) is None:
            # a fronted phrase: "in the beginning it shows", "by opening the box it fell" (a scene after
            # "then" is a sentence: "then woman spinning in a dress | then a plane crashing", rules
            # `then-scene` and `then-subject`)
            return True
        if not pronoun and opener.lower_ not in SEQUENCE_ADVERBS and not is_scene_fragment(left, opener):
            return True  # "on a straight road a man rides"
    # A bare noun after a noun is more likely a compound: "a man in check shirt is playing".
    return not pronoun and opener.tag_ in NOUN_TAGS and before.tag_ in NOUN_TAGS


def is_scene_fragment(left, opener) -> bool:
    """Rule `fragment-then-clause`: a noun phrase with a verb that is not finite ("a clip of a woman preparing
    food", "a man in a suit and a woman stand in front of tanks and talk", as tagged) is a sentence of its
    own when a determiner-led clause follows it ("a person pours some liquid"). The phrase must end with a
    noun, pronoun or verb ("a woman wearing only | a white bikini" is one phrase). Without any verb it must
    be long, and the clause must not open with "the" (see below)."""
    if opener.tag_ not in ("DT", "CD"):
        return False
    if not (left[-1].tag_ in NOUN_TAGS or left[-1].tag_ in ("PRP", "RP") or left[-1].tag_.startswith("VB")):
        return False
    if any(token.tag_.startswith("VB") for token in left):
        return True
    # Without a verb: a noun phrase of 4 words or more, then "a"/"an" or a number ("a short clip of a music
    # video | a man sings"); "the" there mostly opens a name or title ("a doll of ariel the little mermaid").
    return len(left) >= 4 and left[-1].tag_ in NOUN_TAGS and opener.lower_ not in ("the", "this", "that", "these")


def is_second_conjunct(doc, start, last) -> bool:
    """Is the clause at `start` the second conjunct of a conjunction shortly before it, with an adverb or a
    phrase in between and no verb ("and in a hand there is a mouse", "but luckily he was fine")? A
    conjunction of nouns ("a doll and baby dolls she is ...") does not join the clause."""
    for token in reversed(doc[max(start - 5, last):start]):
        if token.tag_.startswith("VB"):
            return False
        if token.tag_ == "CC" and token.i + 1 < start:
            return doc[token.i + 1].tag_ in ("IN", "RB", "RBR", "RBS")
    return False


def boundary_words(doc, rule: BoundaryRule) -> list:
    """Word indices (whitespace words) where a new sentence starts."""
    starts = word_starts(doc)
    return [starts[token] for token in boundary_tokens(doc, rule)]


def split_at(text: str, boundaries: list) -> list:
    """The caption cut before each word index in `boundaries`; " ".join(pieces) == text (single-spaced)."""
    words = text.split()
    cuts = [0] + sorted(set(b for b in boundaries if 0 < b < len(words))) + [len(words)]
    return [" ".join(words[a:b]) for a, b in zip(cuts, cuts[1:])]
