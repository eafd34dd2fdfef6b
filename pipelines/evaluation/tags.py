"""Tag once: the part-of-speech layer (pos/) of captions already tagged, read instead of tagged again.

The rule, the same for every command that needs tags (hardneg, relevance): `--tags FOLDER` names
a capclean output holding a pos/ table (a `capclean hardneg` output). The command reads the tags
of its captions from it and tags with spaCy only the captions that table lacks; without --tags
it tags them all. The table is used only when it is of the same captions and the same tagger:

  - a caption of the command's input whose sen_id is in pos/ must have the same text there;
  - the folder's manifest records, in `environment.packages`, the versions of spaCy and of
    its English model that tagged it (pipelines/output/manifest.py): both must be this
    capclean's (transforms/evaluation/pos.py's TAGGER_PACKAGES).

Anything else is refused with one line (exit 2) naming the folder and, for a caption, its sen_id.
A caption's tags do not depend on the captions tagged beside it, so the output is the same
bytes with or without --tags (benchmarks/bench_relevance.py checks it on MSR-VTT's test split).
"""
from pathlib import Path

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from transforms.errors import CapcleanError
from pipelines.output.manifest import installed_versions, read_manifest
from transforms.evaluation.pos import TAGGER_PACKAGES, TaggedCaption

LIST_COLUMNS = ("tokens", "pos", "tags", "lemmas", "spaces")


class TagsError(CapcleanError):
    """A --tags folder that is not of the same captions or the same tagger."""


def check_tags_folder(folder: str) -> Path:
    """Before any work: --tags is a capclean output with pos/ and a manifest recording this capclean's tagger."""
    path = Path(folder)
    if not (path / "pos").is_dir():
        raise TagsError(f"--tags {folder}: no pos/ table there (a capclean hardneg output has one)")
    packages = (read_manifest(path, required=False) or {}).get("environment", {}).get("packages", {})
    recorded = {package: packages.get(package) for package in TAGGER_PACKAGES}
    if recorded != installed_versions(TAGGER_PACKAGES):
        raise TagsError(f"--tags {folder}: tagged by {described(recorded)}, not by this capclean's "
                        f"{described(installed_versions(TAGGER_PACKAGES))}: tag again without --tags")
    return path


def described(versions: dict) -> str:
    return ", ".join(f"{package} {version or '(not recorded)'}" for package, version in versions.items())


def read_known_tags(folder: Path, captions) -> dict:
    """sen_id -> TaggedCaption of each of `captions` ((sen_id, video_id, split, text)) that pos/ of `folder`
    holds, under the video_id and split of `captions`; a TagsError when a caption's text differs there."""
    wanted = {sen_id: (video_id, split, text) for sen_id, video_id, split, text in captions}
    table = pq.read_table(folder / "pos", columns=["sen_id", "caption", *LIST_COLUMNS])
    table = table.filter(pc.is_in(table["sen_id"], value_set=pa.array(list(wanted), pa.int64())))
    known = {}
    for row in table.to_pylist():
        video_id, split, text = wanted[row["sen_id"]]
        if row["caption"] != text:
            raise TagsError(f"--tags {folder}: caption sen_id {row['sen_id']} reads {row['caption']!r} there and "
                            f"{text!r} in the input: not the same captions; tag again without --tags")
        known[row["sen_id"]] = TaggedCaption(row["sen_id"], video_id, split, text,
                                             *(tuple(row[column]) for column in LIST_COLUMNS))
    return known
