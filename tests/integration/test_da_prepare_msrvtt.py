"""`capclean da prepare` on MSR-VTT's test split, raw against cleaned (the default cleaning, run once for the
module): every degraded caption keeps its first and last word, its span follows Graham's table and its donor is
another video's caption; every HIT has the recipe's 100 slots and at least 10 good/degraded pairs, no copy next
to its original; the same seed gives the same bytes; and the degraded captions are measurably worse by
capclean's own signals (issue 39): the bag-of-words similarity to the video's other captions
(transforms/evaluation/relevance.py's bow proxy, split tokens, as transforms/da/degrade.py draws with) falls
for at least 95% of them, and the pos proxy (verbs and nouns by spaCy's tags), which the draw does not use,
falls for most of them. docs/commands/da-prepare.md gives the figures and why."""
import json
from collections import Counter
from dataclasses import dataclass

import pyarrow.parquet as pq
import pytest

from pipelines.cli import main
from transforms.da.degrade import GRAHAM_SPANS

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def run(default_run):
    return default_run


@pytest.fixture(scope="module")
def prepared(run, tmp_path_factory):
    output = tmp_path_factory.mktemp("da") / "da"
    assert main(["da", "prepare", "--input", str(run), "--output", str(output), "--seed", "7"]) == 0
    return output


def test_every_degraded_caption_keeps_its_ends_follows_the_table_and_borrows_from_another_video(prepared, run):
    degraded = pq.read_table(prepared / "degraded").to_pylist()
    assert len(degraded) > 1000
    video_of = {row["caption"]: row["video_id"] for row in pq.read_table(run / "captions").to_pylist()
                if row["split"] == "test"}
    for row in degraded:
        original, out = row["original"].split(), row["degraded"].split()
        start, length = row["span_start"], row["span_length"]
        assert length == GRAHAM_SPANS.span_length(len(original))
        assert 1 <= start and start + length <= len(original) - 1
        assert out[0] == original[0] and out[-1] == original[-1] and len(out) == len(original)
        assert out[:start] == original[:start] and out[start + length:] == original[start + length:]
        assert row["donor_video_id"] != row["video_id"] and video_of.get(row["donor_caption"]) is not None
        assert " ".join(out[start:start + length]) in row["donor_caption"]


def test_every_hit_has_its_slots_and_ten_pairs_and_no_copy_next_to_its_original(prepared):
    hits = {}
    for row in pq.read_table(prepared / "hits").to_pylist():
        hits.setdefault(row["hit_id"], []).append(row)
    assert len(hits) > 100
    for slots in hits.values():
        assert [row["slot"] for row in slots] == list(range(1, 101))
        assert Counter(row["kind"] for row in slots) == {"system": 70, "degraded": 10, "repeat": 10, "reference": 10}
        assert all(abs(row["slot"] - row["original_slot"]) > 1 for row in slots if row["original_slot"] is not None)
    print(f"\n{len(hits)} HITs")


def test_the_same_seed_gives_the_same_bytes(prepared, run, tmp_path):
    again = tmp_path / "again"
    assert main(["da", "prepare", "--input", str(run), "--output", str(again), "--seed", "7"]) == 0
    for path in sorted(prepared.rglob("*")):
        if path.is_file() and path.name != "manifest.json":
            assert (again / path.relative_to(prepared)).read_bytes() == path.read_bytes(), path.name


def test_items_with_no_damaging_copy_are_counted(prepared):
    """Seed 7: 758 of the 10,520 items (738 share no word with their video's other captions, 20 found no
    damaging draw in 100) are never the original of a degraded check; stats.json says how many."""
    figures = json.loads((prepared / "stats.json").read_text())["degraded"]
    items = sum(json.loads((prepared / "stats.json").read_text())["judged"]["items_per_system"].values())
    print(f"\n{figures['captions']:,} degraded captions; never degraded: {figures['items_too_short']:,} items too "
          f"short, {figures['items_without_damaging_copy']:,} of {items:,} with no damaging draw")
    assert 0 < figures["items_without_damaging_copy"] < 0.1 * items


@dataclass(frozen=True)
class Caption:
    """What the bow proxy reads of a caption (split tokens need no spaCy tags)."""
    sen_id: int
    video_id: str
    caption: str


def similarities(prepared, run, proxy: str, reading, as_caption) -> list:
    """(the original's, the copy's) relevance to the video for each degraded caption, the video's set made from
    its other captions: the original and its copy each stand as a video of their own, so that neither is in
    that set. `as_caption(sen_id, video_id, text)` makes what the proxy reads."""
    from transforms.evaluation.relevance import relevance_matrix

    by_video = {}
    for row in pq.read_table(run / "captions").to_pylist():
        if row["split"] == "test":
            by_video.setdefault(row["video_id"], []).append(row)
    pairs = []
    for row in pq.read_table(prepared / "degraded").to_pylist():
        others = [as_caption(c["sen_id"], row["video_id"], c["caption"]) for c in by_video[row["video_id"]]
                  if c["sen_id"] != row["sen_id"]]
        probes = [as_caption(-1, "original", row["original"]), as_caption(-2, "degraded", row["degraded"])]
        relevance = relevance_matrix(others + probes, proxy, reading)
        matrix = relevance.matrix.toarray()
        video = relevance.video_ids.index(row["video_id"])
        pairs.append((float(matrix[video, len(others)]), float(matrix[video, len(others) + 1])))
    return pairs


def shares(pairs: list) -> tuple:
    """(falls, ties, rises) as shares of the pairs, and the means before and after."""
    falls, ties, rises = (sum(compare(after, before) for before, after in pairs) / len(pairs)
                          for compare in (float.__lt__, float.__eq__, float.__gt__))
    mean_before, mean_after = (sum(side) / len(pairs) for side in zip(*pairs))
    print(f"falls for {falls:.1%}, ties for {ties:.1%}, rises for {rises:.1%} of {len(pairs):,} degraded "
          f"captions; mean {mean_before:.3f} -> {mean_after:.3f}")
    return falls, ties, rises, mean_before, mean_after


def test_degraded_captions_are_less_like_the_videos_other_captions(prepared, run):
    """Issue 39: the bow similarity falls for at least 95% of the copies. The draw is made again until it
    falls (transforms/da/degrade.py), so this checks that the single-caption signal the draw uses is the
    relevance command's sparse bow proxy. Seed 7 on the default cleaning: it falls for all 1,508 (mean
    0.146 -> 0.087); before the refinement it fell for 70.6%, tied for 17.2% and rose for 12.2%."""
    from transforms.evaluation.relevance import RelevanceReading

    print("\nbow similarity (split tokens) to the video's other captions: ", end="")
    falls, _, _, mean_before, mean_after = shares(similarities(prepared, run, "bow", RelevanceReading(tokens="split"),
                                                               Caption))
    assert falls >= 0.95 and mean_after < 0.75 * mean_before


def test_degraded_captions_are_less_like_the_video_by_its_verbs_and_nouns(prepared, run):
    """A signal the draw does not use: the pos proxy (the IoU of the verbs and of the nouns, spaCy's tags,
    0.5 each; relevance's default reading). Seed 7: it falls for 85.1%, ties for 9.9% and rises for 5.0%
    (68.7%, 17.1% and 14.2% before the refinement): a copy loses the video's verbs and nouns, not only its
    split words."""
    from dataclasses import replace

    from transforms.evaluation.pos import load_tagger, tag_captions
    from transforms.evaluation.relevance import RelevanceReading

    rows = pq.read_table(prepared / "degraded").to_pylist()
    videos = {row["video_id"] for row in rows}
    texts = ({row["caption"] for row in pq.read_table(run / "captions").to_pylist() if row["video_id"] in videos}
             | {row["original"] for row in rows} | {row["degraded"] for row in rows})
    tagged = {caption.caption: caption for caption in tag_captions(load_tagger(), [(0, "", "test", text)
                                                                                   for text in sorted(texts)])}
    print("\npos similarity (verbs and nouns) to the video's other captions: ", end="")
    falls, _, rises, _, _ = shares(similarities(
        prepared, run, "pos", RelevanceReading(),
        lambda sen_id, video_id, text: replace(tagged[text], sen_id=sen_id, video_id=video_id)))
    assert falls > 0.8 and rises < 0.1
