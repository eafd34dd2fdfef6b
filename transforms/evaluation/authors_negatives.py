"""The hard negatives as Chen, Doughty, Li and Snoek (2024) release them, read and written.

Their evaluation code (as stored in public repositories; docs/commands/hardneg.md, "The authors' format")
reads one JSON file per part of speech, an object keyed by caption: `video7960#7`, the video and the
caption's index among that video's captions (counted from 0, in the order of the annotations: by sen_id).
Each value is an object whose values are the caption's negative texts, in order; their code takes
`list(value.values())`, puts the caption first and scores the 1 + 20 texts against the video. The keys of
that inner object are not used; capclean writes each negative's k ("0", "1", ...).

The file's part of speech is in its name: their files are named `..._ChangeNoun_...`, `ChangeVerb`,
`ChangeADJ`, `ChangeADV`, `ChangeADP` (prepositions) and, two words changed, `ChangeNP` (noun phrases) and
`ChangeVP` (verb phrases); a name holding the part itself (`..._noun_...`) is read too.

Pure functions: pipelines/evaluation/hardneg/authors_files.py reads and writes the files.
"""
import re

from transforms.errors import CapcleanError

SOURCE = "authors"  # the `source` of a negative read from their files
# The authors' file of each (part, level), as their evaluation code names them (without its dataset and date).
FILE_NAMES = {("noun", "word"): "ChangeNoun.json", ("verb", "word"): "ChangeVerb.json",
              ("adjective", "word"): "ChangeADJ.json", ("adverb", "word"): "ChangeADV.json",
              ("preposition", "word"): "ChangeADP.json", ("noun", "phrase"): "ChangeNP.json",
              ("verb", "phrase"): "ChangeVP.json"}
# The word of a file name -> (part, level), compared lower-cased: their words, then capclean's parts.
FILE_WORDS = {**{name.removesuffix(".json").lower(): key for key, name in FILE_NAMES.items()},
              **{part: (part, "word") for part in ("noun", "verb", "adjective", "adverb", "preposition")}}
KEY = re.compile(r"^(?P<video>[^#\s]+)#(?P<index>\d+)$")


class AuthorsFormatError(CapcleanError):
    """A file of the authors' format that capclean cannot read; the message names the file and the key."""


def part_of_file(name: str) -> tuple:
    """(part, level) that a file's name says, from its words split at '_', '-', '.' and spaces."""
    words = [word.lower() for word in re.split(r"[_\-.\s]+", name)]
    found = {FILE_WORDS[word] for word in words if word in FILE_WORDS}
    if len(found) != 1:
        raise AuthorsFormatError(f"{name}: the file name does not say one part of speech (the authors name them "
                                 "ChangeNoun, ChangeVerb, ChangeADJ, ChangeADV, ChangeADP, ChangeNP, ChangeVP)")
    return found.pop()


def caption_key(video_id: str, index: int) -> str:
    return f"{video_id}#{index}"


def parse_key(file: str, key: str) -> tuple:
    """(video_id, index) of a key `video7960#7`."""
    match = KEY.match(key)
    if not match:
        raise AuthorsFormatError(f"{file}: key {key!r} is not a caption (video_id#index, as video7960#7)")
    return match["video"], int(match["index"])


def negative_texts(file: str, key: str, value) -> list:
    """The negative texts of one caption, in order: the values of an object (or the items of a list)."""
    texts = list(value.values()) if isinstance(value, dict) else value
    if not isinstance(texts, list) or not all(isinstance(text, str) and text.strip() for text in texts):
        raise AuthorsFormatError(f"{file}: {key}: the negatives must be an object (or a list) of texts")
    return texts


def changed_words(caption: str, text: str) -> tuple:
    """(positions, originals, replacements) of the words (split at spaces) that differ, when the two texts have
    as many words; otherwise nothing is said ((), (), ())."""
    before, after = caption.split(), text.split()
    if len(before) != len(after):
        return (), (), ()
    changed = [position for position, (old, new) in enumerate(zip(before, after)) if old != new]
    return (tuple(changed), tuple(before[position] for position in changed),
            tuple(after[position] for position in changed))


def negative_rows(file: str, part: str, level: str, document: dict, captions_of: dict) -> list:
    """HARDNEG rows (dicts) of one file of theirs. `captions_of`: video_id -> its [(sen_id, caption)] by sen_id.
    A key whose video or index the captions do not have is refused, naming it."""
    rows = []
    for key, value in document.items():
        video_id, index = parse_key(file, key)
        captions = captions_of.get(video_id)
        if captions is None:
            raise AuthorsFormatError(f"{file}: key {key}: video {video_id} is not in the captions")
        if index >= len(captions):
            raise AuthorsFormatError(f"{file}: key {key}: video {video_id} has {len(captions)} captions "
                                     f"(#0 to #{len(captions) - 1})")
        sen_id, caption = captions[index]
        for k, text in enumerate(negative_texts(file, key, value)):
            positions, originals, replacements = changed_words(caption, text)
            rows.append({"negative_id": f"{sen_id}-{part}-{level}-{k}", "sen_id": sen_id, "video_id": video_id,
                         "part": part, "level": level, "k": k, "text": text, "caption": caption,
                         "positions": list(positions), "originals": list(originals),
                         "replacements": list(replacements), "source": SOURCE})
    return rows


def authors_documents(rows: list, captions_of: dict) -> dict:
    """{file name: {video#index: {"k": text, ...}}} of HARDNEG rows, one file per (part, level) present; keys
    and negatives in order. `captions_of` as for negative_rows."""
    index_of = {sen_id: caption_key(video_id, index) for video_id, captions in captions_of.items()
                for index, (sen_id, _) in enumerate(captions)}
    documents = {}
    for row in sorted(rows, key=lambda row: (row["sen_id"], row["k"])):
        name = FILE_NAMES.get((row["part"], row["level"]))
        if name is None:  # adjectives, adverbs, prepositions at phrase level have no name of theirs
            name = f"Change{row['part'].capitalize()}_{row['level']}.json"
        documents.setdefault(name, {}).setdefault(index_of[row["sen_id"]], {})[str(row["k"])] = row["text"]
    return dict(sorted(documents.items()))
