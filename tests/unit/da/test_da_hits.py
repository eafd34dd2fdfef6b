"""transforms/da/hits.py: the recipe's slots, the checks spread over the blocks and half a HIT from their
originals, never next to them, at least 10 good/degraded pairs a HIT by default, the last HIT filled up, and
the same HITs from the same seed."""
import random
from collections import Counter

import pytest

from transforms.da.degrade import GRAHAM_SPANS, DonorPool
from transforms.da.hits import REFERENCE_SYSTEM, Item, Recipe, build_hits, degraded_copies, hit_ids
from transforms.errors import ConfigError

WORDS = "a man woman dog is playing singing cooking with the ball in park on stage kitchen".split()


def made_items(count: int, videos: int = 30, seed: int = 1) -> list:
    """`count` items of two systems over `videos` videos; every seventh caption has 2 words (never degradable)."""
    rng = random.Random(seed)
    items = []
    for number in range(count):
        length = 2 if number % 7 == 0 else rng.randint(4, 11)
        system = "raw" if number % 2 else "cleaned"
        items.append(Item(f"{system}:{number}", system, f"video{number % videos}", number,
                          " ".join(rng.choice(WORDS) for _ in range(length))))
    return items


def human_caption(video: int) -> str:
    return f"a man and a dog playing in the park on stage number {video}"


def made_references(videos: int = 30) -> dict:
    return {f"video{v}": (Item(f"{REFERENCE_SYSTEM}:{1000 + v}", REFERENCE_SYSTEM, f"video{v}", 1000 + v,
                               human_caption(v)),) for v in range(videos)}


# The videos' human captions (the words a degraded copy must have fewer of) and other videos' captions.
DONORS = DonorPool([(f"video{v}", 1000 + v, human_caption(v)) for v in range(30)] +
                   [(f"video{100 + n}", 2000 + n, f"donor number {n} lends a few good words here") for n in range(20)])


def by_hit(slots) -> dict:
    hits = {}
    for slot in slots:
        hits.setdefault(slot.hit_id, []).append(slot)
    return hits


@pytest.fixture(scope="module")
def default_hits():
    return build_hits(made_items(150), made_references(), DONORS, Recipe(), seed=3)


def test_every_hit_has_the_recipes_slots(default_hits):
    hits = by_hit(default_hits.slots)
    assert list(hits) == ["hit-0001", "hit-0002", "hit-0003"]  # 150 items, 70 a HIT: the last one filled up
    for slots in hits.values():
        assert [slot.slot for slot in slots] == list(range(1, 101))
        assert Counter(slot.kind for slot in slots) == {"system": 70, "degraded": 10, "repeat": 10, "reference": 10}
        assert len({slot.item_id for slot in slots if slot.kind == "system"}) == 70
    judged = {slot.item_id for slot in default_hits.slots if slot.kind == "system"}
    assert len(judged) == 150


def test_each_check_copies_an_item_of_its_hit_half_a_hit_away_and_never_next_to_it(default_hits):
    for slots in by_hit(default_hits.slots).values():
        at = {slot.slot: slot for slot in slots}
        for slot in slots:
            if slot.kind in ("system", "reference"):
                assert slot.original_slot is None
                continue
            original = at[slot.original_slot]
            assert original.kind == "system" and abs(slot.slot - original.slot) > 1
            assert (slot.slot - 1) // 10 == ((original.slot - 1) // 10 + 5) % 10  # Graham's block five away
            assert (original.system, original.video_id, original.sen_id) == (slot.system, slot.video_id, slot.sen_id)
            if slot.kind == "repeat":
                assert (slot.item_id, slot.caption) == (original.item_id, original.caption)
            else:
                assert slot.item_id == original.item_id + "#degraded" and slot.caption != original.caption
                assert len(original.caption.split()) >= 3  # a 2-word caption is never degraded


def test_at_least_ten_good_degraded_pairs_per_hit_and_a_check_of_each_kind_in_every_block(default_hits):
    for slots in by_hit(default_hits.slots).values():
        assert sum(slot.kind == "degraded" for slot in slots) >= 10
        for block in range(10):
            kinds = Counter(slot.kind for slot in slots[block * 10:(block + 1) * 10])
            assert kinds == {"system": 7, "degraded": 1, "repeat": 1, "reference": 1}  # not bunched at the end


def test_references_are_human_captions_of_a_judged_video(default_hits):
    references = made_references()
    for slots in by_hit(default_hits.slots).values():
        videos = {slot.video_id for slot in slots if slot.kind == "system"}
        for slot in slots:
            if slot.kind == "reference":
                assert slot.system == REFERENCE_SYSTEM and slot.video_id in videos
                assert slot.caption == references[slot.video_id][0].caption


def test_the_degraded_records_are_those_of_the_degraded_slots(default_hits):
    shown = {slot.item_id: slot for slot in default_hits.slots if slot.kind == "degraded"}
    assert sorted(shown) == [item.item_id for item in default_hits.degraded]
    for item in default_hits.degraded:
        assert item.record.degraded == shown[item.item_id].caption and item.video_id == shown[item.item_id].video_id


def test_the_same_seed_gives_the_same_hits_and_another_seed_others(default_hits):
    assert build_hits(made_items(150), made_references(), DONORS, Recipe(), seed=3) == default_hits
    shuffled = made_items(150)
    random.Random(0).shuffle(shuffled)  # the order the items come in does not matter
    assert build_hits(shuffled, made_references(), DONORS, Recipe(), seed=3) == default_hits
    assert build_hits(made_items(150), made_references(), DONORS, Recipe(), seed=4).slots != default_hits.slots


def test_appraises_recipe():
    hits = build_hits(made_items(80), made_references(), DONORS, Recipe(100, 10, 5, 5, 10), seed=0)
    assert Counter(slot.kind for slot in hits.slots) == {"system": 80, "degraded": 10, "repeat": 5, "reference": 5}


def test_two_blocks_of_two_still_keep_a_copy_apart_from_its_original():
    """One check in block 1 (slots 1-2) copying an item of block 2 (slots 3-4): a copy at slot 2 with its
    original at slot 3 is drawn again, whatever the seed."""
    items = [Item(f"s:{n}", "s", "video1", n, "a dog runs in the park") for n in range(3)]
    for seed in range(60):
        slots = build_hits(items, {}, DONORS, Recipe(4, 1, 0, 0, 2), seed).slots
        check = next(slot for slot in slots if slot.kind == "degraded")
        assert check.slot in (1, 2) and check.original_slot in (3, 4) and (check.slot, check.original_slot) != (2, 3)


def test_hits_over_many_seeds_never_put_a_copy_next_to_its_original():
    items = made_items(40, videos=10)
    for seed in range(30):
        slots = build_hits(items, made_references(10), DONORS, Recipe(12, 1, 1, 1, 2), seed).slots
        assert all(abs(slot.slot - slot.original_slot) > 1 for slot in slots if slot.original_slot is not None)


@pytest.mark.parametrize("recipe, problem", [
    (dict(slots=100, blocks=7), "equal size"),
    (dict(slots=10, degraded=5, repeats=5, references=5, blocks=2), "no system item"),
    (dict(blocks=1, slots=10, degraded=1, repeats=1, references=1), "at least 2 blocks"),
    (dict(degraded=-1), "at least 0"),
])
def test_a_recipe_that_cannot_work_is_refused(recipe, problem):
    with pytest.raises(ConfigError, match=problem):
        Recipe(**recipe)


def test_too_few_items_for_one_hit_is_one_line():
    with pytest.raises(ConfigError, match="5 items to judge cannot fill one HIT of 70 system slots"):
        build_hits(made_items(5), made_references(), DONORS, Recipe(), 0)


def test_an_item_with_no_damaging_copy_is_never_the_original_of_a_degraded_check_and_is_counted():
    """Every third item shares no word with its video's human caption: no copy can be less like the video,
    so the degraded checks take other originals, and Hits counts the items left out."""
    items = made_items(150)
    for number in range(0, 150, 3):
        old = items[number]
        items[number] = Item(old.item_id, old.system, old.video_id, old.sen_id, "cats sleep quietly together today")
    hits = build_hits(items, made_references(), DONORS, Recipe(), seed=3)
    nothing_to_lose = {items[number].item_id for number in range(0, 150, 3)}
    too_short = {item.item_id for item in items if len(item.caption.split()) < 3}
    originals = {item.item_id.removesuffix("#degraded") for item in hits.degraded}
    assert len(hits.degraded) >= 20 and not originals & (nothing_to_lose | too_short)
    copies = degraded_copies(items, DONORS, 3, GRAHAM_SPANS)
    assert set(copies) == {item.item_id for item in items} - too_short
    assert all(copies[item_id] is None for item_id in nothing_to_lose)
    assert hits.too_short == len(too_short) == 22 - 8  # every seventh has 2 words, but not those of 21k
    assert hits.no_damaging_copy == sum(copy is None for copy in copies.values()) >= len(nothing_to_lose)
    assert all(sum(slot.kind == "degraded" for slot in slots) == 10 for slots in by_hit(hits.slots).values())


def test_hit_ids_are_zero_padded():
    assert hit_ids(2) == ["hit-0001", "hit-0002"] and hit_ids(12345)[-1] == "hit-12345"
