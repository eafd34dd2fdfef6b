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
    try:
        number = float(value)
    except (TypeError, ValueError):
        number = math.nan
    # A NaN would rank above every other score (it compares false with everything), so it is refused too.
    if isinstance(value, bool) or math.isnan(number):
        raise error(f"{path}: {where}, column {column}: {value!r} is not a number")
    return number
