"""Sample the spelling development set: tokens plain Hunspell rejects in MSR-VTT train captions.

Reads the train split of the raw MSR-VTT annotations, normalises each caption
with step I, and samples token occurrences that Hunspell en_US rejects
(tokens containing a digit are skipped). The sample is uniform over candidate
occurrences (seed 2022), with at most 3 occurrences of the same token, sorted
by sen_id. The TSV it writes has empty label/intended/note columns, to be
filled in by hand (see devsets/data/spelling_dev.tsv).

devsets/data/spelling_dev.tsv holds the samples drawn so far (their seeds and
sizes are in devsets/spelling.py). A new sample leaves out every
sentence the dev set labels (`--exclude-labelled`) and every sentence of the
sample files given with `--exclude`, labelled or not, so that samples drawn in
one round for different labellers share no caption. It is written outside the
repository, labelled blind, scored once, and only then merged into the dev set.

`--per-type` draws token types instead of occurrences: every caption of every split, tokens with a
digit included ("1cup"), each distinct rejected token equally likely and shown once, in one of its
captions drawn at random; with `--exclude-labelled` the types the dev set labels are left out too, and
the types of every `--exclude` sample (a type labelled once, in any caption, is not drawn again). A
sample drawn per occurrence weighs frequent easy tokens more; one drawn per type shows the long tail.

Usage:
    .venv/bin/python -m devsets.sample_spelling --seed 19191 --size 250 --exclude-labelled \
        [--exclude /tmp/spelling_other_sample.tsv] --out /tmp/spelling_new_sample.tsv
    .venv/bin/python -m devsets.sample_spelling --per-type --seed 42042 --size 400 --exclude-labelled \
        --out /tmp/spelling_types.tsv [--exclude /tmp/earlier_spelling_types.tsv]
"""
import argparse
import collections
import random

from devsets import read_tsv, spelling
from devsets.sample_runon import MSRVTT, every_sentence, sen_ids_in, train_split
from transforms.spelling import SpellingSettings as SpellingConfig
from transforms.normalize import normalize_caption
from transforms.spelling import open_hunspell

SEED = 2022
SAMPLE_SIZE = 420
MAX_PER_TOKEN = 3
COLUMNS = ("sen_id", "position", "token", "caption", "label", "intended", "note")


def train_sentences(input_dir=MSRVTT) -> list:
    train_videos, sentences = train_split(input_dir)
    return [sentence for sentence in sentences if sentence["video_id"] in train_videos]


def candidate_occurrences(sentences: list, with_digits: bool = False) -> list:
    """(sen_id, position, token, normalised caption) for every token Hunspell rejects (a token with a
    digit only `with_digits`)."""
    speller = open_hunspell(SpellingConfig().hunspell_dictionary)  # plain en_US: no custom words
    verdict = {}
    found = []
    for sentence in sorted(sentences, key=lambda s: s["sen_id"]):
        text, _ = normalize_caption(sentence["caption"])
        for position, token in enumerate(text.split()):
            if not with_digits and any(char.isdigit() for char in token):
                continue
            if token not in verdict:
                verdict[token] = bool(speller.spell(token))
            if not verdict[token]:
                found.append((sentence["sen_id"], position, token, text))
    return found


def sample(candidates: list, size: int = SAMPLE_SIZE, seed: int = SEED, max_per_token: int = MAX_PER_TOKEN) -> list:
    order = list(candidates)
    random.Random(seed).shuffle(order)
    taken, per_token = [], collections.Counter()
    for occurrence in order:
        token = occurrence[2]
        if per_token[token] >= max_per_token:
            continue
        per_token[token] += 1
        taken.append(occurrence)
        if len(taken) == size:
            break
    return sorted(taken, key=lambda occurrence: (occurrence[0], occurrence[1]))


def sample_types(candidates: list, size: int, seed: int) -> list:
    """`size` distinct tokens drawn uniformly among the candidates' tokens, each in one of its occurrences
    drawn at random; sorted by (sen_id, position)."""
    by_token = collections.defaultdict(list)
    for occurrence in candidates:
        by_token[occurrence[2]].append(occurrence)
    generator = random.Random(seed)
    tokens = generator.sample(sorted(by_token), min(size, len(by_token)))
    return sorted(generator.choice(by_token[token]) for token in tokens)


def tokens_in(path: str) -> frozenset:
    """The tokens of a spelling sample TSV, labelled or not, so that a per-type sample leaves them out."""
    return frozenset(row["token"] for row in read_tsv(path))


def leave_out(candidates: list, sen_ids: frozenset, tokens: frozenset) -> list:
    """The candidate occurrences neither in a left-out sentence nor of a left-out token."""
    return [occurrence for occurrence in candidates if occurrence[0] not in sen_ids and occurrence[2] not in tokens]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", default=str(MSRVTT), help="the folder of the raw MSR-VTT annotation zips")
    parser.add_argument("--out", required=True,
                        help="where to write the unlabelled sample (outside the repository until it is scored)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--size", type=int, default=SAMPLE_SIZE)
    parser.add_argument("--exclude-labelled", action="store_true",
                        help="skip the sentences devsets/data/spelling_dev.tsv already labels")
    parser.add_argument("--per-type", action="store_true",
                        help="draw distinct tokens of every split (digits included), one occurrence each")
    parser.add_argument("--exclude", action="append", default=[],
                        help="a sample TSV whose sentences this sample leaves out, and with --per-type its tokens "
                             "too (repeatable)")
    args = parser.parse_args()

    sentences = every_sentence(args.input) if args.per_type else train_sentences(args.input)
    candidates = candidate_occurrences(sentences, with_digits=args.per_type)
    excluded = frozenset().union(*map(sen_ids_in, args.exclude))
    excluded_tokens = frozenset().union(*map(tokens_in, args.exclude)) if args.per_type else frozenset()
    if args.exclude_labelled:
        excluded |= {int(row["sen_id"]) for row in spelling.load_devset()}
        if args.per_type:
            excluded_tokens |= {row["token"] for row in spelling.load_devset()}
    candidates = leave_out(candidates, excluded, excluded_tokens)
    distinct = len({occurrence[2] for occurrence in candidates})
    print(f"sentences: {len(sentences)}")
    print(f"candidate occurrences: {len(candidates)}")
    print(f"distinct candidate tokens: {distinct}")

    rows = sample_types(candidates, args.size, args.seed) if args.per_type else sample(candidates, args.size, args.seed)
    # Plain tab-separated lines, no quoting: normalised captions hold no tab or newline.
    with open(args.out, "w") as handle:
        handle.write("\t".join(COLUMNS) + "\n")
        for sen_id, position, token, caption in rows:
            handle.write("\t".join((str(sen_id), str(position), token, caption, "", "", "")) + "\n")
    print(f"wrote {len(rows)} rows to {args.out}")


if __name__ == "__main__":
    main()
