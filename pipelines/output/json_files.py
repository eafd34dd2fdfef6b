"""The JSON file of figures a command writes where a user names it (--json): a new file, or one the same
command wrote earlier (its `written_by` says so); never another file of the user's."""
import json
import os
from pathlib import Path


def check_json_target(path: str, written_by: str, error: type) -> Path:
    """--json PATH: a new file, or an earlier one whose `written_by` is `written_by`; else `error`, one line."""
    target = Path(path)
    if target.is_dir():
        raise error(f"--json {path} is a folder; name a file")
    if target.exists():
        try:
            earlier = json.loads(target.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            earlier = None
        if not isinstance(earlier, dict) or earlier.get("written_by") != written_by:
            raise error(f"--json {path} exists and was not written by {written_by}; name a new file")
    return target


def write_json_file(path: Path, figures: dict) -> None:
    """Written beside the target, then renamed over it: an interrupted write leaves the earlier file whole."""
    path.parent.mkdir(parents=True, exist_ok=True)
    staging = path.with_name(f".{path.name}.partial")
    staging.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    os.replace(staging, path)
