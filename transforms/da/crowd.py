"""A simulated Direct Assessment crowd: judgments of workers whose behaviour is known, for the tests and
the benchmark of `capclean da score` (a study whose truth is known tells whether the scoring finds it).

simulate_judgments takes any HITs table with the columns of hits/ (transforms/da/judgments.HITS_COLUMNS,
as a list of row dicts) and a quality per system (and, optionally, per item), and gives the judgments
of its workers:
- a diligent worker scores quality + their bias + noise, rounded and clipped to 0-100; a degraded item's
  quality is its original's, lowered in proportion to the damage (the share of its words that differ
  from the original's); a harsh worker is a diligent one with a negative bias, a lenient one positive;
- a random clicker scores uniformly from 0 to 100;
- a constant worker answers the same value every time.
Everything is drawn from one seed, so the same arguments give the same judgments.

mturk_results gives the same judgments as MTurk's batch results CSV would hold them, for the batch CSV `capclean
da prepare` exported (mturk/batch.csv): the round trip a crowd on MTurk makes.

study_hits lays out a synthetic HITs table in the default recipe's shape (100 slots: 70 system, 10
reference, 10 degraded, 10 repeat, in 10 blocks of 10, each check item copying an item of the block five
away), for simulations only: `capclean da prepare` builds the real ones from captions.
"""
import difflib
import zlib
from dataclasses import dataclass

import numpy as np

DILIGENT, RANDOM, CONSTANT = "diligent", "random", "constant"
BLOCKS, BLOCK_SIZE, CHECK_DISTANCE = 10, 10, 5  # the default recipe: 10 blocks of 10, checks from 5 blocks away
SYSTEM_SLOTS_PER_BLOCK = 7
FILLER = ("zebra", "purple", "quietly", "under", "seven", "engine")  # the words a simulated degradation puts in


@dataclass(frozen=True)
class Worker:
    name: str
    behaviour: str = DILIGENT
    bias: float = 0.0  # added to every score of a diligent worker
    noise: float = 10.0  # standard deviation of a diligent worker's noise
    value: float = 50.0  # what a constant worker answers


def crowd(diligent: int, random: int, harsh_bias: float = -20.0, lenient_bias: float = 20.0,
          noise: float = 10.0) -> list:
    """`diligent` diligent workers (the first harsh, the second lenient, when there are two) and `random`
    random clickers, named w001, w002, ... in that order."""
    biases = [harsh_bias, lenient_bias][:diligent] + [0.0] * max(0, diligent - 2)
    workers = [Worker(f"w{at + 1:03d}", DILIGENT, bias, noise) for at, bias in enumerate(biases)]
    return workers + [Worker(f"w{diligent + at + 1:03d}", RANDOM) for at in range(random)]


def study_hits(systems: tuple, hit_count: int, seed: int = 0) -> list:
    """A synthetic HITs table (row dicts) of `hit_count` HITs in the default recipe's shape; each HIT shows
    every system the same number of times (70 / len(systems) when that divides, else as evenly as it can),
    each item a caption of its own video."""
    rng = np.random.default_rng(seed)
    rows, video = [], 0
    for hit in range(1, hit_count + 1):
        hit_id = f"hit-{hit:04d}"
        blocks = []
        for block in range(BLOCKS):
            shown = []
            for at in range(SYSTEM_SLOTS_PER_BLOCK):
                system = systems[(block * SYSTEM_SLOTS_PER_BLOCK + at) % len(systems)]
                shown.append(simulated_item(system, video := video + 1, "system"))
            shown.append(simulated_item("reference", video := video + 1, "reference"))
            blocks.append(shown)
        layout = []
        for block in range(BLOCKS):
            source = blocks[(block + CHECK_DISTANCE) % BLOCKS]
            checks = [{**source[0], "kind": "degraded", "caption": degrade(source[0]["caption"]),
                       "item_id": source[0]["item_id"] + "#degraded", "copies": source[0]},
                      {**source[1], "kind": "repeat", "copies": source[1]}]
            order = rng.permutation(BLOCK_SIZE)
            layout.append([(blocks[block] + checks)[at] for at in order])
        slot_of = {}
        for slot, item in enumerate((item for block in layout for item in block), 1):
            if item["kind"] not in ("degraded", "repeat"):
                slot_of[item["item_id"]] = slot
        for slot, item in enumerate((item for block in layout for item in block), 1):
            copied = item.pop("copies", None)
            rows.append({"hit_id": hit_id, "slot": slot, **item,
                         "original_slot": slot_of[copied["item_id"]] if copied else None})
    return rows


def simulated_item(system: str, video: int, kind: str) -> dict:
    words = ["a", "person", "shows", "thing", str(video), "to", "the", "camera", "in", "a", "room"]
    return {"kind": kind, "system": system, "video_id": f"video{video}",
            "sen_id": video if kind == "reference" else None, "caption": " ".join(words),
            "item_id": f"{system}/video{video}"}


def degrade(caption: str) -> str:
    """The caption with a span of its words replaced, first and last word kept, as a stand-in for
    `capclean da prepare`'s degradation: 4 words of a caption of 8 to 14 words (Graham's scripts' length),
    a quarter of a longer one, one word of a shorter one."""
    words = caption.split()
    length = 4 if 8 <= len(words) <= 14 else max(1, len(words) // 4) if len(words) > 14 else 1
    start = max(1, (len(words) - length) // 2)
    return " ".join(words[:start] + [FILLER[at % len(FILLER)] for at in range(length)] + words[start + length:])


def damage(original: str, degraded: str) -> float:
    """The share of the degraded caption's words that are not the original's (0: the same, 1: all new)."""
    return 1.0 - difflib.SequenceMatcher(None, original.split(), degraded.split(), autojunk=False).ratio()


def item_qualities(hits: list, system_quality: dict, item_spread: float, seed: int) -> dict:
    """item_id -> its quality: its system's quality plus an offset drawn from N(0, item_spread) by the item's
    own seed (so an item's quality does not depend on the order of the table)."""
    qualities = {}
    for row in hits:
        if row["kind"] in ("system", "reference") and row["item_id"] not in qualities:
            own = np.random.default_rng([seed, zlib.crc32(row["item_id"].encode())])
            qualities[row["item_id"]] = system_quality[row["system"]] + own.normal(0.0, item_spread)
    return qualities


def simulate_judgments(hits: list, system_quality: dict, workers: list, hits_per_worker: int = 1, seed: int = 0,
                       item_quality: dict | None = None, item_spread: float = 8.0) -> list:
    """The judgments (row dicts: worker, hit_id, slot, score, seconds) of `workers` on `hits`; worker i
    rates HITs i*k, i*k+1, ... (k = `hits_per_worker`, round the HITs), every slot of each."""
    quality = {**item_qualities(hits, system_quality, item_spread, seed), **(item_quality or {})}
    by_hit = {}
    for row in hits:
        by_hit.setdefault(row["hit_id"], []).append(row)
    hit_ids = sorted(by_hit)
    rng = np.random.default_rng(seed)
    judgments = []
    for number, worker in enumerate(workers):
        for at in range(hits_per_worker):
            rows = by_hit[hit_ids[(number * hits_per_worker + at) % len(hit_ids)]]
            caption_of = {row["slot"]: row["caption"] for row in rows}
            for row in sorted(rows, key=lambda row: row["slot"]):
                score = worker_score(worker, true_quality(row, quality, caption_of), rng)
                seconds = rng.uniform(6, 20) if worker.behaviour == DILIGENT else rng.uniform(1, 3)
                judgments.append({"worker": worker.name, "hit_id": row["hit_id"], "slot": row["slot"],
                                  "score": score, "seconds": round(float(seconds), 1)})
    return judgments


def true_quality(row: dict, quality: dict, caption_of: dict) -> float:
    """The quality of what the slot shows; a degraded copy's is its original's less the damage's share."""
    if row["kind"] == "degraded":
        original = row["item_id"].removesuffix("#degraded")
        return quality[original] * (1.0 - damage(caption_of[row["original_slot"]], row["caption"]))
    return quality[row["item_id"]]


def worker_score(worker: Worker, quality: float, rng) -> float:
    if worker.behaviour == RANDOM:
        return float(rng.integers(0, 101))
    if worker.behaviour == CONSTANT:
        return float(worker.value)
    return float(np.clip(np.round(quality + worker.bias + rng.normal(0.0, worker.noise)), 0, 100))


def mturk_results(batch: list, judgments: list, seconds_per_item: float = 20.0) -> list:
    """MTurk's batch results (row dicts, one per assignment: a worker's HIT) of `judgments` (worker, hit_id,
    slot, score), for the batch whose rows (dicts of its columns, hit_id among them) were published: MTurk's own
    columns, Input.<column> for every batch column (its cell as published), Answer.score_<slot> for every slot
    of the widest HIT (empty where a HIT has fewer), and Approve and Reject, empty. The work time is
    `seconds_per_item` times the answers."""
    published = {row["hit_id"]: row for row in batch}
    hit_number = {hit_id: number for number, hit_id in enumerate(sorted(published), 1)}
    assignments = {}
    for judgment in judgments:
        assignments.setdefault((judgment["worker"], judgment["hit_id"]), {})[judgment["slot"]] = judgment["score"]
    widest = max(slot for scores in assignments.values() for slot in scores)
    rows = []
    for number, ((worker, hit_id), scores) in enumerate(sorted(assignments.items()), 1):
        rows.append({"HITId": f"3SIMHIT{hit_number[hit_id]:06d}", "HITTypeId": "3SIMTYPE",
                     "Title": "Rate video captions", "AssignmentId": f"3SIMASSIGN{number:07d}", "WorkerId": worker,
                     "AssignmentStatus": "Submitted",
                     "WorkTimeInSeconds": round(seconds_per_item * len(scores)),
                     **{f"Input.{name}": value for name, value in published[hit_id].items()},
                     **{f"Answer.score_{slot}": "" if slot not in scores else f"{scores[slot]:g}"
                        for slot in range(1, widest + 1)},
                     "Approve": "", "Reject": ""})
    return rows
