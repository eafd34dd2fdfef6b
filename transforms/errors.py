"""Errors that stop a run with one clear line, even when raised on a worker far from the command line."""

MARK = "capclean error: "


class CapcleanError(ValueError):
    """Its message names the file or record and the problem; the command line prints just that."""

    def __init__(self, message):
        super().__init__(MARK + message)


def find_error_line(error: BaseException):
    """The capclean error line inside an exception a runner raised (runners wrap and stringify worker errors)."""
    for line in str(error).splitlines():
        if MARK in line:
            return line[line.index(MARK):].strip().rstrip("'\"]")
    return None
