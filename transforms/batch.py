"""What flows between the steps: one video's captions and the lineage of what was done to them.

A video's captions travel together as one element: Beam costs microseconds per
element per stage, and near-duplicate removal needs the whole video anyway.
Each step appends to the lineage lists instead of emitting side outputs, so the
pipeline has a single stream of data (some runners mishandle tagged outputs).
"""
from dataclasses import dataclass, field, replace
from typing import Callable, Optional

from rapidfuzz.distance import LCSseq

from transforms import lineage


@dataclass
class Caption:
    sen_id: int
    text: str


@dataclass
class VideoBatch:
    video_id: str
    split: Optional[str]
    category: Optional[int]
    captions: list  # of Caption, sorted by sen_id
    input_records: int = 0  # caption records read for this video, usable or not
    # The lineage: rows of transforms/lineage.py, one list per table.
    removed: list = field(default_factory=list)  # of RemovedRow
    edits: list = field(default_factory=list)  # of EditRow
    corrections: list = field(default_factory=list)  # of CorrectionRow
    flagged: list = field(default_factory=list)  # of FlaggedRow
    runon: list = field(default_factory=list)  # of RunonRow


def rewrite_captions(batch: VideoBatch, step: str, rewrite: Callable, pass_caption: bool = False,
                     **edit_facts) -> VideoBatch:
    """Apply `rewrite(text) -> (new_text, rule)` to every caption, recording real changes in `edits`.

    With `pass_caption`, `rewrite` receives the Caption (sen_id and text) instead of the text.
    `edit_facts`: the step's own columns of edits/, the same on each of its rows (step IV's `word_limit`).

    A caption the rewrite leaves empty is moved to `removed`: an empty caption
    is no caption, and it must not vanish silently. The input batch is left as
    it was (Beam elements must not be mutated); a new one is returned.
    """
    kept, edits, removed = [], [], []
    for caption in batch.captions:
        new_text, rule = rewrite(caption if pass_caption else caption.text)
        if not new_text:
            removed.append(lineage.removed(batch, caption.sen_id, caption.text, step,
                                           f"caption empty after {step} ({rule})"))
            continue
        kept.append(Caption(caption.sen_id, new_text))
        if new_text != caption.text:
            edits.append(lineage.edit(batch, caption.sen_id, step, rule, caption.text, new_text, **edit_facts))
    return replace(batch, captions=kept, edits=batch.edits + edits, removed=batch.removed + removed)


def tokens_changed(before: str, after: str) -> int:
    """Words of the longer version that a word-level alignment does not match.

    A uniform measure of how much an edit changed, whatever the step did.
    """
    before_words, after_words = before.split(), after.split()
    matched = LCSseq.similarity(before_words, after_words)
    return max(len(before_words), len(after_words)) - matched
