"""Sample the real run-on development set: MSR-VTT train captions to label by sentence.

Reads the train split of the raw MSR-VTT annotations and normalises each caption
with step I (step IV sees captions after it). Three strata, drawn uniformly and
sorted by sen_id:

- `long`: captions of at least LONG_WORDS words, most of them one sentence,
  where a length rule cuts and a parser must not;
- `pronoun`: shorter captions with a subject pronoun after the first word,
  where short run-ons hide ("... a doll she is pretending ...") next to
  one-sentence captions with a reduced relative clause ("... a vest he is wearing");
- `gap`: captions whose raw text has a run of spaces between two words, often
  where the annotator's full stop was stripped: rich in real run-ons, and
  drawn on a feature the detector never sees (step I collapses the spaces).

The TSV it writes has the caption in the `sentences` column, to be labelled by
hand: a ` | ` between two words marks a sentence boundary (see
devsets/data/runon_dev.tsv). Captions with fewer than three words are skipped.

Which samples devsets/data/runon_dev.tsv holds, which are kept outside the
repository as held-out sets, and the seeds and sizes of each are in the README
(step IV) and devsets/runon.py. Since the twenty-eighth sample the gap
stratum is nearly used up, so samples are drawn with `--gap 0`. A new sample
leaves out every labelled one (`--exclude`, as often as there are files to leave
out) and is written outside the repository until it has been scored.

Samples since the fiftieth are drawn instead from every caption of more than 12 words,
of every split (`--longer-than 12 --size N`): the pre-filter's strata above are what the
detector was built on, and a sample drawn on them cannot show what it misses.

Usage:
    .venv/bin/python -m devsets.sample_runon --seed 24024 --long 100 --pronoun 80 --gap 80 \
        --exclude devsets/data/runon_dev.tsv --exclude /elsewhere/runon_sixteenth.tsv --sample 24 \
        --out /elsewhere/runon_twenty_fourth.tsv
"""
import argparse
import json
import random
import re
import zipfile
from pathlib import Path

from transforms.normalize import normalize_caption

MSRVTT = Path(__file__).resolve().parent.parent.parent / "shared" / "data" / "msrvtt"
ANNOTATIONS = "train_val_annotation.zip"
MEMBER = "train_val_videodatainfo.json"
TEST_ANNOTATIONS = "test_videodatainfo.json.zip"
TEST_MEMBER = "test_videodatainfo.json"
SEED = 2022
LONG_WORDS = 16
LONG_SAMPLE = 120
PRONOUN_SAMPLE = 50
GAP_SAMPLE = 40
PRONOUNS = {"he", "she", "they", "it", "i", "we", "you", "there"}
COLUMNS = ("sen_id", "stratum", "sample", "sentences", "note")


def train_split(input_dir=MSRVTT) -> tuple:
    """(the ids of the train videos, every sentence record of the train and validate videos), as the raw
    MSR-VTT annotations give them: what the samplers and the trainings draw from."""
    with zipfile.ZipFile(Path(input_dir) / ANNOTATIONS) as archive:
        data = json.loads(archive.read(MEMBER))
    return {video["video_id"] for video in data["videos"] if video["split"] == "train"}, data["sentences"]


def train_captions(input_dir=MSRVTT) -> list:
    """(sen_id, normalised caption, raw caption) of every train caption, by sen_id."""
    train_videos, sentences = train_split(input_dir)
    captions = []
    for sentence in sorted(sentences, key=lambda s: s["sen_id"]):
        if sentence["video_id"] in train_videos:
            raw = sentence["caption"]
            captions.append((sentence["sen_id"], normalize_caption(raw)[0], raw))
    return captions


def every_sentence(input_dir=MSRVTT) -> list:
    """The sentence records of every split (train/val and test files), as the raw annotations give them."""
    sentences = []
    for archive_name, member in ((ANNOTATIONS, MEMBER), (TEST_ANNOTATIONS, TEST_MEMBER)):
        with zipfile.ZipFile(Path(input_dir) / archive_name) as archive:
            sentences += json.loads(archive.read(member))["sentences"]
    return sentences


def all_captions(input_dir=MSRVTT) -> list:
    """(sen_id, normalised caption, raw caption) of every caption of every split, by sen_id."""
    return [(s["sen_id"], normalize_caption(s["caption"])[0], s["caption"])
            for s in sorted(every_sentence(input_dir), key=lambda s: s["sen_id"])]


def draw_longer_than(captions: list, words: int, size: int, seed: int, excluded: frozenset = frozenset()) -> list:
    """(sen_id, "over<words>", caption) rows: `size` captions of more than `words` words drawn uniformly,
    none of them `excluded`. No stratum of the pre-filter's, so the sample shows what the pre-filter misses."""
    pool = [c for c in captions if c[0] not in excluded and len(c[1].split()) > words]
    stratum = f"over{words}"
    return sorted((sen_id, stratum, text) for sen_id, text, _ in sample_stratum(random.Random(seed), pool, size, stratum))


def has_pronoun_inside(text: str) -> bool:
    return any(word in PRONOUNS for word in text.split()[1:])


def has_inner_gap(raw: str) -> bool:
    return re.search(r"\S {2,}\S", raw) is not None


def draw(captions: list, seed: int = SEED, sizes: tuple = (LONG_SAMPLE, PRONOUN_SAMPLE, GAP_SAMPLE),
         excluded: frozenset = frozenset()) -> list:
    """(sen_id, stratum, caption) rows: `sizes` long, pronoun and gap captions, none of them `excluded`."""
    rng = random.Random(seed)
    captions = [c for c in captions if c[0] not in excluded]
    long = [c for c in captions if len(c[1].split()) >= LONG_WORDS]
    short = [c for c in captions if 3 <= len(c[1].split()) < LONG_WORDS and has_pronoun_inside(c[1])]
    rows = [(sen_id, "long", text) for sen_id, text, _ in sample_stratum(rng, long, sizes[0], "long")]
    rows += [(sen_id, "pronoun", text) for sen_id, text, _ in sample_stratum(rng, short, sizes[1], "pronoun")]
    taken = {row[0] for row in rows}
    gap = [c for c in captions if c[0] not in taken and len(c[1].split()) >= 8 and has_inner_gap(c[2])]
    rows += [(sen_id, "gap", text) for sen_id, text, _ in sample_stratum(rng, gap, sizes[2], "gap")]
    return sorted(rows)


def sample_stratum(rng: random.Random, pool: list, size: int, stratum: str) -> list:
    """`size` captions of `pool` drawn at random; a pool too small is named with the option that asks less
    (random.sample's own error names neither)."""
    if size > len(pool):
        raise ValueError(f"the {stratum} stratum has {len(pool)} captions left outside the excluded samples, "
                         f"fewer than the {size} asked for: ask for fewer (--{stratum} {len(pool)})")
    return rng.sample(pool, size)


def sen_ids_in(path: str) -> frozenset:
    """The sen_ids of a sample TSV, labelled or not (the first column), so a new sample leaves them out."""
    with open(path, encoding="utf-8") as handle:
        return frozenset(int(line.split("\t")[0]) for line in list(handle)[1:] if line.strip())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", default=str(MSRVTT), help="the folder of the raw MSR-VTT annotation zips")
    parser.add_argument("--out", required=True, help="where to write the unlabelled sample (outside the repository "
                                                    "until it is scored; never the dev set itself)")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--long", type=int, default=LONG_SAMPLE, help="captions of at least LONG_WORDS words")
    parser.add_argument("--pronoun", type=int, default=PRONOUN_SAMPLE, help="shorter captions with a pronoun inside")
    parser.add_argument("--gap", type=int, default=GAP_SAMPLE, help="captions whose raw text had a double space")
    parser.add_argument("--exclude", action="append", default=[],
                        help="a labelled dev-set TSV whose sen_ids this sample leaves out (repeatable)")
    parser.add_argument("--sample", default="1", help="the value of the `sample` column")
    parser.add_argument("--longer-than", type=int, default=0, metavar="WORDS",
                        help="instead of the strata: --size captions of more than WORDS words, from every split")
    parser.add_argument("--size", type=int, default=400, help="with --longer-than: how many captions")
    args = parser.parse_args()
    excluded = frozenset().union(*map(sen_ids_in, args.exclude))
    try:
        if args.longer_than:
            rows = draw_longer_than(all_captions(args.input), args.longer_than, args.size, args.seed, excluded)
        else:
            rows = draw(train_captions(args.input), args.seed, (args.long, args.pronoun, args.gap), excluded)
    except ValueError as error:
        parser.error(str(error))
    with open(args.out, "w", encoding="utf-8") as handle:
        handle.write("\t".join(COLUMNS) + "\n")
        for sen_id, stratum, text in rows:
            handle.write(f"{sen_id}\t{stratum}\t{args.sample}\t{text}\t\n")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
