"""The cleaning pipeline: read -> normalize -> spelling -> screen -> dedup -> runon -> [spelling recheck] -> write -> validate."""
from pipelines.finalize import Finalize
from pipelines.progress import log_progress
from pipelines.stats import CountFigures
from transforms.dedup import RemoveNearDuplicates
from transforms.normalize import Normalize
from transforms.read import CaptionLimits, ReadMsrVtt
from transforms.recheck import RecheckSpelling
from transforms.runon import SplitRunons, TruncateLongCaptions, WordLimit
from transforms.screen import ScreenCaptions
from transforms.spelling import CorrectSpelling
from transforms.write import WriteTables


def read_and_correct(pipeline, sources, config):
    """Read, steps I and II as `config.steps` asks, then screening: what the cleaning and the sweep share."""
    limits = CaptionLimits(config.input.max_caption_words, config.input.max_caption_characters)
    batches = pipeline | "Read" >> ReadMsrVtt(sources, limits) | log_progress("read")
    if "normalize" in config.steps:
        batches = batches | "Normalize" >> Normalize() | log_progress("normalize")
    if "spelling" in config.steps:
        batches = batches | "Spelling" >> CorrectSpelling(config.spelling) | log_progress("spelling")
    return batches | "Screen" >> ScreenCaptions(config.validation) | log_progress("screen")


def build_cleaning(pipeline, sources, output_dir, config):
    """Add the whole cleaning to `pipeline`; the steps run are those of `config.steps`, in order."""
    batches = read_and_correct(pipeline, sources, config)
    word_limit = None
    if "dedup" in config.steps:
        batches = batches | "Dedup" >> RemoveNearDuplicates(config.dedup) | log_progress("dedup")
    if "runon" in config.steps and config.runon.splits_sentences:
        batches = batches | "Runon" >> SplitRunons(config.runon) | log_progress("runon")
        if "dedup" in config.steps and config.dedup.until_stable:
            # A caption cut to its first sentence can be a near-duplicate of another one now.
            batches = batches | "DedupAfterRunon" >> RemoveNearDuplicates(config.dedup, only_after="runon")
    elif "runon" in config.steps:
        word_limit = batches | "RunonWordLimit" >> WordLimit(config.runon.std_multiplier)
        batches = batches | "Runon" >> TruncateLongCaptions(word_limit, config.runon.splits) | log_progress("runon")
    if "spelling" in config.steps:
        # The ranked rule's counts, taken again on the cleaned captions (transforms/recheck.py).
        for round_number in range(1, config.spelling.recheck_rounds + 1):
            batches = (batches | f"RecheckSpelling{round_number}" >> RecheckSpelling(config, round_number)
                       | log_progress(f"recheck{round_number}"))
    written = batches | "Write" >> WriteTables(output_dir, config.output.sen_ids_per_file)
    rounds = config.spelling.recheck_rounds if "spelling" in config.steps else 0
    counts = batches | "Figures" >> CountFigures(rounds)
    return counts | "Finalize" >> Finalize(output_dir, config, written, word_limit, lineage=batches)
