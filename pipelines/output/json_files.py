"""The JSON files capclean writes: one writer for all of them (stats.json, the manifest, the marker, the
validation result, the figures of --json, the exports' data files), and the check of a file a user names
with --json: a new file, or one the same command wrote earlier (its `written_by` says so); never another
file of the user's."""
import json
import os
from pathlib import Path


def write_json(path, document, *, sort_keys: bool = True, ensure_ascii: bool = True) -> Path:
    """Write `document` to `path` in the JSON people read too: indented by two spaces, keys sorted (so two
    runs give the same bytes), ending in a newline; return the path. `sort_keys=False` keeps the order the
    figures were built in; `ensure_ascii=False` writes non-ASCII characters as they are, not as \\u escapes."""
    text = json.dumps(document, indent=2, sort_keys=sort_keys, ensure_ascii=ensure_ascii) + "\n"
    write_text_whole(Path(path), text)
    return Path(path)


def write_compact_json(path, document) -> Path:
    """Write `document` to `path` as a data file, as compact as MSR-VTT's and COCO's own: one line,
    non-ASCII characters as they are, no final newline; return the path (the exports)."""
    write_text_whole(Path(path), json.dumps(document, ensure_ascii=False))
    return Path(path)


def write_text_whole(path: Path, text: str) -> None:
    """Written beside the target, then renamed over it: an interrupted write leaves the earlier file whole
    (and a reader never sees half of the new one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = path.with_name(f".{path.name}.partial")
    staging.write_text(text, encoding="utf-8")
    os.replace(staging, path)


def check_json_target(path: str, written_by: str, error: type, flag: str = "--json") -> Path:
    """--json PATH (or another `flag` naming a JSON file): a new file, or an earlier one whose `written_by`
    is `written_by`; else `error`, one line."""
    target = Path(path)
    if target.is_dir():
        raise error(f"{flag} {path} is a folder; name a file")
    if target.exists():
        try:
            earlier = json.loads(target.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            earlier = None
        if not isinstance(earlier, dict) or earlier.get("written_by") != written_by:
            raise error(f"{flag} {path} exists and was not written by {written_by}; name a new file")
    return target
