"""A reviewed table back into a reviewed list: the verdicts a person wrote in the `capclean vocab` table (or in
an export of `flagged/`), checked row by row, as the corrections and words step II applies
(transforms/spelling/wordlists.py, ReviewedList; docs/commands/vocab.md).

The table is tab-separated with a header; only three of its columns are read: `token`, `verdict` (`fix`,
`keep`, or empty: not reviewed) and `correct_to` (the replacement of a `fix`). A token may have several rows
(flagged/ has one per occurrence): their verdicts must agree. Anything else is refused in one line that names
the file and the row, before anything is written.
"""
import csv
import re

from transforms.errors import CapcleanError
from transforms.spelling.wordlists import ReviewedList

VERDICTS = ("fix", "keep")
REVIEW_COLUMNS = ("token", "verdict", "correct_to")
# What a correction may write: lowercase words of letters and digits, one space between two words, as the
# captions step II writes are ("set two"). A tab, two spaces or a space at an end are refused.
REPLACEMENT = re.compile(r"[a-z0-9]+( [a-z0-9]+)*")


class ReviewTableError(CapcleanError):
    """A reviewed table that cannot be turned into a reviewed list."""


def read_review_table(path: str) -> ReviewedList:
    """The verdicts of a reviewed table, as a ReviewedList."""
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            return verdicts_of_rows(path, csv.DictReader(handle, delimiter="\t"))
    except (OSError, UnicodeDecodeError) as error:
        raise ReviewTableError(f"cannot read the reviewed table {path}: {error}") from None


def verdicts_of_rows(path: str, reader: csv.DictReader) -> ReviewedList:
    """`reader`'s rows (a csv.DictReader of the table) checked and gathered; rows are named by their line."""
    missing = [column for column in REVIEW_COLUMNS if column not in (reader.fieldnames or ())]
    if missing:
        raise ReviewTableError(f"{path}, line 1: the header has no {', '.join(missing)} column "
                               f"(a reviewed table needs {', '.join(REVIEW_COLUMNS)})")
    verdicts = {}  # token -> (verdict, replacement, line)
    for row in reader:
        line = reader.line_num
        verdict = review_verdict(path, line, row)
        if verdict is None:
            continue
        token = row["token"]
        earlier = verdicts.setdefault(token, (*verdict, line))
        if earlier[:2] != verdict:
            raise ReviewTableError(f"{path}, line {line}: token {token!r} has two verdicts: "
                                   f"{shown(*earlier[:2])} on line {earlier[2]}, {shown(*verdict)} here")
    return ReviewedList({token: to for token, (verdict, to, _) in verdicts.items() if verdict == "fix"},
                        tuple(sorted(token for token, (verdict, _, _) in verdicts.items() if verdict == "keep")))


def review_verdict(path: str, line: int, row: dict):
    """(verdict, replacement) of one row ("" as the replacement of a `keep`), or None for a row not reviewed."""
    token, verdict, correct_to = (row.get(column) or "" for column in REVIEW_COLUMNS)
    verdict = verdict.strip().lower()
    where = f"{path}, line {line}"
    if None in row:
        raise ReviewTableError(f"{where}: more cells than the header has columns (a tab inside a cell?)")
    if not verdict:
        if correct_to:
            raise ReviewTableError(f"{where}: correct_to {correct_to!r} without a verdict; write fix, or empty it")
        return None
    if verdict not in VERDICTS:
        raise ReviewTableError(f"{where}: verdict {verdict!r} is not one of {', '.join(VERDICTS)} (or empty: "
                               "not reviewed)")
    if not token or token != token.strip() or any(space in token for space in " \t"):
        raise ReviewTableError(f"{where}: token {token!r} is not one token (empty, or with a space or tab)")
    if verdict == "keep":
        if correct_to:
            raise ReviewTableError(f"{where}: keep with correct_to {correct_to!r}; keep takes none (fix corrects)")
        return "keep", ""
    if not correct_to:
        raise ReviewTableError(f"{where}: fix without a replacement in correct_to")
    if not REPLACEMENT.fullmatch(correct_to):
        raise ReviewTableError(f"{where}: correct_to {correct_to!r} is not lowercase words of letters and digits "
                               "with one space between two words")
    if correct_to == token:
        raise ReviewTableError(f"{where}: fix {token!r} to itself; write keep")
    return "fix", correct_to


def shown(verdict: str, replacement: str) -> str:
    return f"fix to {replacement!r}" if verdict == "fix" else verdict
