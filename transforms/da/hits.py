"""Systems' items and human references, laid out in HITs for Direct Assessment, with hidden checks.

A HIT is `blocks` blocks of equal size (the default recipe: 10 blocks of 10 slots, as Graham's released
scripts, prep-hits/gen-100-item-sets.py). The checks are dealt over the blocks in turn (the default: one
degraded copy, one repeat and one reference in every block), and each block's system items fill the rest.
A check's original is a system item of the block half a HIT away (block b takes from block b + blocks/2,
wrapping round: 0 from 5, 5 from 0), so checks are spread over the whole HIT, never bunched at its end,
and an original is seen long before or after its copy. Each block is shuffled, and a shuffle that puts a
copy next to its original is drawn again.

- degraded: the original with a span of words replaced (transforms/da/degrade.py); its own item id,
  "<original item_id>#degraded"; an item too short to degrade, or with no damaging draw, is never the
  original of one (Hits counts them);
- repeat: the original again, with its item id;
- reference: a human caption of the original's video that is not judged (system "reference").

The items are shuffled once and cut into HITs of the recipe's system slots; the last HIT is filled up with
items from the first ones (so some items are judged in two HITs, as in Graham's scripts). Everything random
comes from the seed: the same items, references and seed give the same HITs.
"""
import random
from dataclasses import dataclass

from transforms.da.degrade import GRAHAM_SPANS, DegradedCaption, DonorPool, SpanTable, degradable, degrade, item_seed
from transforms.errors import CapcleanError, ConfigError

KINDS = ("system", "reference", "degraded", "repeat")
REFERENCE_SYSTEM = "reference"
# Shuffles of a HIT's blocks tried before giving up on keeping every copy apart from its original.
MAX_SHUFFLES = 1000


@dataclass(frozen=True)
class Recipe:
    """How many slots a HIT has, how many of them are checks of each kind, and in how many blocks."""
    slots: int = 100
    degraded: int = 10
    repeats: int = 10
    references: int = 10
    blocks: int = 10

    def __post_init__(self):
        for name in ("slots", "blocks"):
            if getattr(self, name) < 1:
                raise ConfigError(f"HIT recipe: {name} must be at least 1, not {getattr(self, name)}")
        for name in ("degraded", "repeats", "references"):
            if getattr(self, name) < 0:
                raise ConfigError(f"HIT recipe: {name} must be at least 0, not {getattr(self, name)}")
        if self.blocks < 2:
            raise ConfigError("HIT recipe: at least 2 blocks (a check's original is in another block)")
        if self.slots % self.blocks:
            raise ConfigError(f"HIT recipe: {self.slots} slots do not make {self.blocks} blocks of equal size")
        block_size = self.slots // self.blocks
        if max(self.checks_in_block(block) for block in range(self.blocks)) >= block_size:
            raise ConfigError(f"HIT recipe: {self.degraded + self.repeats + self.references} checks leave a block "
                              f"of {block_size} slots no system item")

    @property
    def system(self) -> int:
        """The system items of one HIT."""
        return self.slots - self.degraded - self.repeats - self.references

    def check_kinds(self) -> tuple:
        """The checks in the order they are dealt over the blocks (check j goes to block j mod blocks)."""
        return ("degraded",) * self.degraded + ("repeat",) * self.repeats + ("reference",) * self.references

    def checks_in_block(self, block: int) -> int:
        return len(range(block, len(self.check_kinds()), self.blocks))

    def partner(self, block: int) -> int:
        """The block a check of `block` takes its original from: half a HIT away."""
        return (block + self.blocks // 2) % self.blocks


@dataclass(frozen=True)
class Item:
    """One thing shown to a worker: a system's caption of a video (or a human reference)."""
    item_id: str
    system: str
    video_id: str
    sen_id: int | None
    caption: str


@dataclass(frozen=True)
class Slot:
    """One row of the hits/ table (schemas/evaluation_tables.py's DA_HITS)."""
    hit_id: str
    slot: int  # 1..slots, the order the worker sees
    kind: str  # one of KINDS
    system: str
    video_id: str
    sen_id: int | None
    caption: str
    item_id: str
    original_slot: int | None  # degraded and repeat: the slot of the item copied


@dataclass(frozen=True)
class DegradedItem:
    """A degraded copy made for a HIT: its item id, its video and how it was made."""
    item_id: str
    video_id: str
    record: DegradedCaption


@dataclass(frozen=True)
class Hits:
    slots: tuple  # Slot, by hit_id then slot
    degraded: tuple  # DegradedItem, one per degraded item id, by item id
    too_short: int  # system items too short to degrade (1 or 2 words): never originals of a degraded check
    no_damaging_copy: int  # system items long enough for which no draw did damage: never originals either


def hit_ids(count: int) -> list:
    width = max(4, len(str(count)))
    return [f"hit-{number:0{width}d}" for number in range(1, count + 1)]


def hit_system_items(items: list, recipe: Recipe, seed: int) -> list:
    """The system items of each HIT: all items shuffled once, cut into HITs, the last one filled up with
    items from the first HITs."""
    ordered = sorted(items, key=lambda item: item.item_id)
    if len({item.item_id for item in ordered}) != len(ordered):
        raise CapcleanError("two items to judge have the same item id")
    if len(ordered) < recipe.system:
        raise ConfigError(f"{len(ordered)} items to judge cannot fill one HIT of {recipe.system} system slots; "
                          "give more items or a smaller recipe")
    random.Random(item_seed(seed, "items")).shuffle(ordered)
    hits = [ordered[start:start + recipe.system] for start in range(0, len(ordered), recipe.system)]
    last = hits[-1]
    taken = {item.item_id for item in last}
    last += [item for item in ordered if item.item_id not in taken][:recipe.system - len(last)]
    return hits


def build_hits(items: list, references: dict, donors: DonorPool, recipe: Recipe = Recipe(), seed: int = 0,
               spans: SpanTable = GRAHAM_SPANS) -> Hits:
    """Every HIT of the items. `references`: video_id -> its human reference Items (system "reference"),
    none of them judged; `donors`: the human captions degraded copies take words from and are measured
    against."""
    per_hit = hit_system_items(items, recipe, seed)
    copies = degraded_copies(items, donors, seed, spans)
    slots, degraded = [], {}
    for hit_id, system_items in zip(hit_ids(len(per_hit)), per_hit):
        hit_slots, hit_degraded = build_hit(hit_id, system_items, references, copies, recipe, seed)
        slots += hit_slots
        degraded.update((item.item_id, item) for item in hit_degraded)
    return Hits(tuple(slots), tuple(degraded[item_id] for item_id in sorted(degraded)),
                too_short=len(items) - len(copies), no_damaging_copy=sum(copy is None for copy in copies.values()))


def degraded_copies(items: list, donors: DonorPool, seed: int, spans: SpanTable) -> dict:
    """item_id -> the item's degraded copy (None when no draw did damage), for every item long enough to
    degrade: decided before the HITs, so that a check's original is only ever an item with a copy."""
    return {item.item_id: degrade(item.caption, item.video_id, item.sen_id, donors, item_seed(seed, item.item_id),
                                  spans)
            for item in items if degradable(item.caption, spans)}


def build_hit(hit_id: str, system_items: list, references: dict, copies: dict, recipe: Recipe, seed: int) -> tuple:
    """(the HIT's Slots, its DegradedItems); `copies` as degraded_copies() gives them."""
    rng = random.Random(item_seed(seed, hit_id))
    blocks = deal_system_items(system_items, recipe)
    # Each entry: (kind, the Item shown, the Item it copies or None).
    entries = [[("system", item, None) for item in block] for block in blocks]
    used_originals, used_references, made = set(), set(), []
    for check, kind in enumerate(recipe.check_kinds()):
        block = check % recipe.blocks
        original = choose_original(kind, blocks, block, recipe, references, copies, used_originals, rng, hit_id)
        used_originals.add(original.item_id)
        if kind == "repeat":
            entries[block].append(("repeat", original, original))
        elif kind == "degraded":
            record = copies[original.item_id]
            copy = Item(f"{original.item_id}#degraded", original.system, original.video_id, original.sen_id,
                        record.degraded)
            made.append(DegradedItem(copy.item_id, copy.video_id, record))
            entries[block].append(("degraded", copy, original))
        else:
            own = references[original.video_id]
            unused = [reference for reference in own if reference.item_id not in used_references] or list(own)
            reference = unused[rng.randrange(len(unused))]
            used_references.add(reference.item_id)
            entries[block].append(("reference", reference, None))
    order = arrange(entries, rng, hit_id)
    slot_of = {item.item_id: number for number, (kind, item, _) in enumerate(order, 1) if kind == "system"}
    slots = [Slot(hit_id, number, kind, item.system, item.video_id, item.sen_id, item.caption, item.item_id,
                  None if copied is None else slot_of[copied.item_id])
             for number, (kind, item, copied) in enumerate(order, 1)]
    return slots, made


def choose_original(kind: str, blocks: list, block: int, recipe: Recipe, references: dict, copies: dict,
                    used: set, rng: random.Random, hit_id: str) -> Item:
    """The system item a check of `block` is drawn for: of the partner block if one fits, one not yet the
    original of another check if any is left."""
    candidates = originals_for(kind, blocks, recipe.partner(block), block, references, copies)
    fresh = [item for item in candidates if item.item_id not in used] or candidates
    if not fresh:
        why = ("none has a degraded copy that is worse (too short, or no draw lowered its similarity to its "
               "video's other captions)" if kind == "degraded"
               else "none has a reference caption of its video")
        raise CapcleanError(f"{hit_id}: no system item can be the original of a {kind} check ({why})")
    return fresh[rng.randrange(len(fresh))]


def deal_system_items(system_items: list, recipe: Recipe) -> list:
    """The HIT's system items in blocks, each block getting what its checks leave."""
    block_size = recipe.slots // recipe.blocks
    blocks, at = [], 0
    for block in range(recipe.blocks):
        count = block_size - recipe.checks_in_block(block)
        blocks.append(system_items[at:at + count])
        at += count
    return blocks


def originals_for(kind: str, blocks: list, partner: int, own_block: int, references: dict, copies: dict) -> list:
    """The items a check may copy: those of the partner block that fit the kind, else those of any block
    but the check's own."""
    def fits(item: Item) -> bool:
        if kind == "degraded":
            return copies.get(item.item_id) is not None
        if kind == "reference":
            return bool(references.get(item.video_id))
        return True

    preferred = [item for item in blocks[partner] if fits(item)]
    if preferred:
        return preferred
    return [item for number, block in enumerate(blocks) if number != own_block for item in block if fits(item)]


def arrange(entries: list, rng: random.Random, hit_id: str) -> list:
    """The HIT's entries in the order shown: each block shuffled, drawn again while a copy sits next to its
    original."""
    for _ in range(MAX_SHUFFLES):
        order = []
        for block in entries:
            shuffled = list(block)
            rng.shuffle(shuffled)
            order += shuffled
        if not copies_next_to_originals(order):
            return order
    raise ConfigError(f"{hit_id}: no order of its blocks keeps every check apart from its original; use more "
                      "or larger blocks")


def copies_next_to_originals(order: list) -> bool:
    position = {item.item_id: at for at, (kind, item, _) in enumerate(order) if kind == "system"}
    return any(copied is not None and abs(position[copied.item_id] - at) == 1
               for at, (_, _, copied) in enumerate(order))
