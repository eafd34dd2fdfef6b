"""The spelling dev set (step II): tokens plain Hunspell rejects, in their train-split captions,
labelled `keep` or `fix` (with the intended form), its samples, and how a speller is scored on it.
benchmarks/spelling_devset.py prints the profiles' figures; devsets/sample_spelling.py drew the samples.

A decision is right when a kept token stays and a fixed one becomes the intended form.
"""
from collections import Counter

from devsets import DATA, read_tsv
from devsets.ordinals import ORDINALS

DEVSET = DATA / "spelling_dev.tsv"
# The sixteenth sample labelled again, blind, by another person under the same conventions.
SECOND_LABELLER = DATA / "spelling_dev_second_labeller.tsv"


def load_devset(path=DEVSET) -> list:
    """The labelled rows (a row with no label is a token still to be labelled)."""
    return [row for row in read_tsv(path) if row["label"]]


SAMPLES = ORDINALS[:40]  # the spelling dev set holds forty samples; the run-on dev set has more
LATER_SAMPLES = {f"{name} sample": name for name in SAMPLES[1:]}
GROUPS = {  # name printed -> the samples it holds
    **{name: (name,) for name in SAMPLES},
    "tuned": SAMPLES[:36], "held-out": SAMPLES[36:], "all": SAMPLES,
}


def sample_of(row) -> str:
    """Which sample drew the row: "first" unless its note starts with a later sample's name."""
    for prefix, sample in LATER_SAMPLES.items():
        if row["note"].startswith(prefix):
            return sample
    return "first"


def rows_in(rows, group: str) -> list:
    return [row for row in rows if sample_of(row) in GROUPS[group]]


def corpus_statistics(input_path):
    """Token and phrase statistics of the whole input after step I, as the pipeline computes them,
    and each sen_id's clip: how many of its clip's captions write each word."""
    from pipelines.cleaning.vocab import normalized_batches
    from transforms.corpus import corpus_statistics as statistics_of
    from transforms.spelling import captions_writing

    batches = normalized_batches(input_path)
    clips = {}
    for batch in batches:
        in_clip = captions_writing(caption.text for caption in batch.captions)
        clips.update((caption.sen_id, in_clip) for caption in batch.captions)
    return (*statistics_of(batches), clips)


def speller_for(profile: str, stats, phrases, clips):
    """The profile's spelling step as a function (row of the dev set) -> what its token became, in its caption.

    `clips`: sen_id -> how many of its clip's captions write each word (corpus_statistics).
    """
    from pipelines.config import load_config
    from transforms.spelling import OtherCaptions, Speller, WordLists

    config = load_config(profile).spelling
    speller = Speller(config, WordLists.read(config), stats, phrases)

    def corrected(row):
        clip = OtherCaptions(clips[int(row["sen_id"])], row["caption"])
        _, corrections, _ = speller.correct(row["caption"], clip)
        return token_output(row["token"], [c for c in corrections if c["position"] == int(row["position"])])

    return corrected


def token_output(token: str, corrections: list) -> str:
    """What the token became: its corrections (the rows of its position) applied in order. A join that starts
    at the token ("tele vision" -> "television") turns the token into the joined word."""
    pieces = [token]
    for correction in corrections:
        original = correction["original"]
        at = pieces.index(original if original in pieces else original.split()[0])
        pieces[at:at + 1] = correction["replacement"].split()
    return " ".join(pieces).lower()


def score(rows, corrected, weights=None) -> dict:
    """Accuracy (right action over all tokens), change precision and fix recall.

    `weights`: one per row (type_weights: each distinct token counts once); None: every row counts once,
    as drawn (per occurrence). `changes` is then the weighted number of changes.
    """
    weights = [1.0] * len(rows) if weights is None else weights
    total = right = changes = right_changes = fixes = right_fixes = 0.0
    for row, weight in zip(rows, weights):
        output = corrected(row)
        expected = row["intended"] if row["label"] == "fix" else row["token"]
        is_right = output == expected
        total += weight
        right += weight * is_right
        if output != row["token"]:
            changes += weight
            right_changes += weight * is_right
        if row["label"] == "fix":
            fixes += weight
            right_fixes += weight * is_right
    return {"tokens": len(rows), "accuracy": right / total, "changes": changes,
            "precision": right_changes / changes if changes else 1.0, "recall": right_fixes / fixes if fixes else 1.0}


def type_weights(rows) -> list:
    """1/n for each of a token's n rows: every distinct token weighs one, as in a sample drawn per token type
    (the dev set is drawn per occurrence, so its frequent, easy tokens weigh more)."""
    occurrences = Counter(row["token"] for row in rows)
    return [1.0 / occurrences[row["token"]] for row in rows]


def labeller_agreement(second=SECOND_LABELLER, devset=DEVSET) -> dict:
    """A second labeller's actions scored as a corrector's would be, against the dev set's labels of the same
    tokens: how closely two careful editors agree, the most a corrector can be measured to reach."""
    theirs = {(row["sen_id"], row["position"]): row for row in load_devset(second)}
    ours = [row for row in load_devset(devset) if (row["sen_id"], row["position"]) in theirs]

    def their_action(row):
        other = theirs[(row["sen_id"], row["position"])]
        return other["intended"] if other["label"] == "fix" else other["token"]

    return score(ours, their_action)
