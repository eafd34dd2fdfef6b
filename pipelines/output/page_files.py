"""Writing capclean's HTML pages to a file a user names, without destroying one of theirs.

Every page capclean writes (the cleaning report and the evaluation pages) opens its body with PAGE_MARK:
their one template, pipelines/pages/html.py, puts it there. A command given a page's path
(`capclean report --output`, `--report` of fire, posrank and ndcg) may replace a file there only if
it carries the mark: a page capclean wrote earlier. A folder or any other file is refused in one
line before the command's long part.
"""
import os
from pathlib import Path

PAGE_MARK = "<!-- written by capclean -->"
# The mark sits after the inline CSS, well within the first 64 KiB.
MARK_SEARCH_BYTES = 1 << 16


def check_page_target(path: str, flag: str, error: type, default_name: str) -> Path:
    """The file a page may be written to: a new one, or a page capclean wrote (PAGE_MARK); a folder or
    any other existing file raises `error` in one line."""
    target = Path(path)
    if target.is_dir():
        raise error(f"{flag} {path} is a folder; name the page's file ({target / default_name})")
    if target.exists():
        try:
            with target.open("rb") as handle:
                top = handle.read(MARK_SEARCH_BYTES).decode("utf-8", errors="replace")
        except OSError as problem:
            raise error(f"{flag} {path}: cannot read it ({problem.strerror or problem})") from None
        if PAGE_MARK not in top:
            raise error(f"{flag} {path} exists and was not written by capclean; name a new file")
    return target


def write_page(page: str, path: Path) -> Path:
    """Write `page` to `path`, making its folder; return the path."""
    path.parent.mkdir(parents=True, exist_ok=True)
    # Write beside the target and rename, so a reader never sees half a page.
    partial = path.with_name(f".{path.name}.partial")
    partial.write_text(page, encoding="utf-8")
    os.replace(partial, path)
    return path
