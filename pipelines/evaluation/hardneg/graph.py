"""`capclean hardneg`: the hard negatives of a split's captions, as a Beam pipeline.

read the captions (pipelines/evaluation/caption_input.py: a capclean output's captions/, or raw MSR-VTT) ->
select a split or a list of videos -> tag each video's captions (pos/) -> count the vocabulary over all of
them -> the negatives of each video (hardneg/) -> stats.json. A video's captions travel
as one element, so a negative is checked against every caption of its video where it is
made. The method is transforms/evaluation/hardneg.py; docs/commands/hardneg.md says how
to use it and what it gives on MSR-VTT.
"""
import pickle
from collections import Counter
from dataclasses import asdict
from operator import attrgetter
from pathlib import Path
from typing import NamedTuple

import apache_beam as beam
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from schemas.evaluation_tables import HARDNEG, POS
from transforms.evaluation.hardneg import (LEVELS, HardnegSettings, NegativeColumns, add_video_negatives,
                                           lexicon_words, vocabulary_counts, vocabulary_from_counts)
from transforms.evaluation.lexicon import Lexicon, open_lexicon
from transforms.evaluation.pos import PARTS_OF_SPEECH, load_tagger, mean_words, part_of_speech_shares, tag_missing
from pipelines.cleaning.write_tables import table_file_path
from pipelines.runtime.packing import pack, unpack

# sen_ids per Parquet file: pos/ as the cleaning's tables; hardneg/ has a hundred rows a
# caption, and a file's rows meet in one worker's memory, so its ranges are smaller.
SEN_IDS_PER_FILE = {"pos": 50_000, "hardneg": 1_000}
SCHEMAS = {"pos": POS, "hardneg": HARDNEG}
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
    """(video_id, [TaggedCaption]) -> (file number, block) of its negatives, made as columns (NegativeColumns),
    one block per file (packed). The antonyms come looked up (look_up_words), so no worker
    opens WordNet; each remembers its inflections."""

    def __init__(self, settings: HardnegSettings):
        self._settings = settings

    def setup(self):
        self._lexicon, self._learnt = Lexicon(None, {}), None

    def process(self, video, vocabulary, answers):
        if answers is not self._learnt:
            self._lexicon.learn(answers)
            self._learnt = answers
        _, tagged = video
        files = {}
        add_video_negatives(lambda caption: files.setdefault(file_number(caption.sen_id, "hardneg"), NegativeColumns()),
                            tagged, self._lexicon, vocabulary, self._settings)
        for number, columns in files.items():
            # Packed (pipelines/runtime/packing.py): the runner holds every block until the group by file,
            # and captions compress about three times (docs/benchmarks.md, "Videos packed").
            yield number, pack(columns)


def write_negative_blocks(keyed_blocks, output_dir: str) -> None:
    """One Parquet file of hardneg/: its blocks (packed NegativeColumns) joined into one table."""
    number, blocks = keyed_blocks
    columns = NegativeColumns()
    for block in blocks:
        columns.extend(unpack(block))
    write_sorted(number, [negative_table(columns)], output_dir, "hardneg", HARDNEG, negative_order)


def negative_table(columns: NegativeColumns) -> pa.Table:
    """The HARDNEG table of some negatives, built column by column from NegativeColumns' flat lists
    (not row by row: pa.Table.from_pydict of per-negative tuples was 12 CPU s of the test split).
    What a run (a caption, part and level) shares is repeated by `take`; negative_id and k are
    numbered within each run; a negative's originals are its caption's tokens at its positions."""
    counts = np.array(columns.counts, dtype=np.int64)
    run_of = pa.array(np.repeat(np.arange(len(counts)), counts))  # the run of each negative
    k = np.arange(len(run_of), dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
    shared = {name: pa.array([run[index] for run in columns.runs], HARDNEG.field(name).type).take(run_of)
              for index, name in enumerate(("sen_id", "video_id", "part", "level", "caption"))}
    k = pa.array(k.astype(np.int32))
    negative_id = pc.binary_join_element_wise(pc.cast(shared["sen_id"], pa.string()), shared["part"],
                                              shared["level"], pc.cast(k, pa.string()), "-")
    widths = np.array(columns.widths, dtype=np.int64)
    offsets = pa.array(np.concatenate([[0], np.cumsum(widths)]).astype(np.int32))
    positions = np.array(columns.positions, dtype=np.int64)
    # The tokens of every run, one after another: a changed word's original is at its run's start plus
    # its position.
    token_counts = np.array([len(run[5]) for run in columns.runs], dtype=np.int64)
    run_token_start = np.cumsum(token_counts) - token_counts
    tokens = pa.array([token for run in columns.runs for token in run[5]], pa.string())
    word_of = np.repeat(run_token_start[np.asarray(run_of, dtype=np.int64)], widths) + positions
    arrays = {
        **shared, "negative_id": negative_id, "k": k, "text": pa.array(columns.texts, pa.string()),
        "positions": pa.ListArray.from_arrays(offsets, pa.array(positions.astype(np.int32))),
        "originals": pa.ListArray.from_arrays(offsets, tokens.take(pa.array(word_of, pa.int64()))),
        "replacements": pa.ListArray.from_arrays(offsets, pa.array(columns.replacements, pa.string())),
        "source": pa.array(columns.sources, pa.string()),
    }
    return pa.Table.from_arrays([arrays[name] for name in HARDNEG.names], schema=HARDNEG)


class AddCounts(beam.CombineFn):
    """Counters added into one, in place. (A combining callable, sum(counts, Counter()), copied the
    growing sum at every addition: quadratic in the videos.)"""

    def create_accumulator(self):
        return Counter()

    def add_input(self, total, counts):
        total.update(counts)
        return total

    def merge_accumulators(self, totals):
        totals = iter(totals)
        merged = next(totals)
        for total in totals:
            merged.update(total)
        return merged

    def extract_output(self, total):
        return total


class JoinSets(beam.CombineFn):
    """Sets joined into one, in place."""

    def create_accumulator(self):
        return set()

    def add_input(self, joined, items):
        joined |= items
        return joined

    def merge_accumulators(self, sets):
        sets = iter(sets)
        merged = next(sets)
        for other in sets:
            merged |= other
        return merged

    def extract_output(self, joined):
        return joined


def look_up_words(words: set, wordnet_dir: str) -> dict:
    """The antonyms of every word of the split (Lexicon.answers), looked up once, in one worker: each
    worker's lexicon looked the same words up again (8 s of CPU each on the test split) and held WordNet."""
    return open_lexicon(Path(wordnet_dir)).answers(words)


def file_number(sen_id: int, table: str) -> int:
    """The Parquet file of a table that holds a sen_id's rows: negative and missing ids go to the first."""
    return max(sen_id, 0) // SEN_IDS_PER_FILE[table]


# A TaggedCaption's fields in pos/'s column order (a test checks they are the same), as a tuple.
pos_row = attrgetter(*POS.names)


def pos_blocks(tagged: list) -> list:
    """(file number, block) of one video's TaggedCaptions: the rows of each file of pos/, as tuples, packed.
    (Not an Arrow IPC block a video: 20 rows made a table and a stream each, 5 CPU s of the test split.)"""
    files = {}
    for caption in tagged:
        files.setdefault(file_number(caption.sen_id, "pos"), []).append(pos_row(caption))
    return [(number, pack(rows)) for number, rows in files.items()]


def write_pos_blocks(keyed_blocks, output_dir: str) -> None:
    """One Parquet file of pos/: the rows of its blocks (pos_blocks)."""
    number, blocks = keyed_blocks
    write_rows((number, [unpack(block) for block in blocks]), output_dir, "pos", POS, caption_order)


def rows_table(rows: list, schema: pa.Schema) -> pa.Table:
    """Row tuples in the schema's column order, as a table of that schema."""
    return pa.Table.from_pydict({name: [row[index] for row in rows] for index, name in enumerate(schema.names)},
                                schema=schema)


def write_rows(keyed_rows, output_dir: str, table: str, schema: pa.Schema, order) -> None:
    """One Parquet file of row tuples: (file number, groups of rows)."""
    number, row_groups = keyed_rows
    write_sorted(number, [rows_table([row for group in row_groups for row in group], schema)], output_dir, table,
                 schema, order)


def write_sorted(number: int, tables: list, output_dir: str, table: str, schema: pa.Schema, order) -> None:
    """One Parquet file per sen_id range, rows sorted by `order` (the key columns of a table, as a table),
    so the same rows give the same bytes whatever the order they came in."""
    rows = pa.concat_tables(tables) if len(tables) > 1 else tables[0]
    keys = order(rows)
    # Arrow's sort is stable, as Python's sorted was: rows of equal keys keep their order.
    rows = rows.take(pc.sort_indices(keys, [(name, "ascending") for name in keys.column_names])).combine_chunks()
    path = table_file_path(output_dir, table, number)
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(rows, path, compression="zstd")


def caption_order(table: pa.Table) -> pa.Table:
    return table.select(["sen_id"])


def negative_order(table: pa.Table) -> pa.Table:
    """sen_id, then part of speech (in PARTS_OF_SPEECH's order), level (in LEVELS') and k of each row."""
    return pa.table({"sen_id": table["sen_id"],
                     "part": pc.index_in(table["part"], value_set=pa.array(list(PARTS_OF_SPEECH))),
                     "level": pc.index_in(table["level"], value_set=pa.array(list(LEVELS))), "k": table["k"]})


def build_hardneg(pipeline, videos: dict, output_dir: str, settings: HardnegSettings, wordnet_dir: str,
                  known=None) -> None:
    """Add the whole command to `pipeline`: pos/ and hardneg/ under `output_dir`. `known`: sen_id ->
    TaggedCaption of the captions whose tags were read (--tags), each carried with its video's captions."""
    from pipelines.runtime.progress import log_progress

    known = known or {}
    with_tags = [(video_id, (captions, [known[caption[0]] for caption in captions if caption[0] in known]))
                 for video_id, captions in sorted(videos.items())]
    # Progress with totals: the videos read, then those tagged (the negatives are made in the same stage).
    # Each video crosses into the pipeline pickled: beam.Create infers the type of every value it is given,
    # element by element, more than once (over a second of the driver's CPU for the test split's captions).
    tagged = (pipeline
              | "Videos" >> beam.Create([pickle.dumps(video, protocol=pickle.HIGHEST_PROTOCOL) for video in with_tags])
              | "Unpickle" >> beam.Map(pickle.loads)
              | log_progress("read")
              | "Tag" >> beam.ParDo(TagVideoFn())
              | log_progress("tag"))
    vocabulary = (tagged
                  | "VocabularyCounts" >> beam.Map(lambda video: vocabulary_counts(video[1]))
                  | "AddCounts" >> beam.CombineGlobally(AddCounts())
                  | "Vocabulary" >> beam.Map(vocabulary_from_counts, settings.min_vocabulary_count))
    (tagged
     | "PosRows" >> beam.FlatMap(lambda video: pos_blocks(video[1]))
     | "GroupPosRows" >> beam.GroupByKey()
     | "WritePos" >> beam.Map(write_pos_blocks, output_dir))
    answers = (tagged
               | "LexiconWords" >> beam.Map(lambda video: lexicon_words(video[1]))
               | "AllLexiconWords" >> beam.CombineGlobally(JoinSets())
               | "LookUpWords" >> beam.Map(look_up_words, wordnet_dir))
    (tagged
     | "Negatives" >> beam.ParDo(NegativesFn(settings), beam.pvalue.AsSingleton(vocabulary),
                                 beam.pvalue.AsSingleton(answers))
     | "GroupNegativeRows" >> beam.GroupByKey()
     | "WriteNegatives" >> beam.Map(write_negative_blocks, output_dir))


def write_empty_tables(output_dir: str) -> None:
    """A table with no rows is still a folder with one file of its schema, so every reader can open it."""
    for table, schema in (("pos", POS), ("hardneg", HARDNEG)):
        if not any(Path(output_dir, table).glob("*.parquet")):
            write_rows((0, []), output_dir, table, schema, caption_order)


class CaptionWords(NamedTuple):
    """What the figures read of a caption (pos/'s columns): its text, tokens and parts of speech."""
    caption: str
    tokens: list
    pos: list


def hardneg_figures(output_dir: str, settings: HardnegSettings) -> dict:
    """stats.json of a hardneg output, from the tables it wrote."""
    # Only the columns the figures read, as plain tuples (not TaggedCaptions: 60,000 of them built from
    # dicts were 2 CPU s of the test split's driver).
    pos = pq.read_table(Path(output_dir) / "pos", columns=["video_id", "caption", "tokens", "pos"])
    tagged = [CaptionWords(*row) for row in zip(*(pos[name].to_pylist() for name in CaptionWords._fields))]
    by_part = {}
    for part, level, source, count in negative_counts(Path(output_dir) / "hardneg"):
        counts = by_part.setdefault(part, {}).setdefault(level, Counter())
        counts[source] += count
        counts["total"] += count
    with_auxiliaries = part_of_speech_shares(tagged, {"verb": ("VERB", "AUX")})["verb"]
    return {
        "captions": len(tagged),
        "videos": pc.count_distinct(pos["video_id"]).as_py(),
        "mean_words": mean_words(tagged),
        "part_of_speech_shares": part_of_speech_shares(tagged),
        "verb_share_with_auxiliaries": with_auxiliaries,
        "negatives": {part: {level: dict(sorted(counts.items())) for level, counts in levels.items()}
                      for part, levels in by_part.items()},
        "settings": {**asdict(settings), "parts": list(settings.parts), "levels": list(settings.levels),
                     "vocabulary_fallback": list(settings.vocabulary_fallback)},
    }


def negative_counts(hardneg_dir: Path) -> list:
    """(part, level, source, negatives) of a hardneg/ table, counted by Arrow (not row by row: a split has
    millions), in the order each first appears in the table."""
    columns = ["part", "level", "source"]
    # A few names, millions of rows: read as dictionaries, one for the whole table.
    table = pq.read_table(hardneg_dir, columns=columns, read_dictionary=columns).unify_dictionaries()
    table = table.append_column("row", pa.array(np.arange(table.num_rows, dtype=np.int64)))
    groups = table.group_by(["part", "level", "source"], use_threads=False).aggregate([([], "count_all"),
                                                                                        ("row", "min")])
    groups = groups.sort_by("row_min")
    return list(zip(*(groups[name].to_pylist() for name in ("part", "level", "source", "count_all"))))


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
