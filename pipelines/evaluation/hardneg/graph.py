"""`capclean hardneg`: the hard negatives of a split's captions, as a Beam pipeline.

read the captions (pipelines/evaluation/caption_input.py: a capclean output's captions/, or raw MSR-VTT) ->
select a split or a list of videos -> tag each video's captions (pos/) -> count the vocabulary over all of
them -> the negatives of each video (hardneg/) -> stats.json. A video's captions travel
as one element, so a negative is checked against every caption of its video where it is
made. The method is transforms/evaluation/hardneg.py; docs/commands/hardneg.md says how
to use it and what it gives on MSR-VTT.
"""
from collections import Counter
from dataclasses import asdict, astuple
from pathlib import Path

import apache_beam as beam
import pyarrow as pa
import pyarrow.parquet as pq

from schemas.evaluation_tables import HARDNEG, POS
from transforms.evaluation.hardneg import (LEVELS, HardnegSettings, video_negatives, vocabulary_counts,
                                           vocabulary_from_counts)
from transforms.evaluation.lexicon import open_lexicon
from transforms.evaluation.pos import PARTS_OF_SPEECH, load_tagger, mean_words, part_of_speech_shares, tag_missing
from pipelines.cleaning.write_tables import table_file_path

# sen_ids per Parquet file: pos/ as the cleaning's tables; hardneg/ has a hundred rows a
# caption, and a file's rows meet in one worker's memory, so its ranges are smaller.
SEN_IDS_PER_FILE = {"pos": 50_000, "hardneg": 1_000}
# The paper's counts per part of speech (Chen et al. 2024, Table 1), printed beside capclean's: each caption
# with its 20 negatives, 21 texts a caption (docs/commands/hardneg.md).
PAPER_NEGATIVES = {"noun": 418_130, "verb": 367_560, "adjective": 135_870, "adverb": 17_090, "preposition": 8_510}


class TagVideoFn(beam.DoFn):
    """(video_id, (captions, tags read from --tags)) -> (video_id, [TaggedCaption]): only the captions
    without tags are tagged; spaCy is loaded once per worker, and only when one needs it."""

    def setup(self):
        self._tagger = None

    def process(self, video):
        video_id, (captions, known) = video
        yield video_id, tag_missing(captions, {caption.sen_id: caption for caption in known}, self.tagger)

    def tagger(self):
        if self._tagger is None:
            self._tagger = load_tagger()
        return self._tagger


class NegativesFn(beam.DoFn):
    """(video_id, [TaggedCaption]) -> (file number, rows) of its Negatives; WordNet is opened once per worker."""

    def __init__(self, wordnet_dir: str, settings: HardnegSettings):
        self._wordnet_dir = wordnet_dir
        self._settings = settings

    def setup(self):
        self._lexicon = open_lexicon(Path(self._wordnet_dir))

    def process(self, video, vocabulary):
        _, tagged = video
        yield from rows_by_file(video_negatives(tagged, self._lexicon, vocabulary, self._settings), "hardneg")


def rows_by_file(records, table: str) -> list:
    """(file number, rows) for the records (TaggedCaptions or Negatives) of one video.

    A row is a tuple in the schema's column order: a video's hundreds of negatives cross the
    runner as one element per file, without each row repeating its column names.
    """
    files = {}
    for record in records:
        row = astuple(record)
        files.setdefault(max(record.sen_id, 0) // SEN_IDS_PER_FILE[table], []).append(row)
    return list(files.items())


def write_rows(keyed_rows, output_dir: str, table: str, schema: pa.Schema, sort_key) -> None:
    """One Parquet file per sen_id range, rows sorted, so the same rows give the same bytes."""
    number, row_groups = keyed_rows
    rows = sorted((row for group in row_groups for row in group), key=sort_key)
    columns = {name: [row[index] for row in rows] for index, name in enumerate(schema.names)}
    path = table_file_path(output_dir, table, number)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(pa.Table.from_pydict(columns, schema=schema), path, compression="zstd")


def negative_order(row) -> tuple:
    """sen_id, then part of speech, level and k, by the positions of those columns in HARDNEG."""
    sen_id, part, level, k = (row[HARDNEG.names.index(name)] for name in ("sen_id", "part", "level", "k"))
    return sen_id, list(PARTS_OF_SPEECH).index(part), LEVELS.index(level), k


def build_hardneg(pipeline, videos: dict, output_dir: str, settings: HardnegSettings, wordnet_dir: str,
                  known=None) -> None:
    """Add the whole command to `pipeline`: pos/ and hardneg/ under `output_dir`. `known`: sen_id ->
    TaggedCaption of the captions whose tags were read (--tags), each carried with its video's captions."""
    from pipelines.runtime.progress import log_progress

    known = known or {}
    with_tags = [(video_id, (captions, [known[caption[0]] for caption in captions if caption[0] in known]))
                 for video_id, captions in sorted(videos.items())]
    # Progress with totals: the videos read, then those tagged (the negatives are made in the same stage).
    tagged = (pipeline
              | "Videos" >> beam.Create(with_tags)
              | log_progress("read")
              | "Tag" >> beam.ParDo(TagVideoFn())
              | log_progress("tag"))
    vocabulary = (tagged
                  | "VocabularyCounts" >> beam.Map(lambda video: vocabulary_counts(video[1]))
                  | "AddCounts" >> beam.CombineGlobally(lambda counts: sum(counts, Counter()))
                  | "Vocabulary" >> beam.Map(vocabulary_from_counts, settings.min_vocabulary_count))
    (tagged
     | "PosRows" >> beam.FlatMap(lambda video: rows_by_file(video[1], "pos"))
     | "GroupPosRows" >> beam.GroupByKey()
     | "WritePos" >> beam.Map(write_rows, output_dir, "pos", POS, lambda row: row[0]))
    (tagged
     | "Negatives" >> beam.ParDo(NegativesFn(wordnet_dir, settings), beam.pvalue.AsSingleton(vocabulary))
     | "GroupNegativeRows" >> beam.GroupByKey()
     | "WriteNegatives" >> beam.Map(write_rows, output_dir, "hardneg", HARDNEG, negative_order))


def write_empty_tables(output_dir: str) -> None:
    """A table with no rows is still a folder with one file of its schema, so every reader can open it."""
    for table, schema in (("pos", POS), ("hardneg", HARDNEG)):
        if not any(Path(output_dir, table).glob("*.parquet")):
            write_rows((0, []), output_dir, table, schema, lambda row: 0)


def hardneg_figures(output_dir: str, settings: HardnegSettings) -> dict:
    """stats.json of a hardneg output, from the tables it wrote."""
    from transforms.evaluation.pos import TaggedCaption

    pos_rows = pq.read_table(Path(output_dir) / "pos").to_pylist()
    tagged = [TaggedCaption(**{**row, **{key: tuple(row[key]) for key in ("tokens", "pos", "tags", "lemmas",
                                                                          "spaces")}}) for row in pos_rows]
    negatives = pq.read_table(Path(output_dir) / "hardneg", columns=["part", "level", "source"]).to_pylist()
    by_part = {}
    for row in negatives:
        counts = by_part.setdefault(row["part"], {}).setdefault(row["level"], Counter())
        counts[row["source"]] += 1
        counts["total"] += 1
    with_auxiliaries = part_of_speech_shares(tagged, {"verb": ("VERB", "AUX")})["verb"]
    return {
        "captions": len(tagged),
        "videos": len({caption.video_id for caption in tagged}),
        "mean_words": mean_words(tagged),
        "part_of_speech_shares": part_of_speech_shares(tagged),
        "verb_share_with_auxiliaries": with_auxiliaries,
        "negatives": {part: {level: dict(sorted(counts.items())) for level, counts in levels.items()}
                      for part, levels in by_part.items()},
        "settings": {**asdict(settings), "parts": list(settings.parts), "levels": list(settings.levels),
                     "vocabulary_fallback": list(settings.vocabulary_fallback)},
    }


def format_figures(figures: dict) -> str:
    shares = figures["part_of_speech_shares"]
    lines = [f"  {figures['captions']:,} captions of {figures['videos']:,} videos, "
             f"{figures['mean_words']:.2f} words on average",
             f"  {'part':<12} {'share':>6} {'negatives':>10} {'word':>9} {'phrase':>9} {'paper':>9}"]
    for part in PARTS_OF_SPEECH:
        levels = figures["negatives"].get(part, {})
        word, phrase = (levels.get(level, {}).get("total", 0) for level in LEVELS)
        lines.append(f"  {part:<12} {shares[part]:>6.3f} {word + phrase:>10,} {word:>9,} {phrase:>9,} "
                     f"{PAPER_NEGATIVES[part]:>9,}")
    lines.append(f"  (share of captions with the part; verbs with auxiliaries: "
                 f"{figures['verb_share_with_auxiliaries']:.3f}; paper: its Table 1 count, 21 texts a caption)")
    return "\n".join(lines)
