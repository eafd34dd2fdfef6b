"""`capclean hardneg --authors PATH` and `--write-authors`: the hard negatives in the format Chen et al. (2024)
release them (transforms/evaluation/authors_negatives.py says what it is), read into a hardneg output that
`capclean posrank` and `capclean evaluate --negatives` read, or written beside capclean's own tables as
`authors/ChangeNoun.json`, ... (docs/commands/hardneg.md, "The authors' format")."""
import json
import logging
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq

from pipelines.output.json_files import write_json
from schemas.evaluation_tables import HARDNEG
from transforms.evaluation.authors_negatives import (AuthorsFormatError, authors_documents, negative_rows,
                                                     part_of_file)

log = logging.getLogger("capclean")
FOLDER = "authors"  # where --write-authors writes, in the output folder


def captions_by_video(caption_rows) -> dict:
    """video_id -> its [(sen_id, caption)] by sen_id: the numbering of the authors' keys (video7960#7)."""
    videos = {}
    for sen_id, video_id, _, caption in sorted(caption_rows):
        videos.setdefault(video_id, []).append((sen_id, caption))
    return videos


def authors_files(path: str) -> list:
    """The JSON files `--authors` names: the file, or every *.json of the folder, by name."""
    source = Path(path)
    if not source.exists():
        raise AuthorsFormatError(f"--authors {path} does not exist")
    files = sorted(source.glob("*.json")) if source.is_dir() else [source]
    if not files:
        raise AuthorsFormatError(f"--authors {path} holds no .json file")
    return files


def read_authors_document(file: Path) -> dict:
    """One file of theirs: a JSON object; a key given twice (which json would keep the last of) is refused."""
    def refuse_repeats(pairs):
        seen = {}
        for key, value in pairs:
            if key in seen:
                raise AuthorsFormatError(f"{file}: key {key!r} is given twice")
            seen[key] = value
        return seen

    try:
        document = json.loads(file.read_text(encoding="utf-8"), object_pairs_hook=refuse_repeats)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise AuthorsFormatError(f"{file}: not a readable JSON file ({str(error).splitlines()[0]})") from None
    if not isinstance(document, dict):
        raise AuthorsFormatError(f"{file}: not a JSON object keyed by caption (video7960#7)")
    return document


def read_authors_negatives(path: str, captions_of: dict) -> list:
    """HARDNEG rows of every file `--authors` names; two files of one part and level are refused."""
    rows, parts = [], {}
    for file in authors_files(path):
        part, level = part_of_file(file.name)
        if (part, level) in parts:
            raise AuthorsFormatError(f"{file}: {part} ({level} level) again: {parts[(part, level)].name} has it")
        parts[(part, level)] = file
        rows += negative_rows(str(file), part, level, read_authors_document(file), captions_of)
    return rows


def write_negative_table(rows: list, output_dir: Path) -> None:
    """The hardneg/ table of `rows`, one Parquet file, sorted as capclean's own (sen_id, part, level, k)."""
    from pipelines.evaluation.hardneg.graph import negative_order, write_rows

    ordered = [tuple(row[name] for name in HARDNEG.names) for row in rows]
    write_rows((0, [ordered]), str(output_dir), "hardneg", HARDNEG, negative_order)


def authors_figures(rows: list, path: str, files: list) -> dict:
    """stats.json of an output read from their files: what was read, per part and level."""
    counts = Counter((row["part"], row["level"]) for row in rows)
    negatives = {}
    for (part, level), count in sorted(counts.items()):
        negatives.setdefault(part, {})[level] = {"authors": count, "total": count}
    return {"captions": len({row["sen_id"] for row in rows}), "videos": len({row["video_id"] for row in rows}),
            "negatives": negatives, "settings": {"authors": str(path), "files": [file.name for file in files]}}


def write_authors_files(output_dir: Path, captions_of: dict) -> list:
    """authors/<their name>.json of the output's hardneg/ table; returns the files written."""
    rows = pq.read_table(Path(output_dir) / "hardneg", columns=["sen_id", "part", "level", "k", "text"]).to_pylist()
    folder = Path(output_dir) / FOLDER
    folder.mkdir(exist_ok=True)
    return [write_json(folder / name, document, sort_keys=False, ensure_ascii=False)
            for name, document in authors_documents(rows, captions_of).items()]

