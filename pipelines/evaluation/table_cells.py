"""The cells of a table a user brings (a model's scores or predictions, relevance labels), read as
the evaluation commands need them: an id as text, a score as a finite number. A bad cell is a
one-line error of the caller's class naming the file, the row and the column."""
import math


def cell_id(path, where: str, column: str, value, error) -> str:
    """An id as the captions name it: a string, whatever type the file stored it as."""
    if value is None or (isinstance(value, str) and not value.strip()):
        raise error(f"{path}: {where} has no {column}")
    # pandas stores an integer column that has a gap as floats: 123.0 is sen_id 123.
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip()


def cell_number(path, where: str, column: str, value, error) -> float:
    if value is None or (isinstance(value, str) and not value.strip()):
        raise error(f"{path}: {where}, column {column} is empty")
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = None
    if isinstance(value, bool) or number is None:
        raise error(f"{path}: {where}, column {column}: {value!r} is not a number")
    # A NaN would rank above every other score (it compares false with everything), an infinity always first
    # or last: both are refused, as every scores reader refuses them.
    if not math.isfinite(number):
        raise error(f"{path}: {where}, column {column}: {value!r} is not a finite number")
    return number


# The words a relevance label may be, case aside: what FIRE's files and people labelling a sheet write.
RELEVANT_WORDS = ("1", "1.0", "true", "relevant", "yes")
IRRELEVANT_WORDS = ("0", "0.0", "false", "irrelevant", "no")


def cell_label(path, where: str, column: str, value, error) -> bool:
    """A relevance label: True for a word of RELEVANT_WORDS, False for one of IRRELEVANT_WORDS; any other
    word is refused, naming the words it may be."""
    text = str(value).strip().lower() if value is not None else ""
    if text in RELEVANT_WORDS:
        return True
    if text in IRRELEVANT_WORDS:
        return False
    raise error(f"{path}: {where}, column {column}: {value!r} is not a label (relevant: "
                f"{'/'.join(RELEVANT_WORDS)}; irrelevant: {'/'.join(IRRELEVANT_WORDS)})")
