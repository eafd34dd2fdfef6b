"""Screening: the captions the output contract cannot hold go to `removed/`, one by one, with the reason.

The contract (schemas/validation/suites.py) allows a caption only the profile's
characters, single-spaced, and a video only the profile's splits. Step I maps what it can
(accents, look-alike letters, curly apostrophes); what is left outside the set
(emoji, Arabic or Chinese script, right-to-left marks, zero-width spaces, ...)
cannot be cleaned into a caption of the dataset. Without this step one such
caption would fail the validation of the whole run.

It runs once the steps that change characters (I and II) are done and before
the steps that compare captions: near-duplicate removal must not keep, as the
best of a group, a caption that screening then removes, and the run-on word
limit is a figure of the captions that are kept.
"""
import unicodedata
from dataclasses import replace

from transforms import lineage
from transforms.step import Step

STEP = "screen"
# How many of a caption's offending characters its reason names.
NAMED_CHARACTERS = 5


def characters_outside(text: str, allowed: frozenset) -> list:
    """The distinct characters of `text` not in `allowed`, in the order they first occur."""
    return list(dict.fromkeys(char for char in text if char not in allowed))


def describe_character(char: str) -> str:
    """'é' -> "'é' U+00E9 LATIN SMALL LETTER E WITH ACUTE"; unnamed characters show their code point only."""
    name = unicodedata.name(char, "")
    shown = repr(char) if char.isprintable() else f"'\\u{ord(char):04x}'"
    return f"{shown} U+{ord(char):04X} {name}".rstrip()


def outside_characters_reason(text: str, allowed: frozenset):
    """Why a caption cannot be kept for its characters, or None when every character is allowed."""
    outside = characters_outside(text, allowed)
    if not outside:
        return None
    named = ", ".join(describe_character(char) for char in outside[:NAMED_CHARACTERS])
    more = f" and {len(outside) - NAMED_CHARACTERS} more" if len(outside) > NAMED_CHARACTERS else ""
    return f"characters outside the profile's set: {named}{more}"


def caption_reason(text: str, allowed: frozenset):
    """Why the contract cannot hold this caption, or None."""
    if text != " ".join(text.split()):
        return "caption is not words separated by single spaces"
    return outside_characters_reason(text, allowed)


def screen_video(batch, allowed_characters: str, splits: tuple):
    """The batch with every caption the contract cannot hold moved to `removed`."""
    if not batch.captions:
        return batch
    if batch.split not in splits:
        reason = f"split {batch.split!r} is not one of the profile's splits ({', '.join(splits)})"
        removed = [lineage.removed(batch, c.sen_id, c.text, STEP, reason) for c in batch.captions]
        return replace(batch, captions=[], removed=batch.removed + removed)
    allowed = frozenset(allowed_characters)
    kept, removed = [], []
    for caption in batch.captions:
        reason = caption_reason(caption.text, allowed)
        if reason is None:
            kept.append(caption)
        else:
            removed.append(lineage.removed(batch, caption.sen_id, caption.text, STEP, reason))
    if not removed:
        return batch
    return replace(batch, captions=kept, removed=batch.removed + removed)


class Screen(Step):
    """Screening, with the profile's `validation` section: the contract it keeps is the validation's."""
    name = STEP
    summary = "captions with characters outside the character set removed"
    optional = False

    def process(self, video):
        validation = self.config.validation
        return screen_video(video, validation.allowed_characters, tuple(validation.splits))
