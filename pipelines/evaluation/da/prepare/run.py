"""The run of `capclean da prepare`: read what is judged (judged.py), build the HITs (transforms/da/hits.py),
write hits/, degraded/, the exports, the rating page and stats.json into a staging folder, and swap it in."""
import logging
from collections import Counter
from dataclasses import asdict, fields
from pathlib import Path

from pipelines.evaluation.da.prepare.exports import write_exports
from pipelines.evaluation.da.prepare.judged import raw_against_cleaned, recorded_raw_input, systems_table
from pipelines.evaluation.da.prepare.page import PAGE_NAME, rating_page
from pipelines.evaluation.da.prepare.rater import hit_payloads
from pipelines.evaluation.evaluation_io import claim_output, seal_output, write_parquet_table, write_stats
from pipelines.output.json_files import write_text_whole
from schemas.evaluation_tables import DA_DEGRADED, DA_HITS
from transforms.da.degrade import item_seed
from transforms.da.hits import KINDS, Slot, build_hits

log = logging.getLogger("capclean")


def prepare(args, recipe, spans) -> tuple:
    """(the output folder, the figures)."""
    from pipelines.output.folder import staging_for
    from pipelines.output.manifest import Clock, files_record

    clock = Clock()
    output, input_and_run = claim_output(args.input, args.output, args.overwrite)
    raw = None
    if args.systems:
        judged = systems_table(args.systems, args.input, args.split)
    else:
        raw = args.raw or recorded_raw_input(args.input)
        judged = raw_against_cleaned(args.input, raw, args.split, args.all_captions, args.seed)
    clock.phase("read")
    hits = build_hits(list(judged.items), judged.references, judged.donors, recipe, args.seed, spans)
    clock.phase("hits")
    payloads = hit_payloads(hits.slots, args.video_url)
    if not args.video_url.startswith(("https://", "http://")):
        log.info("--video-url %s is a path beside the page: the rating page finds the videos there, "
                 "MTurk's and Label Studio's workers do not; give them a URL", args.video_url)
    codes = {payload["hit_id"]: args.completion_code or completion_code(args.seed, payload["hit_id"])
             for payload in payloads}
    settings = {"seed": args.seed, "recipe": asdict(recipe), "span_lengths": spans.describe(),
                "split": args.split, "all_captions": args.all_captions, "video_url": args.video_url,
                "completion_code": args.completion_code or "one per HIT, from the seed",
                "raw": None if raw is None else str(Path(raw).resolve()),
                "systems": files_record({"--systems": args.systems}) if args.systems else None}
    figures = {"judged": judged.figures, "hits": hit_figures(hits.slots, recipe),
               "degraded": degraded_figures(hits), "settings": settings}
    with staging_for(output) as staging:
        write_parquet_table(staging / "hits", DA_HITS, [asdict(slot) for slot in hits.slots])
        write_parquet_table(staging / "degraded", DA_DEGRADED,
                    [{"item_id": item.item_id, "video_id": item.video_id, **asdict(item.record)}
                     for item in hits.degraded])
        write_exports(staging, hits.slots, payloads, args.video_url, recipe.slots)
        write_text_whole(staging / PAGE_NAME, rating_page(payloads, codes))
        write_stats(staging, figures)
        clock.phase("write")
        seal_output(staging, output, "da prepare", args.input, input_and_run, figures, clock)
    return output, figures


def completion_code(seed: int, hit_id: str) -> str:
    return f"DA{item_seed(seed, 'completion ' + hit_id) % 10**8:08d}"


def degraded_figures(hits) -> dict:
    """The degraded copies shown, and the system items never the original of one (why, by count)."""
    return {"captions": len(hits.degraded), "items_too_short": hits.too_short,
            "items_without_damaging_copy": hits.no_damaging_copy}


def hit_figures(slots, recipe) -> dict:
    per_hit = Counter(slot.hit_id for slot in slots)
    pairs = Counter(slot.hit_id for slot in slots if slot.kind == "degraded")
    kinds = Counter(slot.kind for slot in slots if slot.hit_id == slots[0].hit_id)  # every HIT has the recipe's
    return {"hits": len(per_hit), "slots_per_hit": recipe.slots, **{kind: kinds.get(kind, 0) for kind in KINDS},
            "min_degraded_pairs": min(pairs.values(), default=0),
            "items_in_two_hits": len([item for item, count in Counter(
                slot.item_id for slot in slots if slot.kind == "system").items() if count > 1])}


assert [field.name for field in fields(Slot)] == DA_HITS.names, "hits/ holds a Slot's fields, in order"
